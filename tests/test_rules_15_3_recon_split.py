"""15.3 recon superiority: the defender splits the stack, the attacker apportions his units, two combats;
no advance unless both parts are gone (d)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, IllegalAction
from core.dice import ScriptedDice
from core.rules import combat, tec
from tests.rules_combat_kit import act, desert_map, make_state, start


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def units():
    return [("GE-3Aufkl", AXIS, "C0802", 1), ("GE-5Pz", AXIS, "C0802", 2),
            ("UK-2Arm", ALLIED, "C0803", 2), ("UK-7Motor", ALLIED, "C0803", 2)]


def test_15_3_recon_double_attack_offered_only_with_superiority_and_two_real_defenders():
    st = make_state(units())
    opts = combat.declare_options(st, AXIS, [])
    assert any(o.action.args.get("recon") for o in opts)
    st2 = make_state(units() + [("UK-KDG", ALLIED, "C0803", 1), ("UK-11Huss", ALLIED, "C0803", 1)])
    st2.units["GE-3Aufkl"].flags = {"values": {"cf": 1}}
    with pytest.raises(IllegalAction) as e:       # the defender's 2 recon CF beat the Aufkl's
        combat.check_declaration(st2, AXIS, [], {"attackers": ["GE-3Aufkl", "GE-5Pz"], "hexes": ["C0803"], "recon": True})
    assert e.value.rule == "15.3"
    tec.use_map(desert_map(C0803="city"))
    with pytest.raises(IllegalAction):            # 15.3 a) not in a city
        combat.check_declaration(make_state(units()), AXIS, [], {"attackers": ["GE-3Aufkl", "GE-5Pz"], "hexes": ["C0803"], "recon": True})


def test_15_3_defender_splits_attacker_apportions_two_combats_no_advance_after_the_first():
    st = make_state(units())
    # part 1 (2 Arm) vs 3 Aufkl: die 1; part 2 (7 Motor) vs 5 Pz: die 1 - low columns, few results
    eng, fr = start(st, ScriptedDice([1, 6, 6, 6, 1, 6, 6, 6, 6]), proc="combat_phase", side=AXIS)
    act(eng, "declare", AXIS, recon=True)
    act(eng, "done", AXIS)
    d = eng.pending()
    assert d.kind == "combat_recon_split" and d.side == ALLIED
    assert [o.action.args["part"] for o in d.options] == [["UK-2Arm"]]
    act(eng, "recon_split", ALLIED, part=["UK-2Arm"])
    d = eng.pending()
    assert d.kind == "combat_recon_assign" and d.side == AXIS
    act(eng, "recon_assign", AXIS, unit="GE-3Aufkl", part=1)
    d = eng.pending()
    assert [o.action.args["part"] for o in d.options] == [2]       # c) both parts must be attacked
    act(eng, "recon_assign", AXIS, unit="GE-5Pz", part=2)
    frames = [f for f in eng.state.stack if f.proc == "resolve_combat"]
    assert frames and frames[-1].data["defenders"] == ["UK-2Arm"] and frames[-1].data["attackers"] == ["GE-3Aufkl"]
    first = frames[-1]
    n = 0
    while eng.pending() is not None and n < 60:
        d = eng.pending()
        if d.kind == "combat_advance":
            assert "UK-7Motor" in {v.id for v in eng.state.units_at("C0803")} or first.data.get("outcome")
        eng.apply(d.options[-1].action if d.kind != "combat_loss" else d.options[0].action)
        n += 1
    c = fr.data["combats"][0]
    assert c["resolved"] and len(c["outcomes"]) == 2
    assert first.data["outcome"]["advanced"] == []      # d) no advance while the other part holds the hex
