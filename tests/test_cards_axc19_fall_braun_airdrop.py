"""23.2 AXC-19 b) Fall Braun: airborne units in the Fall Braun Box (from AXC-17) may be airdropped on Map T if air
transport is available (15.5 airborne drops, 13.7 d one ATP per unit, 19.7 ATP pool)."""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.rules import airdrop, offmap
from tests.ground_helpers import engine_at_movement, unit


def drop_engine(atp=1, cards="in_play", fna=True, extra=()):
    eng = engine_at_movement([unit("GE-Ramcke", AXIS, offmap.FALL_BRAUN, steps=1),
                              unit("GE-5Pz", AXIS, offmap.FALL_BRAUN, steps=2), *extra],
                             vars={"atp": {AXIS: atp}, "fna_in_play": fna})
    eng.state.cards = {"AXC-19": {"id": "AXC-19", "status": cards}}
    while eng.pending().kind != "movement":          # the off-map moves (22.5) come first: none made
        eng.apply(Action(kind="done", side=AXIS))
    return eng


def a_drop_hex(eng):
    return airdrop._sample_hexes(eng, 1)[0]


def test_axc_19_b_airdrop_from_fall_braun_onto_map_t_spends_one_atp():
    eng = drop_engine()
    eng.dice = ScriptedDice([1])                       # the 15.5 morale check passes
    d = eng.pending()
    drops = [o for o in d.options if o.action.kind == airdrop.KIND]
    assert drops and all(o.action.args["unit"] == "GE-Ramcke" for o in drops)      # 5 Pz is not airborne
    to = drops[0].action.args["to"]
    assert to.startswith("T")
    eng.apply(drops[0].action)
    u = eng.state.units["GE-Ramcke"]
    assert u.loc == to and not u.disrupted and u.emergency
    assert eng.state.vars["atp"][AXIS] == 0
    assert eng.pending().context["moved"]["GE-Ramcke"] > 0          # no movement after the drop
    assert not [o for o in eng.pending().options if o.action.kind == airdrop.KIND]   # no ATP left


def test_axc_19_b_failed_drop_morale_check_disrupts():
    eng = drop_engine()
    eng.dice = ScriptedDice([6])
    eng.apply(Action(kind=airdrop.KIND, side=AXIS, args={"unit": "GE-Ramcke", "to": a_drop_hex(eng)}))
    assert eng.state.units["GE-Ramcke"].disrupted


@pytest.mark.parametrize("case", ["no_atp", "not_airborne", "off_map_t", "card_not_in_play", "fna_out", "enemy"])
def test_axc_19_b_refusals_cite_the_rule_and_leave_state_untouched(case):
    eng = drop_engine(atp=0 if case == "no_atp" else 1, cards="active" if case == "card_not_in_play" else "in_play",
                      fna=case != "fna_out")
    to = a_drop_hex(drop_engine())
    uid = "GE-5Pz" if case == "not_airborne" else "GE-Ramcke"
    if case == "off_map_t":
        to = "C2331"
    if case == "enemy":
        eng.state.units["UK-7RTR"] = unit("UK-7RTR", ALLIED, to)
    before = copy.deepcopy(eng.state)
    with pytest.raises(IllegalAction) as e:
        eng.apply(Action(kind=airdrop.KIND, side=AXIS, args={"unit": uid, "to": to}))
    assert "AXC-19 b" in e.value.rule
    assert eng.state.hash() == before.hash()
