"""13.2.3 / 6.2 road march in the GUI queries: ``route`` and ``reachable`` promise "the path a ``move`` action would
accept", so they offer no road-march path to a player who may not road march at all (the surprised 2nd player of
6.2, disrupted units, combat units out of GenS, in the Reaction Phase, next to an enemy unit).  Before, the
``route`` query drew a road march for 13 Corps in Sonnenblume GT 10 that the ``move`` then refused (6.2).  Played
from the real Sonnenblume set-up (26.0: GT 10 is a surprise turn, the Allies are the 2nd player)."""

from __future__ import annotations

from core.decisions import ALLIED
from tests.playpath import Play


def test_6_2_no_road_march_route_for_the_surprised_2nd_player_and_a_road_march_route_the_next_gt():
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=ALLIED, gt=10)
    assert p.eng.query("route", units=["UK-13Corps"], to="C0804", road_march=True) is None
    assert p.eng.query("reachable", units=["UK-13Corps"], road_march=True) == {}
    assert p.refuse("move", units=["UK-13Corps"], path=["W2117"], road_march=True).rule == "6.2"
    assert p.eng.query("route", units=["UK-13Corps"], to="C1908", road_march=False) is not None

    p.to("movement", side=ALLIED, gt=11)                       # no surprise any more: the road march is drawn
    assert "C2310" in p.eng.query("reachable", units=["UK-13Corps"], road_march=True)
    route = p.eng.query("route", units=["UK-13Corps"], to="C2310", road_march=True)
    p.act("move", units=["UK-13Corps"], path=route["path"], road_march=True)
    assert p.state.units["UK-13Corps"].loc == "C2310"
