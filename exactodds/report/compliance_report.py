"""Compliance in words: ``exactodds check``'s output (paytables checked against jurisdiction
profiles, as Markdown or JSON) and the Compliance section of a math sheet
(:func:`compliance_blocks`).

The checks are :mod:`exactodds.compliance.rules`'s, made on the shoe and drawing rules of the
options (the paytable's own by default), exactly as a sheet's Compliance section shows them.

>>> results = check_paytables(["classic"], "gli-11,mga")
>>> [(r.label, r.compliance.summary()) for r in results]
[('paytables/classic.toml', '56 checks: 54 pass, 2 fail, 0 n/a')]
>>> json.loads(render_checks(results, "json"))["checks"][0]["verdict"]
'pass'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import attrgetter

from exactodds.bets.budget import check_card_work
from exactodds.bets.game import PAYTABLE_GAME, GameChoice
from exactodds.bets.loader import default_paytable, load_paytable
from exactodds.bets.payout import Notation
from exactodds.bets.paytable import Paytable
from exactodds.bets.settle_rounds import select_bets
from exactodds.compliance.profiles import check_paytable_against, load_profiles
from exactodds.compliance.rules import (
    Compliance,
    Outcome,
    Verdict,
    describe_value,
    outcome_of,
    required_notation,
)
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import ReportError, parameter
from exactodds.formats import Format
from exactodds.report.document import Block, Code, Heading, Inline, Para, Strong, Table

__all__ = [
    "CHECK_FORMATS",
    "CheckedPaytable",
    "check_paytables",
    "checks_outcome",
    "compliance_blocks",
    "render_checks",
]

CHECK_FORMATS = (Format.MD, Format.JSON)
"""Output formats of ``exactodds check``."""


@dataclass(frozen=True)
class CheckedPaytable:
    """A paytable's checks and the shoe and rules they were made on."""

    paytable: Paytable
    shoe: Shoe
    tableau: Tableau
    compliance: Compliance

    @property
    def label(self) -> str:
        """The paytable's file as a sheet names it (or its name)."""
        return self.paytable.label

    @property
    def shoe_and_rules(self) -> str:
        """The shoe and drawing rules of the checks, in words."""
        return f"{self.shoe.describe()}, drawing rules {self.tableau.name}"

    def to_json(self) -> dict[str, object]:
        """The paytable, the shoe and rules of its checks and their summary, JSON-ready (the
        checks themselves are :meth:`~exactodds.compliance.rules.Compliance.to_json`'s).

        >>> (r,) = check_paytables(["classic"], "mga")
        >>> r.to_json()["summary"]
        {'checks': 28, 'pass': 26, 'fail': 2, 'n/a': 0}
        """
        return {
            "paytable": self.label,
            "name": self.paytable.name,
            "sha256": self.paytable.sha256,
            "shoe": self.shoe.describe(),
            "rules": self.tableau.name,
            "verdict": self.compliance.verdict.value,
            "summary": self.compliance.to_json()["summary"],
        }


def check_paytables(
    specs: Sequence[str],
    against: str,
    *,
    game: GameChoice = PAYTABLE_GAME,
    notation: Notation | None = None,
    allow_player_edge: bool = False,
    bet_ids: Sequence[str] = (),
) -> list[CheckedPaytable]:
    """Check the paytables ``specs`` (files or bundled names; the default game when empty)
    against the profiles ``against`` names, on the shoe and rules ``game`` chooses, with
    payouts stated in ``notation`` (by default the one the profiles require, else both);
    ``allow_player_edge`` drops exactodds' own no-player-edge rule from every profile;
    ``bet_ids`` checks only those bets of each paytable (every bet when empty).

    >>> (r,) = check_paytables([], "adm", game=GameChoice(decks=6, rules="mini"))
    >>> r.shoe_and_rules, r.compliance.count(Verdict.PASS)
    ('6 decks (312 cards), drawing rules mini', 17)
    >>> check_paytables([], "nj")[0].compliance.notation.value  # NJ: payouts stated "to"
    'to'
    """
    profiles = load_profiles(against)
    if notation is None:
        notation = required_notation(profiles) or Notation.BOTH
    if allow_player_edge:
        profiles = tuple(p.allowing_player_edge() for p in profiles)
    tableau = game.tableau() if game.rules is not None else None
    out = []
    for spec in specs or [str(default_paytable())]:
        table = load_paytable(spec, game)
        with parameter("bet_ids"):
            table = select_bets(table, bet_ids)
        shoe = game.shoe(table)
        used = tableau or table.tableau
        check_card_work(table.bets, shoe, used)
        c = check_paytable_against(table, profiles, shoe=shoe, tableau=used, notation=notation)
        out.append(CheckedPaytable(table, shoe, used, c))
    return out


def render_checks(results: Sequence[CheckedPaytable], fmt: str) -> str:
    """The checks as Markdown (a section per paytable) or one JSON object ``{"checks": […]}``
    whose checks also name their ``paytable``.

    >>> print(render_checks(check_paytables(["classic"], "nj"), "md").splitlines()[0])
    # Classic (commission) — compliance
    """
    if Format.check(fmt, CHECK_FORMATS, ReportError) is Format.JSON:
        return json.dumps(_checks_object(results), indent=2, ensure_ascii=False) + "\n"
    from exactodds.report.markdown import render_blocks

    parts = []
    for r in results:
        blocks = [
            Heading(1, f"{r.paytable.name} — compliance", "compliance"),
            Para(("Paytable ", Code(r.label), ".")),
            *compliance_blocks(r.compliance, r.shoe_and_rules, level=2),
        ]
        parts.append(render_blocks(blocks))
    return "\n".join(parts)


def _checks_object(results: Sequence[CheckedPaytable]) -> dict[str, object]:
    """The JSON object of ``exactodds check``: every check naming its paytable, the totals,
    the paytables and the profiles."""
    checks = [
        {"paytable": r.label, **check}
        for r in results
        for check in r.compliance.to_json()["checks"]
    ]
    total = {v.value: sum(r.compliance.count(v) for r in results) for v in Verdict}
    return {
        "verdict": checks_outcome(results).value,
        "checks": checks,
        "summary": {"checks": len(checks), **total},
        "notation": results[0].compliance.notation.value if results else Notation.BOTH.value,
        "paytables": [r.to_json() for r in results],
        "profiles": results[0].compliance.to_json()["profiles"] if results else [],
    }


def checks_outcome(results: Sequence[CheckedPaytable]) -> Outcome:
    """The verdict of every check of ``results``: ``fail``, else ``incomplete`` (a check
    ``n/a``), else ``pass``.

    >>> checks_outcome(check_paytables(["classic"], "gli-11")).value
    'pass'
    """
    return outcome_of(k for r in results for k in r.compliance.checks)


_NOTATION_WORDS = {
    Notation.BOTH: '"to 1" and "for 1" (--notation both)',
    Notation.TO: '"to 1" (--notation to)',
    Notation.FOR: '"for 1" (--notation for)',
}


def compliance_blocks(c: Compliance, shoe_and_rules: str, level: int = 3) -> list[Block]:
    """The checks of ``c`` made on ``shoe_and_rules`` (in words): a summary, then per profile
    a heading of ``level``, its source and one table of checks.

    >>> from exactodds.compliance.profiles import check_paytable_against
    >>> from exactodds.bets.loader import load_paytable
    >>> c = check_paytable_against(load_paytable("classic"), "mga")
    >>> blocks = compliance_blocks(c, "8 decks")
    >>> blocks[2].text, blocks[-1].rows[2][3:5]  # Tie 8:1: RTP 1 − 14.3596% (docs/rules.md §9)
    ('Malta — MGA, minimum return to player', ('85.6404%', 'pass'))
    """
    blocks: list[Block] = [
        Para(
            f"{c.summary()}. Every rule is checked on each bet (regulators do not say per bet or "
            f"per game), with the shoe and drawing rules in use ({shoe_and_rules}) and payouts "
            f"stated {_NOTATION_WORDS[c.notation]}, from the exact figures (exact values in JSON)."
        ),
        Para(_verdict_line(c)),
    ]
    for profile in c.profiles:
        checks = [k for k in c.checks if k.profile == profile.id]
        blocks.append(Heading(level, profile.name, f"compliance-{_anchor(profile.id)}"))
        intro: list[str | Code | Strong] = ["Profile ", Code(profile.id)]
        if profile.file and profile.file != profile.id:
            intro += [" (", Code(profile.file), ")"]
        intro.append(f": {profile.source.rstrip('.')}." if profile.source else ".")
        if profile.description:
            intro.append(f" {profile.description}")
        blocks.append(Para(tuple(intro)))
        for rule in profile.rules:
            if rule.source:
                blocks.append(Para(f"{rule.kind.label} ({rule.limit_text}): {rule.source}", "note"))
        rows: list[tuple[Inline, ...]] = []
        for kind, same_rule in groupby(checks, key=attrgetter("rule")):
            rule = next(r for r in profile.rules if r.kind is kind)
            for i, k in enumerate(same_rule):  # the rule and its limit on its first row
                rows.append(
                    (
                        "" if i else kind.label,
                        "" if i else rule.limit_text,
                        (k.bet_name, " (", Code(k.bet), ")"),
                        describe_value(k),
                        Strong("FAIL") if k.verdict is Verdict.FAIL else k.verdict.value,
                        k.note,
                    )
                )
        header = ("Rule", "Limit", "Bet", "Value", "Verdict", "Note")
        blocks.append(Table(header, tuple(rows), "lllrll"))
    return blocks


def _verdict_line(c: Compliance) -> tuple[str | Strong, ...]:
    """``Verdict: pass`` (or ``fail``), or ``incomplete`` naming the bets not judged.

    >>> from exactodds.compliance.profiles import check_paytable_against
    >>> from exactodds.bets.loader import load_paytable
    >>> _verdict_line(check_paytable_against(load_paytable("classic"), "mga"))[1].text
    'fail'
    """
    line: tuple[str | Strong, ...] = ("Verdict: ", Strong(c.verdict.value))
    unjudged = c.unjudged()
    if not unjudged:
        return (*line, ".")
    bets = ", ".join(dict.fromkeys(f"{k.bet_name} ({k.bet})" for k in unjudged))
    why = "a check" if len(unjudged) == 1 else f"{len(unjudged)} checks"
    done = "" if c.verdict is Outcome.INCOMPLETE else ", and incomplete"
    return (*line, f"{done}: {why} n/a, not judged: {bets}.")


def _anchor(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")
