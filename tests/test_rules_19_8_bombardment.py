"""19.8 Bombardment, flown in a friendly Movement Phase (4.1 VI.3 c), driven through the engine's actions:
1d6 per bombardment factor, 4-6 disrupts with no modifiers (Bombardment Effects Chart), the effects of 8.2.1
(base and MSU LOS, MSU MA, inoperable airfield) and the airfield's recovery (8.2.1, 8.2), any number of air
units on one target, the damage check (19.3) with the based return, the refusals and the Ghibli ban (21.2.1)."""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.engine import Engine
from core.hexgrid import Hex
from core.rules import air, air_missions, combat, strikes, supply
from core.rules.status import movement_allowance
from tests.ground_helpers import engine_at_movement, unit

NA = air.box(AXIS, "NorthAfrica")
FIELD = "C2326"          # an airfield (Y) near the Allied base at C2331


def setup(dice=None, **kw):
    units = [unit("GE-FFAfrika", AXIS, NA), unit("GE-FKII", AXIS, NA), unit("AX-Base#1", AXIS, "C0701", active=True),
             unit("AL-Base#1", ALLIED, "C2331", active=True), unit("AL-MSU#1", ALLIED, "C2020"),
             unit("AL-Dump#1", ALLIED, "C2020"), unit("UK-7RTR", ALLIED, "C1015", steps=2)]
    eng = engine_at_movement(units + kw.pop("extra", []), **kw)
    eng.state.control[FIELD] = ALLIED
    if dice is not None:
        eng.dice = ScriptedDice(dice)
    return eng


def bombard(eng, uid, target, side=AXIS):
    return eng.apply(Action(kind="air_bombard", side=side, args={"unit": uid, "target": target}))


def test_19_8_bombardment_disrupts_a_base_on_4_to_6_then_damage_check_19_3(gm):
    eng = setup(dice=[4, 2, 3])                                # 1 die (FF Afrika: 1 factor), then 2d6 = 5
    eng.state.units["AL-MSU#1"].loc = eng.state.units["AL-Dump#1"].loc = "box:NRV"   # the base alone
    before = set(supply.supply_lines(eng.state, ALLIED).los)
    bombard(eng, "GE-FFAfrika", "AL-Base#1")
    assert eng.state.units["AL-Base#1"].disrupted
    u = eng.state.units["GE-FFAfrika"]
    assert u.loc == NA and u.flags.get("based")                # undamaged: based side up in its holding box
    after = set(supply.supply_lines(eng.state, ALLIED).los)
    assert after < before                                       # 8.2.1: a disrupted base's LOS is 7 MMP, not 14
    assert Hex.parse("C2331").ring(10)[0] in before - after


def test_19_8_no_modifiers_three_misses_and_one_die_per_factor(gm):
    eng = setup(dice=[3, 3, 3, 3])                              # FK II: 2 factors -> 2 dice, both 3: no effect
    bombard(eng, "GE-FKII", "AL-MSU#1")
    assert not eng.state.units["AL-MSU#1"].disrupted
    assert eng.state.units["GE-FKII"].flags.get("based")
    eng2 = setup(dice=[1, 6, 3, 3])                             # one hit of two dice is enough
    bombard(eng2, "GE-FKII", "AL-MSU#1")
    msu = eng2.state.units["AL-MSU#1"]
    assert msu.disrupted and movement_allowance(msu) == 7        # 8.2.1: a disrupted MSU has MA 7


def test_19_8_any_number_of_air_units_may_bombard_one_target(gm):
    eng = setup(dice=[1, 2, 3, 6, 5, 3, 3])
    bombard(eng, "GE-FFAfrika", "AL-Dump#1")                    # miss (1), damage 2+3
    assert not eng.state.units["AL-Dump#1"].disrupted
    bombard(eng, "GE-FKII", "AL-Dump#1")                        # 6 and 5: disrupted, damage 3+3
    assert eng.state.units["AL-Dump#1"].disrupted


def test_19_8_damaged_bomber_goes_to_the_turn_record_track_19_3(gm):
    eng = setup(dice=[5, 5, 5])                                 # hit; 2d6 = 10: next GT
    bombard(eng, "GE-FFAfrika", "AL-Base#1")
    assert eng.state.units["GE-FFAfrika"].loc == f"track:TRT:{eng.state.gt + 1}"


def test_19_8_disrupted_airfield_is_inoperable_and_recovers_8_2_1(gm):
    eng = setup(dice=[6, 1, 1])
    assert FIELD in combat.friendly_airfields(eng.state, ALLIED)
    bombard(eng, "GE-FFAfrika", FIELD)
    assert air_missions.airfield_disrupted(eng, FIELD)
    assert FIELD not in combat.friendly_airfields(eng.state, ALLIED)          # no 19.5 airfield benefit
    assert not strikes._airfield_friendly(eng, FIELD, ALLIED)                  # 19.1.3 Important
    # 8.2 / 8.2.1: it recovers at the end of its owner's (Allied) Movement Phase, in his LOS, not in an EZOC
    for _ in range(300):
        d = eng.pending()
        if eng.state.phase == 9 and d.kind == "movement":
            break
        eng.apply(next((o for o in d.options if o.action.kind == "done"), d.options[0]).action)
    assert air_missions.airfield_disrupted(eng, FIELD)
    eng.dice = ScriptedDice([])
    eng.apply(Action(kind="done", side=ALLIED))
    assert not air_missions.airfield_disrupted(eng, FIELD)
    assert FIELD in combat.friendly_airfields(eng.state, ALLIED)


@pytest.mark.parametrize("uid,target,rule", [
    ("GE-FFAfrika", "AX-Base#1", "19.8"),          # a friendly base
    ("GE-FFAfrika", "UK-7RTR", "19.8"),            # a combat unit is no bombardment target
    ("GE-FFAfrika", "C1012", "19.8; 19.1.3"),      # no airfield there
    ("GE-FFAfrika", "C0907", "19.8; 19.1.3"),      # an airfield, but not enemy friendly
    ("UK-212Group", "AL-Base#1", "19.8"),          # not an Axis air unit
])
def test_19_8_refusals_cite_the_rule_and_leave_the_state_untouched(gm, uid, target, rule):
    eng = setup(extra=[unit("UK-212Group", ALLIED, air.box(ALLIED, "NorthAfrica"))])
    eng.state.control["C0907"] = AXIS
    h = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        bombard(eng, uid, target)
    assert exc.value.rule == rule
    assert eng.hash() == h


def test_19_8_needs_a_bombardment_rating_non_based_and_the_area_of_operations_19_1(gm):
    eng = engine_at_movement([unit("UK-212Group", ALLIED, air.box(ALLIED, "NorthAfrica")),
                              unit("UK-202Group", ALLIED, air.box(ALLIED, "NorthAfrica"), flags={"based": True}),
                              unit("AL-Base#1", ALLIED, "C2331", active=True), unit("AX-Base#1", AXIS, "C0701")],
                             phase=9)
    with pytest.raises(IllegalAction, match="no bombardment rating") as exc:
        bombard(eng, "UK-212Group", "AX-Base#1", side=ALLIED)
    assert exc.value.rule == "19.8"
    with pytest.raises(IllegalAction, match="based") as exc:
        bombard(eng, "UK-202Group", "AX-Base#1", side=ALLIED)
    assert exc.value.rule == "19.8; 19.1"
    eng = setup(extra=[unit("IT-2AS", AXIS, air.box(AXIS, "Crete")), unit("AL-Base#2", ALLIED, "L2817", active=True)])
    with pytest.raises(IllegalAction) as exc:                  # Crete: Maps C and W only (19.1.1)
        bombard(eng, "IT-2AS", "AL-Base#2")
    assert exc.value.rule == "19.8; 19.1"


def test_19_8_ghibli_bans_bombardment_21_2_1(gm):
    gm.set_hex("C2331", "desert")                             # 21.2: Ghiblis affect desert and rough hexes
    eng = setup()
    eng.state.gt = 12
    eng.state.ghibli = True
    eng.state.vars["weather_rules"] = True                   # the optional weather rules (21.0) in use
    h = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        bombard(eng, "GE-FFAfrika", "AL-Base#1")
    assert exc.value.rule == "21.2.1" and eng.hash() == h


def test_19_8_sampled_options_are_accepted(gm):
    eng = setup()
    opts = [o for o in eng.pending().options if o.action.kind == "air_bombard"]
    assert 1 <= len(opts) <= 2
    for o in opts:
        Engine(copy.deepcopy(eng.state)).apply(o.action)
    assert set(eng.query("bombard_targets", side=AXIS, unit="GE-FFAfrika")) >= {"AL-Base#1", "AL-MSU#1", FIELD}


def test_19_1_3_a_disrupted_airfield_cannot_be_used_for_air_landing(gm):
    eng = engine_at_movement([unit("GE-125", AXIS, "box:Sicily", steps=2), unit("GE-Kasta", AXIS, "C0907")],
                             vars={"atp": {"Axis": 1}, "airfields_disrupted": {"C0907": {"gt": 10, "rule": "19.8"}}})
    h = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="air_land", side=AXIS, args={"units": ["GE-125"], "to": "C0907"}))
    assert exc.value.rule == "19.1.3 Important" and eng.hash() == h
    eng.state.vars["airfields_disrupted"] = {}
    eng = Engine(eng.state)
    eng.apply(Action(kind="air_land", side=AXIS, args={"units": ["GE-125"], "to": "C0907"}))
    assert eng.state.units["GE-125"].loc == "C0907"
