"""22.2.1 / 22.2.2 Middle East Tracks, played from Desert War's set-up (28.0: MET AOI and MET Levant active at the
start, ALC-4's units on MET AOI, ALC-5's 7 Ind BG on MET Levant, 7 Lt Arm in the NRV) through ``Engine.apply``
only: the play-path twins of the hand-built tests in ``tests/test_rules_iv_strikes_fleets.py`` (R-MET-MOVES)."""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import strategic_moves
from tests.playpath import Play


def desert_war_offmap_moves() -> Play:
    p = Play("desert-war", seed=1)
    p.to("offmap_moves", side=ALLIED)                 # before the Allied movement step (GT 1 IX.3)
    assert p.state.vars["met"]["AOI"]["active"] and p.state.units["IN-7IndBG"].loc.startswith("track:MET-")
    return p


def test_22_2_1_nrv_to_a_track_once_a_phase_and_a_returned_unit_moves_no_further_play_path():
    """22.2.1: 7 Lt Arm moves from the NRV to MET AOI and is offered no second off-map move that phase (limit: one);
    7 Ind BG (ALC-5, MET Levant) returns to the NRV and may not then enter the map in the same phase (refused, 22.2.1)."""
    p = desert_war_offmap_moves()
    p.act("offmap_move", side=ALLIED, unit="UK-7LtArm", to="track:MET-AOI")
    assert p.state.units["UK-7LtArm"].loc == "track:MET-AOI"
    assert strategic_moves.met_destinations(p.eng, "UK-7LtArm") == []
    p.act("offmap_move", side=ALLIED, unit="IN-7IndBG", to="box:NRV")
    assert p.state.units["IN-7IndBG"].loc == "box:NRV"
    assert not [o for o in p.pending.options if o.action.args.get("unit") in ("UK-7LtArm", "IN-7IndBG")]
    p.act("done", side=ALLIED)
    assert p.pending.kind == "movement"
    exc = p.refuse("move", side=ALLIED, units=["IN-7IndBG"], enter="box:NRV", path=["W2234"])
    assert exc.rule == "22.2.1"


def test_22_2_2_met_combat_once_per_track_in_the_allied_combat_phase_play_path():
    """22.2.2: in the Allied Combat Phase (GT 1 XI) the Allied player may fight once on each active track holding his
    units: AOI is fought (its dice logged, the track marked as fought this phase) and is not offered again, Levant
    still is."""
    p = desert_war_offmap_moves()
    d = p.to("met_combat", side=ALLIED)
    assert p.eng.step.key.startswith("XI") and {o.action.args.get("track") for o in d.options} >= {"AOI", "Levant"}
    e = p.act("met_combat", side=ALLIED, track="AOI")
    assert any("MET AOI combat" in ev and "(22.2.2)" in ev for ev in e.events)
    assert "already fought" in strategic_moves.met_combat_refusal(p.eng, "AOI")
    tracks = {o.action.args.get("track") for o in p.pending.options if o.action.kind == "met_combat"}
    assert tracks == {"Levant"}
