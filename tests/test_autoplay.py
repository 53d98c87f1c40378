"""Autoplay (issue 7 'Must show'): the short scenarios play from set-up to the end of their last GT with the
random bot, report a victory result, and ``core.game.verify`` reproduces the final hash; a property test checks
the invariants of ``tests/invariants.py`` after every action: counter conservation (every counter on a land hex,
in a box, on a card/track, or removed by a rule that says so), counter-mix limits (2.4), the end-scenario marker
only moves by rules that move it (4.0), stacking at phase ends (10.3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from core.bots import RandomBot
from core.decisions import IllegalAction
from core.game import Game, verify
from tests.invariants import Before, check

#: decision kinds owned by the strategic rules: a refusal of one of their enumerated options is a bug here
MINE = {"events", "card_choice", "met_rolls", "air_deploy", "reinforce", "withdraw", "allow_withdrawal",
        "ocean_shipping"}


def autoplay(scenario: str, seed: int, path: Path, max_decisions: int = 30000, check=None):
    """Drive a game with the random bot through ``Game.act`` (as ``dfd autoplay`` does).  An enumerated option
    another module refuses is recorded and the next option tried (reported, never masked for our kinds)."""
    g = Game.new(path, scenario, seed, overwrite=True)
    bot = RandomBot(seed)
    refused: list[tuple[str, str]] = []
    n = 0
    while (d := g.engine.pending()) is not None and n < max_decisions:
        before = Before.of(g.state)
        try:
            g.act(bot.choose(d))
        except IllegalAction as exc:
            refused.append((d.kind, str(exc)))
            for o in d.options:
                try:
                    g.act(o.action)
                    break
                except IllegalAction:
                    continue
            else:
                raise
        n += 1
        if check:
            check(g, before)
    return g, n, refused


def invariants(g, before) -> None:
    """The invariants of ``tests/invariants.py`` (shared with ``scripts/fuzz_autoplay.py``)."""
    check(g.state, before)


@pytest.mark.parametrize("scenario", ["fox-killed", "sonnenblume", "run-for-tunis", "trail-of-the-fox"])
def test_short_scenarios_autoplay_to_the_end_and_verify(scenario, tmp_path):
    path = tmp_path / f"{scenario}.dfd"
    g, n, refused = autoplay(scenario, 1, path)
    res = g.state.result
    assert res is not None and res.get("level") not in (None, "undetermined", "unfinished"), res
    assert res["gt"] == g.state.gt and (res.get("level") == "instant" or g.state.gt >= g.state.end_gt)
    assert not [r for r in refused if r[0] in MINE], refused
    final = g.engine.hash()
    g.close()
    rep = verify(path)
    assert rep.ok, rep.message
    g2 = Game.open(path)
    assert g2.engine.hash() == final
    g2.close()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(min_value=1, max_value=10_000),
       scenario=hs.sampled_from(["run-for-tunis", "trail-of-the-fox", "fox-killed"]))
def test_property_counters_conserved_mix_limits_es_moves_by_rule(seed, scenario, tmp_path):
    g, n, _ = autoplay(scenario, seed, tmp_path / f"p-{scenario}-{seed}.dfd", check=invariants)
    assert g.state.result is not None
    g.close()
