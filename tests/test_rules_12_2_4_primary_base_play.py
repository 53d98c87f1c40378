"""12.2.4 "If the primary base is destroyed for any reason ... The Axis player rolls 1d6 and halves the result (round
up). The modified result is the number of GTs required to replace the primary base", played from the real Desert War
set-up (28.0, GT 1) through ``Engine.apply`` only (issue 16).  The hand-built twin is
tests/test_rules_12_bases.py::test_12_2_4_primary_base_lost_empties_boxes_and_roll_halved.

In the first Axis Movement Phase the Axis destroys its own primary base in Tripoli (12.2.5 1: a supply unit stacked
with a friendly combat unit in general supply at the beginning of a friendly Movement Phase).  With seed 8 the die
is 5: halved and rounded up, three GTs (rounded down it would be two), so the base is replaced at the beginning of
the Allocation Phase (IV.1) of GT 4 and not of GT 3, in a friendly port with a capacity of three or more."""

from __future__ import annotations

from core.rules import supply
from tests.playpath import Play


def test_12_2_4_play_path_desert_war_destroyed_primary_base_is_replaced_in_a_port_of_capacity_3_after_the_gts_rolled():
    p = Play("desert-war", seed=8)
    p.to("movement", side="Axis")
    assert supply.axis_primary(p.state).loc == "L2817"
    n = len(p.eng.log)
    p.act("destroy_supply", unit="AX-Base#2", by="IT-17Pavia")
    assert any("rolled 5" in e for e in p.events(n))
    assert any("5 halved = 3" in e and "replaced in GT 4" in e and "(12.2.4)" in e for e in p.events(n))
    assert p.state.vars["primary_base_lost"] == {"gt": 1, "return_gt": 4}
    assert supply.axis_primary(p.state) is None and "AX-Base#2" not in p.state.units

    # GT 3 (two GTs after the loss): the Allocation Phase offers no replacement yet
    d = p.to(step="IV.1", gt=3)
    assert d.kind != "place_primary_base" and "primary_base_lost" in p.state.vars
    # GT 4: the Axis must place it, in a friendly port of capacity 3+ only
    d = p.to(step="IV.1", gt=4)
    assert d.kind == "place_primary_base" and d.side == "Axis" and d.rule == "12.2.4"
    spots = {o.action.args["hex"] for o in d.options}
    # R-PORT-CAPACITY: a port's capacity is its standard boxes
    assert "L2817" in spots and "C2331" in spots                   # Tripoli 4, Tobruk 3 (the limit)
    assert "C2308" not in spots and "C2821" not in spots           # Benghazi 2 (limit - 1), Derna 1
    assert p.refuse("place_primary_base", hex="C2308").rule == "12.2.4"
    assert p.refuse("place_primary_base", hex="C0701").rule == "12.2.4"
    n = len(p.eng.log)
    p.act("place_primary_base", hex="C2331")
    assert any("replaced at C2331" in e for e in p.events(n))
    pb = supply.axis_primary(p.state)
    assert pb is not None and pb.loc == "C2331" and pb.active                        # 12.2.4: automatically active
    assert "primary_base_lost" not in p.state.vars and p.state.vars["axis_primary_base"] == "C2331"
    assert p.pending is None or p.pending.kind != "place_primary_base"           # placed once
