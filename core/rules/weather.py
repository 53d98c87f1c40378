"""21.0 Weather (optional): winter (21.1) and Ghiblis (21.2, 6.3) as queries other modules call.

* Winter: GTs in December-March (21.1); affects all of Map A, Map C mountain hexes and wadi hexsides, and
  Map T north of the winter line.  Terrain lookups belong to the map module; without it the winter areas
  are Map A and Map T (R-WX-AREAS).
* Ghibli: set by the initiative result (6.3) for the current GT only (``state.ghibli``); affects desert
  and rough hexes except Map A, Map T north of the temperate line, Map C mountains, winter areas (6.3, 21.2).
Effects: movement costs doubled except along primary/secondary roads (21.1.1, 21.2.1) — ``mp_multiplier``;
random column shifts (Combat Modifiers Chart) — ``combat_affected``; no air operations in Ghibli hexes (21.2.1).
"""

from __future__ import annotations

from core import calendar
from core.engine import QUERIES, Engine


def _terrain(eng: Engine, hex_label: str) -> str:
    """The hex's terrain from the map module if it has landed ('' otherwise)."""
    q = QUERIES.get("terrain")
    if q is None:
        return ""
    try:
        return str(q(eng, hex=hex_label) or "")
    except Exception:  # noqa: BLE001 - map data incomplete
        return ""


def winter_now(eng: Engine) -> bool:
    return calendar.is_winter(eng.state.gt)


def winter_affects(eng: Engine, hex_label: str) -> bool:
    """21.1: winter hexes this GT."""
    if not winter_now(eng) or not hex_label[:1].isalpha():
        return False
    m = hex_label[0].upper()
    if m in ("A", "T"):
        return True
    if m == "C":
        return "mountain" in _terrain(eng, hex_label).lower()
    return False


def ghibli_affects(eng: Engine, hex_label: str) -> bool:
    """6.3 / 21.2: Ghibli-affected hexes this GT."""
    st = eng.state
    if not st.ghibli or not calendar.ghibli_possible(st.gt):
        return False
    if not hex_label[:1].isalpha() or not hex_label[1:2].isdigit():
        return False
    m = hex_label[0].upper()
    if m in ("A", "T"):       # 6.3 a), b) (Map T north of the line: all of T without the map module)
        return False
    terr = _terrain(eng, hex_label).lower()
    if m == "C" and "mountain" in terr:
        return False
    if terr and not any(k in terr for k in ("desert", "rough", "clear")):
        return False
    return not winter_affects(eng, hex_label)


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
