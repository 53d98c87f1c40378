"""Game ▸ Ledger…: the campaign ledger (core.ledger, the same table as `dfd ledger FILE`) in a dialog."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget


def ledger_text(path: Path | None) -> str:
    """The ledger of the game file at ``path``, or why there is none."""
    if path is None:
        return ("The ledger is computed from the game file; it is on the host's machine "
                "(there: Game ▸ Ledger… or `dfd ledger FILE`).")
    from core import ledger

    return ledger.text(ledger.build(path))


class LedgerDialog(QDialog):
    """Per GT: arrivals and where from, withdrawals, support received, eliminations, counters held back (2.4)."""

    def __init__(self, parent: QWidget | None, path: Path | None):
        super().__init__(parent)
        self.setWindowTitle("Ledger")
        self.resize(820, 640)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("What arrived, was withdrawn, received and eliminated each GT — check it against the "
                             "printed schedule (24.0-33.0) and cards (23.0)."))
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setFont(QFont("monospace"))
        self.view.setPlainText(ledger_text(path))
        lay.addWidget(self.view, 1)
        box = QDialogButtonBox(QDialogButtonBox.Close)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
