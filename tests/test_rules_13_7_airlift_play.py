"""13.7 e) air landing from the airlift boxes, from the real Tunisian Campaign set-up (31.0: the Axis receives two
Air Transport Points each GT from GT 31, 31.1) through ``Engine.apply`` only (tests/playpath.py): regular infantry and
airborne units, two steps per ATP (a divisional step counts two, 15.10), from the Sicily box to a friendly airfield or
city hex (Tripoli, L2817)."""

from __future__ import annotations

from core.decisions import AXIS
from tests.playpath import Play


def test_13_7_e_play_path_tunisian_campaign_axis_air_lands_infantry_at_tripoli_two_steps_an_atp():
    p = Play("tunisian-campaign", seed=1)
    p.to("movement", side=AXIS, gt=31)
    assert p.state.vars["atp"][AXIS] == 2
    assert p.refuse("air_land", units=["GE-47"], to="L2817").rule == "13.7 e)"      # motorised: not air landed
    n = len(p.eng.log)
    p.act("air_land", units=["GE-5FJ"], to="L2817")                               # 2 steps: 1 ATP
    assert p.state.units["GE-5FJ"].loc == "L2817" and p.state.vars["atp"][AXIS] == 1
    assert any("1 ATP air land" in e and "(13.7 e)" in e for e in p.events(since=n))
    # Superga's two divisional steps count four: 2 ATP, one more than is left
    assert p.refuse("air_land", units=["IT-1Superga"], to="L2817").rule == "13.7 e)"
    p.act("air_land", units=["GE-Barenthin"], to="L2817")                         # the last ATP
    assert p.state.units["GE-Barenthin"].loc == "L2817" and p.state.vars["atp"][AXIS] == 0
