"""Look-ahead on copies of the game: the search never sees the game's real future dice.

A copy (:func:`fork`) gets dice sampled from the player's own RNG (``random.Random`` seeded from the player's
seed and the decision), so the same seed and setting always give the same play and the real dice stay unknown.
Budgets are counts of nodes (actions applied on copies), never wall time, so a search is deterministic.
"""

from __future__ import annotations

import random
from typing import Callable

from core.decisions import Action, IllegalAction
from core.dice import SampledDice
from core.engine import Engine

#: nodes (actions applied on copies) per decision for each setting
BUDGETS = {"quick": 100, "thoughtful": 400}


def fork(engine: Engine, rng: random.Random) -> Engine:
    """An independent copy of ``engine``'s game whose dice come from ``rng`` (``Engine.fork``)."""
    return engine.fork(SampledDice(rng))


def accepted(engine: Engine, action: Action, rng: random.Random | None = None) -> Engine | None:
    """The copy after ``action`` if the engine accepts it, else None (the real game is untouched)."""
    copy = fork(engine, rng or random.Random(0))
    try:
        copy.apply(action)
    except IllegalAction:
        return None
    return copy


def accepted_move(engine: Engine, side: str, units: list[str], path: list[str]) -> Action | None:
    """The ``move`` of ``units`` along ``path`` if the engine accepts it (tried on a copy), else None."""
    act = Action(kind="move", side=side, args={"units": list(units), "path": list(path)})
    return act if accepted(engine, act) is not None else None


def sample_outcomes(engine: Engine, actions: list[Action], score: Callable[[Engine], float], rng: random.Random,
                    samples: int, answer: Callable[[Engine], Action | None] | None = None,
                    depth: int = 60) -> float | None:
    """Mean score over ``samples`` copies after ``actions`` (and the follow-up decisions ``answer`` gives, up to
    ``depth`` actions); None when the engine refuses one of ``actions``."""
    total = 0.0
    for _ in range(max(1, samples)):
        copy = fork(engine, random.Random(rng.random()))
        try:
            for a in actions:
                copy.apply(a)
            for _ in range(depth):
                if answer is None:
                    break
                nxt = answer(copy)
                if nxt is None:
                    break
                copy.apply(nxt)
        except IllegalAction:
            return None
        total += score(copy)
    return total / max(1, samples)
