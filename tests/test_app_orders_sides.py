"""The Movement orders panel offers only the orders its player can give: the fleet missions and the FNA road
are Allied (20.4, 22.7), the Fall Braun airdrop Axis (AXC-19 b); the FNA road form lists the legs of the road
from the selected box (22.7) and the airdrop form takes the airborne unit and a Map T hex."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.app_kit import click_hex, game_window, pass_cover, prompt_button, to_movement  # noqa: E402

pytestmark = pytest.mark.gui

FIXTURES = Path(__file__).parent / "fixtures"


def test_axis_movement_hides_the_allied_only_orders(qtbot, dirs):
    w = game_window(qtbot, dirs / "battle.dfd", str(FIXTURES / "app_battle.toml"))
    to_movement(qtbot, w)
    assert w.ctl.pending().side == "Axis"
    click_hex(qtbot, w, "C0702")
    b = w.orders.order_buttons
    assert b["interdict"].isVisible()                                  # both sides fly air missions (19.6)
    for kind in ("shore_bombard", "fleet_strike_box", "fna_move"):
        assert not b[kind].isVisible(), kind
    assert "shore_bombard" in w.ctl.pending().free_kinds                # the engine's kinds are unchanged
    hint = w.prompt.hint.text()
    assert "the Movement orders panel has the other orders" in hint and "fleet_strike_box" not in hint


def test_allied_movement_shows_the_fleet_orders_not_the_axis_airdrop(qtbot, dirs):
    w = game_window(qtbot, dirs / "fleet.dfd", str(FIXTURES / "app_fleet.toml"))
    pass_cover(qtbot, w)
    while w.ctl.pending().kind != "movement":
        d = w.ctl.pending()
        label = {"port_strikes": "No port strike", "refit": "No (more) refits"}.get(d.kind)
        assert label, d.kind
        qtbot.mouseClick(prompt_button(w, label), Qt.LeftButton)
        pass_cover(qtbot, w)
    d = w.ctl.pending()
    sampled = [o for o in d.options if o.action.kind != "move" and "hex" in o.action.args]
    assert sampled                                          # a sampled mission (19.6 / 20.4.2) names a hex
    labels = [x.text() for x in w.prompt.buttons] + ([w.prompt.more.itemText(i) for i in range(w.prompt.more.count())]
                                                      if w.prompt.more is not None else [])
    from app.names import humanize

    assert all(any(x.startswith(humanize(o.label)) for x in labels) for o in sampled)   # ... stays a button, not a map target
    assert w.prompt.hint.text().startswith("Click one of your stacks, then a reachable hex to move it")
    assert not w._map_options(d)
    click_hex(qtbot, w, "W2232")
    b = w.orders.order_buttons
    assert b["shore_bombard"].isVisible() and b["fleet_strike_box"].isVisible()
    assert not b["fall_braun_drop"].isVisible()


def test_fna_road_form_lists_the_legs_of_the_selected_box(qtbot, dirs):
    from core.rules import offmap

    w = game_window(qtbot, dirs / "fleet2.dfd", str(FIXTURES / "app_fleet.toml"))
    road = offmap.fna_road()
    box = next(loc for loc in sorted(road) if loc.startswith("box:"))
    w.orders.where = box
    w.orders.side = "Allied"
    form = w.orders.order("fna_move")
    combo = form.widgets["to"]
    got = sorted(combo.itemData(i) for i in range(combo.count()))
    assert got == sorted(road[box])


def test_14_9_battle_marker_order_marks_the_checked_units_for_a_mobile_battle(qtbot, dirs):
    """14.9.1 / 14.9.2: the Movement orders panel's battle marker form sends ``battle_marker`` for the checked
    units and the chosen form; the engine marks them."""
    from PySide6.QtWidgets import QComboBox

    w = game_window(qtbot, dirs / "mark.dfd", str(FIXTURES / "app_battle.toml"))
    to_movement(qtbot, w)
    click_hex(qtbot, w, "C0702")
    b = w.orders.order_buttons["battle_marker"]
    assert b.isVisible() and b.isEnabled()
    qtbot.mouseClick(b, Qt.LeftButton)
    form = w.orders.form
    combo = form.widgets["form"]
    assert isinstance(combo, QComboBox)
    combo.setCurrentIndex(combo.findData("mobile"))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert w.ctl.state().units["GE-5Pz"].flags.get("battle") == "mobile"


def test_15_4_special_forces_by_sea_order_from_the_torch_box(qtbot, dirs):
    """15.4: the Movement orders panel's special forces form, shown for the Torch Box, sends ``sf_sea`` for the
    checked SF units to the hex picked on the map; the engine stages the opposed landing."""
    w = game_window(qtbot, dirs / "sf.dfd", str(Path(__file__).parent.parent / "scenarios" / "run-for-tunis.toml"))
    pass_cover(qtbot, w)
    while w.ctl.pending().kind != "movement":
        d = w.ctl.pending()
        assert w.ctl.act(next((o.action for o in d.options if o.action.kind == "done"), d.options[0].action))
        pass_cover(qtbot, w)
    d = w.ctl.pending()
    w.orders.show_for(d, w.ctl.state(), None, "box:Torch", True)
    b = w.orders.order_buttons["sf_sea"]
    assert b.isVisible() and b.isEnabled()
    for u, cb in w.orders.checks.items():
        cb.setChecked(u == "UK-1Cdo")
    qtbot.mouseClick(b, Qt.LeftButton)
    form = w.orders.form
    form.pick("A6112")
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert w.ctl.state().units["UK-1Cdo"].flags["sf_landing"]["hex"] == "A6112"


def test_15_5_airdrop_order_lists_the_airborne_units_of_the_box(qtbot, dirs):
    """15.5: the airdrop form, shown for the Sicily Box in the Axis Movement Phase, lists its airborne drop capable
    units only."""
    w = game_window(qtbot, dirs / "drop.dfd", str(Path(__file__).parent.parent / "scenarios" / "run-for-tunis.toml"))
    pass_cover(qtbot, w)
    while (w.ctl.pending().kind, w.ctl.pending().side) != ("movement", "Axis"):
        d = w.ctl.pending()
        assert w.ctl.act(next((o.action for o in d.options if o.action.kind == "done"), d.options[0].action))
        pass_cover(qtbot, w)
    d = w.ctl.pending()
    w.orders.show_for(d, w.ctl.state(), None, "box:Sicily", True)
    form = w.orders.order("airdrop")
    combo = form.widgets["unit"]
    got = sorted(combo.itemData(i) for i in range(combo.count()))
    assert got == ["GE-11Pio", "GE-5FJ", "GE-Barenthin"]
