"""The computer opponent as the Axis of Sonnenblume (26.3), from the real set-up: its goals come from the victory
data.  b) "Meeting the conditions on AXC-9" - the card's data names Mersa Matruh (W2118), whose control meets it -
and the marginal victory, "the standard port capacity of all ports held by the Axis player (on Maps C and W) that
have an LOC to C0701 ... five or more" (20.1: the limited boxes do not count).  The ports still lacking and Mersa
Matruh are raided by detachments (``Goals.raid``); a raid hex held by supply units alone where they cannot be
overrun (13.4.2: Mersa Matruh is fortified) is attacked (12.2.6, 12.2.7)."""

from __future__ import annotations

from core.ai import AIPlayer, ground
from core.ai import goals as goals_mod
from core.engine import Engine
from core.newgame import initial_state
from core.rules import victory_rules as vr
from core.rules.status import is_motorized
from core.scenario import load
from core.state import Frame, GameState, UnitState

BENGHAZI, DERNA, TOBRUK, BARDIA, MATRUH, ALEXANDRIA = "C2308", "C2821", "C2331", "W2104", "W2118", "W2232"
MERSA_BREGA, SOLLUM, SIDI_BARRANI = "C0803", "W2004", "W2110"       # ports with limited boxes only


def sonnenblume(seed: int = 1) -> Engine:
    return Engine(initial_state(load("sonnenblume"), seed))


def _port_condition(eng: Engine) -> dict:
    return next(c for c in vr.conditions(eng) if c["kind"] == "port_capacity")


def test_axc9_control_hex_is_an_objective_read_from_the_card_data():
    assert goals_mod.card_control_hexes("AXC-9") == [MATRUH]
    eng = sonnenblume()
    axis, allied = goals_mod.goals(eng, "Axis"), goals_mod.goals(eng, "Allied")
    # a smashing-level control objective (weight 3.0 x 2), like Tobruk's
    assert axis.weights[MATRUH] == axis.weights[TOBRUK] == 6.0
    assert MATRUH in axis.raid and MATRUH in allied.hold
    assert allied.raid == {}                  # the Allied victory needs no raid (26.3: Tobruk, or "otherwise")
    assert TOBRUK not in axis.raid            # Tobruk has a line out of it: besieged (goals.siege), not raided
    assert TOBRUK in axis.siege


def test_the_port_condition_weighs_standard_boxes_only():
    eng = sonnenblume()
    w = goals_mod.goals(eng, "Axis").weights
    for port in (MERSA_BREGA, SOLLUM, SIDI_BARRANI):       # 0 standard boxes: they add nothing to 26.3's count
        assert port not in w
    assert w[BENGHAZI] > w[BARDIA]                          # 2 standard boxes against 1


def test_port_plan_makes_up_the_shortfall_at_least_cost():
    eng = sonnenblume()
    cond = _port_condition(eng)
    # the Axis holds no port at the start (26.0: the Allies control every hex but the Axis set-up's): it needs 5
    plan = goals_mod.port_plan(eng, "Axis", cond)
    assert sum(plan.values()) >= 5 and all(vr.standard_boxes(p) == n for p, n in plan.items())
    assert TOBRUK not in plan                               # its garrison costs more than empty ports farther off
    # Mersa Matruh taken anyway (AXC-9) costs nothing more: Benghazi, Derna and it make 5
    assert goals_mod.port_plan(eng, "Axis", cond, frozenset({MATRUH})) == {BENGHAZI: 2, DERNA: 1, MATRUH: 2}


def test_port_plan_boundary_threshold_held_and_one_short():
    eng = sonnenblume()
    cond = _port_condition(eng)
    st = eng.state
    # the Allied field units gone (their ZOC cuts lines, 12.4.2): Tobruk and Alexandria keep their garrisons
    for u in list(st.units.values()):
        if u.side == "Allied" and u.loc[:1] in "CW" and u.loc not in (TOBRUK, ALEXANDRIA):
            u.loc = "box:NRV"
    # 2.2.2: the Axis entered Benghazi (2), Derna (1) and Bardia (1), each with a line to C0701: 4, one short of 5
    for h in (BENGHAZI, DERNA, BARDIA):
        st.control[h] = "Axis"
        assert vr.overland_connected(eng, "Axis", h, "C0701")
    one_short = goals_mod.port_plan(eng, "Axis", cond)
    assert one_short and not set(one_short) & {BENGHAZI, DERNA, BARDIA}
    # Benghazi, Derna and Mersa Matruh: 5, the threshold: nothing more to take
    del st.control[BARDIA]
    st.control[MATRUH] = "Axis"
    assert vr.overland_connected(eng, "Axis", MATRUH, "C0701")
    assert vr.holds(eng, cond, "Axis")
    assert goals_mod.port_plan(eng, "Axis", cond) == {}


def test_detachments_raid_mersa_matruh_with_motorised_units():
    eng = sonnenblume()
    ctx = ground.context(eng, "Axis")
    raiders = [u for u, why in ctx.why.items() if why == "raid"]
    assert raiders and all(is_motorized(eng.state.units[u]) for u in raiders)
    at_matruh = [u for u in raiders if ctx.role[u] == MATRUH]
    # three Allied units hold it at the start: enough for RAID_ODDS against their factors, at most STRIKE_FORCE
    assert ground.RAID_FORCE <= len(at_matruh) <= ground.STRIKE_FORCE
    # the siege of Tobruk keeps its ring (the Allied smashing victory needs a line out of it, 26.3)
    assert any(why == "siege" for why in ctx.why.values())


def test_raid_way_goes_around_enemy_units():
    # the coast road runs through Tobruk (an Allied garrison): the raid's way to Mersa Matruh may not pass it
    eng = sonnenblume()
    ctx = ground.context(eng, "Axis")
    h = ground.Hex.parse("C2330")                            # next to Tobruk, on the road west of it
    plain = ctx.travel_mp(MATRUH, "trucked", h)
    around = ctx.travel_mp(MATRUH, "trucked", h, around_enemy=True, eng=eng)
    assert plain is not None and around is not None and around > plain
    assert ctx.travel_mp(MATRUH, "trucked", ground.Hex.parse(TOBRUK), around_enemy=True, eng=eng) is None


def _matruh_position(axis_controls_matruh: bool) -> Engine:
    """Sonnenblume's victory data, the Axis first player at its Combat Phase (VIII): Mersa Matruh (fortified, 13.4.2)
    holds the Allied base and the railhead only; two motorised Axis units stand next to it."""
    units = [("AL-Base#2", "Allied", MATRUH, 1, {"active": True}), ("AL-Railhead#1", "Allied", MATRUH, 1),
             ("UK-Alexandria", "Allied", ALEXANDRIA, 1), ("UK-Tobruk", "Allied", TOBRUK, 1),
             ("GE-5Pz", "Axis", "W2117", 2), ("GE-3Aufkl", "Axis", "W2117", 1)]
    us = {u[0]: UnitState(id=u[0], side=u[1], loc=u[2], steps=u[3], **(u[4] if len(u) > 4 else {})) for u in units}
    st = GameState(scenario="sonnenblume", seed=1, gt=13, phase=8, step=1, initiative="Axis", first_player="Axis",
                   surprise=False, end_gt=14, units=us, vars={"weather_rules": False, "maps": ["C", "W"]},
                   stack=[Frame(proc="turn")])
    if axis_controls_matruh:
        st.control[MATRUH] = "Axis"
    return Engine(st)


def test_attacks_the_raid_hex_held_by_supply_units_alone():
    eng = _matruh_position(axis_controls_matruh=False)
    d = eng.pending()
    assert d.kind == "combat_declare" and d.side == "Axis"
    a = AIPlayer("Axis", 1).choose(d, eng)
    assert a.kind == "declare" and a.args["hexes"] == [MATRUH]


def test_no_attack_on_the_supply_units_when_the_axis_holds_mersa_matruh():
    # the same position with Mersa Matruh already Axis (2.2.2): AXC-9 is met, no raid, and supply units alone are not
    # attacked for their own sake
    eng = _matruh_position(axis_controls_matruh=True)
    d = eng.pending()
    assert AIPlayer("Axis", 1).choose(d, eng).kind == "done"


def _cut_off(eng: Engine, uid: str = "GE-5Pz", at: str = "C1308") -> Engine:
    """The Sonnenblume set-up with one Axis unit driven east along the coast road past the two Allied units the
    set-up puts on it next to El Agheila (26.2: 2 SG at C0803, 3 Lt Arm at C0804)."""
    eng.state.units[uid].loc = at
    return eng


def test_supply_blockers_are_the_enemy_units_on_the_way_to_the_base():
    eng = _cut_off(sonnenblume())
    lines = ground.supply.supply_lines(eng.state, "Axis")
    assert ground.Hex.parse("C1308") not in lines.los          # 12.4: the road out of C0701 runs through their EZOC
    blockers = goals_mod.supply_blockers(eng, "Axis", lines)
    assert set(blockers) & {"C0603", "C0803", "C0804"}
    assert all(0 < w <= goals_mod.CLEAR_MAX for w in blockers.values())
    assert "C2331" not in blockers                                # Tobruk is on nobody's way back to C0701


def test_no_supply_blockers_once_the_road_is_clear():
    eng = _cut_off(sonnenblume())
    for uid in ("UK-KDG", "UK-2SG", "UK-3LtArm"):              # 26.2: C0603, C0803, C0804
        eng.state.units[uid].loc = "box:Refit:Allied"
    lines = ground.supply.supply_lines(eng.state, "Axis")
    assert ground.Hex.parse("C1308") in lines.los
    assert goals_mod.supply_blockers(eng, "Axis", lines) == {}


def test_units_near_a_supply_blocker_are_sent_to_clear_it():
    eng = _cut_off(sonnenblume())
    ctx = ground.context(eng, "Axis")
    clear = {u: ctx.role[u] for u, why in ctx.why.items() if why == "clear"}
    assert clear and set(clear.values()) <= set(ctx.goals.clear)
    # enough of them for RAID_ODDS against the blocker's factors (14.3), none of them the unit cut off
    for h in set(clear.values()):
        force = sum(max(0.5, float(ground.info(eng.state, u).cf)) for u, t in clear.items() if t == h)
        assert force >= ground.RAID_ODDS * ctx.enemy_cf[ground.Hex.parse(h)]
    assert "GE-5Pz" not in clear or ctx.role["GE-5Pz"] in ctx.goals.clear


def _escort_position(lead_at: str, matruh_garrison: bool = False) -> Engine:
    """Sonnenblume's victory data at the Axis Movement Phase: Mersa Matruh held by the Allied base and the railhead
    (plus a combat unit if ``matruh_garrison``); the raid's leading unit at ``lead_at``; an Axis MSU standing with a
    dump at Bardia, 14 hexes from Mersa Matruh, and a second MSU at El Agheila (the side keeps one for its main line)."""
    units = [("AL-Base#2", "Allied", MATRUH, 1, {"active": True}), ("AL-Railhead#1", "Allied", MATRUH, 1),
             ("UK-Alexandria", "Allied", ALEXANDRIA, 1), ("UK-Tobruk", "Allied", TOBRUK, 1),
             ("AX-Base#1", "Axis", "C0701", 1, {"active": True}), ("GE-3Aufkl", "Axis", lead_at, 1),
             ("AX-MSU#1", "Axis", BARDIA, 1), ("AX-Dump#1", "Axis", BARDIA, 1), ("AX-MSU#2", "Axis", "C0701", 1)]
    if matruh_garrison:
        units.append(("UK-22Bde", "Allied", MATRUH, 2))
    us = {u[0]: UnitState(id=u[0], side=u[1], loc=u[2], steps=u[3], **(u[4] if len(u) > 4 else {})) for u in units}
    st = GameState(scenario="sonnenblume", seed=1, gt=13, phase=6, step=1, initiative="Axis", first_player="Axis",
                   surprise=False, end_gt=14, units=us, vars={"weather_rules": False, "maps": ["C", "W"]},
                   stack=[Frame(proc="turn")])
    return Engine(st)


def _escort(eng: Engine):
    from core.ai import admin_supply
    from core.ai.admin_util import enemy_hexes

    return admin_supply._raid_escort(eng, "Axis", [eng.state.units[m] for m in ("AX-MSU#1", "AX-MSU#2")], {BARDIA: ["AX-Dump#1"]},
                                     enemy_hexes(eng, "Axis"))


def test_an_msu_carries_a_dump_behind_the_raid_never_ahead_of_it():
    # 12.4.1 (the line runs up to 7 MMP from an MSU), 12.6.1 (a dump is the only combat supply), 13.7 (one dump)
    matruh = ground.Hex.parse(MATRUH)
    for lead in ("W2110", "W2115"):                                     # 8 and 3 hexes from Mersa Matruh
        move, new_hex, msu = _escort(_escort_position(lead))
        assert msu == "AX-MSU#1" and move[0].args["units"] == ["AX-MSU#1", "AX-Dump#1"]
        # as near as the leading unit, never nearer (12.2.7: supply units alone are captured)
        assert new_hex.distance(matruh) == ground.Hex.parse(lead).distance(matruh)


def test_no_escort_where_it_gains_nothing_or_the_hex_has_a_garrison():
    # the leading unit no nearer Mersa Matruh than the MSU (Bardia itself): the MSU stays with the front
    assert _escort(_escort_position(BARDIA)) is None
    # an Allied combat unit in Mersa Matruh: the raid waits, and so does the dump
    assert _escort(_escort_position("W2110", matruh_garrison=True)) is None
