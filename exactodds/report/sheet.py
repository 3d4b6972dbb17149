"""The math sheet as data: a paytable's exact figures on one shoe and tableau, with provenance.

A :class:`Sheet` is renderer-neutral. Markdown and HTML go through :mod:`exactodds.report.layout`;
CSV and JSON read the sheet directly. The date is an input (``--date`` or SOURCE_DATE_EPOCH), so
the same inputs always give byte-identical sheets.

>>> from exactodds.paytable import default_paytable, load_paytable
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
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.engine import Joint, joint_distribution
from exactodds.errors import DateError, InputFileError, PaytableError
from exactodds.metrics import DEFAULT_STAKES, BetFigures, bet_figures, rtp_by_stake, unrounded
from exactodds.paytable import Bet, Paytable, display_path
from exactodds.shoe import Shoe
from exactodds.tableau import Tableau

if TYPE_CHECKING:
    from exactodds.analysis.verify import BetCheck

__all__ = [
    "BetSheet",
    "InputFile",
    "Sheet",
    "SheetVerification",
    "StakeRTP",
    "build_sheet",
    "display_path",
    "file_input",
    "resolve_date",
]

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class InputFile:
    """A file the sheet was computed from, with its SHA-256."""

    role: str
    path: str
    sha256: str


@dataclass(frozen=True)
class StakeRTP:
    """RTP of a rounded bet at one stake, and whether it equals the unrounded RTP."""

    stake: Fraction
    rtp: Fraction
    equals_unrounded: bool


@dataclass(frozen=True)
class BetSheet:
    """One bet's figures; for a bet with a rounding rule also its RTP by stake."""

    figures: BetFigures
    rtp_by_stake: tuple[StakeRTP, ...] = ()
    unrounded_rtp: Fraction | None = None

    @property
    def bet(self) -> Bet:
        """The bet these figures are of."""
        return self.figures.bet


@dataclass(frozen=True)
class SheetVerification:
    """Optional Monte Carlo section: ``rounds`` rounds dealt from fresh shoes with ``seed``.

    One :class:`~exactodds.analysis.verify.BetCheck` per bet of the sheet, in sheet order; its
    classes are the bet's paytable rows, in row order. A statistical check of the exact figures,
    never a source of them.
    """

    rounds: int
    seed: int
    bets: tuple[BetCheck, ...]


@dataclass(frozen=True)
class Sheet:
    """Everything a math sheet shows, exact (plus an optional Monte Carlo verification)."""

    paytable: Paytable
    file: str
    shoe: Shoe
    tableau: Tableau
    universe: int
    bets: tuple[BetSheet, ...]
    inputs: tuple[InputFile, ...]
    version: str
    date: str
    verification: SheetVerification | None = None

    @property
    def software(self) -> str:
        """Name and version of the program that computed the sheet."""
        return f"exactodds {self.version}"

    @property
    def stem(self) -> str:
        """File name stem for written sheets (``classic`` for ``classic.toml``)."""
        return Path(self.file).stem if self.file else _slug(self.paytable.name)

    def bet(self, bet_id: str) -> BetSheet:
        """The figures of the bet with this id."""
        for b in self.bets:
            if b.bet.id == bet_id:
                return b
        raise PaytableError(f"{self.file or self.paytable.name}: no bet {bet_id!r} on this sheet")

    def with_date(self, date: str) -> Sheet:
        """The same sheet dated ``date``."""
        return replace(self, date=date)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "paytable"


def file_input(role: str, path: str | Path) -> InputFile:
    """An :class:`InputFile` for ``path`` (read to compute its SHA-256)."""
    p = Path(path)
    try:
        digest = hashlib.sha256(p.read_bytes()).hexdigest()
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read file ({exc.strerror})") from None
    return InputFile(role, display_path(p), digest)


def resolve_date(date: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The sheet date: ``date`` if given, else SOURCE_DATE_EPOCH (UTC), else today (UTC).

    >>> resolve_date("2024-02-29"), resolve_date(None, {"SOURCE_DATE_EPOCH": "0"})
    ('2024-02-29', '1970-01-01')
    >>> resolve_date("29.02.2024")
    Traceback (most recent call last):
    ...
    exactodds.errors.DateError: --date '29.02.2024' is not a date YYYY-MM-DD
    """
    env = os.environ if environ is None else environ
    if date is not None:
        try:
            if not _DATE.match(date):
                raise ValueError(date)
            return dt.date.fromisoformat(date).isoformat()
        except ValueError:
            raise DateError(f"--date {date!r} is not a date YYYY-MM-DD") from None
    epoch = env.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date().isoformat()
        except (ValueError, OverflowError, OSError):
            raise DateError(f"SOURCE_DATE_EPOCH {epoch!r} is not a Unix time") from None
    return dt.datetime.now(dt.UTC).date().isoformat()


def _bet_sheet(figures: BetFigures, bet: Bet, joint: Joint) -> BetSheet:
    if bet.rounding is None:
        return BetSheet(figures)
    base = bet_figures(joint, unrounded(bet)).rtp
    table = tuple(StakeRTP(s, r, r == base) for s, r in rtp_by_stake(joint, bet, DEFAULT_STAKES))
    return BetSheet(figures, table, base)


def build_sheet(
    paytable: Paytable,
    *,
    shoe: Shoe | None = None,
    tableau: Tableau | None = None,
    bet_ids: Sequence[str] | None = None,
    date: str | None = None,
    version: str | None = None,
    extra_inputs: Iterable[InputFile] = (),
) -> Sheet:
    """Compute the sheet of ``paytable`` (on its own shoe and tableau unless given).

    ``bet_ids`` restricts the sheet to those bets (unknown ids raise :class:`PaytableError`);
    ``version`` defaults to the installed exactodds version.
    """
    if version is None:
        from exactodds import __version__

        version = __version__
    shoe = shoe or paytable.shoe()
    tableau = tableau or paytable.tableau
    bets = paytable.bets if not bet_ids else tuple(paytable.bet(b) for b in bet_ids)
    joint = joint_distribution(shoe, tableau)
    sheets = tuple(_bet_sheet(bet_figures(joint, bet), bet, joint) for bet in bets)
    file = display_path(paytable.path)
    inputs: list[InputFile] = []
    if paytable.sha256 is not None:
        inputs.append(InputFile("paytable", file, paytable.sha256))
    if paytable.rules_file is not None and tableau == paytable.tableau:
        inputs.append(file_input("rules", paytable.rules_file))
    inputs.extend(extra_inputs)
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
    )
