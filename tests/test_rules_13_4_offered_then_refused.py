"""Two options the engine offered and then refused (found by ``scripts/fuzz_autoplay.py``, issue 16), each
reached by play from the Sonnenblume set-up (26.0, GT 10, Axis Movement Phase XII.3, surprise):

* 13.4.3 / 13.5 a): the ``overrun_reaction`` decision offered reaction moves from the reachable-hex search, which
  reads no friendly position, while the move is checked by ``trace``, which applies 13.5 a) "They may not enter
  an EZOC unless the unit generating the EZOC is already adjacent to a friendly unit".  Every offered move now
  passes the same check as the move action (``OverrunReaction.reaction_plan``).
* 13.4.4: "If the defender's hex is vacated by the overrun combat, the moving unit enters the hex and may
  continue its movement".  The rest of the declared path was checked only when the combat's last choice was
  applied, so a continuation made illegal by the combat (the overrunning unit disrupted by its own m result,
  8.2) refused the combat choice offered to the player -- here a ``combat_retreat`` option.  The units now stop
  in the cleared hex (G-OVERRUN-CLEARED), and a unit the combat retreated does not enter it (14.7)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, IllegalAction
from core.dice import ScriptedDice, SeededDice
from tests.playpath import Play


def _accepted(p: Play) -> list[tuple[dict, str]]:
    """The offered options of the pending decision the engine refuses (each tried on its own fork)."""
    bad = []
    for o in p.pending.options:
        try:
            p.eng.fork(SeededDice()).apply(o.action)
        except IllegalAction as exc:
            bad.append((dict(o.action.args), f"{exc} [{exc.rule}]"))
    return bad


def test_13_5_a_every_move_offered_to_react_away_from_an_overrun_is_accepted():
    """3 Aufkl steps to C0701 and leaves 300 Oasis alone in C0702, next to no Allied unit; 8 Ber (RMA 4)
    overruns KDG in C0603 and the surprised KDG rolls a 5 (6.2): it may react away (13.4.3).  C0704 -> C0703
    enters the ZOC of 8 Ber (C0602) and 300 Oasis, next to no Allied unit but the reacting KDG: 13.5 a) refuses
    it, so it is not offered (it was, before); every offered move is accepted."""
    p = Play("sonnenblume", seed=1)
    p.to(step="XII.3", gt=10)
    p.act("move", AXIS, units=["GE-3Aufkl"], path=["C0701"])
    p.eng.dice = ScriptedDice([5], fallback=SeededDice())
    p.act("move", AXIS, units=["IT-8Ber"], path=["C0702", "C0602", "C0603"])
    d = p.pending
    assert d.kind == "overrun_reaction" and d.context["units"] == ["UK-KDG"]
    assert _accepted(p) == []
    offered = [o.action.args["path"] for o in d.options if o.action.kind == "move"]
    assert ["C0704", "C0703"] not in offered and ["C0704"] in offered
    exc = p.refuse("move", ALLIED, units=["UK-KDG"], path=["C0704", "C0703"])
    assert exc.rule == "13.5" and "may not enter the ZOC" in str(exc)


def _overrun_with_rest(p: Play) -> None:
    """5 Pz overruns KDG in C0603 and means to go on to C0605: FF Afrika supports (19.5), die 3: KDG is
    eliminated (Hr), 5 Pz gets m, checks morale, rolls 6 and is disrupted (14.5, 8.1) -- its MA is halved (8.2)
    and the rest of its path is now beyond it."""
    p.to(step="XII.3", gt=10)
    p.eng.dice = ScriptedDice([3, 6], fallback=SeededDice())
    p.act("move", AXIS, units=["GE-5Pz"], path=["C0602", "C0603", "C0604", "C0605"])
    p.act("support", AXIS, unit="GE-FFAfrika")
    p.to("combat_morale")
    p.act("morale_choice", AXIS, unit="GE-5Pz", choice="check")
    d = p.pending
    assert d.kind == "combat_retreat" and d.context["unit"] == "GE-5Pz" and p.state.units["GE-5Pz"].disrupted
    assert p.state.units["UK-KDG"].loc.startswith("box:")


def test_13_4_4_every_retreat_offered_after_an_overrun_is_accepted_and_the_units_stop_in_the_cleared_hex():
    p = Play("sonnenblume", seed=1)
    _overrun_with_rest(p)
    assert _accepted(p) == []
    n = len(p.eng.log)
    p.act("retreat", AXIS, unit="GE-5Pz", stop=True)
    assert p.state.units["GE-5Pz"].loc == "C0603"          # entered the cleared hex (13.4.4) and stopped there
    assert any("rest of the declared path is not legal" in e for e in p.events(n))
    assert p.pending.kind == "movement" and p.pending.side == AXIS


def test_13_4_4_an_overrunning_unit_the_combat_retreated_does_not_enter_the_cleared_hex():
    p = Play("sonnenblume", seed=1)
    _overrun_with_rest(p)
    p.act("retreat", AXIS, unit="GE-5Pz", to="C0703")
    if p.pending.kind == "combat_retreat":
        p.act("retreat", AXIS, unit="GE-5Pz", stop=True)
    assert p.state.units["GE-5Pz"].loc == "C0703"
    assert p.pending.kind == "movement"
