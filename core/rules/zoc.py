"""11.0 Zones of Control.

* 11.1 who exerts a ZOC: a combat unit with a non-parenthesised CF > 0, in GenS,
  not disrupted, not in reserve (supply units, markers and garrisons 15.8 never);
* 11.2 motorised units (and MSU moving with them) ignore non-motorised ZOC while
  moving, reacting, retreating or advancing (:func:`enemy_zoc` with ``motorized``);
* 11.3 terrain: escarpment hexsides block all ZOC; ZOC do not extend into city
  or fortified hexes; a ZOC does not extend into or through terrain the unit
  could not move into (for motorised units, even along a road or track).

The GUI query ``zoc(side)`` lists the hexes in ``side``'s ZOC.
"""

from __future__ import annotations

import msgspec

from core.engine import QUERIES, Engine
from core.hexgrid import Hex
from core.rules import tec
from core.rules.status import counter_of, has_real_cf, hex_of, tec_class
from core.state import GameState, UnitState


def exerts_zoc(u: UnitState) -> bool:
    """11.1 a)-d) and Important; 15.8 garrisons; units in boxes exert none."""
    if hex_of(u) is None or u.captured:
        return False
    c = counter_of(u)
    if c.kind != "combat" or c.garrison:
        return False
    return has_real_cf(u) and not u.ogs and not u.isolated and not u.disrupted and not u.reserve and not u.untrained


def fortified(state: GameState, gm: tec.GroundMap, h: Hex) -> bool:
    """A printed fortification or a fort marker (18.1) in ``h``."""
    return h in gm.forts or int(state.vars.get("forts", {}).get(h.label, {}).get("level", -1)) >= 0


def _prohibited_to(gm: tec.GroundMap, cls: str, a: Hex, b: Hex) -> bool:
    """11.3: terrain the unit could not move into, roads and tracks disregarded (the TEC's ``P``)."""
    return tec.prohibited_terrain(gm, cls, a, b)


def unit_zoc(state: GameState, gm: tec.GroundMap, u: UnitState) -> list[Hex]:
    """The hexes of ``u``'s ZOC (11.0, 11.3); empty when it exerts none (11.1)."""
    if not exerts_zoc(u):
        return []
    h = hex_of(u)
    assert h is not None
    cls = tec_class(state, u)
    key = ("zoc", cls, h)
    cand = gm._misc_cache.get(key)
    if cand is None:
        cand = []
        for n in tec.nbrs(h):
            if "escarpment" in gm.side_terrain(h, n):
                continue                                # 11.3 escarpment blocks all ZOC
            if gm.is_city(n):
                continue                                # 11.3 not into city hexes
            if _prohibited_to(gm, cls, h, n):
                continue                                # 11.3 prohibited terrain
            cand.append(n)
        gm._misc_cache[key] = cand = tuple(cand)        # pure in the map: cached per hex and class
    forts = state.vars.get("forts")
    if not gm.forts and not forts:
        return list(cand)
    return [n for n in cand if not fortified(state, gm, n)]   # 11.3 not into fortified hexes


def counts_for(u: UnitState, side: str) -> bool:
    """Whether ``u``'s ZOC is one of ``side``'s ZOC for the other side's units: ``side``'s own units, and for the
    Axis also the neutral Vichy French units, which are enemies of the Allies (R-VICHY-NEUTRAL; 11.0 "It affects
    enemy movement and supply") while staying on the Allied side of the state (their ZOC affects the Axis too)."""
    if u.side == side:
        return True
    if side == "Axis" and u.flags.get("vichy") == "neutral":
        from core.rules import fna
        return fna.neutral_vf(u)
    return False


def zoc_map(state: GameState, side: str, gm: tec.GroundMap | None = None) -> dict[Hex, list[str]]:
    """hex -> ids of the units exerting one of ``side``'s ZOC into it (:func:`counts_for`).

    Memoised on the units until any unit changes (``Units.derived``; what it reads of a unit are its attributes and
    its ``vichy`` flag, which is only ever replaced with the flags), keyed by the map and the fort markers (18.1):
    the sampled moves, the chosen move's trace and the supply lines of one state share it (issue 18)."""
    gm = gm or tec.current_map()
    forts = state.vars.get("forts")
    key = ("zoc_map", side, id(gm), gm._generation, msgspec.json.encode(forts) if forts else b"")
    return dict(state.units.derived(key, lambda: _zoc_map(state, side, gm)))


def _zoc_map(state: GameState, side: str, gm: tec.GroundMap) -> dict[Hex, list[str]]:
    out: dict[Hex, list[str]] = {}
    for u in state.units.values():
        if not counts_for(u, side):
            continue
        for h in unit_zoc(state, gm, u):
            out.setdefault(h, []).append(u.id)
    return out


def zoc_hexes(state: GameState, side: str, gm: tec.GroundMap | None = None) -> set[Hex]:
    """Every hex in ``side``'s ZOC."""
    return set(zoc_map(state, side, gm))


def enemy_zoc(state: GameState, enemy: str, *, motorized: bool, gm: tec.GroundMap | None = None) -> dict[Hex, list[str]]:
    """The EZOC a mover of the other side must respect.

    11.2: motorised movers ignore the ZOC of non-motorised combat units.
    """
    from core.rules.status import is_motorized

    zm = zoc_map(state, enemy, gm)
    if not motorized:
        return zm
    out: dict[Hex, list[str]] = {}
    for h, ids in zm.items():
        keep = [i for i in ids if is_motorized(state.units[i])]
        if keep:
            out[h] = keep
    return out


def query_zoc(eng: Engine, side: str) -> list[str]:
    """GUI query: hex labels in ``side``'s ZOC."""
    return sorted(h.label for h in zoc_hexes(eng.state, side))


QUERIES["zoc"] = query_zoc
