"""Static checks (pyflakes rules via ruff): no undefined names, unused imports or variables; core/ is Qt-free."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_pyflakes_clean():
    exe = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(exe).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    r = subprocess.run([exe, "check", "--select", "F,E9", "core", "app", "net", "scripts", "benchmarks", "tests",
                        "packaging", "resources"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]


def test_core_never_imports_qt():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "core").rglob("*.py")
                 if any(line.lstrip().startswith(("from PySide6", "import PySide6")) for line in p.read_text().splitlines())]
    assert offenders == []
