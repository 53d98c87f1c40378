"""23.2 AXC-19 b) "Any airborne units that are in the Fall Braun Box (from AXC-17) may be airdropped on Map T if air
transport is available", played from the real North African Campaign set-up (33.0, GT 1) through ``Engine.apply``
only (issue 16).  The hand-built twin is tests/test_cards_axc19_fall_braun_airdrop.py.

The Axis plays AXC-5 (Parallel War) on GT 2 and AXC-10 (AfrikaKorps) when it activates: ALC-12 (forced on GT 9,
R-CRD-TARANTO) and AXC-5 put AXC-16 (Operation C3) in play, whose units, and AXC-17's (Herkules, put in play by
AXC-10) airborne units, wait in the Herkules Box; ALC-21 (GT 12) puts AXC-19 in play.  The Axis cancels the Malta
invasion on GT 21 (AXC-16 j: "in any Event Phase after GT 20") and moves the Herkules Box units to the Fall Braun
Box the GT after (AXC-16 k).  It plays AXC-4 (Axis Appeal: +1 GT, two ATP, 26.1) every GT it may, which keeps the
game going against the MET crises (ALC-4, ALC-5) and fills the ATP pool.  The Allies play ALC-23 (Operation Torch)
on GT 27, the first GT they may (ALC-21 a): French North Africa enters play (22.7) and the drop is offered."""

from __future__ import annotations

import pytest

from core.decisions import AXIS, Action, Decision
from core.rules import airdrop, offmap
from tests.playpath import Play

AXIS_CARDS = (("AXC-5", {}), ("AXC-10", {}), ("AXC-16", {"act": "cancel"}), ("AXC-4", {}))


def play(d: Decision, card: str, **args) -> Action | None:
    return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == card
                 and all(o.action.args.get(k) == v for k, v in args.items())), None)


def events(d: Decision) -> Action | None:
    if d.side == AXIS:
        return next((a for c, args in AXIS_CARDS if (a := play(d, c, **args)) is not None), None)
    return play(d, "ALC-23")


def to_fall_braun(d: Decision) -> Action | None:
    return next((o.action for o in d.options if d.side == AXIS and o.action.kind == "offmap_move"
                 and o.action.args.get("to") == offmap.FALL_BRAUN), None)


@pytest.mark.slow          # 27 GTs of the campaign game (~15 s); the hand-built twin runs in every suite
def test_axc_19_b_herkules_airborne_units_drop_from_the_fall_braun_box_on_map_t_once_torch_brings_fna_in():
    p = Play("north-african-campaign", seed=1)
    script = {"events": events, "offmap_moves": to_fall_braun}

    def droppers_offered(eng) -> bool:
        d = eng.pending()
        return d is not None and d.kind == "movement" and d.side == AXIS and bool(airdrop.droppers(eng))

    d = p.run(droppers_offered, script=script)
    st = p.state
    assert st.gt == 27 and st.cards["ALC-23"]["played_gt"] == 27 and offmap.fna_in_play(p.eng)
    assert st.cards["AXC-19"]["status"] == "in_play" and st.cards["AXC-16"]["cancelled"] == 21
    assert set(airdrop.droppers(p.eng)) == {"GE-11Pio", "GE-5FJ", "GE-Barenthin", "GE-Ramcke", "IT-185Folgore"}
    assert st.units["IT-80LaSpezia"].loc == offmap.FALL_BRAUN                       # not airborne: no drop
    drop = next(o.action for o in d.options if o.action.kind == airdrop.KIND)
    uid, to = drop.args["unit"], drop.args["to"]
    assert uid in airdrop.droppers(p.eng) and to.startswith("T")
    assert p.refuse(airdrop.KIND, unit=uid, to="C2331").rule == airdrop.RULE                # Map T only
    assert p.refuse(airdrop.KIND, unit="IT-80LaSpezia", to=to).rule == airdrop.RULE        # not airborne
    atp = airdrop.atp_left(p.eng)
    n = len(p.eng.log)
    p.eng.apply(drop)
    u = p.state.units[uid]
    assert u.loc == to and u.emergency and airdrop.atp_left(p.eng) == atp - 1             # 12.7; 13.7 d
    assert any("15.5" in e for e in p.events(since=n))
    assert p.pending.context["moved"][uid] > 0                                         # no movement after the drop

