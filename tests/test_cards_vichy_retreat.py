"""23.1 ALC-21 i) / ALC-27 and 22.7: the Vichy French Reaction Table before a combat against neutral VF units, the
retreat result carried out by the non-attacking player (R-VICHY-RETREAT), combat in the FNA boxes (Allied attacks
on VF only), the FNA road, and Torch landings in the Casablanca and Oran boxes (20.2.5, 22.7)."""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.state import Frame
from core.rules import fna, naval, offmap
from tests.test_events_cards import make, put


def torch_played(rolls=(), phase=8):
    eng = make("north-african-campaign", gt=28, dice=ScriptedDice(list(rolls)))
    eng.state.vars["fna_in_play"] = True
    eng.state.cards["ALC-23"]["status"] = "in_play"
    eng.state.phase, eng.state.first_player = phase, ALLIED
    for u in eng.state.units.values():
        if offmap.base_id(u.id).startswith("VFA-"):
            u.flags = dict(u.flags) | {"vichy": "neutral"}
    return eng


def box_fight(rolls):
    eng = torch_played(rolls)
    put(eng, "VFA-Oran", "box:Oran")
    eng.state.units["VFA-Oran"].flags = {"vichy": "neutral"}
    put(eng, "US-1Inf", "box:Oran")
    eng.push("fna_box_combat", step="VIII.1")
    eng._settle()
    return eng


def test_alc_21_i_4_vichy_retreat_is_moved_by_the_non_attacking_player():
    eng = box_fight([3])                                   # US column, 3: retreat
    d = eng.pending()
    assert d.kind == "fna_box_combat" and d.side == ALLIED
    eng.apply(next(o.action for o in d.options if o.action.kind == "fna_box_attack"))
    d = eng.pending()
    assert d.kind == "vichy_retreat" and d.side == AXIS and "ALC-21 i 4" in d.rule
    assert {o.action.args["to"] for o in d.options} == {"box:Orleansville", "box:Tlemcen"}
    before = copy.deepcopy(eng.state)
    from core.engine import PROCEDURES
    with pytest.raises(IllegalAction) as e:                 # the attacker may not move them
        PROCEDURES["vichy_retreat"].apply(eng, eng.state.stack[-1], Action(
            kind="vichy_retreat", side=ALLIED, args={"unit": "VFA-Oran", "to": "box:Tlemcen"}))
    assert "ALC-21 i 4" in e.value.rule and eng.state.hash() == before.hash()
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="vichy_retreat", side=AXIS, args={"unit": "VFA-Oran", "to": "box:Casablanca"}))
    assert eng.state.hash() == before.hash()
    eng.apply(Action(kind="vichy_retreat", side=AXIS, args={"unit": "VFA-Oran", "to": "box:Tlemcen"}))
    assert eng.state.units["VFA-Oran"].loc == "box:Tlemcen"
    assert eng.state.units["US-1Inf"].loc == "box:Oran" and eng.state.units["VFA-Oran"].steps == 2


def test_alc_21_i_vichy_join_result_in_a_box():
    eng = box_fight([5])                                   # US column, 5: join
    eng.apply(next(o.action for o in eng.pending().options if o.action.kind == "fna_box_attack"))
    u = eng.state.units["VFA-Oran"]
    assert u.flags["vichy"] == "joined" and u.side == ALLIED and u.loc == "box:Oran"


def test_22_7_fight_result_resolved_on_the_crt_once_per_box_and_phase():
    eng = box_fight([1, 6])                                # fight, then the CRT die
    act = next(o.action for o in eng.pending().options if o.action.kind == "fna_box_attack")
    eng.apply(act)
    text = " ".join(e for le in eng.log for e in getattr(le, "events", []))
    assert "Combat in the box:Oran box" in text
    d = eng.pending()
    assert d is None or d.kind != "fna_box_combat" or all(o.action.args.get("box") != "box:Oran" for o in d.options)


def test_22_7_only_allied_attacks_and_only_with_fna_in_play():
    eng = box_fight([])
    eng.state.vars["fna_in_play"] = False
    eng.state.cards["ALC-23"]["status"] = "active"
    from core.engine import PROCEDURES
    fr = Frame(proc="fna_box_combat", data={"step": "VIII.1"})
    assert PROCEDURES["fna_box_combat"].decide(eng, fr) is None
    eng = torch_played([], phase=11)                        # the second (Axis) player's Combat Phase
    put(eng, "VFA-Oran", "box:Oran")
    eng.state.units["VFA-Oran"].flags = {"vichy": "neutral"}
    put(eng, "US-1Inf", "box:Oran")
    assert PROCEDURES["fna_box_combat"].decide(eng, Frame(proc="fna_box_combat", data={"step": "XI.1"})) is None


def test_alc_21_i_map_combat_retreat_chosen_by_the_non_attacking_player():
    eng = torch_played([4], phase=8)                        # Axis column, 4: retreat
    eng.state.first_player = AXIS
    for uid in [u.id for u in eng.state.units_at("A6201")] + [u.id for u in eng.state.units_at("A6202")]:
        eng.state.units[uid].loc = offmap.REMOVED
    put(eng, "VFA-Alger", "A6201")
    eng.state.units["VFA-Alger"].flags = {"vichy": "neutral"}
    put(eng, "GE-5Pz", "A6202")
    eng.push("resolve_combat", attackers=["GE-5Pz"], hex="A6201")
    eng._settle()
    d = eng.pending()
    assert d.kind == "vichy_retreat" and d.side == ALLIED          # the Axis attacked: the Allies move them
    to = d.options[0].action.args["to"]
    eng.apply(d.options[0].action)
    assert eng.state.units["VFA-Alger"].loc == to != "A6201"
    assert eng.state.units["VFA-Alger"].steps == 2 and eng.state.units["GE-5Pz"].loc == "A6202"


def test_22_7_fna_road_moves():
    eng = torch_played([], phase=6)
    put(eng, "US-1Inf", "box:Casablanca")
    fr = Frame(proc="movement", data={"side": ALLIED, "moved": {}})
    fna.act_fna_move(eng, fr, Action(kind=fna.MOVE, side=ALLIED, args={"units": ["US-1Inf"], "to": "box:Rabat"}))
    assert eng.state.units["US-1Inf"].loc == "box:Rabat" and fr.data["moved"]["US-1Inf"] > 0
    before = copy.deepcopy(eng.state)
    for args, side in (({"units": ["US-1Inf"], "to": "box:Oran"}, ALLIED),          # not the next box
                       ({"units": ["GE-5Pz"], "to": "box:Orleansville"}, AXIS)):    # Axis may not enter
        if side == AXIS:
            put(eng, "GE-5Pz", "A6201")
            before = copy.deepcopy(eng.state)
        with pytest.raises(IllegalAction) as e:
            fna.act_fna_move(eng, Frame(proc="movement", data={"side": side, "moved": {}}),
                             Action(kind=fna.MOVE, side=side, args=args))
        assert "22.7" in e.value.rule and eng.state.hash() == before.hash()
    put(eng, "VFA-Oran", "box:Oran")
    eng.state.units["VFA-Oran"].flags = {"vichy": "neutral"}
    with pytest.raises(IllegalAction, match="ALC-21 i"):
        fna.act_fna_move(eng, Frame(proc="movement", data={"side": ALLIED, "moved": {}}),
                         Action(kind=fna.MOVE, side=ALLIED, args={"units": ["VFA-Oran"], "to": "box:Tlemcen"}))


def test_22_7_torch_units_land_in_the_casablanca_and_oran_boxes():
    eng = torch_played([], phase=6)
    put(eng, "US-1Inf", offmap.TORCH)
    assert offmap.fna_box_ports() == {"box:Casablanca": 3, "box:Oran": 3}
    assert {"box:Casablanca", "box:Oran"} <= set(naval.legal_ports(eng, "US-1Inf"))
    if not hasattr(naval, "PortPlacement"):
        pytest.skip("the 20.1 port-box placement flow is not in naval.py yet")
    eng.state.initiative = AXIS
    naval.OceanShipping().apply(eng, Frame(proc="ocean_shipping", data={"step": "IV.3", "seen": []}),
                                Action(kind="ship", side=ALLIED, args={"unit": "US-1Inf", "to": "box:Casablanca"}))
    place = naval.placements(eng, "US-1Inf")[0]
    assert place == naval.box_loc("box:Casablanca")
    naval.PortPlacement().apply(eng, Frame(proc="port_placement", data={}),
                                Action(kind="port_place", side=ALLIED, args={"unit": "US-1Inf", "to": place}))
    naval.land_from_port_boxes(eng)
    assert eng.state.units["US-1Inf"].loc == "box:Casablanca"
