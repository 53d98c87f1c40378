"""The GUI side of the Movement Phase's air missions (4.1 VI.3 c): "Interdict…" (19.6) picks an eligible air unit
from a combo and the hex by a map click; "Bombard…" (19.8) picks the air unit and the target from combos; the log
words both, and the "Interdiction" overlay shows the Air Interdiction Chart costs around the interdicted hex."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.app_kit import click_hex, game_window, pass_cover, to_movement  # noqa: E402

pytestmark = pytest.mark.gui

FIXTURE = str(Path(__file__).parent / "fixtures" / "app_air.toml")


@pytest.fixture
def win(qtbot, dirs):
    return game_window(qtbot, dirs / "air.dfd", FIXTURE)


def test_19_6_interdict_and_19_8_bombard_orders(qtbot, win):
    from app import logtext

    w = win
    to_movement(qtbot, w)
    assert w.ctl.pending().side == "Axis"
    click_hex(qtbot, w, "C0801")                                   # any stack: shows the movement orders
    b = w.orders.order_buttons["interdict"]
    assert b.isVisible() and b.isEnabled()
    form = w.orders.order("interdict")
    units = [form.widgets["unit"].itemData(i) for i in range(form.widgets["unit"].count())]
    assert units == ["GE-FFAfrika", "IT-Libya"]                    # non-based, GS 1+, in a holding box
    assert form.picking == "hex"
    click_hex(qtbot, w, "C2320")                                   # the map click answers the form's hex
    qtbot.mouseClick(form.send, Qt.LeftButton)
    st = w.ctl.state()
    assert st.vars["interdiction"]["C2320"]["unit"] == "GE-FFAfrika"
    assert st.units["GE-FFAfrika"].loc == "box:Interdiction:C2320"
    assert "interdicts around C2320" in logtext.SENTENCES["interdict"]({"unit": "GE-FFAfrika", "hex": "C2320"}, "Axis")
    cells = w._run_overlay("interdiction_cost")                    # the overlay shows the chart's costs
    assert cells["C2320"][0].startswith("✈ +") and "C2322" in cells and "C2323" not in cells

    form = w.orders.order("air_bombard")
    units = [form.widgets["unit"].itemData(i) for i in range(form.widgets["unit"].count())]
    assert units == ["IT-Libya"]                                   # FF Afrika is away on interdiction
    targets = form.widgets["target"]
    values = [targets.itemData(i) for i in range(targets.count())]
    assert "AL-Base#1" in values
    targets.setCurrentIndex(values.index("AL-Base#1"))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    pass_cover(qtbot, w)
    st = w.ctl.state()
    libya = st.units["IT-Libya"]
    assert libya.flags.get("based") or libya.loc.startswith("track:TRT:")      # 19.3 after the mission
    assert w.orders.form is None                                   # accepted: the form closed
    text = logtext.SENTENCES["air_bombard"]({"unit": "IT-Libya", "target": "AL-Base#1"}, "Axis")
    assert text.startswith("Libya bombards") and "(19.8)" in text
    assert "airfield at C2326" in logtext.SENTENCES["air_bombard"]({"unit": "IT-Libya", "target": "C2326"}, "Axis")


def test_19_6_refused_interdiction_shows_the_rule_in_the_form(qtbot, win):
    w = win
    to_movement(qtbot, w)
    click_hex(qtbot, w, "C0801")
    form = w.orders.order("interdict")
    click_hex(qtbot, w, "C2320")
    qtbot.mouseClick(form.send, Qt.LeftButton)
    form = w.orders.order("interdict")                            # Libya on the same hex: one air unit a hex
    assert form.widgets["unit"].currentData() == "IT-Libya"
    click_hex(qtbot, w, "C2320")
    qtbot.mouseClick(form.send, Qt.LeftButton)
    pass_cover(qtbot, w)
    assert w.orders.form is form and not form.note.isHidden()
    assert "only one air unit" in form.note.text() and "19.6" in form.note.text()
    assert w.ctl.state().units["IT-Libya"].loc == "box:AirNA:Axis"
