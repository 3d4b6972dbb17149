"""The math sheet as data: a paytable's exact figures on one shoe and tableau, with provenance.

A :class:`Sheet` is renderer-neutral: Markdown, HTML and PDF render its document
(:mod:`exactodds.report.content`); JSON, CSV and XLSX read the sheet directly, every bet figure
through :mod:`exactodds.report.figures`. The date is an input (``--date`` or SOURCE_DATE_EPOCH), so
the same inputs always give byte-identical sheets.

>>> from exactodds.bets.loader import default_paytable, load_paytable
>>> sheet = build_sheet(load_paytable(default_paytable()), date="2024-01-01")
>>> sheet.file, sheet.universe, sheet.bet("banker").figures.house_edge > 0
('paytables/classic.toml', 4998398275503360, True)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.bets.budget import check_card_work
from exactodds.bets.bundled import command_path, sheet_path
from exactodds.bets.game import GameChoice
from exactodds.bets.loader import bundled_paytables, never_offered
from exactodds.bets.payout import Notation
from exactodds.bets.paytable import Bet, Occurrence, Paytable, row_occurrence
from exactodds.bets.settle_rounds import check_bet_ids
from exactodds.compliance.rules import Compliance, Profile, run_checks
from exactodds.deal.engine import Joint, joint_distribution
from exactodds.deal.shoe import Shoe
from exactodds.deal.tableau import Tableau
from exactodds.errors import DateError, PaytableError, about, parameter, require
from exactodds.figures.metrics import (
    DEFAULT_STAKES,
    BetFigures,
    bet_figures,
    rtp_by_stake,
    unrounded,
)
from exactodds.figures.worked_examples import Example, row_examples
from exactodds.files import read_bytes
from exactodds.report.command import ReportCommand
from exactodds.suggest import did_you_mean

if TYPE_CHECKING:
    from exactodds.analysis.montecarlo import BetCheck
    from exactodds.bets.progressive import ProgressiveFigures
    from exactodds.bets.streak import StreakBet
    from exactodds.report.protection import SheetProtection
    from exactodds.report.session import SheetSession

__all__ = [
    "CONFIDENCE_PLACES",
    "BetSheet",
    "InputFile",
    "Sheet",
    "SheetMonteCarlo",
    "StakeRTP",
    "build_sheet",
    "file_input",
    "resolve_date",
]

_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_EPOCH = re.compile(r"-?[0-9]{1,20}")

CONFIDENCE_PLACES = 10
"""Decimal places of the confidence bounds and the volatility index in JSON."""


@dataclass(frozen=True)
class InputFile:
    """A file the sheet was computed from, with its SHA-256.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> sheet = build_sheet(load_paytable(default_paytable()), date="2024-01-01")
    >>> [(i.role, i.path, i.sha256 == sheet.paytable.sha256) for i in sheet.inputs]
    [('paytable', 'paytables/classic.toml', True)]
    """

    role: str
    path: str
    sha256: str


@dataclass(frozen=True)
class StakeRTP:
    """RTP of a rounded bet at one stake, and whether it equals the unrounded RTP.

    Touch pays Banker to the cent, rounded down: a 0.10 stake gets 0.19 back, not 0.195, while
    0.20 gets exactly 0.39.

    >>> from exactodds.bets.loader import load_paytable
    >>> banker = build_sheet(load_paytable("touch"), date="2024-01-01").bet("banker")
    >>> [(str(r.stake), r.equals_unrounded) for r in banker.rtp_by_stake[:2]]
    [('1/10', False), ('1/5', True)]
    """

    stake: Fraction
    rtp: Fraction
    equals_unrounded: bool


@dataclass(frozen=True)
class BetSheet:
    """One bet's figures, whether each row occurs at all on this shoe (see
    :func:`~exactodds.bets.paytable.row_occurrence`), and for a bet with a rounding rule its RTP by
    stake.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> pair = build_sheet(load_paytable(default_paytable()), date="2024-01-01").bet("player_pair")
    >>> pair.bet.name, pair.figures.house_edge, pair.rtp_by_stake, pair.unrounded_rtp
    ('Player Pair', Fraction(43, 415), (), None)
    >>> one = build_sheet(load_paytable("classic"), shoe=Shoe.decks(1), bet_ids=["perfect_pair"])
    >>> notes = one.bet("perfect_pair").notes  # one deck holds no two identical cards
    >>> notes[:3] == ("never occurs with this shoe",) * 3, notes[3]
    (True, '')
    """

    figures: BetFigures
    rtp_by_stake: tuple[StakeRTP, ...] = ()
    unrounded_rtp: Fraction | None = None
    occurrence: tuple[Occurrence, ...] = ()
    examples: tuple[Example | None, ...] = ()
    """Per row: its worked example (:func:`~exactodds.figures.worked_examples.row_examples`), None
    for a row that never occurs; empty when not computed."""

    @property
    def bet(self) -> Bet:
        """The bet these figures are of."""
        return self.figures.bet

    @cached_property
    def progressive(self) -> ProgressiveFigures | None:
        """A progressive bet's meter figures (:mod:`exactodds.bets.progressive`); None for fixed
        pays."""
        from exactodds.figures.progressive import progressive_figures

        return progressive_figures(self.figures)

    @property
    def paid_differs(self) -> bool:
        """Whether money paid per unit staked is not the stake alone (a fee or a peek's raise):
        then RTP and house edge are per money paid and the sheets say so."""
        return bool(self.bet.fee) or self.bet.peek is not None

    @property
    def live_fee(self) -> Fraction | None:
        """The fee per unit staked where the bet's money paid differs from its stake."""
        return self.figures.fee if self.paid_differs else None

    @property
    def live_paid(self) -> Fraction | None:
        """Money paid per unit staked (stake, fee, a peek's expected raise), where it differs."""
        return self.figures.paid if self.paid_differs else None

    @property
    def live_rtp_per_stake(self) -> Fraction | None:
        """Money returned per unit staked (fees not counted as paid), where it differs."""
        return self.figures.rtp_per_stake if self.paid_differs else None

    @property
    def notes(self) -> tuple[str, ...]:
        """Per row: ``""``, or why it has 0 combinations (``never occurs with this shoe``)."""
        return tuple("" if o is Occurrence.OCCURS else o.value for o in self.occurrence) or (
            ("",) * len(self.figures.rows)
        )


@dataclass(frozen=True)
class SheetMonteCarlo:
    """Optional Monte Carlo section: ``rounds`` rounds dealt from fresh shoes with ``seed``.

    One :class:`~exactodds.analysis.montecarlo.BetCheck` per bet of the sheet, in sheet order; its
    classes are the bet's paytable rows, in row order. A statistical check of the exact figures,
    never a source of them.

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> from exactodds.report.montecarlo import monte_carlo_sheet
    >>> sheet = build_sheet(load_paytable(default_paytable()), bet_ids=["tie"], date="2024-01-01")
    >>> v = monte_carlo_sheet(sheet, rounds=2000, seed=3).monte_carlo
    >>> v.rounds, [b.bet_id for b in v.bets], sum(c.observed for c in v.bets[0].classes)
    (2000, ['tie'], 2000)
    >>> v.bets[0].ev == sheet.bet("tie").figures.ev  # the exact figure, never the observed one
    True
    """

    rounds: int
    seed: int
    bets: tuple[BetCheck, ...]


@dataclass(frozen=True)
class Sheet:
    """Everything a math sheet shows, exact (plus an optional Monte Carlo section).

    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> sheet = build_sheet(load_paytable(default_paytable()), date="2024-01-01", version="9.9")
    >>> sheet.stem, sheet.software, sheet.shoe.describe(), sheet.with_date("2025-06-30").date
    ('classic', 'exactodds 9.9', '8 decks (416 cards)', '2025-06-30')
    """

    paytable: Paytable
    file: str
    shoe: Shoe
    tableau: Tableau
    universe: int
    bets: tuple[BetSheet, ...]
    inputs: tuple[InputFile, ...]
    version: str
    date: str
    monte_carlo: SheetMonteCarlo | None = None
    rerun: ReportCommand | None = None
    """The ``exactodds report`` command of the sheet's paytable, game, bets, profiles and
    notation (its sections are added by :attr:`rerun_command`), or None when its shoe or rules
    cannot be given as options."""
    notation: Notation = Notation.BOTH
    """How the sheet states payouts: "to 1", "for 1", or both beside the payout as written."""
    compliance: Compliance | None = None
    protection: SheetProtection | None = None
    """Checks of the sheet's bets against jurisdiction profiles (``--against``), if asked."""
    session: SheetSession | None = None
    """Sessions of N rounds of each bet (``--session N``), if asked."""
    shown_streaks: tuple[StreakBet, ...] | None = None
    """The streak bets the sheet shows when ``--bet`` chose some (None: all the paytable's)."""

    @property
    def streaks(self) -> tuple[StreakBet, ...]:
        """The streak bets on the sheet: the paytable's, or those ``--bet`` named."""
        return self.paytable.streaks if self.shown_streaks is None else self.shown_streaks

    @property
    def rerun_command(self) -> ReportCommand | None:
        """The command that recomputes this sheet with every section it carries
        (``--protection``, ``--monte-carlo-rounds N --seed S``, ``--session N``), None as
        :attr:`rerun`."""
        if self.rerun is None:
            return None
        mc = self.monte_carlo
        return self.rerun.with_sections(
            protection=self.protection is not None,
            monte_carlo=None if mc is None else (mc.rounds, mc.seed),
            session=None if self.session is None else self.session.rounds,
        )

    @property
    def command(self) -> str | None:
        """The command that recomputes this sheet from any folder, quoted for a POSIX shell:
        the one line every part of the sheet names (:class:`ReportCommand`).

        >>> from exactodds.bets.loader import load_paytable
        >>> build_sheet(load_paytable("classic"), shoe=Shoe.decks(6)).command
        'exactodds report classic --decks 6'
        """
        command = self.rerun_command
        return None if command is None else command.line()

    @property
    def overrides(self) -> tuple[str, ...]:
        """How this sheet departs from its paytable's own game, one sentence each (none for the
        paytable as written).

        >>> from exactodds.bets.loader import load_paytable
        >>> sheet = build_sheet(
        ...     load_paytable("classic"), shoe=Shoe.decks(6), tableau=Tableau.named("mini")
        ... )
        >>> for line in sheet.overrides:
        ...     print(line)
        8 decks in the paytable; 6 decks (312 cards) used here.
        punto-banco rules in the paytable; mini used here.
        """
        t = self.paytable
        out = []
        if self.shoe != t.shoe:
            s = "s" if t.decks != 1 else ""
            out.append(f"{t.decks} deck{s} in the paytable; {self.shoe.describe()} used here.")
        if self.tableau != t.tableau:
            out.append(f"{t.tableau.name} rules in the paytable; {self.tableau.name} used here.")
        ids = [b.bet.id for b in self.bets] + [b.id for b in self.streaks]
        if len(ids) != (every := len(t.every_bet)):  # streak bets counted as bets
            out.append(f"{every} bets in the paytable; {len(ids)} shown here: {', '.join(ids)}.")
        return tuple(out)

    @property
    def software(self) -> str:
        """Name and version of the program that computed the sheet."""
        return f"exactodds {self.version}"

    @property
    def stem(self) -> str:
        """File name stem for written sheets (``classic`` for ``classic.toml``): the paytable
        file's own, not its name as shown (:attr:`file` escapes control characters)."""
        path = self.paytable.path
        return path.stem if path is not None else _file_stem(self.paytable.name)

    def bet(self, bet_id: str) -> BetSheet:
        """The figures of the bet with this id."""
        for b in self.bets:
            if b.bet.id == bet_id:
                return b
        ids = [b.bet.id for b in self.bets]
        raise PaytableError(
            f"{self.file or self.paytable.name}: no bet {bet_id!r} on this sheet"
            + did_you_mean(bet_id, ids)
        )

    def with_date(self, date: str) -> Sheet:
        """The same sheet dated ``date``."""
        return replace(self, date=date)


def _file_stem(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "paytable"


def file_input(role: str, path: str | Path) -> InputFile:
    """An :class:`InputFile` for ``path`` (read to compute its SHA-256).

    >>> from exactodds.bets.loader import default_paytable
    >>> file_input("paytable", default_paytable())  # doctest: +ELLIPSIS
    InputFile(role='paytable', path='paytables/classic.toml', sha256='...')
    >>> file_input("shoe", "no/such/shoe.toml")
    Traceback (most recent call last):
    ...
    exactodds.errors.InputFileError: no/such/shoe.toml: file not found
    """
    p = Path(path)
    return InputFile(role, sheet_path(p), hashlib.sha256(read_bytes(p)).hexdigest())


def resolve_date(date: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The sheet date: ``date`` if given, else SOURCE_DATE_EPOCH (UTC), else today (UTC).

    >>> resolve_date("2024-02-29"), resolve_date(None, {"SOURCE_DATE_EPOCH": "0"})
    ('2024-02-29', '1970-01-01')
    >>> resolve_date("29.02.2024")
    Traceback (most recent call last):
    ...
    exactodds.errors.DateError: date '29.02.2024' is not a date YYYY-MM-DD
    >>> resolve_date(None, {"SOURCE_DATE_EPOCH": "\u0661"})  # an Arabic-Indic 1, not ASCII
    Traceback (most recent call last):
    ...
    exactodds.errors.DateError: SOURCE_DATE_EPOCH '١' is not a Unix time
    """
    env = os.environ if environ is None else environ
    if date is not None:
        try:
            if not _DATE.match(date):
                raise ValueError(date)
            return dt.date.fromisoformat(date).isoformat()
        except ValueError:
            raise about(DateError(f"date {date!r} is not a date YYYY-MM-DD"), "date") from None
    epoch = env.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            if not _EPOCH.fullmatch(epoch):  # ASCII digits only, as the specification says
                raise ValueError(epoch)
            return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date().isoformat()
        except (ValueError, OverflowError, OSError):
            raise DateError(f"SOURCE_DATE_EPOCH {epoch!r} is not a Unix time") from None
    return dt.datetime.now(dt.UTC).date().isoformat()


def _bet_sheet(figures: BetFigures, bet: Bet, joint: Joint, with_examples: bool) -> BetSheet:
    occurrence = row_occurrence(bet, joint)
    examples = row_examples(bet, joint.shoe, joint.tableau) if with_examples else ()
    if bet.rounding is None:
        return BetSheet(figures, occurrence=occurrence, examples=examples)
    base = bet_figures(joint, unrounded(bet)).rtp
    table = tuple(StakeRTP(s, r, r == base) for s, r in rtp_by_stake(joint, bet, DEFAULT_STAKES))
    return BetSheet(figures, table, base, occurrence, examples)


def build_sheet(
    paytable: Paytable,
    *,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    bet_ids: Sequence[str] | None = None,
    date: str | None = None,
    version: str | None = None,
    extra_inputs: Iterable[InputFile] = (),
    game: GameChoice | None = None,
    against: Sequence[Profile] = (),
    notation: Notation = Notation.BOTH,
    examples: bool = True,
    budget: float | None = None,
) -> Sheet:
    """Compute the sheet of ``paytable`` on the shoe and tableau given, else those ``game``
    chooses, else the paytable's own; refused first if its card-level bets would take longer
    than ``budget`` CPU seconds (default: ``EXACTODDS_BUDGET``, else 30).

    ``bet_ids`` restricts the sheet to those bets (unknown ids raise :class:`PaytableError`);
    ``version`` defaults to the installed exactodds version. ``game`` is the choice of the
    command line (``--decks 6 --rules mini``): its options, and ``bet_ids`` as ``--bet``, make
    the sheet's rerun command; without it the options are derived from ``shoe`` and
    ``tableau`` where options can say them (:meth:`GameChoice.of`). ``against`` adds a
    compliance section (checks on this shoe and these rules, see :mod:`exactodds.compliance.rules`);
    ``notation`` is how payouts are stated. ``examples=False`` leaves out the rows' worked
    examples (:attr:`BetSheet.examples` empty), work the terminal summary does not show.

    >>> from math import perm
    >>> from exactodds.bets.loader import default_paytable, load_paytable
    >>> table = load_paytable(default_paytable())
    >>> sheet = build_sheet(table, shoe=Shoe.decks(6), bet_ids=["tie"], date="2024-01-01")
    >>> sheet.universe == perm(312, 6), [b.bet.id for b in sheet.bets]
    (True, ['tie'])
    >>> from exactodds.compliance.profiles import load_profiles
    >>> checked = build_sheet(table, against=load_profiles("adm"), notation=Notation.TO)
    >>> checked.compliance.summary(), checked.command
    ('28 checks: 18 pass, 10 fail, 0 n/a', 'exactodds report classic --against adm --notation to')
    """
    require(paytable, (Paytable,), "paytable")
    require(game, (GameChoice, type(None)), "game")
    require(against, (list, tuple), "against")
    for profile in against:
        require(profile, (Profile,), "against's items")
    require(shoe, (Shoe, type(None)), "shoe")
    require(tableau, (Tableau, type(None)), "tableau")
    if version is None:
        from exactodds._version import VERSION as __version__

        version = __version__
    chosen = game or GameChoice()
    shoe = shoe or chosen.shoe(paytable)
    tableau = tableau or chosen.tableau(paytable)
    streaks = {b.id: b for b in paytable.streaks}
    with parameter("bet_ids"):  # round bets and streak bets
        check_bet_ids(paytable, bet_ids or ())
        round_ids = [b for b in bet_ids or () if b not in streaks]
        bets = paytable.bets if not bet_ids else tuple(paytable.round_bet(b) for b in round_ids)
    shown = (
        None if not bet_ids else tuple(streaks[b] for b in dict.fromkeys(bet_ids) if b in streaks)
    )
    check_card_work(bets, shoe, tableau, examples=examples, budget=budget)
    joint = joint_distribution(shoe, tableau)
    for bet in bets:  # the loader refuses them on the game of the command; the API here
        never = never_offered(bet, joint)
        if never is not None:
            raise PaytableError(never)
    sheets = tuple(_bet_sheet(bet_figures(joint, bet), bet, joint, examples) for bet in bets)
    file = sheet_path(paytable.path)
    inputs: list[InputFile] = []
    if paytable.sha256 is not None:
        inputs.append(InputFile("paytable", file, paytable.sha256))
    if paytable.rules_file is not None and tableau == paytable.tableau:
        inputs.append(file_input("rules", paytable.rules_file))
    inputs.extend(extra_inputs)
    inputs.extend(InputFile("profile", p.file, p.sha256) for p in against if p.sha256)
    if game is None:
        game = GameChoice.of(paytable, shoe, tableau)
        bet_options = _bet_options(paytable, bets, shown)
    else:
        bet_options = tuple(bet_ids or ())
    name = _paytable_argument(paytable)
    rerun = (
        None
        if game is None or name is None
        else ReportCommand(
            name,
            game,
            bet_options,
            tuple(p.argument for p in against),
            any(p.edge_allowed_by_option for p in against),
            notation,
        )
    )
    compliance = None
    if against:
        streak_bets = paytable.streaks if shown is None else shown
        compliance = run_checks(against, joint, bets, notation=notation, streaks=streak_bets)
    return Sheet(
        paytable,
        file,
        shoe,
        tableau,
        joint.total,
        sheets,
        tuple(inputs),
        version,
        resolve_date(date),
        rerun=rerun,
        notation=notation,
        compliance=compliance,
        shown_streaks=shown,
    )


def _paytable_argument(paytable: Paytable) -> str | None:
    """How a command names the paytable: a bundled one by its name (a path inside the package
    does not exist elsewhere), a file by its absolute path, so the command runs from any folder
    (and a name like ``-x.toml`` never reads as an option).

    >>> import os
    >>> from exactodds.bets.loader import load_paytable
    >>> named = _paytable_argument(replace(load_paytable("classic"), path=Path("-x.toml")))
    >>> named == os.path.join(os.getcwd(), "-x.toml")
    True
    """
    if paytable.path is None:
        return None
    if paytable.path.resolve() in {p.resolve() for p in bundled_paytables()}:
        return paytable.path.stem
    return command_path(paytable.path)


def _bet_options(
    paytable: Paytable, bets: Sequence[Bet], streaks: Sequence[StreakBet] | None = None
) -> tuple[str, ...]:
    """The bet ids for ``--bet`` when the sheet shows only some of the paytable's bets (round
    bets, then streak bets)."""
    shown = paytable.streaks if streaks is None else tuple(streaks)
    if (tuple(bets), shown) == (paytable.bets, paytable.streaks):
        return ()
    return tuple(bet.id for bet in bets) + tuple(bet.id for bet in shown)
