"""22.3 "Axis ground units arrive on Crete as listed on AXC-13 and must remain there until authorized to leave by the
activation of specific Axis event cards" with 23.2 AXC-13 d), AXC-18 c), AXC-19 c), d) (R-CRETE-LEAVE):

* AXC-18 c) "The GT 18 reinforcements on AXC-13 may be moved to Italy on GT 19 or later."
* AXC-19 c) "The GT 27 reinforcements on AXC-13 may move to Italy or Sicily Boxes, or be airlifted to any friendly
  airfield on the hex grid on GT 28 or later."
* AXC-19 d) "For each unit moved from Crete, the Axis player rolls 1d6. Add one to the DR for each unit already moved.
  If the modified DR is 7 or more, lengthen the game by one GT."
* every other garrison unit stays, though 13.7 a) lists Crete among the Axis airlift boxes.

The play path is the North African Campaign (33.0) from GT 1 through ``Engine.apply`` only, the card plays of
tests/test_cards_axc19_fall_braun_play.py (AXC-5, AXC-10, the Malta invasion cancelled on GT 21, AXC-4 every GT to keep
the game going and fill the ATP pool; the Allies do not play ALC-23, which shortens the game by six GTs) and AXC-18
(AIDA) as soon as it may be played; moving the GT 18 list from Crete lengthens the game as AXC-19 d) says.  MET Greece is
deactivated at the end of GT 12, so AXC-13 is in play from GT 13 and its lists arrive in Crete.  AXC-18 can be played
only after the Malta invasion is cancelled (GT 21 at the earliest: AXC-16 j "after GT 20"), so its GT 19 limit is
always passed in play; its boundary (GT 18 / GT 19) is checked on a hand-built position (last test)."""

from __future__ import annotations

import re

import pytest

from core.decisions import AXIS, Action, Decision
from core.dice import ScriptedDice
from core.engine import TRT_LAST_GT, Engine
from core.rules import airdrop, combat, events, offmap, strategic_moves
from core.state import UnitState
from tests.playpath import Play
from tests.test_cards_axc19_fall_braun_play import play

AXIS_CARDS = (("AXC-5", {}), ("AXC-10", {}), ("AXC-16", {"act": "cancel"}), ("AXC-18", {}), ("AXC-4", {}))
GT18 = ("GE-125", "GE-KG125", "GE-382", "GE-KG382", "GE-433", "GE-KG433", "GE-164Aufkl", "GE-220Art")
GT27 = ("GE-FJLehr", "GE-Hecker", "GE-Sdvh288")
SDVH_287 = "GE-Sdvh287"                                   # GT 22 list: in neither released list


def card_plays(d: Decision) -> Action | None:
    if d.side == AXIS:
        return next((a for c, args in AXIS_CARDS if (a := play(d, c, **args)) is not None), None)
    return None                  # the Allies pass: Operation Torch (ALC-23) would shorten the game by six GTs


SCRIPT = {"events": card_plays}


def offmap_moves_at(p: Play, gt: int | None = None) -> Decision:
    """Pass until the Axis off-map moves decision (before its movement) of GT ``gt`` (any GT if None)."""
    return p.to("offmap_moves", side=AXIS, gt=gt, script=SCRIPT)


def offered(d: Decision, uid: str) -> list[str]:
    return [o.action.args["to"] for o in d.options if o.action.kind == "offmap_move" and o.action.args["unit"] == uid]


def roll_line(p: Play, since: int, uid: str) -> tuple[int, int]:
    """The die and the units already moved of ``uid``'s AXC-19 d) roll, from the game log."""
    line = next(e for e in p.events(since) if f"{uid} moved from Crete: " in e)
    d, moved = re.search(r": (\d) \+ (\d+) already moved", line).groups()
    return int(d), int(moved)


def move_from_crete(p: Play, uid: str, to: str, expect_moved: int) -> None:
    """The move and its AXC-19 d) roll: DR + units already moved, the game one GT longer on 7 or more."""
    end, n = p.state.end_gt, len(p.eng.log)
    p.act("offmap_move", unit=uid, to=to)
    assert p.state.units[uid].loc == to
    d, moved = roll_line(p, n, uid)
    assert moved == expect_moved == p.state.cards["AXC-13"]["crete_moved"] - 1
    assert p.state.end_gt == min(TRT_LAST_GT, end + (1 if d + moved >= 7 else 0))


def test_22_3_axc_18_c_axc_19_c_d_play_path_north_african_campaign_who_leaves_crete_when_and_the_extension_roll():
    p = Play("north-african-campaign", seed=1)

    # AXC-18 c): the first Axis Movement Phase with AIDA in play offers the GT 18 list Italy, and only Italy
    d = p.run(lambda e: (x := e.pending()) is not None and x.kind == "offmap_moves" and x.side == AXIS
              and bool(offered(x, "GE-125")), script=SCRIPT)
    assert events.status(p.eng, "AXC-18") == "in_play" and p.state.gt >= 21 and p.state.cards["AXC-16"]["cancelled"] == 21
    assert all(p.state.units[u].loc == offmap.CRETE and offered(d, u) == [offmap.ITALY] for u in GT18)
    assert p.state.units[SDVH_287].loc == offmap.CRETE and offered(d, SDVH_287) == []
    why = p.refuse("offmap_move", unit=SDVH_287, to=offmap.ITALY)          # not in a released list: stays (22.3)
    assert why.rule == "22.3; 23.2 AXC-13 d" and "must remain on Crete" in str(why)
    assert p.refuse("offmap_move", unit="GE-125", to=offmap.SICILY).rule == "22.3; 23.2 AXC-18 c"  # Italy only
    end = p.state.end_gt
    for k, uid in enumerate(GT18[:-1]):                                    # AXC-19 d): DR + k units already moved;
        move_from_crete(p, uid, offmap.ITALY, k)                           # from k = 6 every roll lengthens the game
    assert p.state.end_gt >= min(TRT_LAST_GT, end + 1)                          # 220 Art stays for now
    p.act("done")
    d = p.to("movement", side=AXIS, script=SCRIPT)
    assert "air_land" in d.free_kinds and p.state.vars["atp"][AXIS] > 0
    why = p.refuse("air_land", units=[SDVH_287], to="C0701")               # 13.7 a) lists Crete, 22.3 keeps it
    assert why.rule == "22.3; 23.2 AXC-19 c" and "must remain on Crete" in str(why)
    why = p.refuse("air_land", units=["GE-220Art"], to="C0701")            # GT 18 list: to Italy only
    assert "not airlifted" in str(why)

    # AXC-19 c): the GT 27 list arrives in Crete on GT 27 and may not leave before GT 28
    d = p.run(lambda e: (x := e.pending()) is not None and x.kind == "offmap_moves" and x.side == AXIS
              and all(u in e.state.units and e.state.units[u].loc == offmap.CRETE for u in GT27), script=SCRIPT)
    assert p.state.gt == 27 and events.status(p.eng, "AXC-19") == "in_play"
    assert all(offered(d, u) == [] for u in GT27) and offered(d, "GE-220Art") == [offmap.ITALY]
    why = p.refuse("offmap_move", unit="GE-Sdvh288", to=offmap.ITALY)
    assert why.rule == "22.3; 23.2 AXC-19 c" and "GT 28 or later" in str(why)
    p.act("done")
    p.to("movement", side=AXIS, gt=27, script=SCRIPT)
    airfield = next(a for a in combat.friendly_airfields(p.state, AXIS) if a[0] in "CW")
    why = p.refuse("air_land", units=["GE-FJLehr"], to=airfield)
    assert why.rule == "22.3; 23.2 AXC-19 c" and "GT 28 or later" in str(why)
    why = p.refuse(airdrop.DROP, unit="GE-FJLehr", to=airfield)            # an airborne drop is an airlift too
    assert why.rule == "22.3; 23.2 AXC-19 c" and "GT 28 or later" in str(why)

    # GT 28: Italy or Sicily, or an airlift to a friendly airfield, each rolling AXC-19 d) on the same count
    d = offmap_moves_at(p, 28)
    assert all(offered(d, u) == [offmap.ITALY, offmap.SICILY] for u in GT27) and offered(d, SDVH_287) == []
    move_from_crete(p, "GE-Sdvh288", offmap.ITALY, 7)                     # AXC-15 a): on to North Africa by sea
    p.act("done")
    p.to("movement", side=AXIS, gt=28, script=SCRIPT)
    end, n, moved = p.state.end_gt, len(p.eng.log), p.state.cards["AXC-13"]["crete_moved"]
    p.act("air_land", units=["GE-FJLehr"], to=airfield)
    assert p.state.units["GE-FJLehr"].loc == airfield and p.state.cards["AXC-13"]["crete_moved"] == moved + 1
    dr, already = roll_line(p, n, "GE-FJLehr")
    assert already == moved == 8 and p.state.end_gt == min(TRT_LAST_GT, end + (1 if dr + already >= 7 else 0))


def _crete_position(gt: int, dice: list[int] | None = None) -> Engine:
    """Hand-built twin: the Desert War set-up (28.0, its end marker on GT 33 below the TRT's last box) at ``gt`` with
    AXC-13 in play and its lists in Crete."""
    eng = Play("desert-war", seed=1, dice=ScriptedDice(dice) if dice else None).eng
    eng.state.gt = gt
    events.put_in_play(eng, "AXC-13", "test")
    for uid in GT18 + GT27 + (SDVH_287,):
        eng.state.units[uid] = UnitState(id=uid, side=AXIS, loc=offmap.CRETE)
    return eng


@pytest.mark.parametrize("gt, allowed", [(18, False), (19, True)])
def test_axc_18_c_gt18_list_leaves_crete_on_gt_19_not_18(gt, allowed):
    eng = _crete_position(gt)
    eng.state.cards.setdefault("AXC-18", {"id": "AXC-18"})["status"] = "in_play"
    assert strategic_moves.crete_boxes(eng, "GE-125") == ([offmap.ITALY] if allowed else [])
    assert (strategic_moves.crete_refusal(eng, "GE-125") is None) == allowed


@pytest.mark.parametrize("gt, allowed", [(27, False), (28, True)])
def test_axc_19_c_gt27_list_leaves_crete_on_gt_28_not_27(gt, allowed):
    eng = _crete_position(gt)
    eng.state.cards.setdefault("AXC-19", {"id": "AXC-19"})["status"] = "in_play"
    for uid in GT27:
        assert strategic_moves.crete_boxes(eng, uid) == ([offmap.ITALY, offmap.SICILY] if allowed else [])
        assert (strategic_moves.crete_airlift_refusal(eng, uid) is None) == allowed
    assert strategic_moves.crete_airlift_refusal(eng, SDVH_287) is not None


def test_axc_19_d_each_unit_already_moved_adds_one_the_limit_7_lengthens():
    eng = _crete_position(28, [5, 5, 5])
    eng.state.vars["es_policy"] = "normal"
    eng.state.cards.setdefault("AXC-19", {"id": "AXC-19"})["status"] = "in_play"
    end = eng.state.end_gt
    assert strategic_moves.crete_move_check(eng, "GE-FJLehr") is False      # 5 + 0
    assert strategic_moves.crete_move_check(eng, "GE-Hecker") is False      # 5 + 1 = 6: one short
    assert eng.state.end_gt == end
    assert strategic_moves.crete_move_check(eng, "GE-Sdvh288") is True     # 5 + 2 = 7: the limit
    assert eng.state.end_gt == end + 1


@pytest.mark.parametrize("gt, allowed", [(27, False), (28, True)])
def test_axc_19_c_gt27_airborne_unit_drops_from_crete_only_from_gt_28_and_only_on_a_friendly_airfield(gt, allowed):
    """13.7: ATP "may conduct airborne drops (15.5) or air landings": an airdrop from Crete is an airlift, which AXC-19 c)
    allows the GT 27 list from GT 28 "to any friendly airfield on the hex grid" (R-CRETE-LEAVE)."""
    from core.state import Frame

    eng = _crete_position(gt)
    eng.state.cards.setdefault("AXC-19", {"id": "AXC-19"})["status"] = "in_play"
    frame = Frame(proc="movement", data={})
    eng.state.vars["atp"] = {AXIS: 2}
    assert (airdrop.start_refusal(eng, frame, AXIS, "GE-FJLehr") is None) == allowed
    fields = [f for f in combat.friendly_airfields(eng.state, AXIS) if airdrop.drop_terrain_refusal(eng, AXIS, f) is None]
    open_desert = next(h for h in airdrop._drop_terrain_hexes() if h[0] == fields[0][0] and h not in fields
                       and airdrop.drop_terrain_refusal(eng, AXIS, h) is None)
    assert any(airdrop.airdrop_refusal(eng, frame, AXIS, "GE-FJLehr", f) is None for f in fields) == allowed
    why = airdrop.airdrop_refusal(eng, frame, AXIS, "GE-FJLehr", open_desert)  # no airfield there
    assert why is not None and "22.3" in why
