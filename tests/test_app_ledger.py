"""Game ▸ Ledger…: the app shows the same ledger as `dfd ledger` (issue 17)."""

from __future__ import annotations

from app.ledger import LedgerDialog, ledger_text
from core.game import Game
from tests.playpath import pass_action


def test_ledger_dialog_shows_the_games_ledger(qtbot, tmp_path):
    path = tmp_path / "fk.dfd"
    g = Game.new(path, "fox-killed", 2)
    while g.state.gt < 6 and (d := g.engine.pending()) is not None:
        g.act(pass_action(d))
    g.close()
    dlg = LedgerDialog(None, path)
    qtbot.addWidget(dlg)
    text = dlg.view.toPlainText()
    assert text.startswith("Ledger of fox-killed") and "GT 5" in text and "24.2" in text
    assert "host's machine" in ledger_text(None)
