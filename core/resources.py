"""Where the game's data files live (resources/ and scenarios/ at the project root)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
SCENARIOS = ROOT / "scenarios"


def resource(*parts: str) -> Path:
    """Path of a file under ``resources/``."""
    return RESOURCES.joinpath(*parts)
