"""21.0 weather: winter months and areas (21.1), Ghibli months and exclusions (6.3, 21.2), effects."""

from __future__ import annotations

from core import calendar
from core.rules import weather
from tests.test_events_cards import make


def test_winter_gts_and_areas_21_1():
    eng = make("desert-war")
    eng.state.gt = 8          # January 1941
    assert calendar.is_winter(8) and weather.winter_affects(eng, "A6201")
    assert not weather.winter_affects(eng, "W2118")           # Map W is never a winter area
    assert weather.mp_multiplier(eng, "A6201") == 2 and weather.mp_multiplier(eng, "A6201", along_road=True) == 1
    eng.state.gt = 12
    assert not weather.winter_affects(eng, "A6201")


def test_ghibli_only_its_months_and_not_on_map_a_6_3():
    eng = make("desert-war")
    eng.state.gt, eng.state.ghibli = 12, True     # May 1941
    assert weather.ghibli_affects(eng, "W2118") and weather.combat_affected(eng, "W2118") == "ghibli"
    assert not weather.ghibli_affects(eng, "A6201")
    eng.state.gt = 14                              # July: no Ghibli possible
    assert not weather.ghibli_affects(eng, "W2118")
    assert eng.query("ghibli", hex="W2118") is False
