"""``python -m benchmarks``: the engine-speed targets (issue 18, ``benchmarks/targets.py``), one row per measure
with its target, the figure measured here and PASS/FAIL; ``--json`` prints one JSON document
``{"rows": [{"measure", "target", "value", "unit", "pass", ...}]}`` instead of the table.

``python -m benchmarks --only games reach`` runs only those groups of target rows (games, app, lan, reach).
``python -m benchmarks core ground ...`` runs the older detailed modules ``benchmarks/bench_*.py`` whose names
contain one of the words (``all`` runs every one) and prints their rows ``(name, value, unit, note)``.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def detailed(words: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if "all" not in words:
        names = [n for n in names if any(a in n for a in words)]
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


def main(argv: list[str]) -> int:
    from benchmarks import targets

    as_json = "--json" in argv
    argv = [a for a in argv if a != "--json"]
    if argv and argv[0] != "--only":
        return detailed(argv)
    only = argv[1:] if argv else None
    load = os.getloadavg()
    rows = targets.run(only, progress=lambda s: print(s, file=sys.stderr))
    load_after = os.getloadavg()
    machine = {"cpus": os.cpu_count(), "load_before": round(load[0], 2), "load_after": round(load_after[0], 2)}
    if as_json:
        print(json.dumps({"rows": [r.as_json() for r in rows], "machine": machine}, indent=1))
    else:
        print(targets.table(rows))
        print(f"\n{machine['cpus']} CPUs; 1-minute load average {machine['load_before']} before, "
              f"{machine['load_after']} after (figures are wall-clock; other processes on the machine slow them)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
