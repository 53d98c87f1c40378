"""19.9.2 Port Strikes: before step 2 of each Movement Phase (after the phasing player's counters were placed in
the port boxes, 20.1) the non-phasing player strikes them with eligible naval air units (19.1 areas of operations;
20.2.6 Important: Sicily against the Torch East ports), resolved with 19.9.1 (+1 port box, -1 per escorting fleet),
losses chosen alternately (the targeted player first), then the strikers check for damage (19.3)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.engine import PRE_STEP
from core.rules import air, fleets, strikes
from tests.ground_helpers import engine_at_movement, unit

CRETE, SICILY = air.box(AXIS, "Crete"), air.box(AXIS, "Sicily")
PB = "box:PortBoxes:"


def at_step_2(*units, first=ALLIED, dice=None):
    """The phasing (first) player's Movement Phase VI, before step 2 (refit)."""
    eng = engine_at_movement(list(units), step=2, first=first)
    if dice is not None:
        eng.dice = ScriptedDice(list(dice))
    return eng


def pairs(eng):
    return sorted((o.action.args["unit"], o.action.args["port"]) for o in eng.pending().options
                  if o.action.kind == "port_strike")


def test_19_9_2_port_strikes_run_before_step_2_of_every_movement_phase():
    for k in ("VI.2", "IX.2", "XII.2", "XV.2"):
        assert "port_strikes" in PRE_STEP[k]


def test_19_9_2_no_decision_without_enemy_units_in_port_boxes():
    eng = at_step_2(unit("GE-XFK", AXIS, CRETE), unit("UK-2Arm", ALLIED, "C2331", steps=2))
    assert eng.pending().kind != "port_strikes"


def test_19_9_2_axis_strike_on_allied_port_boxes_losses_alternate_then_damage():
    # Crete flies over Maps C and W (19.1.1): 2 dice +1: 4 and 6 hit; Allied first loss, Axis second; damage 2+2
    eng = at_step_2(unit("GE-XFK", AXIS, CRETE), unit("UK-2Arm", ALLIED, PB + "C2331", steps=2),
                    unit("AL-Dump#1", ALLIED, PB + "C2331"), dice=[4, 6, 2, 2])
    d = eng.pending()
    assert d.kind == "port_strikes" and d.side == AXIS and "19.9.2" in d.rule
    assert pairs(eng) == [("GE-XFK", "C2331")]
    eng.apply(Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2331"}))
    eng.apply(Action(kind="done", side=AXIS))
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == ALLIED
    eng.apply(Action(kind="strike_loss", side=ALLIED, args={"unit": "AL-Dump#1"}))
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == AXIS
    eng.apply(Action(kind="strike_loss", side=AXIS, args={"unit": "UK-2Arm"}))
    st = eng.state
    assert st.units["UK-2Arm"].steps == 1
    assert st.units["GE-XFK"].flags.get("based")          # 19.3: 2+2 +1 (port hex) = 5: based
    assert eng.pending().kind != "port_strikes"


def test_19_9_2_escorting_med_fleet_subtracts_one():
    # 6-1+1 = 6 hit, 4-1+1 = 4 miss; escort checks damage as well (20.4.2 Coastal Naval Escort)
    eng = at_step_2(unit("GE-XFK", AXIS, CRETE), unit("UK-MedFleet", ALLIED, strikes.COASTAL),
                    unit("UK-2Arm", ALLIED, PB + "C2331", steps=2), dice=[6, 4, 2, 2, 1, 1])
    eng.apply(Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2331"}))
    e = eng.apply(Action(kind="done", side=AXIS))
    assert any("1 hit(s)" in x and "-1 escort" in x for x in e.events)
    eng.apply(Action(kind="strike_loss", side=ALLIED, args={"unit": "UK-2Arm"}))
    assert eng.state.units["UK-MedFleet"].flags.get("in_port")


def test_19_9_2_miss_strikers_still_check_damage():
    eng = at_step_2(unit("GE-XFK", AXIS, CRETE), unit("UK-2Arm", ALLIED, PB + "C2331", steps=2), dice=[1, 2, 6, 6])
    eng.apply(Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2331"}))
    eng.apply(Action(kind="done", side=AXIS))
    st = eng.state
    assert st.units["UK-2Arm"].steps == 2 and st.units["GE-XFK"].loc == f"track:TRT:{st.gt + 2}"


def test_20_2_6_sicily_strikes_torch_east_port_boxes_not_algiers_crete_not_map_t():
    eng = at_step_2(unit("IT-2AS", AXIS, SICILY), unit("GE-XFK", AXIS, CRETE),
                    unit("US-1Arm", ALLIED, PB + "A6113", steps=2),      # Bougie: Map A from A6111 east
                    unit("US-2Arm", ALLIED, PB + "A6201", steps=2),      # Algiers: west of A6111
                    unit("UK-78", ALLIED, PB + "T6017", steps=2))        # Tunis
    assert pairs(eng) == [("IT-2AS", "A6113"), ("IT-2AS", "T6017")]
    assert "A6111 east" in fleets.port_striker_refusal(eng, "IT-2AS", "A6201")
    assert "Maps C and W" in fleets.port_striker_refusal(eng, "GE-XFK", "T6017")


def test_19_1_axis_north_africa_needs_a_cyrenaica_naval_airfield():
    eng = at_step_2(unit("GE-XFK", AXIS, air.box(AXIS, "NorthAfrica")), unit("UK-2Arm", ALLIED, PB + "C2331", steps=2))
    assert "Cyrenaica naval airfield" in fleets.port_striker_refusal(eng, "GE-XFK", "C2331")


def test_19_1_2_allied_strikes_malta_refused_north_africa_long_range():
    eng = at_step_2(unit("UK-201Group", ALLIED, air.box(ALLIED, "Malta")),
                    unit("GE-5Pz", AXIS, PB + "C2308", steps=2), first=AXIS)
    assert "Malta" in fleets.port_striker_refusal(eng, "UK-201Group", "C2308")
    assert eng.pending().kind != "port_strikes"
    eng.state.units["UK-201Group"].loc = air.box(ALLIED, "NorthAfrica")
    why = fleets.port_striker_refusal(eng, "UK-201Group", "C2308")
    from core.counters import all_counters
    if all_counters()["UK-201Group"].range == "L":
        assert why is None
    else:
        assert "Cyrenaica" in why


def test_19_9_2_refusals_leave_the_state_untouched():
    eng = at_step_2(unit("GE-XFK", AXIS, CRETE), unit("IT-2AS", AXIS, air.box(AXIS, "AvailableNext")),
                    unit("UK-2Arm", ALLIED, PB + "C2331", steps=2))
    before = eng.state.hash()
    for act, needle in [(Action(kind="port_strike", side=AXIS, args={"unit": "IT-2AS", "port": "C2331"}), "holding box"),
                        (Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2308"}), "No enemy units"),
                        (Action(kind="port_strike", side=ALLIED, args={"unit": "GE-XFK", "port": "C2331"}), "")]:
        with pytest.raises(IllegalAction) as exc:
            eng.apply(act)
        assert needle in str(exc.value)
        assert eng.state.hash() == before
    eng.apply(Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2331"}))
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2331"}))


def test_20_1_placed_at_step_1_struck_at_step_2_landed_at_step_3():
    """The port-box contract (core/rules/naval.py): placed in the port boxes at the beginning of the Movement Phase
    (VI.1), struck there (VI.2, 19.9.2 "after counters are allocated to port boxes"), then landed (VI.3)."""
    eng = engine_at_movement([unit("GE-XFK", AXIS, CRETE), unit("UK-KDG", ALLIED, "C2331"),
                              unit("UK-2Arm", ALLIED, "box:AtSea:AlliedMed", steps=2,
                                   flags={"at_sea": {"gt": 10, "lane": "AlliedMed", "to": "C2331"}})],
                             step=1, first=ALLIED)
    assert eng.pending().kind == "port_placement"
    eng.apply(Action(kind="port_place", side=ALLIED, args={"unit": "UK-2Arm", "to": PB + "C2331"}))
    d = eng.pending()
    assert d.kind == "port_strikes" and d.side == AXIS and pairs(eng) == [("GE-XFK", "C2331")]
    eng.dice = ScriptedDice([6, 1, 2, 2])                   # one hit; XFK damage 2+2+1: based
    eng.apply(Action(kind="port_strike", side=AXIS, args={"unit": "GE-XFK", "port": "C2331"}))
    eng.apply(Action(kind="done", side=AXIS))
    eng.apply(Action(kind="strike_loss", side=ALLIED, args={"unit": "UK-2Arm"}))
    while eng.pending().kind not in ("movement",):
        d = eng.pending()
        eng.apply(d.options[0].action)
    st = eng.state
    assert st.units["UK-2Arm"].steps == 1 and st.units["UK-2Arm"].loc == "C2331"
