"""The computer opponent overruns (13.4) in its Movement Phase (issue 21, ``core.ai.overrun``): a lone weak unit
at good odds, never a strong stack.  Hand-built positions (tests/test_ai.py ``position``); the overrun itself is
reached by play in tests/test_rules_13_4_*."""

from __future__ import annotations

from tests.test_ai import answers, position


def _movement(allied: list[tuple]):
    # 5 Pz (two steps, in general supply from the active base at C1205) four hexes from the Allied hex C1509
    return position([("AX-Base#1", "Axis", "C1205", 1, {"active": True}), ("GE-5Pz", "Axis", "C1206", 2)] + allied,
                    phase=6, step=3)


def test_overruns_a_lone_weak_unit_at_good_odds():
    # 1 SA BG reduced to one step in open desert: the overrun is 7:1 (9 to 1) and clears the hex on 4 rolls of 6
    eng = _movement([("SA-1SABG", "Allied", "C1509", 1)])
    pv = eng.query("odds", attackers=["GE-5Pz"], hex="C1509", form="overrun")
    assert pv["odds"] == "7:1"
    first = answers(eng, "Axis", 1)[0]
    assert first.kind == "move" and first.args["units"] == ["GE-5Pz"] and first.args["path"][-1] == "C1509"
    assert eng.pending().kind.startswith("combat_")                   # the overrun combat is being resolved (13.4.4)


def test_does_not_overrun_a_strong_stack():
    # two light armoured brigades: the overrun would be under 3:1; 5 Pz moves, and not into their hex
    eng = _movement([("UK-7LtArm", "Allied", "C1509", 2), ("UK-4LtArm", "Allied", "C1509", 2)])
    acts = answers(eng, "Axis", 4)
    assert all(a.args.get("path", [""])[-1] != "C1509" for a in acts)
    assert {u.loc for u in eng.state.units.values() if u.side == "Allied"} == {"C1509"}
