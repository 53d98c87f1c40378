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


def test_20_2_6_torch_east_delivers_to_a_map_t_port_the_allies_took_by_play():
    """The Allied twin of the test above, through ``Engine.apply`` from the Tunisian Campaign's set-up (31.0).  Of the
    Allied lanes only the Torch East Box reaches Map T: 20.2.6 "Allied units in the box may land (be placed in port
    boxes) on Map A from A6111 east, and on Map T from T6017 west" (the Torch Box lands at Algiers, Casablanca and
    Oran, 20.2.5; the Mediterranean boxes need ALC-11, 20.2.3, not in this scenario's deck; the Cape Route goes to the
    NRV, 20.2.4).  GT 31: ALC-23 is played in I.3 (22.7: Algeria and Tunisia in play, ALC-21 d), and before the
    Allied movement of VI.3 seven of the Torch Box's ALC-21/22 units (29.2) move to the Torch East Box (20.2.5 "They
    may move to directly to the Torch East Box", R-TORCH-EAST).  GT 32, IV.4: one of them, 11 Bde, is shipped to the
    empty, Vichy-held port T6203 as a landing (``box:PortBoxes:T6203``, 20.5); it lands at VI.3 and the Allies
    control the hex (2.2.2).  GT 33, IV.4: every unit waiting in the Torch East Box may be shipped to T6203 itself, a
    friendly port where it lands with no combat (units without a real combat factor, which cannot land opposed, to
    T6203 alone), the other Map T ports west of T6017 only as landings; the Torch Box's units are not offered T6203."""
    from core.rules import victory_rules

    port, chosen = "T6203", {}

    def torch(d):
        return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == "ALC-23"),
                    None)

    east = ("UK-11Bde", "UK-36Bde", "UK-Blade", "US-1Inf", "US-3Inf", "US-9Inf", "US-34Inf")

    def to_torch_east(d):
        return next((o.action for o in d.options if o.action.kind == "offmap_move" and o.action.args["unit"] in east
                     and o.action.args["to"] == offmap.TORCH_EAST), None)

    def ship(d):
        if d.side == ALLIED and p.state.gt == 32 and not chosen:
            for o in d.options:
                a = o.action
                if a.kind == "ship" and a.args["to"] == naval.PORT_BOXES + port and a.args["unit"] == "UK-11Bde":
                    chosen["unit"] = a.args["unit"]
                    return a
        return None

    def place(d):
        return next((o.action for o in d.options if o.action.kind == "port_place"
                     and o.action.args.get("unit") == chosen.get("unit")), None)

    script = {"events": torch, "offmap_moves": to_torch_east, "ocean_shipping": ship, "port_placement": place}
    p = Play("tunisian-campaign")
    assert victory_rules.controller(p.eng, port) == "VF"
    assert not [u for u in p.state.units.values() if u.loc == offmap.TORCH_EAST]
    p.to("movement", side=ALLIED, gt=31, script=script)
    assert {u.id for u in p.state.units.values() if u.loc == offmap.TORCH_EAST} >= set(east)     # 20.2.5, by play
    p.to("movement", side=ALLIED, gt=32, script=script)
    uid = chosen["unit"]
    assert p.state.units[uid].loc == port and victory_rules.controller(p.eng, port) == ALLIED
    p.to("ocean_shipping", side=ALLIED, gt=33, script=script)
    assert p.eng.step.key == "IV.4" and port in naval.friendly_ports(p.eng, ALLIED)
    from_east = from_torch = 0
    while p.pending.kind == "ocean_shipping" and p.pending.side == ALLIED:
        d = p.pending
        who = d.options[0].action.args["unit"]
        to = {str(o.action.args["to"]) for o in d.options if o.action.kind == "ship"}
        loc = p.state.units[who].loc
        if loc == offmap.TORCH_EAST:
            from_east += 1
            assert port in to and naval.PORT_BOXES + port not in to
            assert all(t == port or t.startswith(naval.PORT_BOXES) for t in to)          # the others: landings
            assert not [t for t in to if t[len(naval.PORT_BOXES):][:1] == "T" and int(t[-2:]) > 17]   # T6017 west
        elif loc == offmap.TORCH:
            from_torch += 1
            assert port not in to and naval.PORT_BOXES + port not in to                    # 20.2.5: not Map T
        p.act("ship_stay", unit=who)
    assert from_east >= 5 and from_torch >= 5
