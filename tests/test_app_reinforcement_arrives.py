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


def test_27_1_c_reinforcement_arrives_by_coastal_shipping_from_the_form_desert_fox(qtbot, dirs):
    """27.1 c) in the form: "How" offers coastal shipping once an Axis port is held (Benghazi, entered on GT 11 after
    the 2 SG left Mersa Brega), the unit and the port are picked in the form, and the unit goes to Benghazi's port
    boxes (20.1); the limit of the phase then leaves no unit to offer (one dump or two combat steps)."""
    from core.decisions import Action
    from core.rules import naval

    w = game_window(qtbot, dirs / "dfc.dfd", "desert-fox", seed=1)
    st, ctl = w.ctl.state, w.ctl

    def until(pred):
        while not pred(ctl.pending()):
            assert ctl.act(pass_action(ctl.pending()))

    until(lambda d: d.kind == "movement" and d.side == "Axis")
    assert ctl.act(Action(kind="move", side="Axis", args={"units": ["GE-5Pz", "GE-3Aufkl"], "path": ["C0802"]}))
    until(lambda d: d.kind == "combat_declare")
    assert ctl.act(Action(kind="declare", side="Axis", args={"attackers": ["GE-3Aufkl", "GE-5Pz"], "hexes": ["C0803"]}))
    assert ctl.act(Action(kind="done", side="Axis", args={}))
    until(lambda d: d.kind == "movement" and d.side == "Axis" and st().gt == 11)
    move = next(o.action for o in ctl.pending().options if o.action.kind == "move"
                and o.action.args["units"] == ["GE-300Oasis"] and "C2308" in o.action.args["path"])
    path = move.args["path"]
    assert ctl.act(Action(kind="move", side="Axis", args={"units": ["GE-300Oasis"], "path": path[:path.index("C2308") + 1]}))
    pass_cover(qtbot, w)
    w.orders.show_for(ctl.pending(), st(), None, None, True)
    qtbot.mouseClick(w.orders.order_buttons["arrive"], Qt.LeftButton)
    form = w.orders.form
    how = form.widgets["by"]
    assert how.findData("coastal") >= 0 and how.findData("airlift") < 0        # no AXC-4 played: no air lift
    how.setCurrentIndex(how.findData("coastal"))
    form.widgets["unit"].setCurrentIndex(form.widgets["unit"].findData("GE-115"))
    to = form.widgets["to"]
    assert {to.itemData(i) for i in range(to.count())} == {"C0803", "C2308"}   # the Axis ports of Maps C and W
    to.setCurrentIndex(to.findData("C2308"))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert st().units["GE-115"].loc == naval.box_loc("C2308")
    w.orders.show_for(ctl.pending(), st(), None, None, True)
    qtbot.mouseClick(w.orders.order_buttons["arrive"], Qt.LeftButton)
    assert w.orders.form.widgets["by"].findData("coastal") < 0                 # two combat steps: the phase's limit
