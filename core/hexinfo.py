"""Everything about one hex, as text, for ``dfd hex LABEL`` (issue 3).

:func:`describe` lists the hex's labels on every map it is printed on (2.2.1,
2.2.2), its name, in-hex terrain (2.2.3), hexside terrain and routes by direction,
features (town, port boxes 20.1, airfield 19.1.3, printed fort, French North
Africa 2.2.4, winter area 21.1, Ghibli 21.2, Oasis Track connection 16.2.1, NRV
connection 22.1, coast-road mile marker 13.2.4) and its neighbours.
"""

from __future__ import annotations

from core import mapdata
from core.hexgrid import DIRECTIONS, Hex, maps


def describe(label: str) -> str:
    """A multi-line description of the hex ``label`` (any of its labels, e.g. ``S0734`` or ``C0701``).

    Raises :class:`core.hexgrid.HexLabelError` for a label that names no hex.
    """
    h = Hex.parse(label)
    md = mapdata.load()
    rec = md.hex_record(h)
    sheets = maps()
    lines = [f"{h.label}" + (f"  {rec['name']}" if rec.get("name") else "")]
    lines.append("  labels:    " + ", ".join(f"{lab} (Map {lab[0]}, {sheets[lab[0]].name})" for lab in h.labels))
    terr = rec["terrain"].replace("_", " ")
    lines.append(f"  terrain:   {terr}" + (" with a town" if rec.get("town") else ""))
    lines.append(f"  position:  about {rec['lat']:.2f}N {rec['lon']:.2f}E (row {h.row}, global column {h.g})")
    feats = []
    p = md.port(h)
    if p:
        feats.append(f"port: {p.standard} standard and {p.limited} limited port boxes (20.1)")
    if rec.get("airfield"):
        feats.append("airfield" + (" (Cyrenaica naval airfield N, 19.1.3)" if rec["airfield"] == "N" else " (19.1.3)"))
    if rec.get("fort"):
        feats.append(f"printed fortification, level {rec['fort']} (14.4)")
    if md.is_obstructed(h):
        feats.append("obstructed hex (2.2.4)")
    if md.in_fna(h):
        feats.append("French North Africa (2.2.4)")
    if md.winter_area(h):
        feats.append("winter area (21.1)")
    if md.ghibli_affected(h):
        feats.append("Ghibli-affected (21.2)")
    if rec.get("temperate"):
        feats.append("north of the temperate/desert line (6.3b)")
    if rec.get("oasis_connection"):
        feats.append("desert track connection to the Oasis Track: " + ", ".join(rec["oasis_connection"]) + " (16.2.1)")
    if rec.get("oasis_box"):
        feats.append(f"counts as the {rec['oasis_box'].title()} oasis box for the Oasis Track (16.2.1)")
    if rec.get("nrv"):
        feats.append(f"NRV connection by {rec['nrv']['by']}: {rec['nrv']['note']}")
    if rec.get("mile_marker"):
        feats.append(f"coast-road mile marker, {rec['mile_marker']} road hexes from Tripoli (13.2.4)")
    for r in md.routes():
        if h in r["chain"] and r.get("construct"):
            feats.append(f"on the {r['name']}, which may be built up to a primary road (18.3)")
    if any(k.startswith("rail") for k in md.routes_at(h)):
        kinds = sorted(k for k in md.routes_at(h) if k.startswith("rail"))
        feats.append("railway: " + ", ".join(kinds) + " (13.7, 18.2)")
    lines.append("  features:  " + ("; ".join(feats) if feats else "none"))
    lines.append("  hexsides and neighbours:")
    for d in DIRECTIONS:
        n = h.neighbour(d)
        if not n.on_grid:
            lines.append(f"    {d:<2} (map edge)")
            continue
        side = md.hexside(h, n)
        routes = sorted(md.routes_between(h, n))
        bits = [f"{n.label:<6} {md.terrain(n).replace('_', ' ')}"]
        if md.name(n):
            bits.append(md.name(n))
        if side:
            bits.append(f"hexside: {side}")
        if routes:
            bits.append("along: " + ", ".join(routes))
        lines.append(f"    {d:<2} " + " | ".join(bits))
    return "\n".join(lines)
