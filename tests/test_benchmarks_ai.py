"""The judging of ``python -m benchmarks.ai`` (issue 21 "Must show"): seed by seed against the pass bot, the share
of wins against the greedy bot, AI vs AI ended and verified; on made-up results (the games themselves are the
benchmark's, never the suite's)."""

from __future__ import annotations

from benchmarks.ai import Game, best_level, judge_aivai, judge_vs_greedy, judge_vs_random, table


def _g(winner, level, seed, scenario="sonnenblume", gt=12, verified=None) -> Game:
    g = Game(scenario, "ai", "random", seed, "quick")
    g.out = {"result": {"winner": winner, "level": level}, "gt": gt}
    g.verified = verified
    return g


def test_best_level_per_side_from_the_victory_data():
    assert best_level("sonnenblume", "Allied") == best_level("sonnenblume", "Axis") == 3   # 26.3 smashing
    assert best_level("fox-killed", "Axis") == 4                                           # 24.2 a) instant
    assert best_level("fox-killed", "Allied") == 2                                         # 24.3 win
    assert best_level("oconnors-war", "Allied") == 2                                       # 25.3 controller


def test_vs_random_never_worse_and_strictly_better_on_a_majority_of_the_contested_seeds():
    passed = [_g("Allied", "smashing", 1), _g("Allied", "smashing", 2), _g("Allied", "marginal", 3)]
    better = [_g("Axis", "smashing", 1), _g("Allied", "marginal", 2), _g("Allied", "marginal", 3)]
    c = judge_vs_random("sonnenblume", "Axis", better, passed)
    assert c["pass"] and c["not_worse"] == 3 and c["contested"] == 3 and c["strictly_better"] == 2
    once = [_g("Axis", "smashing", 1), _g("Allied", "smashing", 2), _g("Allied", "marginal", 3)]
    assert not judge_vs_random("sonnenblume", "Axis", once, passed)["pass"]        # better on 1 of 3 only
    worse = [_g("Axis", "smashing", 1), _g("Axis", "smashing", 2), _g("Allied", "smashing", 3)]
    assert not judge_vs_random("sonnenblume", "Axis", worse, passed)["pass"]       # worse on seed 3
    # the pass bot already wins at the top level on every seed: equal is enough
    top = [_g("Allied", "smashing", n) for n in (1, 2, 3)]
    c = judge_vs_random("sonnenblume", "Allied", top, top)
    assert c["pass"] and c["contested"] == 0
    errored = [_g(None, "error", 1)] + top[1:]
    assert not judge_vs_random("sonnenblume", "Allied", errored, top)["pass"]


def test_vs_greedy_needs_seven_in_ten():
    games = [_g("Axis", "win", n, "trail-of-the-fox") for n in range(7)] + [
        _g("Allied", "win", n, "trail-of-the-fox") for n in range(7, 10)]
    assert judge_vs_greedy("trail-of-the-fox", "Axis", games)["pass"]
    assert not judge_vs_greedy("trail-of-the-fox", "Allied", games)["pass"]


def test_ai_vs_ai_needs_an_end_and_a_verified_replay():
    ok = [_g("Axis", "win", 1, "trail-of-the-fox", verified=True)]
    assert judge_aivai(ok)["pass"]
    assert not judge_aivai(ok + [_g(None, "unfinished", 1, "fox-killed", verified=True)])["pass"]
    assert not judge_aivai([_g("Axis", "win", 1, "run-for-tunis", verified=False)])["pass"]
    doc = {"player": "ai", "setting": "quick", "seeds": 1, "minutes": 0, "cells": [judge_aivai(ok)], "timing": {},
           "machine": {"cpus": 2, "jobs": 2, "load_before": 0, "load_after": 0}}
    assert "| AI vs AI" in table(doc) and "PASS" in table(doc)
