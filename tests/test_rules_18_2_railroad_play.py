"""18.2 Egyptian Railroad from a real set-up through ``Engine.apply`` only (issue 16): without scenario
instructions the railhead marker is at Mersa Matruh (W2118, G-RAILHEAD), and an Allied Movement Phase that
begins with a CW MSU on it offers the extension (18.2.1: one or two hexes, east to west)."""

from __future__ import annotations

from core.rules import construction
from tests.playpath import Play


def test_18_2_1_desert_war_extends_the_railroad_one_or_two_hexes_from_mersa_matruh():
    p = Play("desert-war", seed=1)
    d = p.to("movement", side="Allied")
    assert construction.railhead(p.state) == "W2118" and "AL-MSU#1" in {u.id for u in p.state.units_at("W2118")}
    offered = [o.action.args for o in d.options if o.action.kind == "build_rail"]
    assert {"msu": "AL-MSU#1", "hexes": ["W2117", "W2116"]} in offered          # the limit: two hexes
    # limit + 1: three hexes in one Movement Phase are refused
    assert p.refuse("build_rail", msu="AL-MSU#1", hexes=["W2117", "W2116", "W2115"]).rule == "18.2.1"
    n = len(p.eng.log)
    p.act("build_rail", msu="AL-MSU#1", hexes=["W2117", "W2116"])
    assert construction.railhead(p.state) == "W2116"
    assert any("(18.2" in e for e in p.events(n))
