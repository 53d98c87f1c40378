"""19.0 Air operations: deployment (19.1), air superiority (19.2, WE-15), damage (19.3, WE-12), bombardment (19.8),
naval strikes (19.9.1), the XVII flip, the Ghibli ban (21.2.1)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, IllegalAction
from core.dice import ScriptedDice
from core.rules import air
from tests.test_events_cards import make, put


def test_we15_air_superiority_box_counts_double_19_2():
    eng = make("sonnenblume")
    for u in list(eng.state.units.values()):
        if air.is_air(u.id):
            del eng.state.units[u.id]
    put(eng, "GE-FFAfrika", air.box(AXIS, "NorthAfrica"))
    put(eng, "IT-Libya", air.box(AXIS, "Superiority"))
    put(eng, "UK-202Group", air.box(ALLIED, "AvailableNext"))      # not counted
    air.air_superiority(eng)
    assert eng.state.air_superiority == AXIS and eng.state.air_superiority_margin == 3
    from core.rules.initiative import initiative_drms
    assert (3, "Axis air superiority by 3 (19.2)") in initiative_drms(eng, ALLIED)


def test_we16_initiative_drms_kasta_air_ultra():
    eng = make("sonnenblume")
    for u in list(eng.state.units.values()):
        if air.is_air(u.id) or u.id == "UK-WDF":
            del eng.state.units[u.id]
    put(eng, "GE-Kasta", "C0702")
    eng.state.air_superiority, eng.state.air_superiority_margin = AXIS, 3
    eng.state.vars["ultra"] = {"gt": eng.state.gt, "benefit": "initiative", "die": 6}
    from core.rules.initiative import initiative_drms
    assert sum(d for d, _ in initiative_drms(eng, ALLIED)) == 2     # +2 Kasta, +3 air, -3 Ultra = +2 (WE-16)


def test_we12_mission_damage_return_turn_19_3():
    eng = make("sonnenblume", dice=ScriptedDice([6, 5, 5, 4, 3, 3]))
    put(eng, "GE-StGI", air.box(AXIS, "NorthAfrica"))
    eng.state.gt = 10
    assert air.mission_damage(eng, "GE-StGI") == "trt+2" and eng.state.units["GE-StGI"].loc == "track:TRT:12"
    put(eng, "GE-FKII", air.box(AXIS, "NorthAfrica"))
    assert air.mission_damage(eng, "GE-FKII") == "trt+1"
    put(eng, "IT-2AS", air.box(AXIS, "NorthAfrica"))
    assert air.mission_damage(eng, "IT-2AS") == "based" and eng.state.units["IT-2AS"].flags["based"]
    air.flip_based(eng)
    assert not eng.state.units["IT-2AS"].flags.get("based")      # 4.1 XVII Important


def test_air_deploy_procedure_refuses_german_in_north_africa_before_afrikakorps_19_1_1():
    eng = make("desert-war")
    put(eng, "GE-StGI", air.box(AXIS, "AvailableNext"))
    assert air.box(AXIS, "NorthAfrica") not in air.legal_boxes(eng, "GE-StGI")
    eng.state.cards["AXC-10"].update(status="in_play", played_gt=1)
    assert air.box(AXIS, "NorthAfrica") in air.legal_boxes(eng, "GE-StGI")


def test_malta_refuses_long_range_19_1_2():
    eng = make("desert-war")
    put(eng, "UK-205Group", air.box(ALLIED, "AvailableNext"))
    from core.counters import all_counters
    if all_counters()["UK-205Group"].range == "L":
        assert air.box(ALLIED, "Malta") not in air.legal_boxes(eng, "UK-205Group")


def test_bombardment_19_8_and_ghibli_ban_21_2_1():
    eng = make("sonnenblume", dice=ScriptedDice([4, 4]))
    put(eng, "GE-StGI", air.box(AXIS, "NorthAfrica"))
    put(eng, "UK-7RTR", "W2118")
    air.bombard(eng, "GE-StGI", "UK-7RTR")
    assert eng.state.units["UK-7RTR"].disrupted
    eng.state.gt = 12    # May 1941
    eng.state.ghibli = True
    with pytest.raises(IllegalAction, match="21.2.1"):
        air.bombard(eng, "GE-StGI", "UK-7RTR")


def test_naval_strike_19_9_1_mods_and_n_rating():
    eng = make("desert-war", dice=ScriptedDice([4, 4, 4, 4]))
    hits = air.naval_strike(eng, ["GE-FKII"], port=True)
    assert hits >= 1     # 4 + 1 (port box) = 5: a hit
    with pytest.raises(IllegalAction, match="19.9"):
        air.naval_strike(eng, ["GE-FFAfrika"])
