"""The assembled docs (rulings, data formats) are current with their per-area sources."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_rulings_and_data_docs_are_assembled():
    r = subprocess.run([sys.executable, "scripts/build_docs.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    block = lines[lines.index("```sh") + 1: lines.index("```sh") + 3]
    assert block[0].startswith("python3 scripts/bootstrap.py play")
    assert block[1].startswith("python3 scripts/bootstrap.py test")
    assert "bootstrap.py test" in (ROOT / ".ci" / "run").read_text()
