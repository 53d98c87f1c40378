"""Run every ``benchmarks/bench_*.py`` module's ``run()`` and print one table.

Each ``run()`` returns rows ``(name, value, unit, note)``.  Pass module names to
run only some: ``python -m benchmarks core``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    rows: list[tuple[str, str, str, str]] = []
    for name in names:
        t0 = time.perf_counter()
        try:
            mod = importlib.import_module(f"benchmarks.{name}")
            for r in mod.run():
                rows.append((r[0], r[1] if isinstance(r[1], str) else f"{r[1]:.3f}", r[2], r[3] if len(r) > 3 else ""))
        except Exception as exc:  # noqa: BLE001 - a failing benchmark is reported in the table
            rows.append((name, "FAILED", "", f"{type(exc).__name__}: {exc}"))
        print(f"[{name}: {time.perf_counter() - t0:.1f} s]", file=sys.stderr)
    w = max(len(r[0]) for r in rows) if rows else 10
    print(f"{'measure':{w}}  {'value':>12}  {'unit':8}  note")
    print(f"{'-' * w}  {'-' * 12}  {'-' * 8}  {'-' * 30}")
    for name, value, unit, note in rows:
        print(f"{name:{w}}  {value:>12}  {unit:8}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
