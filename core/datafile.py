"""Reading the game's human-editable TOML data files with validation.

One function serves every loader (charts, cards, scenarios, the map's side files): read the file,
parse TOML, convert to the typed msgspec structure, and turn every failure into the loader's own
error type with a message that names the file (and, from msgspec, the field path).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

import msgspec

T = TypeVar("T")


def load_toml(path: Path, typ: type[T], error: type[Exception], shown: str | None = None) -> T:
    """``path`` parsed and converted to ``typ``; failures raise ``error`` naming ``shown`` (default: the path)."""
    where = shown or str(path)
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{where}: file missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{where}: cannot read the file: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from exc
    try:
        return msgspec.convert(raw, type=typ)
    except msgspec.ValidationError as exc:
        raise error(f"{where}: {exc}") from exc
