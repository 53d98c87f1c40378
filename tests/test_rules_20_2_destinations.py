"""20.2.1-20.2.6 ocean shipping destinations, sentence by sentence, from north-african-campaign's set-up (33.0,
GT 1: the Axis holds Tripoli, Benghazi, Tobruk, Bardia; the Allies the NRV).  Where a sentence needs a port the
set-up does not give (an Axis port on Map T, an Allied port on Map T), the control of that one hex is set by hand, and
ALC-23 is marked played: every port of Map T is in Tunisia, out of play until Operation Torch (22.7, R-FNA-HEXES)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS
from core.rules import naval, offmap
from tests.playpath import Play


def start() -> Play:
    p = Play("north-african-campaign")
    assert p.state.gt == 1
    return p


def after_torch(p: Play) -> None:
    """22.7: the hexes of Algeria and Tunisia (every port of Map T) come into play when ALC-23 is played."""
    p.state.cards["ALC-23"] = dict(p.state.cards["ALC-23"], status="in_play")
    assert not offmap.fna_hexes_out_of_play(p.state)


def an(p: Play, side: str) -> str:
    return next(u.id for u in p.state.units.values() if u.side == side)


def test_20_2_1_italy_delivers_to_any_axis_controlled_port_in_north_africa_map_t_included():
    p = start()
    uid = an(p, AXIS)
    got = set(naval.destinations(p.eng, uid, origin=offmap.ITALY))
    assert got == set(naval.friendly_ports(p.eng, AXIS)) and {"L2817", "C2331"} <= got
    assert "T6017" not in got and offmap.NRV not in got                 # Tunis is not Axis controlled yet
    p.state.control["T6017"] = AXIS
    assert "T6017" not in naval.destinations(p.eng, uid, origin=offmap.ITALY)   # 22.7: out of play before ALC-23
    after_torch(p)
    assert "T6017" in naval.destinations(p.eng, uid, origin=offmap.ITALY)  # "any ... ports in North Africa"


def test_20_2_2_sicily_delivers_to_axis_controlled_ports_on_map_t_only():
    p = start()
    uid = an(p, AXIS)
    assert naval.destinations(p.eng, uid, origin=offmap.SICILY) == {}
    p.state.control["T6017"] = AXIS
    after_torch(p)
    assert set(naval.destinations(p.eng, uid, origin=offmap.SICILY)) == {"T6017"}


def test_20_2_3_allied_mediterranean_boxes_any_allied_port_only_on_gts_alc_11_is_played():
    p = start()
    uid = an(p, ALLIED)
    p.state.control["T6017"] = ALLIED
    after_torch(p)
    assert naval.destinations(p.eng, uid, origin=offmap.CAPE) == {offmap.NRV: naval.friendly_ports(p.eng, ALLIED)[offmap.NRV]}
    p.state.cards.setdefault("ALC-11", {})["last_play_gt"] = p.state.gt
    got = set(naval.destinations(p.eng, uid, origin=offmap.CAPE))
    assert got == set(naval.friendly_ports(p.eng, ALLIED)) and "T6017" in got and "C2331" not in got


def test_20_2_4_cape_route_to_the_nrv_only():
    p = start()
    uid = an(p, ALLIED)
    assert set(naval.destinations(p.eng, uid, origin=offmap.CAPE, lane="Cape")) == {offmap.NRV}


def test_20_2_5_and_20_2_6_torch_areas():
    from core.rules.combat_forms import landing_area

    assert landing_area(offmap.TORCH, "A6201") and not landing_area(offmap.TORCH, "T6017")
    assert landing_area(offmap.TORCH_EAST, "A6111") and not landing_area(offmap.TORCH_EAST, "A6110")   # A6111 east
    assert landing_area(offmap.TORCH_EAST, "T6017") and not landing_area(offmap.TORCH_EAST, "T6018")   # T6017 west


def test_20_2_2_sicily_delivers_to_a_map_t_port_the_axis_took_by_play():
    """The play-path twin of the 20.2.1 / 20.2.2 tests above (no control set by hand): the Tunisian Campaign (31.0,
    French North Africa in play from the start, 29.0) through ``Engine.apply``.  GT 30: 10 Bersaglieri drive from
    Tripoli into Sfax (T4320, a port of Map T, three standard boxes), which the Axis then controls (2.2.2), as it does Gabes (T3516), a port the
    Bersaglieri entered on the coast road ("a ground combat unit entering a hex transfers control").  GT 31, IV.3:
    every unit waiting in Sicily may be shipped to Sfax or Gabes and nowhere else -- not to Tripoli (L2817, Map L),
    which 20.2.2 ("any Axis controlled ports on Map T") leaves out, nor to the other Map T ports, nobody's."""
    from core.rules import movement, victory_rules

    p = Play("tunisian-campaign")
    p.to("movement", side=AXIS)
    assert p.state.gt == 30 and "T4320" not in naval.friendly_ports(p.eng, AXIS)
    path = movement.query_reachable(p.eng, ["IT-10Ber"], with_paths=True)["T4320"]["path"]
    p.act("move", units=["IT-10Ber"], path=path)
    assert "T3516" in path and victory_rules.controller(p.eng, "T4320") == AXIS
    assert victory_rules.controller(p.eng, "T3516") == AXIS
    d = p.to("ocean_shipping", side=AXIS)
    assert (p.state.gt, p.eng.step.key) == (31, "IV.3")
    assert {"L2817", "T4320"} <= set(naval.friendly_ports(p.eng, AXIS))
    shipped = 0
    while p.pending.kind == "ocean_shipping" and p.pending.side == AXIS:
        d = p.pending
        uid = d.context.get("unit") or d.options[0].action.args["unit"]
        assert p.state.units[uid].loc == offmap.SICILY
        assert {o.action.args["to"] for o in d.options if o.action.kind == "ship"} == {"T3516", "T4320"}
        p.act("ship_stay", unit=uid)
        shipped += 1
    assert shipped >= 5                                         # 29.1: the units in Sicily, and the GT's dump
