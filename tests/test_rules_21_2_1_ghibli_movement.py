"""21.2.1 Ghiblis Effects, Movement: "All MP costs are doubled except for movement along primary and secondary roads.
This includes calculations for supply ranges and exploitation after combat."  6.3 / 21.2: desert and rough hexes only.
Play path: Sonnenblume, seed 6, passing until the first Ghibli an initiative roll brings; the Axis Movement Phase;
only ``Engine.apply``.  (Exploitation: tests/test_rules_21_1_1_exploitation_combat.py.)"""

from __future__ import annotations

import copy

import pytest

from core.decisions import AXIS, Action
from core.engine import Engine
from core.hexgrid import Hex
from core.rules import supply, tec
from core.rules.status import counter_of, tec_class
from tests.playpath import Play


@pytest.fixture(scope="module")
def ghibli_gt() -> Play:
    p = Play("sonnenblume", seed=6)
    p.run(lambda eng: eng.state.ghibli and eng.pending() is not None and eng.pending().kind == "movement"
          and eng.pending().side == AXIS, limit=3000)
    assert p.state.ghibli and p.state.gt in (12, 13)      # May or June 1941
    return p


def mover_next_to_open_desert(p: Play):
    """An Axis motorised unit with an empty desert neighbour entered off the roads, and that neighbour."""
    from core.rules.status import hex_of, is_combat, is_motorized

    st, base = p.state, tec.current_map()
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side != AXIS or hex_of(u) is None or not is_combat(u) or not is_motorized(u):
            continue
        for n in hex_of(u).neighbours():
            c, route = tec.step_cost(base, tec_class(st, u), hex_of(u), n)
            if c and route == "open" and not st.units_at(n.label) and base.hex_terrain(n) == frozenset({"desert"}):
                return u, n
    raise AssertionError("no Axis motorised unit next to open desert")


def test_21_2_1_movement_costs_doubled_off_the_roads(ghibli_gt):
    p = ghibli_gt
    st = p.state
    pz, desert = mover_next_to_open_desert(p)
    a = Hex.parse(pz.loc)
    base = tec.current_map()
    cls = tec_class(st, pz)
    plain, _ = tec.step_cost(base, cls, a, desert)
    doubled, route = tec.step_cost(tec.map_for(st), cls, a, desert)
    assert route == "open" and doubled == 2 * plain                        # a desert hex: doubled
    road = next(((n, c) for n in a.neighbours() if (c := tec.step_cost(base, cls, a, n))[1] == "road"), None)
    if road is not None:
        assert tec.step_cost(tec.map_for(st), cls, a, road[0]) == road[1]   # along the road: not doubled
    calm = Engine(copy.deepcopy(st))                     # the same position without the optional weather rules
    calm.state.vars["weather_rules"] = False
    move = Action(kind="move", side=AXIS, args={"units": [pz.id], "path": [desert.label]})
    calm.apply(move)
    p.act("move", units=[pz.id], path=[desert.label])
    assert p.state.units[pz.id].loc == desert.label
    name = counter_of(pz).name
    spent = {e.rsplit(f"({name} ", 1)[1] for e in p.events()[-2:] if f"({name} " in e}
    spent_calm = {e.rsplit(f"({name} ", 1)[1] for e in calm.log[-1].events if f"({name} " in e}
    mp = lambda x: float(next(iter(x)).split(" MP")[0])                          # noqa: E731
    assert mp(spent) - mp(spent_calm) == tec.mp(doubled - plain)          # the move paid the doubled cost


def test_21_2_1_supply_ranges_shrink_under_a_ghibli(ghibli_gt):
    st = ghibli_gt.state
    with_ghibli = set(supply.supply_lines(st, AXIS, tec.map_for(st)).los)
    without = set(supply.supply_lines(st, AXIS, tec.current_map()).los)  # the same position, no weather
    assert with_ghibli < without                                          # fewer hexes in reach, none new


def test_6_3_no_doubling_where_ghiblis_have_no_effect(ghibli_gt):
    st = ghibli_gt.state
    gm = tec.map_for(st)
    assert gm.weather == "ghibli"
    for lab in ("A6201", "C2312"):                      # Map A (6.3 a); a Jebel Akhdar mountain hex (6.3 c)
        h = Hex.parse(lab)
        assert not tec.ghibli_area_hex(gm, h)
    assert tec.ghibli_area_hex(gm, Hex.parse("C0703"))


def test_21_1_1_winter_movement_doubles_winter_hexes_and_map_c_wadi_crossings_not_roads():
    """21.1 "Map C: All mountain hexes ... and all wadi hexsides"; 21.1.1 the MP costs doubled except along roads;
    6.3 d) a Ghibli never doubles a wadi crossing.  On the real map, through ``tec.map_for`` as every move reads it."""
    from core.newgame import initial_state
    from core.scenario import load

    st = initial_state(load("desert-war"), 1)
    st.gt = 8                                            # January 1941: winter (21.1)
    gm, base = tec.map_for(st), tec.current_map()
    assert gm.weather == "winter"
    cost = lambda m, a, b: tec.step_cost(m, "foot", Hex.parse(a), Hex.parse(b))[0]   # noqa: E731
    assert cost(gm, "C2311", "C2312") == 2 * cost(base, "C2311", "C2312")       # into a Jebel Akhdar mountain hex
    wadi, plain = cost(gm, "C0504", "C0603"), cost(base, "C0504", "C0603")
    assert wadi > plain and cost(gm, "C0702", "C0703") == cost(base, "C0702", "C0703")   # a wadi; open desert not
    assert cost(gm, "C0702", "C0701") == cost(base, "C0702", "C0701")           # along the road
    st.gt, st.ghibli = 13, True                          # June 1941 with a Ghibli: the wadi crossing is not doubled
    g = tec.map_for(st)
    assert g.weather == "ghibli"
    assert cost(g, "C0504", "C0603") - cost(base, "C0504", "C0603") == cost(g, "C0702", "C0703") - cost(base, "C0702", "C0703")
    st.vars["weather_rules"] = False                     # 21.0: the rule is optional
    assert tec.map_for(st) is tec.current_map()
