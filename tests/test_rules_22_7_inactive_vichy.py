"""23.1 ALC-3 "Important: These units are not active until ALC-23 (Operation Torch Invasion) is played" (22.7: French
North Africa is out of play until then), from Run for Tunis's set-up (29.0: the Vichy French of ALC-3 set up, ALC-23
available) through ``Engine.apply`` only: before ALC-23 the Allied player is not offered, and is refused, a move of a
VF unit; his own units still move."""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import fna
from tests.playpath import Play


def test_alc_3_vichy_french_units_do_not_move_before_alc_23_play_path():
    p = Play("run-for-tunis", seed=1)
    d = p.to("movement", side=ALLIED)
    assert p.state.cards["ALC-23"]["status"] != "in_play"
    alger = p.state.units["VFA-Alger"]
    assert alger.side == ALLIED and alger.loc == "A6201" and fna.inactive_vf(p.state, alger)
    assert not [o for o in d.options if any(str(u).startswith("VFA-") for u in o.action.args.get("units", []))]
    exc = p.refuse("move", side=ALLIED, units=["VFA-Alger"], path=["A6101"])
    assert exc.rule == "23.1 ALC-3"


def test_alc_3_vichy_french_units_are_not_inactive_once_alc_23_is_played():
    """After ALC-23 the VF units are neutral (R-VICHY-NEUTRAL), no longer 'inactive' in this sense."""
    p = Play("run-for-tunis", seed=1)

    def torch(d):
        return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == "ALC-23"),
                    None)

    p.run(lambda e: e.state.cards["ALC-23"]["status"] in ("in_play", "discarded"), script={"events": torch})
    alger = p.state.units["VFA-Alger"]
    assert not fna.inactive_vf(p.state, alger) and fna.neutral_vf(alger)
