"""10.0 Stacking: limits apply only at the end of each phase (10.2); an overstacked
hex has all its units disrupted (10.3).  Supply units, RP and markers do not count
(12.2, 17.1); a division counts three points even when reduced (15.10)."""

from __future__ import annotations

from core.engine import Engine, at_phase_end
from core.rules import tec
from core.rules.status import counter_of, disrupt, hex_of, is_combat
from core.state import GameState, UnitState

CITY_LIMIT = 9     # 10.2
OTHER_LIMIT = 6    # 10.2


def stacking_points(u: UnitState) -> int:
    """10.1: the counter's stacking points (Stacking Summary); divisions 3 (15.10)."""
    if not is_combat(u):
        return 0
    c = counter_of(u)
    if c.divisional:
        return 3
    return c.stack_pts or 1


def limit(gm: tec.GroundMap, label: str) -> int:
    from core.hexgrid import Hex

    return CITY_LIMIT if gm.is_city(Hex.parse(label)) else OTHER_LIMIT


def overstacked(state: GameState, gm: tec.GroundMap | None = None) -> dict[str, tuple[int, int]]:
    """hex -> (points, limit) for every overstacked hex (10.2)."""
    gm = gm or tec.current_map()
    pts: dict[str, int] = {}
    for u in state.units.values():
        if hex_of(u) is not None:
            pts[u.loc] = pts.get(u.loc, 0) + stacking_points(u)
    out = {}
    for lab, p in pts.items():
        lim = limit(gm, lab)
        if p > lim:
            out[lab] = (p, lim)
    return out


@at_phase_end
def overstacking(eng: Engine, phase: int) -> None:
    """10.3: at the end of each phase all units in an overstacked hex are disrupted."""
    st = eng.state
    for lab, (p, lim) in sorted(overstacked(st).items()):
        for u in sorted(st.units_at(lab), key=lambda x: x.id):
            if is_combat(u):
                disrupt(eng, u.id, f"{lab} holds {p} stacking points, over its limit of {lim}", "10.3")
