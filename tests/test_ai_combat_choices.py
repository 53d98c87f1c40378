"""The computer opponent's interleaved combat choices (issue 21, ``core.ai.combat_choices``): the retreat path
(14.7), the advance after combat (14.8).  Hand-built positions with scripted dice; the decisions themselves are
reached by play from scenario set-ups in tests/test_ai.py and tests/test_players_fuzz.py (every AI answer applied)."""

from __future__ import annotations

from core.ai import AIPlayer
from core.decisions import Action
from core.dice import ScriptedDice
from core.engine import Engine
from core.hexgrid import Hex
from core.rules import combat, supply
from core.state import Frame, GameState, UnitState
from tests.playpath import pass_action


def position(units: list[tuple], scenario: str = "test") -> Engine:
    """GT 10, Combat Phase (weather off), ``units`` = (id, side, hex, steps[, fields]); ``scenario`` gives the
    victory conditions the AI reads its objectives from."""
    us = {u[0]: UnitState(id=u[0], side=u[1], loc=u[2], steps=u[3], **(u[4] if len(u) > 4 else {})) for u in units}
    return Engine(GameState(scenario=scenario, seed=1, gt=10, phase=8, step=1, initiative="Axis", first_player="Axis",
                            surprise=False, end_gt=99, units=us, vars={"weather_rules": False},
                            stack=[Frame(proc="turn")]))


def attack(eng: Engine, die: int, attackers: list[str], hex_: str) -> None:
    eng.dice = ScriptedDice([die] * 40)
    eng.apply(Action(kind="declare", side="Axis", args={"attackers": attackers, "hexes": [hex_], "form": "regular"}))


def retreat_ends(eng: Engine, uid: str, path: list[str], lo: int, hi: int) -> set[str]:
    """Every hex the engine lets ``uid`` end its retreat in (14.7.1, 14.7.2)."""
    out: set[str] = set()

    def walk(p: list[str]) -> None:
        if combat.stop_allowed(eng.state, uid, p, lo):
            out.add(p[-1])
        for n in combat.legal_retreat_steps(eng.state, uid, p, hi):
            walk(p + [n])

    walk(path)
    return out


def test_retreats_into_general_supply_not_next_to_the_enemy_nor_into_its_zoc():
    # 5:1 on a 6: 22 Bde loses a step and routs 4-6 hexes (14.7.1).  The Allied base at C2409 reaches some of the
    # hexes it may end in with a line of supply (12.4.1, IGS), not the western ones (a line of communication only)
    eng = position([("GE-5Pz", "Axis", "C1508", 2), ("GE-3Aufkl", "Axis", "C1508", 1), ("AX-Dump#1", "Axis", "C1508", 1),
                    ("UK-22Bde", "Allied", "C1509", 2), ("AL-Dump#1", "Allied", "C1509", 1),
                    ("AL-Base#1", "Allied", "C2409", 1, {"active": True})])
    attack(eng, 6, ["GE-5Pz", "GE-3Aufkl"], "C1509")
    while (d := eng.pending()).kind != "combat_retreat":
        eng.apply(pass_action(d))
    assert d.side == "Allied" and d.context["unit"] == "UK-22Bde" and (d.context["min"], d.context["max"]) == (4, 6)
    lines = supply.supply_lines(eng.state, "Allied")
    ends = retreat_ends(eng, "UK-22Bde", ["C1509"], 4, 6)
    # the choice is real: some legal ends are off the line of supply
    assert {e for e in ends if Hex.parse(e) not in lines.los} and {e for e in ends if Hex.parse(e) in lines.los}
    ai = AIPlayer("Allied", 1)
    while (d := eng.pending()).kind == "combat_retreat" and d.side == "Allied":
        eng.apply(ai.choose(d, eng))
    bde = eng.state.units["UK-22Bde"]
    end = Hex.parse(bde.loc)
    assert bde.loc in ends and end in lines.los
    assert not combat.in_ezoc(eng.state, "Allied", bde.loc)
    assert end.distance(Hex.parse("C1508")) >= 3


def test_a_withdrawal_holds_in_place_on_its_lines():
    # 7:1 on a 1: KDG withdraws 1-3 hexes or holds in place disrupted (14.7.1); on its line of communication it holds
    eng = position([("GE-5Pz", "Axis", "C1508", 2), ("GE-3Aufkl", "Axis", "C1508", 1), ("AX-Dump#1", "Axis", "C1508", 1),
                    ("UK-KDG", "Allied", "C1509", 1), ("AL-Base#1", "Allied", "C2409", 1, {"active": True})])
    attack(eng, 1, ["GE-5Pz", "GE-3Aufkl"], "C1509")
    while (d := eng.pending()).kind != "combat_retreat":
        eng.apply(pass_action(d))
    assert Hex.parse("C1509") in supply.supply_lines(eng.state, "Allied").loc
    a = AIPlayer("Allied", 1).choose(d, eng)
    assert a.args == {"unit": "UK-KDG", "hold": True}


def _advance(scenario: str, base: bool = False) -> tuple[Engine, list[dict]]:
    # 7:1 on a 1 against KDG in C0803 (Mersa Brega, a port of Desert Fox's 27.3 count: an objective there; 26.3
    # counts standard port capacity, which Mersa Brega has none of, so it is no objective in Sonnenblume); the
    # defender withdraws three hexes east (scripted: C0906), the hex is vacated and the Axis player may advance (14.8)
    units = [("GE-5Pz", "Axis", "C0802", 2), ("GE-3Aufkl", "Axis", "C0802", 1), ("AX-Dump#1", "Axis", "C0802", 1),
             ("UK-KDG", "Allied", "C0803", 1)]
    if base:
        units.append(("AX-Base#1", "Axis", "C0701", 1, {"active": True}))
    eng = position(units, scenario)
    attack(eng, 1, ["GE-5Pz", "GE-3Aufkl"], "C0803")
    ai = AIPlayer("Axis", 1)
    asked = []
    while (d := eng.pending()).kind != "combat_advance":
        a = pass_action(d)
        if d.kind == "combat_retreat" and d.side == "Allied":     # withdraw rather than hold (14.7.1)
            a = [o.action for o in d.options if o.action.args.get("to")][-1]
        eng.apply(a)
    while (d := eng.pending()) is not None and d.kind == "combat_advance":
        a = ai.choose(d, eng)
        asked.append(dict(a.args, kind=a.kind))
        eng.apply(a)
    return eng, asked


def test_advances_after_combat_into_the_vacated_hex_that_is_its_objective():
    eng, asked = _advance("desert-fox")
    assert eng.state.units["UK-KDG"].loc == "C0906"
    assert [a["unit"] for a in asked if a["kind"] == "advance"] == ["GE-5Pz", "GE-3Aufkl"]   # the strongest first
    assert eng.state.units["GE-5Pz"].loc == "C0803" == eng.state.units["GE-3Aufkl"].loc


def test_advances_next_to_its_supply_lines_but_not_off_them():
    # without victory conditions the hex is no objective: with no base the attackers are off every Axis line (12.4)
    # and stay; with an active base at C0701 their hex is on a line of supply and they advance next to it
    eng, asked = _advance("test")
    assert [a["kind"] for a in asked] == ["advance_done"] and eng.state.units["GE-5Pz"].loc == "C0802"
    eng, asked = _advance("test", base=True)
    assert asked[0] == {"unit": "GE-5Pz", "hex": "C0803", "kind": "advance"}
    assert Hex.parse("C0803") in supply.supply_lines(eng.state, "Axis").los      # and it is on the line once entered


def _morale_choice(dump: bool) -> tuple[dict, Action]:
    # Nizza attacks 1 SA BG (morale 3) at 1:2; a 1 gives the defender 'm' (14.5).  Without a dump the defender is
    # out of combat supply (12.6): morale 3 + 1, the check passes on 1-2 only (8.1)
    units = [("IT-Nizza", "Axis", "C1508", 1), ("AX-Dump#1", "Axis", "C1508", 1), ("SA-1SABG", "Allied", "C1509", 2)]
    if dump:
        units.append(("AL-Dump#1", "Allied", "C1509", 1))
    eng = position(units)
    attack(eng, 1, ["IT-Nizza"], "C1509")
    while (d := eng.pending()).kind != "combat_morale":
        eng.apply(pass_action(d))
    assert d.side == "Allied" and [o.action.args["choice"] for o in d.options] == ["check", "withdraw"]
    return d.context["def_supplied"], AIPlayer("Allied", 1).choose(d, eng)


def test_morale_m_result_checks_when_it_passes_half_the_time_else_withdraws():
    supplied, a = _morale_choice(dump=True)
    assert supplied == {"SA-1SABG": True} and a.args == {"unit": "SA-1SABG", "choice": "check"}        # 3 in 6
    supplied, a = _morale_choice(dump=False)
    assert supplied == {"SA-1SABG": False} and a.args == {"unit": "SA-1SABG", "choice": "withdraw"}    # 2 in 6


def test_exploits_a_mobile_battle_toward_the_objective():
    # 14.9.2 / 14.9.3: 5 Pz (mobile battle marker, 14.9.2) clears C0402 on a 2 (KDG withdraws, scripted as a player
    # who passes would); it advances (14.8: the exploitation follows only an advance) and exploits up to its RMA
    # toward Mersa Brega (C0803, an objective of Sonnenblume's 26.3 port count)
    eng = position([("GE-5Pz", "Axis", "C0401", 2, {"flags": {"battle": "mobile"}}), ("AX-Dump#1", "Axis", "C0401", 1),
                    ("AX-Base#1", "Axis", "C0301", 1, {"active": True}), ("UK-KDG", "Allied", "C0402", 1)],
                   "sonnenblume")
    eng.dice = ScriptedDice([2] * 40)
    eng.apply(Action(kind="declare", side="Axis", args={"attackers": ["GE-5Pz"], "hexes": ["C0402"], "form": "mobile"}))
    ai = AIPlayer("Axis", 1)
    kinds = []
    while (d := eng.pending()) is not None and not (d.kind == "combat_declare" and kinds):
        a = ai.choose(d, eng) if d.kind in ("combat_advance", "combat_exploit") else pass_action(d)
        kinds.append((d.kind, a.kind))
        eng.apply(a)
    assert ("combat_advance", "advance") in kinds and ("combat_exploit", "exploit") in kinds
    goal = Hex.parse("C0803")
    assert Hex.parse(eng.state.units["GE-5Pz"].loc).distance(goal) < Hex.parse("C0402").distance(goal) - 1
