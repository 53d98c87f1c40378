"""12.2.3 base activation in the Allocation Phase (IV.1 / IV.2), 12.3 b) a dump gives GenS to one hex
(offered in VI.2), 12.2.5 2) the Reaction-phase destruction attempt, 12.2.4 primary base relocation and
loss, 22.1 the NRV's rail leg of LOS."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.hexgrid import Hex
from core.rules import supply, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def clear():
    tec.use_map(tec.GroundMap(default="clear", ports={Hex.parse("C1001"): 6, Hex.parse("C1020"): 4,
                                                        Hex.parse("C1025"): 2}))
    yield
    tec.use_map(None)


def kinds(eng):
    return {o.action.kind for o in eng.pending().options}


def test_12_2_3_activation_in_allocation_phase_iv1_iv2(clear):
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1010"), unit("AX-Dump#1", AXIS, "C1010"),
                              unit("AX-Base#2", AXIS, "C1030"),
                              unit("AL-Base#1", ALLIED, "C2020"), unit("AL-Dump#1", ALLIED, "C2020")],
                             phase=4, step=1, vars={"nrv_in_play": False})
    d = eng.pending()
    assert d.side == AXIS and d.kind == "activate_bases" and "4.1 IV.1" in d.rule
    acts = [o.action for o in d.options]
    assert Action(kind="activate_base", side=AXIS, args={"base": "AX-Base#1"}) in acts
    assert all(a.args.get("base") != "AX-Base#2" for a in acts)          # no dump in its hex
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="activate_base", side=AXIS, args={"base": "AX-Base#2"}))
    assert "12.2.3" in exc.value.rule
    eng.apply(Action(kind="activate_base", side=AXIS, args={"base": "AX-Base#1"}))
    assert eng.state.units["AX-Base#1"].active and "AX-Dump#1" not in eng.state.units
    eng.apply(Action(kind="done", side=AXIS))
    d = eng.pending()
    assert d.side == ALLIED and "IV.2" in d.rule and "activate_base" in kinds(eng)
    eng.apply(Action(kind="activate_base", side=ALLIED, args={"base": "AL-Base#1"}))
    assert eng.state.units["AL-Base#1"].active


def test_12_3_b_dump_gives_gens_to_one_hex_in_vi2(clear):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2, ogs=True), unit("GE-3Aufkl", AXIS, "C1010", ogs=True),
                              unit("IT-8Ber", AXIS, "C1030", ogs=True), unit("AX-Dump#1", AXIS, "C1005")],
                             phase=6, step=2, vars={"nrv_in_play": False})
    d = eng.pending()
    assert d.kind == "refit"
    act = Action(kind="dump_gens", side=AXIS, args={"dump": "AX-Dump#1", "hex": "C1010"})
    assert act in [o.action for o in d.options]
    assert all(o.action.args.get("hex") != "C1030" for o in d.options)   # beyond 7 MMP
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="dump_gens", side=AXIS, args={"dump": "AX-Dump#1", "hex": "C1030"}))
    assert exc.value.rule == "12.3 b)"
    eng.apply(act)
    st = eng.state
    assert not st.units["GE-5Pz"].ogs and not st.units["GE-3Aufkl"].ogs and st.units["IT-8Ber"].ogs
    assert "AX-Dump#1" not in st.units


def test_12_2_5_2_reaction_phase_destruction_attempt(clear):
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1012"),
                              unit("AL-Dump#1", ALLIED, "C1012"), unit("AL-MSU#1", ALLIED, "C1012")],
                             phase=7, step=1, vars={"nrv_in_play": False})
    d = eng.pending()
    assert d.side == ALLIED and d.kind == "reaction"
    acts = [o.action for o in d.options if o.action.kind == "destroy_supply"]
    assert Action(kind="destroy_supply", side=ALLIED, args={"unit": "AL-Dump#1", "by": "UK-KDG"}) in acts
    eng.dice = ScriptedDice([5])
    eng.apply(Action(kind="destroy_supply", side=ALLIED, args={"unit": "AL-Dump#1", "by": "UK-KDG"}))
    assert "AL-Dump#1" in eng.state.units                                # 4-6: remains
    with pytest.raises(IllegalAction, match="one attempt") as exc:
        eng.apply(Action(kind="destroy_supply", side=ALLIED, args={"unit": "AL-Dump#1", "by": "UK-KDG"}))
    assert exc.value.rule == "12.2.5"
    with pytest.raises(IllegalAction):                                   # its RMA is spent
        eng.apply(Action(kind="destroy_supply", side=ALLIED, args={"unit": "AL-MSU#1", "by": "UK-KDG"}))
    with pytest.raises(IllegalAction, match="already moved"):
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-KDG"], "path": ["C1013"]}))


def test_12_2_5_2_destroyed_on_1_to_3(clear):
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1012"),
                              unit("AL-Dump#1", ALLIED, "C1012")], phase=7, step=1, vars={"nrv_in_play": False})
    eng.dice = ScriptedDice([3])
    eng.apply(Action(kind="destroy_supply", side=ALLIED, args={"unit": "AL-Dump#1", "by": "UK-KDG"}))
    assert "AL-Dump#1" not in eng.state.units


def test_12_2_4_relocation_at_start_of_allocation_phase(clear):
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True), unit("AX-Base#2", AXIS, "C1020"),
                              unit("AX-Base#3", AXIS, "C1025")],
                             phase=4, step=1, vars={"primary_base": {"Axis": "AX-Base#1"}, "nrv_in_play": False,
                                                    "control_rules": [{"side": AXIS, "area": "all"}]})   # 2.2.2 ports
    d = eng.pending()
    assert d.kind == "relocate_primary_base" and d.side == AXIS
    acts = [o.action for o in d.options]
    assert Action(kind="relocate_primary_base", side=AXIS, args={"base": "AX-Base#2"}) in acts
    assert all(a.args.get("base") != "AX-Base#3" for a in acts)        # port capacity 2 < 3
    eng.apply(Action(kind="relocate_primary_base", side=AXIS, args={"base": "AX-Base#2"}))
    st = eng.state
    assert st.units["AX-Base#1"].loc == "C1020" and st.units["AX-Base#2"].loc == "C1001"
    assert not st.units["AX-Base#1"].active and not st.units["AX-Base#2"].active
    assert st.vars["primary_base_moved_gt"] == st.gt
    assert eng.pending().kind == "activate_bases"


def test_12_2_4_primary_base_lost_empties_boxes_and_roll_halved(clear):
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "box:Refit:Axis"),
                              unit("GE-3Aufkl", AXIS, "box:Destroyed:Axis"), unit("GE-Kasta", AXIS, "C1005"),
                              unit("IT-Nizza", AXIS, "C1001"), unit("IT-8Ber", AXIS, "C1020"), unit("IT-10Ber", AXIS, "C1025"),
                              unit("UK-KDG", ALLIED, "box:Refit:Allied")],
                             vars={"primary_base": {"Axis": "AX-Base#1"}, "nrv_in_play": False})
    eng.dice = ScriptedDice([5])
    supply.remove_supply_unit(eng, "AX-Base#1", "destroyed (test)")
    st = eng.state
    assert st.vars["primary_base_lost"] == {"gt": 10, "return_gt": 13}        # 5 halved, rounded up = 3
    assert st.units["GE-5Pz"].loc == "removed" and st.units["GE-3Aufkl"].loc == "removed"
    assert st.units["GE-Kasta"].loc == "C1005" and st.units["UK-KDG"].loc == "box:Refit:Allied"
    # replaced at IV.1 once the GTs have passed, in a friendly port of capacity 3+
    eng2 = engine_at_movement([u for u in st.units.values()], phase=4, step=1, vars=dict(st.vars))
    assert eng2.pending().kind == "activate_bases"                    # GT 10 < 13: not yet
    st.vars["primary_base_lost"]["return_gt"] = 10
    eng3 = engine_at_movement([u for u in st.units.values()], phase=4, step=1, vars=dict(st.vars))
    d = eng3.pending()
    assert d.kind == "place_primary_base"
    labels = {o.action.args["hex"] for o in d.options}
    assert {"C1001", "C1020"} <= labels and "C1025" not in labels
    eng3.apply(Action(kind="place_primary_base", side=AXIS, args={"hex": "C1020"}))
    st = eng3.state
    pb = st.vars["primary_base"]["Axis"]
    assert st.units[pb].loc == "C1020" and "primary_base_lost" not in st.vars


def test_22_1_nrv_los_by_rail_along_active_length():
    tec.use_map(tec.GroundMap(default="clear"))
    try:
        eng = engine_at_movement([], vars={"railhead": "W2118"})
        lines = supply.supply_lines(eng.state, ALLIED)
        # W2020 is on the railroad Alexandria - Mersa Matruh: reached by rail (3 MP), 11 MMP left
        assert lines.los[Hex.parse("W2118")] == (11 * tec.EIGHTH, "NRV rail (22.1)")     # Mersa Matruh by rail
        eng.state.vars["railhead"] = "W2114"
        lines = supply.supply_lines(eng.state, ALLIED)
        assert lines.los[Hex.parse("W2114")] == (11 * tec.EIGHTH, "NRV rail (22.1)")
        eng.state.units["GE-3Aufkl"] = unit("GE-3Aufkl", AXIS, "W2116")    # cuts the line: 13.7 a), b)
        from core.rules import transport

        active = transport.egyptian_rail_active(eng.state)
        assert active[-1] == "W2118" and "W2114" not in active
        lines = supply.supply_lines(eng.state, ALLIED)
        assert lines.los.get(Hex.parse("W2114"), (0, ""))[0] < 11 * tec.EIGHTH
    finally:
        tec.use_map(None)
