"""14.9.1 deliberate battle, 14.9.2 mobile battle, 14.9.3 exploitation, played from the Sonnenblume set-up (26.0,
GT 10 phase XII, the Axis moves) through ``Engine.apply`` only: the battle marker is a Movement-Phase order
(``battle_marker``) for a unit that spent no more than its RMA ("Attacking units are limited to their RMA in the
preceding Movement Phase. Mark them ... when their movement is completed"); the Combat Phase then offers the
special form with the marked units, and a mobile battle that vacates the hex is followed by exploitation."""

from __future__ import annotations

import pytest

from core.counters import all_counters
from core.decisions import AXIS, Action, IllegalAction
from core.engine import Engine
from core.newgame import initial_state
from core.rules import combat_forms, status
from core.scenario import load
from tests.ground_helpers import play_until

MARK = combat_forms.BATTLE_KIND


def sonnenblume(seed: int = 1) -> Engine:
    """Sonnenblume at the Axis Movement Phase (XII.3): 5 Pz with the Kasta HQ in C0702, the Italians in C0701,
    KDG in C0603 and 2 SG in C0803 (26.1, 26.2)."""
    eng = Engine(initial_state(load("sonnenblume"), seed))
    until(eng, "movement")
    return eng


until = play_until


def move(eng: Engine, units: list[str], path: list[str]):
    return eng.apply(Action(kind="move", side=AXIS, args={"units": units, "path": path}))


def mark(eng: Engine, units: list[str], form: str):
    return eng.apply(Action(kind=MARK, side=AXIS, args={"units": units, "form": form}))


def test_14_9_2_mobile_battle_marker_is_offered_in_the_movement_phase_and_declared_in_combat():
    eng = sonnenblume()
    move(eng, ["GE-5Pz", "GE-Kasta"], ["C0602"])                  # next to KDG in C0603
    d = eng.pending()
    offered = [o.action for o in d.options if o.action.kind == MARK]
    assert Action(kind=MARK, side=AXIS, args={"units": ["GE-5Pz"], "form": "mobile"}) in offered
    assert MARK in d.free_kinds
    mark(eng, ["GE-5Pz"], "mobile")
    assert eng.state.units["GE-5Pz"].flags["battle"] == "mobile"
    d = until(eng, "combat_declare", 14)
    mobile = [o.action for o in d.options if o.action.args.get("form") == "mobile"]
    assert mobile == [Action(kind="declare", side=AXIS, args={"attackers": ["GE-5Pz"], "hexes": ["C0603"], "form": "mobile"})]
    with pytest.raises(IllegalAction, match="marker") as e:       # the unmarked Kasta may not join it
        eng.apply(Action(kind="declare", side=AXIS,
                         args={"attackers": ["GE-5Pz", "GE-Kasta"], "hexes": ["C0603"], "form": "mobile"}))
    assert e.value.rule == "14.9.2"


def test_14_9_2_without_a_marker_no_mobile_battle_is_offered():
    eng = sonnenblume()
    move(eng, ["GE-5Pz", "GE-Kasta"], ["C0602"])
    d = until(eng, "combat_declare", 14)
    assert [o for o in d.options if o.action.kind == "declare"]
    assert not [o for o in d.options if o.action.args.get("form") in ("mobile", "deliberate")]


def test_14_9_1_marker_at_exactly_the_rma_is_accepted_one_mp_more_is_refused():
    """3 Aufkl (mechanised, MA 28, RMA 7): 7 MP, then 8, back and forth on the coast road between El Agheila (C0701)
    and C0702, 1 MP a road hex for a mechanised unit (13.3) -- the KDG and 2 SG ZOC close the other ways out."""
    eng = sonnenblume()
    uid = "GE-3Aufkl"
    rma = status.rma(eng.state.units[uid])
    assert rma == 7
    road = ["C0701", "C0702"] * 3 + ["C0701"]
    move(eng, [uid], road)                                         # 7 MP = its RMA
    assert eng.pending().context["moved"][uid] == rma * 8
    mark(eng, [uid], "deliberate")
    assert eng.state.units[uid].flags["battle"] == "deliberate"
    eng = sonnenblume()
    move(eng, [uid], road + ["C0702"])                             # 8 MP = RMA + 1
    assert eng.pending().context["moved"][uid] == (rma + 1) * 8
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="RMA") as e:
        mark(eng, [uid], "deliberate")
    assert e.value.rule == "14.9.1" and eng.state.hash() == before
    with pytest.raises(IllegalAction, match="RMA") as e:
        mark(eng, [uid], "mobile")
    assert e.value.rule == "14.9.2"


def test_14_9_1_a_foot_unit_is_limited_to_its_one_hex_rma():
    """13.2.1: "Non-motorized units are limited to moving a maximum of one hex": one hex, then two."""
    eng = sonnenblume()
    assert not status.is_motorized(eng.state.units["IT-27Brescia"])
    move(eng, ["IT-27Brescia"], ["C0702"])
    mark(eng, ["IT-27Brescia"], "deliberate")
    eng = sonnenblume()
    move(eng, ["IT-27Brescia"], ["C0702", "C0703"])
    with pytest.raises(IllegalAction, match="one hex") as e:
        mark(eng, ["IT-27Brescia"], "deliberate")
    assert e.value.rule == "14.9.1"


def test_14_9_2_only_mobile_units_take_a_mobile_marker_the_kasta_makes_motorised_units_mobile():
    eng = sonnenblume()
    with pytest.raises(IllegalAction, match="not mobile") as e:
        mark(eng, ["IT-8Ber"], "mobile")                          # trucked, not mobile, no HQ in C0701
    assert e.value.rule == "14.9.2"
    flak = eng.state.units["GE-I18FLK"]
    assert status.is_motorized(flak) and not all_counters()["GE-I18FLK"].mobile
    mark(eng, ["GE-I18FLK"], "mobile")                            # 15.6: stacked with the Kasta HQ
    eng = sonnenblume()
    move(eng, ["GE-Kasta"], ["C0602"])                            # the HQ leaves: I/18 Flak is not mobile
    with pytest.raises(IllegalAction, match="not mobile"):
        mark(eng, ["GE-I18FLK"], "mobile")


def test_14_9_1_a_marked_unit_has_completed_its_movement():
    eng = sonnenblume()
    mark(eng, ["GE-5Pz"], "mobile")
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="battle marker") as e:
        move(eng, ["GE-5Pz"], ["C0602"])
    assert "14.9.1" in e.value.rule and eng.state.hash() == before
    with pytest.raises(IllegalAction, match="already"):
        mark(eng, ["GE-5Pz"], "deliberate")


def test_14_9_1_deliberate_battle_declared_with_the_marked_units():
    eng = sonnenblume()
    move(eng, ["IT-132Ariete"], ["C0702", "C0703"])
    mark(eng, ["IT-132Ariete"], "deliberate")
    d = until(eng, "combat_declare", 14)
    deliberate = [o.action for o in d.options if o.action.args.get("form") == "deliberate"]
    assert {a.args["hexes"][0] for a in deliberate} == {"C0603", "C0803"}
    assert all(a.args["attackers"] == ["IT-132Ariete"] for a in deliberate)
    with pytest.raises(IllegalAction, match="one hex") as e:
        eng.apply(Action(kind="declare", side=AXIS, args={"attackers": ["IT-132Ariete"], "hexes": ["C0603", "C0803"],
                                                          "form": "deliberate"}))
    assert e.value.rule == "14.9.1"


def test_14_9_markers_are_removed_at_the_end_of_the_combat_phase():
    eng = sonnenblume()
    mark(eng, ["GE-5Pz"], "mobile")
    until(eng, "combat_declare", 14)
    assert eng.state.units["GE-5Pz"].flags.get("battle") == "mobile"
    until(eng, "movement", 15)                                     # XIV ended with no attack
    assert not [u.id for u in eng.state.units.values() if "battle" in u.flags]


def test_14_9_3_exploitation_follows_a_mobile_battle_that_vacates_the_hex():
    eng = sonnenblume(seed=1)
    move(eng, ["GE-5Pz", "GE-Kasta"], ["C0602"])
    mark(eng, ["GE-5Pz"], "mobile")
    d = until(eng, "combat_declare", 14)
    eng.apply(next(o.action for o in d.options if o.action.args.get("form") == "mobile"))
    for _ in range(40):
        d = eng.pending()
        if d.kind == "combat_exploit":
            break
        assert eng.state.phase == 14, "the mobile battle ended without exploitation"
        eng.apply(next((o.action for o in d.options if o.action.kind in ("done", "resolve")), d.options[0].action))
    assert eng.state.units["GE-5Pz"].loc == "C0603"                 # advanced into the vacated hex (14.8)
    assert not [u for u in eng.state.units_at("C0603") if u.side != AXIS]
    rma = combat_forms.exploit_rma(eng.state, "GE-5Pz")
    spent = 0
    while eng.pending().kind == "combat_exploit":
        steps = [o.action for o in eng.pending().options if o.action.kind != "done"]
        if not steps:
            break
        eng.apply(steps[0])
        spent += 1
    assert 1 <= spent <= rma                                          # each hex costs at least 1 MP, within the RMA
    assert eng.state.units["GE-5Pz"].loc != "C0603"
