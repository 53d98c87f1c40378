"""18.1 Fortifications, play path from desert-war's set-up (GT 1, the Axis is the 1st player; Tobruk C2331 holds
Italian infantry, an Axis MSU and an Axis dump), only ``Engine.apply``:

* "The supply to build a fort may come from an existing fort of F1 or higher stacked with an MSU. The MSU can only
  support the construction of one fort. a) The hex where the fort is being built must be within the distance the
  MSU could move in one Movement Phase ... b) Reduce the existing fort one level for each fort level built."
* "If attacked while under construction, the unit is disrupted before combat resolution begins." (hand-built
  combat: no Allied unit reaches the builder in a passing game)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import construction, tec
from core.rules.status import supply_kind
from tests.playpath import Play
from tests.rules_combat_kit import act, all_events, desert_map, make_state, start

FORT, OTHER = "C2330", "C2229"
MSU = DUMP = ""                         # the Axis MSU and dump in Tobruk (found at the start)          # desert hexes: one next to Tobruk, one two hexes from the fort
A, B = "IT-62Marmarica", "IT-63Cirene"
TOBRUK = "C2331"


def axis_movement(p: Play, gt: int, phase: int):
    return p.to("movement", side=AXIS, gt=gt, phase=phase)


def fort_with_msu() -> Play:
    """GT 1 VI: A, B and the MSU leave Tobruk and a dump of the primary base ships to Tobruk (20.3); XII: A begins an
    F1 with the dump in Tobruk; GT 2 IV: the other dump (landed in Tobruk on GT 1 XII) activates the Tobruk base
    (12.2.3), so B is in general supply at the GenS determination of the next Axis Movement Phase (4.1 IX.1: the
    Allies are 1st player on GT 2), where A's fort is complete (18.1)."""
    p = Play("desert-war")
    axis_movement(p, 1, 6)
    global MSU, DUMP
    MSU = next(u.id for u in p.state.units_at(TOBRUK) if u.side == AXIS and supply_kind(u) == "msu")
    DUMP = next(u.id for u in p.state.units_at(TOBRUK) if u.side == AXIS and supply_kind(u) == "dump")
    base = next(u.id for u in p.state.units_at(TOBRUK) if u.side == AXIS and supply_kind(u) == "base")
    shipped = next(u.id for u in sorted(p.state.units.values(), key=lambda x: x.id)
                   if u.side == AXIS and supply_kind(u) == "dump" and u.loc != TOBRUK)
    p.act("coastal_ship", units=[shipped], to=TOBRUK)
    p.act("move", units=[A, MSU], path=[FORT])
    p.act("move", units=[B], path=["C2230", OTHER])
    axis_movement(p, 1, 12)
    assert p.state.units[shipped].loc == TOBRUK                             # landed (20.1)
    p.act("build_fort", unit=A, level=1, dump=DUMP)
    assert construction.fort_at(p.eng, FORT)["building"] == A and DUMP not in p.state.units
    p.to("activate_bases", side=AXIS, gt=2)
    p.act("activate_base", base=base)
    axis_movement(p, 2, 9)
    assert construction.fort_level(p.eng, FORT) == 1 and not construction.fort_at(p.eng, FORT)["building"]
    assert p.state.units[MSU].loc == FORT and p.state.units[B].loc == OTHER
    assert not p.state.units[B].ogs and not p.state.units[B].disrupted     # 4.1 IX.1: B is in GenS
    return p


def test_18_1_a_b_fort_supplied_by_an_existing_fort_and_an_msu():
    p = fort_with_msu()
    p.act("build_fort", unit=B, level=1, msu=MSU)
    assert construction.fort_at(p.eng, OTHER)["building"] == B and construction.fort_at(p.eng, OTHER)["target"] == 1
    assert construction.fort_level(p.eng, FORT) == 0                        # b) reduced one level
    assert p.state.units[MSU].loc == FORT                                   # a) the MSU does not physically move
    assert any("18.1 b" in e for e in p.events())


def test_18_1_the_msu_supports_one_fort_and_needs_a_fort_of_f1_or_higher():
    p = fort_with_msu()
    p.act("build_fort", unit=B, level=1, msu=MSU)
    exc = p.refuse("build_fort", unit=A, level=2, msu=MSU)                 # F0 left under it now, and used
    assert exc.rule == "18.1"


def test_18_1_builder_attacked_while_building_is_disrupted_before_the_combat_is_resolved():
    tec.use_map(desert_map())
    try:
        st = make_state([("UK-KDG", ALLIED, "C0803", 1), ("GE-5Pz", AXIS, "C0802", 2)], phase=8)
        st.vars["forts"] = {"C0803": {"level": -1, "building": "UK-KDG", "target": 0, "side": ALLIED, "gt": 10,
                                      "phase": 6, "engineer": False}}
        eng, fr = start(st, ScriptedDice([1] * 12), proc="combat_phase", side=AXIS)
        act(eng, "declare", AXIS, attackers=["GE-5Pz"], hexes=["C0803"])
        act(eng, "done", AXIS)
        assert eng.state.units["UK-KDG"].disrupted
        ev = all_events(eng)
        dis = next(i for i, e in enumerate(ev) if "disrupted: attacked while building a fort (18.1)" in e)
        assert not any("(14.5)" in e for e in ev[:dis])                     # before the combat is resolved
    finally:
        tec.use_map(None)


def test_18_1_a_defender_not_building_is_not_disrupted():
    tec.use_map(desert_map())
    try:
        st = make_state([("UK-KDG", ALLIED, "C0803", 1), ("GE-5Pz", AXIS, "C0802", 2)], phase=8)
        eng, fr = start(st, ScriptedDice([1] * 12), proc="combat_phase", side=AXIS)
        act(eng, "declare", AXIS, attackers=["GE-5Pz"], hexes=["C0803"])
        act(eng, "done", AXIS)
        assert not any("building a fort" in e for e in all_events(eng))
    finally:
        tec.use_map(None)


def test_18_1_one_fort_per_msu_play_path_with_the_fort_still_f1():
    """18.1 "The MSU can only support the construction of one fort", apart from the F1-or-higher condition: Desert
    Fox, GT 12-13, played through ``Engine.apply`` only.  27 Brescia, with the engineer 31 Gaust (15.7: one Movement
    Phase a level), builds an F1 and then an F2 at C0703 with El Agheila's dumps, where an Axis MSU waits; then 8 Ber
    (C0802) begins an F1 supplied by that fort and MSU (the fort drops to F1, still F1 or higher: limit), and 132 Cel
    (C0602) is refused the same MSU in the same Movement Phase (limit + 1) though the fort is still F1."""
    from tests.playpath import Play

    script: dict = {}
    p = Play("desert-fox", seed=1)

    def next_axis_movement():
        now = (p.state.gt, p.state.phase)
        p.run(lambda e: e.pending() is not None and e.pending().kind == "movement" and e.pending().side == AXIS
              and (e.state.gt, e.state.phase) != now, script=script)

    p.to("movement", side=AXIS, gt=12, script=script)
    p.act("arrive", side=AXIS, unit="IT-31Gaust", to="C0701")       # 27.1 "during any friendly Movement Phase"
    p.act("move", side=AXIS, units=["IT-27Brescia", "IT-31Gaust", "AX-MSU#1"], path=["C0702", "C0703"])
    p.act("move", side=AXIS, units=["IT-8Ber"], path=["C0702", "C0802"])
    p.act("move", side=AXIS, units=["IT-132Cel"], path=["C0702", "C0602"])
    next_axis_movement()
    p.act("build_fort", side=AXIS, unit="IT-27Brescia", level=1, dump="AX-Dump#1")
    next_axis_movement()
    assert construction.fort_level(p.eng, "C0703") == 1
    p.act("build_fort", side=AXIS, unit="IT-27Brescia", level=2, dump="AX-Dump#2")
    next_axis_movement()
    assert construction.fort_level(p.eng, "C0703") == 2
    p.act("build_fort", side=AXIS, unit="IT-8Ber", level=1, msu="AX-MSU#1")
    assert construction.fort_at(p.eng, "C0802")["building"] == "IT-8Ber"
    assert construction.fort_level(p.eng, "C0703") == 1                    # b) one level down, still F1
    exc = p.refuse("build_fort", side=AXIS, unit="IT-132Cel", level=1, msu="AX-MSU#1")
    assert exc.rule == "18.1" and "only support the construction of one fort" in str(exc)
