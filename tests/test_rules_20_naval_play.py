"""Play-path tests (issue 16) for coastal shipping and the naval strikes on it, from the real Desert War set-up
(28.0, GT 1 phase 6: the Axis holds Tobruk and Benghazi, AXC-1/AXC-2) through ``Engine.apply`` only.

* 20.3 coastal shipping: an Axis infantry division in Tobruk ships to Benghazi, waits in its port boxes and lands
  in the next Axis Movement Phase.
* 20.4.2 Coastal Shipping Strikes (``fleet_strike_box``): ALC-12 Taranto, forced on GT 9 (R-CRD-TARANTO), brings
  the fleets; on GT 10 the Med Fleet is allocated to the Coastal Missions Box (IV.5) and in the next Allied
  Movement Phase strikes the Axis unit waiting in the Benghazi port boxes (19.9.1, +1 port box).
* 19.9.2 Coastal Shipping Strikes by air: the Axis plays AXC-5 on GT 2, so ALC-16 (Greek Campaign) brings
  201 Group (long range, naval) on GT 14; deployed to the North Africa Box on GT 15 it strikes Axis coastal
  shipping (20.3.1) after the Axis Movement Phase."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Action, Decision
from tests.playpath import Play

MARMARICA = "IT-62Marmarica"           # 28.1: AXC-2 sets it up in Tobruk
TOBRUK, BENGHAZI = "C2331", "C2308"


def choose(kind: str, **args):
    """A script entry: the offered option of ``kind`` whose args contain ``args`` (else pass)."""
    def pick(d: Decision) -> Action | None:
        return next((o.action for o in d.options
                     if o.action.kind == kind and all(o.action.args.get(k) == v for k, v in args.items())), None)
    return pick


def desert_war_axis_movement(gt: int, **script) -> Play:
    p = Play("desert-war", seed=1)
    p.to("movement", side=AXIS, gt=gt, script=script)
    assert p.state.units[MARMARICA].loc == TOBRUK
    return p


def ship_marmarica_to_benghazi(p: Play) -> None:
    p.act("coastal_ship", units=[MARMARICA], to=BENGHAZI)
    assert p.state.units[MARMARICA].loc == f"box:PortBoxes:{BENGHAZI}"


def hits_lost(p: Play, said: list[str], head: str, tail: str) -> None:
    """The strike's hits (19.9.1 dice of the seeded game) fall on the cargo waiting in the receiving port boxes:
    the Axis player chooses the first loss (19.9.2 alternate selection, the targeted player first)."""
    line = next(e for e in said if e.startswith(head))
    hits = int(line[len(head):].split(" hit")[0])
    assert line.endswith(tail) and hits in (0, 1, 2)
    if hits:
        d = p.pending
        assert d.kind == "strike_loss" and d.side == AXIS and [o.action.args["unit"] for o in d.options] == [MARMARICA]
        p.pass_()
    else:
        assert p.pending.kind != "strike_loss"
    assert p.state.units[MARMARICA].steps == 2 - min(hits, 2) or p.state.units[MARMARICA].loc.startswith("box:Destroyed")


def test_20_3_axis_coastal_shipping_from_tobruk_waits_in_the_benghazi_port_boxes_and_lands_next_movement_phase():
    p = desert_war_axis_movement(10)
    assert p.refuse("coastal_ship", units=[MARMARICA], to="C2410").rule == "20.3"      # Barce is no port
    ship_marmarica_to_benghazi(p)
    assert any("coastal shipping" in e and "20.3" in e for e in p.events())
    again = desert_war_axis_movement(10)
    again.act("move", units=[MARMARICA], path=["C2330"])
    assert again.refuse("coastal_ship", units=[MARMARICA], to=BENGHAZI).rule == "20.3"   # it has moved
    p.pass_()
    p.to("movement", side=AXIS)
    assert p.state.units[MARMARICA].loc == BENGHAZI                                        # landed (20.1)


def test_20_4_2_med_fleet_in_the_coastal_missions_box_strikes_the_axis_units_in_the_benghazi_port_boxes():
    p = desert_war_axis_movement(10, fleet_allocation=choose("fleet_allocate", fleet="UK-MedFleet", mission="coastal"))
    assert p.state.cards["ALC-12"]["played_gt"] == 9 and p.state.units["UK-MedFleet"].loc == "box:CoastalMissions"
    ship_marmarica_to_benghazi(p)
    p.pass_()
    p.to("movement", side=ALLIED)
    assert p.option("fleet_strike_box", fleet="UK-MedFleet", port=BENGHAZI) is not None
    assert p.refuse("fleet_strike_box", fleet="UK-MedFleet", port=TOBRUK).rule == "20.4.2"   # nobody in its boxes
    n = len(p.eng.log)
    p.act("fleet_strike_box", fleet="UK-MedFleet", port=BENGHAZI)
    said = p.events(since=n)
    assert any("port box strike" in e for e in said) and any("strikes the Axis port boxes of C2308" in e for e in said)
    hits_lost(p, said, "UK-MedFleet strikes the Axis port boxes of C2308: ", "(20.4.2; 19.9.1 +1 port box)")
    assert any(e.startswith("19.3 mission damage for UK-MedFleet") for e in said)     # then checks damage
    assert p.state.units["UK-MedFleet"].flags["support_used"].startswith("10:")        # its mission this impulse
    while p.pending.kind != "movement":
        p.pass_()
    # the fleet has flown its mission (one per impulse, 20.4.2; in port after its 19.3 check): no second strike
    assert p.option("fleet_strike_box") is None
    assert p.refuse("fleet_strike_box", fleet="UK-MedFleet", port=BENGHAZI).rule == "20.4.2"


def test_19_9_2_long_range_201_group_in_north_africa_strikes_axis_coastal_shipping_after_the_axis_movement_phase():
    p = desert_war_axis_movement(15, events=choose("play_card", card="AXC-5"),
                                 air_deploy=choose("air_deploy", unit="UK-201Group", to="box:AirNA:Allied"))
    assert p.state.units["UK-201Group"].loc == "box:AirNA:Allied"
    assert p.state.units["UK-202Group"].loc == "box:AirNA:Allied"
    ship_marmarica_to_benghazi(p)
    d = p.to("coastal_strikes")
    assert d.side == ALLIED and d.rule == "19.9.2; 20.3" and p.eng.step.key == "X.1"     # after the Axis moved
    # 20.3.1: long-range 201 Group strikes; short-range 202 Group only with an Allied Cyrenaica naval airfield
    assert [o.action.args.get("unit") for o in d.options] == [None, "UK-201Group"]
    assert p.refuse("coastal_strike", unit="UK-202Group").rule == "19.9.2; 20.3"
    n = len(p.eng.log)
    p.act("coastal_strike", unit="UK-201Group")
    p.act("done")
    said = p.events(since=n)
    assert any("naval strike by UK-201Group" in e for e in said)
    assert p.state.units["UK-201Group"].flags["coastal_strike"] == "15.9"
    hits_lost(p, said, "Allied coastal shipping strike: ", "(19.9.1; escorts 0)")


SOLLUM_ROAD = ["W2117", "W2116", "W2115", "W2114", "W2113", "W2112", "W2111", "W2110", "W2109", "W2108", "W2107",
               "W2006", "W2005", "W2004"]


def _x_fk_in_crete_med_fleet_on_coastal_missions() -> Play:
    """Desert War, seed 1, to the Allied Movement Phase of GT 21: AXC-5 played and AXC-16 cancelled (j), X FK
    deployed to the Crete Box, the Med Fleet (ALC-12) allocated to coastal missions."""
    p = Play("desert-war", seed=1)
    script = {"events": lambda d: (choose("play_card", card="AXC-5")(d)
                                   or choose("play_card", card="AXC-16", act="cancel")(d)),
              "air_deploy": choose("air_deploy", unit="GE-XFK", to="box:Crete"),
              "fleet_allocation": choose("fleet_allocate", fleet="UK-MedFleet", mission="coastal")}
    p.to("movement", side=ALLIED, gt=21, script=script)
    return p


def test_20_4_2_19_9_1_x_fk_in_crete_strikes_the_med_fleet_supporting_an_allied_attack_on_bardia():
    """AXC-16 a) holds X Fliegerkorps in Sicily until the Malta invasion is declared or cancelled; the Axis cancels
    it on GT 21 (j) and deploys X FK to the Crete Box (19.1.1: Maps C and W).  The Allies attack the Bardia
    garrison (W2104, a coastal hex of Map W) from Sollum and commit the Med Fleet to naval ground support; before
    the combat the Axis may strike the fleet (20.4.2, 19.9.1) with naval air units whose box covers the hex."""
    p = _x_fk_in_crete_med_fleet_on_coastal_missions()
    assert p.state.cards["AXC-16"]["cancelled"] == 21
    assert p.state.units["GE-XFK"].loc == "box:Crete" and p.state.units["UK-MedFleet"].loc == "box:CoastalMissions"
    p.act("move", units=["IN-11IndBG"], path=SOLLUM_ROAD)
    p.to("combat_declare", side=ALLIED)
    p.act("declare", attackers=["IN-11IndBG"], hexes=["W2104"])
    p.pass_()                                                       # no more declarations
    d = p.pending
    assert d.kind == "combat_support" and p.option("support", unit="UK-MedFleet") is not None
    n = len(p.eng.log)
    p.act("support", unit="UK-MedFleet")
    d = p.pending
    assert d.kind == "combat_fleet_strike" and d.side == AXIS and "20.4.2" in d.rule
    assert [o.action.args["unit"] for o in d.options] == ["GE-XFK", None]
    assert "20.4.2" in p.refuse("fleet_strike", unit="IT-Libya").rule          # no naval rating (19.9)
    p.act("fleet_strike", unit="GE-XFK")
    assert [o.action.args["unit"] for o in p.pending.options] == [None]        # each striker once
    p.act("fleet_strike", unit=None)
    said = p.events(since=n)
    assert any(e.startswith("19.9.1 naval strike by GE-XFK") for e in said)
    assert any(e.startswith("19.3 mission damage for GE-XFK") for e in said)   # the striker checks damage
    hit = any("The naval strike hits Med" in e for e in said)
    fleet = p.state.units["UK-MedFleet"]
    assert hit == (fleet.flags.get("hit", False) or fleet.loc.startswith("track:TRT"))
    assert hit == any("it gives no ground support (20.4.2)" in e for e in said)  # a hit fleet gives no support


def test_19_9_2_20_4_2_x_fk_in_crete_strikes_the_med_fleet_placed_for_a_shore_bombardment_of_tobruk():
    """19.9.2 Strikes on Fleets / 20.4.2: an Allied fleet in the Coastal Missions Box placed next to a coastal hex for
    a mission in the Allied Movement Phase may be struck by Axis naval air units in reach first; a hit fleet checks
    damage and its mission is cancelled.  The same Desert War game as above (X FK in the Crete Box on GT 21, ALC-12's
    Med Fleet on coastal missions): the Med Fleet bombards the Axis base in Tobruk (C2331, 19.8)."""
    p = _x_fk_in_crete_med_fleet_on_coastal_missions()
    base = next(u.id for u in p.state.units_at("C2331") if u.side == AXIS and u.id.startswith("AX-Base"))
    assert not p.state.units[base].disrupted
    n = len(p.eng.log)
    p.act("shore_bombard", fleet="UK-MedFleet", hex="C2331", target=base)
    d = p.pending
    assert d.kind == "fleet_mission_strike" and d.side == AXIS and "19.9.2" in d.rule
    assert [o.action.args["unit"] for o in d.options] == ["GE-XFK", None]
    assert p.refuse("fleet_mission_strike", unit="IT-Libya").rule == "19.9.2"       # no naval rating (19.9)
    p.act("fleet_mission_strike", unit="GE-XFK")
    assert p.pending.kind == "movement" and p.pending.side == ALLIED               # back to the Allied moves
    said = p.events(since=n)
    assert any(e.startswith("19.9.1 naval strike by GE-XFK") for e in said)
    assert any(e.startswith("19.3 mission damage for GE-XFK") for e in said)     # the striker checks damage
    assert any(e.startswith("19.3 mission damage for UK-MedFleet") for e in said)  # so does the fleet, hit or not
    hit = any("its shore bombardment is cancelled (20.4.2)" in e for e in said)
    bombarded = any("19.8 shore bombardment by UK-MedFleet" in e for e in said)
    assert hit != bombarded                                                       # a hit fleet bombards nothing
    if hit:
        assert not p.state.units[base].disrupted
