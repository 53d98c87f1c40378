"""The computer opponent (issue 21): legal play from real scenario set-ups, determinism, and its choices in
positions reached by play."""

from __future__ import annotations

import pytest

from core.ai import AIPlayer
from core.bots import RandomBot
from core.engine import Engine
from core.newgame import initial_state
from core.scenario import load


def play(scenario: str, seed: int, axis: str = "ai", allied: str = "random", limit: int = 20000,
         setting: str = "quick") -> tuple[Engine, dict[str, AIPlayer]]:
    """Drive a real scenario with the AI for the sides named "ai" and the random bot otherwise; every action goes
    through ``Engine.apply`` (a refused one raises)."""
    eng = Engine(initial_state(load(scenario), seed))
    ais = {s: AIPlayer(s, seed, setting) for s, k in (("Axis", axis), ("Allied", allied)) if k == "ai"}
    rnd = RandomBot(seed)
    n = 0
    while (d := eng.pending()) is not None and n < limit:
        side = "Axis" if d.side == "either" else d.side
        a = ais[side].choose(d, eng) if side in ais else rnd.choose(d)
        eng.apply(a)
        n += 1
    return eng, ais


def test_ai_plays_sonnenblume_to_the_end_as_both_sides():
    eng, ais = play("sonnenblume", 3, axis="ai", allied="ai")
    assert eng.pending() is None and eng.state.result is not None
    assert ais["Axis"].plans and all(p.startswith(("Axis:",)) for p in ais["Axis"].plans)


SCENARIOS = ["fox-killed", "oconnors-war", "sonnenblume", "desert-fox", "desert-war", "run-for-tunis",
             "trail-of-the-fox", "tunisian-campaign", "rommels-war", "north-african-campaign"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_ai_answers_every_decision_with_an_accepted_action(scenario):
    # the AI for both sides from the scenario's set-up: every answer goes through Engine.apply (a refusal raises)
    eng, ais = play(scenario, 2, axis="ai", allied="ai", limit=120)
    assert len(eng.log) == 120 or eng.state.result is not None


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_ai_against_ai_plays_every_scenario_to_its_end(scenario):
    eng, _ = play(scenario, 1, axis="ai", allied="ai", limit=10**6)
    assert eng.pending() is None and eng.state.result is not None


def test_same_seed_and_setting_give_the_same_game():
    a, _ = play("sonnenblume", 5, limit=150)
    b, _ = play("sonnenblume", 5, limit=150)
    assert a.hash() == b.hash() and len(a.log) == len(b.log)


# --------------------------------------------------------------------------- hand-built positions
from core.decisions import Action  # noqa: E402
from core.hexgrid import Hex  # noqa: E402
from core.rules import supply  # noqa: E402
from core.state import Frame, GameState, UnitState  # noqa: E402


def position(units: list[tuple], phase: int, step: int) -> Engine:
    """A GT 10 position (weather rules off) with ``units`` = (id, side, hex, steps[, fields]) at ``phase``/``step``;
    the engine asks the step's own decision.  Play-path tests above reach the same decisions from a scenario."""
    us = {u[0]: UnitState(id=u[0], side=u[1], loc=u[2], steps=u[3], **(u[4] if len(u) > 4 else {})) for u in units}
    return Engine(GameState(scenario="test", seed=1, gt=10, phase=phase, step=step, initiative="Axis",
                            first_player="Axis", surprise=False, end_gt=99, units=us, vars={"weather_rules": False},
                            stack=[Frame(proc="turn")]))


def answers(eng: Engine, side: str, n: int = 10) -> list[Action]:
    """The AI's answers to the pending decisions of ``side`` until it says done (each applied)."""
    ai = AIPlayer(side, 1)
    out = []
    for _ in range(n):
        d = eng.pending()
        a = ai.choose(d, eng)
        eng.apply(a)
        out.append(a)
        if a.kind == "done":
            break
    return out


def test_takes_an_obviously_winning_attack():
    # 14.0: 5 Pz (two steps) and 3 Aufkl, with a dump for combat supply (12.6), against KDG alone in open desert: 7:1
    eng = position([("GE-5Pz", "Axis", "C1508", 2), ("GE-3Aufkl", "Axis", "C1508", 1), ("AX-Dump#1", "Axis", "C1508", 1),
                    ("UK-KDG", "Allied", "C1509", 1)], phase=8, step=1)
    assert eng.pending().kind == "combat_declare"
    acts = answers(eng, "Axis", 2)
    assert acts[0].kind == "declare" and acts[0].args["hexes"] == ["C1509"]
    assert sorted(acts[0].args["attackers"]) == ["GE-3Aufkl", "GE-5Pz"]


def test_avoids_an_obviously_suicidal_attack():
    # Nizza alone against three light armoured brigades: 1:4; the AI declares nothing
    eng = position([("IT-Nizza", "Axis", "C1508", 1), ("UK-7LtArm", "Allied", "C1509", 2),
                    ("UK-4LtArm", "Allied", "C1509", 2), ("UK-3LtArm", "Allied", "C1509", 2)], phase=8, step=1)
    assert "1:4" in eng.query("odds", attackers=["IT-Nizza"], hex="C1509")["odds"]
    assert [a.kind for a in answers(eng, "Axis", 2)] == ["done"]


def test_the_look_ahead_declines_an_unsupplied_attack_whose_x_result_can_destroy_a_unit():
    # the same 7:1 without combat supply: on 1-2 the attackers read X (14.5), half of KDG's step rounds up to one
    # (14.6) and the one-step 3 Aufkl, with no line of supply, is destroyed (8.3); resolved on copies with the
    # player's own dice, the attack costs more than it gains (the odds preview alone would take it)
    eng = position([("GE-5Pz", "Axis", "C1508", 2), ("GE-3Aufkl", "Axis", "C1508", 1), ("UK-KDG", "Allied", "C1509", 1)],
                   phase=8, step=1)
    assert [a.kind for a in answers(eng, "Axis", 2)] == ["done"]


def test_keeps_an_isolated_units_supply_line_open():
    # 12.4.1: 5 Pz three hexes beyond the base's line of supply; the MSU moves up so that it is on a line again
    eng = position([("AX-Base#1", "Axis", "C0701", 1, {"active": True}), ("AX-MSU#1", "Axis", "C0701", 1),
                    ("GE-5Pz", "Axis", "C0111", 2)], phase=6, step=3)
    assert eng.pending().kind == "movement"
    assert Hex.parse("C0111") not in supply.supply_lines(eng.state, "Axis").los
    acts = answers(eng, "Axis")
    assert any(a.args.get("units") == ["AX-MSU#1"] for a in acts)
    assert Hex.parse(eng.state.units["GE-5Pz"].loc) in supply.supply_lines(eng.state, "Axis").los
