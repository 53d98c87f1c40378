"""Every option the engine offers is legal (the engine's own promise, docs/architecture.md).

A random bot plays real scenarios; applying any offered option must never be refused, and every
decision must offer at least one option (no dead ends).  This is the fuzzer of the Rally the Troops
lesson in ../shared/design/engine.md.
"""

from __future__ import annotations

import pytest

from core.bots import RandomBot
from core.decisions import IllegalAction
from core.engine import Engine
from core.newgame import initial_state
from core.scenario import load


@pytest.mark.parametrize("scenario,seed", [("sonnenblume", 1), ("trail-of-the-fox", 2), ("fox-killed", 3)])
def test_offered_options_are_always_legal(scenario, seed):
    eng = Engine(initial_state(load(scenario), seed))
    bot = RandomBot(seed)
    for n in range(300):
        d = eng.pending()
        if d is None:
            break
        assert d.options, f"decision {d.kind} ({d.rule}) offers no option: a dead end"
        action = bot.choose(d)
        try:
            eng.apply(action)
        except IllegalAction as exc:  # pragma: no cover - the failure message is the point
            pytest.fail(f"decision #{n} {d.kind} offered {action} but the engine refused it: {exc}")
