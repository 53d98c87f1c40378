"""Reserve (13.6) and reaction from reserve (13.5, 13.6) for the computer opponent (issue 21: "uses reserves and
reaction").

Movement Phase: a motorised combat unit that has nothing better to do (no move scores better than staying,
:func:`core.ai.ground.best_move`), stands on a line of supply (12.4.1) and is at least :data:`BEHIND` hexes from every
enemy combat unit (its ZOC, which a reserve unit loses, 13.6, does not matter there) enters reserve: a ``move`` with
``reserve`` and no path (the engine checks the half-MA and EZOC conditions of 13.6).

Reaction Phase: a unit in reserve "may react regardless of the proximity of enemy units", "may enter an EZOC" and
"may overrun while reacting" (13.6).  It overruns what :mod:`core.ai.overrun` would overrun, else reinforces the
friendly hex next to the enemy that is most outnumbered (an objective first), over the engine's own reachable-hex
search with the reserve's options (13.5, 13.6).  Every move is tried on a copy before it is sent.
"""

from __future__ import annotations

from typing import Any

from core.decisions import Action, Decision, IllegalAction
from core.engine import Engine
from core.hexgrid import Hex
from core.names import place, unit_name
from core.rules import movement as movement_rules
from core.rules.special_units import info
from core.rules.status import hex_of, is_combat, is_motorized

from core.ai.search import accepted, accepted_move

#: hexes from the nearest enemy combat unit a unit must be to enter reserve
BEHIND = 3
#: a friendly hex next to the enemy is reinforced when the enemy around it is at least this many times its strength
OUTNUMBERED = 1.5
#: hexes a reinforced hex may be from the reserve unit (its RMA bounds the real reach, 13.2.1)
REACH = 8


def enter_reserve(eng: Engine, ctx: Any, uid: str) -> Action | None:
    """13.6: the reserve ``move`` of an idle motorised unit behind the front (module docstring), or None."""
    st = eng.state
    u = st.units[uid]
    h = hex_of(u)
    if h is None or u.reserve or u.disrupted or u.ogs or not is_motorized(u) or not is_combat(u):
        return None
    if h not in ctx.los or any(h.distance(e) < BEHIND for e in ctx.enemy_cf):
        return None
    act = Action(kind="move", side=ctx.side, args={"units": [uid], "path": [], "reserve": True})
    return act if accepted(eng, act) is not None else None


def _reserve_paths(eng: Engine, side: str, uid: str) -> dict[str, list[str]]:
    """The hexes a reserve unit reaches in this Reaction Phase (13.5 with 13.6's EZOC exception; its RMA, 13.2.1)."""
    st = eng.state
    opts = movement_rules.MoveOptions(reaction=True, reserve_reaction=True)
    try:                        # the RMA without an HQ's bonus (15.6): a reserve unit never rolls for it (6.2)
        return dict(movement_rules.reachable_paths(st, side, [uid], opts))
    except IllegalAction:
        return {}


def _endangered(eng: Engine, ctx: Any) -> list[tuple[float, str]]:
    """Friendly hexes next to enemy combat units where the enemy around is :data:`OUTNUMBERED` times the side's
    strength there, most endangered first (an objective the side holds counts double)."""
    st = eng.state
    own: dict[str, float] = {}
    for u in st.units_of(ctx.side):
        if is_combat(u) and hex_of(u) is not None:
            own[u.loc] = own.get(u.loc, 0.0) + max(0.5, float(info(st, u.id).cf))
    out = []
    for label, mine in own.items():
        h = Hex.parse(label)
        enemy = sum(s for e, s in ctx.enemy_cf.items() if h.distance(e) == 1)
        if enemy >= OUTNUMBERED * mine:
            out.append(((enemy / mine) * (2.0 if label in ctx.goals.hold else 1.0), label))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def react(player: Any, d: Decision, eng: Engine, mem: dict) -> Action | None:
    """13.5 / 13.6: the next reaction of a unit in reserve (module docstring), or None; ``mem``: the player's notes
    for this Reaction Phase."""
    from core.ai import ground, overrun

    st = eng.state
    side = d.side
    frame = st.stack[-1]
    tried = mem.setdefault("reserve_tried", set())
    units = [uid for uid in ground._movers(eng, side)
             if st.units[uid].reserve and uid not in tried and movement_rules.reaction_eligible(eng, frame, st.units[uid])]
    if not units:
        return None
    if "reserve_ctx" not in mem:
        mem["reserve_ctx"] = ground.context(eng, side)
    ctx = mem["reserve_ctx"]
    for uid in units:
        tried.add(uid)
        act, why = overrun.best_overrun(eng, ctx, uid)
        if act is not None:
            player.say(f"{side}: from reserve, {why} (13.6).")
            return act
        here = hex_of(st.units[uid])
        paths = None
        for _danger, label in _endangered(eng, ctx):
            if here.distance(Hex.parse(label)) > REACH or label == st.units[uid].loc:
                continue
            if paths is None:
                paths = _reserve_paths(eng, side, uid)
            path = paths.get(label)
            if not path:
                continue
            act = accepted_move(eng, side, [uid], path)
            if act is not None:
                player.say(f"{side}: {unit_name(uid)} reacts from reserve to {place(label)} (13.6).")
                return act
    return None
