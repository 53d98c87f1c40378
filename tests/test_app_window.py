"""GUI tests (pytest-qt, offscreen): they drive the real widgets of the desktop app."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from app import geometry as geo  # noqa: E402
from core.decisions import Action  # noqa: E402
from tests.app_kit import click_hex, game_window, pass_cover  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def win(qtbot, dirs):
    return game_window(qtbot, dirs / "game.dfd", "sonnenblume", seed=7)


def place_all(qtbot, w) -> int:
    """Answer every set-up placement by clicking its first highlighted hex on the map."""
    n = 0
    while True:
        d = w.ctl.pending()
        if d is None or d.kind != "setup_place":
            return n
        pass_cover(qtbot, w)
        target = sorted(w.scene.targets.cells)[0]
        click_hex(qtbot, w, target)
        n += 1
        assert n < 200


def test_start_scenario_phase_bar_shows_gt_and_phase(win):
    assert win.phasebar.gt.val.text() == "GT 10"
    assert win.phasebar.month.val.text() == "March 1941"
    assert "XII." in win.phasebar.phase.val.text()
    assert win.phasebar.initiative.val.text() == "Axis"
    assert win.phasebar.surprise.val.text() == "Yes"
    d = win.ctl.pending()
    assert win.prompt.prompt.text() == d.prompt
    assert d.rule in win.prompt.rule.text()


def test_map_click_on_highlighted_hex_places_the_unit(qtbot, win):
    d = win.ctl.pending()
    assert d.kind == "setup_place"
    targets = {o.action.args["hex"] for o in d.options}
    assert set(win.scene.targets.cells) == targets
    unit = d.context["unit"]
    target = sorted(targets)[0]
    click_hex(qtbot, win, target)
    assert win.ctl.state().units[unit].loc == target
    assert len(win.ctl.log()) == 1
    assert win.scene.stacks.get(geo.rec_of(target).label) is not None


def test_click_on_plain_hex_selects_stack_in_inspector(qtbot, win):
    st = win.ctl.state()
    on_map = next(u for u in st.units.values() if geo.rec_of(u.loc) is not None)
    hexlab = geo.rec_of(on_map.loc).label
    if hexlab in win.scene.targets.cells:  # a target hex would place a unit instead
        pytest.skip("the unit's hex is a legal target of the pending decision")
    click_hex(qtbot, win, hexlab)
    assert win.selected_hex == hexlab
    assert hexlab in win.inspector.title
    assert len(win.ctl.log()) == 0


def test_done_button_advances_the_engine_and_cover_appears_on_side_change(qtbot, win):
    win.ctl.auto_pass = False          # the plain "Done" steps are shown (the setting is off)
    place_all(qtbot, win)
    d = win.ctl.pending()
    # the Allied set-up is over: the next decision is the Axis player's -> hand-over cover
    assert d.side == "Axis"
    assert win.cover.isVisible()
    assert "Axis player to play" in win.cover.sidelabel.text()
    qtbot.mouseClick(win.cover.button, Qt.LeftButton)
    assert not win.cover.isVisible()
    # click the first option until the engine offers a plain "Done" step, then click it
    for _ in range(60):
        pass_cover(qtbot, win)
        done = next((b for b in win.prompt.buttons if b.text() == "Done"), None)
        if done is not None:
            break
        n = len(win.ctl.log())
        qtbot.mouseClick(win.prompt.buttons[0], Qt.LeftButton)
        assert len(win.ctl.log()) == n + 1
    assert done is not None
    before = (win.ctl.state().gt, win.ctl.state().phase, win.ctl.state().step, len(win.ctl.log()))
    qtbot.mouseClick(done, Qt.LeftButton)
    after = (win.ctl.state().gt, win.ctl.state().phase, win.ctl.state().step, len(win.ctl.log()))
    assert after[3] == before[3] + 1
    assert after[:3] != before[:3]
    assert win.phasebar.phase.val.text().endswith(win.ctl.engine.step.key)


def test_refused_action_shows_the_rule(qtbot, win):
    d = win.ctl.pending()
    far = "L1633"  # far from any set-up centre of Sonnenblume
    ok = win.ctl.act(Action(kind="place", side=d.side, args={"unit": d.context["unit"], "hex": far}))
    assert not ok
    assert win.prompt.refusal.isVisible()
    text = win.prompt.refusal.text()
    assert far in text and d.rule.split(";")[0] in text
    assert len(win.ctl.log()) == 0


def test_undo_takes_back_the_last_placement(qtbot, win):
    d = win.ctl.pending()
    unit = d.context["unit"]
    click_hex(qtbot, win, sorted(win.scene.targets.cells)[0])
    assert win.ctl.state().units[unit].loc != "setup"
    assert win.a_undo.isEnabled()
    win.view.setFocus()
    qtbot.keyClick(win, Qt.Key_Z, Qt.ControlModifier)
    assert win.ctl.state().units[unit].loc == "setup"
    assert win.ctl.log()[-1].action.kind == "undo"


def test_reopen_file_shows_the_same_hash_and_phase(qtbot, win, dirs):
    from app.mainwindow import MainWindow

    place_all(qtbot, win)
    pass_cover(qtbot, win)
    qtbot.mouseClick(win.prompt.buttons[0], Qt.LeftButton)
    h, phase_text = win.ctl.hash(), win.phasebar.phase.val.text()
    path = win.ctl.path
    win.close()
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert w2.open_path(path)
    assert w2.ctl.hash() == h
    assert w2.phasebar.phase.val.text() == phase_text
    assert w2.logpanel.total == len(w2.ctl.log()) > 0


def test_replay_backwards_changes_the_shown_gt_and_phase(qtbot, win):
    place_all(qtbot, win)
    start_phase = win.ctl.initial_state().phase
    for _ in range(6):
        pass_cover(qtbot, win)
        qtbot.mouseClick(win.prompt.buttons[0], Qt.LeftButton)
    live = win.phasebar.phase.val.text()
    assert win.ctl.state().phase != start_phase
    win.logpanel.btn_replay.click()
    assert win.ctl.replaying
    win.logpanel.btn_first.click()
    assert win.ctl.replay_index == 0
    assert win.phasebar.phase.val.text() != live
    assert win.phasebar.phase.val.text().startswith(f"{['I','II','III','IV','V','VI','VII','VIII','IX','X','XI','XII'][start_phase - 1]}.")
    assert not any(b.isEnabled() for b in win.prompt.buttons)
    # the units waiting for set-up are back in the set-up box in the replayed state
    assert any(u.loc == "setup" for u in win.ctl.state().units.values())
    win.logpanel.btn_fwd.click()
    assert win.ctl.replay_index == 1
    win.logpanel.btn_replay.click()
    assert not win.ctl.replaying
    assert win.phasebar.phase.val.text() == live


def test_export_png_writes_a_file(win, dirs):
    out = win.export_png(dirs / "map.png", scale=0.08)
    assert out.exists() and out.stat().st_size > 1000
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert img.width() > 500


def test_jump_to_hex_centres_the_view(qtbot, win):
    win.jump.setText("c2331")
    qtbot.keyClick(win.jump, Qt.Key_Return)
    centre = win.view.mapToScene(win.view.viewport().rect().center())
    rec = geo.rec_of("C2331")
    assert abs(centre.x() - rec.x) < geo.W and abs(centre.y() - rec.y) < geo.R * 2


def test_offmap_display_shows_boxed_units(qtbot, win):
    win.tabs.setCurrentIndex(1)
    st = win.ctl.state()
    boxed = {u.id for u in st.units.values() if u.loc.startswith(("box:", "track:", "card:")) or u.loc == "setup"}
    shown = {u.id for pl in win.offmap.canvas.placed for u in pl.units}
    assert boxed and boxed <= shown


def test_layers_toggle_and_persist(qtbot, win, dirs):
    from app.settings import Settings

    win.layer_boxes["grid"].setChecked(False)
    assert win.scene.layers["grid"] is False
    assert Settings.load().layers["grid"] is False


def test_help_opens_the_cited_rule(qtbot, win):
    win.open_rule("4.1 VI.3; 13.0")
    if win._rules.doc is None:
        pytest.skip("the rules text is not available on this machine")
    assert "4.1" in win._rules.windowTitle()


def test_default_game_is_created_in_the_data_dir(qtbot, dirs):
    from app.main import build_window, default_game_path

    w = build_window(None)
    qtbot.addWidget(w)
    assert default_game_path().exists()
    assert w.ctl.state().scenario == "sonnenblume"
    assert w.ctl.pending() is not None
