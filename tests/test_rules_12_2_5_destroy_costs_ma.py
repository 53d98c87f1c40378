"""12.2.5 1): "The combat unit must expend half its movement allowance for each supply unit destroyed" -- the MP
are gone for the rest of the Movement Phase: the destroying unit moves only what is left.  Before, the half MA was
logged and the unit still moved its whole MA.

Played from the Sonnenblume set-up through ``Engine.apply`` only: 27 Brescia (MA 14, in GenS) destroys the Axis
base in El Agheila at the start of XII.3 and has 7 MP left: C0402 (7 MP) is the limit, C0403 (8 MP) one MP beyond."""

from __future__ import annotations

from tests.playpath import Play


def _brescia_destroys_the_base() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Axis")                                   # GT 10 XII.3
    assert p.eng.query("route", units=["IT-27Brescia"], to="C0403")["mp"] == 8.0
    n = len(p.eng.log)
    p.act("destroy_supply", side="Axis", unit="AX-Base#1", by="IT-27Brescia")
    assert "Axis destroys its base in C0701; 27 Brescia expends 7 MP (12.2.5)" in p.events(n)
    return p


def test_12_2_5_destroying_unit_moves_only_the_half_ma_left_limit_7_mp():
    p = _brescia_destroys_the_base()
    p.act("move", side="Axis", units=["IT-27Brescia"], path=["C0601", "C0502", "C0402"])
    assert p.state.units["IT-27Brescia"].loc == "C0402"


def test_12_2_5_destroying_unit_may_not_move_8_mp_after_spending_7():
    p = _brescia_destroys_the_base()
    exc = p.refuse("move", side="Axis", units=["IT-27Brescia"], path=["C0601", "C0502", "C0402", "C0403"])
    assert exc.rule == "13.2" and "has 14" in str(exc)
