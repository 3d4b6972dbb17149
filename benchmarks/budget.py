"""Benchmark: the card engine's budgets against the CPU the commands measure (issue 25).

Every command that counts card-level bets first estimates its work on the card engine (cell
operations, :func:`exactodds.counting.work`, times the shoes or signals it counts on) and refuses
it over a budget of about 30 s (:mod:`exactodds.bets.budget`). This prints, per case of a
calibration set, the estimate in seconds (cell operations / ``CARD_OPS_PER_SECOND``, plus the
command's fixed cost measured on a value-level paytable), the CPU seconds measured (the child
process's user + system time, from ``wait4``: the machine may be loaded, wall time would not
say the work), and their ratio measured / estimated (aim: within 1/3 to 3).

Calibration set: the bundled card-level bets (Colour Match, Lucky Nines, Jackpot, Majestic
Match, Perfect 9, Bonus Pairs), the documented ones (``docs/paytables.md``: a flush pair, two
or more kings of hearts, a pair of suited cards) and 200 small card-level bets in one file, on
{1, 2, 8 decks, 8 decks less 16 cards}, by ``report``, ``validate``, ``eor``, ``settle``,
``odds --given``, ``simulate``, ``exposure`` and ``report --protection``. A case over
``--cap`` CPU seconds is stopped (RLIMIT_CPU) and shown as ``>cap``; a refused one shows the
estimate and ``refused``.

    python benchmarks/budget.py [--only report,validate] [--tables colour-match,...]
                                [--shoes 1,2,8,dep] [--cap 60] [--quick]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from exactodds.bets.budget import (
    _CARD_SETTLE_WORK,
    CARD_OPS_PER_SECOND,
    card_round_work,
    card_work,
    expected_rounds,
    removal_shoes,
)
from exactodds.bets.loader import load_paytable
from exactodds.bets.paytable import Paytable
from exactodds.deal.shoe import Card, Shoe
from exactodds.deal.tableau import Tableau

ROOT = Path(__file__).resolve().parent.parent

DOCUMENTED = {
    "flush-pair": "player.poker == flush and banker.poker == flush",
    "kings-of-hearts": "count(round, rank == K and suit == hearts) >= 2",
    "suited-pair": "player.suited and banker.suited",
}
BUNDLED = (
    "colour-match",
    "lucky-nines",
    "jackpot-baccarat",
    "majestic-match",
    "perfect-9",
    "bonus-pairs",
)
SHOES = {"1": ["--decks", "1"], "2": ["--decks", "2"], "8": ["--decks", "8"]}
DEPLETED = "Ah 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h"
SHOES["dep"] = ["--decks", "8", "--remove", DEPLETED]
JOINT_SECONDS = 0.05
"""CPU seconds of a value-level joint distribution and its figures, per shoe or signal a
command counts on besides the card engine's work (eor's 53 shoes, the protection signals)."""
SIMULATED_SHOES = 2
SIGNALS_SEEN = 2  # exposure --sort '[6 7 8 9]' --seen 2: 4 signals


def _documented_table(folder: Path, name: str, when: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\n[bets.x]\nrows = [\n  {{ when = "{when}", pays = "30:1" }},\n'
        '  { when = "otherwise", pays = "lose" },\n]\n',
        encoding="utf-8",
    )
    return path


def _many_small(folder: Path, bets: int = 200) -> Path:
    """``bets`` small card-level bets: a colour and a total each."""
    path = folder / "many-small.toml"
    lines = ['name = "Many small"']
    for i in range(bets):
        colour = ("red", "black")[i % 2]
        lines += [
            f"[bets.b{i}]",
            "rows = [",
            f'  {{ when = "player.colour == {colour} and player.total == {i % 10}", '
            'pays = "20:1" },',
            '  { when = "otherwise", pays = "lose" },',
            "]",
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _shoe(key: str) -> Shoe:
    if key == "dep":
        return Shoe.decks(8).remove(DEPLETED)
    return Shoe.decks(int(key))


def _cards(shoe: Shoe) -> list[Card]:
    return [Card(r, u) for r, row in enumerate(shoe.counts) for u, n in enumerate(row) if n]


def _card_seconds(work: int | float) -> float:
    return float(work) / CARD_OPS_PER_SECOND


def _estimate(command: str, table: Paytable, shoe: Shoe, tableau: Tableau) -> float:
    """The card engine's seconds the command's budget counts for these inputs."""
    per = sum(card_work(table.bets, shoe, tableau).values())
    if command == "report":  # and a worked example per card-level row
        return _card_seconds(sum(card_work(table.bets, shoe, tableau, examples=True).values()))
    if command == "validate":
        return _card_seconds(per)
    if command == "eor":
        less = shoe.remove([next(c for c in _cards(shoe))])
        per_less = sum(card_work(table.bets, less, tableau).values())
        shoes = removal_shoes(shoe)
        return _card_seconds(per + (shoes - 1) * per_less) + shoes * JOINT_SECONDS
    if command == "settle":
        return 0.0
    if command == "odds":
        from exactodds.bets.budget import card_work as given_work
        from exactodds.protection.exposure import given_known

        known = given_known("P: Kh ? | B: ? ?")
        return _card_seconds(sum(given_work(table.bets, shoe, tableau, known).values()))
    if command == "simulate":
        card = [b for b in table.bets if b.card_level or b.offer is not None]
        rounds = expected_rounds(SIMULATED_SHOES, shoe.size, 14)
        works = card_round_work(card, shoe, tableau)
        return _card_seconds(sum(float(s) * w + _CARD_SETTLE_WORK for s, w in works) * rounds)
    if command == "exposure":
        return _card_seconds(per * 2**SIGNALS_SEEN)
    if command == "protection":
        from exactodds.report.protection import SIGNALS

        # the sheet, then each signal (a joint distribution each, besides the card engine)
        return _card_seconds(per * (1 + SIGNALS)) + SIGNALS * JOINT_SECONDS
    raise ValueError(command)


def _argv(command: str, path: str, shoe: list[str], out: Path) -> list[str]:
    if command == "report":
        return ["report", path, *shoe, "--format", "json"]
    if command == "validate":
        return ["validate", path, *shoe]
    if command == "eor":
        return ["eor", path, *shoe]
    if command == "settle":
        return ["settle", path, *shoe, "--cards", "P: 9h 9s | B: Kd 7c"]
    if command == "odds":
        return ["odds", "--paytable", path, *shoe, "--given", "P: Kh ? | B: ? ?"]
    if command == "simulate":
        return ["simulate", path, *shoe, "--shoes", str(SIMULATED_SHOES), "--seed", "1"]
    if command == "exposure":
        return ["exposure", path, *shoe, "--sort", "6 7 8 9", "--seen", str(SIGNALS_SEEN)]
    if command == "protection":
        return ["report", path, *shoe, "--protection", "--out", str(out), "--force"]
    raise ValueError(command)


def _measure(argv: list[str], cap: int) -> tuple[float, int, str]:
    """CPU seconds (user + system) of ``exactodds ARGV`` in a fresh interpreter, its exit code
    and the first words of its error."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cap, cap + 5))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "exactodds", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=limit,  # noqa: PLW1509 - no threads here
    )
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, proc.returncode, err.strip()[:70]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    commands = "report,validate,eor,settle,odds,simulate,exposure,protection"
    ap.add_argument("--only", default=commands, help=f"commands among {commands}")
    ap.add_argument("--tables", default="", help="paytables (bundled names or documented keys)")
    ap.add_argument("--shoes", default="1,2,8,dep")
    ap.add_argument("--cap", type=int, default=60, help="CPU seconds before a case is stopped")
    ap.add_argument("--quick", action="store_true", help="Colour Match and one documented bet")
    args = ap.parse_args()

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    folder = Path(tempfile.mkdtemp(prefix="budget-"))
    tables: dict[str, str] = {name: name for name in BUNDLED}
    tables |= {k: str(_documented_table(folder, k, v)) for k, v in DOCUMENTED.items()}
    tables["many-small"] = str(_many_small(folder))
    chosen = args.tables.split(",") if args.tables else list(tables)
    if args.quick:
        chosen = ["colour-match", "kings-of-hearts"]
    base, _, _ = _measure(["report", "classic", "--bet", "tie", "--format", "json"], args.cap)
    print(f"fixed cost of a command (report classic --bet tie): {base:.2f} s CPU")
    print(f"{'case':<44} {'estimate':>9} {'measured':>9} {'ratio':>6}  note")
    worst: list[float] = []
    for name in chosen:
        table = load_paytable(tables[name], counted=False)
        for key in args.shoes.split(","):
            shoe = _shoe(key)
            for command in args.only.split(","):
                estimate = base + _estimate(command, table, shoe, table.tableau)
                argv = _argv(command, tables[name], SHOES[key], folder / "out")
                seconds, code, err = _measure(argv, args.cap)
                case = f"{command} {name} {key}"
                stopped = seconds >= args.cap
                shown = f">{args.cap}" if stopped else f"{seconds:.2f}"
                note = "" if code == 0 else ("stopped" if stopped else f"exit {code}: {err}")
                ratio = seconds / estimate
                if code == 0 or stopped:
                    worst.append(ratio)
                print(f"{case:<44} {estimate:9.2f} {shown:>9} {ratio:6.2f}  {note}", flush=True)
    if worst:
        print(f"ratios measured/estimate: {min(worst):.2f} to {max(worst):.2f}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
