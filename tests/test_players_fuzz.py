"""Every kind of player only sends actions the engine accepts (issue 21 "Must show": fuzzed over all scenarios),
and the same seed and setting give the same game.

Each of the ten scenarios is played from its set-up for a bounded number of decisions by each kind of
:data:`core.players.PLAYER_KINDS` - the computer opponent (``core.ai``) included - on one side (Axis in the
even-numbered scenarios, Allied in the odd ones, so every kind plays both sides) against the random bot on the
other; a refused action fails the test with the decision, the player and the engine's reason."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, IllegalAction
from core.engine import Engine
from core.newgame import initial_state
from core.players import PLAYER_KINDS, Table, make_player
from core.scenario import all_scenarios, load

SCENARIOS = [s.id for s in all_scenarios()]
#: decisions per game: the searching players are slower per decision than the bots
BUDGET = {"ai": 120, "greedy": 120, "random": 300, "pass": 300}


def _play(scenario: str, axis: str, allied: str, seed: int, decisions: int, setting: str = "quick") -> Engine:
    eng = Engine(initial_state(load(scenario), seed))
    table = Table.of(make_player(axis, AXIS, seed, setting), make_player(allied, ALLIED, seed, setting))
    for n in range(decisions):
        d = eng.pending()
        if d is None:
            break
        side, action = table.choose(eng)
        try:
            eng.apply(action)
        except IllegalAction as exc:  # pragma: no cover - the failure message is the point
            kind = axis if side == AXIS else allied
            pytest.fail(f"{scenario} seed {seed}, decision #{n} ({d.kind}, {d.rule}) at GT {eng.state.gt} phase "
                        f"{eng.state.phase}: the {kind} player ({side}) sent {action}, refused: {exc}")
    return eng


@pytest.mark.parametrize("kind", PLAYER_KINDS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_players_only_send_legal_actions(scenario, kind):
    i = SCENARIOS.index(scenario)
    mine, other = (AXIS, ALLIED) if i % 2 == 0 else (ALLIED, AXIS)
    kinds = {mine: kind, other: "random"}
    _play(scenario, kinds[AXIS], kinds[ALLIED], seed=i + 1, decisions=BUDGET[kind])


@pytest.mark.parametrize("setting,decisions", [("quick", 200), ("thoughtful", 80)])
def test_same_seed_and_setting_same_game(setting, decisions):
    a = _play("sonnenblume", "ai", "ai", 5, decisions, setting)
    b = _play("sonnenblume", "ai", "ai", 5, decisions, setting)
    assert len(a.state.stack) and a.hash() == b.hash()


def test_another_seed_another_game():
    assert _play("fox-killed", "ai", "random", 1, 120).hash() != _play("fox-killed", "ai", "random", 2, 120).hash()


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_ai_plays_every_scenario_to_its_end_and_verifies(scenario, tmp_path):
    """Issue 21: AI vs AI to the end with no exception, and the stored game verifies (also the AI vs AI row of
    ``python -m benchmarks.ai``)."""
    from core.game import Game, verify

    path = tmp_path / f"{scenario}.dfd"
    g = Game.new(path, scenario, 1, overwrite=True)
    table = Table.of(make_player("ai", AXIS, 1), make_player("ai", ALLIED, 1))
    while (pick := table.choose(g.engine)) is not None:
        g.act(pick[1])
    assert g.state.result and g.state.result.get("level") not in ("error", "unfinished", "undetermined")
    g.close()
    assert verify(path).ok
