"""7.0 Reinforcements, 7.4 withdrawals, 8.5 training; the scenarios' reinforcement schedules (24.0-33.0).

* Arrivals are scheduled in ``state.vars["reinf"]`` (by cards, 5.0 T+n, and scenario schedules) and become
  counters at the start of the Reinforcement Phase of their GT (III.1): air and naval units go to the
  Available Next Turn Box (7.1), the others wait in ``box:Available:<side>`` (7.1 "held off-map
  indefinitely") until their owner deploys them to an arrival point (7.2, 7.3) - one decision per unit:
  an arrival point, or *hold*.
* Dice-dependent arrivals (26.2 / 27.2 GT 12-14 rolls and morale checks) are rolled at III.1.
* 27.1: at most 14 shipping steps arrive at C0701 per GT (MSU and dumps 2 steps, RP 1).
* Withdrawals (7.4; 24.2, 25.2, ALC-26): due units in the NRV (or anywhere, if the Axis player allows,
  7.4 Important) are removed by the Allied player in III.1; failure is checked by ``victory_rules``.
* Training (8.5): IV.10 moves units down the Training Track and places them on leaving box 1.
"""

from __future__ import annotations

import math

from core.counters import all_counters, resolve
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, other
from core.engine import QUERIES, Engine, Procedure, at_game_start, auto_step, on_step, procedure
from core.hexgrid import Hex, HexLabelError, maps
from core.scenario import oasis_box_unused
from core.state import Frame
from core.rules import offmap

RULE = "7.0"


def _hex(label: str) -> str:
    try:
        return Hex.parse(label).label
    except HexLabelError:
        return label


# --------------------------------------------------------------------------- scenario schedules
# The schedules of 24.0-33.0 live in the scenario files (``reinforcements``, ``withdrawals``): one fact, one place.

#: Arrival points (7.2, 7.3) per scenario and side; "east:S" = any hex on the east edge of Map S (30.2).
ARRIVAL: dict[str, dict[str, list[str]]] = {
    "fox-killed": {AXIS: ["C0701"], ALLIED: [offmap.NRV]},
    "oconnors-war": {AXIS: ["C0701"], ALLIED: [offmap.NRV]},
    "sonnenblume": {AXIS: ["C0701"], ALLIED: [offmap.NRV]},
    "desert-fox": {AXIS: ["C0701"], ALLIED: [offmap.NRV, offmap.CAPE]},
    "desert-war": {AXIS: [offmap.ITALY], ALLIED: [offmap.NRV, offmap.CAPE]},
    "run-for-tunis": {AXIS: [offmap.SICILY, offmap.ITALY], ALLIED: [offmap.TORCH]},
    "trail-of-the-fox": {AXIS: ["S0734"], ALLIED: ["east:S"]},
    "tunisian-campaign": {AXIS: ["S0734", offmap.SICILY], ALLIED: [offmap.TORCH, "east:S"]},
    # 7.3 "Most Allied reinforcements arrive in the Cape Route Box (20.2.4) and/or the Nile River Valley Box (22.1).
    # Units arriving as part of ALC-21 through ALC-24 (Operation Torch) must be placed in the Torch Box": the Torch
    # Box is no arrival point of the other cards' units; the Torch cards' units name it (``arrive_to``)
    "rommels-war": {AXIS: ["C0701", offmap.ITALY], ALLIED: [offmap.NRV, offmap.CAPE]},
    "north-african-campaign": {AXIS: [offmap.ITALY], ALLIED: [offmap.NRV, offmap.CAPE]},
}


#: Per scenario, the hex arrival points that stand for the Axis crossing of the Mediterranean (7.2 "must be brought
#: onto the map across the Mediterranean by sea"): "All units arrive at hex C0701" (24.1-27.1, 32.0) counts "shipping
#: steps" and "Axis convoys" (27.1 a, 27.0 e), so it is a delivery by sea and needs an Axis-controlled hex (20.2.1
#: "any Axis controlled ports"; R-REINF-ENEMY-HEX).  Trail of the Fox's and the Tunisian Campaign's El Agheila
#: (S0734, the same hex) receives the army coming overland from Egypt (30.1): not listed.
SEA_ARRIVAL_HEXES: dict[str, tuple[str, ...]] = {
    sc: ("C0701",) for sc in ("fox-killed", "oconnors-war", "sonnenblume", "desert-fox", "rommels-war")}


def arrival_refusal(eng: Engine, side: str, point: str) -> str | None:
    """R-REINF-ENEMY-HEX (7.0, 7.1, 13.1, 2.2.2, 20.1, 20.2.1): why a reinforcement may not be placed at hex
    ``point`` now, or None.  A hex holding enemy units receives none (13.1 "Moving units may not enter
    enemy-occupied hexes"; 20.1 the cargo lands in the port "unless enemy units hold it"); a sea arrival hex of
    the scenario (``SEA_ARRIVAL_HEXES``) must not be enemy controlled (2.2.2).  The units wait off-map (7.1 "they
    may be held off-map indefinitely") until the hex is free again."""
    from core.rules import control
    from core.rules.movement import enemy_units_at

    if not control.is_map_hex(point):
        return None
    if enemy_units_at(eng.state, Hex.parse(point), side):
        return (f"{point} is occupied by enemy units: reinforcements may not arrive there; they wait off-map "
                "(13.1; 7.1; R-REINF-ENEMY-HEX)")
    if (side == AXIS and point in SEA_ARRIVAL_HEXES.get(eng.state.scenario, ())
            and control.controller(eng.state, point) == other(side)):
        return (f"{point} is {other(side)} controlled (2.2.2): reinforcements shipped to it may not arrive until an "
                "Axis ground combat unit enters it; they wait off-map (7.2; 20.2.1; 7.1; R-REINF-ENEMY-HEX)")
    return None


def east_edge(letter: str) -> list[str]:
    """The land hexes of a map's east edge (an all-sea hex is no arrival point: 13.3 prohibits entering it)."""
    from core.rules import tec

    sheet = maps()[letter]
    col = sheet.cols[1]
    gm = tec.current_map()
    out = []
    for r in range(sheet.rows[0], sheet.rows[1] + 1):
        try:
            h = Hex.parse(f"{letter}{r:02d}{col:02d}")
        except HexLabelError:
            continue
        if gm.on_grid(h):
            out.append(h.label)
    return out


ENTRY_SUPPLIED = "entry_supplied_gt"


def entry_supplied(eng: Engine, side: str, to: str) -> bool:
    """30.2 "Allied Reinforcements: Units enter at any hex on the east edge of Map S on the turns indicated. All are
    in general supply when entering." (the scenario's ``allied_entry_supplied`` special rule; 31.0 includes it):
    whether a ``side`` unit arriving in ``to`` enters so (R-SC-TOTF-ENTRY-GENS)."""
    from core.rules import events

    sp = events.special(eng, "allied_entry_supplied")
    if sp is None or side != ALLIED:
        return False
    letter, _, where = str(sp.params.get("edge", "")).partition(":")
    if where != "east":
        raise ValueError(f"scenario {eng.state.scenario}: special allied_entry_supplied params.edge must be "
                         f"'<map letter>:east', not {sp.params.get('edge')!r} (30.2)")
    return to in east_edge(letter)


def mark_entry_supplied(eng: Engine, uid: str) -> None:
    """R-SC-TOTF-ENTRY-GENS: the unit is in general supply for the GT it enters (``supply.gens_status``)."""
    u = eng.state.units[uid]
    u.flags = dict(u.flags) | {ENTRY_SUPPLIED: eng.state.gt}


def expand_point(p: str) -> list[str]:
    """An arrival point of the data as places: "east:S" every land hex of Map S's east edge (30.2), "box:Oasis:any"
    every oasis box (30.2 LeClerc, 16.2), a box or a hex (canonical label)."""
    if p.startswith("east:"):
        return east_edge(p[5:])
    if p.lower() == "box:oasis:any":          # 30.2 "GT 31 or after: Any oasis box: LeClerc" (16.2)
        from core.rules import raiders
        return list(raiders.box_ids())
    if p.startswith("box:"):
        return [offmap.canon_box(p)]
    return [_hex(p)]


def arrival_points(eng: Engine, side: str, item_to: str = "") -> list[str]:
    """The arrival points (7.2, 7.3, the scenario's) offered to a unit whose schedule item names ``item_to``.  An
    item that enters on a map edge takes that edge only: 30.2 "Units enter at any hex on the east edge of Map S"
    (31.0 too: not the Torch boxes, which 7.3 gives to "Units arriving as part of ALC-21 through ALC-24")."""
    if item_to.startswith("east:"):
        return expand_point(item_to)
    pts = list(ARRIVAL.get(eng.state.scenario, {}).get(side, [offmap.NRV if side == ALLIED else offmap.ITALY]))
    if item_to and offmap.canon_box(item_to) == offmap.ITALY and side == AXIS and offmap.ITALY not in pts:
        item_to = ""    # 7.2 "Most Axis reinforcements arrive in Italy", but 24.1-27.1 "All units arrive at hex C0701"
    if item_to and item_to not in pts:
        pts.insert(0, item_to)
    out: list[str] = []
    for p in pts:
        out += [h for h in expand_point(p) if h not in out]
    if side == ALLIED and eng.state.vars.get("fna_in_play") and offmap.TORCH_EAST not in out and offmap.TORCH in out:
        out.append(offmap.TORCH_EAST)   # 7.3: Torch units may be moved to the Torch East Box
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- scheduling


def _scenario_raw(eng: Engine) -> dict:
    import tomllib
    from pathlib import Path
    from core.scenario import all_scenarios
    for sc in all_scenarios():
        if sc.id == eng.state.scenario:
            try:
                return tomllib.loads(Path(sc.path).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:   # never "no reinforcements"
                raise ValueError(f"{sc.path}: the reinforcements could not be read ({type(exc).__name__}: {exc})") from exc
    return {}


def _from_data(eng: Engine, raw: list[dict]) -> list[dict]:
    """Scenario-file ``reinforcements`` (docs/data.d/counters-scenarios.md) -> schedule items."""
    from core.rules import events, raiders
    out: list[dict] = []
    for r in raw:
        if r.get("condition"):
            continue   # conditional lines (AXC-18 triggered) are left to their rules
        if r.get("optional") and not raiders.enabled(eng.state):
            continue   # 27.1 "I/Sahara (optional)": desert raiders arrive only with the optional rule 16.0
        side = r.get("side", AXIS)
        at = str(r.get("at", ""))
        if at.startswith("edge:"):
            _, m, _e = at.split(":")
            at = f"east:{m}"
        rule = str(r.get("rule", "scenario"))
        units = list(r.get("units", []))
        if not units and r.get("card"):
            units = [i["unit"] for i in events.card_items(eng, r["card"], r.get("card_gt", 0))]
        base = {"side": side, "to": at, "rule": rule, "depleted": bool(r.get("depleted"))}
        if r.get("movement_phase"):
            base["mp"] = True            # 27.1 / 30.2 "may arrive in each friendly Movement Phase"
        if r.get("phase") is not None:
            base["phase"] = int(r["phase"])   # 30.1 "GT-31 Phase 12"; 31.2 "arrive in Phase 15"
        if r.get("free_shipping"):
            base["free_shipping"] = True     # 27.1 GT 11 "They do not count against the total shipping steps"
        if "roll" in r:
            base["roll"] = {"on": list(r["roll"].get("on", [1, 2, 3])), "else_gt": int(r["roll"]["else_gt"])}
        if r.get("morale_check"):
            base["morale_check"] = True
        if r.get("group"):
            base["group"] = str(r["group"])
            base["group_steps"] = int(r.get("steps", 99))
            base["rule"] = f"{rule} {r['group']}"   # the ledger's source names the group (30.1)
        n = int(r.get("count", 1) or 1)
        if "gt" in r:
            gts: list = [int(r["gt"])]
        else:
            gts = ["each"]
            base["from_gt"] = int(r.get("from_gt", 0))
            base["to_gt"] = int(r.get("to_gt", 999))
        for g in gts:
            for u in units:
                for _ in range(n):
                    out.append(base | {"gt": g, "unit": u})
    return out


def ensure_schedule(eng: Engine) -> None:
    st = eng.state
    if st.vars.get("reinf_init"):
        return
    st.vars["reinf_init"] = True
    raw = _scenario_raw(eng)
    sched = _from_data(eng, raw.get("reinforcements") or [])
    st.vars["reinf_each"] = [i for i in sched if i["gt"] == "each"]
    for i in sched:
        if i["gt"] != "each":
            st.vars.setdefault("reinf", []).append(i)
    st.vars.setdefault("withdrawals", [])
    data_wd = [{"gt": int(w["gt"]), "units": list(w.get("units", [])), "rule": str(w.get("rule", "7.4"))}
               for w in raw.get("withdrawals", []) or []]
    st.vars["withdrawals"] += data_wd
    # arrivals due before the scenario's first Reinforcement Phase (scenarios starting after Phase III)
    if st.phase > 3:
        _place_start_arrivals(eng)


def _place_start_arrivals(eng: Engine) -> None:
    """Items for the start GT of a scenario that begins after Phase III are placed at once (30.1 GT-31 Phase 12)."""
    st = eng.state
    due = [i for i in st.vars.get("reinf", []) if i["gt"] == st.gt]
    st.vars["reinf"] = [i for i in st.vars.get("reinf", []) if i["gt"] != st.gt]
    due += [i | {"gt": st.gt} for i in st.vars.get("reinf_each", [])
            if i.get("mp") and int(i.get("from_gt", 0)) <= st.gt <= int(i.get("to_gt", 999))]
    groups: dict[str, int] = {}
    for i in due:
        if i.get("mp"):
            _arrive(eng, i)     # 30.2 "Each GT (including GT 31)": arrives in a friendly Movement Phase (R-REINF-DEPLOY)
            continue
        pts = arrival_points(eng, i["side"], i.get("to", ""))
        if str(i.get("to", "")).startswith("east:") and "group" not in i:
            _edge_setup(eng, i, pts)
            continue
        loc = pts[0]
        if "group" in i:
            place_group_unit(eng, i, loc, groups)
            continue
        offmap.add_counter(eng, i["unit"], loc, i["rule"], depleted=i.get("depleted", False))


def _edge_setup(eng: Engine, i: dict, pts: list[str]) -> None:
    """R-SC-TOTF-EDGE: a start arrival that "enters at any hex on the east edge" (30.2) is set up by its owner in
    the edge hex he chooses (3.1; ``core.rules.setup``), not all in the first one; a hex holding enemy units is none
    of them (R-REINF-ENEMY-HEX)."""
    st = eng.state
    hexes = [p for p in pts if arrival_refusal(eng, i["side"], p) is None]
    uid = offmap.add_counter(eng, i["unit"], "setup", i["rule"], depleted=i.get("depleted", False))
    if uid is None:
        return
    if hexes and all(entry_supplied(eng, i["side"], h) for h in hexes):
        mark_entry_supplied(eng, uid)          # 30.2: it enters on this GT, in the edge hex its owner chooses
    cnt = all_counters().get(offmap.base_id(uid))
    st.vars.setdefault("setup_pending", []).append(
        {"unit": uid, "name": cnt.name if cnt else uid, "side": i["side"], "hexes": hexes,
         "where": f"in any hex on the east edge of Map {str(i['to'])[5:]}", "rule": i["rule"]})
    if not any(f.proc == "setup" for f in st.stack):
        st.stack.insert(1, Frame(proc="setup"))        # below the game start: asked once the start is laid out


def group_fits(i: dict, groups: dict[str, int]) -> bool:
    """30.1 (31.1): "units totalling this many steps" of an arrival group arrive, taken in the listed order; the
    others go to the Refit Box (R-REINF-GROUPS).  Counts the unit's steps into ``groups`` when it fits."""
    cnt = all_counters().get(resolve(i["unit"]) or i["unit"])
    steps = 1 if i.get("depleted") else (cnt.steps if cnt else 1)
    used = groups.get(str(i["group"]), 0)
    if used + steps > int(i["group_steps"]):
        return False
    groups[str(i["group"])] = used + steps
    return True


def place_group_unit(eng: Engine, i: dict, loc: str | None, groups: dict[str, int]) -> None:
    """Place one unit of a 30.1 arrival group at ``loc`` (None: as any Reinforcement-Phase arrival, 7.1), or in
    the Refit Box when the group's steps are used up.  A unit the scenario sets up in the Destroyed Box (125, 382,
    433: R-SC-TOTF-GROUP4) is taken from there."""
    if not group_fits(i, groups):
        loc = offmap.refit(i["side"])
    uid = resolve(i["unit"]) or i["unit"]
    u = eng.state.units.get(uid)
    if u is not None and u.loc.startswith("box:Destroyed"):
        u.loc = loc or offmap.available(i["side"])
        u.steps = 1 if i.get("depleted") else all_counters()[uid].steps
        u.flags = dict(u.flags) | {"arrived_by": i["rule"]}
        if loc is None:
            u.flags = u.flags | {"arrive_to": offmap.canon_box(i.get("to") or "")} | arrival_flags(eng, i)
        eng.say(f"{uid} leaves the Destroyed Box for {u.loc} ({i['rule']}; R-SC-TOTF-GROUP4)")
    elif loc is None:
        _arrive(eng, i)
    else:
        offmap.add_counter(eng, i["unit"], loc, i["rule"], depleted=i.get("depleted", False))


def schedule_arrival(eng: Engine, unit: str, gt: int, rule: str, *, to: str = "", depleted: bool = False,
                     side: str | None = None) -> None:
    """7.1: a unit made available arrives on the GT indicated, or on the GT the card is played if passed."""
    st = eng.state
    cnt = all_counters().get(resolve(unit) or unit)
    if side is None:
        side = cnt.side if cnt and cnt.side in (AXIS, ALLIED) else offmap._side_of_generic(unit)
    gt = max(gt, st.gt)
    # 27.1: from GT 13 Axis card units reach C0701 one GT later (foot units two)
    if st.scenario in ("desert-fox", "rommels-war") and side == AXIS and gt >= 13 and rule.startswith("23.2"):
        gt += 2 if (cnt and cnt.move_class == "foot") else 1
    st.vars.setdefault("reinf", []).append({"gt": gt, "side": side, "unit": unit, "to": to, "rule": rule,
                                            "depleted": depleted})


def _is(uid: str, *kinds: str) -> bool:
    c = all_counters().get(offmap.base_id(uid))
    return bool(c and c.kind in kinds)


def _morale_check(eng: Engine, uid: str, why: str) -> bool:
    """8.1: 1d6 + morale; 6 or less passes; a natural 6 always fails."""
    c = all_counters()[offmap.base_id(uid)]
    d = eng.roll(1, f"{why}: morale check for {uid}")[0]
    return d != 6 and d + c.morale <= 6


def materialize(eng: Engine) -> None:
    """III.1 start: due arrivals become counters (7.1); dice-dependent arrivals are rolled (26.2, 27.2)."""
    st = eng.state
    ensure_schedule(eng)
    for i in st.vars.get("reinf_each", []):
        if oasis_box_unused(str(i.get("to", "")), st.vars.get("optional", {})):
            continue            # 30.2 "GT 31 or after: Any oasis box: LeClerc" without 16.0 (R-OASIS-OFF)
        if int(i.get("from_gt", 0)) <= st.gt <= int(i.get("to_gt", 999)):
            st.vars.setdefault("reinf", []).append(i | {"gt": st.gt})
    keep = []
    held: list[dict] = []
    groups: dict[str, int] = {}
    for i in st.vars.get("reinf", []):
        if i["gt"] > st.gt:
            keep.append(i)
            continue
        if "roll" in i:
            d = eng.roll(1, f"{i['rule']}: arrival of {i['unit']}")[0]
            if "on" in i["roll"]:
                when = st.gt if d in i["roll"]["on"] else int(i["roll"]["else_gt"])
            else:
                when = i["roll"]["low"] if d <= 3 else i["roll"]["high"]
            nxt = {k: v for k, v in i.items() if k != "roll"} | {"gt": when}
            if when > st.gt:
                keep.append(nxt)
                continue
            i = nxt
        if "morale_check" in i:
            cid = resolve(i["unit"]) or i["unit"]
            later = st.gt + 1 if i["morale_check"] is True else int(i["morale_check"])
            if cid in all_counters() and all_counters()[cid].kind == "combat" and not _morale_check(eng, cid, i["rule"]):
                keep.append({k: v for k, v in i.items() if k != "morale_check"} | {"gt": later, "depleted": True})
                eng.say(f"{i['unit']} fails its morale check: depleted, arrives GT {later} ({i['rule']}; 8.1)")
                continue
        if mix_full(eng, i["unit"]):
            keep.append(hold_back(eng, i, held))
            continue
        if "group" in i:   # 30.1 via 31.1: the groups' step limits hold whenever they arrive
            place_group_unit(eng, i, None, groups)
            continue
        if oasis_box_unused(str(i.get("to", "")), st.vars.get("optional", {})):
            eng.say(f"{i['unit']} would arrive in an oasis box; the Oasis Track is not used in this game, so the unit "
                    f"is not used ({i['rule']}; 16.0)")          # R-OASIS-OFF
            continue
        _arrive(eng, i)
    st.vars["reinf"] = keep
    if held or "mix_held" in st.vars:
        st.vars["mix_held"] = {"gt": st.gt, "items": held}


def mix_full(eng: Engine, unit: str) -> bool:
    """2.4 Exception: every counter of the base / MSU / dump mix is in play."""
    cid = resolve(unit) or unit
    lim = offmap.mix_limit(cid)
    return bool(lim) and offmap.mix_in_use(eng, cid) >= lim


def hold_back(eng: Engine, item: dict, held: list[dict]) -> dict:
    """R-CTR-MIX-HOLD: an arrival the counter mix (2.4) cannot provide now is not lost; it waits for the next
    Reinforcement Phase in which a counter is free (the mix sizes are reconstructed, the arrivals are stated)."""
    cid = resolve(item["unit"]) or item["unit"]
    lim = offmap.mix_limit(cid)
    why = f"all {lim} {cid} counters are in play (2.4; R-CTR-MIX-HOLD)"
    since = int(item.get("held_from", eng.state.gt))
    held.append({"what": item["unit"], "why": why, "rule": item.get("rule", ""), "side": item.get("side", ""),
                 "since": since})
    eng.say(f"{item['unit']} ({item.get('rule', '')}) is held back: {why}; it arrives when a counter is free")
    return item | {"gt": eng.state.gt + 1, "held_from": since}


def _arrive(eng: Engine, i: dict) -> None:
    side = i["side"]
    unit = resolve(i["unit"]) or i["unit"]
    to = offmap.canon_box(i.get("to") or "")
    if is_atp(unit):
        add_atp(eng, side, 1, i["rule"])
        return
    if _is(unit, "air", "fleet"):
        # 7.1: air and naval units go to the Available Next Turn Box
        from core.rules import air
        placed = air.canon_air_loc(side, to) if to and _is(unit, "air") else ""
        if placed in air.holding_boxes(side) and placed != air.box(side, "AvailableNext"):
            # a card that places its air units in a holding box (AXC-16 a: "in the Sicily Box") overrides 7.1
            offmap.add_counter(eng, unit, placed, i["rule"], depleted=i.get("depleted", False))
            return
        uid = offmap.add_counter(eng, unit, air.box(side, "AvailableNext"), i["rule"], depleted=i.get("depleted", False))
        if uid:
            eng.state.units[uid].flags = dict(eng.state.units[uid].flags) | {"available_gt": eng.state.gt + 1}
        return
    # debts of 24.2 b): arriving refit points are forfeited until paid
    if offmap.base_id(unit).endswith("-RP") and side == ALLIED and eng.state.vars.get("rp_debt", 0) > 0:
        eng.state.vars["rp_debt"] -= 1
        eng.say("An arriving Allied refit point is forfeited for an eliminated withdrawal unit (24.2 b)")
        return
    fixed = to in (offmap.CRETE, offmap.HERKULES, offmap.FALL_BRAUN, offmap.SICILY) or to.startswith("box:Available")
    loc = to if fixed else offmap.available(side)
    uid = offmap.add_counter(eng, unit, loc, i["rule"], depleted=i.get("depleted", False))
    if uid and not fixed:
        eng.state.units[uid].flags = dict(eng.state.units[uid].flags) | {"arrive_to": to} | arrival_flags(eng, i)
        cnt = all_counters()[offmap.base_id(uid)]
        if cnt.requires_training and i.get("training_box"):
            eng.state.units[uid].training_box = int(i["training_box"])


def is_atp(cid: str) -> bool:
    """23.0: an Air Transport Point icon (``AX-ATP`` / ``AL-ATP``)."""
    c = all_counters().get(offmap.base_id(cid))
    return bool(c and c.unit_type == "air transport")


def add_atp(eng: Engine, side: str, n: int, rule: str) -> None:
    """19.7 / 13.7: received ATP join the side's pool ``vars["atp"][side]``, spent by airlift and air drops
    (transport.air_land); each point is used once (R-AIR-ATP)."""
    atp = dict(eng.state.vars.get("atp", {}))
    atp[side] = int(atp.get(side, 0)) + n
    eng.state.vars["atp"] = atp
    eng.say(f"{side} receives {n} Air Transport Point(s); {atp[side]} available ({rule}; 19.7)")


def atp_counters_to_pool(eng: Engine) -> None:
    """19.7: ATP counters put in play by set-up data are points of the pool, not units (removed by 19.7)."""
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if is_atp(u.id) and u.loc != offmap.REMOVED:
            add_atp(eng, u.side, 1, "19.7")
            offmap.remove_unit(eng, u.id, "19.7", "an Air Transport Point joins the pool")


at_game_start(atp_counters_to_pool)
auto_step("III.2")(atp_counters_to_pool)


def shipping_steps(uid: str, steps: int) -> int:
    """27.1 a)-b): combat steps; MSU and dumps count as two steps, RP as one."""
    c = all_counters()[offmap.base_id(uid)]
    if c.kind == "supply" and c.unit_type in ("msu", "dump"):
        return 2
    if offmap.base_id(uid).endswith("-RP"):
        return 1
    return steps


# --------------------------------------------------------------------------- arrivals in a friendly Movement Phase

ARRIVE = "arrive"
#: vars key: the units that arrived by ``arrive`` in the current Movement Phase {"tag": [gt, phase], "units": [...]}
PHASE_ARRIVALS = "mp_arrivals"


def arrival_flags(eng: Engine, i: dict) -> dict:
    """The facts of schedule item ``i`` a waiting unit keeps: it arrives in a friendly Movement Phase (``mp``:
    27.1 "during any friendly Movement Phase", 30.2 "may arrive in each friendly Movement Phase"), not before
    Phase N of its GT (``phase``: 30.1 "GT-31 Phase 12", 31.2 "arrive in Phase 15"), outside the shipping steps
    (27.1 GT 11 "They do not count against the total shipping steps")."""
    out: dict = {}
    if i.get("mp") or i.get("phase") is not None:
        out["arrive_mp"] = str(i.get("rule", "7.0"))
    if i.get("phase") is not None:
        out["arrive_phase"] = [int(i["gt"]) if isinstance(i.get("gt"), int) else eng.state.gt, int(i["phase"])]
    if i.get("free_shipping"):
        out["free_shipping"] = True
    return out


def _special(eng: Engine, kind: str, side: str):
    from core.rules import events

    sp = events.special(eng, kind)
    return sp if sp is not None and sp.params.get("side", side) == side else None


def mp_points(eng: Engine, uid: str) -> list[str]:
    """The arrival points where waiting unit ``uid`` arrives during a friendly Movement Phase, not in III.1:
    every point of an item flagged so (``arrive_mp``), and the hex of the scenario's ``movement_phase_arrival``
    rule (27.1 "All units (unless stated otherwise) arrive at hex C0701 during any friendly Movement Phase")."""
    u = eng.state.units[uid]
    own = str(u.flags.get("arrive_to", ""))
    if u.flags.get("arrive_mp"):
        # the item's own place (30.2 "in S0734"; 31.2 the east edge of Map S); else the scenario's points
        return expand_point(own) if own else arrival_points(eng, u.side)
    pts = arrival_points(eng, u.side, own)
    sp = _special(eng, "movement_phase_arrival", u.side)
    return [p for p in pts if sp is not None and p == _hex(str(sp.params.get("at", "")))]


def mp_rule(eng: Engine, uid: str) -> str:
    """The rule that makes ``uid`` arrive in a Movement Phase: its schedule line's, else the scenario's
    ``movement_phase_arrival`` (27.1)."""
    u = eng.state.units[uid]
    sp = _special(eng, "movement_phase_arrival", u.side)
    return str(u.flags.get("arrive_mp") or (sp.rule if sp is not None else "7.0"))


def reinforcement_phase_points(eng: Engine, uid: str) -> list[str]:
    """The arrival points offered to ``uid`` in the Reinforcement Phase (7.0 "received during the Reinforcement
    Phase unless scenario instructions dictate otherwise"): those not kept for a Movement Phase."""
    u = eng.state.units[uid]
    if u.flags.get("arrive_mp"):
        return []
    mp = set(mp_points(eng, uid))
    return [p for p in arrival_points(eng, u.side, u.flags.get("arrive_to", "")) if p not in mp]


def shipping_refusal(eng: Engine, side: str, uid: str, to: str) -> str | None:
    """27.1 a) "A maximum of 14 shipping steps may arrive per GT" (the scenario's ``shipping_limit``; b) "These
    units do count against the total shipping steps"; GT 11's Italians "do not count")."""
    sp = _special(eng, "shipping_limit", side)
    u = eng.state.units[uid]
    if sp is None or side != AXIS or to != _hex(str(sp.params.get("to", ""))) or u.flags.get("free_shipping"):
        return None
    limit = int(sp.params["steps"])
    used = int(eng.state.vars.get("shipping_used", {}).get(str(eng.state.gt), 0))
    need = shipping_steps(uid, u.steps)
    if used + need > limit:
        return (f"{uid} would bring the shipping steps arriving at {to} this GT to {used + need}: "
                f"a maximum of {limit} shipping steps may arrive per GT ({sp.rule}); it waits off-map (7.1)")
    return None


def _supply_kind(uid: str) -> str:
    c = all_counters().get(offmap.base_id(uid))
    if c is not None and c.unit_type == "dump":
        return "dump"
    return "rp" if offmap.base_id(uid).endswith("-RP") else ""


def _this_phase(eng: Engine, key: str) -> list[str]:
    """The ``key`` list of the arrivals record (``vars[PHASE_ARRIVALS]``) if it is the current phase's, else []."""
    rec = eng.state.vars.get(PHASE_ARRIVALS) or {}
    return list(rec.get(key, [])) if rec.get("tag") == [eng.state.gt, eng.state.phase] else []


def _note_arrival(eng: Engine, key: str, uid: str) -> None:
    """Add ``uid`` to the current phase's ``key`` list (``units``: 27.1 b / 30.2; ``coastal``: 27.1 c), keeping the
    other list of the same phase."""
    tag = [eng.state.gt, eng.state.phase]
    rec = eng.state.vars.get(PHASE_ARRIVALS) or {}
    rec = dict(rec) if rec.get("tag") == tag else {"tag": tag}
    rec[key] = list(rec.get(key, [])) + [uid]
    eng.state.vars[PHASE_ARRIVALS] = rec


def phase_arrivals(eng: Engine) -> list[str]:
    """The units brought in by ``arrive`` in the current Movement Phase."""
    return _this_phase(eng, "units")


def _edge_item(u) -> bool:
    """A dump of 30.2's GT 31 list ("3 x MSU, 3 x Dump" entering "at any hex on the east edge of Map S"), not of the
    "Each GT ... in S0734" allotment the per-phase limit counts."""
    return str(u.flags.get("arrive_to", "")).startswith("east:")


def per_phase_refusal(eng: Engine, side: str, uid: str, to: str) -> str | None:
    """The scenario's ``arrivals_per_phase`` limit at its hex: 27.1 b) "A maximum of one dump or two RP may arrive
    in any single Movement Phase" (params ``dumps``, ``rp``: a dump uses the phase's whole allowance, an RP half of
    it, R-REINF-DEPLOY), or 30.2 "3 x Dump, 1 x RP, any two may arrive in each friendly Movement Phase in S0734"
    (param ``any``: dumps and RP alike)."""
    sp = _special(eng, "arrivals_per_phase", side)
    kind = _supply_kind(uid)
    u = eng.state.units[uid]
    if sp is None or not kind or to != _hex(str(sp.params.get("at", ""))) or _edge_item(u):
        return None
    p = sp.params
    here = [x for x in phase_arrivals(eng) if x in eng.state.units and _supply_kind(x)
            and eng.state.units[x].loc == to and not _edge_item(eng.state.units[x])]
    if "any" in p:
        if len(here) + 1 > int(p["any"]):
            return (f"{len(here)} dumps/RP have arrived at {to} in this Movement Phase: any {int(p['any'])} may "
                    f"arrive in each friendly Movement Phase ({sp.rule})")
        return None
    dumps, rp = int(p["dumps"]), int(p["rp"])
    used = sum(rp if _supply_kind(x) == "dump" else dumps for x in here)      # in units of 1 / (dumps * rp)
    if used + (rp if kind == "dump" else dumps) > dumps * rp:
        return (f"{', '.join(here)} arrived at {to} in this Movement Phase: a maximum of {dumps} dump or {rp} RP "
                f"may arrive in any single Movement Phase ({sp.rule})")
    return None


# --------------------------------------------------------------------------- 27.1 c) coastal shipping and air lift

#: ``arrive`` args ``by``: 27.1 c) "one dump or two steps of combat units may arrive using coastal shipping (20.3).
#: Additionally if the Axis side plays an AXC-4 (Axis Appeal) the Axis may use air lift (13.7)."
BY_COASTAL, BY_AIRLIFT = "coastal", "airlift"


def entry_methods(eng: Engine, side: str):
    """The scenario's ``reinforcement_entry`` special (27.1 c): ``at`` the port the coastal shipment leaves from,
    ``coastal_dumps`` / ``coastal_steps`` its allowance per friendly Movement Phase, ``airlift_card`` the card whose
    play opens the air lift; None where the scenario has none."""
    return _special(eng, "reinforcement_entry", side)


def phase_coastal_arrivals(eng: Engine) -> list[str]:
    """The units that arrived using coastal shipping (27.1 c) in the current Movement Phase."""
    return _this_phase(eng, "coastal")


def _coastal_share(eng: Engine, uid: str, dumps: int, steps: int) -> int | None:
    """A unit's share of the 27.1 c) allowance in units of 1 / (dumps * steps): a dump ``steps``, each step of a
    combat unit ``dumps``; None for any other unit (an MSU, RP: "one dump or two steps of combat units")."""
    from core.rules.status import is_combat

    u = eng.state.units[uid]
    if _supply_kind(uid) == "dump":
        return steps
    return int(u.steps) * dumps if is_combat(u) else None


def coastal_arrival_refusal(eng: Engine, side: str, uid: str) -> str | None:
    """27.1 c) "one dump or two steps of combat units may arrive using coastal shipping (20.3)", counted per friendly
    Movement Phase like b) (R-REINF-DEPLOY): one dump fills the allowance, one combat step half of it."""
    sp = entry_methods(eng, side)
    dumps, steps = int(sp.params["coastal_dumps"]), int(sp.params["coastal_steps"])
    need = _coastal_share(eng, uid, dumps, steps)
    if need is None:
        return f"only one dump or two steps of combat units may arrive using coastal shipping, not {uid} ({sp.rule})"
    done = phase_coastal_arrivals(eng)
    used = sum(_coastal_share(eng, x, dumps, steps) or 0 for x in done if x in eng.state.units)
    if used + need > dumps * steps:
        return (f"{', '.join(done) or 'nothing'} arrived using coastal shipping in this Movement Phase; {uid} would "
                f"exceed one dump or two steps of combat units ({sp.rule})")
    return None


def due_at(eng: Engine, uid: str, hub: str) -> bool:
    """Whether waiting unit ``uid`` arrives at ``hub``: in a friendly Movement Phase (27.1) or, held off-map in
    III.1 (7.1), in the Reinforcement Phase (24.1, 26.1 "All units arrive at hex C0701")."""
    return hub in mp_points(eng, uid) or hub in reinforcement_phase_points(eng, uid)


def method_refusal(eng: Engine, side: str, uid: str, by: str) -> tuple[str, str] | None:
    """27.1 c): whether waiting unit ``uid`` may arrive ``by`` coastal shipping or air lift (the checks of the
    shipment and landing themselves are 20.3's and 13.7's, made by ``transport`` when it is carried out)."""
    sp = entry_methods(eng, side)
    if by not in (BY_COASTAL, BY_AIRLIFT):
        return (f"by {by!r}: 27.1 c) names coastal shipping (by={BY_COASTAL!r}) and air lift (by={BY_AIRLIFT!r})",
                "27.1 c")
    if sp is None or side != AXIS:
        return f"no scenario instruction lets {side} reinforcements arrive by {by} here", "7.0; 27.1 c"
    hub = _hex(str(sp.params.get("at", "")))
    if not due_at(eng, uid, hub):
        return f"{uid} does not arrive at {hub}: {sp.rule} is an exception to that arrival only", sp.rule
    if by == BY_COASTAL:
        why = coastal_arrival_refusal(eng, side, uid)
        return (why, sp.rule) if why else None
    card = str(sp.params.get("airlift_card", ""))
    from core.rules import events

    if not card:
        return f"no scenario instruction lets the Axis use air lift for its reinforcements here ({sp.rule})", sp.rule
    if not events.played(eng, card):
        why = f"the Axis may use air lift for its reinforcements only once it plays {card} (Axis Appeal)"
        return why, sp.rule
    return None


def _arrive_by(eng: Engine, frame: Frame, side: str, uid: str, to: str, by: str) -> None:
    """27.1 c): the unit arrives outside the shipping steps of a) and b).  Coastal shipping (20.3 "from one port in
    North Africa to another port in North Africa"): it ships from Tripoli (``coastal_from``, L2817, where the Axis
    reinforcements come ashore and march to C0701; 25.0 "ship ... per GT to Tripoli", 31.0 b) to another Axis
    controlled port of the maps in play (20.3.1) by ``transport.coastal_ship`` (port boxes, 20.1; strikes in
    transit, 19.9.2) and lands in the next friendly Movement Phase (20.1).  Air lift: from
    Italy (13.7 a) to a friendly airfield or city hex with ATP (13.7 e), by ``transport.air_land``; it may not
    move after (13.7 c)."""
    from core.rules import transport

    u = eng.state.units[uid]
    u.flags = {k: v for k, v in u.flags.items() if k not in ("arrive_to", "held_gt", "arrive_mp", "arrive_phase")}
    rule = entry_methods(eng, side).rule
    if by == BY_COASTAL:
        src = _hex(str(entry_methods(eng, side).params["coastal_from"]))
        if to == src or to.startswith("box:"):
            raise IllegalAction(f"coastal shipping from {src} goes to another port in North Africa ({to})",
                                f"20.3; {rule}")
        if offmap.map_refusal(eng.state, to):
            raise IllegalAction(offmap.map_refusal(eng.state, to), f"20.3.1; {rule}")
        on_map = offmap.map_refusal(eng.state, src) is None
        u.loc = src if on_map else offmap.available(side)
        eng.say(f"{side}: {uid} arrives using coastal shipping from {src}, outside the shipping steps ({rule})")
        transport.coastal_ship(eng, frame, side, {"units": [uid], "to": to}, arriving_from=src)
        _note_arrival(eng, "coastal", uid)
        return
    u.loc = offmap.ITALY
    eng.say(f"{side}: {uid} arrives by air lift from Italy, outside the shipping steps ({rule})")
    transport.air_land(eng, frame, side, {"units": [uid], "to": to})


def method_destinations(eng: Engine, side: str, by: str) -> list[str]:
    """The hexes a 27.1 c) arrival may be sent to, for the app's form: ``coastal`` the side's controlled ports on
    Maps L, S, C and W in play but the origin (20.3.1); ``airlift`` its airfield and city hexes in play (13.7 e);
    none holding enemy units.  The order itself judges the rest (port boxes, 20.1; ATP, 13.7 e)."""
    from core import mapdata
    from core.rules import control, transport

    md, st = mapdata.load(), eng.state
    if by == BY_COASTAL:
        src = _hex(str(entry_methods(eng, side).params["coastal_from"]))
        cands = [h.label for h in md.ports() if h.label != src and h.label[:1] in transport.COASTAL_MAPS]
    else:
        cands = [h.label for h in md.airfields() + md._having("terrain", "city")]
    return sorted({lab for lab in cands if offmap.map_refusal(st, lab) is None and control.controls(st, side, lab)
                   and not any(u.side != side for u in st.units_at(lab))})


def arrival_methods(eng: Engine, side: str) -> dict[str, dict[str, list[str]]]:
    """27.1 c) (24.1, 26.1): per method, the waiting units that may use it now and where they may be sent."""
    out: dict[str, dict[str, list[str]]] = {}
    if entry_methods(eng, side) is None:
        return out
    waiting_units = sorted(u.id for u in eng.state.units.values() if u.side == side and u.loc == offmap.available(side))
    for by in (BY_COASTAL, BY_AIRLIFT):
        ok = [uid for uid in waiting_units if arrive_refusal(eng, side, uid, "", by) is None]
        dests = method_destinations(eng, side, by) if ok else []
        if dests:
            out[by] = {uid: dests for uid in ok}
    return out


def arrive_refusal(eng: Engine, side: str, uid: str, to: str, by: str = "") -> tuple[str, str] | None:
    """Why waiting unit ``uid`` may not arrive at ``to`` in this friendly Movement Phase (reason, rule), or None;
    ``by`` coastal shipping or air lift (27.1 c: ``method_refusal``)."""
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side or u.loc != offmap.available(side) or not (
            mp_points(eng, uid) or by and entry_methods(eng, side) is not None):
        return f"{uid} is not a {side} reinforcement waiting to arrive in a Movement Phase", "7.0; 7.1"
    rule = mp_rule(eng, uid)
    when = u.flags.get("arrive_phase")
    if when and (st.gt, st.phase) < (int(when[0]), int(when[1])):
        return f"{uid} arrives in Phase {int(when[1])} of GT {int(when[0])} ({rule})", rule
    if by:
        return method_refusal(eng, side, uid, by)
    if to not in mp_points(eng, uid):
        return f"{to} is not an arrival point of {uid} ({', '.join(mp_points(eng, uid)[:3])}...)", f"7.2; 7.3; {rule}"
    why = arrival_refusal(eng, side, to)
    if why:
        return why, "7.1; R-REINF-ENEMY-HEX"
    for check, kind in ((shipping_refusal, "shipping_limit"), (per_phase_refusal, "arrivals_per_phase")):
        why = check(eng, side, uid, to)
        if why:
            return why, _special(eng, kind, side).rule
    return None


def waiting_mp(eng: Engine, side: str) -> list[str]:
    """The side's reinforcements that may arrive in this friendly Movement Phase (their phase has come)."""
    st = eng.state
    out = []
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side != side or u.loc != offmap.available(side) or not mp_points(eng, u.id):
            continue
        when = u.flags.get("arrive_phase")
        if when and (st.gt, st.phase) < (int(when[0]), int(when[1])):
            continue
        out.append(u.id)
    return out


def place_arrival(eng: Engine, side: str, uid: str, to: str, why: str) -> None:
    """The waiting unit arrives at ``to`` (7.0): counted against the 27.1 a) shipping steps and on this GT's
    Axis convoy (27.0 e), in general supply when entering where 30.2 says so."""
    st = eng.state
    u = st.units[uid]
    if shipping_counts(eng, side, uid, to):
        su = st.vars.setdefault("shipping_used", {})
        su[str(st.gt)] = int(su.get(str(st.gt), 0)) + shipping_steps(uid, u.steps)
        u.flags = dict(u.flags) | {"convoy_gt": st.gt}   # 27.0 e): on this GT's Axis convoy
    u.loc = to
    u.flags = {k: v for k, v in u.flags.items() if k not in ("arrive_to", "held_gt", "arrive_mp", "arrive_phase")}
    if entry_supplied(eng, side, to):
        mark_entry_supplied(eng, uid)                  # 30.2 "in general supply when entering"
    eng.say(f"{side}: {uid} arrives at {to} ({why})")


def shipping_counts(eng: Engine, side: str, uid: str, to: str) -> bool:
    """27.1 a)-b): whether ``uid`` arriving at ``to`` counts against the shipping steps."""
    sp = _special(eng, "shipping_limit", side)
    return (sp is not None and side == AXIS and to == _hex(str(sp.params.get("to", "")))
            and not eng.state.units[uid].flags.get("free_shipping"))


def convoy_waiting(eng: Engine, side: str) -> list[str]:
    """27.0 e): the waiting units that will count against the 27.1 a) shipping steps when they arrive (the "Axis
    convoys" the Malta strikes of IV.9 hit before the Movement Phases; R-27-CONVOY-STRIKES)."""
    sp = _special(eng, "shipping_limit", side)
    if sp is None:
        return []
    to = _hex(str(sp.params.get("to", "")))
    return sorted(u.id for u in eng.state.units.values()
                  if u.side == side and u.loc == offmap.available(side) and not u.flags.get("free_shipping")
                  and to in mp_points(eng, u.id))


def _act_arrive(eng: Engine, frame: Frame, action: Action) -> None:
    """4.1 VI.3 (27.1, 30.2, 31.2): a waiting reinforcement arrives at its hex in a friendly Movement Phase; it
    may then move this phase (R-REINF-DEPLOY)."""
    side = frame.data.get("side", action.side)
    uid, to = str(action.args.get("unit", "")), offmap.canon_box(str(action.args.get("to", "")))
    to = _hex(to)
    by = str(action.args.get("by", "") or "")
    why = arrive_refusal(eng, side, uid, to, by)
    if why:
        raise IllegalAction(*why)
    if by:
        _arrive_by(eng, frame, side, uid, to, by)          # 27.1 c)
        return
    place_arrival(eng, side, uid, to, f"a friendly Movement Phase; {mp_rule(eng, uid)}")
    _note_arrival(eng, "units", uid)


def arrive_options(eng: Engine, frame: Frame, side: str, per_unit: int = 2) -> list[Option]:
    """The arrivals this Movement Phase allows: for each waiting unit, its first legal arrival points."""
    out: list[Option] = []
    for uid in waiting_mp(eng, side):
        n = 0
        for to in mp_points(eng, uid):
            if n >= per_unit:
                break
            if arrive_refusal(eng, side, uid, to) is None:
                out.append(Option(action=Action(kind=ARRIVE, side=side, args={"unit": uid, "to": to}),
                                  label=f"Reinforcement {uid} arrives at {to} (7.0; {mp_rule(eng, uid)})"))
                n += 1
    return out


def _register_movement_order() -> None:
    from core.rules import movement

    movement.movement_action(ARRIVE)(_act_arrive)
    movement.movement_options(arrive_options)


# --------------------------------------------------------------------------- III.1 procedure


def waiting(eng: Engine, side: str) -> list[str]:
    """The units to deploy in III.1 (7.1): waiting in the Available box, not held this GT, with an arrival point
    of the Reinforcement Phase (those arriving in a Movement Phase wait for it: ``mp_points``)."""
    return sorted(u.id for u in eng.state.units.values() if u.side == side and u.loc == offmap.available(side)
                  and not u.flags.get("held_gt") == eng.state.gt and reinforcement_phase_points(eng, u.id))


def due_withdrawals(eng: Engine) -> list[str]:
    st = eng.state
    out = []
    for w in st.vars.get("withdrawals", []):
        if w["gt"] > st.gt:
            continue
        units = list(w.get("units", []))
        for nat in w.get("nationalities", []):
            units += [u.id for u in st.units.values() if offmap.base_id(u.id).startswith(nat + "-")
                      and _is(u.id, "combat")]
        for uid in units:
            u = st.units.get(uid)
            if u and u.loc not in (offmap.REMOVED,) and not offmap.eliminated(u) and uid not in out:   # 24.2 b
                out.append(uid)
    return out


def _withdrawable(eng: Engine, uid: str) -> bool:
    u = eng.state.units[uid]
    if u.loc == offmap.NRV or u.loc.startswith(("box:Available", "track:")):      # not from the Refit Box: 24.2 b
        return True
    return bool(eng.state.vars.get("axis_allows_withdrawal_gt") == eng.state.gt) and not offmap.is_offmap(u.loc)


@procedure("reinforcement_phase")
class ReinforcementPhase(Procedure):
    """4.1 III.1: determine available units and deploy them to shipping boxes or points of arrival (7.0)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        st = eng.state
        if not frame.data.get("materialized"):
            frame.data["materialized"] = True
            materialize(eng)
        done: list[str] = frame.data.setdefault("done", [])
        for side in (AXIS, ALLIED):
            if side in done:
                continue
            if side == AXIS and not frame.data.get("asked_leave"):
                on_map = [w for w in due_withdrawals(eng) if not offmap.is_offmap(st.units[w].loc)]
                if on_map:
                    return Decision(side=AXIS, kind="allow_withdrawal",
                                    prompt=f"Allow the Allied withdrawals on the map ({', '.join(on_map)}) to be removed "
                                           "without moving to a map edge?", rule="7.4 Important",
                                    options=(Option(action=Action(kind="allow_withdrawal", side=AXIS, args={"allow": False}), label="No"),
                                             Option(action=Action(kind="allow_withdrawal", side=AXIS, args={"allow": True}), label="Yes")))
            if side == ALLIED and not frame.data.get("wd_done"):
                wd = [w for w in due_withdrawals(eng) if _withdrawable(eng, w)]
                if wd:
                    opts = [Option(action=Action(kind="done", side=ALLIED, args={"withdrawals": True}),
                                   label="Withdraw no more now")]
                    opts += [Option(action=Action(kind="withdraw", side=ALLIED, args={"unit": w}), label=f"Withdraw {w}")
                             for w in wd]
                    return Decision(side=ALLIED, kind="withdraw", prompt="Withdraw the units due (7.4)",
                                    rule="7.4; " + ", ".join(sorted({w['rule'] for w in st.vars.get('withdrawals', [])})),
                                    options=tuple(opts))
            todo = waiting(eng, side)
            if todo:
                uid = todo[0]
                pts = self.points(eng, side, uid)
                opts = [Option(action=Action(kind="hold", side=side, args={"unit": uid}), label=f"Hold {uid} off-map (7.1)")]
                opts += [Option(action=Action(kind="deploy", side=side, args={"unit": uid, "to": p}), label=f"{uid} to {p}")
                         for p in pts]
                return Decision(side=side, kind="reinforce", prompt=f"Deploy {uid} ({len(todo)} waiting)",
                                rule="4.1 III.1; 7.1-7.3", options=tuple(opts),
                                context={"unit": uid, "points": pts})
            return Decision(side=side, kind="step", prompt="Reinforcement Phase: done", rule="4.1 III.1; 7.0",
                            options=(Option(action=Action(kind="done", side=side), label=f"{side}: done"),))
        return None

    def points(self, eng: Engine, side: str, uid: str) -> list[str]:
        pts = [p for p in reinforcement_phase_points(eng, uid) if shipping_refusal(eng, side, uid, p) is None]
        if offmap.nrv_exit_blocked(eng, uid) and side == ALLIED and all_counters()[offmap.base_id(uid)].kind == "supply":
            pts = [p for p in pts if p != offmap.NRV]   # AXC-15 c) 2)
        return [p for p in pts if arrival_refusal(eng, side, p) is None]     # R-REINF-ENEMY-HEX

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        st = eng.state
        side = action.side
        if action.kind == "allow_withdrawal":
            frame.data["asked_leave"] = True
            if action.args.get("allow"):
                st.vars["axis_allows_withdrawal_gt"] = st.gt
                eng.say("The Axis player allows the Allied withdrawals to leave the map directly (7.4 Important)")
            return
        if action.kind == "withdraw":
            uid = str(action.args.get("unit"))
            if uid not in due_withdrawals(eng) or not _withdrawable(eng, uid):
                raise IllegalAction(f"{uid} is not a unit due for withdrawal that can leave now", "7.4")
            offmap.remove_unit(eng, uid, "7.4 withdrawal", "withdrawn from the theatre")
            st.units[uid].flags["withdrawn"] = True
            return
        if action.kind == "done":
            if action.args.get("withdrawals"):
                frame.data["wd_done"] = True
                return
            if side == AXIS and not frame.data.get("asked_leave") and [
                    w for w in due_withdrawals(eng) if not offmap.is_offmap(st.units[w].loc)]:
                raise IllegalAction("First answer whether the withdrawals may leave the map directly", "7.4 Important")
            frame.data.setdefault("done", []).append(side)
            return
        uid = str(action.args.get("unit", ""))
        if uid not in waiting(eng, side):
            raise IllegalAction(f"{uid} is not a {side} reinforcement waiting to arrive", "7.1")
        if action.kind == "hold":
            st.units[uid].flags = dict(st.units[uid].flags) | {"held_gt": st.gt}
            eng.say(f"{side} holds {uid} off-map (7.1)")
            return
        if action.kind == "deploy":
            to = str(action.args.get("to", ""))
            if to not in self.points(eng, side, uid):
                why = arrival_refusal(eng, side, to)
                if why:
                    raise IllegalAction(why, "7.1")
                raise IllegalAction(f"{to} is not an arrival point for {uid} now", "7.2; 7.3; 27.1")
            place_arrival(eng, side, uid, to, "the Reinforcement Phase; 7.0")
            return
        super().apply(eng, frame, action)


on_step("III.1", "reinforcement_phase")
_register_movement_order()


# --------------------------------------------------------------------------- IV.10 training (8.5)


@procedure("training")
class Training(Procedure):
    """4.1 IV.10; 8.5.1: each Allocation Phase a training unit moves one box down; from box 1 it is placed."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if not frame.data.get("ran"):
            frame.data["ran"] = True
            self.advance(eng)
        done = frame.data.setdefault("done", [])
        waiting_sides = [s for s in (AXIS, ALLIED) if s not in done]
        if not waiting_sides:
            return None
        return Decision(side="either" if len(waiting_sides) == 2 else waiting_sides[0], kind="step",
                        prompt="Conduct training operations (8.5)", rule="4.1 IV.10; 8.5",
                        options=tuple(Option(action=Action(kind="done", side=s), label=f"{s}: done") for s in waiting_sides))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "done":
            raise IllegalAction(f"{action.kind} is not a training action", "8.5")
        frame.data.setdefault("done", []).append(action.side)

    def advance(self, eng: Engine) -> None:
        st = eng.state
        for u in sorted(st.units.values(), key=lambda x: x.id):
            if u.training_box <= 0:
                continue
            if u.training_box == 1:
                u.training_box = 0
                u.untrained = False
                u.loc = offmap.NRV if u.side == ALLIED else primary_base(eng)
                eng.say(f"{u.id} completes its desert training and is placed in {u.loc} (8.5.1)")
            else:
                u.training_box -= 1


def primary_base(eng: Engine) -> str:
    """12.2.4: the Axis primary base (scenario arrival point if none is marked)."""
    pb = eng.state.vars.get("axis_primary_base")
    if pb:
        return pb
    return arrival_points(eng, AXIS)[0]


def untrained_reentry_box(side: str, die: int) -> int:
    """8.5.2 3): Allied units divide the die by three, Axis units by two (round up)."""
    return math.ceil(die / 3) if side == ALLIED else math.ceil(die / 2)


on_step("IV.10", "training")

QUERIES["reinforcements_waiting"] = lambda eng, side=AXIS: waiting(eng, side)
QUERIES["arrival_points"] = lambda eng, side=AXIS: arrival_points(eng, side)
#: the reinforcements that may arrive in the current friendly Movement Phase, each with its legal points (27.1, 30.2)
QUERIES["movement_arrivals"] = lambda eng, side=AXIS: {
    uid: [p for p in mp_points(eng, uid) if arrive_refusal(eng, side, uid, p) is None] for uid in waiting_mp(eng, side)}
#: 27.1 c): {"coastal" | "airlift": {unit: [destination hexes]}} (the app's "Reinforcement arrives" form)
QUERIES["arrival_methods"] = lambda eng, side=AXIS: arrival_methods(eng, side)
QUERIES["due_withdrawals"] = lambda eng: due_withdrawals(eng)
