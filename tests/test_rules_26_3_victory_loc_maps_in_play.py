"""R-MAPS-IN-PLAY for the victory LOCs: 26.0 "Maps in Play: Use maps C and W"; 26.3 "Controlling Tobruk (C2331) with
an overland LOC to El Agheila (C0701)" and "count the standard port capacity of all ports held by the Axis player (on
Maps C and W) that have an LOC to C0701".  A LOC is traced through hexes (12.4.2), and a hex on no map in play is off
the grid: ``victory_rules.overland_connected`` reads the trace limits of 12.4 (``supply._trace_limits``), which now
keep out the hexes out of play (``supply.off_grid_ids``).

Play path: Sonnenblume from its real set-up through ``Engine.apply`` only.  In GT 10 Phase XII the Axis stack at
C0702 moves into El Agheila (C0701); in Phase XV the KDG moves from C0603 to C0602, whose ZOC (with the 2 SG's at
C0803) covers every hex of Map C from which a line enters C0701.  Before that move Benghazi (C2308) has an overland
LOC to El Agheila; after it, none: the only line left ran west of El Agheila over Map S (S0733), which Sonnenblume
does not lay out (it counted before the fix).
"""

from __future__ import annotations

from msgspec.structs import replace

from core.decisions import ALLIED, AXIS
from core.rules import victory_rules as vr
from tests.playpath import Play

BENGHAZI, EL_AGHEILA = "C2308", "C0701"


def test_r_maps_in_play_26_3_victory_loc_to_el_agheila_is_not_traced_over_map_s():
    p = Play("sonnenblume", seed=1)
    loc_to = {c["kind"]: c.get("loc_to") for c in vr.conditions(p.eng) if c["side"] == AXIS}
    assert loc_to["control"] == EL_AGHEILA and loc_to["port_capacity"] == EL_AGHEILA
    p.to("movement", side=AXIS)
    for uid in [u.id for u in p.state.units_at("C0702")]:
        p.act("move", side=AXIS, units=[uid], path=[EL_AGHEILA])
    p.to("movement", side=ALLIED)
    assert p.state.vars["maps"] == ["C", "W"]
    assert vr.overland_connected(p.eng, AXIS, BENGHAZI, EL_AGHEILA)          # the limit: a line on Map C
    p.act("move", side=ALLIED, units=["UK-KDG"], path=["C0602"])
    assert not vr.overland_connected(p.eng, AXIS, BENGHAZI, EL_AGHEILA)      # limit + 1: none on Maps C and W
    # the line the victory check used to find: over Map S, a map Sonnenblume does not use
    every_map = replace(p.state, vars=dict(p.state.vars) | {"maps": ["A", "T", "L", "S", "C", "W"]})
    p.eng.state = every_map
    try:
        assert vr.overland_connected(p.eng, AXIS, BENGHAZI, EL_AGHEILA)
    finally:
        p.eng.state = replace(every_map, vars=dict(every_map.vars) | {"maps": ["C", "W"]})
