"""20.1 port boxes in the GUI: the placement decision in the generic decision panel, units in port boxes and at sea
in the off-map display ("port boxes of <place>") and a badge on the port's hex."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from core.decisions import AXIS  # noqa: E402
from core.engine import Engine  # noqa: E402
from core.rules import naval, offmap  # noqa: E402
from core.state import Frame, GameState  # noqa: E402
from tests.ground_helpers import unit  # noqa: E402

pytestmark = pytest.mark.gui


def engine():
    units = [unit("GE-5Pz", AXIS, naval.AT_SEA + "Italy", steps=2,
                  flags={"shipped_from": offmap.ITALY, "shipped_gt": 10,
                         "at_sea": {"gt": 10, "lane": "Italy", "to": "C2331"}}),
             unit("GE-382", AXIS, "box:PortBoxes:C2331", steps=2,
                  flags={"port_box": {"how": "ocean", "from": offmap.ITALY, "tag": "10.6"}})]
    st = GameState(scenario="test-ground", seed=7, gt=10, phase=6, step=1, initiative=AXIS, first_player=AXIS,
                   end_gt=20, units={u.id: u for u in units}, stack=[Frame(proc="turn")],
                   control={"C2331": AXIS, "C2308": AXIS})
    return Engine(st)


def test_20_1_placement_decision_renders_in_the_decision_panel(qtbot):
    from app.panels import PromptBar

    eng = engine()
    d = eng.pending()
    assert d.kind == "port_placement"
    bar = PromptBar()
    qtbot.addWidget(bar)
    bar.show_decision(d)
    labels = [b.text() for b in bar.buttons]
    assert labels[0].startswith("5 Pz: stay at sea")          # the counter's name, not its id (issue 19)
    assert "Place 5 Pz in the port boxes of Tobruk (C2331)" in labels
    assert "Rule 4.1 VI.1; 20.1; 20.2" == bar.rule.text() and "5 Pz" in bar.prompt.text() and "GE-5Pz" not in bar.prompt.text()
    assert "Choose on the map" not in bar.hint.text()      # every choice is a button


def test_20_1_units_in_port_boxes_and_at_sea_show_in_the_off_map_display(qtbot):
    from app.offmap import OffMapDisplay, port_box_badges

    eng = engine()
    w = OffMapDisplay()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    w.show_state(eng.state)
    assert w.title_of("box:PortBoxes:C2331") == "the port boxes of Tobruk (C2331)"
    assert w.title_of(naval.AT_SEA + "Italy") == "at sea: Italy lane"
    placed = {pl.box.id: [u.id for u in pl.units] for pl in w.canvas.placed}
    assert placed["box:PortBoxes:C2331"] == ["GE-382"] and placed[naval.AT_SEA + "Italy"] == ["GE-5Pz"]
    assert port_box_badges(eng.state) == {"C2331": ("port boxes: 1", "#1f4e79")}


def test_20_1_c_coastal_shipping_order_offers_the_refit_box_by_a_limited_port_box(qtbot, dirs):
    from pathlib import Path

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QCheckBox

    from app.mainwindow import MainWindow
    from tests.app_kit import click_hex, pass_cover

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.ctl.new_game(dirs / "p.dfd", str(Path(__file__).parent / "fixtures" / "app_ports.toml"), seed=1)
    for _ in range(6):                                # to the movement decision (refit: none)
        pass_cover(qtbot, w)
        d = w.ctl.pending()
        if d.kind == "movement":
            break
        w.ctl.act(next(o.action for o in d.options if o.action.kind == "done"))
    assert w.ctl.pending().kind == "movement"
    click_hex(qtbot, w, "C0803")
    qtbot.mouseClick(w.orders.order_buttons["coastal_ship"], Qt.LeftButton)
    form = w.orders.form
    assert form is not None and form.kind == "coastal_ship"
    box = form.widgets["box"]
    choices = {box.itemData(i): box.itemText(i) for i in range(box.count())}
    assert "box:Refit:Axis" in choices and "20.1 c" in choices["box:Refit:Axis"] and "box:NRV" not in choices
    for cb in form.widgets["units"].findChildren(QCheckBox):
        cb.setChecked(cb.property("value") == "GE-5Pz")
    box.setCurrentIndex(box.findData("box:Refit:Axis"))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert w.ctl.state().units["GE-5Pz"].loc == "box:Refit:Axis"
    assert w.ctl.log()[-1].action.args == {"units": ["GE-5Pz"], "to": "box:Refit:Axis"}
