"""23.2 AXC-1 Important: "Divisions listed as part of Fifth Army have movement restrictions imposed until released by
AXC-8 (Fifth Army)"; AXC-8 is put in play the GT after AXC-5 (Parallel War) is played and releases the divisions of
its table at T+1 ... T+6.  From the real Desert War set-up (28.0: the six divisions with the Axis base in Tripoli,
L2817) through ``Engine.apply`` only (tests/playpath.py).  Before this test the restriction was recorded
(``fifth_army_restricted``) but no move was refused."""

from __future__ import annotations

from core.decisions import AXIS, Decision
from tests.playpath import Play

DIVISIONS = ("IT-61Sirte", "IT-60Sabratha", "IT-27Brescia", "IT-17Pavia", "IT-25Bologna", "IT-55Savona")


def _parallel_war(d: Decision):
    return next((o.action for o in d.options if o.action.kind == "play_card"
                 and o.action.args.get("card") == "AXC-5"), None)


def _moved(d: Decision) -> set[str]:
    return {u for o in d.options if o.action.kind == "move" for u in o.action.args["units"]}


def test_23_2_axc_1_axc_8_play_path_desert_war_fifth_army_divisions_move_only_once_released():
    p = Play("desert-war", seed=1)
    d = p.to("movement", side=AXIS, gt=1)
    assert {p.state.units[u].loc for u in DIVISIONS} == {"L2817"}
    assert not _moved(d) & set(DIVISIONS) and p.eng.query("fifth_army_restricted", unit="IT-61Sirte")
    assert p.refuse("move", units=["IT-61Sirte"], path=["L2816"]).rule == "23.2 AXC-8"
    assert p.refuse("move", units=["IT-10Ber", "IT-55Savona"], path=["L2816"]).rule == "23.2 AXC-8"
    p.act("move", units=["IT-10Ber"], path=["L2816"])                  # not a Fifth Army division
    d = p.to("movement", side=AXIS, gt=4, script={"events": _parallel_war})
    c = p.state.cards["AXC-8"]
    assert p.state.cards["AXC-5"]["played_gt"] == 2 and c["played_gt"] == 3
    assert not _moved(d) & set(DIVISIONS[1:])                                    # T+1: only 61 Sirte
    p.act("move", units=["IT-61Sirte"], path=["L2816"])
    assert p.state.units["IT-61Sirte"].loc == "L2816"
    assert p.refuse("move", units=["IT-55Savona"], path=["L2816"]).rule == "23.2 AXC-8"   # T+6
