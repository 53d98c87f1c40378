"""Crash handling (issue 10): an uncaught exception never loses a game.

Every confirmed action is committed to the ``.dfd`` file before ``Game.act`` returns (one SQLite
transaction per action, ``synchronous=FULL``), so when something in the app goes wrong the game is
already safe.  :func:`install` hooks ``sys.excepthook`` (Python exceptions, including those raised
in Qt slots and event handlers) and Qt's message handler (fatal and critical Qt messages); each
report is appended to ``dfd.log`` in ``platformdirs.user_log_dir("dfd")`` (``DFD_LOG_DIR``
overrides) and shown in a non-modal dialog saying what happened, where the log is and that the
game file is safe.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import sys
import traceback
from pathlib import Path
from typing import Callable

import platformdirs

APP = "dfd"
LOG_NAME = "dfd.log"


def log_dir() -> Path:
    d = os.environ.get("DFD_LOG_DIR")
    return Path(d) if d else Path(platformdirs.user_log_dir(APP, appauthor=False))


def log_path() -> Path:
    return log_dir() / LOG_NAME


def write_log(title: str, detail: str, game: str = "", actions: int | None = None) -> Path:
    """Append one report to the log file; returns its path (never raises)."""
    p = log_path()
    try:
        from core import __version__
    except Exception:  # noqa: BLE001
        __version__ = "?"
    text = (f"==== {_dt.datetime.now().isoformat(timespec='seconds')} · dfd {__version__} · Python {platform.python_version()}"
            f" · {platform.platform()}\n{title}\n"
            + (f"game: {game} ({actions} confirmed actions, all committed)\n" if game else "")
            + detail.rstrip() + "\n\n")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        with p.open("a", encoding="utf-8") as f:
            f.write(text)
    except OSError:
        sys.stderr.write(text)
    return p


class CrashHandler:
    """Installed once per application; ``window`` gives the open game for the report."""

    def __init__(self, window_getter: Callable[[], object | None]):
        self.window_getter = window_getter
        self.reports: list[tuple[str, Path]] = []
        self.dialogs: list = []
        self._prev_hook = None
        self._prev_qt = None
        self._busy = False

    # ------------------------------------------------------------------ install
    def install(self) -> "CrashHandler":
        from PySide6.QtCore import qInstallMessageHandler

        self._prev_hook = sys.excepthook
        sys.excepthook = self.excepthook
        self._prev_qt = qInstallMessageHandler(self.qt_message)
        return self

    def uninstall(self) -> None:
        from PySide6.QtCore import qInstallMessageHandler

        if self._prev_hook is not None:
            sys.excepthook = self._prev_hook
            self._prev_hook = None
        qInstallMessageHandler(self._prev_qt)
        self._prev_qt = None

    # ------------------------------------------------------------------ hooks
    def excepthook(self, etype, value, tb) -> None:
        if issubclass(etype, KeyboardInterrupt):
            if self._prev_hook:
                self._prev_hook(etype, value, tb)
            return
        detail = "".join(traceback.format_exception(etype, value, tb))
        self.report(f"{etype.__name__}: {value}", detail, unsaved=_is_write_failure(value))

    def qt_message(self, mode, context, message: str) -> None:
        from PySide6.QtCore import QtMsgType

        if mode in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            where = f"{context.file}:{context.line} ({context.function})" if context and context.file else "Qt"
            self.report(f"Qt {'fatal error' if mode == QtMsgType.QtFatalMsg else 'critical message'}: {message}",
                        f"{where}\n{message}")
        elif mode == QtMsgType.QtWarningMsg and "propagateSizeHints" not in message:
            write_log("Qt warning", message)

    # ------------------------------------------------------------------ report
    def _game(self) -> tuple[str, int | None]:
        w = self.window_getter()
        ctl = getattr(w, "ctl", None)
        if ctl is None or getattr(ctl, "path", None) is None or getattr(ctl, "game", None) is None:
            return "", None
        try:
            return str(ctl.path), len(ctl.log())
        except Exception:  # noqa: BLE001
            return str(ctl.path), None

    def report(self, title: str, detail: str, unsaved: bool = False) -> Path:
        """Log and show one error; ``unsaved``: the file refused to take an action (core.game.Game.act took it
        back, so the game is exactly what the file holds)."""
        game, n = self._game()
        path = write_log(title, detail, game, n)
        self.reports.append((title, path))
        if not self._busy:
            self._busy = True
            try:
                self._show(title, path, game, n, unsaved)
            finally:
                self._busy = False
        return path

    def _show(self, title: str, path: Path, game: str, n: int | None, unsaved: bool = False) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QApplication, QMessageBox

        if QApplication.instance() is None:
            return
        parent = self.window_getter()
        box = QMessageBox(parent if parent is not None and hasattr(parent, "isVisible") else None)
        box.setObjectName("CrashDialog")
        box.setIcon(QMessageBox.Warning)
        box.setWindowTitle("Something went wrong")
        safe = (f"Your game is safe: every confirmed action ({n}) is already saved in<br><code>{game}</code>.<br>"
                "Reopen it at any time (File ▸ Open recent) to carry on exactly where you were."
                if game else "No game was open; nothing is lost.")
        if game and unsaved:
            safe = ("The file could not save your last action, so it was taken back: the game on screen is exactly "
                    f"the one saved in<br><code>{game}</code> ({n} confirmed actions). Make room on the disk (or "
                    "check the drive), then play that action again.")
        box.setText(f"<b>The app hit an unexpected error.</b><br>{_esc(title)}")
        box.setInformativeText(f"{safe}<br><br>The details were written to<br><code>{path}</code><br>"
                               "Please attach that file when you report the problem.")
        box.setTextFormat(Qt.RichText)
        box.setStandardButtons(QMessageBox.Ok)
        box.setModal(False)
        box.finished.connect(lambda _r, b=box: self.dialogs.remove(b) if b in self.dialogs else None)
        self.dialogs.append(box)
        box.show()


def _is_write_failure(exc: BaseException) -> bool:
    """An error of the game file's storage (SQLite, the disk), as raised by a failed commit in Game.act."""
    import sqlite3

    try:
        from sqlalchemy.exc import SQLAlchemyError
    except ImportError:  # pragma: no cover - SQLAlchemy is a dependency
        SQLAlchemyError = sqlite3.Error  # type: ignore[misc,assignment]
    return isinstance(exc, (sqlite3.Error, SQLAlchemyError, OSError))


def _esc(s: str) -> str:
    import html

    return html.escape(s if len(s) < 400 else s[:400] + "…")


_HANDLER: CrashHandler | None = None


def install(window_getter: Callable[[], object | None]) -> CrashHandler:
    """Install the handler for this process (replacing an earlier one)."""
    global _HANDLER
    if _HANDLER is not None:
        _HANDLER.uninstall()
    _HANDLER = CrashHandler(window_getter).install()
    return _HANDLER


def current() -> CrashHandler | None:
    return _HANDLER
