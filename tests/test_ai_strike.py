"""The computer opponent against an enemy victory that needs a base (30.3 "an Axis base on the map with an LOC to
L2909"): the base is a strike objective derived from the victory data, a motorised force is sent at it along the
road, and a base held by supply units alone in a city (13.4.2: no overrun) is attacked (12.2.6, 12.2.7)."""

from __future__ import annotations

from core.ai import AIPlayer, ground
from core.ai import goals as goals_mod
from core.engine import Engine
from core.newgame import initial_state
from core.players import Table, make_player
from core.rules.status import is_motorized
from core.scenario import load
from core.state import Frame, GameState, UnitState


def trail(seed: int = 1) -> Engine:
    return Engine(initial_state(load("trail-of-the-fox"), seed))


def test_the_axis_base_the_axis_victory_needs_is_the_allied_strike_objective():
    eng = trail()
    assert set(goals_mod.goals(eng, "Allied").strike) == {"L2817"}      # Tripoli, the Axis primary base (30.1)
    assert goals_mod.goals(eng, "Axis").strike == {}                     # the Allied victory needs no base (30.3)


def test_a_motorised_force_is_sent_at_the_base_by_the_road():
    from tests.playpath import Play

    p = Play("trail-of-the-fox", seed=1)
    p.to("movement", side="Axis")            # the GT 31 arrivals set up on the east edge (R-SC-TOTF-EDGE)
    eng = p.eng
    ctx = ground.context(eng, "Allied")
    force = [u for u, why in ctx.why.items() if why == "strike"]
    assert 0 < len(force) <= ground.STRIKE_FORCE
    assert all(ctx.role[u] == "L2817" and is_motorized(eng.state.units[u]) for u in force)
    # the road is the cheap way (13.3): a trucked unit at El Agheila is 49 road hexes, 12.25 MP, from Tripoli; the
    # desert due west of the arrival edge costs more than twice that
    assert ctx.travel_mp("L2817", "trucked", ground.Hex.parse("C0701")) == 12.25
    assert ctx.travel_mp("L2817", "trucked", ground.Hex.parse("C0201")) > 2 * 12.25 * 0.8


def _trail_position(units: list[tuple]) -> Engine:
    """Trail of the Fox's victory data, the Allies first player, at the First Player Combat Phase (VIII)."""
    us = {u[0]: UnitState(id=u[0], side=u[1], loc=u[2], steps=u[3], **(u[4] if len(u) > 4 else {})) for u in units}
    return Engine(GameState(scenario="trail-of-the-fox", seed=1, gt=32, phase=8, step=1, initiative="Axis",
                            first_player="Allied", surprise=False, end_gt=33, units=us, vars={"weather_rules": False},
                            stack=[Frame(proc="turn")]))


def test_attacks_the_base_held_by_supply_units_alone():
    # Tripoli (a city: no overrun, 13.4.2) holds the Axis base and a dump, no combat unit; two motorised units next
    # to it attack: any result but No Effect followed by an advance takes the supply units (12.2.6, 12.2.7)
    eng = _trail_position([("AX-Base#1", "Axis", "L2817", 1, {"active": True}), ("AX-Dump#1", "Axis", "L2817", 1),
                           ("IT-Tunisia", "Axis", "L2909", 1),
                           ("UK-78SG", "Allied", "L2717", 1), ("UK-7Motor", "Allied", "L2717", 1)])
    d = eng.pending()
    assert d.kind == "combat_declare" and d.side == "Allied"
    a = AIPlayer("Allied", 1).choose(d, eng)
    assert a.kind == "declare" and a.args["hexes"] == ["L2817"]
    assert sorted(a.args["attackers"]) == ["UK-78SG", "UK-7Motor"]


def test_the_same_attack_is_not_made_on_supply_units_no_victory_needs():
    # the same position without the base: a dump alone is no strike objective (the Axis victory needs a base), and
    # supply units alone are not attacked for their own sake
    eng = _trail_position([("AX-Dump#1", "Axis", "L2817", 1), ("IT-Tunisia", "Axis", "L2909", 1),
                           ("UK-78SG", "Allied", "L2717", 1), ("UK-7Motor", "Allied", "L2717", 1)])
    d = eng.pending()
    assert AIPlayer("Allied", 1).choose(d, eng).kind == "done"


def test_reinforcements_are_not_overstacked_while_an_arrival_hex_has_room():
    # 10.3: a hex over the limit at the end of the phase disrupts every unit in it; the AI fills the east-edge hexes
    # of 30.2 in turn and overstacks one only when every hex it may use (not next to the enemy) is full
    eng = trail(1)
    table = Table.of(make_player("pass", "Axis", 1), make_player("ai", "Allied", 1))
    from core.rules import stacking, tec
    checked = 0
    while (d := eng.pending()) is not None and eng.state.gt < 33:
        side, a = table.choose(eng)
        if side == "Allied" and a.kind == "deploy" and eng.state.gt == 32:
            gm = tec.current_map()
            pts = stacking.stacking_points(eng.state.units[a.args["unit"]])

            def room(h: str) -> bool:
                return sum(stacking.stacking_points(v) for v in eng.state.units_at(h)) + pts <= stacking.limit(gm, h)
            if pts and not room(a.args["to"]):
                hexes = {o.action.args["to"] for o in d.options if o.action.kind == "deploy"}
                assert not any(room(h) and not h.startswith("box") for h in hexes
                               if ground.Hex.parse(h).distance(ground.Hex.parse("C0701")) > 1)
            checked += pts > 0
        eng.apply(a)
    assert checked >= 10


def test_the_first_base_is_made_on_the_way_and_active_a_gt_later():
    """12.2.3 with no base on the map: the Allied MSU drive toward El Agheila (S0734 = C0701), where 30.2 sends the
    Allied dumps each GT (the scenario's reinforcement schedule); out of reach in GT 31, two MSU carry the last two
    dumps (kept from 12.3 b and 12.7) as far toward Tripoli as they get, make the first base there, and the
    Allocation Phase of GT 32 activates it."""
    from core.ai.admin_supply import dump_arrival_hexes
    from core.bots import RandomBot
    from core.players import Table

    eng = trail()
    assert [h.label for h in dump_arrival_hexes(eng, "Allied")] == ["C0701"]
    allied = AIPlayer("Allied", 1)
    table = Table.of(RandomBot(1, "Axis"), allied)
    while (eng.state.gt, eng.state.phase) < (32, 5):
        eng.apply(table.choose(eng)[1])
    bases = [u for u in eng.state.units_of("Allied") if u.id.startswith("AL-Base")]
    assert len(bases) == 1 and bases[0].active
    assert any("first base at" in p for p in allied.plans)


def test_the_enemy_units_that_stop_the_strike_on_its_way_are_blockers():
    # the way from L2023 to Tripoli is the coast road (13.3) through L2620, L2720, L2719; an enemy stack on it, or a
    # motorised one projecting its ZOC onto it, stops the strike force (11.4 a); a non-motorised one next to it does
    # not (11.2), nor a motorised one two hexes off it
    base = [("AX-Base#1", "Axis", "L2817", 1, {"active": True}),
            ("UK-78SG", "Allied", "L2023", 1), ("UK-7Motor", "Allied", "L2023", 1)]
    eng = _trail_position(base + [("IT-131Cel", "Axis", "L2720", 1), ("GE-200", "Axis", "L2721", 1),
                                  ("IT-Tunisia", "Axis", "L2619", 1), ("GE-104", "Axis", "L2326", 1)])
    st = eng.state
    assert is_motorized(st.units["GE-200"]) and is_motorized(st.units["GE-104"])
    assert not is_motorized(st.units["IT-Tunisia"])
    blockers = goals_mod.strike_blockers(eng, "Allied", goals_mod.goals(eng, "Allied"))
    assert set(blockers) == {"L2720", "L2721"}
    assert blockers["L2720"] == 2 * goals_mod.CLEAR_PER_UNIT            # each stops both units
    # no strike objective (the Axis side: the Allied victory needs no base), no blocker
    assert goals_mod.strike_blockers(eng, "Axis", goals_mod.goals(eng, "Axis")) == {}


def test_a_blocker_on_the_way_to_the_base_is_attacked():
    # the same blocker with the strike force next to it: clearing it opens the way (the attack is worth the
    # objective weight of :func:`core.ai.goals.strike_blockers`); without the base no way needs it
    units = [("UK-B", "Allied", "L2620", 1), ("UK-H", "Allied", "L2621", 1), ("IT-Tunisia", "Axis", "L2909", 1),
             ("IT-RELodi", "Axis", "L2720", 1)]
    eng = _trail_position([("AX-Base#1", "Axis", "L2817", 1, {"active": True})] + units)
    g = goals_mod.goals(eng, "Allied")
    plain, odds = ground.attack_value(eng, "Allied", ["UK-B", "UK-H"], ["L2720"], goals=g)
    g.clear = goals_mod.strike_blockers(eng, "Allied", g)
    assert g.clear == {"L2720": 2 * goals_mod.CLEAR_PER_UNIT}
    assert odds == "4:1"
    assert ground.attack_value(eng, "Allied", ["UK-B", "UK-H"], ["L2720"], goals=g)[0] > plain + 0.5
    # and the AI declares it (plan_attacks adds the blockers to the hexes it clears)
    d = eng.pending()
    assert d.kind == "combat_declare" and d.side == "Allied"
    a = AIPlayer("Allied", 1).choose(d, eng)
    assert a.kind == "declare" and a.args["hexes"] == ["L2720"]


def test_a_base_next_to_a_defender_in_another_stack_zoc_is_attacked_by_the_other_hex():
    # Tripoli (L2817) holds the Axis base alone; Allied stacks stand next to it in L2718, which GE-Kasta in L2717
    # puts in its ZOC (so they must attack L2717 too, 14.2), and in L2818, which is not next to L2717.  A combat
    # of L2817 and L2717 together needs every attacker next to both (14.2), so the two hexes' units together are
    # refused; the units of L2818 attack Tripoli alone (they were not sent before: a lost GT 33 of Trail seed 16)
    eng = _trail_position([("AX-Base#1", "Axis", "L2817", 1, {"active": True}), ("AX-Dump#1", "Axis", "L2817", 1),
                           ("IT-Tunisia", "Axis", "L2909", 1), ("GE-Kasta", "Axis", "L2717", 1),
                           ("UK-1SG", "Allied", "L2718", 1), ("UK-51Recce", "Allied", "L2718", 1),
                           ("FF-Remy", "Allied", "L2818", 1), ("UK-11Huss", "Allied", "L2818", 1)])
    from core.hexgrid import Hex
    assert Hex.parse("L2818").distance(Hex.parse("L2717")) == 2
    d = eng.pending()
    assert d.kind == "combat_declare" and d.side == "Allied"
    acts, _lines = ground.plan_attacks(AIPlayer("Allied", 1), eng, "Allied")
    on_base = [a for a in acts if a.args["hexes"] == ["L2817"]]
    assert on_base and set(on_base[0].args["attackers"]) <= {"FF-Remy", "UK-11Huss"}


def _arrival_position(gt: int) -> Engine:
    """The Allied Movement Phase of ``gt`` (Trail of the Fox ends at GT 33): the first base at S0529, an MSU and two
    dumps at El Agheila (C0701), where 30.2 sends the Allied dumps, nearer Tripoli than S0529 by the road."""
    units = [("AX-Base#1", "Axis", "L2817", 1, {"active": True}), ("IT-Tunisia", "Axis", "L2909", 1),
             ("IT-RELodi", "Axis", "L2620", 1),
             ("AL-Base#1", "Allied", "S0529", 1, {"active": True}), ("AL-MSU#2", "Allied", "C0701", 1),
             ("AL-Dump#4", "Allied", "C0701", 1), ("AL-Dump#5", "Allied", "C0701", 1),
             ("UK-7Motor", "Allied", "S1417", 1), ("UK-78SG", "Allied", "S0529", 1)]
    us = {u[0]: UnitState(id=u[0], side=u[1], loc=u[2], steps=u[3], **(u[4] if len(u) > 4 else {})) for u in units}
    st = GameState(scenario="trail-of-the-fox", seed=1, gt=gt, phase=6, step=3, initiative="Axis",
                   first_player="Allied", surprise=False, end_gt=33, units=us, vars={"weather_rules": False},
                   stack=[Frame(proc="turn")])
    st.vars["reinf_each"] = [{"side": "Allied", "unit": "AL-Dump", "to": "C0701"}]
    return Engine(st)


def test_a_base_is_made_where_the_dumps_arrive_while_an_allocation_phase_is_to_come():
    """12.2.3: a base is active only once a dump in its hex is expended in an Allocation Phase, and every base is
    flipped to OGS each GT (4.1 III.2): at El Agheila the arriving dumps (30.2) keep it active, and it is nearer
    Tripoli than S0529.  In GT 32 the MSU and one dump make it (the other is kept to activate it in GT 33); in the
    scenario's last GT no Allocation Phase is left (4.0) and none is made."""
    from core.ai import admin_supply

    eng = _arrival_position(32)
    assert eng.pending().kind == "movement" and eng.pending().side == "Allied"
    made = [a for a, _why in admin_supply._plan(eng, "Allied") if a.kind == "create_base"]
    assert [a.args["hex"] for a in made] == ["C0701"]
    assert not [a for a, _why in admin_supply._plan(_arrival_position(33), "Allied") if a.kind == "create_base"]


def test_the_dump_that_activates_an_inactive_base_is_kept():
    """12.2.3 / 12.2.1: one dump in an inactive base's hex is kept for the next Allocation Phase, for no other use:
    not carried off, not expended for combat supply; in the scenario's last GT none is kept."""
    from core.ai import admin_supply
    from core.ai.combat_choices import combat_supply
    from core.decisions import Action, Decision, Option

    eng = _arrival_position(32)
    st = eng.state
    st.units["AL-Base#2"] = UnitState(id="AL-Base#2", side="Allied", loc="C0701", steps=1, active=False)
    assert admin_supply.reserved_dumps(eng, "Allied") == {"AL-Dump#4"}
    st.units["AL-Base#2"].active = True
    assert admin_supply.reserved_dumps(eng, "Allied") == set()
    st.units["AL-Base#2"].active = False
    d = Decision(side="Allied", kind="combat_supply", prompt="Combat supply (12.6)", rule="12.6", options=tuple(
        Option(action=Action(kind="combat_supply", side="Allied", args={"hex": "C0701", "dump": dp}), label=str(dp))
        for dp in ("AL-Dump#4", "AL-Dump#5", None)))
    assert combat_supply(AIPlayer("Allied", 1), d, eng).args["dump"] == "AL-Dump#5"
    only = Decision(side="Allied", kind="combat_supply", prompt="Combat supply (12.6)", rule="12.6",
                    options=(d.options[0], d.options[2]))
    assert combat_supply(AIPlayer("Allied", 1), only, eng).args["dump"] is None
    st.gt = 33
    assert admin_supply.reserved_dumps(eng, "Allied") == set()


def test_in_play_the_base_where_the_dumps_arrive_is_active_in_the_last_gt():
    # Trail of the Fox seed 2 against the random player, by the engine alone: the Allied AI makes its first base on
    # the way in GT 31, a second at El Agheila in GT 32, and activates it in GT 33's Allocation Phase
    from core.players import Table

    eng = trail(2)
    allied = AIPlayer("Allied", 2)
    table = Table.of(make_player("random", "Axis", 2), allied)
    while (eng.state.gt, eng.state.phase) < (33, 5):
        eng.apply(table.choose(eng)[1])
    bases = {u.loc: u.active for u in eng.state.units_of("Allied") if u.id.startswith("AL-Base")}
    assert bases.get("C0701") is True
    assert any("where the dumps arrive" in p for p in allied.plans)
