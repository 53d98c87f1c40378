"""Render the app's screenshots offscreen into docs/screenshots/*.png.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--scenario sonnenblume]

Creates a throw-away game (settings and data in a temporary directory), plays
the set-up through the engine's own options, and grabs: the main window, the
full map, a zoomed battle area, the off-map display, the cards panel, the
dashboard and (when the engine offers the ``odds`` query) the combat dialog.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--scenario", default="sonnenblume")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="dfd-shots-"))
    os.environ["DFD_CONFIG_DIR"] = str(tmp / "config")
    os.environ["DFD_DATA_DIR"] = str(tmp / "data")

    from PySide6.QtWidgets import QApplication

    import app  # noqa: F401  (installs the PySide6/py3.11 workaround)
    from app import geometry as geo, theme
    from app.mainwindow import MainWindow

    qapp = QApplication.instance() or QApplication([])
    theme.apply_style(qapp)
    args.out.mkdir(parents=True, exist_ok=True)
    win = MainWindow()
    win.resize(1680, 1020)
    win.show()
    win.ctl.new_game(tmp / "game.dfd", args.scenario, seed=args.seed)
    ctl = win.ctl
    ctl.hotseat = False
    # play the set-up placements with the engine's own first legal option
    for _ in range(400):
        d = ctl.pending()
        if d is None or d.kind != "setup_place":
            break
        ctl.act(d.options[0].action)
    qapp.processEvents()
    shots: list[Path] = []

    def save(widget, name: str) -> None:
        qapp.processEvents()
        p = args.out / name
        widget.grab().save(str(p))
        shots.append(p)

    # the main window on the front line
    st = ctl.state()
    front = "C2331" if any(geo.rec_of(u.loc) and geo.rec_of(u.loc).label == "C2331" for u in st.units.values()) else None
    win.tabs.setCurrentIndex(0)
    win.view.set_zoom(0.62)
    win.view.centre_on_hex(front or "C1520")
    lab = front or "C2331"
    win.selected_hex = lab
    win.scene.select_hex(lab)
    win._inspect_hex(lab)
    save(win, "main-window.png")
    # the full map
    img = win.scene.render_image(2600 / win.scene.sceneRect().width())
    p = args.out / "full-map.png"
    img.save(str(p))
    shots.append(p)
    # a zoomed battle area with hex numbers, counters and values
    win.view.set_zoom(1.35)
    win.view.centre_on_hex(front or "C2331")
    save(win.view, "zoomed-map.png")
    for i, name in ((1, "offmap-display.png"), (2, "cards-panel.png"), (3, "dashboard.png")):
        win.tabs.setCurrentIndex(i)
        qapp.processEvents()
        save(win.tabs.currentWidget(), name)
    win.tabs.setCurrentIndex(0)
    if "odds" in ctl.query_names():
        # an attack preview between the first pair of adjacent opposing stacks, if the set-up has one
        st = ctl.state()
        by_hex: dict[str, set[str]] = {}
        for u in st.units.values():
            rec = geo.rec_of(u.loc)
            if rec is not None:
                by_hex.setdefault(rec.label, set()).add(u.side)
        pair = None
        for lab, sides in sorted(by_hex.items()):
            for n in geo.rec_of(lab).hex.neighbours():
                other = by_hex.get(n.label, set())
                if sides and other and sides.isdisjoint(other):
                    pair = (lab, n.label)
                    break
            if pair:
                break
        if pair:
            win.selected_hex = pair[0]
            dlg = win.preview_attack(pair[1])
            if dlg is not None:
                save(dlg, "combat-dialog.png")
        else:
            print("combat dialog: skipped (no opposing stacks are adjacent in this set-up)")
    else:
        print("combat dialog: skipped (the engine registers no 'odds' query yet)")
    for p in shots:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
