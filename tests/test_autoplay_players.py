"""``dfd autoplay`` with a player per side (issue 21): ``--axis`` / ``--allied`` / ``--ai-setting``; ``--bot`` alone
plays the same games as before; the last line of standard output is the JSON result with each side's kind,
decisions and thinking time."""

from __future__ import annotations

import json

from app import cli
from core.bots import RandomBot
from core.decisions import ALLIED, AXIS
from core.engine import Engine
from core.newgame import initial_state
from core.scenario import load


def _run(capsys, *args: str) -> dict:
    assert cli.main(["autoplay", *args]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_bot_alone_plays_the_same_game_as_one_random_bot_for_both_sides(tmp_path, capsys):
    out = _run(capsys, "fox-killed", "--seed", "3", "--bot", "random", "--max-decisions", "200", "-o",
               str(tmp_path / "a.dfd"))
    eng = Engine(initial_state(load("fox-killed"), 3))
    bot = RandomBot(3)
    for _ in range(200):
        eng.apply(bot.choose(eng.pending()))
    assert out["hash"] == eng.hash() and out["decisions"] == 200
    assert out["players"] == {AXIS: "random", ALLIED: "random"}
    assert out["result"]["level"] == "unfinished"


def test_a_player_per_side_reports_kinds_decisions_and_thinking_time(tmp_path, capsys):
    args = ("fox-killed", "--seed", "2", "--axis", "greedy", "--allied", "pass", "--max-decisions", "300",
            "-o", str(tmp_path / "b.dfd"))
    out = _run(capsys, *args)
    assert out["players"] == {AXIS: "greedy", ALLIED: "pass"} and out["ai_setting"] == "quick"
    assert sum(out["decisions_by_side"].values()) == out["decisions"] <= 300
    assert all(out["decisions_by_side"][s] > 0 for s in (AXIS, ALLIED))
    for s in (AXIS, ALLIED):
        t = out["thinking"][s]
        assert 0 <= t["p50"] <= t["p95"] <= t["max"] <= t["total"] and t["turn_max"] <= t["total"]
    again = _run(capsys, *args[:-1], str(tmp_path / "c.dfd"))
    assert again["hash"] == out["hash"]             # same seed, same players: same game
    # one side given: the other side is --bot's kind
    one = _run(capsys, "fox-killed", "--seed", "2", "--allied", "pass", "--max-decisions", "50", "-o",
               str(tmp_path / "d.dfd"))
    assert one["players"] == {AXIS: "random", ALLIED: "pass"}


def test_percentile_is_nearest_rank():
    xs = [float(i) for i in range(1, 101)]
    assert cli._percentile(xs, 0.5) == 50.0 and cli._percentile(xs, 0.95) == 95.0
    assert cli._percentile([3.0], 0.95) == 3.0 and cli._percentile([], 0.5) == 0.0
