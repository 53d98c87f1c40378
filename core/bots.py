"""Bots that drive the engine through the same API as every other client."""

from __future__ import annotations

import random

from core.decisions import Action, Decision


class RandomBot:
    """Picks a uniformly random legal option; deterministic for a given seed."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(f"dfd-bot:{seed}")

    def choose(self, decision: Decision) -> Action:
        if not decision.options:
            raise RuntimeError(f"the decision {decision.kind!r} offers no enumerable option ({decision.rule})")
        return self.rng.choice(decision.options).action


class PassBot:
    """Always takes the first option (usually "done"): the quickest way through a turn."""

    name = "pass"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, decision: Decision) -> Action:
        return decision.options[0].action


BOTS = {"random": RandomBot, "pass": PassBot}
