"""13.1 "Units may not move off the hex grid unless using off-map movement" and 14.7.2 "Units cannot retreat ...
off the map": in a scenario the hex grid is its "Maps in Play" (24.0-33.0; ruling R-MAPS-IN-PLAY).

Play path: Sonnenblume (26.0, "Maps in Play: Use maps C and W") from its real set-up, driven only by
``Engine.apply``.  The Italians at El Agheila C0701 (printed also as S0734, 2.2.1) stand on the west edge of Map C;
the hexes west of it are on Map S alone, which the scenario does not use.
"""

from __future__ import annotations

from core.hexgrid import Hex
from core.rules import combat, movement
from tests.playpath import Play

EDGE = "C0701"          # = S0734: on Maps C and S, in play (2.2.1)
OFF = "S0733"           # adjacent, on Map S only: not in play in Sonnenblume
ON = "C0702"            # adjacent, on Map C: in play


def _axis_movement() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Axis")
    return p


def test_13_1_move_onto_a_map_not_in_play_is_refused_by_apply():
    p = _axis_movement()
    assert Hex.parse(OFF).sheets == ("S",) and "S" in Hex.parse(EDGE).sheets
    assert p.state.vars["maps"] == ["C", "W"]
    exc = p.refuse("move", units=["IT-132Ariete"], path=[OFF])
    assert exc.rule == "13.1" and "not in play" in str(exc) and "R-MAPS-IN-PLAY" in str(exc)
    # passing through a hex of Map S to come back onto Map C is refused too (the step off the grid)
    exc = p.refuse("move", units=["IT-132Ariete"], path=[OFF, "C0801"])
    assert exc.rule == "13.1"
    # the boundary: the hex printed on both maps and a Map C hex are entered
    p.act("move", units=["IT-132Ariete"], path=[ON])
    assert p.state.units["IT-132Ariete"].loc == ON


def test_13_1_reachable_hexes_and_offered_moves_stay_on_the_maps_in_play():
    p = _axis_movement()
    reach = movement.query_reachable(p.eng, ["IT-132Ariete"])
    assert reach and ON in reach
    assert all(set(Hex.parse(lab).sheets) & {"C", "W"} for lab in reach), \
        sorted(lab for lab in reach if not set(Hex.parse(lab).sheets) & {"C", "W"})
    for o in p.pending.options:
        if o.action.kind == "move":
            assert all(set(Hex.parse(x).sheets) & {"C", "W"} for x in o.action.args["path"])


def test_14_7_2_retreat_never_enters_a_map_not_in_play():
    """The retreat steps offered from El Agheila (the function ``_apply_retreat`` and the retreat decision use)."""
    p = _axis_movement()
    steps = combat.legal_retreat_steps(p.state, "IT-27Brescia", [EDGE], 3)
    assert OFF not in steps and "S0633" not in steps and "S0833" not in steps
    assert ON in steps


def test_20_2_1_ocean_shipping_delivers_only_to_ports_of_the_maps_in_play():
    """Desert Fox (27.0 "Maps in Play: Use maps C and W"; its Axis units "arrive at hex C0701"): the Axis owns no port
    on the maps in play at the start, and Tripoli (L2817) and the other ports of Maps L, S, T and A -- off the grid
    -- are no destination of ocean shipping (they were, by their initial control)."""
    from core.rules import naval

    p = Play("desert-fox", seed=1)
    p.to("movement")
    axis = naval.friendly_ports(p.eng, "Axis")
    assert not [lab for lab in axis if not set(Hex.parse(lab).sheets) & {"C", "W"}], axis
    allied = naval.friendly_ports(p.eng, "Allied")
    assert "box:NRV" in allied and "C2331" in allied            # Tobruk, on Map C (the Allies control C and W)
