"""``scripts/mutants.py`` keeps a list the code cannot silently outgrow (issue 16): every snippet it flips occurs
exactly once in its file, every test file it runs exists, at least 20 mutants are listed, and the four mutants
of issue 16 (stacking at ``>=``, disrupted MA rounded down, reaction radius 3, no natural-6 morale failure) are
among them.  Running the mutants themselves takes minutes: ``python scripts/mutants.py`` (on demand)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mutants():
    if "dfd_mutants" in sys.modules:
        return sys.modules["dfd_mutants"]
    spec = importlib.util.spec_from_file_location("dfd_mutants", ROOT / "scripts" / "mutants.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["dfd_mutants"] = mod          # dataclasses look their module up while the file executes
    spec.loader.exec_module(mod)
    return mod


def test_every_mutant_snippet_occurs_once_and_its_tests_exist():
    m = _mutants()
    assert m.check_list() == []
    assert len(m.MUTANTS) >= 20
    assert {"stacking-ge", "disrupted-ma-floor", "reaction-radius-3", "morale-natural-six"} <= {x.name for x in m.MUTANTS}


def test_check_list_reports_a_snippet_that_moved(tmp_path):
    m = _mutants()
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "x.py").write_text("A = 1\nA = 1\n")
    (tmp_path / "t.py").write_text("")
    bad = m.Mutant("dup", "core/x.py", "A = 1", "A = 2", "rule", ("t.py",))
    gone = m.Mutant("gone", "core/x.py", "B = 1", "B = 2", "rule", ("missing.py",))
    problems = m.check_list((bad, gone), tmp_path)
    assert any("dup" in p and "2 times" in p for p in problems)
    assert any("gone" in p and "0 times" in p for p in problems) and any("missing.py" in p for p in problems)
