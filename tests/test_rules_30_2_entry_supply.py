"""30.2 Allied Reinforcements: "Units enter at any hex on the east edge of Map S on the turns indicated. All are in
general supply when entering." (R-SC-TOTF-ENTRY-GENS).  Trail of the Fox from its set-up through ``Engine.apply``:
the Allies have no base on Maps L and S (30.2 sets up none), so without the rule every unit that entered would be
isolated at its first Movement Phase (12.5: no LOS and no LOC to a GenS source)."""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import reinforcements
from core.rules.special_units import info
from tests.playpath import Play


def _combat_on_map(p: Play, entered_gt: int) -> list:
    return [u for u in p.state.units.values()
            if u.side == ALLIED and info(p.state, u.id).is_combat and u.loc[:1] in "CS" and u.loc[1:].isdigit()
            and u.flags.get(reinforcements.ENTRY_SUPPLIED) == entered_gt]


def test_30_2_units_entering_on_the_east_edge_are_in_general_supply_for_the_gt_they_enter():
    """GT 31 (the scenario's start, Phase XII): the GT 31 arrivals set up on the east edge are in GenS at XV.1, the
    Allied Movement Phase of their GT; at GT 32's first Allied Movement Phase, with no Allied base on the map (the
    pass player builds none), they are isolated (12.5), while the GT 32 arrivals, deployed on the edge in that
    GT's Reinforcement Phase (III.1, not held), are in GenS.  At GT 33 the GT 32 arrivals are no longer (the limit + 1)."""
    p = Play("trail-of-the-fox", seed=1)
    p.to("movement", side=ALLIED)
    assert (p.state.gt, p.state.phase) == (31, 15)
    gt31 = _combat_on_map(p, 31)
    assert len(gt31) >= 10
    assert not any(u.ogs or u.isolated for u in gt31)
    assert not [u for u in p.state.units.values() if u.side == ALLIED and u.id.startswith("AL-Base")
                and u.loc[1:].isdigit()], "no Allied base on the map"
    deploy = {"reinforce": lambda d: next((o.action for o in d.options if o.action.kind == "deploy"), None)}
    p.to("movement", side=ALLIED, gt=32, script=deploy)
    gt32 = _combat_on_map(p, 32)
    assert gt32 and not any(u.ogs or u.isolated for u in gt32)
    still = [p.state.units[u.id] for u in gt31 if p.state.units[u.id].loc[1:].isdigit()]
    assert still and all(u.isolated for u in still)
    p.to("movement", side=ALLIED, gt=33, script=deploy)
    left = [p.state.units[u.id] for u in gt32 if p.state.units[u.id].loc[1:].isdigit()]
    assert left and all(u.isolated for u in left)
