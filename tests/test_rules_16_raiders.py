"""16.2 Oasis Track movement (14 MP per link, connection hexes, Jalo/Siwa as boxes and hexes), 16.0 optional,
17.3 upgrades (substitution through the refit decision)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.rules import raiders, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def gm():
    tec.use_map(tec.GroundMap(default="clear"))
    yield
    tec.use_map(None)


def test_16_2_1_connection_hex_and_boxes(gm):
    g = raiders.links()
    assert g["S0413"] == {"box:Oasis:hon": 14 * tec.EIGHTH, "box:Oasis:zella": 14 * tec.EIGHTH}
    assert "C0117" in g["box:Oasis:zella"]                       # Jalo counts as an oasis box (16.2.1)


def test_16_0_optional_and_16_2_movement(gm):
    eng = engine_at_movement([unit("GE-300Oasis", AXIS, "box:Oasis:hon"), unit("GE-3Aufkl", AXIS, "S0413")])
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="oasis_move", side=AXIS, args={"units": ["GE-300Oasis"], "path": ["box:Oasis:zella"]}))
    assert exc.value.rule == "16.0"
    eng = engine_at_movement([unit("GE-300Oasis", AXIS, "box:Oasis:hon"), unit("GE-3Aufkl", AXIS, "S0413")],
                             vars={"desert_raiders": True})
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="oasis_move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": ["box:Oasis:hon"]}))
    assert exc.value.rule == "16.2"                                # not desert capable
    eng.apply(Action(kind="oasis_move", side=AXIS, args={"units": ["GE-300Oasis"], "path": ["S0413"]}))
    assert eng.state.units["GE-300Oasis"].loc == "S0413"
    assert eng.state.stack[-1].data["moved"]["GE-300Oasis"] == 14 * tec.EIGHTH
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-300Oasis"], "path": ["S0414"]}))   # goes on
    assert eng.state.stack[-1].data["moved"]["GE-300Oasis"] == 15 * tec.EIGHTH
