"""22.2.1 "A unit starting a Movement Phase in the NRV may move to any track" (R-MET-MOVES): a unit landed in the
NRV Box from its port boxes in this Movement Phase (20.1, step 3) did not start the phase there; it may go to a
track in the next Allied Movement Phase.

Played from the Desert Fox set-up through ``Engine.apply`` only: the Allied reinforcements are sent to the Cape
Route Box, shipped to the NRV (IV.3/IV.4), placed in its port boxes and landed; 1 Cdo lands at IX.3 of GT 11 while
MET SW Asia is active."""

from __future__ import annotations

from core.decisions import Action, Decision
from core.rules import met, offmap
from tests.playpath import Play


def _first(kind: str, **args):
    def pick(d: Decision) -> Action | None:
        for o in d.options:
            if o.action.kind == kind and all(o.action.args.get(k) == v for k, v in args.items()):
                return o.action
        return None
    return pick


SCRIPT = {"reinforce": _first("deploy", to=offmap.CAPE), "ocean_shipping": _first("ship"),
          "port_placement": _first("port_place")}


def test_22_2_1_unit_landed_in_the_nrv_this_phase_may_not_go_to_a_track_until_the_next_phase_desert_fox():
    p = Play("desert-fox", seed=1)
    d = p.to("offmap_moves", side="Allied", step="IX.3", gt=11, script=SCRIPT)
    cdo = p.state.units["UK-1Cdo"]
    assert cdo.loc == offmap.NRV and cdo.flags["landed"] == "11.9"         # landed at IX.3 from the NRV port boxes
    assert met.track(p.eng, "SW Asia")
    offered = {o.action.args["unit"] for o in d.options if o.action.kind == "offmap_move"}
    assert "UK-11Huss" in offered and "UK-1Cdo" not in offered             # 11 Huss started IX in the NRV
    exc = p.refuse("offmap_move", side="Allied", unit="UK-1Cdo", to="track:MET-SWAsia")
    assert "22.2.1" in exc.rule
    # the next Allied Movement Phase: 1 Cdo starts it in the NRV
    p.to("offmap_moves", side="Allied", step="XV.3", gt=11)
    p.act("offmap_move", side="Allied", unit="UK-1Cdo", to="track:MET-SWAsia")
    assert p.state.units["UK-1Cdo"].loc == "track:MET-SWAsia"
