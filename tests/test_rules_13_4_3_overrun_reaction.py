"""13.4.3 Reacting to an Overrun: "If the unit about to be overrun has a greater reaction MA than the overrunning
unit, it may react away from the hex (13.5)" -- with the HQ's +2 of 15.6 on either side and the surprise roll of
6.2 (ruling G-OVERRUN-REACT).  A play-path game of Sonnenblume (26.0, surprise) reaches the roll; hand-built
positions hold each boundary."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice, SeededDice
from core.engine import PROCEDURES
from tests.ground_helpers import engine_at_movement, unit
from tests.playpath import Play


class _NoCombat:
    """Stands in for ``resolve_combat``: the overrun itself is not what these tests look at."""
    called = 0

    def enter(self, eng, frame):
        _NoCombat.called += 1
        frame.data["attacker_morale_done"] = True      # no 13.4.4 morale roll: only the 13.4.3 rolls are counted

    def decide(self, eng, frame):
        return None


@pytest.fixture
def no_combat(monkeypatch):
    _NoCombat.called = 0
    monkeypatch.setitem(PROCEDURES, "resolve_combat", _NoCombat())


def move(side: str, units: list[str], path: list[str]) -> Action:
    return Action(kind="move", side=side, args={"units": units, "path": path})


def overrun_kdg(eng, movers):
    path = ["C1011", "C1012", "C1013"]
    return eng.apply(move(AXIS, movers, path))


def test_13_4_3_hq_with_the_defender_adds_two(gm, no_combat):
    """3 Aufkl (RMA 7) overruns KDG (RMA 7): not greater, no reaction; KDG stacked with the WDF HQ: 7 + 2 = 9."""
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")])
    overrun_kdg(eng, ["GE-3Aufkl"])
    assert _NoCombat.called == 1 and eng.pending().kind == "movement"
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013"),
                              unit("UK-WDF", ALLIED, "C1013")])
    overrun_kdg(eng, ["GE-3Aufkl"])
    d = eng.pending()
    assert d.kind == "overrun_reaction" and set(d.context["units"]) == {"UK-KDG", "UK-WDF"}
    # the stack reacts with the HQ's +2: KDG 9 MP, WDF (RMA 6) 8 MP; leaving 3 Aufkl's ZOC costs 1 + 2 (recon
    # superiority, 15.3), then 1 MP a clear hex: C1019 for 8 MP, not C1020
    far8 = ["C1014", "C1015", "C1016", "C1017", "C1018", "C1019"]
    with pytest.raises(IllegalAction) as exc:
        eng.apply(move(ALLIED, ["UK-KDG", "UK-WDF"], far8 + ["C1020"]))
    assert exc.value.rule == "13.2" and "WDF needs 9 MP" in str(exc.value)
    eng.dice = ScriptedDice([])
    eng.apply(move(ALLIED, ["UK-KDG", "UK-WDF"], far8))
    assert eng.state.units["UK-KDG"].loc == "C1019" and eng.log[-1].rolls == []   # 15.6: no morale check with an HQ


def test_13_4_3_hq_with_the_overrunning_units_adds_two(gm, no_combat):
    """8 Ber (RMA 4) overruns KDG (RMA 7): KDG may react; 8 Ber with the Kasta HQ (RMA 7 + 2 = 9): it may not
    (15.6 "This also applies when determining enemy reaction capability during overrun")."""
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")])
    overrun_kdg(eng, ["IT-8Ber"])
    assert eng.pending().kind == "overrun_reaction"
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010"), unit("GE-Kasta", AXIS, "C1010"),
                              unit("UK-KDG", ALLIED, "C1013")])
    overrun_kdg(eng, ["IT-8Ber", "GE-Kasta"])
    assert _NoCombat.called == 1 and eng.pending().kind == "movement"


@pytest.mark.parametrize("roll,reacts", [(4, False), (5, True)])
def test_13_4_3_surprise_roll_must_beat_the_overrunning_rma(gm, no_combat, roll, reacts):
    """6.2: the surprised 2nd player's KDG (not in reserve) rolls 1d6 for its RMA; vs 8 Ber's RMA 4 a 4 is not
    greater, a 5 is -- and the reaction move is limited to the roll."""
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")], surprise=True)
    eng.dice = ScriptedDice([roll, 1])
    entry = overrun_kdg(eng, ["IT-8Ber"])
    assert entry.rolls == [roll]
    assert (eng.pending().kind == "overrun_reaction") is reacts
    if reacts:
        with pytest.raises(IllegalAction, match="has 5"):
            eng.apply(move(ALLIED, ["UK-KDG"], ["C1014", "C1015", "C1016", "C1017", "C1018", "C1019"]))
        eng.apply(move(ALLIED, ["UK-KDG"], ["C1014", "C1015", "C1016", "C1017", "C1018"]))
        assert eng.state.units["UK-KDG"].loc == "C1018" and eng.log[-1].rolls == [1]   # morale check (13.4.3)


def test_13_4_3_surprise_no_roll_when_even_a_six_is_not_greater(gm, no_combat):
    """Example of Play: "The KDG is unable to react due to surprise (6.2) and having a maximum RMA of 6 (1d6)"."""
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")], surprise=True)
    eng.dice = ScriptedDice([])
    entry = overrun_kdg(eng, ["GE-3Aufkl"])
    assert entry.rolls == [] and eng.pending().kind == "movement"


def test_13_4_3_non_motorised_defenders_do_not_react(gm, no_combat):
    """13.2.1: a non-motorised unit has no RMA in MP, only a one-hex move: never "greater" (G-OVERRUN-REACT),
    not even with an HQ."""
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010"), unit("AU-20AusBG", ALLIED, "C1013"),
                              unit("UK-WDF", ALLIED, "C1013")])
    overrun_kdg(eng, ["IT-8Ber"])
    d = eng.pending()
    assert d.kind == "overrun_reaction" and d.context["units"] == ["UK-WDF"]


def test_13_4_3_play_path_sonnenblume_surprised_kdg_rolls_for_its_rma():
    """Sonnenblume GT 10 XII (surprise, 26.0): 8 Ber (trucked, RMA 4) overruns KDG in C0603; KDG, surprised
    and not in reserve, rolls 1d6 for its RMA (6.2): a 5 beats 4 and KDG reacts away, then checks morale."""
    p = Play("sonnenblume", seed=1, dice=ScriptedDice([5, 1], fallback=SeededDice()))
    p.to(step="XII.3", gt=10)
    entry = p.act("move", AXIS, units=["IT-8Ber"], path=["C0702", "C0602", "C0603"])
    assert entry.rolls == [5]
    d = p.pending
    assert d.kind == "overrun_reaction" and d.side == ALLIED and d.context["units"] == ["UK-KDG"]
    entry = p.eng.apply(next(o.action for o in d.options if o.action.kind == "move"))
    assert p.state.units["UK-KDG"].loc != "C0603" and entry.rolls == [1]
    assert any("after reacting away from an overrun" in e for e in entry.events)
