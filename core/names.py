"""Names a player reads, for every front end (no Qt): counter names and place names instead of the engine's
internal ids (issues 19, 21).

The engine's prompts, option labels and refusals may name units by id (``GE-FFAfrika``, ``AX-Dump#3``) and
holding boxes by key (``box:AirNA:Axis``).  :func:`humanize` rewrites a text for a player: each unit id becomes its
counter's name (``FF Afrika``; a numbered supply counter keeps its number, ``Dump #3``) and each box key the
box's title.  :func:`place` names a hex by the map's place name (``Tobruk``) or, off a named hex, its number
(``C2315``, "C2315 near Tobruk" within 3 hexes).  :func:`plan_text` is a plan sentence of the computer opponent
as shown in the app, over the LAN and by ``dfd autoplay``: humanized, named hexes by their names, one side prefix
and one final stop.

The holding boxes' titles (:data:`GROUPS`) are the off-map display's (``app.offmap`` draws them, with their tints):
one definition for the display and the texts.  The engine's own texts are unchanged (logs, replays and tests read
them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.counters import Counter, all_counters
from core.hexgrid import Hex, HexLabelError


def norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


@dataclass
class BoxDef:
    id: str
    title: str
    rule: str = ""
    aliases: tuple[str, ...] = ()
    tint: str = "#fbf6e8"


@dataclass
class Group:
    title: str
    boxes: list[BoxDef]
    columns: int = 4


GROUPS: list[Group] = [
    Group("Ground holding boxes (8.3, 17.0)", [
        BoxDef("box:Refit:Axis", "Axis Refit Box", "8.3; 17.2", tint="#e7eaeb"),
        BoxDef("box:Destroyed:Axis", "Axis Destroyed Box", "8.3", tint="#e7eaeb"),
        BoxDef("box:Upgrade:Axis", "Axis Upgrade Box", "17.3", tint="#e7eaeb"),
        BoxDef("box:Refit:Allied", "Allied Refit Box", "8.3; 17.2", tint="#f5ead0"),
        BoxDef("box:Destroyed:Allied", "Allied Destroyed Box", "8.3", tint="#f5ead0"),
    ], columns=5),
    Group("Allied rear and shipping (20.2, 22.1)", [
        BoxDef("box:NRV", "Nile River Valley", "22.1", ("nilerivervalley",), tint="#f5ead0"),
        BoxDef("box:CapeRoute", "Cape Route Box", "20.2.4", ("caperoutebox", "crb"), tint="#f5ead0"),
        BoxDef("box:Torch", "Torch Box", "20.2.5", tint="#f5ead0"),
        BoxDef("box:TorchEast", "Torch East Box", "20.2.6", tint="#f5ead0"),
        BoxDef("box:MedShipping:Allied", "Allied Mediterranean Shipping", "20.2", ("box:Shipping:Allied",), tint="#f5ead0"),
        BoxDef("box:CoastalShipping:Allied", "Allied Coastal Shipping", "20.3", tint="#f5ead0"),
    ], columns=6),
    Group("Mediterranean (22.3-22.6)", [
        BoxDef("box:Italy", "Italy", "22.5; 7.2", tint="#e7eaeb"),
        BoxDef("box:Sicily", "Sicily", "22.6", tint="#e7eaeb"),
        BoxDef("box:MedShipping:Axis", "Axis Mediterranean Shipping", "20.2", ("box:Shipping:Axis",), tint="#e7eaeb"),
        BoxDef("box:CoastalShipping:Axis", "Axis Coastal Shipping", "20.3", tint="#e7eaeb"),
        BoxDef("box:Crete", "Crete", "22.3"),
        BoxDef("box:Malta", "Malta", "22.4"),
        BoxDef("box:FallBraun", "Fall Braun", "22.5"),
        BoxDef("box:Herkules", "Herkules", "23.2"),
    ], columns=8),
    Group("Air (19.0)", [
        BoxDef("box:Air:Axis", "Axis air — North Africa", "19.1", ("box:NorthAfrica:Axis", "box:AirNA:Axis"), tint="#e7eaeb"),
        BoxDef("box:AirSuperiority:Axis", "Axis Air Superiority", "19.2", tint="#e7eaeb"),
        BoxDef("box:NextTurn:Axis", "Axis Next Turn", "19.1", tint="#e7eaeb"),
        BoxDef("box:Air:Allied", "Allied air — North Africa", "19.1", ("box:NorthAfrica:Allied", "box:AirNA:Allied"), tint="#f5ead0"),
        BoxDef("box:AirSuperiority:Allied", "Allied Air Superiority", "19.2", tint="#f5ead0"),
        BoxDef("box:NextTurn:Allied", "Allied Next Turn", "19.1", tint="#f5ead0"),
        BoxDef("box:CoastalMissions", "Coastal Missions", "19.9"),
    ], columns=7),
    Group("Middle East Tracks (22.2)", [
        BoxDef("track:MET:Greece", "MET Greece", "22.2; ALC-16"),
        BoxDef("track:MET:Levant", "MET Levant", "22.2; ALC-5"),
        BoxDef("track:MET:Syria", "MET Syria", "22.2"),
        BoxDef("track:MET:SWAsia", "MET SW Asia", "22.2", ("track:MET:SouthWestAsia",)),
        BoxDef("track:MET:Pacific", "MET Pacific", "22.2; ALC-19"),
    ], columns=5),
    Group("Oasis Track (16.0, optional)", [
        BoxDef("track:Oasis:Gadamis", "Gadamis Oasis", "16.2", ("box:Gadamis", "box:Oasis:gadamis")),
        BoxDef("track:Oasis:Hon", "Hon", "16.2.1", ("box:Hon", "box:Oasis:hon")),
        BoxDef("track:Oasis:Zella", "Zella", "16.2.1", ("box:Zella", "box:Oasis:zella")),
        BoxDef("track:Oasis:Kufra", "Kufra Oasis", "16.1", ("box:Kufra", "box:Oasis:kufra")),
    ], columns=4),
    Group("French North Africa (22.7)", [
        BoxDef("box:FNA:Casablanca", "Casablanca", "22.7", ("box:Casablanca",)),
        BoxDef("box:FNA:Oran", "Oran", "22.7", ("box:Oran",)),
        BoxDef("box:FNA:Orleansville", "Orleansville", "22.7", ("box:Orleansville",)),
    ], columns=3),
]

SHIPPING_PREFIXES = ("box:PortBoxes:", "box:AtSea:")


def shipping_title(loc: str) -> str:
    """``box:PortBoxes:C2331`` -> ``port boxes of Tobruk (C2331)`` (20.1); ``box:AtSea:Italy`` -> ``at sea: Italy
    lane`` (20.2)."""
    if loc.startswith("box:AtSea:"):
        return f"at sea: {loc.split(':', 2)[2]} lane"
    from core.rules import naval

    return naval.place_name(loc)




def counter(uid: str) -> Counter | None:
    """The counter data of a unit id (generic counters carry ``#n``), None for an id that is not a counter's."""
    return all_counters().get(uid.split("#")[0])


_UNIT = re.compile(r"\b[A-Z]{2,3}-[A-Za-z0-9][A-Za-z0-9#]*")
_BOX = re.compile(r"\b(?:box|track|card):[A-Za-z0-9_#:\-]+[A-Za-z0-9_#]")
#: a hex number (2.2.2) standing alone (not inside "Tobruk (C2331)", which already names it)
_HEX = re.compile(r"(?<![(\w])([ATLSCW]\d{4})\b(?!\))")
_SIDE = re.compile(r"^(Axis|Allied): (?:(?:Axis|Allied): )+")


def unit_name(uid: str) -> str:
    """``GE-5Pz`` -> ``5 Pz``; ``AX-Dump#3`` -> ``Dump #3``; an unknown id is returned as it is."""
    c = counter(uid)
    if c is None or not getattr(c, "name", None):
        return uid
    name = c.name
    if "#" in uid and not any(ch.isdigit() for ch in name):
        name = f"{name} #{uid.rsplit('#', 1)[1]}"
    return name


def box_name(key: str) -> str:
    """``box:AirNA:Axis`` -> the off-map display's title of that box (``Axis air — North Africa``)."""
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
    return _UNIT.sub(lambda m: unit_name(m.group(0)) if counter(m.group(0)) is not None else m.group(0), text)


_NAMED: list[tuple[Hex, str]] | None = None


def _named() -> list[tuple[Hex, str]]:
    global _NAMED
    if _NAMED is None:
        from core import mapdata

        _NAMED = [(h, n) for n, h in mapdata.load().named().items()]
    return _NAMED


def place_of(label: str) -> str | None:
    """The map's name of the hex ``label`` (``C2331`` -> ``Tobruk``), None when it has none (or is no hex)."""
    try:
        h = Hex.parse(label)
    except HexLabelError:
        return None
    return next((n for nh, n in _named() if nh == h), None)


def place(label: str) -> str:
    """A hex as a player reads it: its name, or "C2315 near Tobruk" within 3 hexes of a named one, else its number."""
    try:
        h = Hex.parse(label)
    except HexLabelError:
        return label
    best = None
    for nh, n in _named():
        d = h.distance(nh)
        if d == 0:
            return n
        if d <= 3 and (best is None or d < best[0]):
            best = (d, n)
    return f"{label} near {best[1]}" if best else label


def plan_text(text: str) -> str:
    """A plan sentence as a player reads it: unit and box names (:func:`humanize`), a named hex by its name
    (:func:`place_of`; other hexes keep their numbers), the side said once, and one final stop at most."""
    text = _SIDE.sub(r"\1: ", humanize(text).strip())
    text = _HEX.sub(lambda m: place_of(m.group(1)) or m.group(1), text)
    text = re.sub(r"(?:\.|…)+\.$", lambda m: "…" if "…" in m.group(0) else ".", text)
    return re.sub(r"\.{2,}(?=\s|;|$)", ".", text)
