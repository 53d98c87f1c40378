"""Bots that drive the engine through the same API as every other client.

Each bot is a :class:`core.players.Player`: ``name``, ``side`` (the side it plays, or ``None`` for a bot that
answers every decision of both sides, as ``dfd autoplay --bot`` uses it), ``plan`` (always ``""``: bots do not
explain themselves) and ``choose(decision, engine=None)``.  ``engine`` is optional for the bots that only look at
the decision's options, so that older callers (``bot.choose(decision)``) keep working.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from core.decisions import Action, Decision

if TYPE_CHECKING:
    from core.engine import Engine


def _rng(seed: int, side: str | None) -> random.Random:
    """The bot's RNG: ``dfd-bot:{seed}`` for a bot playing both sides (the games recorded so far), one stream per
    side (``dfd-bot:{seed}:{side}``) when each side has its own bot."""
    return random.Random(f"dfd-bot:{seed}" if side is None else f"dfd-bot:{seed}:{side}")


class RandomBot:
    """Picks a uniformly random legal option; deterministic for a given seed (and side)."""

    name = "random"
    plan = ""

    def __init__(self, seed: int = 0, side: str | None = None):
        self.side = side
        self.rng = _rng(seed, side)

    def choose(self, decision: Decision, engine: "Engine | None" = None) -> Action:
        if not decision.options:
            raise RuntimeError(f"the decision {decision.kind!r} offers no enumerable option ({decision.rule})")
        return self.rng.choice(decision.options).action


class PassBot:
    """Always takes the first option (usually "done"): the quickest way through a turn."""

    name = "pass"
    plan = ""

    def __init__(self, seed: int = 0, side: str | None = None):
        self.side = side

    def choose(self, decision: Decision, engine: "Engine | None" = None) -> Action:
        return decision.options[0].action


BOTS = {"random": RandomBot, "pass": PassBot}
