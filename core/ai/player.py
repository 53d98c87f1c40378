"""The computer opponent for one side (issue 21).

``AIPlayer(side, seed, setting).choose(decision, engine)`` answers the pending decision with an action the engine
accepts.  Decisions of the ground war go to :mod:`core.ai.ground` (the interleaved combat choices to
:mod:`core.ai.combat_choices`), every other kind the admin module lists to
:mod:`core.ai.admin`; a kind neither handles is answered with a sensible offered option.  The player is a pure
function of (seed, setting) and the game: its only randomness is its own ``random.Random`` (never the game's dice),
and its search budgets are node counts.  ``plan`` holds the last sentence of plan it logged.
"""

from __future__ import annotations

import random

from core.decisions import Action, Decision, IllegalAction
from core.engine import Engine
from core.names import plan_text

from core.ai import admin, combat_choices, ground
from core.ai.search import BUDGETS


class AIPlayer:
    """Plays ``side`` (``Axis``/``Allied``); ``setting`` is ``quick`` or ``thoughtful`` (search budgets)."""

    def __init__(self, side: str, seed: int = 0, setting: str = "quick"):
        if setting not in BUDGETS:
            raise ValueError(f"unknown AI setting {setting!r} (known: {', '.join(BUDGETS)})")
        self.side = side
        self.seed = int(seed)
        self.setting = setting
        self.name = f"ai ({setting})"
        self.plan = ""
        self.plans: list[str] = []
        self.budget = BUDGETS[setting]
        self.memory: dict = {}       # per-phase working notes (the order of a phase's moves, declared attacks)
        #: the player's own RNG (never the game's dice): seeded from (seed, setting, side)
        self.rng = random.Random(f"dfd-ai:{self.seed}:{setting}:{side}")

    def rng_for(self, engine: Engine, salt: str = "") -> random.Random:
        """The player's own RNG for this decision: seed, setting and the game's position (never its dice)."""
        st = engine.state
        return random.Random(f"dfd-ai:{self.seed}:{self.setting}:{st.gt}:{st.phase}:{st.step}:{len(engine.log)}:{salt}")

    def say(self, text: str) -> None:
        """Log one sentence of plan (shown by the front ends; the last one is ``plan``), as a player reads it:
        counter, box and place names, never internal ids (:func:`core.names.plan_text`)."""
        text = plan_text(text)
        if text and text != self.plan:
            self.plan = text
            self.plans.append(text)

    def choose(self, decision: Decision, engine: Engine) -> Action:
        kind = decision.kind
        if kind in admin.KINDS:
            return admin.choose(self, decision, engine)
        if kind == "movement":
            first = admin.movement_first(self, decision, engine)     # 7.4: the withdrawals before ground play
            if first is not None:
                return first
        handler = combat_choices.HANDLERS.get(kind) or ground.HANDLERS.get(kind)
        if handler is not None:
            action = handler(self, decision, engine)
            if action is not None:
                return action
        return default_action(self, decision, engine)


def _acting_side(player: AIPlayer, decision: Decision) -> str:
    return player.side if player.side else decision.side


def default_action(player: AIPlayer, decision: Decision, engine: Engine) -> Action:
    """A legal, sensible answer to any decision: withdraw units that are due (7.4), refuse to let the enemy's
    withdrawals leave the map directly (7.4 Important), else the first offered option of the player's side (what a
    player who passes does)."""
    opts = [o for o in decision.options if o.action.side == _acting_side(player, decision)] or list(decision.options)
    if not opts:
        raise IllegalAction(f"the {decision.kind} decision offers no option", decision.rule)
    if decision.kind == "withdraw":
        for o in opts:
            if o.action.kind == "withdraw":
                return o.action
    return opts[0].action
