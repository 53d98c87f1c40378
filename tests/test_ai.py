"""The computer opponent (issue 21): legal play from real scenario set-ups, determinism, and its choices in
positions reached by play."""

from __future__ import annotations

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


def test_same_seed_and_setting_give_the_same_game():
    a, _ = play("sonnenblume", 5, limit=250)
    b, _ = play("sonnenblume", 5, limit=250)
    assert a.hash() == b.hash() and len(a.log) == len(b.log)
