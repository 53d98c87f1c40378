"""23.1 ALC-27 c) / ALC-28 Soft Underbelly, played from the real Rommel's War set-up (32.0, GT 10) through
``Engine.apply`` only (issue 16); the hand-built twins are tests/test_events_cards.py::test_alc_28_soft_underbelly_rp_and_extension
and tests/test_ai_admin_cards.py::test_alc_28_withdraws_the_spare_units_and_keeps_the_others.

ALC-27 c): "When all VF units have either been eliminated, surrendered, or joined the Allies, the accord has been
reached"; ALC-28: "On the GT after ALC-27 (Vichy Accord) is complete the Allied player may withdraw US and/or CW
units from the map (they are permanently removed).  a) For every 10 combat factors of US units withdrawn, the US
receives 1 RP the following GT. ... c) For every 20 total (both US and CW) combat factors withdrawn, extend the game
by one GT" (R-EV-SOFT-UNDERBELLY: one unit a declaration, the CF counted over the game).  32.0 has the card by
R-EV-SCENARIO-CARDS (ALC-23 leads to ALC-27, which leads to ALC-28).

The Axis keeps the game going with AXC-4 every GT (and AXC-18 and the Malta invasion from GT 22); the Allies play
ALC-23 on GT 27 (the end marker then stands at the current GT, which it never passes, 4.0, and AXC-4 moves it one on).
On GT 30 the Torch cards' units arrive (R-SC-ROMMEL): they land in Algiers and Tunis (from the Torch East Box, 20.2.6)
and in the Casablanca and Oran boxes (22.7); the Vichy French there are attacked and join the Allies (the die of
the Vichy French Reaction Table is set to 5, "join" on the US column, right before each roll); 2 Arm then moves on
along the FNA road and wins over Meknes in Rabat (GT 30) and Fez (GT 31).  The accord is reached in the GT 32
Events Phase, and ALC-28 is offered on GT 33."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Action, Decision
from core.dice import ScriptedDice, SeededDice
from tests.playpath import Play

JOIN = 5                    # the Vichy French Reaction Table, US column: 5 = join (resources/charts/vichy_reaction.toml)
EAST = ("US-1Arm", "US-34Inf")
LANDING = {"US-1Arm": "box:PortBoxes:T6017", "US-34Inf": "box:PortBoxes:T6017",
           "US-1Inf": "box:PortBoxes:A6201", "US-3Inf": "box:PortBoxes:A6201",
           "US-9Inf": "box:Oran", "US-1Rangers": "box:Oran", "US-2Arm": "box:Casablanca", "US-2509": "box:Casablanca"}


def _play(d: Decision, card: str, **args) -> Action | None:
    return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == card
                 and all(o.action.args.get(k) == v for k, v in args.items())), None)


def _to_accord() -> tuple[Play, ScriptedDice, dict]:
    dice = ScriptedDice([], fallback=SeededDice())
    p = Play("rommels-war", seed=1, dice=dice)

    def events(d: Decision) -> Action | None:
        gt = p.state.gt
        if d.side == AXIS:
            for card, args in (("AXC-4", {}), ("AXC-18", {}), ("AXC-16", {"act": "declare"})):
                if (card == "AXC-4" or gt >= 22) and (a := _play(d, card, **args)) is not None:
                    return a
            return None
        return (_play(d, "ALC-23") or _play(d, "ALC-24")) if gt >= 27 else None

    def reinforce(d: Decision) -> Action | None:                   # 7.3: Torch units to the Torch (East) Box
        to = "box:TorchEast" if d.context.get("unit") in EAST else "box:Torch"
        return next((o.action for o in d.options if o.action.kind == "deploy" and o.action.args.get("to") == to), None)

    def ship(d: Decision) -> Action | None:                         # IV.4 (20.2.5, 20.2.6)
        uid = d.options[0].action.args.get("unit")
        return next((o.action for o in d.options if o.action.args.get("to") == LANDING.get(uid)), None)

    def place(d: Decision) -> Action | None:                        # VI.1 (20.1)
        to = LANDING.get(d.context.get("unit"), "")
        to = to if to.startswith("box:PortBoxes:") else "box:PortBoxes:" + to
        return next((o.action for o in d.options if o.action.args.get("to") == to), None)

    script = {"events": events, "reinforce": reinforce, "ocean_shipping": ship, "port_placement": place}
    p.to("fna_box_combat", side=ALLIED, gt=30, script=script)
    assert p.state.cards["ALC-23"]["played_gt"] == 27
    assert {uid: p.state.units[uid].loc for uid in LANDING} == LANDING
    n = len(p.eng.log)
    dice.push(JOIN)
    p.act("fna_box_attack", box="box:Casablanca", attackers=["US-2509", "US-2Arm"])
    dice.push(JOIN)
    p.act("fna_box_attack", box="box:Oran", attackers=["US-1Rangers", "US-9Inf"])
    p.to("combat_declare", side=ALLIED)
    p.act("declare", attackers=["US-1Inf", "US-3Inf"], hexes=["A6201"], form="amphibious")
    p.act("declare", attackers=["US-1Arm", "US-34Inf"], hexes=["T6017"], form="amphibious")
    dice.push(JOIN)
    dice.push(JOIN)
    p.act("done")
    p.to("movement", side=ALLIED, step="XII.3", script=script)
    assert p.events(n).count("Vichy French reaction: join (23.1 ALC-21 i)") == 4
    p.act("fna_move", units=["US-2509", "US-2Arm"], to="box:Rabat")
    p.to("fna_box_combat", side=ALLIED, script=script)
    dice.push(JOIN)
    p.act("fna_box_attack", box="box:Rabat", attackers=["US-2509", "US-2Arm"])
    p.to("movement", side=ALLIED, gt=31, script=script)
    p.act("fna_move", units=["US-2Arm"], to="box:Fez")
    p.to("fna_box_combat", side=ALLIED, script=script)
    dice.push(JOIN)
    p.act("fna_box_attack", box="box:Fez", attackers=["US-2Arm"])
    vf = [u for u in p.state.units.values() if u.id.startswith("VFA-") and "RP" not in u.id]
    assert len(vf) == 10 and all(u.flags["vichy"] == "joined" for u in vf)
    return p, dice, script


def test_23_1_alc_28_play_path_rommels_war_soft_underbelly_the_gt_after_the_vichy_accord_rp_and_a_gt_per_cf():
    p, _, script = _to_accord()
    d = p.to("events", side=ALLIED, gt=32, script=script)
    assert p.state.cards["ALC-27"]["accord_gt"] == 32                      # reached in this Events Phase (c)
    assert _play(d, "ALC-28") is None                                      # not yet: the GT after
    d = p.to("events", side=ALLIED, gt=33, script=script)
    assert p.state.cards["ALC-28"]["status"] == "active"
    offered = {tuple(o.action.args["units"]) for o in d.options if o.action.args.get("card") == "ALC-28"}
    assert {("US-1Arm",), ("US-1Inf",), ("US-34Inf",)} <= offered
    assert ("US-2Arm",) not in offered                                    # in an FNA box, not on the map

    def reinf() -> list[dict]:                                             # the US RP arriving next GT (a)
        return [i for i in p.state.vars.get("reinf", []) if i.get("unit") == "US-RP" and i.get("gt") == 34]

    n = len(p.eng.log)
    end = p.state.end_gt
    p.act("play_card", card="ALC-28", units=["US-1Arm"])                    # 8 US CF: under 10, no RP
    assert p.state.units["US-1Arm"].loc == "removed" and reinf() == []
    p.act("play_card", card="ALC-28", units=["US-1Inf"])                    # 14: the first 10, one RP (a)
    assert len(reinf()) == 1 and p.state.end_gt == end                      # 14 in all: under 20, no GT
    p.act("play_card", card="ALC-28", units=["US-34Inf"])                   # 20: a second RP and one GT more (c)
    assert len(reinf()) == 2 and p.state.end_gt == end + 1
    assert [e for e in p.events(n) if "20 CF withdrawn (23.1 ALC-28 c)" in e and e.startswith("End scenario")]
    assert p.state.cards["ALC-28"]["withdrawn_cf"] == 20
