"""Play-path tests (issue 16) for Movement-Phase actions random play reaches rarely or never: from the real
Sonnenblume set-up, passing to the first Axis Movement Phase and acting only through ``Engine.apply``.

12.7 emergency supply, 12.2.3 creating a base and transferring a dump, 18.1 beginning an F0 fort, each with a
refusal."""

from __future__ import annotations

from core.decisions import AXIS
from tests.playpath import Play


def _axis_movement() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    return p


def test_12_7_emergency_supply_at_the_start_of_the_movement_phase_and_not_after_a_move():
    p = _axis_movement()
    n = len(p.eng.log)
    p.act("emergency_supply", unit="IT-27Brescia", dump="AX-Dump#2")
    u = p.state.units["IT-27Brescia"]
    dump = p.state.units.get("AX-Dump#2")
    assert u.emergency and not u.ogs and (dump is None or dump.loc != "C0701")       # the dump is expended
    assert any("emergency supply" in e for e in p.events(since=n))
    later = _axis_movement()
    later.act("move", units=["GE-3Aufkl"])
    exc = later.refuse("emergency_supply", unit="IT-27Brescia", dump="AX-Dump#2")
    assert exc.rule.startswith("12.7")


def test_12_2_3_a_base_from_an_msu_and_a_dump_in_one_hex_and_not_from_an_msu_alone():
    p = _axis_movement()
    assert p.refuse("create_base", hex="C0702").rule == "12.2.3"          # no MSU and dump in C0702 yet
    p.act("move", units=["AX-MSU#1", "AX-Dump#1"], path=["C0702"])
    p.act("create_base", hex="C0702")
    here = {u.id for u in p.state.units_at("C0702")}
    assert "AX-MSU#1" not in here and "AX-Dump#1" not in here
    assert any(uid.startswith("AX-Base") for uid in here)


def test_18_1_an_unmoved_unit_begins_an_f0_fort_but_not_one_that_moved():
    p = _axis_movement()
    p.act("move", units=["GE-3Aufkl"])
    assert p.refuse("build_fort", unit="GE-3Aufkl", level=0).rule == "18.1"
    assert p.refuse("build_fort", unit="GE-5Pz", level=1).rule == "18.1"       # F1 expends a dump: none named
    p.act("build_fort", unit="GE-5Pz", level=0)
    assert p.state.vars["forts"]["C0702"]["building"] == "GE-5Pz"
    assert p.refuse("move", units=["GE-5Pz"], path=["C0703"]).rule in ("13.1", "18.1")


def test_12_2_3_a_base_transfers_one_dump_to_another_base_once_a_movement_phase():
    p = _axis_movement()
    p.act("move", units=["AX-MSU#1", "AX-Dump#1"], path=["C0702"])
    p.act("create_base", hex="C0702")
    new = next(u.id for u in p.state.units_at("C0702") if u.id.startswith("AX-Base"))
    p.act("transfer", **{"from": "AX-Base#1", "to": new, "units": ["AX-Dump#2"]})
    assert p.state.units["AX-Dump#2"].loc == "C0702"
    exc = p.refuse("transfer", **{"from": "AX-Base#1", "to": new, "units": ["AX-Dump#2"]})
    assert exc.rule.startswith("12.2.3")
