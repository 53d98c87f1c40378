"""R-MA-ZERO (13.2, 13.2.3, 13.2.4, 15.8): a unit with a printed MA of 0 -- the garrisons ("Tobruk 3 3 0",
AXC-2) -- does not move by itself: no road march (+7 MP of 13.2.3 added to an MA of 0), no forced march, no
reaction.  Played from the Desert Fox set-up through ``Engine.apply`` only."""

from __future__ import annotations

from core.counters import all_counters
from core.rules.movement import immobile
from core.state import UnitState
from tests.playpath import Play


def _gt11_allied_movement() -> Play:
    p = Play("desert-fox", seed=1)
    p.to("movement", side="Allied", gt=11)          # IX.3: no surprise (GT 10's 2nd player could not road march)
    assert p.eng.step.key == "IX.3"
    return p


def test_13_2_3_garrison_with_ma_0_may_not_road_march_desert_fox():
    p = _gt11_allied_movement()
    alex = p.state.units["UK-Alexandria"]
    assert alex.loc == "W2232" and not alex.ogs and not alex.disrupted      # every 13.2.3 condition but the MA
    exc = p.refuse("move", side="Allied", units=["UK-Alexandria"], path=["W2233"], road_march=True)
    assert exc.rule == "13.2" and "printed MA of 0" in str(exc)
    exc = p.refuse("move", side="Allied", units=["UK-Alexandria"], path=["W2233"], forced_march=True)
    assert exc.rule == "13.2"
    # the GUI queries offer it nothing either (the same definition, check_road_march)
    assert p.eng.query("reachable", units=["UK-Alexandria"], road_march=True) == {}
    assert p.eng.query("route", units=["UK-Alexandria"], to="W2233", road_march=True) is None


def test_13_2_3_the_stack_with_a_garrison_is_refused_the_unit_with_an_ma_road_marches():
    """Boundary: Tobruk's garrison (MA 0) and the Australian brigade group (MA 14) in C2331.  The stack may not
    road march while it holds the garrison; the brigade group alone may (MA 14 + 7)."""
    p = _gt11_allied_movement()
    assert p.state.units["UK-Tobruk"].loc == p.state.units["AU-26AusBG"].loc == "C2331"
    exc = p.refuse("move", side="Allied", units=["AU-26AusBG", "UK-Tobruk"], path=["C2330"], road_march=True)
    assert exc.rule == "13.2"
    reach = p.eng.query("reachable", units=["AU-26AusBG"], road_march=True)
    assert reach["W2234"] == 20.5                   # 41 road hexes at 1/2 MP: more than MA 14, within 14 + 7
    p.act("move", side="Allied", units=["AU-26AusBG"], path=["C2330"], road_march=True)
    assert p.state.units["AU-26AusBG"].loc == "C2330" and p.state.units["UK-Tobruk"].loc == "C2331"


def test_r_ma_zero_immobile_is_exactly_the_printed_ma_0_combat_units():
    """The one definition: every combat counter printed with MA 0 is immobile, every other (MA 1 and up) is not."""
    for c in all_counters().values():
        if c.kind != "combat":
            continue
        u = UnitState(id=c.id, side=c.side, loc="box:Available:" + c.side, steps=c.steps)
        assert immobile(u) == (c.ma == 0), c.id
    assert any(c.kind == "combat" and c.ma == 0 for c in all_counters().values())


def test_13_2_1_garrison_with_ma_0_may_not_react_oconnors_war():
    """R-MA-ZERO "no one-hex reaction (13.2.1)", from O'Connor's War's set-up: GT 4, the Allied Movement Phase
    (IX) ends with 11 Huss in W2004, next to Bardia's garrison (W2104) and two hexes from Giarabub's second garrison
    (W2002).  In the Axis Reaction Phase (X) both are within two hexes of an enemy unit (13.5), yet neither may
    move its one hex of 13.2.1: the ``move`` is refused and the map's reachable-hex query offers nothing."""
    p = Play("oconnors-war", seed=1)
    p.to("movement", side="Allied", gt=4)
    p.act("move", units=["UK-11Huss"], path=p.eng.query("route", units=["UK-11Huss"], to="W2004")["path"])
    assert p.state.units["UK-11Huss"].loc == "W2004"
    p.to("reaction", side="Axis", gt=4)
    assert p.eng.step.key == "X.1"
    assert {"IT-Bardia", "IT-Giarabub2L"} <= set(p.state.stack[-1].data["near_enemy"])    # 13.5: within two hexes
    for gid, to in (("IT-Bardia", "W2103"), ("IT-Giarabub2L", "W2003")):
        exc = p.refuse("move", side="Axis", units=[gid], path=[to])
        assert exc.rule == "13.2" and "react" in str(exc)
        assert p.eng.query("reachable", units=[gid]) == {}
        assert p.eng.query("route", units=[gid], to=to) is None
