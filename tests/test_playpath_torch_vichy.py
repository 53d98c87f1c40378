"""Play-path tests (issue 16) for Operation Torch against the Vichy French, from the real Run for Tunis set-up
(29.0: GT 30 phase VI, the Allies move first; the Torch forces in the Torch Box, the neutral-to-be Vichy French in
Algiers A6201, Tunis and the French North Africa boxes): the Allies play ALC-23 in the GT 31 Events Phase, ship
Torch units (IV.4, 20.2.5) and place them in port boxes (VI.1, 20.1), and attack the Vichy French.  Only
``Engine.apply`` with offered options or listed free-form kinds (``tests/playpath.py``).

The dice are the game's seeded dice; a test pushes the die of the Vichy French Reaction Table (23.1 ALC-21 i 1)
and of the combat it is about right before the action that rolls it (``ScriptedDice.push``), so each test
reaches the table result it is about whatever the seed."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Decision
from core.dice import ScriptedDice, SeededDice
from core.rules import offmap
from tests.playpath import Play

US = ("US-1Inf", "US-3Inf", "US-1Arm")


def _torch(port_box: str) -> tuple[Play, ScriptedDice]:
    """Run for Tunis to the Allied GT 31 Combat Phase (VIII.1) with 1 Inf, 3 Inf and 1 Arm shipped from the
    Torch Box (IV.4) and placed in ``port_box`` (VI.1); the other cargo stays in the box."""
    dice = ScriptedDice([], fallback=SeededDice())
    p = Play("run-for-tunis", seed=1, dice=dice)
    p.to("events", side=ALLIED, gt=31)
    p.act("play_card", card="ALC-23")                   # 23.1 ALC-21 a): the invasion; the VF become neutral

    def ship(d: Decision):
        if d.options[0].action.args.get("unit") in US:
            return next(o.action for o in d.options if o.action.args.get("to") == "box:Oran")
        return None

    def place(d: Decision):
        if d.context["unit"] in US:
            return next((o.action for o in d.options if o.action.args.get("to") == port_box), None)
        return None

    p.to("combat_declare", side=ALLIED, step="VIII.1", script={"ocean_shipping": ship, "port_placement": place})
    return p, dice


def test_23_1_alc_21_i_4_play_path_run_for_tunis_vf_retreat_from_algiers_is_moved_by_the_axis_player():
    """ALC-21 i): before the US landing at Algiers (an opposed landing from its port boxes, 20.5) is resolved, the
    Vichy French Reaction Table (US column) is consulted: a 3 is "retreat" and the combat is not resolved; "a unit
    forced to retreat is moved by the non-attacking player" — the Axis player, one hex (14.7), not the Allies."""
    p, dice = _torch("box:PortBoxes:A6201")
    assert {p.state.units[u].loc for u in US} == {"box:PortBoxes:A6201"}
    d = p.pending
    landing = [o.action for o in d.options if o.action.args.get("form") == "amphibious"]
    assert [a.args["hexes"] for a in landing] == [["A6201"]]
    n = len(p.eng.log)
    p.eng.apply(landing[0])
    dice.push(3)
    p.act("done")
    d = p.pending
    assert d.kind == "vichy_retreat" and d.side == AXIS and "ALC-21 i 4" in d.rule
    assert {o.action.args["to"] for o in d.options} == {"A6101", "A6102", "A6202"}
    exc = p.refuse("vichy_retreat", side=ALLIED, unit="VFA-Alger", to="A6202")
    assert "ALC-21 i 4" in exc.rule
    p.act("vichy_retreat", unit="VFA-Alger", to="A6202")
    p.act("vichy_retreat", unit="VFA-Constantine", to="A6202")
    events = p.events(since=n)
    assert "Vichy French reaction: retreat (23.1 ALC-21 i)" in events
    assert "Axis retreats the Vichy French VFA-Alger from A6201 to A6202 (23.1 ALC-21 i 4; 14.7)" in events
    assert not [e for e in events if " on line " in e]                      # the combat is not resolved
    assert p.state.units["VFA-Alger"].steps == 2 and p.state.units["VFA-Constantine"].loc == "A6202"
    assert {p.state.units[u].loc for u in US} == {"A6201"}                   # the landing clears Algiers (20.5)


def test_14_8_play_path_run_for_tunis_battlefield_supply_after_the_vf_are_destroyed_and_the_us_advance():
    """14.8: the Vichy French retreated from Algiers (above) are attacked in A6202 in the Allies' second Combat
    Phase (XIV); the table says "fight", the CRT eliminates both (no LOS: the Destroyed Box, 8.3; neutral, they are
    neither isolated nor disrupted: no Allied GenS is determined for them, R-VICHY-NEUTRAL), the US
    units that pass their morale checks advance into the vacated hex, and the Allied player may search the
    battlefield: 1d6 at or under the 8 defending steps destroyed (divisional steps count two) places a dump with a
    captured marker there."""
    p, dice = _torch("box:PortBoxes:A6201")
    p.eng.apply(next(o.action for o in p.pending.options if o.action.args.get("form") == "amphibious"))
    dice.push(3)
    p.act("done")
    p.act("vichy_retreat", unit="VFA-Alger", to="A6202")
    p.act("vichy_retreat", unit="VFA-Constantine", to="A6202")
    d = p.to("combat_declare", side=ALLIED, step="XIV.1")
    n = len(p.eng.log)
    p.eng.apply(next(o.action for o in d.options if o.action.args.get("hexes") == ["A6202"]))
    dice.push(1, 6, 6, 1, 1, 1)          # fight; the winter shift (21.1.1, +0); CRT 6: E; three morale checks
    p.act("done")
    d = p.to("combat_battlefield_supply", script={"combat_advance": lambda d: d.options[0].action}, limit=30)
    assert d.side == ALLIED and d.rule == "14.8"
    assert "(8 defending step(s) destroyed)" in d.prompt
    assert {p.state.units[u].loc for u in ("VFA-Alger", "VFA-Constantine")} == {"box:Destroyed:Allied"}
    advanced = [u for u in US if p.state.units[u].loc == "A6202"]
    assert advanced
    dice.push(6)
    p.act("battlefield_supply", attempt=True)
    events = p.events(since=n)
    assert "Vichy French reaction: fight (23.1 ALC-21 i)" in events
    assert "Battlefield supply: 6 <= 8 destroyed step(s): a dump with a captured marker is placed in A6202 (14.8)" in events
    dumps = [u for u in p.state.units_at("A6202") if u.id.startswith("AL-Dump")]
    assert len(dumps) == 1 and dumps[0].captured


def test_22_7_play_path_run_for_tunis_us_infantry_fight_the_vichy_french_in_the_oran_box():
    """22.7: "Combat can occur in the boxes but is limited to Allied attacks on Vichy French units": 1 Inf, 3 Inf
    and 1 Arm landed in the Oran box attack VFA-Oran before the Combat Phase's attacks; the table says "fight"
    and the combat is resolved on the CRT (R-FNA-BOX-COMBAT): the Allied player picks the first VF step lost
    (14.6), the survivor retreats one box along the road, moved by the Axis player (ALC-21 i 4)."""
    p, dice = _torch("box:PortBoxes:box:Oran")
    assert {p.state.units[u].loc for u in US} == {"box:Oran"}
    d = p.to("fna_box_combat", side=ALLIED)                  # before VIII.1's declarations
    assert [o.action.args.get("box") for o in d.options if o.action.kind == "fna_box_attack"] == ["box:Oran"]
    n = len(p.eng.log)
    dice.push(1, 6)                                          # fight; CRT die 6
    p.act("fna_box_attack", box="box:Oran", attackers=sorted(US))
    d = p.pending
    assert d.kind == "combat_loss" and d.side == ALLIED and d.rule == "14.6"
    p.act("lose_step", unit="VFA-Oran")
    p.to("vichy_retreat", side=AXIS, limit=10)
    p.act("vichy_retreat", unit="VFA-Oran", to="box:Tlemcen")
    events = p.events(since=n)
    assert "Vichy French reaction: fight (23.1 ALC-21 i)" in events
    assert any(e.startswith("Combat in the box:Oran box: defender H") for e in events)
    assert p.state.units["VFA-Oran"].steps == 1 and p.state.units["VFA-Oran"].loc == "box:Tlemcen"
    d = p.pending                                            # each box once per Combat Phase
    assert d.kind != "fna_box_combat" or not [o for o in d.options if o.action.kind == "fna_box_attack"]


def test_23_1_alc_23_play_path_run_for_tunis_torch_invasion_activates_alc_24_and_puts_alc_25_in_play():
    """23.1 ALC-21 a): ALC-23 may be played at the beginning of an Events Phase from GT 27 on (29.0: GT 31, the
    set-up starts after GT 30's Events Phase); e) it activates ALC-24 (Operation Torch, Tunisia), which the Allies
    then declare, and puts ALC-25 (US Inexperience, side 2/+1 up) in play; d) French North Africa is in play and the
    Vichy French are neutral (ALC-21 i)."""
    p = Play("run-for-tunis", seed=1)
    p.to("events", side=ALLIED, gt=31)
    assert p.option("play_card", card="ALC-23") is not None and p.option("play_card", card="ALC-24") is None
    assert not offmap.fna_in_play(p.eng)
    p.act("play_card", card="ALC-23")
    cards = p.state.cards
    assert cards["ALC-23"]["plays"] == 1 and cards["ALC-25"]["status"] == "in_play"
    assert cards["ALC-25"]["side_up"] == "2/+1" and cards["ALC-24"]["status"] != "in_play"
    assert offmap.fna_in_play(p.eng) and p.state.units["VFA-Oran"].flags["vichy"] == "neutral"
    p.act("play_card", card="ALC-24")
    assert cards["ALC-24"]["status"] == "in_play" and cards["ALC-24"]["plays"] == 1
    assert cards["ALC-27"]["status"] == "deck"           # played on the GT after ALC-23 (31.0 reaches it, below)


def test_23_1_alc_27_play_path_tunisian_campaign_vichy_accord_is_played_the_gt_after_torch():
    """23.1 ALC-27 Vichy Accord: scheduled by ALC-23 (played on GT 31) and played on GT 32 (31.0 runs to GT 36);
    with no Vichy French unit joined its b) DRM on the Vichy French Reaction Table is 0."""
    p = Play("tunisian-campaign", seed=1)
    p.to("events", side=ALLIED, gt=31)
    p.act("play_card", card="ALC-23")
    n = len(p.eng.log)
    p.to("events", side=ALLIED, gt=32)
    assert "ALC-27 Vichy Accord is played: scheduled (23.1 ALC-27) (23.1 ALC-27)" in p.events(since=n)
    c = p.state.cards["ALC-27"]
    assert c["status"] == "in_play" and c["played_gt"] == 32 and c["plays"] == 1
    assert p.eng.query("vichy_reaction_drm") == 0


def test_14_9_1_play_path_run_for_tunis_a_battle_marked_unit_at_algiers_is_offered_no_fna_road_move():
    """14.9.1: a unit with a battle marker has completed its movement, so no FNA road move (22.7) offered from
    Algiers names it (the fuzz found one offered, then refused: North African Campaign seed 3)."""
    p, dice = _torch("box:PortBoxes:A6201")
    p.eng.apply(next(o.action for o in p.pending.options if o.action.args.get("form") == "amphibious"))
    dice.push(3)                                             # retreat: the landing clears Algiers
    p.act("done")
    p.act("vichy_retreat", unit="VFA-Alger", to="A6202")
    p.act("vichy_retreat", unit="VFA-Constantine", to="A6202")
    d = p.to("movement", side=ALLIED, step="XII.3")
    assert [o.action.args["units"] for o in d.options if o.action.kind == "fna_move"] == [list(US)]
    p.act("battle_marker", units=["US-1Arm"], form="deliberate")
    offered = [o.action.args["units"] for o in p.pending.options if o.action.kind == "fna_move"]
    assert offered == [["US-1Inf", "US-3Inf"]]
    assert "14.9.1" in p.refuse("fna_move", units=["US-1Arm"], to="box:Orleansville").rule
    p.act("fna_move", units=["US-1Inf", "US-3Inf"], to="box:Orleansville")
