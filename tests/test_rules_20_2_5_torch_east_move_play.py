"""20.2.5 "They may move to directly to the Torch East Box" (7.3 "They may be moved to the Torch East Box (20.2.6)"),
once ALC-23 makes the box playable (23.1 ALC-21 d), as an off-map move of the Allied Movement Phase (R-TORCH-EAST),
from the Tunisian Campaign's set-up (31.0: the ALC-21/22 units in the Torch Box, 29.2) through ``Engine.apply`` only."""

from __future__ import annotations

from core.decisions import ALLIED, Action, Decision
from core.rules import offmap, strategic_moves
from tests.playpath import Play

AIR = "UK-242Group"          # an air unit in the Torch Box (an air base, 19.1): it does not land, so does not move


def play_alc23(d: Decision) -> Action | None:
    """I.3 of GT 31: the Allied player plays ALC-23 (Operation Torch Invasion)."""
    return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == "ALC-23"),
                None)


def test_20_2_5_torch_units_move_to_the_torch_east_box_only_once_alc_23_is_played():
    p = Play("tunisian-campaign")
    p.to("movement", side=ALLIED)                                  # GT 30, VI.3: ALC-23 not played yet
    assert p.state.gt == 30 and not offmap.fna_in_play(p.eng)
    assert p.state.units["UK-11Bde"].loc == offmap.TORCH
    assert strategic_moves.moves(p.eng, ALLIED) == []              # no off-map moves decision was asked
    assert "before Operation Torch" in strategic_moves.torch_east_refusal(p.eng, "UK-11Bde")
    assert "not a legal choice now" in str(p.refuse("offmap_move", unit="UK-11Bde", to=offmap.TORCH_EAST))

    d = p.to("offmap_moves", side=ALLIED, script={"events": play_alc23})
    assert (p.state.gt, p.eng.step.key) == (31, "VI.3") and offmap.fna_in_play(p.eng)
    offered = {o.action.args["unit"] for o in d.options if o.action.kind == "offmap_move"
               and o.action.args["to"] == offmap.TORCH_EAST}
    in_box = {u.id for u in p.state.units.values() if u.loc == offmap.TORCH}
    assert "UK-11Bde" in offered and "AL-MSU#1" in offered and "US-RP#1" in offered    # combat, supply, RP (20.1)
    assert AIR in in_box and offered == in_box - {AIR, "US-XIIASC"}
    why = p.refuse("offmap_move", unit=AIR, to=offmap.TORCH_EAST)
    assert why.rule == strategic_moves.TORCH_EAST_RULE and "lands" in str(why)

    n = len(p.eng.log)
    p.act("offmap_move", unit="UK-11Bde", to=offmap.TORCH_EAST)
    assert p.state.units["UK-11Bde"].loc == offmap.TORCH_EAST
    assert any("box:Torch to box:TorchEast (20.2.5" in line for line in p.events(n))
    why = p.refuse("offmap_move", unit="UK-11Bde", to=offmap.TORCH_EAST)     # now in the Torch East Box
    assert why.rule == strategic_moves.TORCH_EAST_RULE and "not an Allied unit in the Torch Box" in str(why)
    back = p.refuse("offmap_move", unit="UK-11Bde", to=offmap.TORCH)           # 20.2.6 names no way back
    assert back.rule == strategic_moves.TORCH_EAST_RULE and "may not move to box:Torch" in str(back)
    assert "UK-11Bde" not in {u for u, _ in strategic_moves.moves(p.eng, ALLIED)}
