"""22.1 c), d) entering the map from the NRV, played from Sonnenblume's set-up (26.2: 18 Aus BG and the Polish
brigade, foot, MA 14, in the NRV Box) to the first Allied Movement Phase (GT 10 XV) through ``Engine.apply`` only:
the play-path twins of ``tests/test_rules_13_transport.py::test_22_1_*`` (G-EXIT-COST)."""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import tec
from core.rules.status import movement_allowance
from tests.playpath import Play


def sonnenblume_allied_movement() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=ALLIED)
    assert movement_allowance(p.state.units["AU-18AusBG"]) == 14 and p.state.units["AU-18AusBG"].loc == "box:NRV"
    return p


def test_22_1_c_w1434_costs_14_mp_play_path():
    """22.1 c): entering at W1434 costs 14 MP: 18 Aus BG (MA 14) enters (limit) but may not go on to W1433 in the same
    move (limit + 1, refused citing 13.2)."""
    p = sonnenblume_allied_movement()
    exc = p.refuse("move", side=ALLIED, units=["AU-18AusBG"], enter="box:NRV", path=["W1434", "W1433"])
    assert exc.rule == "13.2"
    p.act("move", side=ALLIED, units=["AU-18AusBG"], enter="box:NRV", path=["W1434"])
    assert p.state.units["AU-18AusBG"].loc == "W1434"
    assert p.pending.context["moved"]["AU-18AusBG"] == 14 * tec.EIGHTH


def test_22_1_d_w2234_costs_14_primary_road_hexes_play_path():
    """22.1 d): entering at W2234 costs what 14 primary road hexes cost the unit's class (foot: ½ MP a hex, 7 MP), and
    the unit moves on: the Polish brigade reaches W2233 for 7 + ½ MP."""
    p = sonnenblume_allied_movement()
    p.act("move", side=ALLIED, units=["PL-Polish"], enter="box:NRV", path=["W2234", "W2233"])
    assert p.state.units["PL-Polish"].loc == "W2233"
    assert p.pending.context["moved"]["PL-Polish"] == 15 * tec.road_cost("foot", "primary")
