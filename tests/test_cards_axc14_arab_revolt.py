"""23.2 AXC-14 Arab Revolt b): "Sdvh 288 may also be committed to MET SW Asia when it arrives (one or both can be
committed on different GTs or in the same GT)"; c) they stay there and add to the situation DR.  From rommels-war's
set-up (32.0; MET SW Asia active) through ``Engine.apply``; AXC-13 (Crete Garrison: "put into play on the GT after
the MET Greece Track is deactivated", which a passing game never reaches) is put in play by hand at GT 21.
Caveat: 32.0 applies 27.0, whose "Units noted on any card as arriving on Sicily or Crete are not used in this
scenario" is not enforced by the scenario data yet (issue 17's scenario flow); the scenarios where AXC-14 b) is real
(28.0, 33.0) end before GT 24 in a passing game, so this test borrows rommels-war's calendar, kept going past GT 26 by
AXC-4 (Axis Appeal) for Sdvh 288, which arrives with the GT 27 list (R-CRETE-LEAVE)."""

from __future__ import annotations

from core.decisions import AXIS, Action, Decision
from core.rules import events, met, offmap
from tests.playpath import Play

S287, S288 = "GE-Sdvh287", "GE-Sdvh288"


def appeal(d: Decision) -> Action | None:
    """AXC-4 (Axis Appeal: +1 GT) whenever the Axis may play it: Sdvh 288 arrives with the GT 27 list of AXC-13
    (R-CRETE-LEAVE), after a passing Rommel's War has ended (GT 26)."""
    return next((o.action for o in d.options if d.side == AXIS and o.action.kind == "play_card"
                 and o.action.args.get("card") == "AXC-4"), None)


def axis_events(p: Play, gt: int):
    return p.run(lambda eng: eng.state.gt == gt and eng.pending() is not None and eng.pending().kind == "events"
                 and eng.pending().side == AXIS, script={"events": appeal})


def with_crete_garrison() -> Play:
    p = Play("rommels-war")
    axis_events(p, 21)
    events.put_in_play(p.eng, "AXC-13", "test: the GT after MET Greece is deactivated")
    assert met.track(p.eng, "SW Asia") and met.track(p.eng, "SW Asia")["box"] >= 1
    return p


def commits(p: Play) -> list[list[str]]:
    return [o.action.args.get("commit") for o in p.pending.options if o.action.args.get("card") == "AXC-14"]


def arab_drm(p: Play) -> int:
    return sum(v for v, lbl in met._drm(p.eng, "SW Asia") if "AXC-14" in lbl)


def until_in_crete(p: Play, uid: str) -> int:
    """The first Axis Events Phase with ``uid`` in Crete (AXC-13 b; 27.1 delays card units in this scenario)."""
    for gt in range(p.state.gt, 32):
        axis_events(p, gt)
        u = p.state.units.get(uid)
        if u is not None and u.loc == offmap.CRETE:
            return gt
    raise AssertionError(f"{uid} never reached Crete")


def test_23_2_axc_14_b_sdvh_288_committed_on_a_later_gt_when_it_arrives():
    p = with_crete_garrison()
    g287 = until_in_crete(p, S287)
    assert S288 not in p.state.units or p.state.units[S288].loc != offmap.CRETE
    assert commits(p) == [[S287]]
    p.act("play_card", card="AXC-14", commit=[S287])
    assert p.state.units[S287].loc == met.track_box("SW Asia") and arab_drm(p) == 1
    axis_events(p, g287 + 1)
    if S288 not in p.state.units or p.state.units[S288].loc != offmap.CRETE:
        assert commits(p) == []                           # Sdvh 288 has not arrived yet
    g288 = until_in_crete(p, S288)
    assert g288 > g287
    assert commits(p) == [[S288]]                         # b) committed on a different GT
    p.act("play_card", card="AXC-14", commit=[S288])
    assert p.state.units[S288].loc == met.track_box("SW Asia") and arab_drm(p) == 2
    if p.pending is not None and p.pending.kind == "events":
        assert commits(p) == []                           # nothing left to commit


def test_23_2_axc_14_b_both_committed_in_the_same_gt():
    p = with_crete_garrison()
    until_in_crete(p, S288)
    assert p.state.units[S287].loc == p.state.units[S288].loc == offmap.CRETE
    assert commits(p) == [[S287], [S287, S288]]
    p.act("play_card", card="AXC-14", commit=[S287, S288])
    assert {p.state.units[u].loc for u in (S287, S288)} == {met.track_box("SW Asia")} and arab_drm(p) == 2
