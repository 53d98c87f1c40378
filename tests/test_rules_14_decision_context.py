"""Decision context for the GUI (issue 6): every combat decision carries the combat so far; the ``odds`` query
takes per-unit combat supply (14.5 Important: supplied and unsupplied attackers read different lines) and
matches a mixed-supply resolution; the ``combats`` query returns the finished combats of the current or last
phase."""

from __future__ import annotations

import json

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import tec
from tests.rules_combat_kit import act, desert_map, make_state, start
from tests.test_rules_14_7_2_retreated_into import settle_defaults

KEYS = ("line", "att_supplied", "def_supplied", "def_results", "groups", "att_results", "loss", "retreat_log", "advanced")


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def mixed(die: int):
    """14.5 attacker example: GGFF and Trento unsupplied in C1011, Pistoia supplied in C1110."""
    st = make_state([
        ("IT-136GGFF", AXIS, "C1011", 2), ("IT-102Trento", AXIS, "C1011", 2), ("IT-16Pistoia", AXIS, "C1110", 2),
        ("AX-Dump#1", AXIS, "C1110"), ("UK-2Arm", ALLIED, "C1010", 2), ("GR-1Greek", ALLIED, "C1010", 2),
    ])
    return start(st, ScriptedDice([die] + [1] * 30), attackers=["IT-136GGFF", "IT-102Trento", "IT-16Pistoia"],
                 hex="C1010")


@pytest.mark.parametrize("die", [1, 3, 6])
def test_14_5_odds_query_with_per_unit_supply_matches_the_mixed_supply_resolution(die):
    eng, fr = mixed(die)
    before = eng.state.dice_drawn
    sup = {"IT-136GGFF": False, "IT-102Trento": False, "IT-16Pistoia": True}
    o = eng.query("odds", attackers=["IT-136GGFF", "IT-102Trento", "IT-16Pistoia"], hex="C1010",
                  att_supplied=sup, def_supplied={"UK-2Arm": False, "GR-1Greek": False})
    assert eng.state.dice_drawn == before and o["attackers_supplied"] == sup
    assert o["defenders_supplied"] == {"UK-2Arm": False, "GR-1Greek": False}
    act(eng, "combat_supply", AXIS, hex="C1011", dump=None)
    act(eng, "combat_supply", AXIS, hex="C1110", dump="AX-Dump#1")
    act(eng, "combat_supply", ALLIED, hex="C1010", dump=None)
    row = o["results"][die - 1]
    assert (row["defender_column"], row["attacker_column"]) == (fr.data["columns"]["defender"], fr.data["columns"]["attacker"])
    assert {u: row["by_unit"][u] for u in fr.data["def_results"]} == fr.data["def_results"]
    settle_defaults(eng)
    for u, r in fr.data.get("att_results", {}).items():
        assert row["by_unit"][u] == r


def test_every_combat_decision_carries_the_combat_context():
    eng, fr = mixed(6)
    seen = set()
    while (d := eng.pending()) is not None:
        assert all(k in d.context for k in KEYS), (d.kind, sorted(d.context))
        json.dumps(d.context)                                   # JSON-safe for the LAN and the GUI
        seen.add(d.kind)
        eng.apply(d.options[-1].action if d.kind == "combat_supply" else d.options[0].action)
    assert {"combat_supply", "combat_loss"} <= seen


def test_combats_query_current_and_last_phase():
    eng, fr = mixed(6)
    assert eng.query("combats") == {"gt": None, "phase": None, "combats": []}
    settle_defaults(eng)
    cur = eng.query("combats", phase="current")
    assert (cur["gt"], cur["phase"]) == (eng.state.gt, eng.state.phase) and len(cur["combats"]) == 1
    c = cur["combats"][0]
    assert c["hexes"] == ["C1010"] and c["defender_result"] == fr.data["def_results"]
    assert c["attacker_losses"] == fr.data["outcome"]["attacker_losses"] and "att_supplied" in c
    eng.state.phase = 11                                      # the next Combat Phase: nothing fought yet
    assert eng.query("combats")["combats"] == []
    assert eng.query("combats", phase="last")["combats"][0]["hexes"] == ["C1010"]
