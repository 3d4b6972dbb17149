"""Benchmark: the CPU budget's estimates against the CPU the commands measure (issue 33).

Every command that counts estimates, before any work, the CPU seconds of one core it takes
(:mod:`exactodds.bets.budget`; the card engine's share measured by a probe,
:mod:`exactodds.counting.probe`) and refuses it over the budget (30 s, ``--budget``). This runs
each request of a calibration set in a fresh interpreter whose budget checks record their
estimate instead of refusing (``--child``), and prints the estimate (the command's fixed cost,
measured on ``report classic --bet tie``, plus the largest estimate its checks made), the CPU
seconds measured (user + system from ``wait4``: the machine may be loaded, wall time would not
say the work) and their ratio measured / estimated. Aim: within ×2 for every case, never worse
than ×3. A case over ``--cap`` CPU seconds is stopped (RLIMIT_CPU) and shown as ``>cap``.

The calibration set: every row of issue 33's table, the bundled paytables (card-level and not)
and the documented card-level bets, by ``report`` (sheets, ``--protection``, ``--session``, a
streak bet's one-shoe model), ``validate``, ``eor``, ``solve``, ``odds --given``, ``exposure``,
``simulate`` (value-level, card-level, streak bets, a counter), ``montecarlo``, ``compare``,
``check`` and ``session`` with a card-level bet, on 1 to 8 decks and a depleted shoe.

``--fit`` prints, instead, the probe's counted work and the CPU of each card-engine count of the
set's bets, in-process, to fit the constants of :mod:`exactodds.counting.probe`.

    python benchmarks/budget.py [--quick] [--only SUBSTRING] [--cap 90]
    python benchmarks/budget.py --fit
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DOCUMENTED = {
    "flush-pair": "player.poker == flush and banker.poker == flush",
    "kings-of-hearts": "count(round, rank == K and suit == hearts) >= 2",
    "suited-pair": "player.suited and banker.suited",
    "first-design": (
        "player.natural and banker.natural and player.total == 9 and banker.total == 9"
        " and player.suited and banker.suited and player.colour == red and banker.colour == red"
    ),
    "hearts-four": "count(round, suit == hearts) >= 4",
}
"""Card-level bets of docs/paytables.md and issue 33 (its first design, four natural rows
beside it in the file)."""

DEPLETED = "Ah 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h"
SMALL_SHOE = "[cards]\nK = { h = 3, s = 1 }\nQ = { s = 2 }\n9 = { d = 2, c = 1 }\n5 = { h = 2 }\n"


def _table(folder: Path, name: str, when: str) -> str:
    path = folder / f"{name}.toml"
    extra = (
        '  { when = "player.natural and banker.natural", pays = "50:1" },\n'
        '  { when = "player.natural", pays = "2:1" },\n'
        '  { when = "banker.natural", pays = "2:1" },\n'
        if name == "first-design"
        else ""
    )
    path.write_text(
        f'name = "{name}"\n[bets.x]\nrows = [\n  {{ when = "{when}", pays = "300:1" }},\n'
        f'{extra}  {{ when = "otherwise", pays = "lose" }},\n]\n',
        encoding="utf-8",
    )
    return str(path)


def calibration(folder: Path) -> list[tuple[str, list[str]]]:
    """The requests: a label and the command's arguments."""
    doc = {k: _table(folder, k, v) for k, v in DOCUMENTED.items()}
    small = folder / "small.toml"
    small.write_text(SMALL_SHOE, encoding="utf-8")
    out = folder / "out"
    json = ["--format", "json"]
    cases: list[tuple[str, list[str]]] = []
    for name in (
        "classic",
        "colour-match",
        "lucky-nines",
        "jackpot-baccarat",
        "majestic-match",
        "perfect-9",
        "bonus-pairs",
        "insurance",
        "banker-streak",
    ):
        cases.append((f"report {name}", ["report", name, *json]))
    for key, path in doc.items():
        cases.append((f"report {key} 8", ["report", path, *json]))
    for key in ("flush-pair", "suited-pair", "kings-of-hearts"):
        cases.append((f"report {key} dep", ["report", doc[key], "--remove", DEPLETED, *json]))
        cases.append((f"validate {key} 1", ["validate", doc[key], "--decks", "1"]))
    cases += [
        ("report classic --session 1000", ["report", "classic", "--session", "1000", *json]),
        ("report perfect-9 --protection", ["report", "perfect-9", "--protection", *json]),
        ("eor perfect-9", ["eor", "perfect-9"]),
        ("eor lucky-nines 1", ["eor", "lucky-nines", "--decks", "1"]),
        ("eor suited-pair 1", ["eor", doc["suited-pair"], "--decks", "1"]),
        (
            "solve perfect-9",
            [
                "solve",
                "perfect-9",
                "--bet",
                "perfect_9",
                "--event",
                "Suited 9",
                "--target-edge",
                "5%",
            ],
        ),
        (
            "odds --given perfect-9",
            ["odds", "--paytable", "perfect-9", "--given", "P: Kh ? | B: ? ?"],
        ),
        (
            "odds --given flush-pair",
            ["odds", "--paytable", doc["flush-pair"], "--given", "P: Kh ? | B: ? ?"],
        ),
        ("exposure perfect-9", ["exposure", "perfect-9", "--sort", "6 7 8 9", "--seen", "2"]),
        ("exposure suited-pair", ["exposure", doc["suited-pair"], "--sort", "6 7 8 9"]),
        ("simulate classic 3000", ["simulate", "classic", "--shoes", "3000", "--seed", "1"]),
        (
            "simulate banker-streak 20000",
            ["simulate", "banker-streak", "--shoes", "20000", "--seed", "1"],
        ),
        (
            "simulate lucky-nines 1d 300",
            ["simulate", "lucky-nines", "--decks", "1", "--shoes", "300", *json],
        ),
        (
            "simulate lucky-nines 1d 21018 (issue)",
            ["simulate", "lucky-nines", "--decks", "1", "--shoes", "21018", *json],
        ),
        (
            "simulate perfect-9 1d 20",
            ["simulate", "perfect-9", "--decks", "1", "--shoes", "20", "--seed", "1"],
        ),
        (
            "simulate colour-match count (issue)",
            [
                "simulate",
                "colour-match",
                "--decks",
                "2",
                "--strategy",
                "count",
                "--trigger",
                "colour_match=-99",
                "--shoes",
                "300",
            ],
        ),
        (
            "simulate banker-streak 100000 (issue)",
            ["simulate", "banker-streak", "--shoes", "100000", "--seed", "1"],
        ),
        (
            "montecarlo insurance 10^6",
            ["montecarlo", "insurance", "--rounds", "1000000", "--seed", "1"],
        ),
        (
            "montecarlo perfect-9 10^6",
            ["montecarlo", "perfect-9", "--rounds", "1000000", "--seed", "1"],
        ),
        ("compare perfect-9 6,8", ["compare", "perfect-9", "--decks", "6,8"]),
        ("check perfect-9", ["check", "perfect-9", "--against", "gli-11"]),
        ("check suited-pair", ["check", doc["suited-pair"], "--against", "gli-11"]),
        (
            "session kings small shoe (issue)",
            [
                "session",
                doc["kings-of-hearts"],
                "--shoe",
                str(small),
                "--bet",
                "x",
                "--rounds",
                "3",
            ],
        ),
        (
            "session flush-pair 100",
            ["session", doc["flush-pair"], "--bet", "x", "--rounds", "100"],
        ),
        (
            "report --all --protection (issue)",
            ["report", "--all", "--protection", *json, "--out", str(out), "--force"],
        ),
    ]
    return cases


QUICK = (
    "report perfect-9",
    "report first-design 8",
    "report flush-pair 8",
    "eor perfect-9",
    "simulate lucky-nines 1d 300",
    "simulate banker-streak 20000",
    "odds --given perfect-9",
    "session kings small shoe (issue)",
)


def _child(argv: list[str]) -> None:
    """Run ``exactodds ARGV`` with every budget check recording its estimate on stderr
    (``estimate: SECONDS``) instead of refusing."""
    from exactodds.bets import budget
    from exactodds.cli import run

    def record(seconds: float, what: str, allowed: float | None = None, **_: object) -> None:
        del what, allowed
        print(f"estimate: {seconds!r}", file=sys.stderr)

    budget.check_seconds = record  # type: ignore[assignment]
    original = budget.card_work_over

    def over(per_bet: object, times: int = 1, allowed: float | None = None, **_: object) -> None:
        values = per_bet.values()  # type: ignore[attr-defined]
        print(f"estimate: {sum(values) * times!r}", file=sys.stderr)

    budget.card_work_over = over  # type: ignore[assignment]
    del original
    os.environ["EXACTODDS_BUDGET"] = "1000000"
    sys.exit(run(argv))


def _measure(argv: list[str], cap: int, cwd: Path) -> tuple[float, float, int, str]:
    """CPU seconds of ``ARGV`` in a child, the largest estimate its checks made, its exit code
    and the start of its error."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cap, cap + 5))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--child", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        preexec_fn=limit,  # noqa: PLW1509 - no threads here
    )
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    estimates = [
        float(line.split()[1]) for line in err.splitlines() if line.startswith("estimate:")
    ]
    rest = " ".join(line for line in err.splitlines() if not line.startswith("estimate:"))
    return usage.ru_utime + usage.ru_stime, max(estimates, default=0.0), code, rest[:70]


def _fit() -> None:
    """The probe's counted work and the CPU of each count, in-process (see the docstring)."""
    import time

    from exactodds.bets.loader import load_paytable
    from exactodds.counting.engine import _row_counts
    from exactodds.counting.meter import Meter
    from exactodds.counting.probe import probe_count, seconds_of
    from exactodds.deal.shoe import Shoe
    from exactodds.deal.tableau import BUILTIN
    from exactodds.language import OTHERWISE, parse_condition

    pb = BUILTIN["punto-banco"]
    sets = {k: [parse_condition(v), OTHERWISE] for k, v in DOCUMENTED.items()}
    for name in ("lucky-nines", "jackpot-baccarat", "perfect-9", "colour-match"):
        for bet in load_paytable(name, counted=False).bets:
            if bet.card_level:
                sets[f"{name}:{bet.id}"] = [r.when for r in bet.rows]
    shoes = {"1": Shoe.decks(1), "8": Shoe.decks(8), "dep": Shoe.decks(8).remove(DEPLETED)}
    print("count shoe cpu probe elements heavy steps blocks")
    for key, conditions in sets.items():
        for label, shoe in shoes.items():
            probe = probe_count(conditions, shoe, pb, force=True)
            meter = Meter()
            start = time.process_time()
            _row_counts(conditions, shoe, pb, offer=None, known=None, meter=meter)
            cpu = time.process_time() - start
            print(
                f"{key} {label} {cpu:.3f} {probe.seconds:.3f} {meter.elements} {meter.heavy} "
                f"{meter.steps} {meter.blocks}  (whole meter {seconds_of(meter):.3f})",
                flush=True,
            )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", default="", help="cases whose label holds this")
    ap.add_argument("--cap", type=int, default=90, help="CPU seconds before a case is stopped")
    ap.add_argument("--quick", action="store_true", help=f"{len(QUICK)} cases")
    ap.add_argument("--fit", action="store_true", help="the probe's work against its CPU")
    args = ap.parse_args()
    if args.fit:
        _fit()
        return
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    folder = Path(tempfile.mkdtemp(prefix="budget-"))
    cases = calibration(folder)
    if args.quick:
        cases = [c for c in cases if c[0] in QUICK]
    if args.only:
        cases = [c for c in cases if args.only in c[0]]
    base, _, _, _ = _measure(["report", "classic", "--bet", "tie", "--format", "json"], 60, folder)
    print(f"{len(cases)} cases; fixed cost (report classic --bet tie): {base:.2f} s CPU")
    print(f"{'case':<42} {'estimate':>9} {'measured':>9} {'ratio':>6}  note")
    ratios: list[float] = []
    for label, argv in cases:
        seconds, estimate, code, err = _measure(argv, args.cap, folder)
        estimate += base
        stopped = seconds >= args.cap
        shown = f">{args.cap}" if stopped else f"{seconds:.2f}"
        note = "" if code == 0 else ("stopped" if stopped else f"exit {code}: {err}")
        ratio = seconds / estimate
        ratios.append(ratio)
        print(f"{label:<42} {estimate:9.2f} {shown:>9} {ratio:6.2f}  {note}", flush=True)
    if ratios:
        print(f"ratios measured/estimate: {min(ratios):.2f} to {max(ratios):.2f}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
