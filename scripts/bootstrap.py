#!/usr/bin/env python3
"""Set up the Desert Fox Campaign Manager on a fresh machine, then play or test.

    python3 scripts/bootstrap.py play    # set up, then open the app on a ready-to-play scenario
    python3 scripts/bootstrap.py test    # set up, then run the whole test suite (offscreen)

Needs only Python 3.11+ and pip.  Creates ``.venv`` beside this repository,
installs the project and its test tools into it, and installs the Debian
libraries Qt needs if they are missing (with apt-get, when run as root or with sudo).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
QT_DEBIAN_LIBS = [
    "libegl1", "libgl1", "libxkbcommon0", "libxkbcommon-x11-0", "libfontconfig1", "libfreetype6",
    "libdbus-1-3", "libglib2.0-0", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-shape0",
    "libxcb-render-util0", "libxcb-image0", "libxcb-xinerama0", "libxcb-randr0", "libx11-xcb1", "libxrender1",
    "libxi6", "libsm6", "libice6",
]


def run(cmd: list[str], **kw) -> int:
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.call(cmd, cwd=ROOT, **kw)


def ensure_venv() -> None:
    if not PY.exists():
        if run([sys.executable, "-m", "venv", str(VENV)]) != 0:
            sys.exit("could not create .venv (on Debian/Ubuntu: apt-get install python3-venv)")
    stamp = VENV / ".dfd-installed"
    pyproject = ROOT / "pyproject.toml"
    if not stamp.exists() or stamp.stat().st_mtime < pyproject.stat().st_mtime:
        run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        if run([str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]"]) != 0:
            sys.exit("pip install failed (see above)")
        stamp.touch()


def qt_works() -> bool:
    probe = "from PySide6.QtWidgets import QApplication; QApplication(['probe'])"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.call([str(PY), "-c", probe], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0


def ensure_qt_libraries() -> None:
    if qt_works():
        return
    apt = shutil.which("apt-get")
    if not apt:
        print("Qt cannot start and apt-get is not available: install your system's OpenGL/EGL, xkbcommon and fontconfig libraries.")
        return
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(prefix + [apt, "update", "-qq"], env=env)
    run(prefix + [apt, "install", "-y", "-qq", "--no-install-recommends", *QT_DEBIAN_LIBS], env=env)
    if not qt_works():
        print("warning: Qt still cannot start; GUI tests will fail")


def play(extra: list[str]) -> int:
    env = dict(os.environ)
    if sys.platform.startswith("linux") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        print("No display found: set DISPLAY (or run under xvfb-run) to see the app window.")
    return subprocess.call([str(PY), "-m", "app.cli", *extra], cwd=ROOT, env=env)


def test(extra: list[str]) -> int:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    workers = ["-n", "2"] if "-n" not in extra else []
    code = subprocess.call([str(PY), "-m", "pytest", *workers, *extra], cwd=ROOT, env=env)
    return 0 if code == 5 else code  # pytest exit code 5 = "no tests collected"


def main() -> int:
    what = sys.argv[1] if len(sys.argv) > 1 else "play"
    if what not in ("play", "test", "setup"):
        sys.exit(__doc__)
    ensure_venv()
    ensure_qt_libraries()
    if what == "setup":
        return 0
    return play(sys.argv[2:]) if what == "play" else test(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
