"""Names a player reads: counter names and place names instead of the engine's internal ids (issue 19).

The engine's prompts, option labels and refusals may name units by id (``GE-FFAfrika``, ``AX-Dump#3``) and
holding boxes by key (``box:AirNA:Axis``).  :func:`humanize` rewrites a text for the screen: each unit id becomes
its counter's name (``FF Afrika``; a numbered supply counter keeps its number, ``Dump #3``) and each box key the
box's title.  The engine's texts are unchanged (logs, LAN and tests read them); tooltips keep the raw action.
"""

from __future__ import annotations

import re

from app import counterart

_UNIT = re.compile(r"\b[A-Z]{2,3}-[A-Za-z0-9][A-Za-z0-9#]*")
_BOX = re.compile(r"\b(?:box|track|card):[A-Za-z0-9_#:\-]+[A-Za-z0-9_#]")

#: The free-form action kinds of the decisions as a player reads them (the prompt's "use the map or panels" hint).
KIND_NAMES = {
    "move": "move stacks", "place": "place units", "refit_hex": "refit in a hex", "refit_box": "refit from the Refit Box",
    "refit_destroyed": "rebuild destroyed units", "dump_gens": "generate dumps", "upgrade": "upgrade units",
    "create_base": "create a base", "emergency_supply": "emergency supply", "destroy_supply": "destroy supply",
    "transfer": "transfer supply", "reserve": "put units in reserve", "build_fort": "build a fort",
    "build_rail": "build railway", "build_road": "build road", "rail": "move by rail", "coastal_ship": "coastal shipping",
    "air_land": "air landing", "declare": "declare attacks", "done": "finish",
}


def unit_name(uid: str) -> str:
    """``GE-5Pz`` -> ``5 Pz``; ``AX-Dump#3`` -> ``Dump #3``; an unknown id is returned as it is."""
    c = counterart.lookup(uid)
    if c is None or not getattr(c, "name", None):
        return uid
    name = c.name
    if "#" in uid and not any(ch.isdigit() for ch in name):
        name = f"{name} #{uid.rsplit('#', 1)[1]}"
    return name


def box_name(key: str) -> str:
    """``box:AirNA:Axis`` -> the off-map display's title of that box (``Axis Air North Africa``…)."""
    from app.offmap import GROUPS, SHIPPING_PREFIXES, shipping_title

    for g in GROUPS:
        for b in g.boxes:
            if b.id == key or key in b.aliases:
                return b.title
    if key.startswith(SHIPPING_PREFIXES):
        return shipping_title(key)
    if key.startswith("track:Training:"):
        return f"Training {key.rsplit(':', 1)[1]}"
    if key.startswith("card:"):
        return f"card {key.split(':', 1)[1]}"
    parts = key.split(":")[1:]
    return " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p) for p in parts) or key


def humanize(text: str) -> str:
    """A text with unit ids and box keys replaced by names (see the module docstring)."""
    if not text:
        return text
    text = _BOX.sub(lambda m: box_name(m.group(0)), text)
    return _UNIT.sub(lambda m: unit_name(m.group(0)) if counterart.lookup(m.group(0)) is not None else m.group(0), text)


def kinds_text(kinds) -> str:
    return ", ".join(KIND_NAMES.get(k, k.replace("_", " ")) for k in kinds)
