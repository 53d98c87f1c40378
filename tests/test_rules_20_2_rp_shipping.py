"""R-NAV-RP: refit points are ocean cargo (17.1 "RP may be transported by air, sea, rail, and/or MSU"; 20.1 "Each box
has a capacity of ... b) Two refit steps"; "Refit points and dumps are placed in the port hex, they may not be moved
any further during the current Movement Phase").

Play path: Desert War (28.0) from its real set-up through ``Engine.apply`` only.  In the GT 2 Reinforcement Phase the
Axis deploys its monthly Italian RP (AXC-3) to Italy (7.2) and the Allies their British RP (ALC-7) to the Cape Route
Box (7.3); in the Allocation Phase (IV.3 / IV.4) each is offered on its lane like any cargo (before R-NAV-RP ocean
shipping never offered an RP, so they waited in the boxes for ever); the British RP lands in the NRV (20.2.4) and the
Italian one at Benghazi (20.2.1), placed in the port hex and unable to move on in that Movement Phase.
"""

from __future__ import annotations

import pytest

from core.decisions import Action, Decision
from core.rules import naval, offmap
from tests.playpath import Play

ITALIAN, BRITISH, BENGHAZI = "IT-RP#2", "UK-RP#2", "C2308"


def _deploy_rp(d: Decision) -> Action | None:
    uid = d.context["unit"]
    if uid in (ITALIAN, BRITISH):
        return Action(kind="deploy", side=d.side, args={"unit": uid, "to": offmap.ITALY if d.side == "Axis" else offmap.CAPE})
    return None


def _ship_rp(offered: dict):
    def ship(d: Decision) -> Action | None:
        for o in d.options:
            uid = o.action.args.get("unit")
            if uid in (ITALIAN, BRITISH):
                offered[uid] = sorted(str(x.action.args.get("to")) for x in d.options if x.action.kind == "ship")
                if o.action.kind == "ship" and o.action.args["to"] in (BENGHAZI, offmap.NRV):
                    return o.action
        return None
    return ship


def _place_rp(d: Decision) -> Action | None:
    return next((o.action for o in d.options if o.action.kind == "port_place"
                 and o.action.args.get("unit") in (ITALIAN, BRITISH)), None)


@pytest.fixture(scope="module")
def game() -> tuple[Play, dict, int]:
    p = Play("desert-war", seed=1)
    n = len(p.eng.log)
    offered: dict = {}
    script = {"reinforce": _deploy_rp, "ocean_shipping": _ship_rp(offered), "port_placement": _place_rp}
    p.to(step="IV.10", gt=2, script=script)
    assert p.state.units[ITALIAN].loc.startswith(naval.AT_SEA) and p.state.units[BRITISH].loc.startswith(naval.AT_SEA)
    p.to(step="IX.3", gt=2, script=script)
    return p, offered, n


def test_r_nav_rp_refit_points_waiting_in_italy_and_the_cape_route_are_offered_as_ocean_cargo(game):
    p, offered, _ = game
    assert naval.is_cargo(ITALIAN) and naval.is_cargo(BRITISH) and naval.is_cargo("AX-Dump#1")
    assert offered[BRITISH] == [offmap.NRV]                              # 20.2.4: the Cape Route to the NRV only
    assert BENGHAZI in offered[ITALIAN] and "L2817" in offered[ITALIAN]  # 20.2.1: any Axis controlled port


def test_r_nav_rp_shipped_refit_points_land_in_the_port_hex_and_move_no_further(game):
    p, _, n = game
    it, uk = p.state.units[ITALIAN], p.state.units[BRITISH]
    assert it.loc == BENGHAZI and it.flags.get("landed_stop") and it.flags.get("landed_gt") == 2
    assert uk.loc == offmap.NRV and uk.flags.get("landed_stop")
    ev = p.events(n)
    assert f"Axis ships {ITALIAN} on the Italy lane toward Benghazi (C2308) (20.2)" in ev
    assert f"Allied ships {BRITISH} on the Cape lane toward the NRV (20.2)" in ev
    assert any(e.startswith(f"{ITALIAN} lands from the port boxes at Benghazi") and "may not move further" in e for e in ev)


def test_r_nav_rp_one_box_carries_two_refit_steps_not_three():
    """20.1 b) "Two refit steps": two one-step RP fill one box, a third needs a second (the limit and limit + 1)."""
    from core.state import UnitState
    one = [UnitState(id=f"IT-RP#{i}", side="Axis", loc=offmap.ITALY, steps=1) for i in (7, 8, 9)]
    assert naval.cargo_boxes(one[:2]) == 1 and naval.cargo_boxes(one) == 2
