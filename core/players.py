"""Players: whoever answers a side's decisions (issue 21) - the computer opponent, the baseline bots.

Every player drives the engine through the same API as the GUI, the LAN host and the tests: it is shown the
pending :class:`~core.decisions.Decision` and answers with one :class:`~core.decisions.Action` that
:meth:`core.engine.Engine.apply` accepts.

* :class:`Player` - the protocol (``name``, ``side``, ``plan``, ``choose(decision, engine)``).
* :func:`make_player` - a player of one of :data:`PLAYER_KINDS` for a side, a seed and (for ``"ai"``) a setting
  of :data:`AI_SETTINGS`.
* :class:`Table` - one player per side: answers ``engine.pending()`` by the decision's side, and keeps each
  side's thinking time.

Decisions of side ``"either"`` (4.1 III.1 / the ``both`` steps of the sequence of play, where each side declares
itself done in any order; 4.1 IV.9, ocean naval strikes resolved in any order by both players): the table hands
them to the **Axis** player first, shown only the Axis options (``side`` set to Axis); once the Axis player has
nothing left to do there (its "done" is applied, the decision's options then belong to the Allied player only and
its side is Allied), the Allied player answers.  When the same player object plays both sides (``dfd autoplay
--bot``) it is shown the whole decision, as before issue 21, so those games are unchanged.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, runtime_checkable

from core.bots import PassBot, RandomBot
from core.decisions import ALLIED, AXIS, EITHER, SIDES, Action, Decision

if TYPE_CHECKING:
    from core.engine import Engine

#: the kinds of player :func:`make_player` builds
PLAYER_KINDS: tuple[str, ...] = ("ai", "greedy", "random", "pass")
#: the computer opponent's search budgets, quickest first
AI_SETTINGS: tuple[str, ...] = ("quick", "thoughtful")


@runtime_checkable
class Player(Protocol):
    """Answers the decisions of one side (``side``), or of both (``side is None``, the bots of ``--bot``)."""

    name: str
    side: str | None
    plan: str  # the last plan sentence, "" for the bots

    def choose(self, decision: Decision, engine: "Engine") -> Action: ...


def make_player(kind: str, side: str | None, seed: int, setting: str = "quick") -> Player:
    """A player of ``kind`` (one of :data:`PLAYER_KINDS`) for ``side``, deterministic for ``seed`` (and
    ``setting``, one of :data:`AI_SETTINGS`, which only the computer opponent uses)."""
    if kind not in PLAYER_KINDS:
        raise ValueError(f"no player kind {kind!r}; known: {', '.join(PLAYER_KINDS)}")
    if setting not in AI_SETTINGS:
        raise ValueError(f"no AI setting {setting!r}; known: {', '.join(AI_SETTINGS)}")
    if side is not None and side not in SIDES:
        raise ValueError(f"{side!r} is not a side (Axis or Allied)")
    if kind == "ai":
        from core.ai import AIPlayer  # the opponent's own package (issue 21), imported only when asked for

        return AIPlayer(side, seed, setting)
    if kind == "greedy":
        from core.bots import GreedyBot  # type: ignore[attr-defined]

        return GreedyBot(seed, side)
    if kind == "random":
        return RandomBot(seed, side)
    return PassBot(seed, side)


def answering_side(decision: Decision | None, sides: Iterable[str]) -> str | None:
    """The side among ``sides`` (the sides one chooser plays) that answers ``decision`` now, or None (another
    side's decision, or the game is over).  The one definition of who answers an ``either`` decision (4.1 III.1,
    4.1 IV.9): the Axis first while it has options there, then the Allied player; used by :class:`Table`
    (autoplay, benchmarks), the app's computer (:mod:`app.controller`) and a LAN computer seat (:mod:`net.computer`)."""
    if decision is None:
        return None
    sides = set(sides)
    if decision.side != EITHER:
        return decision.side if decision.side in sides else None
    for side in SIDES:
        if side in sides and any(o.action.side == side for o in decision.options):
            return side
    return None


def view_for(decision: Decision, side: str) -> Decision:
    """``decision`` as ``side``'s player sees it: for an ``either`` decision, only ``side``'s options (and the
    side set to ``side``); any other decision unchanged."""
    if decision.side != EITHER:
        return decision
    return Decision(side=side, kind=decision.kind, prompt=decision.prompt, rule=decision.rule,
                    options=tuple(o for o in decision.options if o.action.side == side),
                    free_kinds=decision.free_kinds, context=decision.context)


class Table:
    """One player per side answering an engine's decisions (module docstring: who answers ``either``).

    ``times[side]`` lists the seconds each of that side's decisions took its player to choose; ``decisions[side]``
    counts them.
    """

    def __init__(self, players: Mapping[str, Player]):
        missing = [s for s in SIDES if s not in players]
        if missing:
            raise ValueError(f"a table needs a player for each side; missing: {', '.join(missing)}")
        self.players: dict[str, Player] = {s: players[s] for s in SIDES}
        self.times: dict[str, list[float]] = {s: [] for s in SIDES}

    @classmethod
    def of(cls, axis: Player, allied: Player) -> "Table":
        return cls({AXIS: axis, ALLIED: allied})

    @property
    def decisions(self) -> dict[str, int]:
        return {s: len(t) for s, t in self.times.items()}

    def who(self, decision: Decision) -> tuple[str, Player, Decision]:
        """The side that answers ``decision``, its player and the decision as that player is shown it."""
        if decision.side != EITHER:
            return decision.side, self.players[decision.side], decision
        if self.players[AXIS] is self.players[ALLIED]:
            return AXIS, self.players[AXIS], decision
        side = answering_side(decision, SIDES) or AXIS
        return side, self.players[side], view_for(decision, side)

    def choose(self, engine: "Engine") -> tuple[str, Action] | None:
        """The answering side and its player's action for ``engine.pending()`` (``None`` when the game is over).
        The caller applies it (``Engine.apply`` or ``Game.act``, which also stores it)."""
        d = engine.pending()
        if d is None:
            return None
        _, player, shown = self.who(d)
        t0 = time.perf_counter()
        action = player.choose(shown, engine)
        self.times[action.side].append(time.perf_counter() - t0)
        return action.side, action

    def play(self, engine: "Engine", max_decisions: int = 1_000_000) -> int:
        """Apply the players' actions until the game ends or ``max_decisions`` were taken; the number taken."""
        n = 0
        while n < max_decisions and (pick := self.choose(engine)) is not None:
            engine.apply(pick[1])
            n += 1
        return n


__all__ = ["AI_SETTINGS", "PLAYER_KINDS", "Player", "Table", "answering_side", "make_player", "view_for"]
