"""15.6 Headquarters and 15.7 Engineers, sentence by sentence (issue 15 re-audit).  The HQ sentences are played
from the Sonnenblume set-up (26.0: the Kasta HQ with 5 Pz in C0702, KDG in C0603) through ``Engine.apply``; no
scenario has an engineer on the map before several GTs of shipping, so the 15.7 fort sentences start from a
hand-built Movement Phase.

15.6 — each sentence and its test:

* "adds the following capabilities to all units stacked with it" / "The HQ must be stacked with units during the
  entire Movement or Reaction Phase to impart movement capabilities": the units that move with the HQ get them,
  a unit that leaves without it does not (every movement test below has both cases).
* "Treat any motorized unit as mobile": ``test_14_9_2_only_mobile_units_take_a_mobile_marker_the_kasta_makes_
  motorised_units_mobile`` (14_9 battle markers) and here.
* "Add two MP to the RMA during any reaction movement": ``test_15_6_hq_adds_two_mp_to_the_rma_in_reaction``;
  "This also applies when determining enemy reaction capability during overrun (13.4.3)":
  ``test_15_6_overrun_with_the_hq_pays_no_overrun_mp_and_leaves_no_slower_reactor``.
* "Do not make a morale check after a reaction move": ``test_15_6_no_morale_check_after_reacting_with_the_hq``.
* "Do not pay the MP cost to enter EZOC": ``test_15_6_hq_waives_the_ezoc_cost_for_the_units_moving_with_it``.
* "Do not pay the MP cost to conduct an overrun": ``test_15_6_overrun_with_the_hq_pays_no_overrun_mp...``.
* "Do not make a morale check after using emergency supply (12.7)": ``test_15_6_no_morale_check_when_emergency_
  supply_ends_with_an_hq``.
* "Subtract one from supply capture die rolls (12.2.7)": ``tests/test_rules_12_supply.py::test_12_2_7_capture_
  with_hq_modifier``.
* "The GE Kasta and CW WDF HQ are the only HQ that affect initiative DRs": ``test_15_6_only_kasta_and_wdf_
  affect_initiative``.
"""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.engine import Engine
from core.newgame import initial_state
from core.rules import construction, special_units, supply
from core.scenario import load
from tests.ground_helpers import engine_at_movement, play_until, unit


until = play_until


def sonnenblume() -> Engine:
    eng = Engine(initial_state(load("sonnenblume"), 1))
    until(eng, "movement")
    return eng


def move(eng: Engine, units: list[str], path: list[str], side: str = AXIS):
    return eng.apply(Action(kind="move", side=side, args={"units": units, "path": path}))


def moved(eng: Engine, uid: str) -> int:
    return eng.state.stack[-1].data["moved"][uid]


# --------------------------------------------------------------------------- 15.6 in the Movement Phase


def test_15_6_hq_waives_the_ezoc_cost_for_the_units_moving_with_it():
    with_hq, alone = sonnenblume(), sonnenblume()
    move(with_hq, ["GE-5Pz", "GE-Kasta"], ["C0602"])               # C0602 is in KDG's ZOC
    move(alone, ["GE-5Pz"], ["C0602"])
    assert moved(alone, "GE-5Pz") == moved(with_hq, "GE-5Pz") + 8   # 11.4 a): 1 MP to enter the EZOC


def test_15_6_overrun_with_the_hq_pays_no_overrun_mp_and_leaves_no_slower_reactor():
    with_hq, alone = sonnenblume(), sonnenblume()
    move(with_hq, ["GE-5Pz", "GE-Kasta"], ["C0602", "C0603"])
    move(alone, ["GE-5Pz"], ["C0602", "C0603"])
    ov_hq = next(f.data["overrun"] for f in with_hq.state.stack if f.proc == "movement")
    ov = next(f.data["overrun"] for f in alone.state.stack if f.proc == "movement")
    assert ov_hq["extra"] == 0 and ov["extra"] == 16                # 13.4: 2 MP, none with an HQ (15.6)
    # 13.4.3 with 6.2 (G-OVERRUN-REACT): KDG, surprised, rolls 1d6 for its RMA and a 6 is not greater than 5 Pz's
    # RMA 6 (Example of Play: "a maximum RMA of 6 (1d6)"): no reaction and no roll, with or without the Kasta (8)
    assert alone.pending().kind != "overrun_reaction" and with_hq.pending().kind != "overrun_reaction"
    assert not any("RMA under surprise" in e for g in (alone, with_hq) for e in g.log[-1].events)


# --------------------------------------------------------------------------- 15.6 in the Reaction Phase


def axis_reaction() -> Engine:
    """Sonnenblume: 5 Pz and the Kasta move to C0602 in XII (next to KDG); the Axis Reaction Phase XVI."""
    eng = sonnenblume()
    move(eng, ["GE-5Pz", "GE-Kasta"], ["C0602"])
    until(eng, "reaction", 16)
    assert not eng.state.units["GE-5Pz"].disrupted
    return eng


# 7 MP: KDG is OGS from XV.1 (4.1 XV) and exerts no ZOC (11.1), so leaving C0602 costs no recon +2 (15.3)
REACT_7MP = ["C0502", "C0503", "C0402", "C0403"]       # on Map C: Sonnenblume plays on C and W (R-MAPS-IN-PLAY)


def test_15_6_hq_adds_two_mp_to_the_rma_in_reaction():
    eng = axis_reaction()
    alone = Engine(copy.deepcopy(eng.state))
    with pytest.raises(IllegalAction, match="needs 7 MP") as e:    # RMA 6: limit + 1
        move(alone, ["GE-5Pz"], REACT_7MP)
    assert e.value.rule == "13.2"
    move(eng, ["GE-5Pz", "GE-Kasta"], REACT_7MP)                    # RMA 6 + 2 with the HQ moving along
    assert eng.state.units["GE-5Pz"].loc == "C0403"


def test_15_6_no_morale_check_after_reacting_with_the_hq():
    eng = axis_reaction()
    alone = Engine(copy.deepcopy(eng.state))
    events = move(eng, ["GE-5Pz", "GE-Kasta"], ["C0702"]).events
    assert not [e for e in events if "orale check" in e]
    events = move(alone, ["GE-5Pz"], ["C0702"]).events
    assert [e for e in events if "orale check" in e and "5 Pz" in e]  # 13.5: without the HQ it checks


# --------------------------------------------------------------------------- 15.6 supply and initiative


def test_15_6_no_morale_check_when_emergency_supply_ends_with_an_hq(gm):
    """12.7 with 15.6: at the next friendly VI.1 the marker goes; a unit stacked with an HQ makes no check."""
    from core.dice import ScriptedDice

    units = [unit("GE-5Pz", AXIS, "C1010", steps=2, emergency=True, flags={"emergency_gt_phase": [9, 6]}),
             unit("GE-Kasta", AXIS, "C1010"),
             unit("IT-132Ariete", AXIS, "C1020", steps=2, emergency=True, flags={"emergency_gt_phase": [9, 6]})]
    eng = Engine(engine_at_movement(units).state, ScriptedDice([6, 6, 6]))
    supply._emergency_expiry(eng, AXIS)
    assert not eng.state.units["GE-5Pz"].emergency and not eng.state.units["IT-132Ariete"].emergency
    assert not eng.state.units["GE-5Pz"].disrupted                   # no check with the Kasta
    assert eng.state.units["IT-132Ariete"].disrupted                 # a 6 fails (8.1)


def test_15_6_only_kasta_and_wdf_affect_initiative():
    from core.counters import all_counters
    from core.rules import initiative_drms

    assert {c.id for c in all_counters().values() if c.hq} == {"GE-Kasta", "UK-WDF", "UK-Eighth"}
    eng = sonnenblume()                                               # the Kasta is on the map
    assert [v for v, _why in initiative_drms.hq_drm(eng, AXIS)] == [-2]
    assert [v for v, _why in initiative_drms.hq_drm(eng, ALLIED)] == [2]
    eighth = engine_at_movement([unit("UK-Eighth", ALLIED, "W2118"), unit("UK-WDF", ALLIED, "box:Refit:Allied")])
    assert initiative_drms.hq_drm(eighth, ALLIED) == [] and initiative_drms.hq_drm(eighth, AXIS) == []


# --------------------------------------------------------------------------- 15.7 engineers


def _fort_engine(extra, moved_in=()):
    units = [unit("GE-3Aufkl", AXIS, "C1010"), unit("AX-Dump#1", AXIS, "C1010")] + extra
    return engine_at_movement(units)


def _build(eng, level=1):
    eng.apply(Action(kind="build_fort", side=AXIS, args={"unit": "GE-3Aufkl", "level": level, "dump": "AX-Dump#1"}))


def _finish_phase(eng):
    until(eng, "reaction")


def test_15_7_engineer_that_starts_the_phase_with_the_builder_completes_an_f1_in_one_movement_phase(gm):
    eng = _fort_engine([unit("GE-Hecker", AXIS, "C1010")])
    _build(eng)
    assert construction.fort_at(eng, "C1010")["engineer"] is True
    _finish_phase(eng)
    assert construction.fort_level(eng, "C1010") == 1


def test_15_7_without_an_engineer_the_fort_waits_for_the_next_movement_phase(gm):
    eng = _fort_engine([])
    _build(eng)
    _finish_phase(eng)
    assert construction.fort_level(eng, "C1010") == -1 and construction.fort_at(eng, "C1010")["building"]


def test_15_7_an_engineer_that_moved_in_did_not_start_the_phase_with_the_builder(gm):
    eng = _fort_engine([unit("GE-Hecker", AXIS, "C1012")])
    move(eng, ["GE-Hecker"], ["C1011", "C1010"])
    _build(eng)
    assert construction.fort_at(eng, "C1010")["engineer"] is False
    _finish_phase(eng)
    assert construction.fort_level(eng, "C1010") == -1


@pytest.mark.parametrize("upgrade", ["UK-F", "UK-G"])
def test_15_7_upgrade_counters_f_and_g_do_not_shorten_fort_building_but_lower_the_line(upgrade):
    from core.counters import all_counters

    assert all_counters()[upgrade].engineer                            # they carry the E (attacks, 15.7)
    assert not special_units.fort_engineer(upgrade)
    assert special_units.fort_engineer("GE-Hecker") and special_units.fort_engineer("IT-31Gaust")


@pytest.mark.parametrize("helper, shortens", [("UK-F", False), ("UK-G", False)])
def test_15_7_important_f_and_g_in_the_hex_do_not_shorten_the_fort(gm, helper, shortens):
    eng = engine_at_movement([unit("UK-69", ALLIED, "C1010"), unit("AL-Dump#1", ALLIED, "C1010"),
                              unit(helper, ALLIED, "C1010")], first=ALLIED)
    eng.apply(Action(kind="build_fort", side=ALLIED, args={"unit": "UK-69", "level": 1, "dump": "AL-Dump#1"}))
    assert construction.fort_at(eng, "C1010")["engineer"] is shortens
    until(eng, "reaction")
    assert construction.fort_level(eng, "C1010") == -1


# --------------------------------------------------------------------------- 15.7 engineers: play path
def _desert_fox_gt12_builders(with_engineer: bool):
    """Desert Fox: 31 Gaust (an engineer, 27.1's GT 12 arrivals at C0701, arriving there in that Movement Phase) and 27 Brescia leave
    the crowded El Agheila for C0703 in the first Axis Movement Phase of GT 12 (without the engineer, Brescia alone);
    at the next Axis Movement Phase they start there, undisrupted and in general supply (passing play, ``Engine.apply``
    only)."""
    from tests.playpath import Play

    script: dict = {}
    p = Play("desert-fox", seed=1)
    p.to("movement", side=AXIS, gt=12, script=script)
    p.act("arrive", side=AXIS, unit="IT-31Gaust", to="C0701")       # 27.1 "during any friendly Movement Phase"
    assert p.state.units["IT-31Gaust"].loc == "C0701"
    first = p.state.phase
    p.act("move", side=AXIS, units=["IT-27Brescia"] + (["IT-31Gaust"] if with_engineer else []), path=["C0702", "C0703"])
    p.run(lambda e: e.pending() is not None and e.pending().kind == "movement" and e.pending().side == AXIS
          and e.state.phase != first, script=script)
    assert not p.state.units["IT-27Brescia"].disrupted and not p.state.units["IT-27Brescia"].ogs
    return p


@pytest.mark.parametrize("with_engineer", [True, False])
def test_15_7_engineer_shortens_the_fort_play_path(with_engineer):
    """15.7 "If an engineer starts the Movement Phase with a unit building a Level 1 or higher fort, the time needed
    to construct the fort is reduced to one Movement Phase": with 31 Gaust in the hex the F1 that 27 Brescia begins
    (a dump of El Agheila expended, 18.1) is complete when the Movement Phase ends; without it, it is still under
    construction then (18.1: complete "at the beginning of the next friendly Movement Phase")."""
    p = _desert_fox_gt12_builders(with_engineer)
    p.act("build_fort", side=AXIS, unit="IT-27Brescia", level=1, dump="AX-Dump#1")
    assert construction.fort_at(p.eng, "C0703")["engineer"] is with_engineer
    p.to("reaction")
    if with_engineer:
        assert construction.fort_level(p.eng, "C0703") == 1 and not construction.fort_at(p.eng, "C0703")["building"]
    else:
        assert construction.fort_level(p.eng, "C0703") == -1 and construction.fort_at(p.eng, "C0703")["building"]
