"""7.3 Allied Arrivals: "Most Allied reinforcements arrive in the Cape Route Box (20.2.4) and/or the Nile River Valley
Box (22.1). Units arriving as part of ALC-21 through ALC-24 (Operation Torch) must be placed in the Torch Box
(20.2.5)."  From the real Rommel's War and North African Campaign set-ups (32.0, 33.0: the scenarios with both
Egypt's and Operation Torch's arrivals) through ``Engine.apply`` only: the first Allied reinforcement of the game
(an MSU of ALC-10 Monthly Support) may arrive in the NRV or the Cape Route Box, not in the Torch Box (it was
offered there); the units of the Torch cards still name the Torch Box."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED
from core.rules import offmap, reinforcements
from tests.playpath import Play


@pytest.mark.parametrize("scenario", ["rommels-war", "north-african-campaign"])
def test_7_3_play_path_a_monthly_support_msu_arrives_in_the_nrv_or_the_cape_route_box_not_the_torch_box(scenario):
    p = Play(scenario, seed=1)
    d = p.to("reinforce", side=ALLIED)
    uid = d.context["unit"]
    assert uid.startswith("AL-MSU")
    assert set(d.context["points"]) == {offmap.NRV, offmap.CAPE}
    assert "7.3" in p.refuse("deploy", unit=uid, to=offmap.TORCH).rule
    p.act("deploy", unit=uid, to=offmap.CAPE)
    assert p.state.units[uid].loc == offmap.CAPE
    # ALC-21 - ALC-24's units name the Torch Box (their ``arrive_to``): it stays their arrival point
    assert offmap.TORCH in reinforcements.arrival_points(p.eng, ALLIED, offmap.TORCH)
