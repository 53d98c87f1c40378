"""Find the rules text and the section a prompt cites (Help ▸ Rule).

The rules text is a plain text file (the project's seed document).  It is
looked for in: the settings, ``$DFD_RULES_TEXT``, ``resources/rules/*.txt``,
and the shared seeds directory beside the project.  Sections are the numbered
headings (``4.1 Turn Sequence``, ``13.5 ...``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from core.resources import ROOT

#: a numbered rule heading: "13.5 Reaction Movement", "4.1 TURN SEQUENCE", "12.2.3 Bases" — at least one dot, so
#: set-up list lines ("7 Ind. BG", "62 Mmrirca", "4 CCNN") are not taken for sections
_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){1,3})\s+([A-Z][^\t]{1,80})$")
_RULE = re.compile(r"(\d{1,2}(?:\.\d{1,2}){0,3})")


def candidates(configured: str = "") -> list[Path]:
    out: list[Path] = []
    if configured:
        out.append(Path(configured))
    if os.environ.get("DFD_RULES_TEXT"):
        out.append(Path(os.environ["DFD_RULES_TEXT"]))
    out += sorted((ROOT / "resources" / "rules").glob("*.txt"))
    for base in (ROOT.parent / "shared" / "seeds", ROOT / "shared" / "seeds"):
        out += sorted(base.glob("000_*.txt"))
    return out


def find_rules(configured: str = "") -> Path | None:
    for p in candidates(configured):
        if p.is_file():
            return p
    return None


@dataclass(frozen=True)
class Section:
    number: str
    title: str
    line: int


@dataclass
class RulesDoc:
    path: Path
    lines: list[str]
    sections: list[Section]

    def section_for(self, rule: str) -> Section | None:
        """The section a rule reference names (``4.1 VI.3; 13.0`` -> 4.1); falls back to the parent number."""
        for m in _RULE.finditer(rule or ""):
            num = m.group(1)
            while num:
                for s in self.sections:
                    if s.number == num or s.number == num + ".0" or (num.endswith(".0") and s.number == num):
                        return s
                num = num.rsplit(".", 1)[0] if "." in num else ""
        return None

    def text_of(self, sec: Section, max_lines: int = 400) -> str:
        idx = self.sections.index(sec)
        level = sec.number.count(".")
        end = len(self.lines)
        for nxt in self.sections[idx + 1:]:
            if nxt.number.count(".") <= level or not nxt.number.startswith(sec.number.rstrip("0").rstrip(".")):
                end = nxt.line
                break
        return "\n".join(self.lines[sec.line: min(end, sec.line + max_lines)])


@cache
def load(path: str) -> RulesDoc:
    p = Path(path)
    lines = p.read_text(encoding="utf-8", errors="replace").splitlines()
    sections: list[Section] = []
    seen: set[str] = set()
    for i, ln in enumerate(lines):
        m = _HEADING.match(ln.strip())
        if not m or "....." in ln or "\t" in ln.strip():
            continue
        num, title = m.group(1), m.group(2).strip()
        if num in seen and i < 80:
            continue
        # the table of contents is at the top: keep the body's heading (the later one)
        sections = [s for s in sections if s.number != num]
        seen.add(num)
        sections.append(Section(num, title, i))
    sections.sort(key=lambda s: s.line)
    return RulesDoc(p, lines, sections)
