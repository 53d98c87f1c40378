"""Small read-only helpers of the admin AI (core.ai.admin): the options of one side, a trial of a free-form action
on a copy of the state, the front and the scenario's objectives, a unit's worth.

Nothing here re-implements a rule: legality is always the engine's (an offered option, or ``Engine.apply`` on a
copy), and the objectives are read from the scenario's own victory conditions (core.rules.victory_rules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from core.decisions import Action, Decision, IllegalAction, Option, other
from core.hexgrid import Hex, HexLabelError
from core.names import plan_text
from core.rules.status import counter_of, hex_of, is_combat

if TYPE_CHECKING:
    from core.engine import Engine


def my_options(decision: Decision, side: str) -> list[Option]:
    """The options ``side`` may take (a decision for ``either`` side lists both sides' options)."""
    return [o for o in decision.options if o.action.side == side]


def pass_action(decision: Decision, side: str) -> Action:
    """``side``'s pass: its ``done`` option when offered, else its first option."""
    opts = my_options(decision, side) or list(decision.options)
    for o in opts:
        if o.action.kind == "done":
            return o.action
    return opts[0].action


def of_kind(decision: Decision, side: str, kind: str) -> list[Action]:
    return [o.action for o in my_options(decision, side) if o.action.kind == kind]


def trial(engine: "Engine", action: Action) -> bool:
    """True when ``Engine.apply`` accepts ``action`` now: applied to a fork of the engine (the real game is
    untouched; the fork's dice are sampled from a fixed RNG of its own, never the game's future dice):
    :func:`core.ai.search.accepted`."""
    from core.ai.search import accepted

    return accepted(engine, action) is not None


def paths(engine: "Engine", units: list[str]) -> dict[str, list[str]]:
    """Hex -> the cheapest path a ``move`` of ``units`` accepts this phase (the engine's search behind the
    ``reachable`` query, without re-tracing each path for its MP cost)."""
    from core.rules import movement

    st = engine.state
    if not units:
        return {}
    try:
        return dict(movement.reachable_paths(st, st.units[units[0]].side, list(units),
                                             movement._query_opts(engine, False, False)))
    except IllegalAction:
        return {}


def unit_worth(uid: str, steps: int | None = None) -> float:
    """A rough worth of a combat unit: its combat factor per step, artillery and anti-tank, morale (lower is
    better, 8.1), and mobility."""
    c = counter_of(uid)
    if c.kind != "combat":
        return 0.0
    n = c.steps if steps is None else steps
    cf = c.cf if n >= c.steps or c.steps == 1 else (c.red_cf or c.cf)
    return cf * max(1, n) + c.art + c.at + max(0, 5 - c.morale) + (2 if c.mobile else 0) + (1 if c.hq else 0)


def enemy_hexes(engine: "Engine", side: str) -> list[Hex]:
    """The hexes that hold enemy combat units (the front as the AI sees it)."""
    out = set()
    for u in engine.state.units.values():
        if u.side == other(side) and is_combat(u):
            h = hex_of(u)
            if h is not None:
                out.add(h)
    return sorted(out, key=lambda h: h.label)


def _hex(label: str) -> Hex | None:
    try:
        return Hex.parse(label)
    except (HexLabelError, ValueError):
        return None


def objective_hexes(engine: "Engine", side: str) -> list[Hex]:
    """The hexes named by the scenario's victory conditions (control of ports and cities, road ends, the LOC's
    end), for either side: what both sides fight over."""
    from core.rules import victory_rules

    out: set[Hex] = set()
    for c in victory_rules.conditions(engine):
        for key in ("hexes",):
            for lab in c.get(key, []) or []:
                h = _hex(str(lab))
                if h is not None:
                    out.add(h)
        for key in ("from_hex", "to_hex"):
            h = _hex(str(c.get(key, "")))
            if h is not None:
                out.add(h)
    return sorted(out, key=lambda h: h.label)


def nearest(h: Hex, targets: Iterable[Hex]) -> int:
    """Distance from ``h`` to the nearest of ``targets`` (99 when there is none)."""
    return min((h.distance(t) for t in targets), default=99)


def plan_line(player: Any, text: str) -> None:
    """Write the player's plan sentence (prefixed with its side, named as a player reads it:
    :func:`core.names.plan_text`), through its ``say`` when it logs its plans."""
    line = plan_text(f"{player.side}: {text}")
    say = getattr(player, "say", None)
    if callable(say):
        say(line)
    player.plan = line
