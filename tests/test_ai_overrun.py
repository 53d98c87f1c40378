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


def test_13_4_3_reacts_away_from_an_overrun_the_enemy_gains_by_to_a_hex_next_to_no_enemy():
    """13.4.3: 3 Aufkl (RMA 7) overruns KDG stacked with the WDF HQ (15.6: +2, so they may react): the odds preview
    of the overrun gives the Axis a gain, so the AI reacts away (it used to stand, the first option) to an offered
    hex next to no Axis unit, and the engine accepts the move."""
    from core.ai import AIPlayer
    from core.decisions import ALLIED, AXIS, Action
    from core.rules import combat
    from tests.ground_helpers import engine_at_movement, unit

    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013"),
                              unit("UK-WDF", ALLIED, "C1013")])
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": ["C1011", "C1012", "C1013"]}))
    d = eng.pending()
    assert d.kind == "overrun_reaction" and d.side == ALLIED
    a = AIPlayer(ALLIED, 1).choose(d, eng)
    assert a.kind == "move" and sorted(a.args["units"]) == ["UK-KDG", "UK-WDF"]
    end = a.args["path"][-1]
    assert not combat.enemy_hexes_adjacent(eng.state, ALLIED, end)
    eng.apply(a)
    assert eng.state.units["UK-KDG"].loc == end and eng.state.units["UK-WDF"].loc == end
