"""15.5 airborne drops as an order of the Movement Phase (``airdrop``), from the Run for Tunis set-up (29.1: the
Axis airborne 5 FJ, Barenthin and 11 Pionier in the Sicily Box, an airlift box of 13.7 a) and played through
``Engine.apply`` to the Axis Movement Phase (IX).

No scenario gives its side ATP at the start and no card gives the Allies any (the card data's reinforcements hold
AX-ATP only, AXC-4 and AXC-18), so most tests here give the Axis its ATP at GT 30 through the engine's own 19.7
receipt (``reinforcements.add_atp``) before play starts; everything after is ``Engine.apply``.  Their play-path twin,
``test_15_5_airdrop_play_path_with_the_scenarios_own_atp``, waits for the ATP 29.1 delivers on GT 31."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice, SeededDice
from core.engine import Engine
from core.newgame import initial_state
from core.rules import airdrop, reinforcements
from core.scenario import load

DROP = airdrop.DROP
CLEAR = "T6016"          # clear, next to Tunis (T6017)
CITY = "T6017"           # Tunis: a city, held by the neutral Vichy French at the start
SEA = "T6018"


def axis_movement(atp: int = 2, dice=None, beach: str | None = None) -> Engine:
    """Run for Tunis to the Axis Movement Phase (IX); with ``beach`` 1 Commando first lands there (15.4)."""
    eng = Engine(initial_state(load("run-for-tunis"), 1), dice)
    reinforcements.add_atp(eng, AXIS, atp, "19.7")
    for _ in range(300):
        d = eng.pending()
        if d.kind == "movement" and d.side == AXIS:
            return eng
        if beach and d.kind == "movement" and "UK-1Cdo" not in d.context["moved"]:
            eng.apply(Action(kind="sf_sea", side=ALLIED, args={"units": ["UK-1Cdo"], "to": beach}))
            continue
        landing = [o.action for o in d.options if o.action.kind == "declare" and o.action.args.get("hexes") == [beach]]
        eng.apply(landing[0] if landing else
                  next((o.action for o in d.options if o.action.kind in ("done", "resolve")), d.options[0].action))
    raise AssertionError("no Axis Movement Phase")


def drop(eng: Engine, uid: str, to: str):
    return eng.apply(Action(kind=DROP, side=AXIS, args={"unit": uid, "to": to}))


def test_15_5_airdrop_from_an_airlift_box_is_offered_and_spends_one_atp_per_unit():
    eng = axis_movement()
    d = eng.pending()
    assert DROP in d.free_kinds
    offered = [o.action for o in d.options if o.action.kind == DROP]
    assert offered and all(eng.state.units[a.args["unit"]].loc == "box:Sicily" for a in offered)
    drop(eng, "GE-5FJ", CLEAR)                                     # two steps: one ATP (13.7 d)
    u = eng.state.units["GE-5FJ"]
    assert u.loc == CLEAR and u.emergency                          # emergency supply for the impulse (15.5, 12.7)
    assert airdrop.atp_of(eng, AXIS) == 1
    with pytest.raises(IllegalAction):                             # "Units may not move after conducting the drop"
        eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5FJ"], "path": ["T5916"]}))


def test_15_5_atp_limit_and_limit_plus_one():
    eng = axis_movement(atp=1)
    drop(eng, "GE-11Pio", CLEAR)
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="ATP") as e:
        drop(eng, "GE-Barenthin", "T5916")
    assert e.value.rule == "15.5" and eng.state.hash() == before


def test_15_5_drop_hex_clear_desert_or_rough_not_enemy_occupied():
    eng = axis_movement()
    for to, why in ((CITY, "city"), (SEA, "sea")):
        with pytest.raises(IllegalAction, match=why) as e:
            drop(eng, "GE-5FJ", to)
        assert e.value.rule == "15.5"
    eng = axis_movement(beach="A6112")
    assert eng.state.units["UK-1Cdo"].loc == "A6112"               # landed in VIII (15.4)
    with pytest.raises(IllegalAction, match="enemy occupied"):
        drop(eng, "GE-5FJ", "A6112")                               # clear, but enemy occupied
    drop(eng, "GE-5FJ", "A6211")                                   # next to 1 Cdo: "... but may be in an EZOC"
    assert eng.state.units["GE-5FJ"].loc == "A6211"


def test_15_5_only_airborne_units_drop_and_only_from_where_the_phase_starts():
    eng = axis_movement()
    with pytest.raises(IllegalAction, match="not airborne drop capable"):
        drop(eng, "GE-190PzAbt", CLEAR)
    drop(eng, "GE-5FJ", CLEAR)
    with pytest.raises(IllegalAction, match="has moved"):
        drop(eng, "GE-5FJ", "T5916")


def test_15_5_failed_drop_morale_check_disrupts():
    dice = ScriptedDice([], fallback=SeededDice())
    eng = axis_movement(dice=dice)
    dice.push(6)                                                   # the morale check's die (8.1: a 6 fails)
    drop(eng, "GE-5FJ", CLEAR)
    assert eng.state.units["GE-5FJ"].disrupted
    dice.push(1)
    drop(eng, "GE-Barenthin", "T5916")
    assert not eng.state.units["GE-Barenthin"].disrupted


def test_15_5_from_an_on_map_friendly_airfield_to_the_same_or_an_adjacent_map():
    """Dropped on the airfield T5809 in IX, 5 FJ starts XV there (an on-map friendly airfield): it may drop on
    Map T or an adjacent map (A, L), not on Map S; a unit that starts on a plain hex may not drop."""
    eng = axis_movement(atp=3)
    drop(eng, "GE-5FJ", "T5809")
    drop(eng, "GE-Barenthin", CLEAR)
    for _ in range(300):
        d = eng.pending()
        if d.kind == "movement" and d.side == AXIS and eng.state.phase == 15:
            break
        eng.apply(next((o.action for o in d.options if o.action.kind in ("done", "resolve")), d.options[0].action))
    assert eng.state.phase == 15 and eng.state.units["GE-5FJ"].loc == "T5809"
    with pytest.raises(IllegalAction, match="adjacent map"):
        drop(eng, "GE-5FJ", "S0202")
    with pytest.raises(IllegalAction, match="friendly city or airfield"):
        drop(eng, "GE-Barenthin", "T5916")
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="not in play") as e:   # Map L is adjacent, but 29.0 plays A and T only
        drop(eng, "GE-5FJ", "L1602")
    assert e.value.rule == "15.5" and eng.state.hash() == before
    drop(eng, "GE-5FJ", "A6211")
    assert eng.state.units["GE-5FJ"].loc == "A6211"


def test_15_5_drop_refused_on_a_map_not_in_play():
    """29.0 "Maps in Play: Use maps A and T": from the Sicily Box (13.7 a, any hex of the grid) a drop on a clear hex
    of Map L is refused, naming the maps in play; the same drop on Map T is made."""
    from core import mapdata

    eng = axis_movement()
    assert eng.state.vars["maps"] == ["A", "T"]
    md = mapdata.load()
    lhex = next(h.label for h in md.hexes() if h.sheets == ("L",) and md.terrain(h) == "clear")
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="Maps in Play: A, T") as e:
        drop(eng, "GE-5FJ", lhex)
    assert e.value.rule == "15.5" and eng.state.hash() == before
    assert not [o for o in eng.pending().options if o.action.kind == DROP and o.action.args["to"][:1] not in "AT"]
    drop(eng, "GE-5FJ", CLEAR)


def test_15_5_airdrop_play_path_with_the_scenarios_own_atp():
    """The twin of the tests above without any ATP handed in: Run for Tunis gives the Axis "Available: Each GT: 2 ×
    Air Transport" (29.1; the first on GT 31, R-SC-FIRST-GT), so at the Axis Movement Phase of GT 31, reached by
    passing through ``Engine.apply`` only, the airborne units in the Sicily Box drop with those two ATP (13.7 d: one
    per unit of one or two steps): two drops are made (limit) and a third is refused (limit + 1).  (No scenario or
    card gives the Allies ATP, so an Allied drop has no play path; see R-AIRDROP.)"""
    from tests.playpath import Play

    p = Play("run-for-tunis", seed=1)
    p.to("movement", side=AXIS, gt=31)
    assert airdrop.atp_of(p.eng, AXIS) == 2
    assert [o for o in p.pending.options if o.action.kind == DROP]
    p.act(DROP, side=AXIS, unit="GE-5FJ", to=CLEAR)
    u = p.state.units["GE-5FJ"]
    assert u.loc == CLEAR and u.emergency and airdrop.atp_of(p.eng, AXIS) == 1
    p.act(DROP, side=AXIS, unit="GE-Barenthin", to="T5916")
    assert p.state.units["GE-Barenthin"].loc == "T5916" and airdrop.atp_of(p.eng, AXIS) == 0
    exc = p.refuse(DROP, side=AXIS, unit="GE-11Pio", to="T5915")
    assert exc.rule == "15.5" and "ATP" in str(exc)
