"""Random-bot fuzzing of whole games: every scenario x several seeds, in parallel.

    .venv/bin/python scripts/fuzz_autoplay.py                 # all ten scenarios, seeds 11 12 13
    .venv/bin/python scripts/fuzz_autoplay.py --seeds 1 2 --scenario desert-war --limit 4000

Each game is driven by ``core.bots.RandomBot`` through the engine's public API (pending -> apply).  A line is
printed per game: scenario, seed, decisions, and the result text, or what went wrong:

* ``REFUSED`` — the engine offered an option and then refused it (every offered option must be accepted);
* ``DEADEND`` — a decision with no option;
* ``CRASH`` — an exception other than a refusal (with the traceback's tail);
* ``unfinished`` — the decision limit was reached before a result.

The exit status is 1 when any game went wrong, so the script can gate a release (it is not part of the test
suite: the ten long games take several minutes; ``tests/test_fuzz_options.py`` covers short runs).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def run(job: tuple[str, int, int]) -> tuple[str, int, int, str, list[str]]:
    from core.bots import RandomBot
    from core.decisions import IllegalAction
    from core.engine import Engine
    from core.newgame import initial_state
    from core.scenario import load

    sc, seed, limit = job
    try:
        eng = Engine(initial_state(load(sc), seed))
        bot = RandomBot(seed)
        n = 0
        refused: list[str] = []
        while (d := eng.pending()) is not None and n < limit:
            if not d.options:
                return sc, seed, n, f"DEADEND {d.kind} ({d.rule})", refused[:3]
            a = bot.choose(d)
            try:
                eng.apply(a)
            except IllegalAction as x:
                refused.append(f"{d.kind}: {a.kind} {a.args} -> {x}")
                eng.apply(d.options[0].action)
            n += 1
        text = (eng.state.result or {}).get("text", "unfinished")[:70]
        return sc, seed, n, ("REFUSED " if refused else "") + text, refused[:3]
    except Exception:  # noqa: BLE001 - reported, not raised: the other games go on
        return sc, seed, -1, "CRASH " + traceback.format_exc()[-800:], []


def main(argv: list[str] | None = None) -> int:
    from core.scenario import all_scenarios

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", action="append", help="scenario id (repeatable; default: all ten)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13])
    ap.add_argument("--limit", type=int, default=8000, help="decisions per game before giving up")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    ids = a.scenario or [s.id for s in all_scenarios()]
    jobs = [(sc, seed, a.limit) for sc in ids for seed in a.seeds]
    bad = 0
    with Pool(a.jobs) as pool:
        for sc, seed, n, text, refused in pool.imap_unordered(run, jobs):
            wrong = n < 0 or text.startswith(("REFUSED", "DEADEND", "CRASH", "unfinished"))
            bad += wrong
            print(f"{sc:24} seed {seed:>3} {n:>6} decisions  {text}", flush=True)
            for r in refused:
                print(f"    refused: {r}", flush=True)
    print(f"{len(jobs) - bad}/{len(jobs)} games clean")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
