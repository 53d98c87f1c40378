"""Allied reinforcements from the NRV Box to the front (7.0, 13.8, 22.1; 13.7 rail) for the admin AI.

Allied reinforcements arrive in the NRV Box (7.2); they reach the hex grid in a friendly Movement Phase by a
``move`` that names the box (``enter``) and an NRV entry hex (22.1 c/d: W1434, W2034, W2234), or by rail from the
NRV along the active Egyptian railroad (13.7), one load a Movement Phase, taken when it gets nearer.  The admin AI brings its combat units in, most valuable first,
toward the front: the friendly unit nearest the enemy (else the nearest enemy or objective), stopping short of
enemy units and overstacking.  The paths come from the engine's own search (``reachable_paths``, run on a copy
with the unit standing on the entry hex); each move is tried on a copy (:func:`core.ai.admin_util.trial`), cut
shorter while the engine refuses it (the entry costs part of the allowance).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.ai.admin_util import enemy_hexes, nearest, objective_hexes, plan_line, trial, unit_worth
from core.decisions import ALLIED, Action, Decision
from core.hexgrid import Hex
from core.rules import stacking, tec, transport
from core.rules.status import hex_of, is_combat

if TYPE_CHECKING:
    from core.engine import Engine

#: units tried per Movement-Phase decision at most (each try copies the state a few times)
UNITS_PER_DECISION = 2


def _target(engine: "Engine") -> Hex | None:
    """Where reinforcements go: the friendly combat unit nearest the enemy, else the nearest enemy or objective."""
    st = engine.state
    front = enemy_hexes(engine, ALLIED)
    own = sorted({h for u in st.units.values() if u.side == ALLIED and is_combat(u) and (h := hex_of(u)) is not None},
                 key=lambda h: h.label)
    if own and front:
        return min(own, key=lambda h: (nearest(h, front), h.label))
    goals = objective_hexes(engine, ALLIED)
    pool = front or goals
    entry = Hex.parse("W2234")
    return min(pool, key=lambda h: (h.distance(entry), h.label)) if pool else None


#: (log length, entry, class, MA) -> paths: units of one class and allowance share the search of a position
_PATHS: dict[tuple, dict[str, list[str]]] = {}


def _paths_from(engine: "Engine", uid: str, entry: str) -> dict[str, list[str]]:
    """The engine's cheapest paths for ``uid`` standing on ``entry`` (a copy of the state; full allowance)."""
    from core.rules.movement import MoveOptions, reachable_paths
    from core.rules.status import movement_allowance, tec_class
    from core.state import GameState

    u = engine.state.units[uid]
    key = (engine.state.hash(), entry, tec_class(engine.state, u), movement_allowance(u))
    hit = _PATHS.get(key)
    if hit is None:
        copy = GameState.decode(engine.state.encode())
        copy.units[uid].loc = entry
        if len(_PATHS) > 64:
            _PATHS.clear()
        hit = _PATHS[key] = reachable_paths(copy, ALLIED, [uid], MoveOptions())
    return hit


def _entry_move(engine: "Engine", uid: str, target: Hex) -> Action | None:
    st = engine.state
    gm = tec.current_map()
    front = enemy_hexes(engine, ALLIED)
    pts = stacking.stacking_points(st.units[uid])
    best: tuple[tuple, list[str]] | None = None
    for entry in sorted(transport.NRV_ENTRIES):
        if any(u.side != ALLIED for u in st.units_at(entry)):
            continue
        for lab, path in _paths_from(engine, uid, entry).items():
            h = Hex.parse(lab)
            if nearest(h, front) < 2:
                continue
            here = sum(stacking.stacking_points(u) for u in st.units_at(lab) if u.side == ALLIED)
            if here + pts > stacking.limit(gm, lab):
                continue
            key = (h.distance(target), len(path), lab)
            if best is None or key < best[0]:
                best = (key, [entry] + [p for p in path if p != entry])
    road = _road_move(uid, best[1] if best is not None else [], engine)
    rail = _rail_move(engine, uid, target, front)
    if rail is not None and (road is None or Hex.parse(rail.args["to"]).distance(target)
                             < Hex.parse(road.args["path"][-1]).distance(target)):
        return rail
    return road


def _road_move(uid: str, full: list[str], engine: "Engine") -> Action | None:
    """The longest accepted prefix of ``full`` (entry hex first) among a few cuts."""
    for n in sorted({len(full), (3 * len(full)) // 4, len(full) // 2, len(full) // 4, 1}, reverse=True):
        if n < 1 or not full:
            continue
        a = Action(kind="move", side=ALLIED, args={"units": [uid], "path": full[:n], "enter": transport.NRV})
        if trial(engine, a):
            return a
    return None


def _failed(player: Any, st: Any) -> set[str]:
    """The units that found no accepted entry in this Movement Phase (kept on the player: not tried again)."""
    key = (st.gt, st.phase, st.step)
    memo = getattr(player, "_admin_entry_failed", None)
    if memo is None or memo[0] != key:
        memo = (key, set())
        player._admin_entry_failed = memo
    return memo[1]


def _rail_move(engine: "Engine", uid: str, target: Hex, front: list[Hex]) -> Action | None:
    """13.7: by rail from the NRV to the active Egyptian railroad hex nearest ``target`` (2+ hexes from the
    enemy); one load a Movement Phase, so tried for the most valuable unit that asks."""
    top = engine.state.stack[-1] if engine.state.stack else None
    if top is not None and "egypt" in top.data.get("rail_used", []):
        return None
    hexes = [Hex.parse(x) for x in transport.egyptian_rail_active(engine.state)]
    hexes = [h for h in hexes if nearest(h, front) >= 2]
    if not hexes:
        return None
    to = min(hexes, key=lambda h: (h.distance(target), h.label))
    a = Action(kind="rail", side=ALLIED, args={"units": [uid], "to": to.label})
    return a if trial(engine, a) else None


def nrv_entry_move(player: Any, decision: Decision, engine: "Engine", reserved: frozenset[str]) -> Action | None:
    """In an Allied Movement Phase: a move that brings a combat unit from the NRV Box toward the front, or None."""
    if player.side != ALLIED or decision.kind != "movement" or decision.side != ALLIED:
        return None
    st = engine.state
    top = st.stack[-1] if st.stack else None
    moved = top.data.get("moved", {}) if top is not None else {}
    units = sorted((u for u in st.units_at(transport.NRV) if u.side == ALLIED and is_combat(u)
                    and u.id not in reserved and u.id not in moved),
                   key=lambda u: (-unit_worth(u.id, u.steps), u.id))
    target = _target(engine)
    if target is None:
        return None
    failed = _failed(player, st)
    tried = 0
    for u in units:
        if u.id in failed:
            continue
        if tried >= UNITS_PER_DECISION:
            break
        tried += 1
        a = _entry_move(engine, u.id, target)
        if a is None:
            failed.add(u.id)
            continue
        where = a.args["to"] + " by rail (13.7)" if a.kind == "rail" else a.args["path"][-1] + " (22.1)"
        plan_line(player, f"{u.id} comes up from the NRV to {where}, toward the front at {target.label} (7.0)")
        return a
    return None
