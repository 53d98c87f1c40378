"""Construction (18.0) for the admin AI, asked at the start of its side's Movement Phases.

* 18.2 The Egyptian railroad: an Allied MSU that began the Movement Phase on the railhead advances it as far as
  the engine allows (:func:`core.rules.construction.rail_options`: one or two hexes toward Tobruk); the supply
  train keeps one MSU there once the Allies have three on the map (:func:`railhead_msu`).
* 18.1 Forts: a foot unit that has not moved, in a hex that is one of the scenario's objectives or next to one the
  side holds, with the enemy within 8 hexes, begins an F0 fort there (no supply needed; the unit stays put this
  phase, which a garrison does anyway).  Every order is tried on a fork first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.ai.admin_util import enemy_hexes, nearest, objective_hexes, plan_line, trial
from core.decisions import ALLIED, Action, Decision
from core.rules import construction
from core.rules.status import counter_of, hex_of, is_combat, is_hq, is_motorized, supply_kind

if TYPE_CHECKING:
    from core.engine import Engine

#: an F0 fort is begun only with the enemy this near (hexes)
FORT_THREAT = 8


def _frame(engine: "Engine"):
    return engine.state.stack[-1] if engine.state.stack else None


def rail_move(player: Any, engine: "Engine") -> Action | None:
    """18.2: advance the railhead (the longest advance the engine accepts)."""
    frame = _frame(engine)
    if player.side != ALLIED or frame is None:
        return None
    opts = construction.rail_options(engine, frame, ALLIED)
    if not opts:
        return None
    a = max(opts, key=lambda a: (len(a.args["hexes"]), a.args["hexes"]))
    plan_line(player, f"the Egyptian railroad is extended to {a.args['hexes'][-1]} (18.2)")
    return a


def railhead_msu(engine: "Engine", side: str) -> str | None:
    """The Allied MSU standing on the railhead (kept there to build, 18.2.1), if any."""
    if side != ALLIED:
        return None
    head = construction.railhead(engine.state)
    if head not in construction.rail_extension()[:-1]:
        return None
    return next((u.id for u in sorted(engine.state.units_at(head), key=lambda x: x.id)
                 if u.side == ALLIED and supply_kind(u) == "msu"), None)


def fort_move(player: Any, engine: "Engine") -> Action | None:
    """18.1: an F0 fort begun by an unmoved foot unit on or next to an objective, with the enemy near."""
    st = engine.state
    frame = _frame(engine)
    if frame is None:
        return None
    moved = frame.data.get("moved", {})
    enemy = enemy_hexes(engine, player.side)
    goals = objective_hexes(engine, player.side)
    if not enemy or not goals:
        return None
    tried = getattr(player, "_admin_forts", None)
    key = (st.gt, st.phase, st.step)
    if tried is None or tried[0] != key:
        tried = player._admin_forts = (key, set())
    for u in sorted(st.units.values(), key=lambda x: x.id):
        h = hex_of(u)
        if (u.side != player.side or h is None or not is_combat(u) or is_motorized(u) or is_hq(u)
                or u.id in moved or u.id in tried[1] or counter_of(u).ma <= 0):
            continue
        if nearest(h, goals) > 1 or nearest(h, enemy) > FORT_THREAT or nearest(h, enemy) < 2:
            continue
        if construction.fort_level(engine, h.label) >= 0 or construction.fort_at(engine, h.label).get("building"):
            continue
        tried[1].add(u.id)
        a = Action(kind="build_fort", side=player.side, args={"unit": u.id, "level": 0})
        if trial(engine, a):
            plan_line(player, f"{counter_of(u).name} digs in: an F0 fort in {h.label}, by the objective (18.1)")
            return a
    return None


def construction_move(player: Any, decision: Decision, engine: "Engine") -> Action | None:
    """The next construction order of this Movement Phase, or None."""
    if decision.kind != "movement" or decision.side != player.side:
        return None
    return rail_move(player, engine) or fort_move(player, engine)
