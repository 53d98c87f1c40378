"""18.2 Egyptian Railroad and 18.3 road construction from a real set-up through ``Engine.apply`` only (issue 16): without scenario
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


def test_18_3_1_desert_war_msu_at_sidi_barrani_builds_the_sollum_road_two_hexes_in_the_next_movement_phase():
    """18.3 the secondary road from Sollum (W2004) to Sidi Barrani (W2110); 18.3.1 the MSU begins the Movement
    Phase on the construction end (linked with the completed primary road at W2110) and does not move; one or two
    hexes a phase."""
    p = Play("desert-war", seed=1)
    p.to("movement", side="Allied")
    p.act("move", units=["AL-MSU#1"], path=p.eng.query("route", units=["AL-MSU#1"], to="W2110")["path"])
    assert p.refuse("build_road", msu="AL-MSU#1", road="sollum-sidi-barrani", hexes=["W2109"]).rule == "18.3.1"
    p.act("done")
    p.to("movement", side="Allied")                              # the next Allied Movement Phase
    assert p.state.units["AL-MSU#1"].loc == "W2110"
    assert p.refuse("build_road", msu="AL-MSU#1", road="sollum-sidi-barrani",
                    hexes=["W2109", "W2108", "W2107"]).rule.startswith("18.3")          # limit + 1: three hexes
    n = len(p.eng.log)
    p.act("build_road", msu="AL-MSU#1", road="sollum-sidi-barrani", hexes=["W2109", "W2108"])
    assert "Allied construction advances to W2108 (18.3.1)" in p.events(n)
