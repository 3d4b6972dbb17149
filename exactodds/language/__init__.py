"""The condition language of paytable rows, one job a module: :mod:`.vocabulary` (its words),
:mod:`.nodes` (the syntax tree), :mod:`.semantics` (what a comparison and ``none`` mean),
:mod:`.parser` (text to tree), :mod:`.evaluate` (value-level evaluation) and :mod:`.condition`
(:class:`~exactodds.language.condition.Condition`,
:func:`~exactodds.language.condition.parse_condition`). Imported as a whole through
:mod:`exactodds.conditions`.
"""
