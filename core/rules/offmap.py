"""22.0 Off-map areas: the NRV (22.1), MET tracks (22.2, see ``met.py``), Crete (22.3), Malta (22.4),
Fall Braun (22.5), Sicily (22.6), French North Africa (22.7); plus the counter bookkeeping every
strategic rule shares (bringing counters into play within the counter mix, 2.4; removing them by a rule).

Box ids are ``box:<Name>`` for shared boxes and ``box:<Name>:<Side>`` for per-side boxes.  Scenario
and card data may spell a box differently; :func:`canon_box` maps the usual spellings onto these ids.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from core.counters import all_counters, resolve
from core.decisions import ALLIED, AXIS
from core.engine import Engine, QUERIES
from core.state import UnitState

NRV = "box:NRV"                    # 22.1
CAPE = "box:CapeRoute"             # 20.2.4
TORCH = "box:Torch"                # 20.2.5
TORCH_EAST = "box:TorchEast"       # 20.2.6
ITALY = "box:Italy"                # 7.2
SICILY = "box:Sicily"              # 22.6
CRETE = "box:Crete"                # 22.3
MALTA = "box:Malta"                # 22.4
FALL_BRAUN = "box:FallBraun"       # 22.5
HERKULES = "box:Herkules"          # AXC-16
FNA_BOXES = ("box:FNA:Casablanca", "box:FNA:Meknes", "box:FNA:Fez", "box:FNA:Marrakech",
             "box:FNA:Oran", "box:FNA:Orleansville", "box:FNA:Rabat")  # 22.7 (seven boxes)
REMOVED = "removed"                # permanently out of play, by a rule (flags["removed_by"])


def destroyed(side: str) -> str:
    return f"box:Destroyed:{side}"


def refit(side: str) -> str:
    return f"box:Refit:{side}"


def available(side: str) -> str:
    """7.1: reinforcements made available and not yet deployed wait here (or on their card)."""
    return f"box:Available:{side}"


_ALIASES = {
    "nrv": NRV, "nile": NRV, "nilerivervalley": NRV, "caperoute": CAPE, "cape": CAPE, "torch": TORCH,
    "torcheast": TORCH_EAST, "italy": ITALY, "sicily": SICILY, "crete": CRETE, "malta": MALTA,
    "fallbraun": FALL_BRAUN, "herkules": HERKULES,
}


def canon_box(loc: str) -> str:
    """Map spelling variants of the shared boxes onto the canonical ids (``box:nile river valley`` -> ``box:NRV``)."""
    if not loc.startswith("box:"):
        return loc
    parts = loc.split(":")
    key = "".join(ch for ch in parts[1].lower() if ch.isalnum())
    if key in _ALIASES and len(parts) == 2:
        return _ALIASES[key]
    return loc


def is_offmap(loc: str) -> bool:
    return loc.startswith(("box:", "card:", "track:"))


def base_id(uid: str) -> str:
    return uid.split("#")[0]


def in_play(u: UnitState) -> bool:
    return u.loc not in (REMOVED, "setup") and not u.loc.startswith(("box:Destroyed", "box:Available", "card:"))


# --------------------------------------------------------------------------- counters in and out of play


def mix_in_use(eng: Engine, cid: str) -> int:
    """2.4: how many counters of ``cid``'s mix are in use (every unit of that counter not removed from the game)."""
    return _in_use(eng.state.units).get(cid, 0)


def _in_use(units: Any) -> dict[str, int]:
    """counter id -> units of it not removed, memoised on the units (ids and locations) until any unit changes."""
    def count() -> dict[str, int]:
        out: dict[str, int] = {}
        for u in units.values():
            if u.loc != REMOVED:
                k = base_id(u.id)
                out[k] = out.get(k, 0) + 1
        return out

    return units.derived("mix in use", count)


def mix_limit(cid: str) -> int:
    c = all_counters().get(cid)
    return c.mix if c else 0


def add_counter(eng: Engine, cid: str, loc: str, rule: str, *, depleted: bool = False,
                flags: dict[str, Any] | None = None) -> str | None:
    """Bring a counter into play at ``loc`` (7.0); None when the counter mix is exhausted (2.4) or the
    unique counter is already in play (R-REINF-UNIQUE)."""
    real = resolve(cid) or cid
    c = all_counters().get(real)
    if c is None:
        eng.say(f"{cid}: no such counter in resources/counters/; not placed ({rule})")
        return None
    st = eng.state
    generic = c.mix > 0 or c.kind in ("supply", "marker")
    if generic:
        if c.mix and mix_in_use(eng, real) >= c.mix:
            eng.say(f"{c.name}: all {c.mix} counters of the mix are in use; none placed (2.4; {rule})")
            return None
        n = 1
        while f"{real}#{n}" in st.units or (n == 1 and real in st.units):
            n += 1
        uid = f"{real}#{n}"
    else:
        uid = real
        if uid in st.units:
            u = st.units[uid]
            if u.loc in (REMOVED,) or u.loc.startswith(("card:", "box:Available")):
                pass
            else:
                eng.say(f"{c.name} is already in play ({u.loc}); it does not arrive again ({rule})")
                return None
    steps = 1 if depleted else c.steps
    st.units[uid] = UnitState(id=uid, side=c.side if c.side in (AXIS, ALLIED) else _side_of_generic(real),
                              loc=loc, steps=steps, flags=dict(flags or {}) | {"arrived_by": rule})
    return uid


def _side_of_generic(cid: str) -> str:
    return AXIS if cid.startswith(("AX-", "GE-", "IT-", "VF-")) else ALLIED


def eliminated(u) -> bool:
    """8.3: an eliminated unit is in its side's Refit Box (with a LOS / LOC) or Destroyed Box (without)."""
    return u.loc.startswith(("box:Refit", "box:Destroyed"))


def remove_unit(eng: Engine, uid: str, rule: str, reason: str) -> None:
    """Take a counter out of the game by a rule that says so (withdrawals 7.4, cards)."""
    u = eng.state.units[uid]
    u.flags = dict(u.flags) | {"removed_by": rule, "removed_gt": eng.state.gt, "removed_from": u.loc}
    u.loc = REMOVED
    eng.say(f"{uid} is removed from play: {reason} ({rule})")


def destroy_unit(eng: Engine, uid: str, rule: str) -> None:
    u = eng.state.units[uid]
    u.loc = destroyed(u.side)
    eng.say(f"{uid} is placed in the Destroyed Box ({rule})")


# --------------------------------------------------------------------------- 22.1 NRV, 22.4 Malta, 22.3 Crete


def nrv_port_capacity(eng: Engine) -> int:
    """22.1: eight standard boxes; four while MET Levant is in crisis (ALC-5)."""
    from core.rules import met
    cap = met.nrv_port_capacity_in_crisis(eng)   # the MET cards' crisis effects (ALC-5: 4)
    return min(8, cap) if cap else 8


def malta_allied(eng: Engine) -> bool:
    """22.4: Malta is Allied controlled until a successful invasion (AXC-16)."""
    return eng.state.vars.get("malta", "Allied") == ALLIED


def hex_in_play(maps, h) -> bool:
    """Is hex ``h`` on one of ``maps`` (a scenario's "Maps in Play", ``vars["maps"]``; empty: every map)?  A hex
    printed on two maps (2.2.1) is in play if either is (R-MAPS-IN-PLAY)."""
    return not maps or any(m in maps for m in h.sheets)


def map_refusal(state, label: str) -> str | None:
    """Why ``label`` is not a hex of the maps in play (None: it is).  Every scenario names them ("Maps in Play: Use
    maps C and W", 24.0-33.0; ``vars["maps"]``); a hex printed on two maps (2.2.1) is in play if either is.  A state
    without the list (hand-built test positions) plays on every map.  A hex in Algeria or Tunisia is not in play
    until Operation Torch either (22.7, :func:`fna_refusal`)."""
    from core.hexgrid import Hex, HexLabelError

    maps = state.vars.get("maps")
    try:
        h = Hex.parse(str(label))
    except HexLabelError:
        return f"{label!r} is not a hex" if maps else None
    if maps and not hex_in_play(maps, h):
        return (f"{h.label} is on Map {'/'.join(h.sheets)}, not in play in this scenario "
                f"(Maps in Play: {', '.join(maps)})")
    return fna_refusal(state, h) if fna_hexes_out_of_play(state) else None


def torch_executed(state) -> bool:
    """22.7 "until the Allies execute Operation Torch Invasion (ALC-23)": ALC-23 has been played (or a test state
    says so with ``vars["fna_in_play"]``, which playing ALC-23 sets too: 23.1 ALC-21 d)."""
    return (state.cards.get("ALC-23", {}).get("status") in ("in_play", "discarded")
            or bool(state.vars.get("fna_in_play")))


@cache
def _scenario_declares_fna_in_play(name: str) -> bool:
    """The scenario's OWN special rules say "French North Africa is in play" (29.0 Run for Tunis, 31.0 Tunisian
    Campaign; 30.0 Trail of the Fox by ruling R-FNA-HEXES).  Not the sections a scenario includes: 32.0's own "Maps
    in Play: All maps" replaces 29.0's Maps in Play line.  A state naming no scenario (hand-built test positions)
    plays on every hex, as it plays on every map (:func:`map_refusal`)."""
    from core import scenario as _sc

    sc = next((s for s in _sc.all_scenarios() if name in (s.id, s.section, str(s.number))), None)
    return sc is None or any(r.kind == "fna_in_play" for r in sc.special)


def fna_hexes_out_of_play(state) -> bool:
    """22.7: "The seven French North Africa (FNA) Boxes, plus all hexes in Algeria and Tunisia (maps A and T) are out
    of play until the Allies execute Operation Torch Invasion (ALC-23)" (2.2.4: the hexes "in Algeria and Tunisia
    located on Maps A, T and L").  True while those hexes may not be entered: the scenario does not declare French
    North Africa in play and ALC-23 has not been played (ruling R-FNA-HEXES: Rommel's War, the North African
    Campaign and Desert War, where ALC-23 is never available).  The one definition the movement, retreat, landing and
    drop rules read (:func:`map_refusal`, ``movement.off_play_ids``)."""
    return not torch_executed(state) and not _scenario_declares_fna_in_play(str(state.scenario or ""))


def fna_refusal(state, h) -> str | None:
    """Why hex ``h`` is out of play under 22.7 (None: it is in play).  Only call it while
    :func:`fna_hexes_out_of_play`."""
    from core import mapdata

    if not mapdata.load().in_fna(h):
        return None
    return (f"{h.label} is in Algeria or Tunisia: all hexes in Algeria and Tunisia are out of play until the Allies "
            "execute Operation Torch Invasion (ALC-23) (22.7)")


def crete_in_play(eng: Engine) -> bool:
    """22.3: Crete is out of play until the MET Greece track is deactivated."""
    return bool(eng.state.vars.get("crete_axis"))


def fna_in_play(eng: Engine) -> bool:
    """22.7: the FNA boxes (and the Torch landings, the Fall Braun drop) are out of play until ALC-23 is played
    (:func:`torch_executed`; the hexes of Algeria and Tunisia: :func:`fna_hexes_out_of_play`)."""
    return torch_executed(eng.state)


def nrv_exit_blocked(eng: Engine, uid: str) -> str | None:
    """AXC-15 c): during the Egyptian Revolt no CW combat or supply unit may exit the NRV Box."""
    rev = eng.state.vars.get("egyptian_revolt")
    if rev and eng.state.gt <= rev["until_gt"]:
        return "No Commonwealth unit may exit the NRV Box during the Egyptian Revolt (23.2 AXC-15 c)"
    return None


QUERIES["nrv_port_capacity"] = lambda eng: nrv_port_capacity(eng)
QUERIES["malta_allied"] = lambda eng: malta_allied(eng)
QUERIES["nrv_exit_blocked"] = lambda eng, unit="": nrv_exit_blocked(eng, unit)
QUERIES["fna_in_play"] = lambda eng: fna_in_play(eng)


# --------------------------------------------------------------------------- 22.7 the FNA boxes (offmap.toml)


def fna_boxes() -> dict[str, dict]:
    """22.7: the seven French North Africa boxes, ``box:<Name>`` -> their offmap.toml record."""
    if not _FNA:
        from core import mapdata
        recs = mapdata.load().offmap_boxes()
        _FNA.update({"box:" + str(r["name"]).replace(" ", ""): dict(r, key=k) for k, r in recs.items()
                     if r.get("kind") == "fna"})
    return _FNA


_FNA: dict[str, dict] = {}


def fna_box_ports() -> dict[str, int]:
    """22.7: "Casablanca and Oran each have a port capacity of three standard boxes" (20.2.5 landing ports)."""
    return {loc: int(r["port"][0]) for loc, r in fna_boxes().items() if r.get("port")}


def fna_road() -> dict[str, dict[str, int]]:
    """22.7: the primary road joining the FNA boxes to one another and to Algiers (A6201): loc -> {next: road
    hexes} (each box 14 hexes from the next, Orleansville 14 from Algiers)."""
    boxes = fna_boxes()
    by_key = {r["key"]: loc for loc, r in boxes.items()}
    out: dict[str, dict[str, int]] = {}
    for loc, r in boxes.items():
        for c in r.get("connections", []):
            nxt = by_key.get(c.get("to", "")) or c.get("hex")
            if nxt:
                out.setdefault(loc, {})[nxt] = int(c.get("road_hexes", 14))
                out.setdefault(nxt, {})[loc] = int(c.get("road_hexes", 14))
    return out


def is_fna_box(loc: str) -> bool:
    return loc in fna_boxes()


QUERIES["fna_box_ports"] = lambda eng: fna_box_ports()
QUERIES["fna_road"] = lambda eng: fna_road()


def fna_landings(eng: Engine, origin: str) -> dict[str, int]:
    """20.2.5 / 22.7: from the Torch Box, once ALC-23 is played, units may also land in the Casablanca and Oran
    boxes (three standard port boxes each); landing there is not opposed at the port (the Vichy French are
    attacked in the box afterwards, 22.7; R-FNA-LANDING).  Empty from elsewhere."""
    if origin != TORCH or not fna_in_play(eng):
        return {}
    return fna_box_ports()
