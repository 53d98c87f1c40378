"""17.1 Exception: "RP cannot be captured, and are automatically destroyed if alone in a hex and that hex is
entered by an enemy unit" - by any means (moving through, ending the move there, advance after combat); a hex
of enemy RP alone is entered, not overrun (13.4).  Play path: desert-war's set-up, the Axis Movement Phase of
GT 1, only ``Engine.apply``; the Allied RP is the one placed by hand (no set-up puts an RP within reach)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import tec
from core.state import UnitState
from tests.playpath import Play
from tests.rules_combat_kit import act, desert_map, make_state, start
from tests.test_rules_14_7_2_retreated_into import settle_defaults


def axis_movement_with_rp(at: str, *others: tuple[str, str]) -> Play:
    p = Play("desert-war")
    p.to("movement", side=AXIS)
    assert p.state.units["IT-1CCNN"].loc == "C0701"
    rp = next(f"UK-RP#{i}" for i in range(1, 30) if f"UK-RP#{i}" not in p.state.units)   # a free RP counter
    p.state.units[rp] = UnitState(id=rp, side=ALLIED, loc=at, steps=2)
    p.rp = rp                     # (a test attribute, not game state)
    for uid, loc in others:
        p.state.units[uid] = UnitState(id=uid, side=ALLIED, loc=loc, steps=1)
    return p


def test_17_1_rp_alone_destroyed_when_an_enemy_moves_through_its_hex_not_an_overrun():
    p = axis_movement_with_rp("C0802")
    p.act("move", units=["IT-1CCNN"], path=["C0702", "C0802", "C0803"])
    assert p.rp not in p.state.units
    assert p.state.units["IT-1CCNN"].loc == "C0803"          # it went on: no overrun stopped it (13.4)
    assert any("17.1" in e and "C0802" in e for e in p.events())
    assert p.pending.kind == "movement"                      # no overrun reaction or combat was started


def test_17_1_rp_alone_destroyed_when_an_enemy_ends_its_move_in_the_hex():
    p = axis_movement_with_rp("C0802")
    p.act("move", units=["IT-1CCNN"], path=["C0702", "C0802"])
    assert p.rp not in p.state.units and p.state.units["IT-1CCNN"].loc == "C0802"


def test_17_1_rp_not_alone_is_not_destroyed_by_entry_the_hex_is_overrun():
    p = axis_movement_with_rp("C0802", ("UK-KDG", "C0802"))
    # the same move that entered the lone RP's hex above is an overrun here, refused for this unit (13.4.1)
    exc = p.refuse("move", units=["IT-1CCNN"], path=["C0702", "C0802"])
    assert exc.rule == "13.4.1" and "overrun" in str(exc)
    assert p.state.units[p.rp].loc == "C0802"


def test_17_1_rp_elsewhere_untouched():
    p = axis_movement_with_rp("C0804")
    p.act("move", units=["IT-1CCNN"], path=["C0702", "C0802", "C0803"])
    assert p.state.units[p.rp].loc == "C0804"


@pytest.fixture
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def advance_into_left_behind(left_behind: tuple):
    """5 Pz attacks the KDG in C0803, which retreats to C0804 leaving ``left_behind`` there; the advance is pending."""
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("UK-KDG", ALLIED, "C0803", 1), left_behind])
    eng, fr = start(st, ScriptedDice([1] * 12), proc="combat_phase", side=AXIS)
    act(eng, "declare", AXIS, attackers=["GE-5Pz"], hexes=["C0803"])
    act(eng, "done", AXIS)
    settle_defaults(eng, stop_at="combat_retreat")
    act(eng, "retreat", ALLIED, unit="UK-KDG", to="C0804")
    settle_defaults(eng, stop_at="combat_advance")
    return eng


def test_17_1_rp_destroyed_when_the_enemy_advances_after_combat_into_its_hex(desert):
    eng = advance_into_left_behind(("UK-RP#1", ALLIED, "C0803", 2))
    assert eng.pending().kind == "combat_advance" and "UK-RP#1" in eng.state.units      # the defender left it
    act(eng, "advance", AXIS, unit="GE-5Pz")
    assert eng.state.units["GE-5Pz"].loc == "C0803" and "UK-RP#1" not in eng.state.units


def test_17_1_rp_left_alone_and_entered_by_the_enemy_play_path():
    """The twin of the hand-placed RP tests above, every step an ``Engine.apply``: Sonnenblume GT 11, the Axis
    deploys AXC-3's Italian RP at El Agheila (III.1), carries it with an MSU into C0602 (the KDG's ZOC: they stop) in
    VI, takes the MSU back to C0702 in XII, leaving the RP alone; in XV the KDG moves through C0602: the RP is
    destroyed (17.1 "automatically destroyed if alone in a hex and that hex is entered by an enemy unit") and the KDG
    goes on to C0502, no overrun."""
    from core.rules.status import supply_kind

    def to_agheila(d):
        return next((o.action for o in d.options if o.action.kind == "deploy" and o.action.args.get("to") == "C0701"),
                    None)

    script = {"reinforce": to_agheila}
    p = Play("sonnenblume", seed=1)
    p.run(lambda e: e.pending() is not None and e.pending().kind == "movement" and e.pending().side == AXIS
          and any(u.id.startswith("IT-RP") and u.loc == "C0701" for u in e.state.units.values()), script=script)
    rp = next(u.id for u in p.state.units.values() if u.id.startswith("IT-RP") and u.loc == "C0701")
    msu = next(u.id for u in p.state.units_at("C0701") if supply_kind(u) == "msu")
    p.act("move", side=AXIS, units=[msu, rp], path=["C0702", "C0602"])

    def next_movement(side):
        now = (p.state.gt, p.state.phase)
        p.run(lambda e: e.pending() is not None and e.pending().kind == "movement" and e.pending().side == side
              and (e.state.gt, e.state.phase) != now, script=script)

    next_movement(AXIS)
    p.act("move", side=AXIS, units=[msu], path=["C0702"])
    assert [u.id for u in p.state.units_at("C0602")] == [rp]
    next_movement(ALLIED)
    assert p.state.units["UK-KDG"].loc == "C0603"
    e = p.act("move", side=ALLIED, units=["UK-KDG"], path=["C0602", "C0502"])
    assert rp not in p.state.units and p.state.units["UK-KDG"].loc == "C0502"
    assert any("17.1" in ev and "C0602" in ev for ev in e.events)
    assert p.pending.kind == "movement"                       # no overrun reaction or combat was started
