"""Plots (optional extra ``plots``: matplotlib, imported only here and only when called).

Edge by round number per bet (from a shoe simulation) and effect-of-removal bars, each written as
PNG and SVG. The figures plot exact values converted to floats for drawing.
"""

from __future__ import annotations

import io
import math
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from exactodds.analysis.eor import EffectOfRemoval
from exactodds.analysis.simulation import Simulation
from exactodds.deal.shoe import RANKS
from exactodds.errors import MissingExtraError, about
from exactodds.files import write_atomic

__all__ = ["FORMATS", "check_plots", "plot_edge_by_round", "plot_eor", "plot_names"]

FORMATS = ("png", "svg")
"""Every plot is written in each of these formats."""

_MISSING = "plots need matplotlib"


def plot_names(stem: str) -> list[str]:
    """File names of the plot ``stem``.

    >>> plot_names("eor")
    ['eor.png', 'eor.svg']
    """
    return [f"{stem}.{ext}" for ext in FORMATS]


def check_plots() -> None:
    """Refuse early (before any work) when the ``plots`` extra is not installed: a
    :class:`~exactodds.errors.MissingExtraError` naming the ``plots`` parameter (the CLI's
    ``--plots``) and ``pip install 'exactodds[plots]'``."""
    if find_spec("matplotlib") is None:
        raise about(MissingExtraError("plots needs matplotlib", "plots"), "plots")


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtraError(_MISSING, "plots") from None
    return plt


def _grid(n: int) -> tuple[int, int]:
    cols = min(4, max(1, n))
    return math.ceil(n / cols), cols


def _save(fig: Any, directory: Path, stem: str) -> list[Path]:
    """Write the figure in every format, each atomically (rendered in memory, then renamed)."""
    out = []
    for ext, name in zip(FORMATS, plot_names(stem), strict=True):
        image = io.BytesIO()
        fig.savefig(image, format=ext, dpi=120, bbox_inches="tight", metadata=None)
        write_atomic(directory / name, image.getvalue())
        out.append(directory / name)
    return out


def plot_eor(result: EffectOfRemoval, directory: Path, stem: str = "eor") -> list[Path]:
    """Bars of the EOR of each rank (% of stake), one panel per bet; PNG and SVG paths."""
    plt = _pyplot()
    rows, cols = _grid(len(result.bet_ids))
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.6 * rows), squeeze=False)
    for ax, bet, name in zip(axes.flat, result.bet_ids, result.bet_names, strict=False):
        values = [float(e) * 100 if (e := result.eor[bet][r]) is not None else 0.0 for r in RANKS]
        ax.bar(RANKS, values, color=["tab:red" if v < 0 else "tab:blue" for v in values])
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(result.bet_ids) :]:
        ax.axis("off")
    fig.suptitle(f"Effect of removal of one card (% of stake) — {result.shoe.describe()}")
    fig.tight_layout()
    paths = _save(fig, directory, stem)
    plt.close(fig)
    return paths


def plot_edge_by_round(sim: Simulation, directory: Path, stem: str = "edge-by-round") -> list[Path]:
    """Mean exact EV by round number (computer-perfect runs) and share of rounds the strategy
    bets, one panel per bet, with the bet's max round marked; PNG and SVG paths."""
    plt = _pyplot()
    rows, cols = _grid(len(sim.bets))
    fig, axes = plt.subplots(rows, cols, figsize=(3.8 * cols, 2.8 * rows), squeeze=False)
    for ax, bet in zip(axes.flat, sim.bets, strict=False):
        rounds = [r.round for r in bet.by_round]
        means = [float(r.mean_ev) * 100 for r in bet.by_round if r.mean_ev is not None]
        # an offered bet's rounds are the offered ones: often too few for a line alone
        marker = "." if bet.offer is not None else None
        if len(means) == len(rounds):  # a count strategy evaluates only the rounds it bets
            ax.plot(rounds, means, color="tab:blue", marker=marker)
            ax.set_ylabel("mean EV %", fontsize=7, color="tab:blue")
        share = ax.twinx()
        share.plot(
            rounds,
            [100 * r.bet_rounds / r.rounds for r in bet.by_round],
            color="tab:orange",
            linewidth=0.8,
            marker=marker,
        )
        label = "EV > 0" if sim.strategy == "perfect" else "counter bets"
        of = "offered rounds" if bet.offer is not None else "rounds"
        share.set_ylabel(f"{label}, % of {of}", fontsize=7, color="tab:orange")
        share.tick_params(labelsize=7)
        if bet.max_round is not None:
            ax.axvline(bet.max_round, color="grey", linestyle="--", linewidth=0.8)
        ax.set_title(bet.name, fontsize=9)
        ax.tick_params(labelsize=7)
        ax.set_xlabel("round of the shoe", fontsize=7)
    for ax in list(axes.flat)[len(sim.bets) :]:
        ax.axis("off")
    fig.suptitle(f"Edge by round number — {sim.shoes} shoes, seed {sim.seed}")
    fig.tight_layout()
    paths = _save(fig, directory, stem)
    plt.close(fig)
    return paths
