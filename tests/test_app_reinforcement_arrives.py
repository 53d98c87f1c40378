"""The Movement orders panel offers 27.1's Movement-Phase arrivals: in Desert Fox the Axis player brings a
reinforcement waiting for C0701 onto the map with the "Reinforcement arrives" order (R-REINF-DEPLOY); after one
dump the form offers no second dump nor an RP in that Movement Phase (27.1 b)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.app_kit import game_window, pass_cover  # noqa: E402
from tests.playpath import pass_action  # noqa: E402

pytestmark = pytest.mark.gui


def test_reinforcement_arrives_order_in_the_axis_movement_phase_desert_fox(qtbot, dirs):
    w = game_window(qtbot, dirs / "df.dfd", "desert-fox", seed=1)
    st = w.ctl.state
    while not (w.ctl.pending().kind == "movement" and w.ctl.pending().side == "Axis" and st().gt == 12):
        assert w.ctl.act(pass_action(w.ctl.pending()))
    pass_cover(qtbot, w)
    b = w.orders.order_buttons["arrive"]
    arrivals = w.ctl.query("movement_arrivals", side="Axis")
    dumps = sorted(u for u in arrivals if u.startswith("AX-Dump"))
    assert len(dumps) >= 2
    w.orders.show_for(w.ctl.pending(), st(), None, None, True)
    assert b.isEnabled()
    qtbot.mouseClick(b, Qt.LeftButton)
    form = w.orders.form
    assert form is not None and form.kind == "arrive"
    combo = form.widgets["unit"]
    combo.setCurrentIndex(combo.findData(dumps[0]))
    assert form.widgets["to"].currentData() == "C0701"
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert st().units[dumps[0]].loc == "C0701"
    # the form offers what the engine accepts: no second dump, nor an RP, in this Movement Phase (27.1 b)
    w.orders.show_for(w.ctl.pending(), st(), None, None, True)
    qtbot.mouseClick(b, Qt.LeftButton)
    combo = w.orders.form.widgets["unit"]
    offered = [combo.itemData(i) for i in range(combo.count())]
    assert offered and dumps[1] not in offered and not [u for u in offered if "-RP" in u]
