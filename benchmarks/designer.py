"""Benchmark: the designer page of the largest sheet (reports/classic.html, 14 bets) in headless
Chromium: how long the page takes to load and become a designer, and how long one edit takes
(a bet recomputed and redrawn, as on every keystroke), against one frame at 60 Hz.

    python benchmarks/designer.py [ROUNDS]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser import chromium

FRAME_MS = 1000 / 60
PAGE = Path(__file__).resolve().parents[1] / "reports" / "classic.html"

EDIT = """(rounds) => {
  const times = {};
  for (const input of document.querySelectorAll('input.pays[data-row="0"]')) {
    const samples = [];
    for (let k = 0; k < rounds; k++) {
      const start = performance.now();
      input.dispatchEvent(new Event('input', {bubbles: true}));
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    times[input.dataset.bet] = samples[samples.length >> 1];
  }
  return times;
}"""


def main() -> None:
    """Load the page a few times, then time an edit of each bet (median of ROUNDS each)."""
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            page.goto(PAGE.as_uri())
            page.wait_for_selector("#designer:not([hidden])")
            loads.append((time.perf_counter() - start) * 1000)
        edits = page.evaluate(EDIT, rounds)
    load = statistics.median(loads)
    print(f"load {PAGE.name} ({PAGE.stat().st_size:,} bytes): median {load:.0f} ms of 5")
    for bet, ms in sorted(edits.items(), key=lambda kv: -kv[1]):
        print(f"edit {bet}: median {ms:.1f} ms of {rounds}")
    worst = max(edits.values())
    print(
        f"slowest edit {worst:.1f} ms; ratio to one 60 Hz frame ({FRAME_MS:.1f} ms) "
        f"{worst / FRAME_MS:.2f}"
    )


if __name__ == "__main__":
    main()
