"""12.2.5 1) "The combat unit must expend half its movement allowance for each supply unit destroyed": the moves the
engine offers afterwards, and its reachable-hex and route queries, count those MP too, so every offered move is one
the ``move`` action accepts (the fuzz found 30 Corps offered a move it could no longer pay for: North African
Campaign seed 3, GT 28).  Played from the Sonnenblume set-up through ``Engine.apply`` only: 27 Brescia (MA 14, in
GenS) destroys the Axis base in El Agheila at the start of XII.3 and has 7 MP left: C0402 (7 MP) is the limit, C0403
(8 MP) one MP beyond (tests/test_rules_12_2_5_destroy_costs_ma.py); 2 Support Group destroys its dump at the start of
XV.3 and is offered only moves it can still pay for."""

from __future__ import annotations

from core.rules import movement
from tests.playpath import Play

BRESCIA = "IT-27Brescia"
SG = "UK-2SG"


def _brescia_destroys_the_base() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Axis")                                   # GT 10 XII.3
    p.act("destroy_supply", side="Axis", unit="AX-Base#1", by=BRESCIA)
    return p


def test_12_2_5_queries_count_the_mp_spent_destroying_the_limit_and_one_beyond():
    p = _brescia_destroys_the_base()
    reach = p.eng.query("reachable", units=[BRESCIA])
    assert reach["C0402"] == 14.0 and "C0403" not in reach          # 7 spent destroying + 7 of moving
    assert p.eng.query("route", units=[BRESCIA], to="C0402")["mp"] == 14.0
    assert p.eng.query("route", units=[BRESCIA], to="C0403") is None


def _2sg_destroys_its_dump() -> Play:
    """The Allied Movement Phase XV.3 of GT 10: 2 Support Group destroys the dump in C0803 (12.2.5 1); the bots'
    sample of moves holds its farthest hexes along the coast road."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Allied")
    p.act("destroy_supply", side="Allied", unit="AL-Dump#1", by=SG)
    return p


def test_12_2_5_every_move_offered_to_the_destroying_unit_is_accepted():
    p = _2sg_destroys_its_dump()
    spent0 = movement.spent_destroying(p.state.stack[-1], [SG])
    assert spent0 and spent0[SG] > 0
    offered = [o.action for o in p.pending.options if o.action.kind == "move" and o.action.args["units"] == [SG]]
    assert offered, "2 SG is offered moves with the MP it has left"
    for a in offered:                                               # each on a fresh game at the same point
        q = _2sg_destroys_its_dump()
        q.eng.apply(a)
        assert q.state.units[SG].loc == a.args["path"][-1]
