"""Start the desktop app: ``dfd`` / ``dfd play [FILE]`` call :func:`run`."""

from __future__ import annotations

import sys
import time
from pathlib import Path

DEFAULT_SCENARIO = "sonnenblume"


def default_game_path() -> Path:
    from app.settings import data_dir

    return data_dir() / f"{DEFAULT_SCENARIO}.dfd"


def open_or_create_default(ctl) -> Path:
    """Open the embedded default game (Sonnenblume) in the user data dir, creating it on first use.

    A default file that no longer opens (e.g. written by an older rules version) is
    moved aside, never deleted, and a fresh game is created.
    """
    path = default_game_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        try:
            ctl.open_game(path)
            return path
        except Exception:  # noqa: BLE001 - keep the old file for the player, start afresh
            path.replace(path.with_name(f"{path.stem}.unreadable-{int(time.time())}.dfd"))
    ctl.new_game(path, DEFAULT_SCENARIO, seed=1)
    return path


def reopen_last(ctl, recent: list[str]) -> Path | None:
    """Open the most recent game of File ▸ Open recent that still exists and opens; None if there is none."""
    for r in recent:
        p = Path(r)
        if not p.is_file():
            continue
        try:
            ctl.open_game(p)
            return p
        except Exception:  # noqa: BLE001 - an unreadable recent file: try the next one
            continue
    return None


def build_window(file: Path | None = None):
    """The main window on ``file``; without one, the last game played (the most recent of Open recent),
    and only the first time — no recent game — the default Sonnenblume game.  A QApplication must exist."""
    from app.mainwindow import MainWindow

    win = MainWindow()
    if file is not None:
        if Path(file).exists():
            win.open_path(Path(file))
        else:
            win.ctl.new_game(Path(file), DEFAULT_SCENARIO, seed=1)
    elif reopen_last(win.ctl, list(win.settings.recent)) is None:
        open_or_create_default(win.ctl)
    return win


def run(file: Path | None = None, smoke: bool = False) -> int:
    """Start the app on ``file`` (or the default game).

    ``smoke=True`` (``dfd play --smoke``, used by ``packaging/build.py``): create the main window,
    show it, process events once, close it and return 0 — proof that the bundle starts.
    """
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from app import crash, theme

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Desert Fox Campaign Manager")
    app.setOrganizationName("dfd")
    icon = Path(__file__).resolve().parent.parent / "resources" / "icons" / "dfd.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    theme.apply_style(app)
    holder: dict[str, object] = {}
    crash.install(lambda: holder.get("win"))
    win = build_window(file)
    holder["win"] = win
    win.show()
    if smoke:
        app.processEvents()
        ok = win.isVisible() and win.ctl.game is not None
        win.close()
        app.processEvents()
        print(f"smoke: main window shown on {win.ctl.path} — {'ok' if ok else 'FAILED'}")
        return 0 if ok else 1
    return app.exec()


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
