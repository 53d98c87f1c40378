"""22.0 off-map areas and 22.2 MET tracks: MET combat dice (WE-14), deactivation, NRV capacity (22.1), Malta (22.4),
Crete (22.3), FNA (22.7), the I.4 roll decision."""

from __future__ import annotations

from core.decisions import ALLIED, Action
from core.dice import ScriptedDice
from core.rules import met, offmap
from tests.test_events_cards import make, put


def test_we14_met_combat_dice_armour_doubled_air_dice():
    eng = make("desert-war")
    box = met.track_box("AOI")
    for u in list(eng.state.units.values()):
        if u.loc == box:
            u.loc = offmap.NRV
    put(eng, "UK-7RTR", box)              # armour: CF doubled (22.2.2 a)
    put(eng, "IN-5IndBG", box)
    from core.counters import all_counters
    cf = all_counters()["UK-7RTR"].cf * 2 + all_counters()["IN-5IndBG"].cf
    import math
    assert met.met_combat_dice(eng, "AOI") == math.ceil(cf / 10)
    put(eng, "UK-202Group", box)
    c = all_counters()["UK-202Group"]
    assert met.met_combat_dice(eng, "AOI") == math.ceil(cf / 10) + c.gs + c.bomb


def test_met_combat_reduces_and_deactivates_from_zero_box():
    eng = make("desert-war", dice=ScriptedDice([6, 6, 6, 6]))
    eng.state.gt = 10                       # ALC-4: AOI deactivates on GT 10 or later
    put(eng, "UK-7RTR", met.track_box("AOI"))
    eng.state.vars["met"]["AOI"]["box"] = 0
    met.met_combat(eng, "AOI")
    assert not eng.state.vars["met"]["AOI"]["active"] and eng.state.units["UK-7RTR"].loc == offmap.NRV


def test_levant_never_deactivated():
    eng = make("desert-war", dice=ScriptedDice([6] * 4))
    put(eng, "UK-7RTR", met.track_box("Levant"))
    met.met_combat(eng, "Levant")
    assert eng.state.vars["met"]["Levant"]["active"]


def test_i4_met_roll_decision_is_allied():
    eng = make("desert-war", dice=ScriptedDice([1] * 10))
    from core.state import Frame
    d = met.MetRolls().decide(eng, Frame(proc="met_rolls", data={}))
    assert d.side == ALLIED and d.options[0].action.kind == "roll_met"
    fr = Frame(proc="met_rolls", data={})
    met.MetRolls().apply(eng, fr, Action(kind="roll_met", side=ALLIED))
    assert fr.data["done"]


def test_mets_not_used_in_short_scenarios_24_0_c():
    eng = make("fox-killed")
    met.activate_track(eng, "Levant", "test")
    assert not met.track(eng, "Levant")


def test_offmap_areas_22():
    eng = make("desert-war")
    assert offmap.nrv_port_capacity(eng) == 8 and offmap.malta_allied(eng)
    assert not offmap.crete_in_play(eng) and not offmap.fna_in_play(eng)
    assert offmap.canon_box("box:Nile River Valley") == offmap.NRV
