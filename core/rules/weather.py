"""21.0 Weather (optional): winter (21.1) and Ghiblis (21.2, 6.3) as queries other modules call.

* Winter: GTs in December-March (21.1); affects all of Map A, Map C mountain hexes and wadi hexsides, and
  Map T north of the winter line (the map data's winter areas, R-MAP-WINTER).
* Ghibli: set by the initiative result (6.3) for the current GT only (``state.ghibli``); affects desert
  and rough hexes except Map A, Map T north of the temperate line, Map C mountains, winter areas (6.3, 21.2).
Effects: movement costs doubled except along primary/secondary roads (21.1.1, 21.2.1) — ``mp_multiplier``;
random column shifts (Combat Modifiers Chart) — ``combat_affected``; no air operations in Ghibli hexes (21.2.1).
The areas have one definition, ``combat.winter_area`` / ``combat.ghibli_hex`` (from the map data).
"""

from __future__ import annotations

from core import calendar
from core.engine import QUERIES, Engine


def winter_now(eng: Engine) -> bool:
    return calendar.is_winter(eng.state.gt)


def winter_affects(eng: Engine, hex_label: str) -> bool:
    """21.1: winter hexes this GT (the optional weather rules in use, ``vars["weather_rules"]``, default on)."""
    from core.rules import combat

    if not winter_now(eng) or not eng.state.vars.get("weather_rules", True) or combat.hex_of(hex_label) is None:
        return False
    return combat.winter_area(eng.state, hex_label)


def ghibli_affects(eng: Engine, hex_label: str) -> bool:
    """6.3 / 21.2: Ghibli-affected hexes this GT."""
    from core.rules import combat

    if not calendar.ghibli_possible(eng.state.gt) or combat.hex_of(hex_label) is None:
        return False
    return combat.ghibli_hex(eng.state, hex_label)


def mp_multiplier(eng: Engine, hex_label: str, along_road: bool = False) -> int:
    """21.1.1 / 21.2.1: MP costs doubled except along primary and secondary roads."""
    if along_road:
        return 1
    return 2 if (winter_affects(eng, hex_label) or ghibli_affects(eng, hex_label)) else 1


def combat_affected(eng: Engine, hex_label: str) -> str | None:
    """21.1.1 / 21.2.1: attacks into winter/Ghibli hexes get random column shifts (Combat Modifiers Chart)."""
    if ghibli_affects(eng, hex_label):
        return "ghibli"
    if winter_affects(eng, hex_label):
        return "winter"
    return None


QUERIES["winter"] = lambda eng, hex="": winter_affects(eng, hex)
QUERIES["ghibli"] = lambda eng, hex="": ghibli_affects(eng, hex)
QUERIES["weather_mp_multiplier"] = lambda eng, hex="", road=False: mp_multiplier(eng, hex, road)
QUERIES["weather_combat"] = lambda eng, hex="": combat_affected(eng, hex)
