#!/usr/bin/env python3
"""Assemble docs/rulings.md and docs/data.md from their per-area sources.

Each area of the project keeps its own file (docs/rulings.d/*.md, docs/data.d/*.md) so that
work in one area never collides with another; this script joins them, in file-name order, under
a common introduction.  `tests/test_docs.py` checks that the assembled files are current.

    python3 scripts/build_docs.py          # rewrite the two files
    python3 scripts/build_docs.py --check  # exit 1 if they are out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"

INTROS = {
    "rulings": (
        "# Rulings\n\n"
        "Where the Desert Fox Deluxe rules are silent, ambiguous or contradict themselves, this is how the program\n"
        "plays it. Each ruling names the rules it touches and, where one exists, the test that holds it. The\n"
        "sections come from `docs/rulings.d/` (one file per area); edit those and run `python3 scripts/build_docs.py`.\n"
    ),
    "data": (
        "# Data files\n\n"
        "Everything the game knows about its content lives in human-editable files under `resources/` and\n"
        "`scenarios/`, with provenance: `source = \"rules\"` for a value the rules text states (reproduced exactly)\n"
        "and `source = \"reconstructed\"` with a one-line `reason` for a value we had to reconstruct. If you own the\n"
        "game, correct any reconstructed value to match your printed counters, charts, cards and maps, then run\n"
        "`dfd validate`: it checks every file and every cross-reference and names the file and field of each error.\n"
        "The sections come from `docs/data.d/` (one file per area); edit those and run `python3 scripts/build_docs.py`.\n"
    ),
}


def shift_headings(text: str) -> str:
    """Demote every heading one level so each source file becomes a section."""
    out = []
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        out.append("#" + line if line.startswith("#") and not fence else line)
    return "\n".join(out).strip() + "\n"


def assemble(kind: str) -> str:
    parts = [INTROS[kind]]
    for f in sorted((DOCS / f"{kind}.d").glob("*.md")):
        parts.append(shift_headings(f.read_text(encoding="utf-8")))
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    stale = []
    for kind in INTROS:
        target = DOCS / f"{kind}.md"
        text = assemble(kind)
        if "--check" in argv:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(str(target))
        else:
            target.write_text(text, encoding="utf-8")
    if stale:
        print("out of date (run python3 scripts/build_docs.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
