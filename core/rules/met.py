"""22.2 Middle East Tracks (MET): activation, the Events Phase situation rolls (I.4), crisis, deployment
of units (22.2.1), MET combat (22.2.2) and deactivation with its consequences (ALC-16 d-f, 22.3).

State: ``state.vars["met"][track] = {"box", "crisis", "active", "since"}``; units on a track are at
``track:MET:<track>``.  Only the Levant card's values are printed in the rules (5.0 example); the other
tracks' advance ranges and modifiers are reconstructed as the Levant's 4-6 (R-MET-RANGES), to be
overridden by the card data.
"""

from __future__ import annotations

import math

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, Option
from core.engine import QUERIES, Engine, Procedure, on_step, procedure
from core.state import Frame
from core.rules import offmap

def _met_cards() -> dict[str, object]:
    """Track name -> the MET card's ``met`` record (resources/cards/*.toml, 22.2 / 23.0)."""
    from core import cards
    out = {}
    for c in cards.all_cards().values():
        if c.met is not None:
            out[c.met.track] = c
    return out


_MET = _met_cards()
#: highest box of each track (boxes 0..n) and the card of each track, from the MET cards' data
TRACKS = {name: c.met.boxes for name, c in _MET.items()}
CARD_OF = {name: c.id for name, c in _MET.items()}
#: tracks the cards say are never deactivated (ALC-5, ALC-6, ALC-19)
NEVER_DEACTIVATED = {name for name, c in _MET.items() if c.met.deactivate.startswith("never")}


def params(name: str):
    """The MET card's track parameters (boxes, mountain boxes, advance range, DRMs, crisis effects)."""
    return _MET[name].met


def track_box(name: str) -> str:
    return f"track:MET-{name.replace(' ', '')}"


def track(eng: Engine, name: str) -> dict | None:
    t = eng.state.vars.get("met", {}).get(name)
    return t if t and t.get("active") else None


def _met_rule_use(eng: Engine):
    from core.rules import events
    sc = events._scenario(eng)
    if sc is None:
        return None
    return next((r for r in sc.rules_changed if r.rule == "22.2"), None)


def mets_used(eng: Engine) -> bool:
    """24.0 c), 25.0 c), 26.0 c), 27.0 d): the scenario's ``rules_changed`` entry for 22.2."""
    r = _met_rule_use(eng)
    return r is None or r.use != "no"


def track_allowed(eng: Engine, name: str) -> bool:
    """MET tracks not used, except those the scenario names (27.0 d: 'only as the Allied events say')."""
    r = _met_rule_use(eng)
    return r is None or r.use != "no" or CARD_OF.get(name) in r.except_


def activate_track(eng: Engine, name: str, rule: str) -> None:
    """22.2: place the marker situation side up in the 0 box."""
    if not track_allowed(eng, name):
        eng.say(f"MET {name} is not used in this scenario (22.2 not used; {rule})")
        return
    mets = eng.state.vars.setdefault("met", {})
    if mets.get(name, {}).get("active"):
        return
    mets[name] = {"box": 0, "crisis": False, "active": True, "since": eng.state.gt}
    eng.say(f"MET {name} track is activated (22.2; {rule})")


def _hook_value(eng: Engine, name: str, hook: str) -> int:
    """How many times a MET card's DRM applies (its ``hook``; 0 = not in effect)."""
    from core.rules import events
    kind, _, arg = hook.partition(":")
    if kind == "axis_in_egypt":
        return 1 if events.axis_in_egypt(eng) else 0
    if kind == "gt_at_least_10":
        return 1 if eng.state.gt >= 10 else 0
    if kind == "met_in_crisis":
        t = track(eng, arg)
        return 1 if t and t.get("crisis") else 0
    if kind == "card_played":
        return 1 if events.played(eng, arg) else 0
    if kind == "axis_air_on_track":
        return sum(1 for u in eng.state.units.values() if u.side == AXIS and u.loc == track_box(name)
                   and getattr(all_counters().get(offmap.base_id(u.id)), "kind", "") == "air")
    if kind == "arab_revolt_units_on_track":
        return sum(1 for u in eng.state.units.values() if u.side == AXIS and u.loc == track_box(name)
                   and u.flags.get("committed") == "AXC-14")
    return 0


def _drm(eng: Engine, name: str) -> list[tuple[int, str]]:
    """The situation DRMs printed on the track's card (resources/cards, ``met.drms``)."""
    out = []
    cid = CARD_OF[name]
    for d in params(name).drms:
        n = _hook_value(eng, name, d.hook) if d.hook else 0
        if n:
            out.append((d.value * n, f"{d.condition}{f' x{n}' if n > 1 else ''} ({cid})"))
    return out


def situation_roll(eng: Engine, name: str) -> None:
    """22.2 a)-c): roll 1d6 + DRMs; within the card's range the marker advances; beyond the last box: crisis."""
    t = eng.state.vars["met"][name]
    if t.get("resolved"):
        return
    d = eng.roll(1, f"MET {name} situation")[0]
    drms = _drm(eng, name)
    total = d + sum(x for x, _ in drms)
    low = params(name).advance[0]
    if total >= low:
        if t["box"] >= TRACKS[name]:
            if not t["crisis"]:
                t["crisis"] = True
                eng.say(f"MET {name}: {total} — the marker flips to its crisis side (22.2 c)")
                _on_crisis(eng, name)
        else:
            t["box"] += 1
            eng.say(f"MET {name}: {total} — the marker advances to box {t['box']} (22.2 b; {CARD_OF[name]} {low}-6)")
    else:
        eng.say(f"MET {name}: {total} — no change (22.2; {CARD_OF[name]} advances on {low}-6)")


def _on_crisis(eng: Engine, name: str) -> None:
    if name == "Pacific":
        pacific_withdrawals(eng)


def pacific_withdrawals(eng: Engine) -> None:
    """ALC-19 a)-c): the units on the card (and ALC-18's Australians if incomplete) must be withdrawn."""
    from core import cards
    from core.rules import events
    units: list[str] = []
    for w in cards.card("ALC-19").withdrawals:
        if "ALC-18" in w.note and (events.status(eng, "ALC-18") == "discarded"
                                   and eng.state.cards["ALC-18"].get("completed_gt")):
            continue   # b) only if ALC-18 has not been completed
        units += [u for u in w.units if u in eng.state.units]
    eng.state.vars["pacific_withdrawal"] = {"gt": eng.state.gt, "units": units, "min_cf": PACIFIC_MIN_CF}
    eng.state.vars.setdefault("withdrawals", []).append(
        {"gt": eng.state.gt, "units": units, "rule": "23.1 ALC-19", "min_cf": PACIFIC_MIN_CF})


#: ALC-19 c): the withdrawn units' total combat strength, made up with RP
PACIFIC_MIN_CF = 43


def pacific_status(eng: Engine) -> dict:
    """ALC-19 c), d): outstanding units, CF withdrawn, RP still owed (1 RP makes up 1 CF, R-MET-PACIFIC-RP)."""
    rec = eng.state.vars.get("pacific_withdrawal")
    if not rec:
        return {"due": False}
    outstanding, cf = [], 0
    for uid in rec["units"]:
        u = eng.state.units.get(uid)
        if u is None:
            continue
        if u.loc == offmap.REMOVED and u.flags.get("withdrawn"):
            cf += all_counters()[offmap.base_id(uid)].values(u.steps)[0]
        elif u.loc != offmap.REMOVED and not u.loc.startswith("box:Destroyed"):
            outstanding.append(uid)
    cf += int(rec.get("rp_spent", 0))
    return {"due": True, "outstanding": outstanding, "cf": cf, "rp_owed": max(0, rec["min_cf"] - cf)}


def pacific_spend_rp(eng: Engine) -> None:
    """ALC-19 c): once the units are withdrawn, Allied RP in play are expended to bring the total to 43."""
    rec = eng.state.vars.get("pacific_withdrawal")
    stt = pacific_status(eng)
    if not stt.get("due") or stt["outstanding"] or not stt["rp_owed"]:
        return
    rps = sorted(u.id for u in eng.state.units.values() if u.side == ALLIED and offmap.base_id(u.id).endswith("-RP")
                 and offmap.in_play(u))
    for uid in rps[:stt["rp_owed"]]:
        offmap.remove_unit(eng, uid, "23.1 ALC-19 c", "RP expended to make up the Pacific withdrawals to 43 CF")
        rec["rp_spent"] = int(rec.get("rp_spent", 0)) + 1


def crisis_effects(eng: Engine) -> None:
    """Each Events Phase a track is in crisis: the effects its card lists (``met.crisis``: ES per GT; ALC-19 d)
    keeps MET Pacific in crisis until its withdrawals are complete)."""
    from core.rules import events
    for name in TRACKS:
        t = track(eng, name)
        if not t or not t.get("crisis"):
            continue
        cid = CARD_OF[name]
        if name == "Pacific":
            pacific_spend_rp(eng)
            stt = pacific_status(eng)
            if stt.get("due") and not stt["outstanding"] and not stt["rp_owed"]:
                t["crisis"], t["resolved"] = False, True
                eng.state.cards.get("ALC-19", {})["withdrawal_complete"] = True
                eng.say("MET Pacific: the withdrawals and the 43-CF minimum are complete; the crisis ends (23.1 ALC-19 d)")
                continue
        if cid not in eng.state.cards:
            continue
        for eff in params(name).crisis:
            if eff.es_per_gt:
                events.es_shift(eng, cid, eff.es_per_gt, f"MET {name} in crisis ({cid}: {eff.text})")


def nrv_port_capacity_in_crisis(eng: Engine) -> int | None:
    """22.1: the smallest NRV port capacity a track in crisis sets (ALC-5: 4), None if none does."""
    caps = [eff.nrv_port_capacity for name in TRACKS for eff in params(name).crisis
            if eff.nrv_port_capacity and (t := eng.state.vars.get("met", {}).get(name)) and t.get("active")
            and t.get("crisis")]
    return min(caps) if caps else None


def met_combat_dice(eng: Engine, name: str) -> int:
    """22.2.2: CF on the track (armour doubled; mountain infantry doubled in mountain boxes) / 10 rounded up,
    + 1 die per Allied air GS and bombardment factor, - 1 per Axis air GS and bombardment factor."""
    cf = 0
    air = 0
    for u in eng.state.units.values():
        if u.loc != track_box(name):
            continue
        c = all_counters().get(offmap.base_id(u.id))
        if c is None:
            continue
        if c.kind == "air":
            air += (c.gs + c.bomb) * (1 if u.side == ALLIED else -1)
        elif u.side == ALLIED:
            v = c.values(u.steps)[0]
            mountain = "mountain" in c.unit_type and eng.state.vars["met"][name]["box"] in params(name).mountain_boxes
            cf += v * 2 if (c.unit_type.startswith("arm") or mountain) else v
    return max(0, math.ceil(cf / 10) + air)


def met_combat(eng: Engine, name: str) -> int:
    """22.2.2: each 5 or 6 reduces the situation one box or flips Crisis to Situation; a reduction in the 0
    box deactivates the track unless it is never deactivated."""
    t = eng.state.vars["met"][name]
    n = met_combat_dice(eng, name)
    hits = sum(1 for d in eng.roll(n, f"MET {name} combat") if d >= 5) if n else 0
    for _ in range(hits):
        if not t["active"]:
            break
        if t["crisis"]:
            t["crisis"] = False
        elif t["box"] > 0:
            t["box"] -= 1
        elif can_deactivate(eng, name):
            deactivate(eng, name)
    return hits


def can_deactivate(eng: Engine, name: str) -> bool:
    """A reduction in the 0 box deactivates the track as its card says (``deactivate_hook``): never (ALC-5, 6,
    19); AOI only on GT 10 or later (ALC-4); Greece and Syria at any time (ALC-16, ALC-17)."""
    p = params(name)
    if name in NEVER_DEACTIVATED:
        return False
    if p.deactivate_hook == "aoi_deactivate_check":
        return eng.state.gt >= 10
    return True


def end_of_gt(eng: Engine) -> None:
    """ALC-16: MET Greece is deactivated automatically at the end of GT 12 (the fall of Crete)."""
    t = track(eng, "Greece")
    if t and params("Greece").deactivate_hook == "greek_deactivate_check" and eng.state.gt >= 12:
        deactivate(eng, "Greece")


def deactivate(eng: Engine, name: str) -> None:
    """23.0 c): the track goes inactive; units on it may move to the NRV (Greece: ALC-16 d-f)."""
    from core.rules import air, events
    t = eng.state.vars["met"][name]
    t["active"] = False
    t["deactivated_gt"] = eng.state.gt
    eng.say(f"MET {name} is deactivated (22.2.2)")
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.loc != track_box(name):
            continue
        c = all_counters()[offmap.base_id(u.id)]
        if u.flags.get("committed") == "AXC-14":
            offmap.remove_unit(eng, u.id, "23.2 AXC-14 c", "committed to SW Asia; permanently eliminated")
        elif c.kind == "air":
            if u.side == ALLIED and name == "Greece":
                air.to_trt(eng, u.id, eng.state.gt + 1, "23.1 ALC-16 e")
            else:
                u.loc = air.box(u.side, "AvailableNext")
        elif name == "Greece":
            d = eng.roll(1, f"ALC-16 d) morale check for {u.id}")[0]
            if d != 6 and d + c.morale <= 6:
                u.loc = offmap.NRV
            elif u.steps > 1:
                u.steps -= 1
                u.loc = offmap.NRV
            else:
                offmap.destroy_unit(eng, u.id, "23.1 ALC-16 d")
        else:
            u.loc = offmap.NRV
    if name == "Greece":
        eng.state.vars["crete_axis"] = True    # 22.3
        if events.status(eng, "AXC-13") == "deck":
            events.schedule(eng, eng.state.gt + 1, "AXC-13", "play", "23.2 AXC-13; 22.3")
    card = CARD_OF[name]
    if events.status(eng, card) == "in_play" and card == "ALC-4":
        events.schedule(eng, eng.state.gt + 1, card, "discard", "23.1 ALC-4")


@procedure("met_rolls")
class MetRolls(Procedure):
    """4.1 I.4: the Allied player rolls for each MET in play (22.2 a)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done"):
            return None
        active = [n for n in TRACKS if track(eng, n)]
        if not active:
            return Decision(side=ALLIED, kind="step", prompt="No MET track is in play (22.2)", rule="4.1 I.4; 22.2",
                            options=(Option(action=Action(kind="done", side=ALLIED), label="Done"),))
        return Decision(side=ALLIED, kind="met_rolls", prompt=f"Roll the situation of MET {', '.join(active)}",
                        rule="4.1 I.4; 22.2",
                        options=(Option(action=Action(kind="roll_met", side=ALLIED), label="Roll for each MET track"),))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind == "done" and not [n for n in TRACKS if track(eng, n)]:
            frame.data["done"] = True
            return
        if action.kind != "roll_met":
            return super().apply(eng, frame, action)
        for n in TRACKS:
            if track(eng, n):
                situation_roll(eng, n)
        frame.data["done"] = True


on_step("I.4", "met_rolls")


def ensure_tracks(eng: Engine) -> None:
    """Tracks whose cards are in play at set-up (ALC-4, ALC-5 in 28.0/33.0; ALC-6, 16, 17 in 27.0/32.0)."""
    st = eng.state
    if st.vars.get("met_init"):
        return
    st.vars["met_init"] = True
    for name, cid in CARD_OF.items():
        if st.cards.get(cid, {}).get("status") == "in_play" and name != "Pacific":
            if cid in st.vars.get("card_reinf_only", {}) and CARDS_MET_ONLY_REINF(cid):
                continue   # 27.2: ALC-16 / ALC-17 used for their listed reinforcements only
            activate_track(eng, name, f"{cid} in play at set-up")


def CARDS_MET_ONLY_REINF(cid: str) -> bool:  # noqa: N802 - reads like the rule
    """A MET card the scenario uses for listed GTs of reinforcements only (27.0 ALC-16 'GT 13, 25')."""
    return True


QUERIES["met"] = lambda eng: dict(eng.state.vars.get("met", {}))
