"""The player's findings (docs/manual.md was written by using the app), fixed and driven through the real
widgets (pytest-qt, offscreen): the window fits a 1366-pixel laptop in every phase reached; the movement order
panel sends the engine's move options and orders and splits a stack by its unit check-boxes; the rules
viewer's file setting and its table of contents; the Host dialog's join code and fingerprints; ``dfd`` with
no file reopens the last game; the log's readable lines; the cards header and the off-map box titles.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel  # noqa: E402

from app import geometry as geo  # noqa: E402
from tests.app_kit import click_hex, pass_cover, to_movement  # noqa: E402

pytestmark = pytest.mark.gui

FIXTURES = Path(__file__).parent / "fixtures"
ORDERS = str(FIXTURES / "app_orders.toml")
BATTLE = str(FIXTURES / "app_battle.toml")
LAPTOP = 1366


@pytest.fixture
def win(qtbot, dirs):
    from app.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(LAPTOP, 740)
    w.show()
    return w


def min_width(w) -> int:
    QApplication.processEvents()
    return w.minimumSizeHint().width()


# ============================================================================ 1. the window fits a laptop


def test_window_fits_a_1366_laptop_in_every_phase_reached(qtbot, win, dirs):
    """Sonnenblume from the set-up through its first phases (the first option of each decision), and the
    battle fixture's Movement Phase with a stack selected and the order panel open."""
    w = win
    w.ctl.new_game(dirs / "s.dfd", "sonnenblume", seed=1)
    widths: dict[str, int] = {}
    for _ in range(160):
        d = w.ctl.pending()
        if d is None:
            break
        pass_cover(qtbot, w)
        if d.kind not in widths:
            widths[d.kind] = min_width(w)
            if "move" in d.free_kinds:           # a Movement Phase: select a stack too (the order panel opens)
                st = w.ctl.state()
                mine = next(u for u in sorted(st.units.values(), key=lambda u: u.id)
                            if u.side == d.side and geo.rec_of(u.loc) is not None)
                w.hex_clicked(geo.rec_of(mine.loc).label, Qt.LeftButton)
                assert w.orders.isVisible()
                widths[d.kind + "+orders"] = min_width(w)
        opt = next((o for o in d.options if o.action.kind in ("done", "pass")), d.options[0])
        w.ctl.act(opt.action)
    assert {"setup_place", "refit", "movement", "reaction"} <= set(widths), widths
    assert "movement+orders" in widths
    assert all(v <= LAPTOP for v in widths.values()), widths
    # the battle fixture: the Movement Phase with a dozen option buttons, a stack selected, a form open
    w.ctl.new_game(dirs / "b.dfd", BATTLE, seed=3)
    to_movement(qtbot, w)
    click_hex(qtbot, w, "C0702")
    w.orders.order("build_road")
    assert min_width(w) <= LAPTOP
    assert w.minimumSizeHint().height() <= 768
    # the phase bar wraps instead of widening the window: at 1366 px it still shows the whole phase title
    w.resize(LAPTOP, 740)
    QApplication.processEvents()
    assert w.width() <= LAPTOP
    assert w.phasebar.phase.val.text().startswith("VI. First Player Movement Phase")
    assert w.phasebar.phase.isVisible() and w.phasebar.phase.geometry().right() <= w.phasebar.width()


def test_many_options_wrap_and_the_rest_are_in_a_compact_list(qtbot, win, dirs):
    w = win
    w.ctl.new_game(dirs / "s.dfd", "sonnenblume", seed=1)
    # the set-up decision offers many hexes; a decision with more than twelve buttons puts the rest in a list
    from core.decisions import Decision, Option, Action

    many = Decision(side="Axis", kind="test", prompt="Pick one", rule="4.1",
                    options=tuple(Option(action=Action(kind="choose", side="Axis", args={"n": i}),
                                         label=f"A rather long option label number {i} (13.0)") for i in range(30)))
    w.prompt.show_decision(many)
    QApplication.processEvents()
    assert len(w.prompt.buttons) == w.prompt.MAX_BUTTONS
    assert w.prompt.more is not None and w.prompt.more.count() == 30 - w.prompt.MAX_BUTTONS + 1
    assert w.prompt.minimumSizeHint().width() < 600
    rows = {b.geometry().top() for b in w.prompt.buttons}
    assert len(rows) > 1, "the option buttons wrap onto more than one line"


# ============================================================================ 2./3. movement order panel


def test_split_stack_by_unit_checkboxes_with_road_march_preview(qtbot, win, dirs):
    w = win
    w.ctl.new_game(dirs / "o.dfd", ORDERS, seed=3)
    to_movement(qtbot, w)
    click_hex(qtbot, w, "C0702")
    assert w.orders.isVisible()
    names = {uid: cb.text() for uid, cb in w.orders.checks.items()}
    assert names == {"GE-3Aufkl": "3 Aufkl", "GE-5Pz": "5 Pz"}       # counter names, not ids
    both, _ = w.reach()
    # uncheck 3 Aufkl: the preview is the engine's for 5 Pz alone
    w.orders.checks["GE-3Aufkl"].setChecked(False)
    alone, _ = w.reach()
    assert set(alone) == {k for k in w.ctl.query("reachable", units=["GE-5Pz"]) if k != "C0702"}
    assert alone != both
    # road march: the engine's reachable hexes with road_march=True
    qtbot.mouseClick(w.orders.road, Qt.LeftButton)
    assert w.orders.road.isChecked()
    road, _ = w.reach()
    assert set(road) == {k for k in w.ctl.query("reachable", units=["GE-5Pz"], road_march=True) if k != "C0702"}
    assert set(road) != set(alone)
    assert set(w.scene.reach.cells) == set(road)
    target = sorted(road, key=lambda h: -road[h])[0]
    route = w.route_to(target)
    assert route is not None
    click_hex(qtbot, w, target)
    st = w.ctl.state()
    assert st.units["GE-5Pz"].loc == target
    assert st.units["GE-3Aufkl"].loc == "C0702", "the unchecked unit stays behind"
    a = w.ctl.log()[-1].action
    assert a.kind == "move" and a.args["units"] == ["GE-5Pz"] and a.args.get("road_march") is True


def test_orders_create_base_forms_and_refusals_show_the_rule(qtbot, win, dirs):
    w = win
    w.ctl.new_game(dirs / "o.dfd", ORDERS, seed=3)
    to_movement(qtbot, w)
    refusals: list[tuple[str, str]] = []
    w.ctl.refused.connect(lambda r, rule: refusals.append((r, rule)))
    # every order the decision takes free-form has its button
    free = set(w.ctl.pending().free_kinds)
    click_hex(qtbot, w, "C0703")
    shown = {k for k, b in w.orders.order_buttons.items() if not b.isHidden()}
    assert {"reserve", "create_base", "emergency_supply", "destroy_supply", "transfer", "build_fort", "build_rail",
            "build_road", "rail", "coastal_ship", "air_land", "enter"} <= shown
    assert all(k in free for k in shown - {"enter"})
    # create a base from the MSU and the dump in C0703 (12.2.3)
    qtbot.mouseClick(w.orders.order_buttons["create_base"], Qt.LeftButton)
    st = w.ctl.state()
    assert any(u.id.startswith("AX-Base") and u.loc == "C0703" for u in st.units.values())
    assert not any(u.id.startswith("AX-MSU") for u in st.units.values() if u.loc == "C0703")
    assert w.ctl.log()[-1].action.kind == "create_base" and w.ctl.log()[-1].action.args == {"hex": "C0703"}
    # a second base in the same hex: the engine refuses, the prompt line shows its reason and rule
    qtbot.mouseClick(w.orders.order_buttons["create_base"], Qt.LeftButton)
    assert refusals and refusals[-1][1] == "12.2.3"
    assert "12.2.3" in w.prompt.refusal.text()
    # rail move: a form, the destination picked by clicking the map; the engine's refusal shows in the form
    click_hex(qtbot, w, "C0705")                   # not adjacent: selects that (empty) hex
    click_hex(qtbot, w, "C0702")
    form = w.orders.order("rail")
    assert form is not None and w.orders.picking()
    assert not form.send.isEnabled()               # no destination yet
    click_hex(qtbot, w, "C0710")                   # the click answers the form, it does not select the hex
    assert w.selected_hex == "C0702"
    assert form.hexes["to"] == ["C0710"] and form.send.isEnabled()
    n = len(refusals)
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert len(refusals) == n + 1
    reason, rule = refusals[-1]
    assert rule.startswith("13.7") and reason in form.note.text()
    assert w.ctl.state().units["GE-5Pz"].loc == "C0702"
    # build a fort: a form with the unit, the level and the dump; the action carries exactly those
    form = w.orders.order("build_fort")
    form.widgets["unit"].setCurrentIndex(form.widgets["unit"].findData("GE-3Aufkl"))
    form.widgets["level"].setValue(0)
    seen = []
    w.ctl.acted.connect(lambda e: seen.append(e.action))
    qtbot.mouseClick(form.send, Qt.LeftButton)
    sent = seen[-1] if seen else None
    if sent is not None:
        assert sent.kind == "build_fort" and sent.args == {"unit": "GE-3Aufkl", "level": 0}
        assert "GE-3Aufkl" in str(w.ctl.state().vars.get("forts", {}).get("C0702", {}))
    else:
        assert refusals[-1][1].startswith("18.1")
    # reserve for the checked units (13.6), through the button
    click_hex(qtbot, w, "C0702")
    w.orders.checks["GE-3Aufkl"].setChecked(False)
    n = len(w.ctl.log())
    qtbot.mouseClick(w.orders.order_buttons["reserve"], Qt.LeftButton)
    if len(w.ctl.log()) > n:
        assert w.ctl.log()[-1].action.args == {"units": ["GE-5Pz"]}
        assert w.ctl.state().units["GE-5Pz"].reserve
    else:
        assert refusals[-1][1].startswith("13.6")


def test_truck_lift_forced_march_and_map_exit_are_sent_with_the_move(qtbot, win, dirs):
    w = win
    w.ctl.new_game(dirs / "o.dfd", ORDERS, seed=3)
    to_movement(qtbot, w)
    click_hex(qtbot, w, "C0702")
    qtbot.mouseClick(w.orders.lift, Qt.LeftButton)
    assert w.orders.lift_row.isVisible()
    form = w.orders.open_pickup()
    click_hex(qtbot, w, "C0703")                      # the hex to pick up in
    boxes = {cb.property("value"): cb for cb in form.widgets["units"].findChildren(type(w.orders.road))}
    assert set(boxes) == {"AX-Dump#1", "AX-MSU#1"}
    boxes["AX-MSU#1"].setChecked(True)
    qtbot.mouseClick(form.send, Qt.LeftButton)
    assert w.orders.pickup == {"C0703": ["AX-MSU#1"]}
    assert "pick up" in w.orders.lift_label.text()
    w.orders.forced.setChecked(True)
    args = w.orders.move_args()
    assert args == {"forced_march": True, "lift": True, "pickup": {"C0703": ["AX-MSU#1"]}}
    w.orders.exit.setCurrentIndex(w.orders.exit.findData("box:NRV"))
    assert w.orders.move_args()["exit"] == "box:NRV" and w.orders.exit_here.isEnabled()
    # leaving from here for the NRV: the engine refuses the Axis (22.1) and says so
    refusals = []
    w.ctl.refused.connect(lambda r, rule: refusals.append((r, rule)))
    qtbot.mouseClick(w.orders.exit_here, Qt.LeftButton)
    assert refusals and "22.1" in refusals[-1][1] + refusals[-1][0]
    assert w.ctl.state().units["GE-5Pz"].loc == "C0702"


# ============================================================================ 4. rules viewer


def test_rules_text_file_setting_and_table_of_contents_of_rule_headings_only(qtbot, win, dirs, monkeypatch):
    import re

    from PySide6.QtWidgets import QFileDialog

    from app.settings import Settings

    rules = dirs / "my-rules.txt"
    rules.write_text("13.0 MOVEMENT\nUnits move.\n13.5 Reaction Movement\nNon-phasing units react.\n"
                     "26.1 Axis Set Up\n7 Ind. BG\n62 Mmrirca\n4 CCNN\n13.6 Reserve Status\nReserve.\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(rules), ""))
    menu = next(m for m in win.menuBar().findChildren(type(win.recent_menu)) if m.title() == "&Settings")
    action = next(a for a in menu.actions() if a.text() == "&Rules text file…")
    action.trigger()
    assert Settings.load().rules_text == str(rules.resolve())
    win.open_rule("13.5")
    viewer = win._rules
    toc = [viewer.toc.item(i).text().strip() for i in range(viewer.toc.count())]
    assert toc == ["13.0 MOVEMENT", "13.5 Reaction Movement", "26.1 Axis Set Up", "13.6 Reserve Status"]
    assert all(re.match(r"^\d+\.\d+(\.\d+)* [A-Z]", t) for t in toc)
    assert "Non-phasing units react." in viewer.text.toPlainText()
    assert str(rules.resolve()) in viewer.source.text()


def test_rules_toc_of_the_real_rules_has_no_setup_list_lines():
    import re

    from app import rulesdoc

    path = rulesdoc.find_rules()
    if path is None:
        pytest.skip("the rules text is not available on this machine")
    titles = [f"{s.number} {s.title}" for s in rulesdoc.load(str(path)).sections]
    assert "13.5 Reaction Movement" in titles
    assert all(re.match(r"^\d+\.\d+(\.\d+)* [A-Z]", t) for t in titles)
    assert not any(t.startswith(("7 Ind", "62 M", "4 CCNN")) for t in titles)


# ============================================================================ 5. host dialog


def test_host_dialog_shows_the_whole_join_code_and_fingerprints(qtbot, win, dirs):
    from net import keys as keymod

    from app.lan import HostDialog

    win.ctl.new_game(dirs / "h.dfd", "sonnenblume", seed=1)
    dlg = HostDialog(win, win.ctl.path, win.settings, None)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.seat_me()
    code = keymod.join_code("192.168.100.200", 42451, dlg.me.public)
    dlg.code.setText(code)
    QApplication.processEvents()
    assert dlg.code.text() == code
    # wrapped, not scrolled: the whole code is inside the view
    assert dlg.code.horizontalScrollBar().maximum() == 0
    doc_h = dlg.code.document().size().height() * dlg.code.fontMetrics().lineSpacing()
    assert doc_h <= dlg.code.viewport().height() + 2, (doc_h, dlg.code.viewport().height())
    # the fingerprint column is as wide as its text
    fp_item = dlg.table.item(0, 3)
    assert fp_item.text() == keymod.fingerprint(dlg.me.public)
    need = dlg.table.fontMetrics().horizontalAdvance(fp_item.text())
    assert dlg.table.columnWidth(3) >= need
    assert fp_item.flags() & Qt.ItemIsSelectable


# ============================================================================ 6. dfd reopens the last game


def test_dfd_without_a_file_reopens_the_last_game_and_creates_sonnenblume_only_the_first_time(qtbot, dirs):
    from app import main
    from app.settings import Settings

    w1 = main.build_window(None)                 # first time: the default game is created
    qtbot.addWidget(w1)
    assert w1.ctl.path == main.default_game_path() and w1.ctl.state().scenario == "sonnenblume"
    other = dirs / "data" / "mine.dfd"
    w1.ctl.new_game(other, BATTLE, seed=3)       # the player starts another game (it goes to Open recent)
    w1.close()
    assert Settings.load().recent[0] == str(other.resolve())
    default_before = main.default_game_path().stat().st_mtime_ns
    w2 = main.build_window(None)
    qtbot.addWidget(w2)
    assert w2.ctl.path.resolve() == other.resolve() and w2.ctl.state().scenario == "app-battle"
    assert main.default_game_path().stat().st_mtime_ns == default_before
    w2.close()
    other.unlink()                               # a recent game that is gone: the next one (the default)
    w3 = main.build_window(None)
    qtbot.addWidget(w3)
    assert w3.ctl.path.resolve() == main.default_game_path().resolve()
    w3.close()


# ============================================================================ 7. readable log


def test_log_shows_the_engines_event_lines_and_the_raw_action_in_the_tooltip(qtbot, win, dirs):
    w = win
    w.ctl.new_game(dirs / "o.dfd", ORDERS, seed=3)
    to_movement(qtbot, w)
    click_hex(qtbot, w, "C0703")
    qtbot.mouseClick(w.orders.order_buttons["create_base"], Qt.LeftButton)
    e = w.ctl.log()[-1]
    assert e.action.kind == "create_base" and e.events
    it = w.logpanel._items[len(w.ctl.log())]
    assert it.text(0) == f"#{e.seq}  Axis: {e.events[0]}"
    assert "create_base hex=C0703" in it.toolTip(0)
    assert "create_base" not in it.text(0)
    # an action without an event line is described in words, units by their counter names
    from app.panels import describe_action
    from core.decisions import Action

    text = describe_action(Action(kind="declare", side="Axis", args={"attackers": ["GE-300Oasis", "GE-5Pz"], "hexes": ["C0603"]}))
    assert "300 Oasis" in text and "5 Pz" in text and "GE-5Pz" not in text and "['" not in text


# ============================================================================ 8. cards header, off-map titles


def test_cards_header_and_offmap_box_titles(qtbot, win, dirs):
    w = win
    w.ctl.new_game(dirs / "s.dfd", "sonnenblume", seed=1)
    assert w.ctl.state().cards
    w.tabs.setCurrentIndex(2)
    QApplication.processEvents()
    texts = [lab.text() for lab in w.cards.findChildren(QLabel)]
    assert not any("does not track" in t for t in texts)
    assert any("status from the game state" in t for t in texts)
    w.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    from app.offmap import heading_fonts

    canvas = w.offmap.canvas
    f, small = heading_fonts()
    assert canvas.placed
    for pl in canvas.placed:
        shown, title_rect, rule_rect = canvas.box_heading(pl, f, small)
        from PySide6.QtGui import QFontMetrics

        assert title_rect.left() + QFontMetrics(f).horizontalAdvance(shown) <= rule_rect.left() or not pl.box.rule, pl.box.title


# ============================================================================ the hotseat cover stays on top


def test_hotseat_cover_stays_above_a_dock_brought_to_the_front(qtbot, win, dirs):
    """A dock raised while the hand-over cover is up (the inspector after a hex is inspected) must not show
    through the cover: the other player must not see the screen."""
    w = win
    w.ctl.new_game(dirs / "cover.dfd", str(FIXTURES / "app_fleet.toml"), seed=3)
    w.cover.present("Allied", "test hand-over")
    assert w.cover.isVisible()
    w._inspect_hex("W2232")
    QApplication.processEvents()
    dock = w.dock_inspector
    centre = dock.mapTo(w, dock.rect().center())
    top = w.childAt(centre)
    assert top is w.cover or w.cover.isAncestorOf(top)
