"""Desert raider orders in the Movement orders panel (16.2 Oasis Track, 16.4 missions) and readable log lines
for every action kind (pytest-qt, offscreen)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.app_kit import (  # noqa: E402
    click_hex, drag_over, drop, gt10_scenario, map_point, pass_cover, prompt_button, start_game,
)

pytestmark = pytest.mark.gui

# the Axis Movement Phase of GT 10 (the optional desert raider rules are switched on by the test):
# 300 Oasis in the Hon box, I/Sahara next to an Allied MSU
RAIDERS = gt10_scenario("app-raiders", 96, "Test desert raider orders (GUI)", [
    ("GE-300Oasis", "box:Oasis:hon"), ("IT-ISahara", "C0708"), ("AL-MSU", "C0709"), ("UK-KDG", "C0710")])


@pytest.fixture
def win(qtbot, dirs):
    from app.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1366, 740)
    w.show()
    return w


def raider_game(qtbot, w, dirs, monkeypatch, on: bool = True) -> None:
    import core.game
    import core.newgame

    real = core.newgame.initial_state

    def with_raiders(sc, seed, optional=()):
        # the test scenario is a hand-made position: what `dfd new --optional desert_raiders` records (16.0)
        return real(sc, seed, ("desert_raiders",) if on else optional)

    monkeypatch.setattr(core.game, "initial_state", with_raiders)
    start_game(qtbot, w, dirs, "raiders", RAIDERS)
    if w.ctl.pending().kind == "refit":
        qtbot.mouseClick(prompt_button(w, "No (more) refits"), Qt.LeftButton)
        pass_cover(qtbot, w)
    assert w.ctl.pending().kind == "movement"


def test_raider_orders_hidden_without_the_optional_rule(qtbot, win, dirs, monkeypatch):
    raider_game(qtbot, win, dirs, monkeypatch, on=False)
    click_hex(qtbot, win, "C0708")
    assert win.orders.isVisible()
    assert win.orders.order_buttons["raid"].isHidden() and win.orders.order_buttons["oasis_move"].isHidden()


def test_oasis_track_move_and_raider_mission_through_the_order_panel(qtbot, win, dirs, monkeypatch):
    w = win
    raider_game(qtbot, w, dirs, monkeypatch)
    refusals: list[tuple[str, str]] = []
    w.ctl.refused.connect(lambda r, rule: refusals.append((r, rule)))
    # 16.2: select the Hon box; the Oasis Track order lists the track's nodes with the path and MP
    w._box_clicked("box:Oasis:hon")
    assert w.orders.isVisible() and list(w.orders.checks) == ["GE-300Oasis"]
    b = w.orders.order_buttons["oasis_move"]
    assert b.isVisible() and b.isEnabled()
    qtbot.mouseClick(b, Qt.LeftButton)
    form = w.orders.form
    assert form is not None and form.kind == "oasis_move"
    combo = form.widgets["path"]
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert any(t.startswith("Zella box") and "14 MP" in t for t in texts), texts
    # too far for the MA: the engine refuses, the form shows its reason and rule
    far = max(range(combo.count()), key=lambda i: len(combo.itemData(i)))
    combo.setCurrentIndex(far)
    n = len(refusals)
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert len(refusals) == n + 1 and refusals[-1][1] == "16.2"
    assert "16.2" in form.note.text() and refusals[-1][0] in form.note.text()
    # Zella: accepted, the unit is in the Zella box and the log line is the engine's sentence
    combo.setCurrentIndex(combo.findData(["box:Oasis:zella"]))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert w.ctl.state().units["GE-300Oasis"].loc == "box:Oasis:zella"
    last = w.ctl.log()[-1]
    assert last.action.kind == "oasis_move" and last.action.args == {"units": ["GE-300Oasis"], "path": ["box:Oasis:zella"]}
    # 16.4: I/Sahara raids the Allied MSU next to it
    click_hex(qtbot, w, "C0708")
    b = w.orders.order_buttons["raid"]
    assert b.isVisible() and b.isEnabled()
    qtbot.mouseClick(b, Qt.LeftButton)
    form = w.orders.form
    assert form.kind == "raid" and form.widgets["unit"].currentData() == "IT-ISahara"
    # guiding: no target; C0708 has no wadi hexside on this map data, or the engine accepts — either is the engine's
    form.widgets["mission"].setCurrentIndex(form.widgets["mission"].findData("supply"))
    tgt = form.widgets["target"]
    assert [tgt.itemData(i) for i in range(tgt.count())] == [next(u for u in w.ctl.state().units if u.startswith("AL-MSU"))]
    form.widgets["mission"].setCurrentIndex(form.widgets["mission"].findData("airfield"))
    assert tgt.count() == 6                       # the six neighbours; the engine judges the airfield
    n = len(refusals)
    qtbot.mouseClick(form.send, Qt.LeftButton)    # not an enemy airfield: refused with 16.4
    assert len(refusals) == n + 1 and refusals[-1][1] == "16.4" and "16.4" in form.note.text()
    form.widgets["mission"].setCurrentIndex(form.widgets["mission"].findData("supply"))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    last = w.ctl.log()[-1]
    assert last.action.kind == "raid" and last.action.args["mission"] == "supply"
    assert last.action.args["unit"] == "IT-ISahara" and last.action.args["target"].startswith("AL-MSU")
    # a second mission this phase: refused by the engine (16.4)
    click_hex(qtbot, w, "C0708")
    qtbot.mouseClick(w.orders.order_buttons["raid"], Qt.LeftButton)
    w.orders.form.widgets["mission"].setCurrentIndex(w.orders.form.widgets["mission"].findData("supply"))
    qtbot.mouseClick(w.orders.form.send, Qt.LeftButton)
    assert refusals[-1][1] == "16.4" and "already" in refusals[-1][0]


# ============================================================================ readable log lines


def _engine_kinds() -> set[str]:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "core" / "rules"
    kinds: set[str] = {"undo"}
    for p in root.glob("*.py"):
        text = p.read_text()
        kinds |= set(re.findall(r'Action\(kind="([a-z_]+)"', text))
        for block in re.findall(r"free_kinds=\(([^)]*)\)", text, flags=re.S):
            kinds |= set(re.findall(r'"([a-z_]+)"', block))
        kinds |= set(re.findall(r'action\.kind == "([a-z_]+)"', text))
        for block in re.findall(r"action\.kind in \(([^)]*)\)", text):
            kinds |= set(re.findall(r'"([a-z_]+)"', block))
    return kinds


def test_every_action_kind_has_a_readable_sentence():
    from app import logtext

    kinds = _engine_kinds()
    assert {"move", "retreat", "oasis_move", "raid", "refit_box", "declare", "done"} <= kinds
    missing = sorted(k for k in kinds if k not in logtext.SENTENCES)
    assert not missing, f"action kinds without a sentence in app/logtext.py: {missing}"


@pytest.mark.parametrize("kind,args,want", [
    ("retreat", {"unit": "GE-300Oasis", "stop": True}, "300 Oasis stops retreating here"),
    ("retreat", {"unit": "GE-5Pz", "to": "C0603"}, "5 Pz retreats to C0603"),
    ("move", {"units": ["GE-5Pz", "GE-3Aufkl"], "path": ["C0702", "C0703"], "road_march": True},
     "5 Pz and 3 Aufkl move C0702 → C0703, road march"),
    ("oasis_move", {"units": ["GE-300Oasis"], "path": ["box:Oasis:zella", "C0117"]},
     "moves 300 Oasis along the Oasis Track: the Zella oasis box → C0117 (16.2)"),
    ("raid", {"unit": "IT-ISahara", "mission": "supply", "target": "AL-MSU#1"}, "I/Sahara raids the supply unit"),
    ("refit_box", {"unit": "GE-5Pz", "rps": ["AX-RP#1"], "steps": 2}, "rebuilds 5 Pz from the Refit Box with 2 step(s)"),
    ("morale_choice", {"unit": "GE-5Pz", "choice": "withdraw"}, "5 Pz withdraws instead of a morale check"),
    ("advance", {"unit": "GE-5Pz", "hex": "C0603"}, "5 Pz advances into C0603 (14.8)"),
])
def test_sentences_name_counters_hexes_and_choices(kind, args, want):
    from app import logtext

    text = logtext.describe(kind, args, "Axis")
    assert want in text, text
    assert "GE-" not in text and "True" not in text and "['" not in text and "box:" not in text


def test_every_sentence_is_words_for_sample_arguments():
    """Each entry turns typical arguments into a line without ids, ``True`` or Python reprs."""
    from app import logtext

    sample = {"unit": "GE-5Pz", "units": ["GE-5Pz"], "to": "C0603", "hex": "C0603", "hexes": ["C0603"],
              "path": ["C0603"], "attackers": ["GE-5Pz"], "target": "UK-KDG", "dump": "AX-Dump#1", "by": "GE-5Pz",
              "base": "AX-Base#1", "rp": "AX-RP#1", "rps": ["AX-RP#1"], "fleet": "IT-Fleet", "msu": "AX-MSU#1"}
    for kind in _engine_kinds():
        text = logtext.describe(kind, sample, "Axis")
        assert text and "GE-5Pz" not in text and "True" not in text and "['" not in text, (kind, text)


def test_log_panel_uses_the_sentence_when_the_engine_said_nothing(qtbot, win, dirs, monkeypatch):
    from app.panels import describe_action
    from core.decisions import Action

    assert describe_action(Action(kind="retreat", side="Axis", args={"unit": "GE-300Oasis", "stop": True})) == \
        "300 Oasis stops retreating here"


# ============================================================================ close-in zoom


def test_close_in_render_paints_only_the_view_and_names_are_prebuilt(qtbot, win, dirs):
    """QGraphicsView.render passes the whole board as the exposed rect: the board bounds it by the clip, so a
    close-in frame draws the tiles in view only; place names at ≥ 50 % are filled from prebuilt halo paths."""
    from PySide6.QtGui import QImage, QPainter

    w = win
    w.resize(1200, 800)
    view, board = w.view, w.scene.board
    view.set_zoom(1.5)
    view.centre_on_hex("C2331")
    board.zooming = False
    seen = []
    real = board._paint_vector

    def spy(p, exposed, lod, **kw):
        seen.append((exposed.width(), exposed.height()))
        return real(p, exposed, lod, **kw)

    board._paint_vector = spy
    img = QImage(view.viewport().size(), QImage.Format_ARGB32_Premultiplied)
    p = QPainter(img)
    view.render(p)
    p.end()
    vis = view.mapToScene(view.viewport().rect()).boundingRect()
    assert seen and seen[-1][0] <= vis.width() + 2 and seen[-1][1] <= vis.height() + 2
    assert board.boundingRect().width() > 5 * vis.width()
    rings = [v for (name, px), v in board._name_cache.items() if px == 15]
    assert rings and all(ring is not None and not ring.isEmpty() for _path, ring in rings)
    # each grid edge once (a closed hexagon per hex was 7 path elements)
    t = max(board.tiles, key=lambda t: len(t.recs))
    assert t.grid.elementCount() < 7 * len(t.recs)


# ============================================================================ refit from the Refit Box by drag

REFIT = gt10_scenario("app-refit", 95, "Test refit by drag (GUI)", [
    ("GE-RP", "C0701", 2), ("GE-3Aufkl", "box:Refit:Axis"), ("GE-5Pz", "C0702"), ("UK-KDG", "C0710")])


def test_refit_from_the_refit_box_by_drag_onto_the_primary_base(qtbot, win, dirs, monkeypatch):
    from app import refitdrag
    from app.offmap import unit_mime

    w = win
    start_game(qtbot, w, dirs, "refit", REFIT)
    d = w.ctl.pending()
    assert d.kind == "refit" and "refit_box" in d.free_kinds
    canvas = w.offmap.canvas
    assert canvas.draggable("GE-3Aufkl") and not canvas.draggable("GE-5Pz")
    # under the drag the primary base hex is shown as the destination
    pos = map_point(w, "C0705")
    mime = unit_mime("GE-3Aufkl")
    drag_over(w.view.viewport(), pos, mime)
    assert set(w.scene.drop.cells) == {"C0705", "C0701"}
    # the form: the RP in the primary base are suggested; cancelling sends nothing
    asked = []
    monkeypatch.setattr(refitdrag, "ask", lambda *a: asked.append(a) or None)
    drop(w.view.viewport(), pos, mime)
    assert asked and asked[-1][3:] == ("GE-3Aufkl", "C0701", "C0705") and len(w.ctl.log()) == 0
    form = refitdrag.RefitForm(w, w.ctl.state(), "Axis", "GE-3Aufkl", "C0701", None)
    assert form.rps and all(cb.isChecked() for cb in form.rps.values())
    args = form.args("GE-3Aufkl", None)
    assert set(args) == {"unit", "rps", "steps"} and args["steps"] >= 1
    # a drop elsewhere asks for ``to`` (desert garrisons only): the engine refuses with its rule
    refusals = []
    w.ctl.refused.connect(lambda r, rule: refusals.append((r, rule)))
    monkeypatch.setattr(refitdrag, "ask", lambda parent, st, side, uid, base, to: form.args(uid, to))
    w.drop_unit("GE-3Aufkl", "C0705")
    assert refusals and "16.1" in refusals[-1][1] and w.ctl.state().units["GE-3Aufkl"].loc == "box:Refit:Axis"
    # dropped on the primary base: refit_box {unit, rps, steps} is sent; the engine rebuilds it there (or refuses)
    w.drop_unit("GE-3Aufkl", "C0701")
    log = w.ctl.log()
    assert log and log[-1].action.kind == "refit_box", refusals
    assert log[-1].action.args == args
    assert w.ctl.state().units["GE-3Aufkl"].loc == "C0701"
    assert "placed at C0701" in " ".join(log[-1].events)
