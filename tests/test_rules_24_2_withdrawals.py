"""7.4 / 24.2 Allied withdrawals, sentence by sentence, from fox-killed's set-up (24.0) through ``Engine.apply``:
"a) If any of the below units have failed to withdraw at the end of the listed GT, the Axis player immediately wins
the scenario.  b) If any of the required units have been eliminated prior to withdrawal, the Allied player must
immediately expend one refit point for each unit eliminated."  8.3: eliminated units are placed in the Refit Box or the
Destroyed Box, so a unit in the Refit Box is eliminated: it is not withdrawn, it costs one RP (R-WITHDRAW-ELIMINATED).
7.4 Important: "If the Axis player allows, withdrawals may be removed from the map without moving them to a map edge."
GT 8 lists 5 Ind BG, 7 Ind BG, 11 Ind BG and CIH; the elimination of 5 Ind BG is set by hand."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Action
from core.rules import offmap
from tests.playpath import Play

GT8 = ("IN-5IndBG", "IN-7IndBG", "IN-11IndBG", "IN-CIH")


def allow(d):
    return next((o.action for o in d.options if o.action.args.get("allow") is True), None)


def withdraw_all(d):
    return next((o.action for o in d.options if o.action.kind == "withdraw"), None)


def play_to_gt9(p: Play, seen: list) -> None:
    def note(d):
        if d.kind == "withdraw":
            seen.append(sorted(o.action.args["unit"] for o in d.options if o.action.kind == "withdraw"))
        return withdraw_all(d)
    p.run(lambda eng: eng.state.gt == 9 or eng.state.result is not None,
          script={"allow_withdrawal": allow, "withdraw": note})


def test_24_2_b_a_unit_in_the_refit_box_is_eliminated_costs_one_rp_and_is_not_a_failed_withdrawal():
    p = Play("fox-killed")
    p.run(lambda eng: eng.state.gt == 5)                         # after the set-up
    p.state.units["IN-5IndBG"].loc = offmap.refit(ALLIED)          # eliminated with a LOS (8.3 b)
    seen: list = []
    play_to_gt9(p, seen)
    assert p.state.result is None                                # no instant Axis win (24.2 a)
    assert seen and all("IN-5IndBG" not in s for s in seen)      # not offered for withdrawal
    assert {p.state.units[u].loc for u in GT8[1:]} == {offmap.REMOVED}
    spent = [u.id for u in p.state.units.values() if u.flags.get("removed_by") == "24.2 b"]
    assert len(spent) + p.state.vars.get("rp_debt", 0) == 1      # one RP expended, or owed (24.2 b)
    assert "IN-5IndBG" in p.state.vars.get("withdrawal_rp_paid", [])


def test_24_2_a_a_unit_not_withdrawn_by_the_end_of_its_gt_is_an_instant_axis_win():
    p = Play("fox-killed")
    p.run(lambda eng: eng.state.gt == 9 or eng.state.result is not None,
          script={"allow_withdrawal": allow, "withdraw": lambda d: Action(kind="done", side=ALLIED,
                                                                           args={"withdrawals": True})})
    assert p.state.result and p.state.result["winner"] == AXIS and "24.2" in p.state.result["rule"]


def test_24_2_b_a_unit_eliminated_in_real_combat_costs_one_rp_and_is_not_a_failed_withdrawal_play_path():
    """The play-path twin of the test above: nothing set by hand.  GT 4 (XI): the CIH (one step, due to withdraw on
    GT 8) moves to Sollum (W2004) in the Allied Movement Phase and attacks Bardia (W2104) alone; the die (1) eliminates
    it (8.3: with a LOS it goes to the Refit Box).  On GT 8 it is not offered for withdrawal, the other three units
    are withdrawn, the Axis does not win (24.2 a), and one RP is expended or owed for it (24.2 b)."""
    from core.dice import ScriptedDice, SeededDice
    from core.rules import movement

    p = Play("fox-killed")
    p.to("movement", side=ALLIED)
    path = movement.query_reachable(p.eng, ["IN-CIH"], with_paths=True)["W2004"]["path"]
    p.act("move", units=["IN-CIH"], path=path)
    p.to("combat_declare", side=ALLIED)
    p.eng.dice = ScriptedDice([1], fallback=SeededDice())
    p.act("declare", attackers=["IN-CIH"], hexes=["W2104"], form="regular")
    p.run(lambda eng: eng.state.units["IN-CIH"].loc != "W2004")
    assert p.state.units["IN-CIH"].loc == offmap.refit(ALLIED) and p.state.gt < 8       # eliminated (8.3 b)
    rp_before = [u.id for u in p.state.units.values() if u.flags.get("removed_by") == "24.2 b"]
    seen: list = []
    play_to_gt9(p, seen)
    assert p.state.result is None                                # no instant Axis win (24.2 a)
    assert seen and all("IN-CIH" not in s for s in seen)         # not offered for withdrawal
    assert {p.state.units[u].loc for u in GT8[:3]} == {offmap.REMOVED}
    spent = [u.id for u in p.state.units.values() if u.flags.get("removed_by") == "24.2 b" and u.id not in rp_before]
    assert len(spent) + p.state.vars.get("rp_debt", 0) == 1      # one RP expended, or owed (24.2 b)
    assert "IN-CIH" in p.state.vars.get("withdrawal_rp_paid", [])
