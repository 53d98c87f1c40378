"""23.1 ALC-3 "Important: These units are not active until ALC-23 (Operation Torch Invasion) is played" (22.7: French
North Africa is out of play until then), from Run for Tunis's set-up (29.0: the Vichy French of ALC-3 set up, ALC-23
available) through ``Engine.apply`` only: before ALC-23 the Allied player is not offered, and is refused, a move of a
VF unit; after it, Torch lands in the Casablanca box and attacks the Vichy French there (the play-path twin of the
hand-built FNA box tests in ``tests/test_cards_vichy_retreat.py``)."""

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


def test_22_7_torch_lands_in_the_casablanca_box_and_attacks_the_vichy_french_there_play_path():
    """Operation Torch on the play path (Run for Tunis GT 31): ALC-23 is played in I.3; in IV.4 the Allied player
    ships the combat units of the Torch Box to the Casablanca box (20.2.5; 22.7 "Casablanca and Oran each have a port
    capacity of three standard boxes"), places them in its port boxes at VI.1 and they land in the box; before the
    Combat Phase (VIII.1) he may attack the Vichy French there (22.7 "Combat can occur in the boxes but is limited to
    Allied attacks on Vichy French units"): the Vichy French Reaction Table is consulted first ("Check for VF reaction
    before combat"), and the box is fought once that phase (R-FNA-BOX-COMBAT)."""
    def torch(d):
        for o in d.options:
            a = o.action
            if a.kind == "play_card" and a.args.get("card") == "ALC-23":
                return a
            if a.kind in ("ship", "port_place") and "Casablanca" in str(a.args.get("to")):
                if not str(a.args.get("unit", "")).startswith(("UK-", "US-")):       # supply waits (box room)
                    return next(x.action for x in d.options if x.action.kind in ("ship_stay", "port_stay"))
                return a
        return None

    script = {k: torch for k in ("events", "ocean_shipping", "port_placement")}
    p = Play("run-for-tunis", seed=1)
    d = p.to("fna_box_combat", side=ALLIED, script=script)
    assert p.state.gt == 31 and p.eng.step.key == "VIII.1"
    landed = [u.id for u in p.state.units_at("box:Casablanca") if u.side == ALLIED and not u.id.startswith("VFA-")]
    assert landed and all(not fna.inactive_vf(p.state, p.state.units[v]) for v in ("VFA-Casablanca", "VFA-Marrakech"))
    attack = next(o.action for o in d.options if o.action.kind == "fna_box_attack")
    assert attack.args["box"] == "box:Casablanca" and set(attack.args["attackers"]) <= set(landed)
    e = p.eng.apply(attack)
    assert any("Vichy French Reaction Table" in ev for ev in e.events)
    p.run(lambda eng: eng.pending() is not None and eng.pending().kind in ("fna_box_combat", "combat_declare")
          and eng.pending().side == ALLIED)
    if p.pending.kind == "fna_box_combat":
        assert not [o for o in p.pending.options if o.action.args.get("box") == "box:Casablanca"]


def test_23_1_alc_27_c_neutral_vichy_french_get_no_allied_general_supply_after_alc_23_play_path():
    """23.1 ALC-21 i "VF units may not attack and/or move (except as a result of combat) until ALC-27 (Vichy Accord)
    is complete"; ALC-27 c "When all VF units have either been eliminated, surrendered, or joined the Allies, the
    accord has been reached and Vichy France becomes an active Allied power"; 12.5 "GenS for each unit is determined
    at the beginning of each friendly Movement Phase".  Run for Tunis GT 31: ALC-23 is played in I.3 and the VF are
    neutral; at the Allied VI.1 no Allied general supply is determined for them (they were marked isolated and
    disrupted, as Allied units cut off at Algiers and Tunis).  A VF unit that joins the Allies is an Allied unit and
    gets its status (the limit, on a copy of the same position)."""
    from core.rules import supply
    from core.dice import SeededDice

    def torch(d):
        return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == "ALC-23"),
                    None)

    p = Play("run-for-tunis", seed=1)
    p.run(lambda e: e.state.cards["ALC-23"]["status"] in ("in_play", "discarded"), script={"events": torch})
    n = len(p.eng.log)
    p.to("movement", side=ALLIED)
    assert p.state.gt == 31 and p.eng.step.key == "VI.3"
    vf = [u for u in p.state.units.values() if u.id.startswith("VFA-")]
    on_map = [u for u in vf if u.loc in ("A6201", "T6017")]
    assert on_map and all(fna.neutral_vf(u) for u in vf)
    assert not any(u.ogs or u.isolated or u.disrupted for u in vf)
    assert not any("isolated (12.5)" in e for e in p.events(n))
    assert not set(supply.gens_status(p.state, ALLIED)) & {u.id for u in vf}
    joined = p.eng.fork(SeededDice()).state
    joined.units["VFA-Alger"].flags["vichy"] = "joined"
    assert "VFA-Alger" in supply.gens_status(joined, ALLIED)
