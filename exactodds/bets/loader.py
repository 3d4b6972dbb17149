"""Paytable files: untrusted TOML read into a :class:`~exactodds.bets.paytable.Paytable`.

A file is parsed, type-checked and every problem is reported with the file, line, bet and row;
nothing in it is ever executed. A rules file it names must stay inside its folder
(:func:`confined_rules_file`). Bundled paytables are found by name (:func:`resolve_paytable`).

>>> table = load_paytable(default_paytable())
>>> table.bet("player_pair").rows[0].pays.to_one()
'11 to 1'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from functools import cached_property, partial
from pathlib import Path
from typing import Any, TypeVar

from exactodds.bets.bundled import bundled_paytables, default_paytable, resolve_paytable
from exactodds.bets.game import PAYTABLE_GAME, GameChoice
from exactodds.bets.judge import bet_path, judge_rows, never_offered, row_path
from exactodds.bets.multiplier_keys import KeyProblem, bind_multipliers, parse_multiplier_tables
from exactodds.bets.multipliers import MultiplierTable
from exactodds.bets.payout import Payout, parse_number
from exactodds.bets.paytable import Bet, Paytable, Rounding, RoundingMode, Row
from exactodds.bets.progressive import bind_progressive, parse_row_payout
from exactodds.bets.streak import StreakBet, parse_streak_bet
from exactodds.deal.tableau import Tableau
from exactodds.errors import (
    ExactOddsError,
    InputFileError,
    PaytableError,
    first_problem,
    quote,
    require,
)
from exactodds.escape import printable
from exactodds.files import read_data
from exactodds.language import Condition, absent_comparisons, offer_reads_later, parse_condition
from exactodds.limits import (
    MAX_BETS,
    MAX_DECKS,
    MAX_NAME_CHARS,
    MAX_ROWS,
    MAX_SHOE_CARDS,
    MAX_TEXT_CHARS,
    too_long,
)
from exactodds.suggest import did_you_mean
from exactodds.toml_lines import KeyPath, cite, toml_lines

__all__ = [
    "bundled_paytables",
    "confined_rules_file",
    "default_paytable",
    "examine_paytable",
    "judge_paytable",
    "load_paytable",
    "never_offered",
    "parse_paytable",
    "resolve_paytable",
    "validate_paytable",
]


T = TypeVar("T")

# -- parsing --------------------------------------------------------------------------------------

_TOP_KEYS = {"name", "description", "decks", "rules", "bets", "source", "allow_unreachable"}
_TOP_KEYS |= {"multipliers"}  # [multipliers.NAME] tables (exactodds.bets.multiplier_keys)
_BET_KEYS = {"name", "description", "rows", "max_round", "rounding", "offer", "fee", "peek"}
_BET_KEYS |= {"stake", "progressive"}  # a progressive bet (exactodds.bets.progressive)
_ROW_KEYS = {"when", "pays", "event", "multiply", "commission"}  # (.multiplier_keys)
_BET_ID = re.compile(r"^[a-z][a-z0-9_]*\Z")


class _Problems:
    """Collects every problem of a file, each with the line it is on when the text is known:
    the line of the key, the ``[bets.ID]`` header of a bet, the row itself (see
    :func:`~exactodds.toml_lines.toml_lines`). It also remembers the conditions and payouts
    already read, which a file may repeat thousands of times (each text is parsed once)."""

    def __init__(self, origin: str, text: str) -> None:
        self.origin = origin
        self.text = text
        self.items: list[str] = []
        self.warnings: list[str] = []
        self.conditions: dict[str, Condition] = {}
        self.payouts: dict[str, Payout] = {}
        self.tables: tuple[MultiplierTable, ...] | None = ()  # [multipliers.NAME] (None: bad)

    @cached_property
    def lines(self) -> dict[KeyPath, int]:
        """The line of each key path, found only when a problem is cited (a valid file
        is never scanned for them)."""
        return toml_lines(self.text) if self.text else {}

    def where(self, *paths: KeyPath) -> str:
        """``origin:line`` of the first of ``paths`` found in the text, else ``origin``."""
        return cite(self.origin, self.lines, *paths)

    def add(self, message: str, *paths: KeyPath) -> None:
        self.items.append(f"{self.where(*paths)}: {message}")

    def warn(self, message: str, *paths: KeyPath) -> None:
        self.warnings.append(f"{self.where(*paths)}: {message}")


def _unknown_keys(
    data: Mapping[str, Any], known: set[str], problems: _Problems, where: str, paths: Any
) -> bool:
    """Report each unknown key at ``paths(key)``, with the closest known; whether none was."""
    for key in sorted(set(data) - known):
        message = f"{where}unknown key {key!r} (expected one of {sorted(known)})"
        problems.add(message + did_you_mean(str(key), known), *paths(key))
    return not set(data) - known


def parse_paytable(
    data: Mapping[str, Any],
    origin: str = "<paytable>",
    text: str = "",
    game: GameChoice | None = None,
    *,
    counted: bool = True,
    allow_unreachable: bool = False,
) -> tuple[Paytable | None, list[str]]:
    """Build a paytable from parsed TOML data, collecting every problem instead of stopping.
    A row no round can reach is a warning, not a problem, with ``allow_unreachable`` (or the
    file's ``allow_unreachable = true``: generated tables).

    Its rows and offers are judged under ``game`` (the options of the command that uses it,
    see :func:`_judge`), or under its own shoe and rules when it is validated alone (None);
    ``counted=False`` (a command that never counts the rows on the whole shoe) leaves the
    card-level bets unjudged.

    >>> bets = {"player": {"rows": [{"when": "player.wins", "pays": "1:1"}]}}
    >>> table, problems = parse_paytable({"decks": 0, "bets": bets})
    >>> for line in [table, *problems]:  # doctest: +ELLIPSIS
    ...     print(line)
    None
    <paytable>: 'decks' must be a positive integer, not 0
    <paytable>: bet 'player': the last row must be when = "otherwise" (every round must ...)
    >>> bets["player"]["rows"].append({"when": "otherwise", "pays": "lose"})
    >>> table, problems = parse_paytable({"bets": bets})
    >>> table.decks, [r.event for r in table.bet("player").rows], problems
    (8, ['player.wins', 'Otherwise'], [])
    """
    require(data, (Mapping,), "data")
    problems = _Problems(origin, text)
    _unknown_keys(data, _TOP_KEYS, problems, "", lambda key: [(key,)])
    name, description = _parse_texts(data, origin, problems)
    decks = data.get("decks", 8)
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
        problems.add(f"'decks' must be a positive integer, not {quote(decks)}", ("decks",))
        decks = 8
    elif decks > MAX_DECKS:
        problems.add(f"'decks' = {decks} is over the limit of {MAX_DECKS:,} decks", ("decks",))
        decks = 8
    tableau = _parse_rules(data.get("rules", "punto-banco"), problems)
    problems.tables = _extension(partial(parse_multiplier_tables, data), problems)
    bets_data = data.get("bets")
    bets: list[Bet] = []
    streaks: list[StreakBet] = []
    if not isinstance(bets_data, Mapping) or not bets_data:
        problems.add("no bets: add at least one [bets.ID] table")
    elif len(bets_data) > MAX_BETS:
        problems.add(f"{len(bets_data):,} bets is over the limit of {MAX_BETS} bets", ("bets",))
    else:
        bets, streaks = _parse_bets(bets_data, problems)
    if tableau is None:
        return None, problems.items
    table = Paytable(
        name,
        description,
        decks,
        tableau,
        tuple(bets),
        source=str(data.get("source", "")),
        streaks=tuple(streaks),
        multipliers=problems.tables or (),
    )
    allow = data.get("allow_unreachable", False)
    if not isinstance(allow, bool):
        problems.add(f"'allow_unreachable' must be true or false, not {quote(allow)}")
    judge_rows(table, problems, game, counted, allow=allow_unreachable or allow is True)
    if problems.items:
        return None, problems.items
    return replace(table, warnings=tuple(problems.warnings)), problems.items


def _parse_texts(data: Mapping[str, Any], origin: str, problems: _Problems) -> tuple[str, str]:
    """The paytable's name (default: the file's) and description; their problems, and the
    source's, in ``problems``."""
    name = data.get("name", printable(Path(origin).stem))  # a file name may hold controls
    if not isinstance(name, str):
        problems.add(f"'name' must be a string, not {quote(name)}", ("name",))
        name = str(name)
    description = data.get("description", "")
    if not isinstance(description, str):
        problems.add(f"'description' must be a string, not {quote(description)}", ("description",))
        description = ""
    for key, value, limit in (
        ("name", name, MAX_NAME_CHARS),
        ("description", description, MAX_TEXT_CHARS),
        ("source", data.get("source", ""), MAX_TEXT_CHARS),
    ):
        message = too_long(str(value), limit, repr(key))
        if message is not None:
            problems.add(message, (key,))
    return name, description


def _rules_file(value: Any, origin: str) -> Path | None:
    """The rules file a paytable names (``*.toml`` or ``*.json``, relative to the paytable's
    folder), if it names one."""
    if not isinstance(value, str) or not value.endswith((".toml", ".json")):
        return None
    return Path(origin).parent / value


def confined_rules_file(value: str, origin: str | Path) -> Path:
    """The rules file ``value`` named by the paytable ``origin``, checked to stay inside the
    paytable's folder: no absolute path, no ``..`` out of it, no symbolic link pointing out.
    A paytable from elsewhere can thus never make exactodds read a file outside its folder.

    >>> confined_rules_file("/etc/passwd", "games/house.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: rules file '/etc/passwd' must be inside ... (an absolute ...
    >>> confined_rules_file("../x.toml", "games/house.toml")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: rules file '../x.toml' must be inside the paytable's folder
    """
    where = f"rules file {quote(value)} must be inside the paytable's folder"
    if Path(value).is_absolute():
        raise InputFileError(f"{where} (an absolute path is not)")
    folder = Path(origin).parent
    try:
        inside = (folder / value).resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):  # a symbolic-link loop, a NUL in the name
        inside = False
    if not inside:
        raise InputFileError(where)
    return folder / value


def _parse_rules(value: Any, problems: _Problems) -> Tableau | None:
    try:
        if isinstance(value, Mapping):
            return Tableau.from_mapping(value, default_name="custom")
        if isinstance(value, str):
            if _rules_file(value, problems.origin) is None:
                return Tableau.named(value)
            return Tableau.from_file(confined_rules_file(value, problems.origin))
        problems.add(f"'rules' must be a rules name or table, not {quote(value)}", ("rules",))
    except ExactOddsError as exc:
        problems.add(str(exc), ("rules",))
    return None


def _parse_bet(bet_id: str, data: Any, problems: _Problems) -> Bet | None:
    here = bet_path(bet_id)
    message = too_long(bet_id, MAX_NAME_CHARS, "bet id", show=True)
    if message is not None:
        problems.add(message)
        return None
    if not _BET_ID.match(bet_id):
        problems.add(f"bet id {quote(bet_id)} must be lower-case letters, digits and _", here)
    if not isinstance(data, Mapping):
        problems.add(f"bet {bet_id!r} must be a table", here)
        return None
    start = len(problems.items)
    _unknown_keys(
        data, _BET_KEYS, problems, f"bet {bet_id!r}: ", lambda key: [bet_path(bet_id, key), here]
    )
    name = data.get("name", bet_id)
    if not isinstance(name, str):
        problems.add(
            f"bet {bet_id!r}: 'name' must be a string, not {quote(name)}",
            bet_path(bet_id, "name"),
        )
    for key, limit in (("name", MAX_NAME_CHARS), ("description", MAX_TEXT_CHARS)):
        message = too_long(str(data.get(key, "")), limit, f"bet {bet_id!r}: {key!r}")
        if message is not None:
            problems.add(message, bet_path(bet_id, key))
    max_round = data.get("max_round")
    if max_round is not None and (
        not isinstance(max_round, int)
        or isinstance(max_round, bool)
        or not 1 <= max_round <= MAX_SHOE_CARDS
    ):
        problems.add(
            f"bet {bet_id!r}: max_round must be a positive integer of at most "
            f"{MAX_SHOE_CARDS:,}, not {quote(max_round)}",
            bet_path(bet_id, "max_round"),
        )
    rounding = _parse_rounding(bet_id, data.get("rounding"), problems)
    offer = _parse_offer(bet_id, data.get("offer"), problems)
    rows = _parse_rows(bet_id, data.get("rows"), problems)
    if len(problems.items) > start:
        return None
    paths = [bet_path(bet_id, k) for k in ("progressive", "stake")]
    bind = partial(bind_progressive, bet_id, data, rows)
    if (bound := _extension(bind, problems, *paths, bet_path(bet_id))) is None:
        return None
    progressive, bound_rows = bound
    bet = Bet(
        bet_id,
        str(name),
        bound_rows,
        max_round,
        rounding,
        str(data.get("description", "")),
        offer,
        progressive,
    )
    return _extension(partial(bind_multipliers, bet, data, problems.tables), problems, here)


def _parse_bets(
    bets_data: Mapping[str, Any], problems: _Problems
) -> tuple[list[Bet], list[StreakBet]]:
    """The bets settled on one round, and the streak bets (a ``streak`` key)."""
    bets: list[Bet] = []
    streaks: list[StreakBet] = []
    for key, bet_data in bets_data.items():
        bet_id, here = str(key), bet_path(str(key))
        if isinstance(bet_data, Mapping) and "streak" in bet_data:
            call = partial(parse_streak_bet, bet_id, bet_data)
            if (streak := _extension(call, problems, (*here, "streak"), here)) is not None:
                streaks.append(streak)
        elif (bet := _parse_bet(bet_id, bet_data, problems)) is not None:
            bets.append(bet)
    return bets, streaks


def _extension(parse: Callable[[], T], problems: _Problems, *paths: KeyPath) -> T | None:
    """``parse()`` of a progressive or streak bet (:mod:`exactodds.bets.progressive`,
    :mod:`exactodds.bets.streak`), its one problem in ``problems``."""
    try:
        return parse()
    except PaytableError as exc:
        problems.add(str(exc), *(exc.paths if isinstance(exc, KeyProblem) else ()), *paths)
        return None


def _parse_rows(bet_id: str, rows_data: Any, problems: _Problems) -> list[Row]:
    """The rows of a bet, each checked, and 'otherwise' last; problems in ``problems``."""
    here = bet_path(bet_id)
    rows: list[Row] = []
    if not isinstance(rows_data, list) or not rows_data:
        problems.add(
            f"bet {bet_id!r}: 'rows' must be a non-empty list of rows",
            bet_path(bet_id, "rows"),
            here,
        )
    elif len(rows_data) > MAX_ROWS:
        problems.add(
            f"bet {bet_id!r}: {len(rows_data):,} rows is over the limit of {MAX_ROWS} rows",
            bet_path(bet_id, "rows"),
            here,
        )
    else:
        for n, row_data in enumerate(rows_data, 1):
            row = _parse_row(bet_id, n, row_data, problems)
            if row is not None:
                rows.append(row)
        if len(rows) == len(rows_data):
            for n, row in enumerate(rows, 1):
                if row.when.is_otherwise and n != len(rows):
                    problems.add(
                        f"bet {bet_id!r} row {n}: 'otherwise' must be the last row "
                        f"(rows {n + 1}-{len(rows)} can never match)",
                        row_path(bet_id, n),
                    )
            if not rows[-1].when.is_otherwise:
                problems.add(
                    f'bet {bet_id!r}: the last row must be when = "otherwise" '
                    "(every round must settle the bet)",
                    row_path(bet_id, len(rows)),
                )
    return rows


def _parse_offer(bet_id: str, value: Any, problems: _Problems) -> Condition | None:
    """The condition on the first four cards under which the bet is offered (None: always)."""
    if value is None:
        return None
    here = bet_path(bet_id, "offer")
    try:
        offer = _remembered(problems.conditions, value, parse_condition)
    except PaytableError as exc:
        problems.add(f"bet {bet_id!r}: offer: {exc}", here)
        return None
    later = offer_reads_later(offer)
    if offer.is_otherwise or later:
        what = "'otherwise'" if offer.is_otherwise else ", ".join(later)
        problems.add(
            f"bet {bet_id!r}: offer must be a condition on the first four cards (initial totals, "
            f"naturals, pairs, card1/card2 features, count(initial, …), initial.poker), "
            f"not {what}",
            here,
        )
        return None
    return offer


def _parse_rounding(bet_id: str, value: Any, problems: _Problems) -> Rounding | None:
    if value is None:
        return None
    here = bet_path(bet_id, "rounding")
    if not isinstance(value, Mapping) or set(value) - {"step", "mode"} or "step" not in value:
        problems.add(
            f'bet {bet_id!r}: rounding must be {{ step = "0.01", mode = "down" }}, '
            f"not {quote(value)}",
            here,
        )
        return None
    step_raw = value["step"]
    try:
        if isinstance(step_raw, str):
            step = parse_number(step_raw)
        elif isinstance(step_raw, int | Fraction) and not isinstance(step_raw, bool):
            step = Fraction(step_raw)
        else:
            raise PaytableError(f"not a number: {quote(step_raw)}")
    except PaytableError as exc:
        problems.add(f"bet {bet_id!r}: rounding step: {exc}", here)
        return None
    if step <= 0:
        problems.add(f"bet {bet_id!r}: rounding step must be positive, not {quote(step_raw)}", here)
        return None
    mode = value.get("mode", "down")
    try:
        return Rounding(step, RoundingMode(mode))
    except ValueError:
        modes = [m.value for m in RoundingMode]
        shown = ", ".join(modes) + did_you_mean(str(mode), modes)
        problems.add(f"bet {bet_id!r}: rounding mode {quote(mode)} is not one of {shown}", here)
        return None


def _parse_row(bet_id: str, n: int, data: Any, problems: _Problems) -> Row | None:
    where = f"bet {bet_id!r} row {n}"
    here = row_path(bet_id, n)
    if not isinstance(data, Mapping):
        problems.add(f"{where}: a row must be {{ when = …, pays = …, event = … }}", here)
        return None
    when_text = data.get("when")
    ok = _unknown_keys(data, _ROW_KEYS, problems, f"{where}: ", lambda k: [row_path(bet_id, n, k)])
    if "when" not in data:
        problems.add(f"{where}: missing 'when'", here)
        return None
    if "pays" not in data:
        problems.add(f"{where}: missing 'pays'", here)
        return None
    try:
        when = _remembered(problems.conditions, when_text, parse_condition)
    except PaytableError as exc:
        problems.add(f"{where}: {exc}", row_path(bet_id, n, "when"))
        ok = False
    try:
        pays = _remembered(problems.payouts, data["pays"], parse_row_payout)
    except PaytableError as exc:
        problems.add(f"{where}: {exc}", row_path(bet_id, n, "pays"))
        ok = False
    event = data.get("event", when_text if isinstance(when_text, str) else "")
    if not isinstance(event, str):
        problems.add(
            f"{where}: 'event' must be a string, not {quote(event)}",
            row_path(bet_id, n, "event"),
        )
        ok = False
    elif "event" in data and (message := too_long(event, MAX_NAME_CHARS, f"{where}: 'event'")):
        problems.add(message, row_path(bet_id, n, "event"))
        ok = False
    if not ok:
        return None
    for text in absent_comparisons(when):
        problems.warn(
            f"{where}: {text!r} compares two cards that may not be dealt: it is false when "
            "either is none (write '… == none' to match rounds without them)",
            row_path(bet_id, n, "when"),
        )
    return Row(when, pays, str(event) if str(event) != "otherwise" else "Otherwise")


def _remembered(memo: dict[str, T], text: object, parse: Callable[[Any], T]) -> T:
    """``parse(text)``, parsed once per text (anything but a text is parsed, to be refused)."""
    if not isinstance(text, str):
        return parse(text)
    value = memo.get(text)
    if value is None:
        value = memo[text] = parse(text)
    return value


def judge_paytable(
    table: Paytable, game: GameChoice | None = None, *, examples: bool = False
) -> Paytable:
    """``table`` (loaded with ``counted=False``) with its card-level bets judged under ``game``
    too, once the command has checked its options: their work on the card engine (with a
    sheet's worked ``examples``), offers and rows (:func:`_judge`); the first problem raises
    :class:`PaytableError`, warnings are added.

    >>> table = load_paytable("colour-match", counted=False)
    >>> judge_paytable(table).warnings
    ()
    """
    card = replace(table, bets=tuple(b for b in table.bets if b.card_level))
    if not card.bets:
        return table
    file = read_data(table.path, "toml") if table.path is not None else None  # lines cited
    problems = _Problems(str(table.path or table.name), file.text if file else "")
    allow = file is not None and file.data.get("allow_unreachable") is True
    judge_rows(card, problems, game, counted=True, allow=allow, examples=examples)
    if problems.items:
        raise first_problem(PaytableError, problems.items, "")
    return replace(table, warnings=(*table.warnings, *problems.warnings))


def validate_paytable(path: str | Path) -> list[str]:
    """Every problem of a paytable file, one message each (empty when the file is valid).

    >>> validate_paytable("classic")
    []
    >>> validate_paytable("no/such.toml")  # doctest: +ELLIPSIS
    ['no/such.toml: file not found (bundled paytables: banker-streak, bonus-pairs, ..., trainer)']
    """
    return examine_paytable(path)[1]


def examine_paytable(
    path: str | Path, game: GameChoice | None = None, *, allow_unreachable: bool = False
) -> tuple[Paytable | None, list[str]]:
    """A paytable file read once: the paytable (its warnings included) and no problems when it
    is valid, else None and every problem, one message each (what ``validate`` prints); its
    rows judged alone (``game`` None) or under the game those options choose; rows no round
    reaches are warnings with ``allow_unreachable``.

    >>> table, problems = examine_paytable("classic")
    >>> table.name, problems
    ('Classic (commission)', [])
    >>> examine_paytable("no/such.toml")[0] is None
    True
    """
    try:
        return _read_paytable(resolve_paytable(path), game, allow_unreachable=allow_unreachable)
    except InputFileError as exc:
        return None, [str(exc)]


def load_paytable(
    path: str | Path | None = None, game: GameChoice | None = None, *, counted: bool = True
) -> Paytable:
    """Read and check a paytable file (a path, a bundled name, or None for the default game),
    its rows judged under ``game`` (the command's options; None: its own shoe and rules) where
    the command counts them (``counted``, see :func:`parse_paytable`).

    A file with problems raises one :class:`PaytableError` naming the first problem and counting
    the rest (all of them in its ``problems``); an unreadable file an :class:`InputFileError`.

    >>> import hashlib
    >>> table = load_paytable("classic")
    >>> table.name, table.sha256 == hashlib.sha256(default_paytable().read_bytes()).hexdigest()
    ('Classic (commission)', True)
    """
    p = resolve_paytable(path) if path is not None else default_paytable()
    table, problems = _read_paytable(p, game or PAYTABLE_GAME, counted)
    if table is None:
        raise first_problem(PaytableError, problems, f"; run exactodds validate {p}")
    return table


def _read_paytable(
    p: Path,
    game: GameChoice | None = None,
    counted: bool = True,
    *,
    allow_unreachable: bool = False,
) -> tuple[Paytable | None, list[str]]:
    """The paytable of the file ``p`` with its path, SHA-256 and rules file, or its problems."""
    file = read_data(p, "toml")
    data = file.data
    table, problems = parse_paytable(
        data, str(p), file.text, game, counted=counted, allow_unreachable=allow_unreachable
    )
    if table is None:
        return None, problems
    return replace(
        table, path=p, sha256=file.sha256, rules_file=_rules_file(data.get("rules"), str(p))
    ), problems
