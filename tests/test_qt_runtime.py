"""The Qt binding must not corrupt None's reference count (R-PYSIDE: PySide6 6.12 on Python 3.11 does)."""

import os
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import os, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication, QLabel
    from PySide6.QtGui import QPainterPath
    app = QApplication([])
    label, path = QLabel(), QPainterPath()
    before = sys.getrefcount(None)
    for _ in range(20000):
        label.setText("x"); path.moveTo(1.0, 2.0); label.update()
    print(sys.getrefcount(None) - before)
""")


def test_void_qt_calls_keep_none_alive():
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert r.returncode == 0, r.stderr[-500:]
    assert int(r.stdout.strip()) > -1000  # a leak of one reference per call would show as about -60000
