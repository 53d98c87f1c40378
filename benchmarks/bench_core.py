"""Foundation measures (issue 2): apply+commit one action, load a 5,000-action game, state hash."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from core.bots import RandomBot
from core.game import Game


def _largest_scenario() -> str:
    from core.scenario import all_scenarios

    return max(all_scenarios(), key=lambda s: (len(s.setup), s.end_gt - s.start_gt)).id


def run() -> list[tuple]:
    rows: list[tuple] = []
    scen = _largest_scenario()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.dfd"
        g = Game.new(path, scen, seed=1)
        bot = RandomBot(1)
        # set-up placements first, then time the regular flow
        n = 0
        t0 = time.perf_counter()
        undos = 0
        while n < 5000 and (d := g.engine.pending()) is not None:
            a = bot.choose(d)
            g.act(a)
            n += 1
            # pad a short game to 5,000 logged actions with take-backs (undo + redo are logged actions too)
            if n % 2 == 0 and n < 4998 and g.engine.pending() is not None and g.engine.can_undo(a.side):
                from core.decisions import Action

                g.act(Action(kind="undo", side=a.side))
                g.act(a)
                n += 2
                undos += 1
        per_action = (time.perf_counter() - t0) / max(n, 1)
        rows.append(("apply+commit one action", per_action * 1000, "ms", f"mean of {n} actions ({undos} undo+redo pairs), {scen}, {len(g.state.units)} units"))
        t0 = time.perf_counter()
        reps = 200
        for _ in range(reps):
            g.engine.hash()
        rows.append(("state hash", (time.perf_counter() - t0) / reps * 1000, "ms", f"sha256 of {len(g.state.encode())} bytes"))
        g.close()
        t0 = time.perf_counter()
        g2 = Game.open(path)
        rows.append((f"load a game with {n} logged actions", time.perf_counter() - t0, "s", "latest snapshot + replay of the tail"))
        g2.close()
        from core.game import verify

        t0 = time.perf_counter()
        rep = verify(path)
        rows.append((f"replay --verify {n} actions", time.perf_counter() - t0, "s", rep.message.splitlines()[0]))
    return rows
