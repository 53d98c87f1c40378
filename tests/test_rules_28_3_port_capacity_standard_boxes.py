"""R-PORT-CAPACITY (20.1, 12.2.4, 26.3, 27.3, 28.3, 31.3, 32.3, 33.3): a port's capacity is its number of standard
boxes.  28.3 "an Axis base in a port with a capacity of three standard boxes or more": Tobruk (3 standard + 1
limited) is one, Benghazi (2 standard + 2 limited: four boxes) is not.  27.3 "count the standard ports": a port of
limited boxes only (Mersa Brega, Sollum) is no standard port.

Played from the Desert War set-up (28.0, GT 1) through ``Engine.apply`` only: the Axis destroys its bases in Tripoli
and Tobruk (12.2.5 1), trucks an MSU and a dump to Benghazi and makes a base there (12.2.3), then makes one in
Tobruk again."""

from __future__ import annotations

from core import mapdata
from core.rules import naval, victory_rules
from tests.playpath import Play


def test_r_port_capacity_counts_standard_boxes_only():
    """The one definition, at its boundary: exactly three standard boxes vs two standard and limited ones."""
    assert (mapdata.port("C2331").standard, mapdata.port("C2331").limited) == (3, 1)       # Tobruk
    assert (mapdata.port("W2118").standard, mapdata.port("W2118").limited) == (2, 1)       # Mersa Matruh
    assert (mapdata.port("C2308").standard, mapdata.port("C2308").limited) == (2, 2)       # Benghazi
    assert naval.port_capacity("C2331") == 3
    assert naval.port_capacity("W2118") == 2 and naval.port_capacity("C2308") == 2
    assert naval.port_capacity("C0803") == 0                                             # Mersa Brega: 0 + 1


def test_28_3_axis_base_in_benghazi_two_standard_boxes_is_no_victory_tobruk_three_is_desert_war():
    p = Play("desert-war", seed=8)
    p.to("movement", side="Axis")                                   # GT 1 VI.3
    cond = next(c for c in victory_rules.conditions(p.eng) if c.get("kind") == "base_in_port")
    assert cond["rule"] == "28.3"

    def axis_wins() -> bool:
        return victory_rules.holds(p.eng, cond, "Axis")

    p.act("destroy_supply", unit="AX-Base#2", by="IT-17Pavia")       # Tripoli (4 + 2)
    assert p.state.units["AX-Base#1"].loc == "C2331" and axis_wins()        # Tobruk: exactly 3 standard boxes
    p.act("destroy_supply", unit="AX-Base#1", by="IT-62Marmarica")
    assert not axis_wins()
    route = p.eng.query("route", units=["AX-MSU#2", "AX-Dump#2"], to="C2308", road_march=True)
    p.act("move", units=["AX-MSU#2", "AX-Dump#2"], path=route["path"], road_march=True)
    p.act("create_base", hex="C2308")
    assert any(u.loc == "C2308" and u.id.startswith("AX-Base") for u in p.state.units.values())
    assert not axis_wins()                                          # Benghazi: 2 standard (+ 2 limited) boxes
    res = victory_rules.evaluate(p.eng, True)
    assert not (res and res.get("winner") == "Axis" and res.get("rule") == "28.3")
    p.act("create_base", hex="C2331")                               # Tobruk's MSU and dump stayed there
    assert axis_wins()
    res = victory_rules.evaluate(p.eng, True)
    assert res["winner"] == "Axis" and res["rule"] == "28.3"


def test_12_2_4_primary_base_not_replaced_in_benghazi_two_standard_boxes_desert_war():
    """12.2.4 "any friendly port with a capacity of three or more": the same count (Tobruk yes, Benghazi no)."""
    p = Play("desert-war", seed=8)
    p.to("movement", side="Axis")
    p.act("destroy_supply", unit="AX-Base#2", by="IT-17Pavia")       # 1d6 = 5: replaced in GT 4
    d = p.to(step="IV.1", gt=4)
    assert d.kind == "place_primary_base"
    spots = {o.action.args["hex"] for o in d.options}
    assert "C2331" in spots and "L2817" in spots and "C2308" not in spots
    assert p.refuse("place_primary_base", hex="C2308").rule == "12.2.4"


def test_27_3_limited_only_ports_are_not_standard_ports_desert_fox():
    """At the Desert Fox set-up the Allies hold Mersa Brega (0 + 1), Sollum (0 + 1) and Bardia (1 + 0): only
    Bardia and the ports with standard boxes count."""
    p = Play("desert-fox", seed=1)
    maps = tuple(p.state.vars.get("maps") or ())
    allied = [h for h in victory_rules._ports(p.eng) if (not maps or h[:1] in maps)
              and victory_rules.controller(p.eng, h) == "Allied"]
    assert {"C0803", "W2004", "W2104"} <= set(allied)
    standard = [h for h in allied if mapdata.port(h).standard > 0]
    assert "W2104" in standard and "C0803" not in standard and "W2004" not in standard
    assert victory_rules.port_count(p.eng, "Allied") == len(standard) < len(allied)
