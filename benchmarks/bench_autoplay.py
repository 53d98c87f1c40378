"""Autoplay benchmarks (issue 7): the long scenarios played by the random bot; decisions per second,
GTs reached, result, and replay-verify time.  ``run()`` returns (name, value, unit, note) rows."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

LONG = ("oconnors-war", "desert-fox", "desert-war", "tunisian-campaign", "rommels-war", "north-african-campaign")


def run(scenarios=LONG, seed: int = 1, max_decisions: int | None = None) -> list[tuple[str, float, str, str]]:
    from core.game import verify
    from tests.test_autoplay import autoplay

    cap = max_decisions or int(os.environ.get("DFD_BENCH_MAX_DECISIONS", "20000"))
    rows: list[tuple[str, float, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for sc in scenarios:
            path = Path(tmp) / f"{sc}.dfd"
            t0 = time.perf_counter()
            g, n, refused = autoplay(sc, seed, path, max_decisions=cap)
            dt = time.perf_counter() - t0
            res = g.state.result or {"level": "unfinished", "text": f"stopped after {n} decisions"}
            gt = g.state.gt
            g.close()
            t1 = time.perf_counter()
            rep = verify(path)
            vt = time.perf_counter() - t1
            note = f"GT {gt}; {res.get('level')}: {res.get('text', '')[:80]}; refused options {len(refused)}"
            rows.append((f"autoplay_{sc}_decisions_per_s", round(n / dt, 1) if dt else 0.0, "decisions/s", note))
            rows.append((f"autoplay_{sc}_decisions", float(n), "decisions", note))
            rows.append((f"autoplay_{sc}_verify_s", round(vt, 2), "s", rep.message[:80]))
    return rows


if __name__ == "__main__":
    for row in run():
        print(*row, sep="\t")
