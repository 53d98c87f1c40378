"""The computer opponent's answers to every decision that is not a ground move or combat choice (issue 21).

Set-up (3.1), initiative (6.1), cards (5.0, 23.x), reinforcements and withdrawals (7.x, 24.2/25.2), supply and
bases (12.x), air (19.x), naval, Malta and shipping (20.x, 22.x), off-map boxes, refit (17.x), construction (18.x)
and the rest.  :data:`KINDS` names the decision kinds answered here; :func:`choose` answers one of them with a
legal action and writes one or two sentences of plan on ``player.plan``.

Every answer is built from the decision's own options and the engine's queries, never by re-implementing a rule;
it is deterministic for ``player.rng`` (seeded from the AI's seed) and cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from core.decisions import Action, Decision

if TYPE_CHECKING:
    from core.engine import Engine

Handler = Callable[[Any, Decision, "Engine"], Action]


def _pass(player: Any, decision: Decision, engine: "Engine") -> Action:
    """The pass choice: the ``done`` option when offered, else the first option (what PassBot does)."""
    for o in decision.options:
        if o.action.kind == "done":
            return o.action
    return decision.options[0].action


def _choose_first_player(player: Any, decision: Decision, engine: "Engine") -> Action:
    """6.1/6.2: with the initiative, be the 1st player (moving first, and keeping surprise when there is one)."""
    for o in decision.options:
        if o.action.args.get("first") is True:
            player.plan = f"{player.side}: taking the 1st player turn" + (
                " to use surprise (6.2)" if "surprise" in o.label else " (6.1)")
            return o.action
    return _pass(player, decision, engine)


def _only_option(player: Any, decision: Decision, engine: "Engine") -> Action:
    """A decision with one option (a roll): take it."""
    return decision.options[0].action


HANDLERS: dict[str, Handler] = {
    "choose_first_player": _choose_first_player,
    "initiative_roll": _only_option,
}

#: the decision kinds this module answers (ai-player dispatches them here)
KINDS: frozenset[str] = frozenset(HANDLERS)


def choose(player: Any, decision: Decision, engine: "Engine") -> Action:
    """Answer ``decision`` (whose kind is in :data:`KINDS`) for ``player`` (``.side``, ``.rng``, ``.setting``,
    writable ``.plan``) with an action ``Engine.apply`` accepts."""
    handler = HANDLERS.get(decision.kind)
    if handler is None:
        raise KeyError(f"core.ai.admin does not answer decisions of kind {decision.kind!r} (KINDS: {sorted(KINDS)})")
    return handler(player, decision, engine)
