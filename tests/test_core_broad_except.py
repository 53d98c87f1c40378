"""Fail loudly (docs/architecture.md; issue 15): every broad handler in ``core/`` — ``except Exception``,
``except BaseException`` or a bare ``except:`` — says on its line why it exists, and a ``BaseException`` or bare
handler re-raises (it only restores or releases something so the save stays consistent)."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "core"
BROAD = ("Exception", "BaseException")


def _broad_handlers():
    for path in sorted(CORE.rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        lines = src.splitlines()
        for node in ast.walk(ast.parse(src)):
            if not isinstance(node, ast.ExceptHandler):
                continue
            name = node.type.id if isinstance(node.type, ast.Name) else None
            if node.type is None or name in BROAD:
                yield path.relative_to(CORE.parent), node, name, lines[node.lineno - 1]


def test_every_broad_except_in_core_is_justified_on_its_line():
    handlers = list(_broad_handlers())
    assert handlers                                     # the scan sees the engine's own handler
    bare = [f"{p}:{n.lineno}" for p, n, name, line in handlers if "#" not in line.split("except", 1)[1]]
    assert not bare, f"broad except without a one-line reason: {bare}"


def test_every_base_exception_handler_re_raises():
    swallowing = [f"{p}:{n.lineno}" for p, n, name, _ in _broad_handlers()
                  if name != "Exception" and not any(isinstance(s, ast.Raise) for s in ast.walk(n))]
    assert not swallowing, f"a BaseException / bare handler must re-raise: {swallowing}"
