"""23.1 ALC-26 CW Withdrawal: "In play on the GT after the ALC-23 (Torch Invasion) has been conducted, if the
conditions on AXC-9 (Axis in Egypt) are not met, all South African and any remaining Australian units must be
withdrawn that GT.  a) Shorten the scenario by one GT each subsequent Event Phase if the withdrawal is not complete.
b) If there are fewer than 10 South African steps that have been withdrawn (due to elimination or isolation), the
game is shortened by two GTs."  Played from the real Rommel's War set-up (32.0, GT 10) through ``Engine.apply`` only
(issue 16); the hand-built twin is tests/test_events_cards.py::test_alc_26_cw_withdrawal_required_without_axis_in_egypt.

A game of 32.0 that passes ends on GT 26 (MET Pacific and SW Asia in crisis, 22.2 c): the Axis keeps it going with
AXC-4 (Axis Appeal, +1 GT) every GT and, from GT 22, AXC-18 (AIDA: +1, and +2 with AXC-9 not in effect) and the Malta
invasion (AXC-16 e: +3).  The Allies play ALC-23 on GT 27, the first GT they may (ALC-21 a: the game -6 GTs); ALC-26
is in play on GT 28, the Axis nowhere in Egypt.  The withdrawal is made in the Reinforcement Phase (7.4: the Axis
allows the units on the map to leave without moving to a map edge)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Action, Decision
from core.rules import events
from tests.playpath import Play

LATE_GT = 22
SA = ("SA-1SABG", "SA-2SABG", "SA-3SABG", "SA-4SABG", "SA-5SABG", "SA-6SABG", "SA-3SARec")


def _play(d: Decision, card: str, **args) -> Action | None:
    return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == card
                 and all(o.action.args.get(k) == v for k, v in args.items())), None)


def _to_gt_28_reinforcements() -> Play:
    p = Play("rommels-war", seed=1)

    def axis_events(d: Decision) -> Action | None:
        if d.side != AXIS:
            return None
        late = p.state.gt >= LATE_GT
        for card, args in (("AXC-4", {}), ("AXC-18", {}), ("AXC-16", {"act": "declare"})):
            if (card == "AXC-4" or late) and (a := _play(d, card, **args)) is not None:
                return a
        return None

    p.script = {"events": axis_events}
    p.to("events", side=ALLIED, gt=27, script=p.script)
    assert p.state.cards["ALC-26"]["status"] == "deck"
    end = p.state.end_gt
    p.act("play_card", card="ALC-23")
    assert p.state.end_gt == end - 6                                       # ALC-21 c)
    p.to("allow_withdrawal", side=AXIS, step="III.1", gt=28, script=p.script)
    c = p.state.cards["ALC-26"]
    assert c["status"] == "in_play" and c["played_gt"] == 28 and c.get("required")
    assert not events.axis_in_egypt(p.eng)
    assert set(SA) <= set(events.cw_withdrawal_outstanding(p.eng))
    return p


def _end_shifts(p: Play, since: int) -> list[str]:
    return [e for e in p.events(since) if e.startswith("End scenario marker") and "ALC-26" in e]


def test_23_1_alc_26_play_path_rommels_war_every_sa_and_au_unit_withdrawn_on_gt_28_costs_no_gt():
    p = _to_gt_28_reinforcements()
    p.act("allow_withdrawal", allow=True)                                  # 7.4 Important
    due = set(events.cw_withdrawal_outstanding(p.eng))
    p.to("withdraw", side=ALLIED, step="III.1")                           # after the Axis reinforcements
    while p.pending.kind == "withdraw" and (o := next((o for o in p.pending.options if o.action.kind == "withdraw"
                                                       and o.action.args["unit"] in due), None)):
        p.eng.apply(o.action)
    assert events.cw_withdrawal_outstanding(p.eng) == []
    assert events.south_african_steps_withdrawn(p.eng) == 13              # six BGs of 2 steps, 3 SA Rec
    n = len(p.eng.log)
    p.to(step="III.1", gt=29, script=p.script)                             # past the GT 29 Events Phase
    assert p.state.cards["ALC-26"].get("complete")
    assert _end_shifts(p, n) == []                                         # neither a) nor b)


def test_23_1_alc_26_a_play_path_rommels_war_withdrawal_not_made_shortens_the_game_each_events_phase():
    p = _to_gt_28_reinforcements()
    p.act("allow_withdrawal", allow=False)
    n = len(p.eng.log)
    p.to(step="III.1", gt=29, script=p.script)
    shifts = _end_shifts(p, n)
    assert len(shifts) == 1 and "CW withdrawal not complete (23.1 ALC-26 a)" in shifts[0]
    assert not p.state.cards["ALC-26"].get("complete")
