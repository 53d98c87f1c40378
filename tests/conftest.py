"""Shared fixtures: a small test scenario and engine factories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

FIXTURES = Path(__file__).parent / "fixtures"
WALK = FIXTURES / "walk.toml"


@pytest.fixture
def dirs(tmp_path, monkeypatch):
    """Per-test settings, data, log and key folders, so GUI and LAN tests never touch the user's own."""
    for var, sub in (("DFD_CONFIG_DIR", "config"), ("DFD_DATA_DIR", "data"), ("DFD_LOG_DIR", "log"),
                     ("DFD_KEY_DIR", "keys")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    return tmp_path


@pytest.fixture
def walk_scenario():
    from core.scenario import load

    return load(str(WALK))


@pytest.fixture
def walk_engine(walk_scenario):
    from core.engine import Engine
    from core.newgame import initial_state

    def make(seed: int = 1, dice=None) -> "Engine":
        return Engine(initial_state(walk_scenario, seed), dice)

    return make


@pytest.fixture
def gm():
    """An all-clear synthetic ground map (13.3 costs without terrain) in use for the test, then the real map again."""
    from core.rules import tec

    m = tec.GroundMap(default="clear")
    tec.use_map(m)
    yield m
    tec.use_map(None)
