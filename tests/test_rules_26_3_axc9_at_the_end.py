"""R-VIC-AXC9-END: 26.3 b) "Meeting the conditions on AXC-9 (Axis in Egypt). The conditions must still be met at the
end of the scenario." against 24.3 "if AXC-9 (Axis in Egypt) is in effect at the end of play".  From the real
set-ups; the Events-Phase record (``vars["axc9"]``, written by ``events._track_axc9`` in every I.1, reached by play in
tests/test_events_cards.py ``test_axc_9_*``) is set as the last Events Phase would have left it."""

from __future__ import annotations

from core.rules import events
from core.rules import victory_rules as vr
from tests.playpath import Play


def _axc9(p: Play) -> dict:
    return next(c for c in vr.conditions(p.eng) if c["kind"] == "card_in_effect" and c.get("card") == "AXC-9")


def test_26_3_b_axc9_met_in_the_last_events_phase_but_not_at_the_end_is_no_sonnenblume_victory():
    p = Play("sonnenblume", seed=1)
    cond = _axc9(p)
    assert cond.get("still_met_at_end") and not events.axis_in_egypt_now(p.eng)
    p.state.vars["axc9"] = {"consecutive": 1, "met_gt": p.state.gt, "first_gt": p.state.gt}
    assert events.axis_in_egypt(p.eng)                       # in effect this GT (the Events Phase)
    assert not vr.holds(p.eng, cond, "Axis")                 # 26.3 b): not still met at the end


def test_24_3_axc9_in_effect_from_the_last_events_phase_is_a_fox_killed_victory():
    p = Play("fox-killed", seed=1)
    cond = _axc9(p)
    assert not cond.get("still_met_at_end")
    assert not vr.holds(p.eng, cond, "Axis")
    p.state.vars["axc9"] = {"consecutive": 1, "met_gt": p.state.gt, "first_gt": p.state.gt}
    assert vr.holds(p.eng, cond, "Axis")                     # 24.3 "in effect at the end of play"
