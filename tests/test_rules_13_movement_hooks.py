"""The Movement-Phase extension points (4.1 VI.3 b-e) and the half-MA landing seed (20.1)."""

from __future__ import annotations

import pytest

from core.decisions import AXIS, Action, IllegalAction, Option
from core.rules import movement
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def probe_kind():
    seen: list[dict] = []

    def handler(eng, frame, action):
        if action.args.get("bad"):
            raise IllegalAction("probe refused", "4.1 VI.3")
        seen.append(dict(action.args))

    def sampler(eng, frame, side):
        return [Option(action=Action(kind="probe_mission", side=side, args={"n": 1}), label="probe")]

    movement.movement_action("probe_mission")(handler)
    movement.movement_options(sampler)
    yield seen
    movement.MOVEMENT_ACTIONS.pop("probe_mission")
    movement.MOVEMENT_OPTIONS.remove(sampler)


def test_4_1_vi_3_registered_kind_is_free_offered_and_dispatched(probe_kind):
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C2331")])
    d = eng.pending()
    assert "probe_mission" in d.free_kinds
    assert any(o.action.kind == "probe_mission" for o in d.options)
    eng.apply(Action(kind="probe_mission", side=AXIS, args={"n": 2}))
    assert probe_kind == [{"n": 2}]
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="probe_mission", side=AXIS, args={"bad": True}))
    assert eng.pending().kind == "movement"


def test_20_1_landed_units_have_spent_half_their_printed_ma():
    tag = "10.6"
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C2331", flags={"landed": tag}),
                              unit("GE-5Pz", AXIS, "C2331")])
    moved = eng.pending().context["moved"]
    ma = movement.printed_ma(eng.state.units["GE-3Aufkl"])
    assert moved == {"GE-3Aufkl": ma * movement.E // 2}
