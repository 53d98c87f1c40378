"""16.1: the CW (Free French) Chad unit, if forced to retreat, pulls back off the map (to the NRV box, ruling
R-C-CHAD); from there it may re-enter only at Kufra (the ground rules, ``test_16_1_chad_enters_only_at_kufra``)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import raiders, tec
from tests.rules_combat_kit import act, all_events, desert_map, make_state, start
from tests.test_rules_14_7_2_retreated_into import settle_defaults


def raider_rules() -> dict:
    """The game's options with the optional desert raider rules chosen (16.0): the 16.1 capabilities apply only then
    (R-RAID-OFF)."""
    return {"optional": {"desert_raiders": True}}


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def test_16_1_chad_forced_to_retreat_pulls_back_off_the_map():
    # 5 Pz against Chad alone in C0804: as a lone desert raider it makes two morale checks instead of the CRT
    # (16.1); dice 1 pass both, so it routs - a forced retreat
    st = make_state([("GE-5Pz", AXIS, "C0803", 2), ("FF-Chad", ALLIED, "C0804", 1)], phase=8, vars=raider_rules())
    eng, fr = start(st, ScriptedDice([1] * 12), attackers=["GE-5Pz"], hex="C0804")
    act(eng, "combat_supply", AXIS, dump=None)      # no Allied dump asked: a raider is in combat supply (16.1)
    assert fr.data["def_results"]["FF-Chad"] == "r"
    d = eng.pending()
    assert d is None or d.kind != "combat_retreat" or all(o.action.args.get("unit") != "FF-Chad" for o in d.options)
    loc = eng.state.units["FF-Chad"].loc
    assert loc == "box:NRV" and not raiders.is_box(loc)
    assert any("pulls back off the map" in e for e in all_events(eng))
    settle_defaults(eng)
    assert eng.state.units["FF-Chad"].loc == "box:NRV"
    # the hex is vacated: the attacker may advance into it (14.8)
    assert not eng.state.units_at("C0804") or all(v.side == AXIS for v in eng.state.units_at("C0804"))


def test_16_1_chad_retreating_in_oasis_track_combat_pulls_back_off_the_map():
    box = "box:Oasis:kufra"
    # 5 Pz rolls one die per CF: three failures against Chad (CF > 0 ignores the first): disrupt and retreat (16.3 c)
    st = make_state([("GE-5Pz", AXIS, box, 2), ("FF-Chad", ALLIED, box, 1)], phase=8, vars=raider_rules())
    eng, fr = start(st, ScriptedDice([6, 6, 6] + [1] * 30), proc="oasis_combat", attackers=["GE-5Pz"], box=box)
    if eng.pending() is not None:
        eng.apply(eng.pending().options[0].action)
    assert eng.state.units["FF-Chad"].loc == "box:NRV" and eng.state.units["FF-Chad"].disrupted
    assert any("pulls back off the map" in e for e in all_events(eng))


def test_16_1_lone_desert_raider_attacked_on_the_hex_grid_makes_two_morale_checks():
    # one failure eliminates: the second die is a 6 (always a failure, 8.1)
    st = make_state([("GE-5Pz", AXIS, "C0803", 2), ("UK-LRDG", ALLIED, "C0804", 1)], phase=8, vars=raider_rules())
    eng, fr = start(st, ScriptedDice([1, 1, 6] + [1] * 12), attackers=["GE-5Pz"], hex="C0804")
    act(eng, "combat_supply", AXIS, dump=None)      # no Allied dump asked: a raider is in combat supply (16.1)
    assert fr.data["def_results"]["UK-LRDG"] == "E"
    assert sum("desert raider attacked on the hex grid, 16.1" in e for e in all_events(eng)) == 2
    assert eng.state.units["UK-LRDG"].loc.startswith("box:")


def test_16_1_raider_stacked_with_a_non_raider_uses_the_crt():
    st = make_state([("GE-5Pz", AXIS, "C0803", 2), ("UK-LRDG", ALLIED, "C0804", 1),
                     ("UK-KDG", ALLIED, "C0804", 1)], phase=8, vars=raider_rules())
    eng, fr = start(st, ScriptedDice([1] * 20), attackers=["GE-5Pz"], hex="C0804")
    act(eng, "combat_supply", AXIS, dump=None)
    act(eng, "combat_supply", ALLIED, dump=None)
    assert not any("16.1" in e and "morale" in e.lower() for e in all_events(eng))
