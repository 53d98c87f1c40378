"""27.1 c) (R-REINF-DEPLOY), played from the real set-ups: "In addition to the above, one dump or two steps of combat
units may arrive using coastal shipping (20.3). Additionally if the Axis side plays an AXC-4 (Axis Appeal) the Axis
may use air lift (13.7). Units and dumps arriving via these two methods do not count against the total shipping
steps."  32.0 Rommel's War follows 27.0 ("All instructions in 27.0 and 29.0 apply").

* Coastal shipping: the unit ships from Tripoli (L2817) to another Axis controlled port (20.3, 20.3.1), into its port
  boxes, and lands in the next friendly Movement Phase (20.1); one dump or two combat steps per friendly Movement
  Phase.  In Desert Fox no port of Maps C and W is Axis controlled at the start (27.0 "The Allies control all
  hexes, except for those hexes occupied by Axis units"): an Axis unit enters the empty Benghazi first (2.2.2);
  the ports of Tripolitania hold limited port boxes only (20.1: no motorised unit); Tripoli is off the maps in play
  (27.0 "Use maps C and W") and uses no box, while in Rommel's War (all maps) it does.
* Air lift: from Italy (13.7 a) to a friendly airfield or city hex (13.7 e) with ATP, refused before AXC-4 is
  played, accepted after; Agedabia (C0907) becomes Axis controlled when an Axis unit enters it (2.2.2).

Every step is an ``Engine.apply`` of an offered option or of the Movement Phase's free ``arrive`` order.
"""

from __future__ import annotations

from core.decisions import AXIS, Action, Decision
from core.rules import naval, offmap
from tests.playpath import Play

SIRTE, TRIPOLI, AGEDABIA, MERSA_BREGA, BENGHAZI = "S1420", "L2817", "C0907", "C0803", "C2308"


def _appeal(d: Decision) -> Action | None:
    """The Axis plays AXC-4 (Axis Appeal) in its Events Phase."""
    if d.side != AXIS:
        return None
    return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == "AXC-4"),
                None)


def _used(p: Play) -> int:
    return int(p.state.vars.get("shipping_used", {}).get(str(p.state.gt), 0))


def _to_benghazi(p: Play, uid: str = "GE-300Oasis") -> None:
    """2.2.2: an Axis unit entering Benghazi (C2308, empty at the start) makes it an Axis controlled port."""
    d = p.pending
    move = next(o.action for o in d.options if o.action.kind == "move" and o.action.args["units"] == [uid]
                and BENGHAZI in o.action.args["path"])
    path = move.args["path"]
    p.act("move", units=[uid], path=path[:path.index(BENGHAZI) + 1])


def _take_mersa_brega(p: Play, script=None) -> None:
    """GT 10 (24.0-27.0 "Start: GT 10, Phase 12"): 5 Pz and 3 Aufkl attack the 2 SG in Mersa Brega; on GT 11 the
    coast road is open to Benghazi."""
    p.to("movement", side=AXIS, gt=10)
    p.act("move", units=["GE-5Pz", "GE-3Aufkl"], path=["C0802"])
    p.to("combat_declare")
    p.act("declare", attackers=["GE-3Aufkl", "GE-5Pz"], hexes=[MERSA_BREGA])
    p.act("done")
    p.to("movement", side=AXIS, gt=11, script=script)


def test_27_1_c_coastal_shipping_two_combat_steps_or_one_dump_per_phase_outside_the_14_steps_desert_fox():
    p = Play("desert-fox", seed=1)
    _take_mersa_brega(p)
    assert p.refuse("arrive", unit="GE-115", to=BENGHAZI, by="coastal").rule == "20.3"    # not yet Axis controlled
    _to_benghazi(p)
    assert "20.3" in p.refuse("arrive", unit="GE-115", to="C0701", by="coastal").rule      # C0701 is no port
    before = _used(p)
    p.act("arrive", unit="GE-115", to=BENGHAZI, by="coastal")                    # the limit: two combat steps
    assert p.state.units["GE-115"].steps == 2 and p.state.units["GE-115"].loc == naval.box_loc(BENGHAZI)
    assert _used(p) == before                                                    # "do not count against" a)
    exc = p.refuse("arrive", unit="GE-33Aufkl", to=BENGHAZI, by="coastal")       # limit + 1: a third step
    assert exc.rule == "27.1 c" and "one dump or two steps" in str(exc)
    p.act("arrive", unit="GE-33Aufkl", to="C0701")                               # a) and b) are still open
    other = next(u for u in p.eng.query("movement_arrivals", side=AXIS) if u.startswith(("GE-", "IT-")))
    exc = p.refuse("arrive", unit=other, to=BENGHAZI, by="coastal")              # the C0701 arrival does not reset
    assert exc.rule == "27.1 c" and "one dump or two steps" in str(exc)          # c)'s count for the phase
    p.act("done")
    p.to("movement", side=AXIS, gt=12)
    assert p.state.units["GE-115"].loc == BENGHAZI                               # 20.1: landed the next phase
    waiting = p.eng.query("movement_arrivals", side=AXIS)
    dumps = sorted(u for u in waiting if u.startswith("AX-Dump"))
    msu = sorted(u for u in waiting if u.startswith("AX-MSU"))
    assert dumps and msu
    assert p.refuse("arrive", unit=msu[0], to=BENGHAZI, by="coastal").rule == "27.1 c"   # "dump or ... combat units"
    before = _used(p)
    p.act("arrive", unit=dumps[0], to=BENGHAZI, by="coastal")                    # the limit: one dump
    assert _used(p) == before
    assert p.refuse("arrive", unit="GE-33PzJg", to=BENGHAZI, by="coastal").rule == "27.1 c"   # limit + 1: a step


def test_27_1_c_coastal_shipping_from_tripoli_on_the_map_rommels_war():
    """32.0 "All instructions in 27.0 and 29.0 apply": all maps are in play, Tripoli (L2817) and Sirte (S1420) are
    Axis ports; the dump uses a box at each end (20.1 "Port box capacity is used whether the cargo is entering or
    leaving the port")."""
    p = Play("rommels-war", seed=1)
    p.to("movement", side=AXIS, gt=11)
    p.act("arrive", unit="AX-Dump#4", to=SIRTE, by="coastal")
    assert p.state.units["AX-Dump#4"].loc == naval.box_loc(SIRTE)
    assert naval.boxes_used(p.eng, TRIPOLI) != (0, 0)
    assert p.refuse("arrive", unit="GE-33Aufkl", to=SIRTE, by="coastal").rule == "27.1 c"


def test_27_1_c_coastal_shipping_needs_an_axis_controlled_port_desert_fox():
    """27.0: "The Allies control all hexes, except for those hexes occupied by Axis units during set up": Mersa
    Brega (C0803, UK 2 SG) is no Axis port (20.3.1 "to any Axis controlled ports"); Sirte is not on Maps C and W."""
    p = Play("desert-fox", seed=1)
    p.to("movement", side=AXIS, gt=11)
    assert p.refuse("arrive", unit="IT-17Pavia", to=MERSA_BREGA, by="coastal").rule == "20.3"
    assert "27.1 c" in p.refuse("arrive", unit="IT-17Pavia", to=SIRTE, by="coastal").rule
    assert "27.1 c" in p.refuse("arrive", unit="IT-17Pavia", to=MERSA_BREGA, by="sea").rule


def test_27_1_c_air_lift_refused_before_axc_4_is_played_and_accepted_after_desert_fox():
    p = Play("desert-fox", seed=1)
    d = p.to("movement", side=AXIS, gt=11)
    assert p.state.cards["AXC-4"].get("played_gt") is None
    move = next(o.action for o in d.options if o.action.kind == "move" and o.action.args["units"] == ["GE-3Aufkl"]
                and AGEDABIA in o.action.args["path"])
    path = move.args["path"]
    p.act("move", units=["GE-3Aufkl"], path=path[:path.index(AGEDABIA) + 1])      # 2.2.2: Agedabia is Axis now
    exc = p.refuse("arrive", unit="IT-RP#1", to=AGEDABIA, by="airlift")
    assert exc.rule == "27.1 c" and "AXC-4" in str(exc)
    p.act("done")
    p.to("movement", side=AXIS, gt=12, script={"events": _appeal})
    assert p.state.cards["AXC-4"]["played_gt"] == 12 and p.state.vars["atp"][AXIS] == 2
    assert p.state.units["GE-3Aufkl"].loc == AGEDABIA
    assert "13.7 e" in p.refuse("arrive", unit="GE-8PzL", to=AGEDABIA, by="airlift").rule   # no armour by air
    assert "13.7 e" in p.refuse("arrive", unit="IT-RP#1", to="C0701", by="airlift").rule   # no airfield, no city
    before = _used(p)
    p.act("arrive", unit="IT-17Pavia", to=AGEDABIA, by="airlift")                # a divisional 2 steps: both ATP
    assert p.state.units["IT-17Pavia"].loc == AGEDABIA and p.state.vars["atp"][AXIS] == 0
    assert _used(p) == before                                                    # "do not count against" a)
    exc = p.refuse("arrive", unit="IT-RP#1", to=AGEDABIA, by="airlift")          # one ATP more than it has
    assert "13.7 e" in exc.rule and "ATP" in str(exc)
    assert p.state.units["IT-RP#1"].loc == offmap.available(AXIS)


def test_26_1_exception_a_unit_held_in_iii_1_arrives_by_coastal_shipping_sonnenblume():
    """26.1: "All units arrive at hex C0701. Exception: One dump or two steps of combat units may arrive using
    coastal shipping (20.3)."  Its units are deployed in III.1 (7.0); one held off-map (7.1) arrives by coastal
    shipping in the Movement Phase, the same allowance as 27.1 c); air lift only once AXC-4 is played."""
    def hold_pavia(d: Decision) -> Action | None:
        return next((o.action for o in d.options if o.action.kind == "hold" and o.action.args["unit"] == "IT-17Pavia"),
                    None)

    p = Play("sonnenblume", seed=1)
    _take_mersa_brega(p, script={"reinforce": hold_pavia})
    assert p.state.units["IT-17Pavia"].loc == offmap.available(AXIS)
    assert p.refuse("arrive", unit="IT-17Pavia", to=AGEDABIA, by="airlift").rule == "26.1"
    _to_benghazi(p)
    p.act("arrive", unit="IT-17Pavia", to=BENGHAZI, by="coastal")                # two (divisional) steps
    assert p.state.units["IT-17Pavia"].loc == naval.box_loc(BENGHAZI)
