"""Fail loudly (docs/architecture.md; issue 15): a broken data file or a failing rule never turns into a
different game.  A map that cannot be read is not an all-desert map, an unreadable victory file is not
"no conditions", a failed supply trace does not make every airfield supplied."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.rules import combat, supply, tec, victory_rules
from tests.test_events_cards import make


@pytest.mark.parametrize("module, fn, exc, where", [
    ("core.mapdata", "load", ValueError("unexpected end of data"), r"resources/maps/map\.json.*unexpected end of data"),
    ("core.terrain", "tec", KeyError("hex"), r"resources/charts/tec\.toml"),
])
def test_a_map_or_tec_that_fails_to_load_raises_naming_the_file(monkeypatch, module, fn, exc, where):
    import importlib

    def broken():
        raise exc

    tec.real_map.cache_clear()
    monkeypatch.setattr(importlib.import_module(module), fn, broken)
    try:
        with pytest.raises(tec.MapLoadError, match=where):
            tec.real_map()
    finally:
        monkeypatch.undo()
        tec.real_map.cache_clear()
    assert "core.mapdata" in tec.real_map().source and tec.real_map().terrain     # the real map again


def test_an_unreadable_victory_file_raises_naming_the_file(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text("victory = [ {side = ", encoding="utf-8")
    with pytest.raises(ValueError, match="broken.toml"):
        victory_rules._scenario_victory(str(bad))
    with pytest.raises(ValueError, match="missing.toml"):
        victory_rules._scenario_victory(str(tmp_path / "missing.toml"))


def test_a_failed_supply_trace_does_not_supply_every_airfield(monkeypatch):
    eng = make("desert-war")
    fields = {s: combat.friendly_airfields(eng.state, s) for s in (AXIS, ALLIED)}

    def broken(*a, **k):
        raise RuntimeError("trace failed")

    monkeypatch.setattr(supply, "supply_lines", broken)
    with pytest.raises(RuntimeError, match="trace failed"):
        for s in (AXIS, ALLIED):
            combat.friendly_airfields(eng.state, s)
    assert any(fields.values())          # the scenario has candidate airfields, so the trace was reached
