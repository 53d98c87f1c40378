"""11.0 ZOC: 11.1 who exerts, 11.2 motorised ignore non-motorised ZOC, 11.3 terrain, 11.4 effects, 11.5 night."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.hexgrid import Hex
from core.rules import tec, zoc
from tests.ground_helpers import engine_at_movement, unit


def test_11_1_who_exerts(gm):
    assert zoc.exerts_zoc(unit("UK-KDG", ALLIED, "C0603"))
    for kw in ({"disrupted": True}, {"ogs": True}, {"reserve": True}):
        assert not zoc.exerts_zoc(unit("UK-KDG", ALLIED, "C0603", **kw))
    assert not zoc.exerts_zoc(unit("AL-MSU#1", ALLIED, "C0603"))          # supply units
    assert not zoc.exerts_zoc(unit("UK-KDG", ALLIED, "box:Refit:Allied"))


def test_11_3_escarpment_city_and_prohibited_block(gm):
    gm.set_side("C0603", "C0604", "escarpment").set_hex("C0704", "city").set_hex("C0503", "marsh")
    eng = engine_at_movement([unit("UK-KDG", ALLIED, "C0603")])
    labels = set(eng.query("zoc", side=ALLIED))
    assert labels == {"C0703", "C0602", "C0504"}                        # not C0604, C0704 (city), C0503 (marsh)


def test_11_2_motorised_mover_ignores_non_motorised_zoc(gm):
    eng = engine_at_movement([unit("UK-Alexandria", ALLIED, "C0603")])    # a foot garrison exerts none (15.8)
    st = eng.state
    st.units["UK-Alexandria"] = unit("UK-Alexandria", ALLIED, "C0603")
    from core.counters import all_counters

    foot = next(c.id for c in all_counters().values()
                if c.side == "Allied" and c.kind == "combat" and c.move_class == "foot" and c.cf > 0 and not c.garrison and not c.cf_paren)
    del st.units["UK-Alexandria"]
    st.units[foot] = unit(foot, ALLIED, "C0603")
    assert Hex.parse("C0602") in zoc.enemy_zoc(st, ALLIED, motorized=False)
    assert Hex.parse("C0602") not in zoc.enemy_zoc(st, ALLIED, motorized=True)


def test_11_4_must_stop_in_ezoc_and_no_ezoc_to_ezoc(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C0601", steps=2), unit("UK-2SG", ALLIED, "C0603", steps=2)])
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": ["C0602", "C0503"]}))
    assert exc.value.rule == "11.4"
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": ["C0602"]}))
    assert eng.state.stack[-1].data["moved"]["GE-5Pz"] == 2 * tec.EIGHTH     # clear 1 + EZOC 1


def test_11_5_night_movement_through_ezoc_double_cost_then_disrupted(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C0601", steps=2), unit("UK-2SG", ALLIED, "C0603", steps=2)])
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": ["C0602", "C0503"], "night": True}))
    st = eng.state
    assert st.units["GE-5Pz"].loc == "C0503" and st.units["GE-5Pz"].disrupted
    assert st.stack[-1].data["moved"]["GE-5Pz"] == 6 * tec.EIGHTH          # (1x2 + 1) twice


def test_15_3_recon_superiority_adds_two(gm):
    eng = engine_at_movement([unit("UK-2SG", ALLIED, "C0601", steps=2), unit("GE-3Aufkl", AXIS, "C0603")])
    eng.state.first_player = ALLIED
    eng.state.initiative = ALLIED
    frame = eng.state.stack[-1]
    frame.data["side"] = ALLIED
    eng._settle()
    eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-2SG"], "path": ["C0602"]}))
    assert eng.state.stack[-1].data["moved"]["UK-2SG"] == 4 * tec.EIGHTH    # 1 + 1 EZOC + 2 recon (15.3)
