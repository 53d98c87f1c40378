"""Moves between off-map areas made in a Movement Phase, and MET combat in the Allied Combat Phase.

* 22.2.1: Allied units starting an Allied Movement Phase in the NRV may move to an active MET track (not the
  Pacific, ALC-19); units on a track may return to the NRV (they move no further that phase).
* 22.2.2: MET combat, an Allied Combat Phase decision per track with a non-zero, non-parenthesised Allied
  combat unit on it (``met.met_combat``); a reduction in the 0 box deactivates the track (``met.deactivate``).
* 22.5 / AXC-19 a): units in the Fall Braun Box move to Italy (any time) or Sicily (once AXC-19 is in play and
  ALC-23 played); one move per unit per Movement Phase.
* AXC-16 k): units in the Herkules Box not used for the invasion (after it is cancelled) or surviving it (the GT
  after the invasion) are redeployed to Italy or the Fall Braun Box.
* 22.3, AXC-13 d), AXC-18 c), AXC-19 c), d) (R-CRETE-LEAVE): the Crete garrison's GT 18 units may move to Italy
  from GT 19 with AXC-18 in play; the GT 27 units to Italy or Sicily from GT 28 with AXC-19 in play (their airlift
  to a friendly airfield is ``transport.air_land``, which asks ``crete_airlift_refusal``); every other unit stays;
  each unit moved from Crete rolls AXC-19 d) (``crete_move_check``).
* 20.2.5, 7.3, ALC-21 d) (R-TORCH-EAST): Allied units in the Torch Box "may move directly to the Torch East Box" in
  an Allied Movement Phase once ALC-23 is played ("The Torch East box ... immediately playable"); ocean cargo only
  (the units that land from the box, 20.2.5; ``naval.is_cargo``); no way back (20.2.6 names none).
* 31.0 a): the Axis has the initiative on Maps L and S on GT 31 (query ``initiative_on``).

Each is a procedure run before the phase's movement (``engine.before_step``) or combat step; it asks nothing
when there is nothing to move.
"""

from __future__ import annotations

from core import sequence
from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option
from core.engine import QUERIES, Engine, Procedure, before_step, procedure
from core.state import Frame
from core.rules import coastal, events, met, offmap  # noqa: F401  (coastal: 20.3 strikes, registered here)

MOVE_STEPS = ("VI.3", "IX.3", "XII.3", "XV.3")
COMBAT_STEPS = ("VIII.1", "XI.1", "XIV.1", "XVII.1")


def _phase_tag(eng: Engine) -> str:
    return f"{eng.state.gt}.{eng.state.phase}"


def _c(uid: str):
    return all_counters().get(offmap.base_id(uid))


def _ground(uid: str) -> bool:
    c = _c(uid)
    return bool(c and c.kind == "combat")


def _moved_now(eng: Engine, uid: str) -> bool:
    return eng.state.units[uid].flags.get("offmap_moved") == _phase_tag(eng)


# --------------------------------------------------------------------------- 22.2.1 MET tracks


def met_destinations(eng: Engine, uid: str) -> list[str]:
    """22.2.1: where an Allied unit may move now (track boxes from the NRV; the NRV from a track)."""
    u = eng.state.units[uid]
    if u.side != ALLIED or not (u.loc == offmap.NRV or u.loc.startswith("track:MET-")):
        return []         # only the NRV and the MET track boxes (the cheap test first: most units are elsewhere)
    if not _ground(uid) or _moved_now(eng, uid):
        return []
    if u.loc == offmap.NRV:
        if offmap.nrv_exit_blocked(eng, uid):
            return []     # AXC-15 c)
        if u.flags.get("landed") == _phase_tag(eng):
            return []     # 22.2.1 "A unit starting a Movement Phase in the NRV": it landed from the port boxes now
        tracks = [n for n in met.TRACKS if met.track(eng, n) and n != "Pacific"]   # 22.2.1 Exception; ALC-19
        return [met.track_box(n) for n in tracks]
    if any(u.loc == met.track_box(n) for n in met.TRACKS):
        if u.flags.get("committed"):
            return []     # card-committed units stay (AXC-14 c)
        return [offmap.NRV]
    return []


def returned_this_phase(eng: Engine, uid: str) -> bool:
    """22.2.1: a unit returned from a MET track to the NRV in this Movement Phase moves no further (read by the
    movement rules' NRV entry and the rail lift from the NRV)."""
    u = eng.state.units.get(uid)
    return bool(u and u.loc == offmap.NRV and u.flags.get("met_returned") == _phase_tag(eng))


# --------------------------------------------------------------------------- 22.5 Fall Braun, AXC-16 k, AXC-13


def _herkules_free(eng: Engine) -> bool:
    """AXC-16 k): units may leave the Herkules Box after a cancellation, or the GT after the invasion."""
    c = eng.state.cards.get("AXC-16")
    if c is None:
        return True
    if c.get("cancelled"):
        return eng.state.gt > int(c["cancelled"])
    if c.get("resolved_gt") is not None:
        return eng.state.gt > int(c["resolved_gt"])
    return False


# AXC-13 d), AXC-18 c), AXC-19 c), d): who may leave Crete, when, how (R-CRETE-LEAVE).  22.3: "Axis ground units
# arrive on Crete as listed on AXC-13 and must remain there until authorized to leave by the activation of specific
# Axis event cards"; the only such authorizations are AXC-18 c) (the GT 18 list, to Italy, GT 19 on) and AXC-19 c)
# (the GT 27 list, to Italy or Sicily or airlifted to a friendly airfield on the hex grid, GT 28 on).
CRETE_RELEASES = {18: ("AXC-18", 19), 27: ("AXC-19", 28)}     # AXC-13 list -> (card that releases it, first GT)
CRETE_RULE = {18: "22.3; 23.2 AXC-18 c", 27: "22.3; 23.2 AXC-19 c"}


def _garrison_group(eng: Engine, uid: str) -> int | None:
    """The AXC-13 list (18 or 27) a Crete garrison unit belongs to, from the card's data."""
    for key in CRETE_RELEASES:
        for it in events.card_items(eng, "AXC-13", key):
            if offmap.base_id(uid) == it.get("unit") or uid == it.get("unit"):
                return key
    return None


def crete_refusal(eng: Engine, uid: str) -> str | None:
    """Why the unit ``uid`` on Crete may not leave it now (22.3; AXC-18 c; AXC-19 c), None when it may.  The
    authorizing card must have been put in play ("activation", 22.3: in play or since discarded, its "or later"
    has no end) and the GT reached."""
    grp = _garrison_group(eng, uid)
    if grp is None:
        return (f"{uid} is not one of the GT 18 or GT 27 reinforcements of AXC-13: it must remain on Crete "
                "(22.3; 23.2 AXC-13 d)")
    card, first = CRETE_RELEASES[grp]
    if events.status(eng, card) not in ("in_play", "discarded"):
        return f"the GT {grp} reinforcements of AXC-13 may leave Crete once {card} is in play ({CRETE_RULE[grp]})"
    if eng.state.gt < first:
        return f"the GT {grp} reinforcements of AXC-13 may leave Crete on GT {first} or later ({CRETE_RULE[grp]})"
    return None


def crete_boxes(eng: Engine, uid: str) -> list[str]:
    """The off-map boxes a Crete garrison unit may move to now: Italy (AXC-18 c), Italy or Sicily (AXC-19 c)."""
    if crete_refusal(eng, uid) is not None:
        return []
    return [offmap.ITALY] if _garrison_group(eng, uid) == 18 else [offmap.ITALY, offmap.SICILY]


def crete_airlift_refusal(eng: Engine, uid: str) -> str | None:
    """13.7 a) lists Crete among the Axis airlift boxes, but 22.3 keeps the garrison there: only the GT 27 list may
    "be airlifted to any friendly airfield on the hex grid on GT 28 or later" (AXC-19 c).  None when it may."""
    why = crete_refusal(eng, uid)
    if why is not None:
        return why
    if _garrison_group(eng, uid) != 27:
        return "the GT 18 reinforcements of AXC-13 may only be moved to Italy, not airlifted (22.3; 23.2 AXC-18 c)"
    return None


def crete_move_check(eng: Engine, uid: str) -> bool:
    """AXC-19 d), required by AXC-13 d) for every garrison unit moved: "For each unit moved from Crete, the Axis
    player rolls 1d6. Add one to the DR for each unit already moved. If the modified DR is 7 or more, lengthen the
    game by one GT."  One count of the units already moved, kept on AXC-13 (it "remains in play throughout", e),
    whichever card released them; the shift is the releasing card's (R-CRETE-LEAVE).  True if the game lengthens."""
    c = eng.state.cards.setdefault("AXC-13", {"id": "AXC-13", "status": "in_play"})
    moved = int(c.get("crete_moved", 0))
    d = eng.roll(1, f"AXC-13 d): {uid} leaves Crete")[0]
    c["crete_moved"] = moved + 1
    card = CRETE_RELEASES.get(_garrison_group(eng, uid) or 0, ("AXC-13", 0))[0]
    if d + moved >= 7:
        events.es_shift(eng, card, +1, f"{uid} moved from Crete: {d} + {moved} already moved >= 7 "
                                       "(23.2 AXC-13 d; AXC-19 d)")
        return True
    eng.say(f"{uid} moved from Crete: {d} + {moved} already moved < 7, the game is not lengthened "
            "(23.2 AXC-13 d; AXC-19 d)")
    return False


def axis_destinations(eng: Engine, uid: str) -> list[str]:
    u = eng.state.units[uid]
    if u.side != AXIS or _moved_now(eng, uid):
        return []
    c = _c(uid)
    if c is None or c.kind not in ("combat", "supply"):
        return []
    out: list[str] = []
    if u.loc == offmap.FALL_BRAUN:
        out.append(offmap.ITALY)                                     # 22.5: Italy at any time
        if events.status(eng, "AXC-19") in ("in_play", "discarded") and events.played(eng, "ALC-23"):
            out.append(offmap.SICILY)                                # 22.5; AXC-19 a)
    elif u.loc == offmap.HERKULES:
        if _herkules_free(eng) and c.kind == "combat":
            out += [offmap.ITALY, offmap.FALL_BRAUN]                 # AXC-16 k)
    elif u.loc == offmap.CRETE:
        out += crete_boxes(eng, uid)                                 # AXC-18 c), AXC-19 c)
    return out


# --------------------------------------------------------------------------- 20.2.5 Torch Box -> Torch East Box

TORCH_EAST_RULE = "20.2.5; 7.3; 23.1 ALC-21 d"


def torch_east_refusal(eng: Engine, uid: str) -> str | None:
    """Why ``uid`` may not move to the Torch East Box now (None: it may).  20.2.5 "Allied units in the box may land
    (be placed in the port boxes) in Casablanca, Oran, or Algiers (A6201).  They may move to directly to the Torch
    East Box"; 7.3 "Units arriving as part of ALC-21 through ALC-24 ... must be placed in the Torch Box (20.2.5).  They
    may be moved to the Torch East Box (20.2.6)"; 23.1 ALC-21 d) "The Torch East box and French North Africa are
    immediately playable" (when ALC-23 is played).  R-TORCH-EAST: a move of the Allied Movement Phase's off-map moves
    (like 22.2.1 and 22.5), by the units that land from the box (ocean cargo, ``naval.is_cargo``: not air units,
    whose Torch Box is an air base, 19.1.2); a unit moved is in the Torch East Box, so it moves once."""
    from core.rules import naval

    u = eng.state.units[uid]
    if u.side != ALLIED or u.loc != offmap.TORCH:
        return (f"{uid} is not an Allied unit in the Torch Box ({u.loc}): only \"Allied units in the [Torch] box\" may "
                "move directly to the Torch East Box (20.2.5)")
    if not offmap.fna_in_play(eng):
        return ("The Torch East Box is not in play before Operation Torch: ALC-23 makes it \"immediately playable\" "
                "(23.1 ALC-21 d; 20.2.5)")
    if not naval.is_cargo(uid):
        return (f"{uid} is not a unit that lands from the Torch Box (a combat or supply unit, refit points): it may "
                "not move to the Torch East Box (20.2.5)")
    return None


def torch_destinations(eng: Engine, uid: str) -> list[str]:
    """20.2.5: the Torch East Box for an Allied unit of the Torch Box that may move there now (:func:`torch_east_refusal`)."""
    u = eng.state.units[uid]
    if u.loc != offmap.TORCH or u.side != ALLIED:
        return []          # the cheap test first: most units are elsewhere
    return [offmap.TORCH_EAST] if torch_east_refusal(eng, uid) is None else []


# --------------------------------------------------------------------------- the procedure


def moves(eng: Engine, side: str) -> list[tuple[str, str]]:
    out = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side != side or not offmap.is_offmap(u.loc):
            continue
        dests = met_destinations(eng, u.id) + torch_destinations(eng, u.id) if side == ALLIED \
            else axis_destinations(eng, u.id)
        out += [(u.id, d) for d in dests]
    return out


def _rule_of(eng: Engine, uid: str, to: str) -> str:
    loc = eng.state.units[uid].loc
    if eng.state.units[uid].side == ALLIED and (offmap.TORCH_EAST in (to, loc) or loc == offmap.TORCH):
        return TORCH_EAST_RULE
    if to.startswith("track:MET") or loc.startswith("track:MET"):
        return "22.2.1"
    if loc == offmap.HERKULES:
        return "23.2 AXC-16 k"
    if loc == offmap.CRETE:
        grp = _garrison_group(eng, uid)
        return CRETE_RULE[grp] if grp else "22.3; 23.2 AXC-13 d"
    return "22.5; 23.2 AXC-19 a"


@procedure("offmap_moves")
class OffmapMoves(Procedure):
    """Before the phasing player's movement: moves between off-map areas (22.2.1, 20.2.5, 22.5, AXC-13/16/18/19)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        side = eng.phasing_side()
        if frame.data.get("done") or side is None:
            return None
        mv = moves(eng, side)
        if not mv:
            return None
        opts = [Option(action=Action(kind="done", side=side), label="No (more) off-map moves")]
        opts += [Option(action=Action(kind="offmap_move", side=side, args={"unit": u, "to": d}),
                        label=f"{u} to {d} ({_rule_of(eng, u, d)})") for u, d in mv]
        return Decision(side=side, kind="offmap_moves", prompt="Move units between off-map areas (MET tracks, "
                        "Torch East, Fall Braun, Herkules, Crete) before moving on the map",
                        rule="22.2.1; 20.2.5; 22.5",
                        options=tuple(opts), free_kinds=("offmap_move",))   # a refusal names its rule (22.3)

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        side = eng.phasing_side()
        if action.kind == "done":
            frame.data["done"] = True
            return
        if action.kind != "offmap_move":
            return super().apply(eng, frame, action)
        uid, to = str(action.args.get("unit", "")), str(action.args.get("to", ""))
        if uid not in eng.state.units or (uid, to) not in moves(eng, side or ""):
            crete = uid in eng.state.units and eng.state.units[uid].loc == offmap.CRETE and side == AXIS
            why = crete_refusal(eng, uid) if crete else None
            if uid in eng.state.units and to == offmap.TORCH_EAST and side == ALLIED:
                why = torch_east_refusal(eng, uid) or why
            raise IllegalAction(why or f"{uid} may not move to {to} now",
                                _rule_of(eng, uid, to) if uid in eng.state.units else "22.2.1; 22.5")
        u = eng.state.units[uid]
        rule = _rule_of(eng, uid, to)
        src = u.loc
        u.loc = to
        u.flags = dict(u.flags) | {"offmap_moved": _phase_tag(eng)}
        if src.startswith("track:MET") and to == offmap.NRV:
            u.flags = dict(u.flags) | {"met_returned": _phase_tag(eng)}      # 22.2.1: no further move this phase
        eng.say(f"{uid} moves from {src} to {to} ({rule})")
        if src == offmap.CRETE:
            crete_move_check(eng, uid)


for _k in MOVE_STEPS:
    before_step(_k, "offmap_moves")


# --------------------------------------------------------------------------- 22.2.2 MET combat


def met_combat_refusal(eng: Engine, name: str) -> str | None:
    if eng.phasing_side() != ALLIED:
        return "MET combat is initiated in an Allied Combat Phase (22.2.2)"
    t = met.track(eng, name)
    if not t:
        return f"MET {name} is not active (22.2)"
    if t.get("fought") == _phase_tag(eng):
        return f"MET {name} has already fought this Combat Phase (22.2.2)"
    if not any(u.side == ALLIED and u.loc == met.track_box(name) and _ground(u.id)
               and (c := _c(u.id)) and c.values(u.steps)[0] > 0 and not c.cf_paren for u in eng.state.units.values()):
        return f"MET combat needs a non-zero, non-parenthesised Allied combat unit on MET {name} (22.2.2)"
    return None


@procedure("met_combat")
class MetCombat(Procedure):
    """22.2.2: in an Allied Combat Phase the Allied player may fight on each MET track with combat units."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done") or eng.phasing_side() != ALLIED:
            return None
        ready = [n for n in met.TRACKS if met_combat_refusal(eng, n) is None]
        if not ready:
            return None
        opts = [Option(action=Action(kind="done", side=ALLIED), label="No (more) MET combat")]
        opts += [Option(action=Action(kind="met_combat", side=ALLIED, args={"track": n}),
                        label=f"MET combat on {n} ({met.met_combat_dice(eng, n)} dice)") for n in ready]
        return Decision(side=ALLIED, kind="met_combat", prompt="Fight on the MET tracks?", rule="22.2.2",
                        options=tuple(opts))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind == "done":
            frame.data["done"] = True
            return
        if action.kind != "met_combat":
            return super().apply(eng, frame, action)
        name = str(action.args.get("track", ""))
        if name not in met.TRACKS:
            raise IllegalAction(f"{name!r} is not a MET track", "22.2")
        why = met_combat_refusal(eng, name)
        if why:
            raise IllegalAction(why, "22.2.2")
        eng.state.vars["met"][name]["fought"] = _phase_tag(eng)
        hits = met.met_combat(eng, name)
        t = eng.state.vars["met"][name]
        eng.say(f"MET {name} combat: {hits} hit(s); the track is "
                + ("inactive" if not t["active"] else f"in box {t['box']}{' (crisis)' if t['crisis'] else ''}")
                + " (22.2.2)")


for _k in COMBAT_STEPS:
    before_step(_k, "met_combat")


# --------------------------------------------------------------------------- 31.0 a)


def initiative_on(eng: Engine, hex_label: str = "") -> str:
    """31.0 a): the side with the initiative for ``hex_label`` (the scenario's override on some maps and GT)."""
    sp = events.special(eng, "initiative_override")
    if sp is not None:
        p = sp.params
        if eng.state.gt == int(p.get("gt", -1)) and hex_label[:1] in tuple(p.get("maps", ())):
            return str(p.get("side", eng.state.initiative))
    return eng.state.initiative


QUERIES["initiative_on"] = lambda eng, hex="": initiative_on(eng, hex)
QUERIES["offmap_moves"] = lambda eng, side=ALLIED: moves(eng, side)
_ = sequence
