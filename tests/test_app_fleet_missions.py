"""The GUI side of the fleets' coastal missions (20.4.2) and the port strikes (19.9.2): the port strike and the
Axis strike on a fleet are ordinary engine decisions answered on the prompt bar; "Shore bombardment…" is a
movement order whose form lists the fleets of the Coastal Missions Box, takes the hex from a map click and the
target from a combo."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.app_kit import click_hex, game_window, pass_cover, prompt_button, to_movement  # noqa: E402

pytestmark = pytest.mark.gui

FIXTURE = str(Path(__file__).parent / "fixtures" / "app_fleet.toml")


@pytest.fixture
def win(qtbot, dirs):
    return game_window(qtbot, dirs / "fleet.dfd", FIXTURE)


def test_port_strike_and_strike_on_fleet_decisions_render_and_are_answered(qtbot, win):
    w = win
    pass_cover(qtbot, w)
    d = w.ctl.pending()
    assert d.kind == "port_strikes" and d.side == "Axis"
    prompt_button(w, "strikes the Allied port boxes of C2331")    # the option is on the prompt bar
    qtbot.mouseClick(prompt_button(w, "No port strike"), Qt.LeftButton)
    to_movement(qtbot, w)
    click_hex(qtbot, w, "W2232")                                   # any stack: shows the movement orders
    b = w.orders.order_buttons["shore_bombard"]
    assert b.isVisible() and b.isEnabled()
    form = w.orders.order("shore_bombard")
    assert form.widgets["fleet"].currentData() == "UK-MedFleet"
    assert form.picking == "hex"
    click_hex(qtbot, w, "W2104")                                   # the map click answers the form's hex
    assert form.widgets["target"].currentData() == "AX-Dump#1"
    qtbot.mouseClick(form.send, Qt.LeftButton)
    pass_cover(qtbot, w)
    d = w.ctl.pending()
    assert d.kind == "fleet_mission_strike" and d.side == "Axis"
    qtbot.mouseClick(prompt_button(w, "No naval strike on the fleet"), Qt.LeftButton)
    pass_cover(qtbot, w)
    st = w.ctl.state()
    assert st.units["UK-MedFleet"].flags.get("support_used")
    assert w.ctl.pending().kind == "movement"
