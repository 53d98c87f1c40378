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

#: C14: highest box of each track (boxes 0..n)
TRACKS = {"Syria": 5, "SW Asia": 5, "Levant": 3, "Greece": 4, "AOI": 5, "Pacific": 3}
CARD_OF = {"AOI": "ALC-4", "Levant": "ALC-5", "SW Asia": "ALC-6", "Greece": "ALC-16", "Syria": "ALC-17",
           "Pacific": "ALC-19"}
#: tracks that are never deactivated (ALC-5, ALC-6 texts); the Pacific cannot be fought on (22.2.1)
NEVER_DEACTIVATED = {"Levant", "SW Asia", "Pacific"}
ADVANCE_MIN = {"Levant": 4}   # ALC-5: advance on 4-6; others reconstructed likewise


def track_box(name: str) -> str:
    return f"track:MET-{name.replace(' ', '')}"


def track(eng: Engine, name: str) -> dict | None:
    t = eng.state.vars.get("met", {}).get(name)
    return t if t and t.get("active") else None


def mets_used(eng: Engine) -> bool:
    """24.0 c), 25.0, 26.0 c): MET tracks are not used in the short scenarios."""
    return eng.state.scenario not in ("fox-killed", "oconnors-war", "sonnenblume", "run-for-tunis",
                                      "trail-of-the-fox", "tunisian-campaign")


def activate_track(eng: Engine, name: str, rule: str) -> None:
    """22.2: place the marker situation side up in the 0 box."""
    if not mets_used(eng) and eng.state.scenario not in ("desert-fox",):
        eng.say(f"MET {name} is not used in this scenario (24.0 c; {rule})")
        return
    mets = eng.state.vars.setdefault("met", {})
    if mets.get(name, {}).get("active"):
        return
    mets[name] = {"box": 0, "crisis": False, "active": True, "since": eng.state.gt}
    eng.say(f"MET {name} track is activated (22.2; {rule})")


def _drm(eng: Engine, name: str) -> list[tuple[int, str]]:
    from core.rules import events
    out = []
    if name == "Levant":
        syr = track(eng, "Syria")
        if syr and syr.get("crisis"):
            out.append((1, "Syria in crisis (ALC-5)"))
        if events.axis_in_egypt(eng):
            out.append((1, "AXC-9 in effect (ALC-5)"))
    axis_air = sum(1 for u in eng.state.units.values() if u.side == AXIS and u.loc == track_box(name))
    if axis_air:
        out.append((axis_air, f"{axis_air} Axis unit(s) on the track (ALC-5; 22.2.1; AXC-14)"))
    return out


def situation_roll(eng: Engine, name: str) -> None:
    """22.2 a)-c): roll 1d6 + DRMs; within the range the marker advances; beyond the last box: crisis."""
    t = eng.state.vars["met"][name]
    d = eng.roll(1, f"MET {name} situation")[0]
    drms = _drm(eng, name)
    total = d + sum(x for x, _ in drms)
    if total >= ADVANCE_MIN.get(name, 4):
        if t["box"] >= TRACKS[name]:
            if not t["crisis"]:
                t["crisis"] = True
                eng.say(f"MET {name}: {total} — the marker flips to its crisis side (22.2 c)")
                _on_crisis(eng, name)
        else:
            t["box"] += 1
            eng.say(f"MET {name}: {total} — the marker advances to box {t['box']} (22.2 b)")
    else:
        eng.say(f"MET {name}: {total} — no change (22.2)")


def _on_crisis(eng: Engine, name: str) -> None:
    from core.rules import events
    if name == "Pacific":
        # ALC-19 a)-c): Japan and the US at war; the listed units (and ALC-18's Australians) must be withdrawn
        items = events.card_items(eng, "ALC-19", "crisis")
        units = [i["unit"] for i in items]
        if events.status(eng, "ALC-18") == "in_play":
            units += [u.id for u in eng.state.units.values() if offmap.base_id(u.id).startswith("AU-")]
        eng.state.vars.setdefault("withdrawals", []).append(
            {"gt": eng.state.gt, "units": units, "rule": "23.1 ALC-19", "min_cf": 43})


def crisis_effects(eng: Engine) -> None:
    """Effects listed on the cards while a track is in crisis (ALC-5: ES -1)."""
    from core.rules import events
    lev = track(eng, "Levant")
    if lev and lev.get("crisis") and "ALC-5" in eng.state.cards:
        events.es_shift(eng, "ALC-5", -1, "MET Levant in crisis (ALC-5)")


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
            cf += v * 2 if c.unit_type.startswith("arm") else v
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
        elif name not in NEVER_DEACTIVATED:
            deactivate(eng, name)
    return hits


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
        crisis_effects(eng)
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
            if st.scenario in ("desert-fox", "rommels-war") and name in ("Greece", "Syria"):
                continue   # 27.2: ALC-16 / ALC-17 used for their reinforcements only
            activate_track(eng, name, f"{cid} in play at set-up")


QUERIES["met"] = lambda eng: dict(eng.state.vars.get("met", {}))
