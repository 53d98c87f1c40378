"""13.4.4 "If the defender's hex is vacated by the overrun combat, the moving unit enters the hex and may continue its
movement and make additional overruns": what the first overrun cannot change about a declared path's LATER overruns is
checked when the move is declared (``movement.check_later_overrun``), so no continuation is refused after the combat:

* 13.4.2 "A unit in a mountain, city, or fortified hex cannot be overrun";
* 13.4.1 "Any unit may overrun an enemy hex containing only supply units or zero-factor combat units.  Only motorized
  units may overrun a hex containing non-zero factor combat units" -- a parenthesised factor is a non-zero factor
  (the rules say "non-zero, non-parenthesized" where they mean to exclude it, 11.1a, 14.8, 15.3), the same test as
  the first overrun's and the overrun combat's (``status.nonzero_factor``).

The play path (Sonnenblume, 26.0, GT 10 XII.3, through ``Engine.apply``) declares 5 Pz's path with two overruns; the
boundary tests call the check on copies of that real position with one unit placed for each case (limit / limit + 1).
"""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import SeededDice
from core.hexgrid import Hex
from core.rules import combat_forms, movement, tec, zoc
from core.state import UnitState
from tests.playpath import Play


@pytest.fixture(scope="module")
def sonnenblume() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to(step="XII.3", gt=10)
    return p


def _with(p: Play, *placed: tuple[str, str]):
    """A copy of the real position with the named units placed (new Allied units added where not in the game)."""
    st = p.eng.fork(SeededDice()).state
    for uid, loc in placed:
        if uid in st.units:
            st.units[uid].loc = loc
        else:
            st.units[uid] = UnitState(id=uid, side=ALLIED, loc=loc)
    return st


def _check(st, movers: list[str], target: str) -> IllegalAction | None:
    try:
        movement.check_later_overrun(st, AXIS, movers, Hex.parse(target))
    except IllegalAction as exc:
        return exc
    return None


def test_13_4_4_a_declared_path_with_a_later_overrun_is_accepted_when_the_later_hex_may_be_overrun(sonnenblume):
    """Play path: 5 Pz (motorised) declares C0602, C0603 (KDG: the first overrun), C0703, C0803 (2 SG and a dump:
    a later overrun of clear terrain); the declaration is accepted and the first overrun's combat begins."""
    p = Play("sonnenblume", seed=1)
    p.to(step="XII.3", gt=10)
    assert {u.id for u in p.state.units_at("C0803")} >= {"UK-2SG"}
    n = len(p.eng.log)
    p.act("move", AXIS, units=["GE-5Pz"], path=["C0602", "C0603", "C0703", "C0803"])
    assert p.state.units["GE-5Pz"].loc == "C0602"
    assert "Combat: Axis attacks C0603 (overrun) with GE-5Pz (14.1)" in p.events(n)
    assert p.pending.kind.startswith("combat_") and p.state.stack[-1].proc == "resolve_combat"
    assert p.state.stack[-2].data["overrun"]["rest"] == ["C0703", "C0803"]     # the later overrun, declared


def test_13_4_4_the_same_declaration_is_refused_before_any_change_when_the_later_hex_may_not_be_overrun(sonnenblume):
    """Through ``Engine.apply`` on a copy of the real position (hand-built: the Allied units near El Agheila sent to
    C1407; a lone dump at C0703; 51 Spt, parenthesised (1), at C0704): 27 Brescia (foot) may overrun the dump, so the
    first overrun is legal, but not 51 Spt's hex later in the path: the move is refused when declared, the state
    unchanged.  With a second lone dump there instead the same declaration is accepted (the limit)."""
    def position(later: bool):
        eng = sonnenblume.eng.fork(SeededDice())
        st = eng.state
        for uid in ("UK-KDG", "UK-2SG", "UK-3LtArm"):
            st.units[uid].loc = "C1407"
        st.units["AL-Dump#1"].loc = "C0703"
        if later:
            st.units["UK-51Spt"] = UnitState(id="UK-51Spt", side=ALLIED, loc="C0704")
        else:
            st.units["AL-Dump#2"].loc = "C0704"                           # supply only: any unit may overrun it
        return eng

    move = Action(kind="move", side=AXIS, args={"units": ["IT-27Brescia"], "path": ["C0702", "C0703", "C0704"]})
    eng = position(later=True)
    before = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(move)
    assert exc.value.rule == "13.4.1" and "later in the path" in str(exc.value)
    assert eng.hash() == before
    eng = position(later=False)
    eng.apply(move)
    assert eng.state.units["IT-27Brescia"].loc == "C0702"              # stopped to overrun the first dump (13.4)
    assert eng.state.stack[-2].data["overrun"]["rest"] == ["C0704"]


def test_13_4_2_later_overrun_of_a_city_mountain_or_fortified_hex_is_refused_and_the_clear_neighbour_is_not(sonnenblume):
    gm = tec.current_map()
    for bad, good in (("C2308", "C2309"),     # Benghazi (city) / the clear hex beside it
                      ("C2312", "C2311"),     # mountain / not
                      ("W2002", "W2003")):    # Fort Capuzzo, a printed fort (R-MAP-GIARABUB) / not
        st = _with(sonnenblume, ("UK-KDG", bad))
        assert gm.is_city(Hex.parse(bad)) or gm.is_mountain(Hex.parse(bad)) or zoc.fortified(st, gm, Hex.parse(bad))
        exc = _check(st, ["GE-5Pz"], bad)
        assert exc is not None and exc.rule == "13.4.2", bad
        st = _with(sonnenblume, ("UK-KDG", good))
        assert _check(st, ["GE-5Pz"], good) is None, good


def test_13_4_1_later_overrun_by_a_foot_unit_supply_only_hex_accepted_non_zero_factor_refused(sonnenblume):
    """The limit: a hex holding only a supply unit (AL-Dump#1) may be overrun later by the foot 27 Brescia; add one
    combat unit with a factor of 1 -- 2 SG (real) or 51 Spt (parenthesised (1)) -- and it may not; motorised 5 Pz may."""
    target = "C1407"          # AL-Dump#2 alone at the set-up
    st = _with(sonnenblume)
    assert [u.id for u in st.units_at(target)] == ["AL-Dump#2"]
    assert _check(st, ["IT-27Brescia"], target) is None
    for unit in ("UK-KDG", "UK-51Spt"):
        st = _with(sonnenblume, (unit, target))
        exc = _check(st, ["IT-27Brescia"], target)
        assert exc is not None and exc.rule == "13.4.1" and "motorised" in str(exc), unit
        assert _check(st, ["GE-5Pz"], target) is None, unit
        assert _check(st, ["GE-5Pz", "IT-27Brescia"], target) is not None, unit


def test_13_4_1_one_definition_of_non_zero_factor_for_every_overrun_check(sonnenblume):
    """The first overrun (``movement.check_overrun``), a later one (``check_later_overrun``) and the overrun combat's
    eligibility (``combat_forms.overrun_refusal``) agree on a parenthesised defender."""
    st = _with(sonnenblume, ("UK-51Spt", "C1407"))
    assert combat_forms.overrun_refusal(st, ["IT-27Brescia"], "C1407")
    with pytest.raises(IllegalAction) as exc:
        movement.check_overrun(st, AXIS, ["IT-27Brescia"], Hex.parse("C1407"), movement.MoveOptions())
    assert exc.value.rule == "13.4.1"
    assert _check(st, ["IT-27Brescia"], "C1407") is not None
