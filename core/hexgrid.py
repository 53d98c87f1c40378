"""The global hex grid of the six DFD maps (2.2, 2.2.1, 2.2.2).

Hex numbers are ``MRRCC``: map letter, row ``RR`` and column ``CC`` (2.2.2:
"all hex references are preceded by the map identifying letter", e.g. Tobruk
is in hex C2331).  Rows are global and increase northward; columns restart on
each map, and the global column of a hex is ``g = offset[map] + CC``.  Hexes are
pointy-topped in horizontal rows with even rows shifted east ("even-r"); see
``resources/maps/layout.toml`` and ``docs/rulings.md``.

A :class:`Hex` is one hex of the game whatever the number of map labels it has
(where maps overlap, 2.2.1).  A :class:`Hexside` is shared by two hexes and has
one identity.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Iterator

from core.resources import resource

#: Direction names, in order, for a pointy-topped grid with rows increasing northward.
DIRECTIONS: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

# Axial (q, r) steps for the six directions.  r is the row (northward), q the
# axial column; see Hex.axial.
_AXIAL_STEPS: dict[str, tuple[int, int]] = {
    "E": (1, 0),
    "NE": (0, 1),
    "NW": (-1, 1),
    "W": (-1, 0),
    "SW": (0, -1),
    "SE": (1, -1),
}

_LABEL_RE = re.compile(r"^\s*([ATLSCW])\s*(\d{2})(\d{2})\s*$", re.IGNORECASE)


class HexLabelError(ValueError):
    """A hex label that is malformed or names no hex of the game (2.2.2)."""


@dataclass(frozen=True)
class MapSheet:
    """One of the six hex maps (2.2)."""

    letter: str
    name: str
    offset: int
    rows: tuple[int, int]
    cols: tuple[int, int]
    top: int
    source: str

    def contains(self, h: "Hex") -> bool:
        """True when hex ``h`` is printed on this map."""
        cc = h.g - self.offset
        return self.rows[0] <= h.row <= self.rows[1] and self.cols[0] <= cc <= self.cols[1]

    def hexes(self) -> Iterator["Hex"]:
        """Every hex printed on this map, row by row from the south."""
        for row in range(self.rows[0], self.rows[1] + 1):
            for cc in range(self.cols[0], self.cols[1] + 1):
                yield Hex(row, self.offset + cc)


@cache
def maps() -> dict[str, MapSheet]:
    """The six maps, from ``resources/maps/layout.toml``, keyed by letter."""
    with resource("maps", "layout.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return {
        letter: MapSheet(
            letter=letter,
            name=m["name"],
            offset=int(m["offset"]),
            rows=(int(m["rows"][0]), int(m["rows"][1])),
            cols=(int(m["cols"][0]), int(m["cols"][1])),
            top=int(m["top"]),
            source=m.get("source", "reconstructed"),
        )
        for letter, m in data["maps"].items()
    }


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex of the global grid: ``row`` (global, northward) and global column ``g``."""

    row: int
    g: int

    def __hash__(self) -> int:  # hot: hexes key every map dict; cheaper than hashing a tuple
        return (self.row << 12) ^ (self.g & 0xFFF)

    # -- coordinates ---------------------------------------------------------
    @property
    def axial(self) -> tuple[int, int]:
        """Axial coordinates (q, r) for the even-r offset layout."""
        return self.g - (self.row + (self.row & 1)) // 2, self.row

    @classmethod
    def from_axial(cls, q: int, r: int) -> "Hex":
        return cls(r, q + (r + (r & 1)) // 2)

    @property
    def cube(self) -> tuple[int, int, int]:
        q, r = self.axial
        return q, r, -q - r

    # -- labels --------------------------------------------------------------
    @classmethod
    def parse(cls, label: str) -> "Hex":
        """Parse ``C2331`` (case and surrounding blanks ignored).  Raises HexLabelError."""
        if isinstance(label, str):
            return _parse_cached(label)
        raise HexLabelError(f"{label!r} is not a hex number of the form MRRCC, e.g. C2331 (2.2.2)")

    @classmethod
    def _parse(cls, label: str) -> "Hex":
        m = _LABEL_RE.match(label)
        if not m:
            raise HexLabelError(f"{label!r} is not a hex number of the form MRRCC, e.g. C2331 (2.2.2)")
        letter, rr, cc = m.group(1).upper(), int(m.group(2)), int(m.group(3))
        sheet = maps()[letter]
        h = cls(rr, sheet.offset + cc)
        if not sheet.contains(h):
            raise HexLabelError(f"{label.strip().upper()} is not a hex of map {letter} ({sheet.name}) (2.2.2)")
        return h

    def label_on(self, letter: str) -> str:
        """This hex's number as printed on map ``letter`` (whether or not it is on it)."""
        return f"{letter}{self.row:02d}{self.g - maps()[letter].offset:02d}"

    @property
    def sheets(self) -> tuple[str, ...]:
        """Letters of the maps this hex is printed on, top map first (2.2.1)."""
        return _sheets_of(self.row, self.g)

    @property
    def on_grid(self) -> bool:
        return bool(self.sheets)

    @property
    def labels(self) -> tuple[str, ...]:
        """Every printed label of this hex, top map first."""
        return tuple(self.label_on(m) for m in self.sheets)

    @property
    def label(self) -> str:
        """The primary label: the one printed on the map lying on top (2.2.1)."""
        return _label_of(self.row, self.g)

    def __str__(self) -> str:
        try:
            return self.label
        except HexLabelError:
            return f"<off-grid r{self.row} g{self.g}>"

    # -- adjacency -----------------------------------------------------------
    def neighbour(self, direction: str) -> "Hex":
        dq, dr = _AXIAL_STEPS[direction]
        q, r = self.axial
        return Hex.from_axial(q + dq, r + dr)

    def neighbours(self, on_grid_only: bool = True) -> list["Hex"]:
        """The (up to) six adjacent hexes, in DIRECTIONS order."""
        out = [self.neighbour(d) for d in DIRECTIONS]
        return [h for h in out if h.on_grid] if on_grid_only else out

    def direction_to(self, other: "Hex") -> str:
        for d in DIRECTIONS:
            if self.neighbour(d) == other:
                return d
        raise ValueError(f"{self} and {other} are not adjacent")

    def distance(self, other: "Hex") -> int:
        """Hex distance (number of hexes moved, 3.1: "within three hexes")."""
        a, b = self.cube, other.cube
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))

    def ring(self, radius: int) -> list["Hex"]:
        """Hexes exactly ``radius`` away (on or off the grid)."""
        if radius == 0:
            return [self]
        q, r = self.axial
        dq, dr = _AXIAL_STEPS["SW"]
        q, r = q + dq * radius, r + dr * radius
        out = []
        for d in ("E", "NE", "NW", "W", "SW", "SE"):
            sq, sr = _AXIAL_STEPS[d]
            for _ in range(radius):
                out.append(Hex.from_axial(q, r))
                q, r = q + sq, r + sr
        return out

    def within(self, radius: int, on_grid_only: bool = True) -> list["Hex"]:
        """Every hex at distance 0..radius (3.1: "within three hexes" includes the hex itself)."""
        out = [h for k in range(radius + 1) for h in self.ring(k)]
        return [h for h in out if h.on_grid] if on_grid_only else out

    def line_to(self, other: "Hex") -> list["Hex"]:
        """The hexes on a straight line from here to ``other`` (cube lerp with a nudge)."""
        n = self.distance(other)
        if n == 0:
            return [self]
        a, b = self.cube, other.cube
        eps = (1e-6, 2e-6, -3e-6)
        out = []
        for i in range(n + 1):
            t = i / n
            fx, fy, fz = (a[k] + (b[k] - a[k]) * t + eps[k] for k in range(3))
            rx, ry, rz = round(fx), round(fy), round(fz)
            dx, dy, dz = abs(rx - fx), abs(ry - fy), abs(rz - fz)
            if dx > dy and dx > dz:
                rx = -ry - rz
            elif dy > dz:
                ry = -rx - rz
            out.append(Hex.from_axial(rx, ry))
        return out

    def side(self, direction: str) -> "Hexside":
        return Hexside.between(self, self.neighbour(direction))


@dataclass(frozen=True, order=True)
class Hexside:
    """The side shared by two adjacent hexes; one identity whichever hex names it."""

    a: Hex
    b: Hex

    @classmethod
    def between(cls, h1: Hex, h2: Hex) -> "Hexside":
        if h1.distance(h2) != 1:
            raise ValueError(f"{h1} and {h2} are not adjacent; they share no hexside")
        lo, hi = sorted((h1, h2))
        return cls(lo, hi)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return self.a, self.b

    @property
    def label(self) -> str:
        """``C0503/C0504``-style name (primary labels, lower hex first)."""
        return f"{self.a}/{self.b}"

    @classmethod
    def parse(cls, text: str) -> "Hexside":
        """Parse ``C0503/C0504`` or ``C0503-C0504`` or ``C0503:NE``."""
        if ":" in text:
            h, d = text.split(":", 1)
            return Hex.parse(h).side(d.strip().upper())
        parts = re.split(r"[/\-]", text)
        if len(parts) != 2:
            raise HexLabelError(f"{text!r} is not a hexside (write C0503/C0504 or C0503:NE)")
        return cls.between(Hex.parse(parts[0]), Hex.parse(parts[1]))

    def __str__(self) -> str:
        return self.label


@lru_cache(maxsize=None)
def _sheets_of(row: int, g: int) -> tuple[str, ...]:
    h = Hex(row, g)
    found = [m for m in maps().values() if m.contains(h)]
    found.sort(key=lambda m: -m.top)
    return tuple(m.letter for m in found)


@lru_cache(maxsize=None)
def _label_of(row: int, g: int) -> str:
    sheets = _sheets_of(row, g)
    if not sheets:
        raise HexLabelError(f"hex at row {row}, global column {g} is on no map")
    return Hex(row, g).label_on(sheets[0])


@lru_cache(maxsize=16384)
def _parse_cached(label: str) -> Hex:
    return Hex._parse(label)


def all_hexes() -> list[Hex]:
    """Every hex of the game, once each, sorted."""
    return sorted({h for m in maps().values() for h in m.hexes()})


def parse(label: str) -> Hex:
    """Shorthand for :meth:`Hex.parse`."""
    return Hex.parse(label)
