"""The computer opponent's objectives in Desert Fox as the Allies (issue 21, 27.3): the army goes after the Axis base
at C0701 (the Allied smashing victory, "not an Axis base on the map with an overland LOC to C0701") instead of
garrisoning the Axis road and every port far behind the front."""

from __future__ import annotations

import random

import pytest

from core.ai import AIPlayer, goals, ground, search
from core.bots import RandomBot
from core.engine import Engine
from core.hexgrid import Hex
from core.newgame import initial_state
from core.rules import tec, victory_rules
from core.rules.status import hex_of
from core.scenario import load


def first_allied_movement(seed: int = 1) -> Engine:
    """Desert Fox from its set-up, the AI as the Allies and the random bot as the Axis, every action through
    ``Engine.apply``, up to the first Allied Movement Phase decision."""
    eng = Engine(initial_state(load("desert-fox"), seed))
    ai, rnd = AIPlayer("Allied", seed), RandomBot(seed)
    while (d := eng.pending()) is not None and not (d.kind == "movement" and d.side == "Allied"):
        eng.apply(ai.choose(d, eng) if d.side == "Allied" else rnd.choose(d))
    assert eng.pending() is not None
    return eng


@pytest.fixture(scope="module")
def movement() -> Engine:
    return first_allied_movement()


def test_the_axis_road_is_held_by_one_end_not_garrisoned_hex_by_hex(movement):
    # 27.3: the Axis smashing victory needs every hex of the primary road C0701-W2134; the Allies deny it by holding
    # one hex, so only the road's ends are Allied objectives, while the Axis (whose condition it is) wants the road
    # (the ports and bases on the road are objectives of their own conditions, 27.3 more ports and LOC to C0701)
    road = set(victory_rules.primary_road(movement, "C0701", "W2134"))
    road -= set(victory_rules._ports(movement)) | {b for s in ("Axis", "Allied") for b in victory_rules._bases(movement, s)}
    assert len(road) > 50
    assert set(goals.objective_hexes(movement, "Allied")) & road == {"W2134"}
    assert len(set(goals.objective_hexes(movement, "Axis")) & road) > 5


def test_units_far_behind_the_front_go_for_the_axis_base(movement):
    # GT 10: the Axis is 40 hexes from Mersa Matruh; its base (W2118, a smashing-level objective) keeps one
    # garrison, the other units there go for the Axis base at C0701, and the ports of Egypt get no garrison
    ctx = ground.context(movement, "Allied")
    st = movement.state
    at_matruh = sorted(u for u in ctx.role if st.units[u].loc == "W2118")
    assert len(at_matruh) >= 2
    assert [ctx.why[u] for u in at_matruh].count("hold") == 1
    assert all(ctx.role[u] == "C0701" and ctx.why[u] == "take" for u in at_matruh if ctx.why[u] != "hold")
    assert not any(ctx.role[u] in ("W2232", "W2110", "W2104", "W2004") for u in ctx.role)


@pytest.mark.parametrize("far, garrisoned", [(ground.HOLD_FAR, True), (ground.HOLD_FAR + 1, False)])
def test_a_marginal_objective_is_garrisoned_only_with_the_enemy_within_hold_far(movement, far, garrisoned):
    # the port of W2110 (27.3 more ports, a marginal-level objective): one garrison with an enemy unit HOLD_FAR
    # hexes away, none one hex farther (the enemy strength is set by hand on the real GT 10 position)
    ctx = ground.context(movement, "Allied")
    port = Hex.parse("W2110")
    assert ctx.goals.hold.get("W2110", 0) < ground.HOLD_ALWAYS
    gm = tec.current_map()
    enemy = min(h for h in port.ring(far) if gm.on_grid(h) and all(h.distance(Hex.parse(o)) > 8 for o in ctx.goals.hold))
    ctx.enemy_cf = {enemy: 5.0}
    ctx.role.clear()
    ctx.why.clear()
    ground.assign_roles(movement, ctx)
    holders = [u for u in ctx.role if ctx.role[u] == "W2110" and ctx.why[u] == "hold"]
    assert bool(holders) is garrisoned
    if garrisoned:
        assert all(hex_of(movement.state.units[u]).distance(port) <= 10 for u in holders)


def test_a_base_on_a_map_not_in_play_is_no_objective(movement):
    # R-MAPS-IN-PLAY: Desert Fox plays on Maps C and W; an Axis base elsewhere (a hand-moved copy of the real one)
    # is no hex a unit may go to, so it is not an objective
    assert "C0701" in goals.objective_hexes(movement, "Allied")
    eng = search.fork(movement, random.Random(0))
    base = next(u for u in eng.state.units.values() if u.id.startswith("AX-Base") and u.loc == "C0701")
    base.loc = "T6415"
    objs = goals.objective_hexes(eng, "Allied")
    assert "T6415" not in objs and not any(h.startswith("T") for h in objs)


@pytest.mark.parametrize("extra, garrisoned", [(0, False), (1, True)])
def test_far_ports_are_garrisoned_unless_the_port_lead_is_port_lead(movement, monkeypatch, extra, garrisoned):
    # 27.3 marginal victory: the side with more ports.  At GT 10 the Allies hold 9 ports, the Axis none: with a lead
    # of PORT_LEAD the ports of Egypt, 40 hexes from the Axis, get no garrison; with a lead one short of it they do
    lead = victory_rules.port_count(movement, "Allied") - victory_rules.port_count(movement, "Axis")
    assert lead >= 3
    monkeypatch.setattr(ground, "PORT_LEAD", lead + extra)
    ctx = ground.context(movement, "Allied")
    far = [h for h in ctx.goals.hold if h.startswith("W") and ctx.goals.hold[h] < ground.HOLD_ALWAYS]
    assert "W2110" in far
    assert any(ctx.role.get(u) in far and ctx.why[u] == "hold" for u in ctx.role) is garrisoned
