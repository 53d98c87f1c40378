#!/usr/bin/env python3
"""Build the standalone app folder with PyInstaller, then start it offscreen to check it.

    .venv/bin/python packaging/build.py            # build dist/dfd/ and smoke-test it
    .venv/bin/python packaging/build.py --no-smoke # build only

The smoke test runs the bundled `dfd --version`, `dfd validate` and `dfd scenarios`, then opens the app
offscreen with `--smoke` (the main window is created, shown and closed) and expects exit code 0.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist" / "dfd"
EXE = DIST / ("dfd.exe" if os.name == "nt" else "dfd")


def build() -> None:
    if shutil.which("pyinstaller") is None and subprocess.call([sys.executable, "-m", "PyInstaller", "--version"],
                                                               stdout=subprocess.DEVNULL) != 0:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "pyinstaller>=6"])
    subprocess.check_call([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                           "--distpath", str(ROOT / "dist"), "--workpath", str(ROOT / "build"),
                           str(ROOT / "packaging" / "dfd.spec")], cwd=ROOT)


def smoke() -> list[tuple[str, bool, str]]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = []
    for args in (["--version"], ["validate"], ["scenarios"], ["play", "--smoke"]):
        r = subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)
        out.append((" ".join(args), r.returncode == 0, (r.stdout + r.stderr).strip().splitlines()[-1:] and
                    (r.stdout + r.stderr).strip().splitlines()[-1] or ""))
    return out


def main() -> int:
    build()
    print(f"built {DIST}")
    if "--no-smoke" in sys.argv:
        return 0
    ok = True
    for cmd, passed, last in smoke():
        ok &= passed
        print(f"{'ok  ' if passed else 'FAIL'} dfd {cmd}: {last}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
