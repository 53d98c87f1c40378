"""The play-path helper itself (tests/playpath.py): it reaches decisions from a real set-up by passing, applies
offered and free-form actions through ``Engine.apply``, and refuses without touching the state."""

from __future__ import annotations

import pytest

from core.decisions import AXIS
from tests.playpath import Play


def test_to_passes_until_the_axis_movement_phase_and_act_applies_an_offered_move():
    p = Play("sonnenblume", seed=1)
    d = p.to("movement", side=AXIS)
    assert p.eng.step.key in ("VI.3", "XII.3") and d.rule.startswith("4.1")
    n = len(p.eng.log)
    o = p.option("move", units=["GE-3Aufkl"])
    assert o is not None and p.option("move", units=["no-such-unit"]) is None
    p.act("move", units=["GE-3Aufkl"])
    assert p.state.units["GE-3Aufkl"].loc == o.action.args["path"][-1]
    assert len(p.eng.log) == n + 1 and p.eng.log[-1].action == o.action


def test_refuse_returns_the_rule_and_leaves_the_state_untouched():
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    exc = p.refuse("move", units=["GE-3Aufkl"], path=["C0702"])
    assert exc.rule


def test_run_plays_scripted_choices_and_fails_loudly_when_the_target_is_never_reached():
    p = Play("trail-of-the-fox", seed=2)
    seen = []
    p.run(lambda eng: eng.state.phase >= 6, script={"air_deploy": lambda d: seen.append(d.kind)})
    assert p.state.phase >= 6
    with pytest.raises(AssertionError, match="not reached"):
        p.run(lambda eng: False, limit=5)
