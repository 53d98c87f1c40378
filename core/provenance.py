"""What a campaign is played with: the program's version, a fingerprint of its rules code and of its data.

A ``.dfd`` file records these for every *epoch* of its log (see :mod:`core.game` and
docs/architecture.md, "Epochs").  When a file is opened by a program whose provenance differs from
the one its current epoch was played with, the game continues as a new epoch, and
:meth:`Provenance.change_from` names what changed in words a player understands.

* ``version``: :data:`core.__version__`, the released program version.
* ``code``: sha256 of the engine's source files (``core/**/*.py``); a rules fix changes it even before
  the version number does.  A frozen app without source files gives ``""`` (the version stands alone).
* ``files``: a short sha256 of every data file the rules read (``resources/`` cards, charts, counters,
  maps; ``scenarios/``), so that a player's correction of a counter is named by its file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import core
from core.resources import RESOURCES, SCENARIOS

CORE = Path(core.__file__).resolve().parent
DATA_DIRS = ("cards", "charts", "counters", "maps")
DATA_SUFFIXES = (".csv", ".toml", ".json")   # the map's build scripts (.py) are not read by the rules


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def code_fingerprint(root: Path = CORE) -> str:
    """sha256 over the engine's source files (relative path and bytes), ``""`` when there are none (frozen app)."""
    h = hashlib.sha256()
    found = False
    for p in sorted(root.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        found = True
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest() if found else ""


def data_files(resources: Path = RESOURCES, scenarios: Path = SCENARIOS) -> dict[str, str]:
    """``{"resources/counters/axis.csv": short sha256, ...}`` for every data file the rules read."""
    out: dict[str, str] = {}
    for d in DATA_DIRS:
        for p in sorted((resources / d).rglob("*")):
            if p.is_file() and p.suffix in DATA_SUFFIXES:
                out[f"resources/{p.relative_to(resources).as_posix()}"] = _digest(p)[:16]
    for p in sorted(scenarios.glob("*.toml")):
        out[f"scenarios/{p.name}"] = _digest(p)[:16]
    return out


@dataclass(frozen=True)
class Provenance:
    version: str
    code: str
    files: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    data: str = ""

    @classmethod
    def of(cls, version: str, code: str, files: dict[str, str]) -> "Provenance":
        data = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest() if files else ""
        return cls(version=version, code=code, files=dict(files), data=data)

    def same_as(self, other: "Provenance") -> bool:
        return (self.version, self.code, self.data) == (other.version, other.code, other.data)

    def change_from(self, old: "Provenance") -> str:
        """What changed from ``old`` to this program, as a phrase: "the program (0.1.0 → 0.2.0) and resources/…"."""
        parts: list[str] = []
        if old.version != self.version:
            parts.append(f"the program ({old.version or 'an earlier version'} → {self.version})")
        elif old.code != self.code:
            parts.append(f"the program's rules (version {self.version}, rules code {old.code[:8] or '?'} → "
                         f"{self.code[:8] or '?'})")
        if old.data != self.data:
            if not old.files:
                parts.append("the data files")
            else:
                changed = sorted(k for k in set(old.files) | set(self.files) if old.files.get(k) != self.files.get(k))
                shown = ", ".join(changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4 else "")
                parts.append(f"the data ({shown})")
        return " and ".join(parts)


@cache
def current() -> Provenance:
    """This program's provenance (computed once per process: the data are loaded once per process too)."""
    return Provenance.of(core.__version__, code_fingerprint(), data_files())
