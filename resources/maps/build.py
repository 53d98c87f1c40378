"""Generate ``resources/maps/map.json`` from real geography (issue 3).

Run from the project root::

    .venv/bin/python -m resources.maps.build            # rewrite map.json
    .venv/bin/python -m resources.maps.build --check    # exit 1 if map.json is stale

Steps (all deterministic: no randomness, sorted output, fixed float formatting):

1. Fit the (x, y) -> (lat, lon) transform of each frame of maps printed edge to
   edge (L, S, C, W; and T, A) as a smoothing thin-plate spline (an affine
   least-squares fit plus the least bending) through the rules' named hexes
   (``geography.PLACES`` with a hex).  The T/A frame is tied to the eastern one
   through the hexes Map T shares with Map L (2.2.1) and held to the nominal hex
   size (10 miles across the flats, 2.2) far from its two named hexes.
2. Give every hex its centre latitude/longitude by the transform of the map on top.
3. Land or sea from the ``global_land_mask`` package (1 km GLOBE mask, offline): a
   hex is land when at least 4 of 7 sample points (centre and six points half-way
   to the corners) are land.
4. Paint terrain regions, hexside lines (escarpment, wadi, ridge) and routes (roads,
   tracks, railways) with shapely, then the named places (city, town, oasis, port
   boxes, airfields, forts) - named hexes are authoritative: a port is forced to be
   land with a sea neighbour.
5. Apply ``overrides.toml`` (hand edits, each with source and reason), validate,
   and write ``map.json`` (one hex per line).

Build-time dependencies: numpy, shapely, global-land-mask (the ``build`` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from pathlib import Path

import numpy as np
import shapely
from global_land_mask import globe

from core.hexgrid import Hex, Hexside, all_hexes, maps
from resources.maps import geography as geo

HERE = Path(__file__).resolve().parent
OUT = HERE / "map.json"
OVERRIDES = HERE / "overrides.toml"

ROW_KM = 16.0 * math.sqrt(3) / 2  # distance between hex rows, km (hexes are 16 km across the flats, 2.2)
KM_PER_DEG_LAT = 111.2
HEXSIDE_PRIORITY = ("impassable", "escarpment", "ridge", "wadi")
IN_HEX_TERRAIN = ("clear", "desert", "rough", "mountain", "sand_sea", "marsh", "city", "oasis", "sea")


def xy(h: Hex) -> tuple[float, float]:
    """Continuous grid position of a hex centre: x in hex widths (even rows shifted east), y in rows."""
    return h.g + (0.5 if h.row % 2 == 0 else 0.0), float(h.row)


# ----------------------------------------------------------------------------- fitting
Y_ISO = math.sqrt(3) / 2  # rows are sqrt(3)/2 hex widths apart
TPS_SMOOTHING = {"anchor": 0.05, "tie": 2.0}  # thin-plate-spline regularisation per kind of control point


def _affine(t: dict, x: float, y: float) -> tuple[float, float]:
    a, b = t["lat"], t["lon"]
    return a[0] + a[1] * x + a[2] * y, b[0] + b[1] * x + b[2] * y


def _u(r2: float) -> float:
    return 0.5 * r2 * math.log(r2) if r2 > 0 else 0.0


def _apply(t: dict, x: float, y: float) -> tuple[float, float]:
    """Thin-plate-spline position of grid point (x, y): affine part plus bending through the control points."""
    lat, lon = _affine(t, x, y)
    yi = y * Y_ISO
    for (cx, cy), (wlat, wlon) in zip(t["ctrl"], t["w"]):
        u = _u((x - cx) ** 2 + (yi - cy * Y_ISO) ** 2)
        lat += wlat * u
        lon += wlon * u
    return lat, lon


def _tps(points: list[tuple[float, float, float, float, float]]) -> dict:
    """Fit a smoothing thin-plate spline (x, y) -> (lat, lon); points are (x, y, lat, lon, smoothing)."""
    uniq: dict[tuple[float, float], tuple[float, float, float]] = {}
    for x, y, lat, lon, lam in points:
        uniq.setdefault((x, y), (lat, lon, lam))
    ctrl = sorted(uniq)
    n = len(ctrl)
    big = np.zeros((n + 3, n + 3))
    rhs = np.zeros((n + 3, 2))
    for i, (xa, ya) in enumerate(ctrl):
        for j, (xb, yb) in enumerate(ctrl):
            big[i, j] = _u((xa - xb) ** 2 + ((ya - yb) * Y_ISO) ** 2)
        big[i, i] += uniq[(xa, ya)][2]
        big[i, n:] = (1.0, xa, ya)
        big[n:, i] = (1.0, xa, ya)
        rhs[i] = uniq[(xa, ya)][:2]
    sol = np.linalg.solve(big, rhs)
    return {"ctrl": [list(c) for c in ctrl], "w": [[float(v) for v in r] for r in sol[:n]],
            "lat": [float(v) for v in sol[n:, 0]], "lon": [float(v) for v in sol[n:, 1]]}


#: The grid is one printed surface (2.2.1: maps are lined up on the hex grid), so one
#: transform serves the maps that join edge to edge.  Maps T and A lie far to the
#: north-west with only Tunis and Algiers named in the rules; they get their own
#: frame, tied to the eastern frame through the hexes Map T shares with Map L.
FRAMES: dict[str, tuple[str, ...]] = {"east": ("L", "S", "C", "W"), "west": ("T", "A")}
FRAME_OF = {m: f for f, ms in FRAMES.items() for m in ms}


def fit_transforms() -> tuple[dict[str, dict], dict[str, list]]:
    """Fit each frame's transform; returns transforms by map letter and per-anchor affine residuals (km)."""
    sheets = maps()
    anchors: dict[str, list] = {f: [] for f in FRAMES}
    seen = set()
    for p in geo.PLACES:
        if p["hex"]:
            h = Hex.parse(p["hex"])
            f = FRAME_OF[h.sheets[0]]
            if (f, h) not in seen:
                seen.add((f, h))
                anchors[f].append((p["name"], h, p["lat"], p["lon"]))
    frames: dict[str, dict] = {}
    residuals: dict[str, list] = {}
    for f, letters in FRAMES.items():
        pts = [(*xy(h), lat, lon, TPS_SMOOTHING["anchor"]) for _, h, lat, lon in anchors[f]]
        for other, t in frames.items():  # tie to an already fitted frame through shared hexes
            mine = {h for m in letters for h in sheets[m].hexes()}
            theirs = {h for m in FRAMES[other] for h in sheets[m].hexes()}
            for h in sorted(mine & theirs)[::3]:
                lat, lon = _apply(t, *xy(h))
                pts.append((*xy(h), lat, lon, TPS_SMOOTHING["tie"]))
        if f == "west":  # only two named hexes: add the nominal scale as a far control point (2.2: 16 km hexes)
            h0 = anchors[f][0][1]
            x0, y0 = xy(h0)
            lat0, lon0 = anchors[f][0][2], anchors[f][0][3]
            kx = 16.0 / (KM_PER_DEG_LAT * math.cos(math.radians(lat0)))
            for dx, dy in ((0, -40), (-20, -40)):
                pts.append((x0 + dx, y0 + dy, lat0 + dy * ROW_KM / KM_PER_DEG_LAT, lon0 + dx * kx, 5.0))
        t = _tps(pts)
        res = []
        for name, h, lat, lon in anchors[f]:
            flat, flon = _apply(t, *xy(h))
            dkm = math.hypot((flat - lat) * KM_PER_DEG_LAT, (flon - lon) * KM_PER_DEG_LAT * math.cos(math.radians(lat)))
            res.append((name, h.label, round(dkm, 1)))
        residuals[f] = res
        frames[f] = t
    return {m: frames[FRAME_OF[m]] for m in sheets} | {f"frame:{f}": t for f, t in frames.items()}, residuals


# ----------------------------------------------------------------------------- helpers
class Grid:
    """Every hex with its centre lat/lon, plus a nearest-hex lookup."""

    def __init__(self, transforms: dict[str, dict]):
        self.transforms = transforms
        self.hexes = all_hexes()
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.top = [h.sheets[0] for h in self.hexes]
        ll = [_apply(transforms[m], *xy(h)) for h, m in zip(self.hexes, self.top)]
        self.lat = np.array([p[0] for p in ll])
        self.lon = np.array([p[1] for p in ll])

    def latlon(self, h: Hex) -> tuple[float, float]:
        i = self.index[h]
        return float(self.lat[i]), float(self.lon[i])

    def at(self, h: Hex, dx: float, dy: float) -> tuple[float, float]:
        x, y = xy(h)
        return _apply(self.transforms[h.sheets[0]], x + dx, y + dy)

    def nearest(self, lat: float, lon: float, max_km: float = 20.0) -> Hex:
        d = np.hypot((self.lat - lat), (self.lon - lon) * math.cos(math.radians(lat)))
        i = int(np.argmin(d))
        if d[i] * KM_PER_DEG_LAT > max_km:
            raise ValueError(f"({lat}, {lon}) is {d[i] * KM_PER_DEG_LAT:.0f} km from the nearest hex: off the maps")
        return self.hexes[i]


def _poly(coords):
    return shapely.Polygon([(lon, lat) for lat, lon in coords])


def _line(coords):
    return shapely.LineString([(lon, lat) for lat, lon in coords])


def hex_chain(grid: Grid, points: list) -> list[Hex]:
    """Waypoints (hex labels or (lat, lon)) joined by straight hex lines."""
    way = [Hex.parse(p) if isinstance(p, str) else grid.nearest(*p) for p in points]
    chain: list[Hex] = []
    for a, b in zip(way, way[1:]):
        seg = a.line_to(b)
        for h in seg:
            if not chain or chain[-1] != h:
                chain.append(h)
    if len(way) == 1:
        chain = way
    for a, b in zip(chain, chain[1:]):
        assert a.distance(b) == 1, (a, b)
        assert a.on_grid and b.on_grid, (a, b)
    return chain


# ----------------------------------------------------------------------------- build
def build() -> dict:
    transforms, residuals = fit_transforms()
    grid = Grid(transforms)
    hexes = grid.hexes
    n = len(hexes)
    report: list[str] = []

    # 3. land mask
    offs = [(0.0, 0.0)] + [(0.45 * math.cos(math.radians(30 + 60 * k)), 0.45 * math.sin(math.radians(30 + 60 * k)))
                           for k in range(6)]
    land_votes = np.zeros(n)
    for dx, dy in offs:
        pts = np.array([grid.at(h, dx, dy) for h in hexes])
        land_votes += globe.is_land(pts[:, 0], np.clip(pts[:, 1], -180, 180)).astype(float)
    land_frac = land_votes / len(offs)
    land = land_frac >= 4 / 7 - 1e-9

    # 4a. terrain regions
    terrain = np.where(land, "desert", "sea").astype(object)
    for kind, _name, coords in geo.REGIONS:
        inside = shapely.contains_xy(_poly(coords), grid.lon, grid.lat)
        terrain[inside & land] = kind
    area_flags: dict[str, np.ndarray] = {}
    for flag, _name, coords in geo.AREAS:
        area_flags[flag] = shapely.contains_xy(_poly(coords), grid.lon, grid.lat)

    recs: dict[Hex, dict] = {}
    for i, h in enumerate(hexes):
        recs[h] = {"row": h.row, "g": h.g, "lat": round(float(grid.lat[i]), 3), "lon": round(float(grid.lon[i]), 3),
                   "land": round(float(land_frac[i]), 2), "terrain": str(terrain[i])}

    # 4b. routes
    routes = []
    for r in geo.ROUTES:
        chain = hex_chain(grid, r["points"])
        for h in chain:
            if recs[h]["terrain"] == "sea":
                recs[h]["terrain"] = "desert"
                report.append(f"route {r['id']}: {h} was sea, made land")
        routes.append({k: v for k, v in r.items() if k != "points"} | {"hexes": [h.label for h in chain]})

    # 4c. named places (rules places first: they win a shared hex)
    protected: set[Hex] = set()
    placed: dict[str, Hex] = {}
    for p in sorted(geo.PLACES, key=lambda p: (p["source"] != "rules", p["name"])):
        try:
            h = Hex.parse(p["hex"]) if p["hex"] else grid.nearest(p["lat"], p["lon"])
        except ValueError as exc:
            report.append(f"place {p['name']} not placed: {exc}")
            continue
        placed[p["name"]] = h
        rec = recs[h]
        protected.add(h)
        if "name" in rec:
            report.append(f"place {p['name']} shares {h} with {rec['name']}")
            if p.get("airfield") and "airfield" not in rec:
                rec["airfield"] = p["airfield"]
            continue
        rec["name"] = p["name"]
        rec["source"] = p["source"]
        if rec["terrain"] == "sea":
            rec["terrain"] = "desert"
            report.append(f"place {p['name']} {h} was sea, made land")
        if p["kind"] == "city":
            rec["terrain"] = "city"
        elif p["kind"] == "oasis":
            rec["terrain"] = "oasis"
        elif p["kind"] == "town":
            rec["town"] = True
        if p.get("port"):
            rec["port"] = list(p["port"])
        if p.get("airfield"):
            rec["airfield"] = p["airfield"]
        if p.get("fort"):
            rec["fort"] = p["fort"]
        # per-field provenance: the rules name the place, but no hex port capacity or printed fort is in the
        # text (only 22.1 NRV 8 and 22.7 Casablanca/Oran 3), so those fields are reconstructed unless the place
        # says otherwise (issue 17)
        fields = {f: p.get("fields_source", {}).get(f, "reconstructed") for f in ("port", "fort") if p.get(f)}
        if fields and p["source"] == "rules":
            rec["field_source"] = fields
    for p in geo.PLACES:  # ports need a sea neighbour (20.1)
        if not p.get("port") or p["name"] not in placed:
            continue
        h = placed[p["name"]]
        nbrs = h.neighbours()
        if not any(recs[nb]["terrain"] == "sea" for nb in nbrs):
            cands = [nb for nb in nbrs if nb not in protected and not _on_route(nb, routes)]
            if cands:
                best = min(cands, key=lambda nb: (recs[nb]["land"], nb))
                recs[best]["terrain"] = "sea"
                report.append(f"port {p['name']} {h}: {best} made sea")

    # 4d. hexside lines
    sides: dict[Hexside, dict] = {}
    side_list: list[Hexside] = []
    segs = []
    for h in hexes:
        for d in ("E", "NE", "NW"):
            nb = h.neighbour(d)
            if nb.on_grid:
                side_list.append(Hexside.between(h, nb))
                (la, lo), (lb, lob) = grid.latlon(h), grid.latlon(nb)
                segs.append(shapely.LineString([(lo, la), (lob, lb)]))
    lines = [_line(c) for _, _, c in geo.HEXSIDE_LINES]
    tree = shapely.STRtree(np.array(segs, dtype=object))
    hits = tree.query(np.array(lines, dtype=object), predicate="intersects")
    for li, si in sorted(zip(hits[0].tolist(), hits[1].tolist())):
        kind, name, _ = geo.HEXSIDE_LINES[li]
        s = side_list[si]
        if recs[s.a]["terrain"] == "sea" or recs[s.b]["terrain"] == "sea":
            continue
        old = sides.get(s)
        if old is None or HEXSIDE_PRIORITY.index(kind) < HEXSIDE_PRIORITY.index(old["terrain"]):
            sides[s] = {"terrain": kind, "name": name, "source": "reconstructed"}

    # flags
    sheet_letters = {h: h.sheets for h in hexes}
    for i, h in enumerate(hexes):
        rec = recs[h]
        if rec["terrain"] == "sea":
            continue
        on = sheet_letters[h]
        if area_flags["fna"][i] and any(m in on for m in "ATL"):
            rec["fna"] = True
        if "A" in on or ("T" in on and area_flags["winter"][i]) or ("C" in on and rec["terrain"] == "mountain"):
            rec["winter"] = True
        if "T" in on and area_flags["temperate"][i]:
            rec["temperate"] = True
    for lab, boxes in geo.OASIS_CONNECTIONS.items():
        recs[Hex.parse(lab)]["oasis_connection"] = list(boxes)
    for lab, box in geo.OASIS_BOX_HEXES.items():
        recs[Hex.parse(lab)]["oasis_box"] = box
    for lab, c in geo.NRV_CONNECTIONS.items():
        recs[Hex.parse(lab)]["nrv"] = dict(c)

    # 5. overrides
    apply_overrides(recs, sides, routes, report)
    # mile markers every 7 hexes along the coast road from Tripoli (13.2.4)
    for chain in coast_road_chains(routes):
        for k, lab in enumerate(chain):
            if k and k % 7 == 0:
                recs[Hex.parse(lab)]["mile_marker"] = k
    # a port's sea neighbour again (overrides may have changed things) - validation only
    data = {
        "format": "dfd-map/1",
        "about": "Generated by resources/maps/build.py from resources/maps/geography.py and overrides.toml. "
                 "Do not edit: correct a hex in overrides.toml and re-run the generator (docs/data.d/maps.md).",
        "hex_key": "primary label (the label on the map lying on top, 2.2.1)",
        "transforms": {f: {"maps": "".join(ms), "affine_lat": [round(v, 6) for v in transforms["frame:" + f]["lat"]],
                           "affine_lon": [round(v, 6) for v in transforms["frame:" + f]["lon"]],
                           "control_points": len(transforms["frame:" + f]["ctrl"])} for f, ms in FRAMES.items()},
        "transform_note": "lat/lon = smoothing thin-plate spline through the named hexes of the rules; "
                          "x = global column (+0.5 on even rows), y = row; "
                          "one frame per group of maps printed edge to edge",
        "fit_residual_km": {m: residuals[m] for m in sorted(residuals)},
        "hexes": {h.label: recs[h] for h in hexes},
        "hexsides": {s.label: sides[s] for s in sorted(sides)},
        "routes": routes,
    }
    validate(data)
    data["build_report"] = report
    return data


def _on_route(h: Hex, routes: list[dict]) -> bool:
    lab = h.label
    return any(lab in r["hexes"] for r in routes)


COAST_ROAD_EAST = ("via_balbia_west", "via_balbia_sirte", "via_balbia_cyrenaica", "via_balbia_marmarica",
                   "sollum_sidi_barrani", "egypt_coast_road")


def coast_road_chains(routes: list[dict]) -> list[list[str]]:
    """The coast road from Tripoli east to the NRV edge and from Tripoli west to Tunis (13.2.4)."""
    by_id = {r["id"]: r for r in routes}
    east: list[str] = []
    for rid in COAST_ROAD_EAST:
        for lab in by_id[rid]["hexes"]:
            if not east or east[-1] != lab:
                east.append(lab)
    west = list(reversed(by_id["coast_road_tunisia"]["hexes"]))
    return [east, west]


def apply_overrides(recs: dict, sides: dict, routes: list[dict], report: list[str]) -> None:
    """Apply ``overrides.toml`` (see docs/data.d/maps.md)."""
    if not OVERRIDES.exists():
        return
    with OVERRIDES.open("rb") as fh:
        ov = tomllib.load(fh)
    for lab, fields in sorted(ov.get("hex", {}).items()):
        h = Hex.parse(lab)
        rec = recs[h]
        for k, v in sorted(fields.items()):
            if k == "reason":
                continue
            if v is False or v == "" or (k in ("fort",) and v == 0):
                rec.pop(k, None)
            else:
                rec[k] = v
    for lab, fields in sorted(ov.get("hexside", {}).items()):
        s = Hexside.parse(lab)
        if fields.get("terrain", "none") == "none":
            sides.pop(s, None)
        else:
            sides[s] = {"terrain": fields["terrain"], "name": fields.get("name", ""),
                        "source": fields.get("source", "override")}
    for rid, fields in sorted(ov.get("route", {}).items()):
        routes[:] = [r for r in routes if r["id"] != rid]
        if fields.get("remove"):
            continue
        chain = [Hex.parse(p) for p in fields["hexes"]]
        for a, b in zip(chain, chain[1:]):
            if a.distance(b) != 1:
                raise ValueError(f"overrides.toml route {rid}: {a} and {b} are not adjacent")
        routes.append({"id": rid, "kind": fields["kind"], "name": fields.get("name", rid),
                       "source": fields.get("source", "override"), "reason": fields.get("reason", ""),
                       "hexes": [h.label for h in chain]})
    routes.sort(key=lambda r: r["id"])


def validate(data: dict) -> None:
    """Structural checks; raises ValueError on the first problem."""
    hexes = data["hexes"]
    for lab, rec in hexes.items():
        if rec["terrain"] not in IN_HEX_TERRAIN:
            raise ValueError(f"{lab}: unknown terrain {rec['terrain']!r}")
        if rec.get("port") and not any(hexes[nb.label]["terrain"] == "sea" for nb in Hex.parse(lab).neighbours()):
            raise ValueError(f"{lab} ({rec.get('name')}): a port needs a sea neighbour (20.1)")
    for r in data["routes"]:
        for a in r["hexes"]:
            if hexes[a]["terrain"] == "sea":
                raise ValueError(f"route {r['id']} runs through the sea at {a}")
    for lab, s in data["hexsides"].items():
        if s["terrain"] not in HEXSIDE_PRIORITY:
            raise ValueError(f"hexside {lab}: unknown terrain {s['terrain']!r}")


def _fmt(v) -> str:
    return json.dumps(v, sort_keys=True, separators=(", ", ": "), ensure_ascii=False)


def render(data: dict) -> str:
    """Deterministic text: top-level keys in a fixed order, one hex / hexside / route per line."""
    out = ["{"]
    keys = ["format", "about", "hex_key", "transform_note", "transforms", "fit_residual_km", "build_report", "routes", "hexsides",
            "hexes"]
    for i, k in enumerate(keys):
        v = data[k]
        comma = "," if i < len(keys) - 1 else ""
        if k in ("hexes", "hexsides", "transforms", "fit_residual_km"):
            out.append(f'  "{k}": {{')
            items = list(v.items())
            for j, (kk, vv) in enumerate(items):
                out.append(f"    {_fmt(kk)}: {_fmt(vv)}" + ("," if j < len(items) - 1 else ""))
            out.append("  }" + comma)
        elif k in ("routes", "build_report"):
            out.append(f'  "{k}": [')
            for j, vv in enumerate(v):
                out.append(f"    {_fmt(vv)}" + ("," if j < len(v) - 1 else ""))
            out.append("  ]" + comma)
        else:
            out.append(f'  "{k}": {_fmt(v)}{comma}')
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if map.json differs from a fresh build")
    ap.add_argument("--report", action="store_true", help="print the fit residuals and the build report")
    args = ap.parse_args(argv)
    text = render(build())
    if args.report:
        d = json.loads(text)
        for m, res in d["fit_residual_km"].items():
            print(m, res)
        for line in d["build_report"]:
            print(" ", line)
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("map.json is up to date" if same else "map.json is STALE: re-run python -m resources.maps.build")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
