"""5.0 Events and 23.0 Event Card Descriptions: the card engine.

Card status lives in ``state.cards[card_id]`` (a dict):

* ``status``: ``deck`` (in the scenario, not yet activated), ``active`` (activated: available for play,
  5.0), ``in_play`` (played / in effect), ``discarded``.
* ``activated_gt``, ``played_gt``, ``plays`` (repeatable cards), plus card-specific bookkeeping.

Cards the scenario does not use are absent.  The Events Phase (4.1 I) runs as:

* I.1 (auto, :func:`events_auto`): scheduled activations (fixed GT and "the GT after"), activation
  conditions, automatic plays, each GT's effects of cards in play (monthly support, reinforcement
  schedules, T+n arrivals, MET-driven ES shifts, Axis in Egypt tracking), Taranto's forced play on GT 9.
* I.2 / I.3 (``events_declare``): the non-initiative, then the initiative player declares cards
  (one option per eligible card and variant, or *done*); choices owed by cards in play this GT
  (ULTRA's benefit, "ES or units") are asked first.
* Discards "at the end of GT n" happen at the end of Phase XX of GT n (:func:`end_of_gt`).

End-scenario shifts go through :func:`es_shift`, which applies each scenario's policy (24.0 d), 26.0 d)).
Rulings: docs/rulings.d/strategic.md (R-EV-*).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from core import calendar
from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, other
from core.engine import (
    CONTINUE, QUERIES, Engine, Procedure, at_phase_end, auto_step, move_end_scenario_marker, on_step, procedure,
)
from core.state import Frame
from core.rules import offmap

# --------------------------------------------------------------------------- card table (23.1, 23.2)


@dataclass
class CardRule:
    """One card's procedure (23.1/23.2).  Hooks get (engine, status dict)."""

    id: str
    title: str
    kind: str                               # at_start | met | reinforcement | monthly | event
    rule: str = ""
    declared: bool = False                  # played by a declaration in I.2/I.3 (otherwise automatic)
    repeatable: bool = False                # may be played each GT (Appeals)
    es_on_play: int = 0                     # ES +n / -n printed on the card (5.0 b)
    discard_after: int | None = None        # discarded at the end of this GT
    then: tuple[str, ...] = ()              # cards put in play when this one is discarded
    activate_when: Callable[[Engine], bool] | None = None   # condition checked each I.1 while in the deck
    playable: Callable[[Engine], str | None] | None = None  # refusal reason, or None when it may be played
    variants: Callable[[Engine], list[tuple[dict, str]]] | None = None  # (args, label) per way to play
    on_play: Callable[[Engine, dict, dict], None] | None = None        # effects (eng, status, args)
    each_gt: Callable[[Engine, dict], None] | None = None              # I.1 while in play
    on_discard: Callable[[Engine, dict], None] | None = None

    @property
    def side(self) -> str:
        return ALLIED if self.id.startswith("ALC") else AXIS

    @property
    def cite(self) -> str:
        return self.rule or ("23.1 " if self.side == ALLIED else "23.2 ") + self.id


CARDS: dict[str, CardRule] = {}


def card(cid: str, title: str, kind: str, **kw: Any) -> CardRule:
    c = CardRule(cid, title, kind, **kw)
    CARDS[cid] = c
    return c


# --------------------------------------------------------------------------- status helpers


def status(eng: Engine, cid: str) -> str | None:
    c = eng.state.cards.get(cid)
    return c.get("status") if c else None


def played(eng: Engine, cid: str) -> bool:
    """The card has been played (is in play or was discarded after play)."""
    c = eng.state.cards.get(cid)
    return bool(c and c.get("played_gt") is not None)


def played_before_this_gt(eng: Engine, cid: str) -> bool:
    c = eng.state.cards.get(cid)
    return bool(c and c.get("played_gt") is not None and c["played_gt"] < eng.state.gt)


def in_effect(eng: Engine, cid: str) -> bool:
    return status(eng, cid) == "in_play"


def afrika_korps(eng: Engine) -> bool:
    """AXC-10/11/12 in effect (19.1.1 Important, R-EV-AK)."""
    return any(played(eng, c) for c in ("AXC-10", "AXC-11", "AXC-12"))


def activate(eng: Engine, cid: str, why: str) -> None:
    c = eng.state.cards.get(cid)
    if c is None or c["status"] != "deck":
        return
    c["status"] = "active"
    c["activated_gt"] = eng.state.gt
    eng.say(f"{cid} {CARDS[cid].title} is activated: {why} ({CARDS[cid].cite})")


def put_in_play(eng: Engine, cid: str, why: str, args: dict | None = None) -> None:
    """Play a card (by declaration or automatically) and carry out its effects."""
    c = eng.state.cards.get(cid)
    if c is None or c["status"] in ("discarded",) or (c["status"] == "in_play" and not CARDS[cid].repeatable):
        return
    rule = CARDS[cid]
    c["status"] = "in_play"
    c.setdefault("activated_gt", eng.state.gt)
    if c.get("played_gt") is None:
        c["played_gt"] = eng.state.gt
    c["plays"] = int(c.get("plays", 0)) + 1
    c["last_play_gt"] = eng.state.gt
    eng.say(f"{cid} {rule.title} is played: {why} ({rule.cite})")
    if rule.es_on_play:
        es_shift(eng, cid, rule.es_on_play, f"{cid} {rule.title} played")
    for k in range(0, 13):   # 5.0 Important / WE-03: T+k items arrive on GT (played + k)
        items = card_items(eng, cid, f"T+{k}")
        if items:
            make_available(eng, cid, items, eng.state.gt + k, f"{rule.cite}; 5.0 T+{k}")
    if rule.on_play:
        rule.on_play(eng, c, args or {})


def discard(eng: Engine, cid: str, why: str) -> None:
    c = eng.state.cards.get(cid)
    if c is None or c["status"] == "discarded":
        return
    rule = CARDS[cid]
    was_in_play = c["status"] == "in_play"
    c["status"] = "discarded"
    c["discarded_gt"] = eng.state.gt
    eng.say(f"{cid} {rule.title} is discarded: {why} ({rule.cite})")
    if rule.on_discard:
        rule.on_discard(eng, c)
    if was_in_play:         # R-EV-DISCARD-UNPLAYED: a card never played has no effects, its "put X into play" neither
        for nxt in rule.then:
            if nxt in eng.state.cards and eng.state.cards[nxt]["status"] == "deck":
                put_in_play(eng, nxt, f"{cid} is discarded")


def schedule(eng: Engine, gt: int, cid: str, what: str, rule: str) -> None:
    """Put a card activation/play on the calendar (fixed-GT and "the GT after" triggers)."""
    eng.state.vars.setdefault("card_schedule", []).append({"gt": gt, "card": cid, "what": what, "rule": rule})


# --------------------------------------------------------------------------- end-scenario shifts (5.0 b)


def es_shift(eng: Engine, cid: str, delta: int, why: str) -> bool:
    """Shift the end scenario marker for a card, subject to the scenario's policy.

    ``normal``: every shift applies (28.0, 32.0, 33.0).  ``ignore``: "Changes to the GT scenario ends listed
    on all cards are ignored" (24.0 d), 25.0 d); also 29.0-31.0, R-EV-ES-FIXED).  ``appeals``: only ALC-11 and
    AXC-4 change the length, each once (26.0 d), and 27.0 by 'All instructions in 26.0', R-EV-ES-APPEALS).
    """
    if not delta:
        return False
    policy = eng.state.vars.get("es_policy", "normal")
    rule = CARDS[cid].cite if cid in CARDS else cid
    allowed = eng.state.vars.get("es_policy_cards") or ["ALC-11", "AXC-4"]
    if policy == "ignore" or (policy == "appeals" and cid not in allowed) \
            or cid in eng.state.vars.get("es_ignored_cards", []):
        eng.say(f"{why}: ES {delta:+d} is ignored in this scenario ({eng.state.vars.get('es_policy_rule', '')})")
        return False
    move_end_scenario_marker(eng, delta, why, rule)
    return True


# --------------------------------------------------------------------------- card data (resources/cards)


def card_data(cid: str) -> Any:
    """The card's data record from ``core.cards`` (resources/cards/*.toml), None for an id that is no card.
    Card files that cannot be read raise (``core.cards.CardError``): never a card without its data."""
    from core import cards as _cards

    return _cards.all_cards().get(cid)


def _field(rec: Any, name: str, default: Any = None) -> Any:
    if rec is None:
        return default
    if isinstance(rec, dict):
        return rec.get(name, default)
    return getattr(rec, name, default)


def card_items(eng: Engine, cid: str, gt_key: str | int) -> list[dict]:
    """Reinforcement items printed on a card for a GT (``"each"``, an int GT, or ``"T+n"``).

    Each item: {unit, count, to, depleted, training_box}.  Read from ``core.cards`` (resources/cards), the one
    place a card's contents live.
    """
    rec = card_data(cid)
    if rec is not None and hasattr(rec, "reinforcements"):
        out: list[dict] = []
        key = str(gt_key)
        for a in rec.reinforcements:
            if a.hook == "fifth_army_release":
                continue   # AXC-8: releases of divisions already on the map, not arrivals (fifth_army_schedule)
            if key == "each":
                hit = bool(a.each_gt)
            elif key.startswith("T+"):
                hit = a.t == int(key[2:])
            elif key.lstrip("-").isdigit():
                hit = (not a.each_gt) and a.t < 0 and a.gt == int(key)
            else:
                hit = False
            if not hit:
                continue
            where = a.where if a.where and a.where != "box:Available" else ""
            for unit in a.units:
                out.append({"unit": unit, "count": 1, "to": where, "depleted": unit in a.depleted,
                            "training_box": a.training_box})
        return out
    return []


def make_available(eng: Engine, cid: str, items: list[dict], gt: int, rule: str) -> None:
    """7.1: reinforcements become available on the card (arriving via 7.2/7.3 in the Reinforcement Phase)."""
    from core.rules import reinforcements

    gt += int(eng.state.vars.get("card_arrival_delay", {}).get(cid, 0))   # 27.2 ALC-6: 12 GTs late
    for it in items:
        for _ in range(int(it.get("count", 1))):
            reinforcements.schedule_arrival(eng, it["unit"], gt, rule, to=it.get("to") or "",
                                            depleted=bool(it.get("depleted")))


# --------------------------------------------------------------------------- AXC-9 Axis in Egypt


def axc9_params() -> dict:
    """AXC-9's conditions from its card data (``params``, resources/cards/axis.toml; R-EV-AXC9)."""
    return dict(_field(card_data("AXC-9"), "params", {}) or {})


def _in_supply(u: Any) -> bool:
    return not (u.ogs or u.isolated)


def axis_in_egypt_now(eng: Engine) -> bool:
    """AXC-9: an Axis combat unit in general supply occupies Sidi Barrani or any hex of Egypt east of it, or the
    Axis controls Mersa Matruh."""
    p = axc9_params()
    m, col = str(p.get("occupy_map", "W")), int(p.get("occupy_min_column", 10))
    need_gs = p.get("occupy_supply", "general") == "general"
    for u in eng.state.units.values():
        loc = u.loc
        if u.side != AXIS or len(loc) != 5 or loc[0] != m or not loc[1:].isdigit():
            continue
        if int(loc[3:5]) >= col and _is_ground(u.id) and (_in_supply(u) or not need_gs):
            return True
    from core.rules import victory_rules
    return any(victory_rules.controller(eng, h) == AXIS for h in p.get("control", []))


def axis_in_egypt(eng: Engine) -> bool:
    """AXC-9 "in effect": its conditions were met in this GT's Events Phase (or now, outside it)."""
    rec = eng.state.vars.get("axc9", {})
    return bool(rec.get("met_gt") == eng.state.gt) or axis_in_egypt_now(eng)


def axis_in_egypt_consecutive(eng: Engine) -> int:
    return int(eng.state.vars.get("axc9", {}).get("consecutive", 0))


def _is_ground(uid: str) -> bool:
    c = all_counters().get(offmap.base_id(uid))
    return bool(c and c.kind == "combat")


def _track_axc9(eng: Engine, c: dict) -> None:
    """AXC-9: checked in every Events Phase; counts consecutive GTs (AXC-5 d), AXC-18 c))."""
    rec = eng.state.vars.setdefault("axc9", {"consecutive": 0})
    if axis_in_egypt_now(eng):
        rec["consecutive"] = int(rec.get("consecutive", 0)) + 1 if rec.get("met_gt") == eng.state.gt - 1 else 1
        rec["met_gt"] = eng.state.gt
        rec.setdefault("first_gt", eng.state.gt)
        eng.say(f"AXC-9 Axis in Egypt: conditions met ({rec['consecutive']} consecutive GT) (23.2 AXC-9)")
    else:
        rec["consecutive"] = 0


# --------------------------------------------------------------------------- the 48 cards


def _at_start(cid: str, title: str) -> None:
    card(cid, title, "at_start", rule=f"23.{1 if cid.startswith('ALC') else 2} {cid}; 3.1")


for _cid, _t in (("ALC-1", "MEC At Start (Off-map)"), ("ALC-2", "MEC At Start (Map W)"), ("ALC-3", "VF At Start"),
                 ("AXC-1", "At Start (Map L)"), ("AXC-2", "At Start (Maps C and W)")):
    _at_start(_cid, _t)

# MET cards: the tracks themselves are run by met.py
card("ALC-4", "MET AOI", "met")
card("ALC-5", "MET Levant", "met")
card("ALC-6", "MET SW Asia", "met", on_play=lambda eng, c, a: schedule(eng, eng.state.gt + 1, "ALC-6", "met:SW Asia",
                                                                    "23.1 ALC-6: the track is activated the next GT"))


def _reinf_each_gt(cid: str) -> Callable[[Engine, dict], None]:
    def fn(eng: Engine, c: dict) -> None:
        if eng.state.vars.get("card_reinf_ignored", {}).get(cid) == "all":
            return
        only = eng.state.vars.get("card_reinf_only", {}).get(cid)
        gt = eng.state.gt
        if only is not None and gt not in only:
            return
        items = card_items(eng, cid, gt)
        if items:
            make_available(eng, cid, items, gt, CARDS[cid].cite)
    return fn


card("ALC-7", "MEC Reinforcements (1940)", "reinforcement", discard_after=7, then=("ALC-8",), each_gt=_reinf_each_gt("ALC-7"))
card("ALC-8", "MEC Reinforcements (Jan-Apr 1941)", "reinforcement", discard_after=11, then=("ALC-9",), each_gt=_reinf_each_gt("ALC-8"))
card("ALC-9", "MEC Reinforcements (May-Nov 1941)", "reinforcement", discard_after=18, each_gt=_reinf_each_gt("ALC-9"))


def support_source(cid: str) -> str:
    """The rule a card's each-GT support arrives by (the ledger's ``source``)."""
    return CARDS[cid].cite + " (each GT)"


def pay_support(eng: Engine, cid: str, c: dict) -> None:
    """5.0 Monthly Support / 23.1 ALC-10 Important / 23.2 AXC-3 Important: the items a card in play lists for
    *each GT* are available every GT, cumulative with the Monthly Support card's.  A scenario that restricts the
    card's reinforcements (``reinforcements = "none"`` / ``"only"``) also sets its support aside unless its card
    line says ``support = true`` (26.1/26.2: cards "only listed to note the level of support given as monthly
    support"; R-SC-SUPPORT)."""
    if cid in eng.state.vars.get("card_support_off", []):
        return
    from core import cards as _cards
    rec = card_data(cid)
    if rec is None:
        return
    gt = eng.state.gt
    played_gt = int(c.get("played_gt", gt) if c.get("played_gt") is not None else gt)
    items = [{"unit": unit, "count": 1, "to": a.where if a.where != "box:Available" else "", "depleted": False}
             for a in _cards.reinforcements_due(rec, played_gt, gt) if a.each_gt for unit in a.units]
    if items:
        make_available(eng, cid, items, gt, support_source(cid))


card("ALC-10", "MEC Monthly Support", "monthly")
card("AXC-3", "Monthly Support", "monthly")


def _appeal_play(eng: Engine, c: dict, args: dict) -> None:
    cid = c["id"]
    if not any(card_items(eng, cid, f"T+{k}") for k in range(3)):
        make_available(eng, cid, card_items(eng, cid, "each"), eng.state.gt, CARDS[cid].cite)


def _appeal_playable(cid: str) -> Callable[[Engine], str | None]:
    def fn(eng: Engine) -> str | None:
        c = eng.state.cards[cid]
        if c.get("last_play_gt") == eng.state.gt:
            return f"{cid} may be played once each GT ({CARDS[cid].cite})"
        if eng.state.vars.get("es_policy") == "appeals" and c.get("plays", 0) >= 1:
            return f"{cid} may be played once during this scenario (26.0 d)"
        return None
    return fn


card("ALC-11", "Allies Appeal", "event", declared=True, repeatable=True, es_on_play=-1,
     activate_when=lambda eng: played_before_this_gt(eng, "ALC-12"),
     playable=_appeal_playable("ALC-11"), on_play=_appeal_play)
card("AXC-4", "Axis Appeal", "event", declared=True, repeatable=True, es_on_play=+1,
     activate_when=lambda eng: (eng.state.vars.get("axc9", {}).get("met_gt", 99) < eng.state.gt)
     or played_before_this_gt(eng, "AXC-10"),
     playable=_appeal_playable("AXC-4"), on_play=_appeal_play)


# ALC-12 Taranto
def _taranto_activates(eng: Engine) -> bool:
    return played_before_this_gt(eng, "AXC-5") and eng.state.vars.get("axc9", {}).get("met_gt") is not None


def _taranto_play(eng: Engine, c: dict, args: dict) -> None:
    gt = eng.state.gt
    # c) Eighth Army is put in play if all other requirements are met
    if status(eng, "ALC-14") == "deck" and (axis_in_egypt(eng) or played(eng, "AXC-10")):
        activate(eng, "ALC-14", "ALC-12 played and AXC-9 met or AXC-10 played (23.1 ALC-14 a)")
    # d) ULTRA activated on GT 7 (at once if played after GT 7: Important)
    if gt >= 7:
        activate(eng, "ALC-13", "ALC-12 played after GT 7: the GT-7 effects are implemented at once (23.1 ALC-12)")
    else:
        schedule(eng, 7, "ALC-13", "activate", "23.1 ALC-12 d")
    schedule(eng, max(12, gt), "ALC-21", "play", "23.1 ALC-12 e; ALC-21")
    schedule(eng, gt + 1, "ALC-11", "activate", "23.1 ALC-11")
    for cid in ("ALC-16", "ALC-17"):
        if played(eng, "AXC-5"):
            schedule(eng, gt + 1, cid, "play", f"23.1 {cid}")
    if played(eng, "AXC-5"):
        schedule(eng, gt + 1, "AXC-10", "activate", "23.2 AXC-10")
        if status(eng, "AXC-16") == "deck":
            put_in_play(eng, "AXC-16", "AXC-5 and ALC-12 have been played (23.2 AXC-16)")


def _taranto_each_gt(eng: Engine, c: dict) -> None:
    pass


card("ALC-12", "Taranto", "event", declared=True, es_on_play=-2, discard_after=12,
     activate_when=_taranto_activates, on_play=_taranto_play)


# ALC-13 ULTRA
ULTRA_BENEFITS = ("initiative", "naval_losses", "none")


def _ultra_each_gt(eng: Engine, c: dict) -> None:
    if eng.state.gt > int(c.get("activated_gt", eng.state.gt)) or c.get("from_start"):
        owe(eng, ALLIED, "ultra", "ALC-13", "23.1 ALC-13")


card("ALC-13", "ULTRA", "event", each_gt=_ultra_each_gt,
     activate_when=None)


# ALC-14 / ALC-15 Eighth Army
def _eighth_activates(eng: Engine) -> bool:
    return played(eng, "ALC-12") and (axis_in_egypt(eng) or played(eng, "AXC-10"))


def _eighth_play(eng: Engine, c: dict, args: dict) -> None:
    schedule(eng, eng.state.gt + 1, "ALC-20", "activate", "23.1 ALC-14 e")
    if eng.state.gt > 8 and not c.get("gt8_done"):
        c["gt8_late"] = True  # b) the GT 8 items are in effect the GT the card is played
        owe(eng, ALLIED, "es_or_units", "ALC-14", "23.1 ALC-14 b, d", gt_key=8)


def _eighth_each_gt(eng: Engine, c: dict) -> None:
    if eng.state.gt in (8, 18):
        owe(eng, ALLIED, "es_or_units", "ALC-14", "23.1 ALC-14 d", gt_key=eng.state.gt)


card("ALC-14", "Eighth Army (1941)", "event", declared=True, es_on_play=-4, discard_after=18, then=("ALC-15",),
     activate_when=_eighth_activates, on_play=_eighth_play, each_gt=_eighth_each_gt)


def _eighth42_each_gt(eng: Engine, c: dict) -> None:
    if eng.state.gt in (26, 27, 28):
        owe(eng, ALLIED, "es_or_units", "ALC-15", "23.1 ALC-15 a", gt_key=eng.state.gt)


card("ALC-15", "Eighth Army (1942)", "event", discard_after=30, each_gt=_eighth42_each_gt)


# ALC-16 Greek Campaign, ALC-17 Syrian Campaign, ALC-19 Pacific Theater (tracks in met.py)
def _met_card_play(track: str) -> Callable[[Engine, dict, dict], None]:
    def fn(eng: Engine, c: dict, args: dict) -> None:
        from core.rules import met
        met.activate_track(eng, track, CARDS[c.get("id", "")].cite if c.get("id") in CARDS else track)
    return fn


def _greek_play(eng: Engine, c: dict, args: dict) -> None:
    from core.rules import met
    met.activate_track(eng, "Greece", "23.1 ALC-16")
    # b) withdrawal obligation: four infantry steps and two armour steps, during the first Allied Movement Phase
    eng.state.vars["greek_withdrawal"] = {"gt": eng.state.gt, "infantry_steps": 4, "armor_steps": 2}


def _greek_each_gt(eng: Engine, c: dict) -> None:
    # a) the ES +1 per GT in crisis is the card's crisis effect, applied by met.crisis_effects
    if eng.state.gt == 13 and not c.get("gt13_done"):
        c["gt13_done"] = True
        owe(eng, ALLIED, "es_or_units", "ALC-16", "23.1 ALC-16 c", gt_key=13)


card("ALC-16", "Greek Campaign", "met", on_play=_greek_play, each_gt=_greek_each_gt)


def _syria_each_gt(eng: Engine, c: dict) -> None:
    """ALC-17 a): ES -1 per GT in crisis — the card's crisis effect, applied by met.crisis_effects."""


card("ALC-17", "Syrian Campaign", "met", on_play=lambda eng, c, a: __import__("core.rules.met", fromlist=["x"]).activate_track(eng, "Syria", "23.1 ALC-17"),
     each_gt=_syria_each_gt)


# ALC-18 Australian Corps
AUSTRALIAN_CF_MIN = 36   # 23.1 ALC-18 b)


def australian_corps_progress(eng: Engine) -> dict:
    """ALC-18 a)-c): the Australian units withdrawn to the NRV / MET Levant, their CF, GTs spent."""
    from core.rules import met
    aus = [u for u in eng.state.units.values() if offmap.base_id(u.id).startswith("AU-") and _is_ground(u.id)]
    levant = met.track_box("Levant")
    placed = [u for u in aus if u.loc in (offmap.NRV, levant)]
    gone = [u for u in aus if u.loc.startswith("box:Destroyed") or u.isolated]
    missing = [u.id for u in aus if u not in placed and u not in gone]
    cf = sum(all_counters()[offmap.base_id(u.id)].values(u.steps)[0] for u in placed)
    return {"placed": [u.id for u in placed], "missing": missing, "cf": cf}


def _aus_each_gt(eng: Engine, c: dict) -> None:
    if c.get("completed_gt"):
        return
    prog = australian_corps_progress(eng)
    if not prog["missing"] and prog["cf"] >= AUSTRALIAN_CF_MIN:
        c["since"] = c.get("since") or eng.state.gt
        if eng.state.gt - c["since"] >= 3:
            c["completed_gt"] = eng.state.gt
            eng.say("ALC-18 Australian Corps: conditions met for three complete GTs; the event is complete (23.1 ALC-18 c)")
            discard(eng, "ALC-18", "all conditions met")
    else:
        c["since"] = None


card("ALC-18", "Australian Corps", "event", each_gt=_aus_each_gt)


def _pacific_each_gt(eng: Engine, c: dict) -> None:
    """ALC-19 d): ES -1 per GT in crisis until the withdrawals are complete — met.crisis_effects."""


card("ALC-19", "Pacific Theater", "met", each_gt=_pacific_each_gt,
     on_play=lambda eng, c, a: __import__("core.rules.met", fromlist=["x"]).activate_track(eng, "Pacific", "23.1 ALC-19"))


# ALC-20 Brigade Groups
def listed_gts(cid: str) -> list[int]:
    """The GTs a card lists reinforcements for (its ``gt`` items; not each-GT or T+n items)."""
    rec = card_data(cid)
    return sorted({a.gt for a in getattr(rec, "reinforcements", ()) if not a.each_gt and a.t < 0 and a.gt is not None})


def _brigade_play(eng: Engine, c: dict, args: dict) -> None:
    """23.1 ALC-20 a)-b): 1d6 + 20 <= the current GT: "the Allied player receives the reinforcements listed on the
    card on the GTs listed", each on its GT or, if that GT has passed, on the GT the card is played (7.1).  The card
    is resolved once (5.0 "each occurs only once per game"): a failed roll discards it (R-EV-ALC20)."""
    gt = eng.state.gt
    d = eng.roll(1, "ALC-20 Brigade Groups: 1d6 + 20")[0]
    if d + 20 <= gt:
        c["success_gt"] = gt
        eng.say(f"ALC-20: {d} + 20 = {d + 20} <= GT {gt}: the reinforcements are received (23.1 ALC-20 b)")
        for listed in listed_gts("ALC-20"):
            items = card_items(eng, "ALC-20", listed)
            if items:
                make_available(eng, "ALC-20", items, max(listed, gt), "23.1 ALC-20 b; 7.1")
    else:
        eng.say(f"ALC-20: {d} + 20 = {d + 20} > GT {gt}: no reinforcements (23.1 ALC-20 b; R-EV-ALC20)")
        discard(eng, "ALC-20", "the roll failed: the event occurs once (5.0)")


card("ALC-20", "Brigade Groups", "event", declared=True,
     playable=lambda eng: None if eng.state.gt >= 21 else "ALC-20 may be played on GT 21 or after (23.1 ALC-20)",
     on_play=_brigade_play)


# ALC-21..ALC-24 Operation Torch
def _torch_b1_play(eng: Engine, c: dict, args: dict) -> None:
    if status(eng, "AXC-19") == "deck":
        put_in_play(eng, "AXC-19", "ALC-21 Operation Torch Buildup I is played (23.2 AXC-19)")


card("ALC-21", "Operation Torch, Buildup I", "reinforcement", discard_after=29, then=("ALC-22",),
     on_play=_torch_b1_play, each_gt=_reinf_each_gt("ALC-21"))
card("ALC-22", "Operation Torch, Buildup II", "reinforcement", each_gt=_reinf_each_gt("ALC-22"))


def _torch_invasion_play(eng: Engine, c: dict, args: dict) -> None:
    eng.state.vars["fna_in_play"] = True   # d) Torch East and FNA immediately playable (22.7)
    eng.state.vars["torch_gt"] = eng.state.gt
    for cid in ("ALC-24", "ALC-25", "ALC-26", "ALC-27", "AXC-18", "AXC-19"):
        if status(eng, cid) == "deck":
            if cid == "ALC-25":
                put_in_play(eng, cid, "ALC-23 is played (23.1 ALC-25)")
            elif cid in ("ALC-26", "ALC-27"):
                schedule(eng, eng.state.gt + 1, cid, "play", f"23.1 {cid}")
            else:
                activate(eng, cid, "ALC-23 Operation Torch Invasion is played (23.1 ALC-21 e)")
    # g) T+0 units available the turn of the landing, T+1 the turn after: put_in_play schedules T+n items
    for u in eng.state.units.values():
        if offmap.base_id(u.id).startswith("VFA-"):
            u.flags = dict(u.flags) | {"vichy": "neutral"}


def _torch_invasion_playable(eng: Engine) -> str | None:
    if eng.state.gt < 27:
        return "ALC-23 may be played at the beginning of any Events Phase starting GT 27 (23.1 ALC-21 a)"
    if not (played(eng, "ALC-21") or played(eng, "ALC-22")):
        return "ALC-23 needs Operation Torch Buildup in play (23.1 ALC-21)"
    return None


card("ALC-23", "Operation Torch Invasion", "event", declared=True, es_on_play=-6,
     activate_when=lambda eng: played(eng, "ALC-21") or played(eng, "ALC-22"),
     playable=_torch_invasion_playable, on_play=_torch_invasion_play)
card("ALC-24", "Operation Torch Tunisia", "reinforcement", declared=True, each_gt=_reinf_each_gt("ALC-24"))


# ALC-25 US Inexperience
def _us_inexp_play(eng: Engine, c: dict, args: dict) -> None:
    c["side_up"] = "2/+1"
    eng.state.vars["us_inexperience"] = 2   # read by the combat rules (combat.py, special_units.py)
    offmap.add_counter(eng, "AL-USInexperience", "card:ALC-25", "23.1 ALC-25")


card("ALC-25", "US Inexperience", "event", on_play=_us_inexp_play)


def _st(x: Any) -> Any:
    """An Engine or a GameState -> the GameState (the combat rules call these with either)."""
    return getattr(x, "state", x)


def us_inexperience(state: Any) -> tuple[int, int]:
    """ALC-25 a)/b): (column shift in the Axis favour, US morale modifier) in US-vs-GE combats.
    Stable interop for the combat rules: accepts a GameState or an Engine."""
    c = _st(state).cards.get("ALC-25")
    if not c or c.get("status") != "in_play":
        return 0, 0
    return (2, 1) if c.get("side_up") == "2/+1" else (1, 0)


def us_experience_check(eng: Engine, allied_units: list[str] | None = None) -> bool:
    """ALC-25 c): after a combat in which most Allied steps are US, roll 1d6; 5-6 = experience gained.
    Stable interop for the combat rules: pass the combat's Allied units to have the majority checked here
    (no roll unless US steps are the majority); without them the caller has checked it."""
    c = eng.state.cards.get("ALC-25")
    if not c or c.get("status") != "in_play":
        return False
    if allied_units is not None:
        us = sum(eng.state.units[u].steps for u in allied_units
                 if u in eng.state.units and offmap.base_id(u).startswith("US-"))
        total = sum(eng.state.units[u].steps for u in allied_units if u in eng.state.units)
        if total == 0 or us * 2 <= total:
            return False
    d = eng.roll(1, "ALC-25 US experience")[0]
    if d < 5:
        return False
    if c.get("side_up") == "2/+1":
        c["side_up"] = "1/+0"
        eng.state.vars["us_inexperience"] = 1
        eng.say("ALC-25: the US Inexperience marker flips to its 1/+0 side (23.1 ALC-25 c)")
    else:
        for u in list(eng.state.units.values()):
            if offmap.base_id(u.id) == "AL-USInexperience" and u.loc != offmap.REMOVED:
                offmap.remove_unit(eng, u.id, "23.1 ALC-25 c", "the US have gained experience")
        eng.state.vars.pop("us_inexperience", None)
        discard(eng, "ALC-25", "second experience gain: the marker is removed (23.1 ALC-25 c)")
        make_available(eng, "ALC-25", card_items(eng, "ALC-25", "T+0"), eng.state.gt, "23.1 ALC-25 c")
    return True


QUERIES["us_inexperience"] = lambda eng: us_inexperience(eng)


# ALC-26 CW Withdrawal
def _cw_withdrawal_play(eng: Engine, c: dict, args: dict) -> None:
    if axis_in_egypt(eng):
        c["not_required"] = True
        eng.say("ALC-26: AXC-9 Axis in Egypt conditions are met; no CW withdrawal (23.1 ALC-26)")
        return
    c["required"] = True
    eng.state.vars.setdefault("withdrawals", []).append(
        {"gt": eng.state.gt, "nationalities": ["SA", "AU"], "rule": "23.1 ALC-26", "card": "ALC-26"})


def cw_withdrawal_outstanding(eng: Engine) -> list[str]:
    return [u.id for u in eng.state.units.values()
            if offmap.base_id(u.id)[:3] in ("SA-", "AU-") and _is_ground(u.id) and u.loc != offmap.REMOVED
            and not u.loc.startswith("box:Destroyed")]


def south_african_steps_withdrawn(eng: Engine) -> int:
    """ALC-26 b): the South African steps withdrawn (7.4: removed by the Reinforcement Phase's withdrawal or by exiting
    the map, flag ``withdrawn``), counted as they were when they left; eliminated or isolated ones are not withdrawn."""
    return sum(u.steps for u in eng.state.units.values()
               if offmap.base_id(u.id).startswith("SA-") and u.loc == offmap.REMOVED and u.flags.get("withdrawn"))


def _cw_withdrawal_each_gt(eng: Engine, c: dict) -> None:
    if not c.get("required") or c.get("complete"):
        return
    if eng.state.gt > int(c["played_gt"]):
        if cw_withdrawal_outstanding(eng):
            es_shift(eng, "ALC-26", -1, "CW withdrawal not complete (23.1 ALC-26 a)")
        else:
            c["complete"] = True
            sa_steps = south_african_steps_withdrawn(eng)
            if sa_steps < 10:
                es_shift(eng, "ALC-26", -2, f"only {sa_steps} South African steps withdrawn (23.1 ALC-26 b)")


card("ALC-26", "CW Withdrawal", "event", on_play=_cw_withdrawal_play, each_gt=_cw_withdrawal_each_gt)


# ALC-27 Vichy Accord
def vichy_totals(eng: Any) -> tuple[int, int]:
    joined = neutral = 0
    for u in _st(eng).units.values():
        if not offmap.base_id(u.id).startswith("VFA-") or not offmap.in_play(u):
            continue
        cf = all_counters()[offmap.base_id(u.id)].values(u.steps)[0]
        if u.flags.get("vichy") == "joined":
            joined += cf
        elif u.flags.get("vichy") != "surrendered":
            neutral += cf
    return joined, neutral


def vichy_reaction_drm(eng: Any) -> int:
    """ALC-27 b): +1 on the Vichy French Reaction Table when joined VF CF exceed the others.
    Stable interop for the combat rules: accepts a GameState or an Engine."""
    if _st(eng).cards.get("ALC-27", {}).get("status") != "in_play":
        return 0
    j, n = vichy_totals(eng)
    return 1 if j > n else 0


def _vichy_each_gt(eng: Engine, c: dict) -> None:
    if c.get("accord_gt"):
        return
    j, n = vichy_totals(eng)
    if n == 0:
        c["accord_gt"] = eng.state.gt
        eng.say("ALC-27: every VF unit has been eliminated, surrendered or joined: the Vichy Accord is reached (23.1 ALC-27 c)")
        schedule(eng, eng.state.gt + 1, "ALC-28", "activate", "23.1 ALC-28")


def _vichy_play(eng: Engine, c: dict, args: dict) -> None:
    _vichy_each_gt(eng, c)   # d) the units listed are available at once (T+0, scheduled by put_in_play)


card("ALC-27", "Vichy Accord", "event", on_play=_vichy_play, each_gt=_vichy_each_gt)
QUERIES["vichy_reaction_drm"] = lambda eng: vichy_reaction_drm(eng)


def vichy_column(eng: Engine, attackers: list[str]) -> str:
    """ALC-21 i): the column of the attacking force with the greatest number of combat factors (US, CW, FF, Axis)."""
    cf: dict[str, int] = {}
    for uid in attackers:
        u = eng.state.units[uid]
        c = all_counters()[offmap.base_id(uid)]
        col = "Axis" if u.side == AXIS else ("US" if c.nationality == "US" else "FF" if c.nationality in ("FF", "FR")
                                             else "CW")
        cf[col] = cf.get(col, 0) + c.values(u.steps)[0]
    return max(sorted(cf), key=lambda k: cf[k]) if cf else "CW"


def vichy_reaction(eng: Engine, attackers: list[str], defenders: list[str]) -> str:
    """ALC-21 i) / ALC-27 b): before a combat against neutral VF units roll 1d6 (+1 with the Vichy Accord DRM)
    on the Vichy French Reaction Table (resources/charts/vichy_reaction.toml) and carry out the result on the
    VF defenders: ``fight`` (resolve the combat), ``retreat`` (the combat is not resolved; the non-attacking
    player retreats them), ``join`` (they join the Allies) or ``surrender`` (removed)."""
    from core import charts
    vf = [d for d in defenders if offmap.base_id(d).startswith("VF") and
          eng.state.units[d].flags.get("vichy", "neutral") == "neutral"]
    if not vf:
        return "fight"
    col = vichy_column(eng, attackers)
    die = eng.roll(1, f"Vichy French Reaction Table ({col})")[0]
    res = charts.vichy_reaction(die, col, accord_drm=bool(vichy_reaction_drm(eng)))
    eng.say(f"Vichy French reaction: {res} (23.1 ALC-21 i)")
    for uid in vf:
        u = eng.state.units[uid]
        if res == "join":
            u.flags = dict(u.flags) | {"vichy": "joined"}
            u.side = ALLIED
        elif res == "surrender":
            u.flags = dict(u.flags) | {"vichy": "surrendered"}
            offmap.remove_unit(eng, uid, "23.1 ALC-21 i", "the Vichy French surrender")
        elif res == "retreat":
            u.flags = dict(u.flags) | {"vichy_retreat_gt": eng.state.gt}
    return res


QUERIES["vichy_column"] = lambda eng, attackers=(): vichy_column(eng, list(attackers))


# ALC-28 Soft Underbelly
#: the nationalities of ALC-28 a) "US" and b) "CW" (the Commonwealth's counters)
SOFT_UNDERBELLY_NATIONS = {"US": "US", "UK": "CW", "AU": "CW", "IN": "CW", "NZ": "CW", "SA": "CW"}


def soft_underbelly_units(eng: Engine) -> list[str]:
    """ALC-28: the units the Allied player may withdraw: US and CW combat units on the map."""
    from core.rules.status import hex_of

    out = []
    for u in sorted(eng.state.units_of(ALLIED), key=lambda x: x.id):
        cnt = all_counters().get(offmap.base_id(u.id))
        if cnt is not None and cnt.kind == "combat" and cnt.nationality in SOFT_UNDERBELLY_NATIONS \
                and offmap.in_play(u) and hex_of(u) is not None:
            out.append(u.id)
    return out


def soft_underbelly_withdraw(eng: Engine, units: list[str]) -> None:
    """ALC-28 a)-c): permanently withdraw US/CW units from the map; RP per 10 CF of each, ES +1 per 20 CF in all.
    The CF withdrawn count over the whole game (R-EV-SOFT-UNDERBELLY: the card stays in play, e, and a unit may be
    withdrawn in any Allied Events Phase, one declaration each): an RP or a GT is earned each time a total
    passes a multiple of 10 (of the nation) or of 20 (in all)."""
    c = eng.state.cards.get("ALC-28")
    if not c or c.get("status") != "in_play":
        raise IllegalAction("ALC-28 Soft Underbelly is not in play", "23.1 ALC-28")
    eligible = set(soft_underbelly_units(eng))
    added = {"US": 0, "CW": 0}
    for uid in units:
        u = eng.state.units.get(uid)
        if u is None or u.side != ALLIED or not offmap.in_play(u):
            raise IllegalAction(f"{uid} is not an Allied unit in play", "23.1 ALC-28")
        cnt = all_counters()[offmap.base_id(uid)]
        if cnt.nationality not in SOFT_UNDERBELLY_NATIONS:
            raise IllegalAction(f"{uid} is neither US nor CW", "23.1 ALC-28")
        if uid not in eligible:
            raise IllegalAction(f"{uid} is not a combat unit on the map (US and/or CW units are withdrawn from the "
                                "map)", "23.1 ALC-28")
        added[SOFT_UNDERBELLY_NATIONS[cnt.nationality]] += cnt.values(u.steps)[0]
        offmap.remove_unit(eng, uid, "23.1 ALC-28", "Soft Underbelly withdrawal")
    before = {k: int(c.get(f"withdrawn_cf_{k.lower()}", 0)) for k in added}
    for nat, rp in (("US", "US-RP"), ("CW", "UK-RP")):
        c[f"withdrawn_cf_{nat.lower()}"] = before[nat] + added[nat]
        from core.rules import reinforcements
        for _ in range((before[nat] + added[nat]) // 10 - before[nat] // 10):
            reinforcements.schedule_arrival(eng, rp, eng.state.gt + 1, "23.1 ALC-28 a/b", to=offmap.NRV)
    total = int(c.get("withdrawn_cf", 0)) + added["US"] + added["CW"]
    was = int(c.get("withdrawn_cf", 0)) // 20
    c["withdrawn_cf"] = total
    for _ in range(total // 20 - was):
        es_shift(eng, "ALC-28", +1, "20 CF withdrawn (23.1 ALC-28 c)")


def _soft_underbelly_variants(eng: Engine) -> list[tuple[dict, str]]:
    """One declaration per unit that may be withdrawn (23.1 ALC-28), with its combat factors: the options of the
    Allied Events Phase (R-EV-SOFT-UNDERBELLY)."""
    out = []
    for uid in soft_underbelly_units(eng):
        cnt = all_counters()[offmap.base_id(uid)]
        out.append(({"units": [uid]}, f"withdraw {cnt.name} ({cnt.values(eng.state.units[uid].steps)[0]} CF) for good"))
    return out


def _soft_underbelly_play(eng: Engine, c: dict, args: dict) -> None:
    """ALC-28: the Allied player declares the card with the US and/or CW units he withdraws (``units``)."""
    soft_underbelly_withdraw(eng, [str(u) for u in args.get("units") or []])


card("ALC-28", "Soft Underbelly", "event", declared=True, repeatable=True, variants=_soft_underbelly_variants,
     on_play=_soft_underbelly_play)


# AXC-5..7 Parallel War
def _parallel_play(eng: Engine, c: dict, args: dict) -> None:
    schedule(eng, eng.state.gt + 1, "AXC-8", "play", "23.2 AXC-8")
    if axis_in_egypt_consecutive(eng) < 3:
        es_shift(eng, "AXC-5", +3, "AXC-9 not met for three consecutive GTs before AXC-5 (23.2 AXC-5 d, AXC-9)")
    for cid in ("ALC-16", "ALC-17"):
        if played(eng, "ALC-12"):
            schedule(eng, eng.state.gt + 1, cid, "play", f"23.1 {cid}")
    if played(eng, "ALC-12"):
        schedule(eng, eng.state.gt + 1, "AXC-10", "activate", "23.2 AXC-10")
        if status(eng, "AXC-16") == "deck":
            put_in_play(eng, "AXC-16", "AXC-5 and ALC-12 have been played (23.2 AXC-16)")


card("AXC-5", "Parallel War (1940)", "event", declared=True, es_on_play=+3, discard_after=7, then=("AXC-6",),
     on_play=_parallel_play)
card("AXC-6", "Parallel War (1941)", "reinforcement", discard_after=19, then=("AXC-7",), each_gt=_reinf_each_gt("AXC-6"))
card("AXC-7", "Parallel War (1942)", "reinforcement", discard_after=29, each_gt=_reinf_each_gt("AXC-7"))


# AXC-8 Fifth Army
def fifth_army_release_all(eng: Engine, why: str) -> None:
    c = eng.state.cards.get("AXC-8")
    if not c or c.get("all_released"):
        return
    c["all_released"] = True
    eng.state.vars["fifth_army_restricted"] = []
    eng.say(f"AXC-8: all Fifth Army divisions are released: {why} (23.2 AXC-8 Important)")
    discard(eng, "AXC-8", "all divisions activated")


def _fifth_each_gt(eng: Engine, c: dict) -> None:
    # Important: an Allied unit on Map L or S, or a German ground unit on the hex grid, releases all divisions
    for u in eng.state.units.values():
        if u.side == ALLIED and u.loc[:1] in ("L", "S") and u.loc[1:2].isdigit():
            fifth_army_release_all(eng, f"Allied {u.id} entered {u.loc}")
            return
        if u.side == AXIS and u.id.startswith("GE-") and _is_ground(u.id) and u.loc[:1].isalpha() and u.loc[1:2].isdigit():
            fifth_army_release_all(eng, f"German {u.id} entered the hex grid ({u.loc})")
            return
    if "fifth_army_restricted" not in eng.state.vars:   # in play from the start (25.0): the card's table
        eng.state.vars["fifth_army_restricted"] = [u for _, units in fifth_army_schedule() for u in units]
    restricted = eng.state.vars["fifth_army_restricted"]
    played_gt = int(c.get("played_gt", eng.state.gt))
    for gt, units in fifth_army_schedule():
        if played_gt + gt > eng.state.gt:
            continue
        for unit in units:
            if unit in restricted:
                restricted.remove(unit)
                eng.say(f"AXC-8: {unit} is released (T+{gt}, 23.2 AXC-8)")
    if not restricted and not c.get("all_released"):
        c["all_released"] = True
        discard(eng, "AXC-8", "all divisions activated (23.2 AXC-8)")


def fifth_army_schedule() -> list[tuple[int, list[str]]]:
    """AXC-8's table from its card data: (T+n, divisions released) for the items hooked ``fifth_army_release``."""
    rec = card_data("AXC-8")
    out = []
    for a in (getattr(rec, "reinforcements", None) or []):
        if a.hook == "fifth_army_release":
            out.append((a.t if a.t >= 0 else 0, list(a.units)))
    return out


def _fifth_play(eng: Engine, c: dict, args: dict) -> None:
    """AXC-8: the divisions on the card's table may not move until released (23.2 AXC-8)."""
    restricted = [u for _, units in fifth_army_schedule() for u in units]
    eng.state.vars["fifth_army_restricted"] = restricted
    eng.say(f"AXC-8 Fifth Army: {', '.join(restricted)} may not move until released (23.2 AXC-8)")
    _fifth_each_gt(eng, c)


def fifth_army_held(state: Any, uid: str) -> bool:
    """23.2 AXC-1 Important: "Divisions listed as part of Fifth Army have movement restrictions imposed until
    released by AXC-8 (Fifth Army)": a division of AXC-8's table may not move until AXC-8 releases it (its T+n row,
    or all at once, AXC-8 Important).  Before AXC-8 is in play every division of the table is held; a scenario that
    does not use AXC-8 (24.1) holds none.  The one definition the movement rules and the query use."""
    st = _st(state)
    c = st.cards.get("AXC-8")
    if not c or c.get("status") == "not_used" or c.get("all_released") or "AXC-1" not in st.cards:
        return False
    held = st.vars.get("fifth_army_restricted")
    if held is None:
        held = [u for _, units in fifth_army_schedule() for u in units]
    return offmap.base_id(uid) in held


card("AXC-8", "Fifth Army", "event", on_play=_fifth_play, each_gt=_fifth_each_gt)
QUERIES["fifth_army_restricted"] = lambda eng, unit="": fifth_army_held(eng, unit)

card("AXC-9", "Axis in Egypt", "event", each_gt=_track_axc9)


# AXC-10..12 AfrikaKorps
def _ak_variants(eng: Engine) -> list[tuple[dict, str]]:
    if eng.state.gt <= 10:
        return [({"gt10": True}, "take the GT 10 reinforcements"),
                ({"gt10": False}, "decline the GT 10 reinforcements (ES -3, 23.2 AXC-10 d)")]
    return [({}, "play")]


def _ak_play(eng: Engine, c: dict, args: dict) -> None:
    if args.get("gt10") is False:
        es_shift(eng, "AXC-10", -3, "the GT 10 reinforcements are not taken (23.2 AXC-10 d)")
    elif args.get("gt10"):
        make_available(eng, "AXC-10", card_items(eng, "AXC-10", 10), max(10, eng.state.gt), "23.2 AXC-10")
    if status(eng, "ALC-6") == "deck":
        put_in_play(eng, "ALC-6", "AXC-10 AfrikaKorps is played (23.2 AXC-10 c)")
    schedule(eng, eng.state.gt + 1, "AXC-4", "activate", "23.2 AXC-4")
    if status(eng, "AXC-17") == "deck":
        put_in_play(eng, "AXC-17", "AXC-10 is played (23.2 AXC-17)")
    if status(eng, "ALC-14") == "deck" and played(eng, "ALC-12"):
        activate(eng, "ALC-14", "ALC-12 played and AXC-10 played (23.1 ALC-14 a)")


card("AXC-10", "AfrikaKorps (Sperrverband)", "event", declared=True, es_on_play=+12, discard_after=10, then=("AXC-11",),
     variants=_ak_variants, on_play=_ak_play, each_gt=_reinf_each_gt("AXC-10"))
card("AXC-11", "AfrikaKorps (1941)", "reinforcement", discard_after=19, then=("AXC-12",), each_gt=_reinf_each_gt("AXC-11"))
card("AXC-12", "AfrikaKorps (1942)", "reinforcement", discard_after=28, each_gt=_reinf_each_gt("AXC-12"))


# AXC-13 Crete Garrison, AXC-14 Arab Revolt, AXC-15 Egyptian Revolt
def _crete_play(eng: Engine, c: dict, args: dict) -> None:
    eng.state.vars["crete_axis"] = True   # 22.3
    gt = eng.state.gt
    for key in range(1, gt + 1):          # b) units listed for earlier GTs arrive at once
        items = card_items(eng, "AXC-13", key)
        if items:
            for it in items:
                it["to"] = it.get("to") or offmap.CRETE
            make_available(eng, "AXC-13", items, gt, "23.2 AXC-13 b")
    if status(eng, "AXC-14") == "deck":
        activate(eng, "AXC-14", "AXC-13 is put into play (23.2 AXC-14)")
    if status(eng, "AXC-15") == "deck":
        activate(eng, "AXC-15", "AXC-13 is put into play (23.2 AXC-15)")


def _crete_each_gt(eng: Engine, c: dict) -> None:
    if eng.state.gt > int(c["played_gt"]):
        items = card_items(eng, "AXC-13", eng.state.gt)
        for it in items:
            it["to"] = it.get("to") or offmap.CRETE
        make_available(eng, "AXC-13", items, eng.state.gt, "23.2 AXC-13 b")


card("AXC-13", "Crete Garrison", "event", on_play=_crete_play, each_gt=_crete_each_gt)


SDVH_287, SDVH_288 = "GE-Sdvh287", "GE-Sdvh288"


def _arab_playable(eng: Engine) -> str | None:
    """23.2 AXC-14 a) to play the card; b) once it is in play, to commit Sdvh 288 "when it arrives" (in Crete,
    AXC-13) while MET SW Asia is active (c: the units stay there until the track is deactivated)."""
    from core.rules import met
    if played(eng, "AXC-14"):
        u = eng.state.units.get(SDVH_288)
        if not u or u.loc != offmap.CRETE:
            return "Sdvh 288 may be committed to MET SW Asia once it has arrived in Crete (23.2 AXC-14 b)"
        if not met.track(eng, "SW Asia"):
            return "MET SW Asia is not active (23.2 AXC-14 c)"
        return None
    u = eng.state.units.get(SDVH_287)
    if not u or u.loc != offmap.CRETE:
        return "Sdvh 287 must be in Crete (23.2 AXC-14 a)"
    tr = met.track(eng, "SW Asia")
    if not tr or (tr.get("box", 0) < 1 and not tr.get("crisis")):
        return "MET SW Asia must be at situation 1 or higher (23.2 AXC-14 a)"
    return None


def _sdvh288_in_crete(eng: Engine) -> bool:
    u = eng.state.units.get(SDVH_288)
    return bool(u and u.loc == offmap.CRETE)


def _arab_commits(eng: Engine, first: bool) -> list[list[str]]:
    """Who may be committed: on play Sdvh 287, with Sdvh 288 too if it is in Crete ("one or both ... in the same
    GT"); in a later Events Phase Sdvh 288 alone ("on different GTs")."""
    if not first:
        return [[SDVH_288]]
    return [[SDVH_287]] + ([[SDVH_287, SDVH_288]] if _sdvh288_in_crete(eng) else [])


def _arab_variants(eng: Engine) -> list[tuple[dict, str]]:
    return [({"commit": who}, "commit " + " and ".join(u[3:].replace("Sdvh", "Sdvh ") for u in who) + " to MET SW Asia")
            for who in _arab_commits(eng, not played(eng, "AXC-14"))]


def _arab_play(eng: Engine, c: dict, args: dict) -> None:
    from core.rules import met
    first = int(c.get("plays", 1)) <= 1              # put_in_play has counted this play
    allowed = _arab_commits(eng, first)
    commit = list(args.get("commit") or allowed[0])
    if commit not in allowed:
        raise IllegalAction(f"AXC-14 cannot commit {', '.join(commit)} now", "23.2 AXC-14 a, b")
    for uid in commit:
        u = eng.state.units[uid]
        u.loc = met.track_box("SW Asia")
        u.flags = dict(u.flags) | {"committed": "AXC-14"}
        eng.say(f"AXC-14: {uid[3:].replace('Sdvh', 'Sdvh ')} is committed to MET SW Asia (+1 situation DR) "
                "(23.2 AXC-14 b, c)")


card("AXC-14", "Arab Revolt", "event", declared=True, repeatable=True, playable=_arab_playable,
     variants=_arab_variants, on_play=_arab_play)


def _egypt_playable(eng: Engine) -> str | None:
    u = eng.state.units.get("GE-Sdvh288")
    if not u or not (u.loc.startswith("W") and u.loc[1:3].isdigit() and u.loc[-2:] == "34"):
        return "Sdvh 288 must be in an eastern map edge hex of Map W (23.2 AXC-15 a)"
    if u.ogs:
        return "Sdvh 288 must be in general supply (23.2 AXC-15 a)"
    return None


def _egypt_play(eng: Engine, c: dict, args: dict) -> None:
    u = eng.state.units["GE-Sdvh288"]
    u.loc = offmap.NRV
    eng.state.vars["egyptian_revolt"] = {"gt": eng.state.gt, "until_gt": eng.state.gt + 1}
    eng.say("AXC-15: Sdvh 288 enters the NRV; no CW unit may leave it, no CW supply enter it, this GT and the next (23.2 AXC-15 b, c)")


def _egypt_each_gt(eng: Engine, c: dict) -> None:
    rev = eng.state.vars.get("egyptian_revolt")
    if rev and eng.state.gt > rev["until_gt"] and not c.get("over"):
        c["over"] = True
        if "GE-Sdvh288" in eng.state.units:
            offmap.destroy_unit(eng, "GE-Sdvh288", "23.2 AXC-15 d")
        eng.state.vars.pop("egyptian_revolt", None)
        discard(eng, "AXC-15", "the revolt is over (23.2 AXC-15 d)")


card("AXC-15", "Egyptian Revolt", "event", declared=True, playable=_egypt_playable, on_play=_egypt_play,
     each_gt=_egypt_each_gt)


# AXC-16 Operation C3 / AXC-17 Herkules: the Malta invasion
def malta_invasion_dice(eng: Engine) -> int:
    """AXC-16 f) 1-3: CF in the Herkules Box (air: bombardment factors) / 10, fractions of 1/2 or more up."""
    total = 0
    for u in eng.state.units.values():
        if u.loc != offmap.HERKULES:
            continue
        cnt = all_counters().get(offmap.base_id(u.id))
        if cnt is None:
            continue
        total += cnt.bomb if cnt.kind == "air" else cnt.values(u.steps)[0]
    return int(math.floor(total / 10 + 0.5))


def c3_sicily_air() -> frozenset[str]:
    """AXC-16 a): the air units the card data lists as arriving on GT 8 (resources/cards/axis.toml)."""
    from core import cards
    out = set()
    for a in cards.card("AXC-16").reinforcements:
        if a.gt != 8:
            continue
        for u in a.units:
            cid = u.split("*", 1)[-1]
            cnt = all_counters().get(cid)
            if cnt is not None and cnt.kind == "air":
                out.add(cid)
    return frozenset(out)


def c3_air_restricted(eng: Engine, uid: str) -> bool:
    """AXC-16 a): an air unit that arrived by the card on GT 8 may only be deployed in Sicily and conducts no
    other missions until the invasion is conducted (resolved) or cancelled."""
    st = getattr(eng, "state", eng)   # an engine or a game state (the combat rules pass the state)
    u = st.units.get(uid)
    if u is None or offmap.base_id(uid) not in c3_sicily_air() or "AXC-16" not in str(u.flags.get("arrived_by", "")):
        return False
    c = st.cards.get("AXC-16", {})
    return c.get("resolved_gt") is None and not c.get("cancelled")


def _c3_variants(eng: Engine) -> list[tuple[dict, str]]:
    c = eng.state.cards["AXC-16"]
    out: list[tuple[dict, str]] = []
    if c.get("declared_gt") is None and not c.get("cancelled"):
        out.append(({"act": "declare"}, "declare the invasion of Malta (resolved next GT)"))
    if eng.state.gt > 20 and not c.get("cancelled") and c.get("resolved_gt") is None:
        out.append(({"act": "cancel"}, "cancel the invasion of Malta"))
    return out


def _c3_playable(eng: Engine) -> str | None:
    c = eng.state.cards["AXC-16"]
    if eng.state.gt < 20:
        return "The Malta invasion may be attempted beginning GT 20 (23.2 AXC-16 c)"
    if c.get("resolved_gt") is not None or c.get("cancelled"):
        return "Only one invasion of Malta can be made (23.2 AXC-16 c, j)"
    if c.get("declared_gt") is not None and eng.state.gt <= 20:
        return "Already declared"
    return None


def _c3_declare(eng: Engine, c: dict, args: dict) -> None:
    act = args.get("act")
    if act is None:
        # put in play by AXC-5 and ALC-12 (no declaration yet): a) the GT 8 air units arrive in the Sicily Box,
        # at once if GT 8 has passed (7.1)
        if not c.get("c3_air_scheduled"):
            c["c3_air_scheduled"] = True
            items = card_items(eng, "AXC-16", 8)
            if items:
                make_available(eng, "AXC-16", items, max(8, eng.state.gt), "23.2 AXC-16 a")
        return
    if act == "cancel":
        c["cancelled"] = eng.state.gt
        eng.state.vars.pop("malta_invasion_blackout", None)
        eng.say("AXC-16: the Malta invasion is cancelled; it may not be re-declared (23.2 AXC-16 j)")
        schedule(eng, eng.state.gt + 1, "AXC-18", "activate", "23.2 AXC-18")
        return
    c["declared_gt"] = eng.state.gt
    for u in eng.state.units.values():
        if u.loc == offmap.SICILY and u.side == AXIS and all_counters().get(offmap.base_id(u.id), None) is not None \
                and all_counters()[offmap.base_id(u.id)].kind == "air":
            u.loc = offmap.HERKULES
    eng.state.vars["malta_invasion_blackout"] = [eng.state.gt, eng.state.gt + 1]
    es_shift(eng, "AXC-16", +3, "the Malta invasion is declared (23.2 AXC-16 e)")
    eng.say("AXC-16: invasion of Malta declared; Axis air units in Sicily move to the Herkules Box; no Shipping "
            "from Italy and no Axis air missions this GT and next (23.2 AXC-16 d, e)")


def resolve_malta_invasion(eng: Engine) -> dict:
    """AXC-16 f)-i): roll the invasion dice; 13+ succeeds; losses = 19 - dice rolled if the total is 18 or less."""
    c = eng.state.cards["AXC-16"]
    n = malta_invasion_dice(eng)
    dice = eng.roll(n, f"AXC-16 Malta invasion ({n} dice)") if n else []
    total = sum(dice)
    c["resolved_gt"] = eng.state.gt
    res = {"dice": n, "total": total}
    ground = [u for u in eng.state.units.values() if u.loc == offmap.HERKULES and _is_ground(u.id)]
    air = [u for u in eng.state.units.values() if u.loc == offmap.HERKULES and not _is_ground(u.id)]
    if total >= 13:
        res["success"] = True
        eng.state.vars["malta"] = AXIS
        if "UK-MaltaFleet" in eng.state.units:
            offmap.remove_unit(eng, "UK-MaltaFleet", "23.2 AXC-16 g", "Malta has fallen")
        losses = 0 if total >= 19 else max(0, 19 - n)   # R-EV-C3-LOSSES: "the number of dice rolled"
        res["axis_step_losses"] = losses
        eng.state.vars["malta_invasion_losses_owed"] = losses   # the Allied player chooses (g)
        eng.say(f"AXC-16: the invasion succeeds ({total} >= 13); Axis step losses {losses} (23.2 AXC-16 g)")
    else:
        res["success"] = False
        for u in ground:
            offmap.remove_unit(eng, u.id, "23.2 AXC-16 h", "the Malta invasion failed")
        eng.say(f"AXC-16: the invasion fails ({total} <= 12) (23.2 AXC-16 h)")
    from core.rules import air as airrules
    for u in air:
        airrules.to_trt(eng, u.id, eng.state.gt + 2, "23.2 AXC-16 i")
    eng.state.vars.pop("malta_invasion_blackout", None)
    schedule(eng, eng.state.gt + 1, "AXC-18", "activate", "23.2 AXC-18")
    return res


def _c3_each_gt(eng: Engine, c: dict) -> None:
    if c.get("declared_gt") is not None and c.get("resolved_gt") is None and not c.get("cancelled") \
            and eng.state.gt == int(c["declared_gt"]) + 1:
        resolve_malta_invasion(eng)


card("AXC-16", "Operation C3", "event", declared=True, repeatable=True, playable=_c3_playable, variants=_c3_variants,
     on_play=_c3_declare, each_gt=_c3_each_gt)


def _herkules_play(eng: Engine, c: dict, args: dict) -> None:
    eng.state.vars["herkules"] = True   # AXC-17 units (T+n, placed by put_in_play) join C3 in the Herkules Box


card("AXC-17", "Herkules", "event", on_play=_herkules_play)


# AXC-18 AIDA
def _aida_play(eng: Engine, c: dict, args: dict) -> None:
    eng.say("AXC-18 AIDA: the listed units become available (23.2 AXC-18 a)")


def _aida_each_gt(eng: Engine, c: dict) -> None:
    start = int(c["played_gt"]) + 1
    if eng.state.gt < start or c.get("checked"):
        return
    if not axis_in_egypt(eng):
        c["checked"] = True
        es_shift(eng, "AXC-18", +2, "AXC-9 not in effect during the four GTs after AIDA (23.2 AXC-18 c)")
    elif eng.state.gt >= start + 3:
        c["checked"] = True
    if eng.state.gt >= start + 3:
        discard(eng, "AXC-18", "four GTs completed (23.2 AXC-18 d)")


card("AXC-18", "AIDA", "event", declared=True, es_on_play=+1, on_play=_aida_play, each_gt=_aida_each_gt)


# AXC-19 / AXC-20 Fall Braun
card("AXC-19", "Fall Braun", "reinforcement", discard_after=30, then=("AXC-20",), each_gt=_reinf_each_gt("AXC-19"))


def _fb20_each_gt(eng: Engine, c: dict) -> None:
    items = card_items(eng, "AXC-20", eng.state.gt)
    dest = offmap.SICILY if played(eng, "ALC-23") else offmap.FALL_BRAUN   # AXC-20
    for it in items:
        it["to"] = dest
    make_available(eng, "AXC-20", items, eng.state.gt, "23.2 AXC-20")


card("AXC-20", "Fall Braun (1943)", "reinforcement", each_gt=_fb20_each_gt)


# --------------------------------------------------------------------------- scenario card set-ups (24.0-33.0)

_ALL = [f"ALC-{i}" for i in range(1, 29)] + [f"AXC-{i}" for i in range(1, 21)]

#: R-EV-ES-FIXED: the policy of a scenario whose data carries no end-change special rule (28.0 and 33.0 say the
#: end "is subject to modification"; 29.0-31.0 state a fixed end).
ES_DEFAULT = {"28.0": "normal", "33.0": "normal"}


def _scenario(eng: Engine) -> Any:
    """The scenario being played, None for a hand-built test state naming no scenario.  A scenario file that
    cannot be read raises (``core.scenario``): never a scenario without its special rules."""
    from core import scenario as _sc
    name = eng.state.scenario
    return next((sc for sc in _sc.all_scenarios() if name in (sc.id, sc.section, str(sc.number))), None)


def scenario_specials(eng: Engine) -> list[Any]:
    """The scenario's special rules, its own first, then those of the sections it includes (27.0 -> 26.0...)."""
    sc = _scenario(eng)
    if sc is None:
        return []
    from core import scenario as _sc
    out = list(sc.special)
    for inc in _sc.included(sc):
        out += list(inc.special)
    return out


def special(eng: Engine, kind: str) -> Any:
    """The first special rule of ``kind`` (the scenario's own before the included sections'), or None."""
    return next((s for s in scenario_specials(eng) if s.kind == kind), None)


def es_policy_of(sc: Any, specials: list[Any]) -> tuple[str, str, list[str]]:
    """(policy, rule, cards) from the scenario's special rules (24.0 d, 26.0 d, 32.0) — R-EV-ES-*."""
    for s in specials:    # the scenario's own rules come first and override the included sections'
        if s.kind == "ignore_card_end_changes":
            return "ignore", s.rule, []
        if s.kind == "end_changes_only":
            return "appeals", s.rule, list(s.params.get("cards", ["ALC-11", "AXC-4"]))
        if s.kind == "scenario_end_by_events":
            return "normal", s.rule, []
    sec = getattr(sc, "section", "")
    return ES_DEFAULT.get(sec, "ignore"), f"{sec} (R-EV-ES-FIXED)", []


def _start_status(eng: Engine, sc: Any, use: Any, statuses: dict[str, str]) -> str:
    """A scenario card line's status word -> the engine's status (R-EV-STATUS, R-EV-SCENARIO-CARDS).

    ``setup``: at-start cards are discarded after set-up (5.0), other cards (MET) are in play; ``active`` /
    ``in_effect`` / ``played``: in play; ``available``: activated (or in play for cards played automatically)
    when the card's own activation is met at the start, else in the deck following its conditions."""
    from core import cards as _cards
    data = _cards.card(use.card)
    rule = CARDS[use.card]
    word = use.status
    if word == "setup":
        return "discarded" if data.type == "at_start" else "in_play"
    if word in ("active", "in_effect", "played"):
        return "in_play"
    if word != "available":
        return "absent"
    if data.type == "at_start":
        return "deck"
    act = data.activation
    met_now = act.at_start
    if not met_now:
        later = sc.start_gt > 1   # a scenario starting later takes the history before it as played (R-EV-SCENARIO-CARDS)

        def done(cid: str, how: str) -> bool:
            s = statuses.get(cid)
            if s is None:
                return later     # not used in this scenario: its part of the history precedes the scenario
            return s in (("discarded",) if how == "discarded" else ("in_play", "discarded"))

        met_now = (act.gt <= sc.start_gt
                   and all(done(c, "played") for c in act.after_played)
                   and all(done(c, "discarded") for c in act.after_discarded)
                   and (not act.any_of or any(done(c, "played") for c in act.any_of))
                   and (later or not act.hook))
    if not met_now:
        return "deck"
    return "active" if rule.declared else "in_play"


def _inherit_cards(eng: Engine, sc: Any, statuses: dict[str, str], policy: str) -> None:
    """Cards of included sections (32.0 uses 27.0 and 29.0) and, where the end is subject to events (policy
    ``normal``), the cards the present ones lead to (then-chains, links, activations): in the deck
    (R-EV-SCENARIO-CARDS)."""
    from core import cards as _cards
    from core import scenario as _sc
    listed = {u.card for u in sc.cards}
    for inc in _sc.included(sc):
        for use in inc.cards:
            if use.card in listed or use.card in statuses or use.status == "not_used" or use.card not in CARDS:
                continue
            if inc.start_gt > sc.start_gt:
                statuses[use.card] = "deck"   # its scenario starts later: the campaign reaches it by its triggers
    not_used = {u.card for u in sc.cards if u.status == "not_used"}
    # a card in play is followed by the card its discard puts in play (AXC-10 -> AXC-11 -> AXC-12, ALC-8 -> ALC-9,
    # ALC-14 -> ALC-15, AXC-6 -> AXC-7), unless the scenario lists it only for its support level (26.1, 26.2)
    support_only = {u.card for u in sc.cards if u.reinforcements == "none"}
    chain = [c for c, s in statuses.items() if s not in ("absent",) and c not in support_only]
    while chain:
        cid = chain.pop()
        for nxt in CARDS[cid].then:
            if nxt not in statuses and nxt not in not_used and nxt in CARDS:
                statuses[nxt] = "deck"
                chain.append(nxt)
    if policy != "normal":
        return
    changed = True
    while changed:
        changed = False
        present = {c for c, s in statuses.items() if s not in ("absent",)}
        for cid, data in _cards.all_cards().items():
            if cid in statuses or cid in not_used or cid not in CARDS or data.type == "at_start":
                continue
            act = data.activation
            refs = set(act.after_played + act.after_discarded + act.any_of)
            linked = any(cid in CARDS[p].then or cid in _cards.card(p).discard.then_activate
                         or any(link.card == cid for link in _cards.card(p).activates) for p in present)
            if linked or (refs and refs & present):
                statuses[cid] = "deck"
                changed = True


def ensure_cards(eng: Engine) -> None:
    """Lay out the scenario's cards once (3.0 Active Events) from the scenario file's ``cards`` and ``special``
    entries and the cards' own data (resources/cards); idempotent and deterministic."""
    st = eng.state
    if st.vars.get("cards_init"):
        return
    st.vars["cards_init"] = True
    sc = _scenario(eng)
    from core.rules import met, reinforcements
    if sc is None or not sc.cards:
        st.vars.setdefault("es_policy", "normal")
        reinforcements.ensure_schedule(eng)
        return
    policy, prule, only = es_policy_of(sc, scenario_specials(eng))
    st.vars["es_policy"], st.vars["es_policy_rule"] = policy, prule
    if only:
        st.vars["es_policy_cards"] = only
    statuses: dict[str, str] = {}
    uses = [u for u in sc.cards if u.card in CARDS]
    # first pass: the explicit words; second: "available" against those (order-independent)
    for use in uses:
        if use.status != "available" and use.status != "not_used":
            statuses[use.card] = _start_status(eng, sc, use, {})
    for use in uses:
        if use.status == "available":
            statuses[use.card] = "deck" if use.from_gt else _start_status(eng, sc, use, statuses)
    _inherit_cards(eng, sc, statuses, policy)
    reinf_only: dict[str, list[int]] = {}
    ignored: dict[str, str] = {}
    support_off: list[str] = []
    support_level: list[str] = []
    delays: dict[str, int] = {}
    for use in uses:
        cid = use.card
        s = statuses.get(cid)
        if s is None or s == "absent":
            continue
        if s == "discarded":
            st.cards[cid] = {"id": cid, "status": "discarded", "note": "discarded after set-up (5.0 At Start Cards)"}
        elif s == "deck":
            st.cards[cid] = {"id": cid, "status": "deck"}
        elif s == "active":
            st.cards[cid] = {"id": cid, "status": "active", "activated_gt": st.gt}
        else:
            st.cards[cid] = {"id": cid, "status": "in_play", "activated_gt": st.gt - 1, "played_gt": st.gt - 1,
                             "from_start": True, "plays": 1}
        if use.from_gt:
            st.cards[cid] = {"id": cid, "status": "deck"}
            what = "play" if (use.status != "available" or not CARDS[cid].declared) else "activate"
            schedule(eng, use.from_gt, cid, what, use.rule or sc.section)
        if use.reinforcements == "only":
            reinf_only[cid] = list(use.gts)
        elif use.reinforcements == "none":
            ignored[cid] = "all"
        if not (use.support if use.support is not None else use.reinforcements == "all"):
            support_off.append(cid)   # R-SC-SUPPORT
        elif use.support and use.reinforcements == "none":
            support_level.append(cid)   # "only listed to note the level of support" (26.1, 26.2)
        if use.arrival_delay:
            delays[cid] = use.arrival_delay
        if not use.end_changes:
            st.vars.setdefault("es_ignored_cards", []).append(cid)
    for cid, s in sorted(statuses.items()):   # inherited / linked cards (R-EV-SCENARIO-CARDS)
        if cid not in st.cards and s in ("deck", "active", "in_play"):
            st.cards[cid] = {"id": cid, "status": s} | ({"activated_gt": st.gt} if s == "active" else {})
            if s == "in_play":
                st.cards[cid].update(activated_gt=st.gt - 1, played_gt=st.gt - 1, from_start=True, plays=1)
    st.vars["card_reinf_only"] = reinf_only
    st.vars["card_reinf_ignored"] = ignored
    if support_off:
        st.vars["card_support_off"] = sorted(support_off)
    if support_level:
        st.vars["card_support_level"] = sorted(support_level)
    if delays:
        st.vars["card_arrival_delay"] = delays
    if st.cards.get("ALC-19", {}).get("status") == "deck" and not any(
            s["card"] == "ALC-19" for s in st.vars.get("card_schedule", [])):
        schedule(eng, max(14, st.gt), "ALC-19", "play", "23.1 ALC-19")
    if st.cards.get("ALC-21", {}).get("status") == "deck" and st.cards.get("ALC-12", {}).get("status") == "in_play":
        schedule(eng, max(12, st.gt), "ALC-21", "play", "23.1 ALC-12 e; ALC-21")
    met.ensure_tracks(eng)
    reinforcements.ensure_schedule(eng)

# --------------------------------------------------------------------------- I.1 automatic step


def owe(eng: Engine, side: str, kind: str, cid: str, rule: str, **extra: Any) -> None:
    """A choice a card in play owes a player this GT (asked first in that player's declaration step)."""
    owed = eng.state.vars.setdefault("owed_choices", [])
    item = {"side": side, "kind": kind, "card": cid, "rule": rule, "gt": eng.state.gt} | extra
    if item not in owed:
        owed.append(item)


@auto_step("I.1")
def events_auto(eng: Engine) -> None:
    """4.1 I.1: check all active events; determine the cards automatically in play or still in play."""
    ensure_cards(eng)
    st = eng.state
    st.vars["owed_choices"] = [o for o in st.vars.get("owed_choices", []) if o.get("gt") == st.gt]
    st.vars.pop("ultra", None) if st.vars.get("ultra", {}).get("gt") != st.gt else None
    # scheduled activations / plays
    due = [s for s in st.vars.get("card_schedule", []) if s["gt"] <= st.gt]
    st.vars["card_schedule"] = [s for s in st.vars.get("card_schedule", []) if s["gt"] > st.gt]
    for s in due:
        cid = s["card"]
        if cid not in st.cards:
            continue
        if s["what"] == "activate":
            activate(eng, cid, f"scheduled ({s['rule']})")
        elif s["what"].startswith("met:"):
            from core.rules import met
            met.activate_track(eng, s["what"][4:], s["rule"])
        elif s["what"] == "discard":
            discard(eng, cid, f"scheduled ({s['rule']})")
        elif st.cards[cid]["status"] in ("deck", "active"):
            put_in_play(eng, cid, f"scheduled ({s['rule']})")
    # AXC-9 is checked first: other activations read it
    for cid in ("AXC-9",):
        if in_effect(eng, cid):
            CARDS[cid].each_gt(eng, st.cards[cid])  # type: ignore[misc]
    # activation conditions
    for cid in sorted(st.cards, key=_order):
        c = st.cards[cid]
        rule = CARDS[cid]
        if c["status"] == "deck" and rule.activate_when and rule.activate_when(eng):
            activate(eng, cid, "its conditions are met")
    # 23.1 ALC-12 a): Taranto forced on GT 9
    if st.gt >= 9 and status(eng, "ALC-12") in ("deck", "active"):
        activate(eng, "ALC-12", "not activated by the start of GT 9 (23.1 ALC-12 a)")
        put_in_play(eng, "ALC-12", "must be played on GT 9 (23.1 ALC-12 a)")
    # the MET cards' crisis effects for the tracks that start the Events Phase in crisis (22.2; ALC-5, 16, 17, 19)
    from core.rules import met, obligations
    met.crisis_effects(eng)
    obligations.place_on_track(eng)     # ALC-16 b): the Greek expedition goes to the track the GT after
    # effects of cards in play
    for cid in sorted(st.cards, key=_order):
        c = st.cards[cid]
        rule = CARDS[cid]
        if c["status"] != "in_play":
            if cid in st.vars.get("card_support_level", []):
                pay_support(eng, cid, c)   # R-SC-SUPPORT: the scenario's support level, whatever the card's status
            continue
        if cid != "AXC-9" and rule.each_gt is not None:
            rule.each_gt(eng, c)
        if not rule.repeatable:   # the Appeals pay their items once per play (_appeal_play)
            pay_support(eng, cid, c)
    # 5.0 T+n arrivals are placed by reinforcements.py in Phase III


def _order(cid: str) -> tuple[int, int]:
    a, _, n = cid.partition("-")
    return (0 if a == "AXC" else 1, int(n))


@at_phase_end
def end_of_gt(eng: Engine, phase_no: int) -> None:
    """Discards "at the end of GT n" (23.0) after Phase XX of GT n; lay out cards after the first phase."""
    ensure_cards(eng)
    if phase_no != 20:
        return
    st = eng.state
    from core.rules import met
    met.end_of_gt(eng)
    for cid in sorted(list(st.cards), key=_order):
        c = st.cards[cid]
        rule = CARDS[cid]
        if rule.discard_after is not None and st.gt >= rule.discard_after and c["status"] in ("in_play", "active", "deck"):
            if c["status"] == "deck" and rule.kind == "event":
                continue
            discard(eng, cid, f"end of GT {rule.discard_after}")


# --------------------------------------------------------------------------- I.2 / I.3 declarations


def declarable(eng: Engine, side: str) -> list[tuple[str, dict, str]]:
    """Every (card, args, label) the side may play now (5.0)."""
    out = []
    for cid in sorted(eng.state.cards, key=_order):
        rule = CARDS[cid]
        if rule.side != side or not rule.declared:
            continue
        why = refusal(eng, cid)
        if why:
            continue
        variants = rule.variants(eng) if rule.variants else [({}, "play")]
        for args, label in variants:
            out.append((cid, args, f"Play {cid} {rule.title}" + ("" if label == "play" else f": {label}")))
    return out


def refusal(eng: Engine, cid: str) -> str | None:
    c = eng.state.cards.get(cid)
    rule = CARDS.get(cid)
    if c is None or rule is None:
        return f"{cid} is not used in this scenario (5.0; {eng.state.vars.get('es_policy_rule', '3.0')})"
    if not rule.declared:
        return f"{cid} {rule.title} is played automatically, not declared ({rule.cite})"
    st = c["status"]
    if st == "in_play" and not rule.repeatable:
        return f"{cid} {rule.title} is already in play; each event occurs once per game (5.0)"
    if st == "deck":
        return f"{cid} {rule.title} has not been activated (5.0; {rule.cite})"
    if st == "discarded":
        return f"{cid} {rule.title} has been discarded (5.0)"
    if rule.playable:
        why = rule.playable(eng)
        if why:
            return why
    if rule.variants is not None and not rule.variants(eng):
        return f"{cid}: nothing to play now ({rule.cite})"
    return None


def owed_for(eng: Engine, side: str) -> list[dict]:
    return [o for o in eng.state.vars.get("owed_choices", []) if o["side"] == side and o.get("gt") == eng.state.gt]


def owed_options(eng: Engine, o: dict) -> list[tuple[dict, str]]:
    if o["kind"] == "ultra":
        return [({"benefit": "initiative"}, "ULTRA: influence the initiative DR (roll 1d6 in Phase V)"),
                ({"benefit": "naval_losses"}, "ULTRA: select losses in naval strikes this GT (19.9.1)"),
                ({"benefit": "none"}, "ULTRA: no benefit this GT")]
    if o["kind"] == "es_or_units":
        return [({"take": "units"}, f"{o['card']}: take the GT {o.get('gt_key')} reinforcements"),
                ({"take": "es"}, f"{o['card']}: extend the scenario by one GT instead (5.0 b Important)")]
    return [({}, "acknowledge")]


def resolve_owed(eng: Engine, o: dict, args: dict) -> None:
    st = eng.state
    if o["kind"] == "ultra":
        b = args.get("benefit")
        if b not in ULTRA_BENEFITS:
            raise IllegalAction(f"ULTRA benefit must be one of {', '.join(ULTRA_BENEFITS)}", "23.1 ALC-13")
        st.vars["ultra"] = {"gt": st.gt, "benefit": b}
        eng.say(f"ALC-13 ULTRA: the Allied player chooses '{b}' this GT (23.1 ALC-13)")
    elif o["kind"] == "es_or_units":
        take = args.get("take")
        if take == "es":
            es_shift(eng, o["card"], +1, f"{o['card']}: extension chosen instead of the GT {o.get('gt_key')} reinforcements")
        elif take == "units":
            items = card_items(eng, o["card"], o.get("gt_key"))
            make_available(eng, o["card"], items, st.gt, o["rule"])
            eng.say(f"{o['card']}: the GT {o.get('gt_key')} reinforcements are taken ({o['rule']})")
        else:
            raise IllegalAction("choose 'es' (extend) or 'units' (take the reinforcements)", "5.0 b Important")
    st.vars["owed_choices"].remove(o)


@procedure("events_declare")
class EventsDeclare(Procedure):
    """4.1 I.2 (non-initiative player) and I.3 (initiative player): declare eligible events (5.0)."""

    def _side(self, eng: Engine, frame: Frame) -> str:
        return other(eng.state.initiative) if frame.data["step"] == "I.2" else eng.state.initiative

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        ensure_cards(eng)
        if frame.data.get("done"):
            return None
        side = self._side(eng, frame)
        owed = owed_for(eng, side)
        if owed:
            o = owed[0]
            return Decision(
                side=side, kind="card_choice", prompt=f"{o['card']} {CARDS[o['card']].title}: choose", rule=o["rule"],
                options=tuple(Option(action=Action(kind="card_choice", side=side, args={"card": o["card"], **a}), label=lbl)
                              for a, lbl in owed_options(eng, o)),
                context={"card": o["card"], "choice": o["kind"]},
            )
        opts = [Option(action=Action(kind="done", side=side), label="Done: declare no (further) events")]
        for cid, args, label in declarable(eng, side):
            opts.append(Option(action=Action(kind="play_card", side=side, args={"card": cid, **args}), label=label,
                               hint=CARDS[cid].cite))
        return Decision(side=side, kind="events", prompt="Events Phase: declare any eligible event (5.0)",
                        rule=f"4.1 {frame.data['step']}; 5.0", options=tuple(opts),
                        context={"step": frame.data["step"]})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        side = self._side(eng, frame)
        if action.kind == "done":
            if owed_for(eng, side):
                raise IllegalAction("A card in play needs your choice first", owed_for(eng, side)[0]["rule"])
            frame.data["done"] = True
            return
        if action.kind == "card_choice":
            o = next((x for x in owed_for(eng, side) if x["card"] == action.args.get("card")), None)
            if o is None:
                raise IllegalAction(f"No choice is owed for {action.args.get('card')}", "5.0")
            resolve_owed(eng, o, {k: v for k, v in action.args.items() if k != "card"})
            return
        if action.kind == "play_card":
            cid = str(action.args.get("card", ""))
            rule = CARDS.get(cid)
            if rule is None:
                raise IllegalAction(f"There is no card {cid!r}", "5.0")
            if rule.side != side:
                raise IllegalAction(f"{cid} is a {rule.side} card", rule.cite)
            why = refusal(eng, cid)
            if why:
                raise IllegalAction(why, rule.cite)
            args = {k: v for k, v in action.args.items() if k != "card"}
            if rule.variants:
                allowed = [a for a, _ in rule.variants(eng)]
                if args not in allowed:
                    raise IllegalAction(f"{cid}: choose one of {allowed}", rule.cite)
            put_in_play(eng, cid, f"declared by the {side} player", args)
            return
        super().apply(eng, frame, action)


on_step("I.2", "events_declare")
on_step("I.3", "events_declare")


def play_card(eng: Engine, cid: str, args: dict | None = None) -> None:
    """Play a card outside the Events Phase procedure (tests, scenario set-up); same checks as I.2/I.3."""
    ensure_cards(eng)
    why = refusal(eng, cid)
    if why:
        raise IllegalAction(why, CARDS[cid].cite if cid in CARDS else "5.0")
    put_in_play(eng, cid, "played", args or {})


QUERIES["cards"] = lambda eng: {k: dict(v) for k, v in eng.state.cards.items()}
QUERIES["axis_in_egypt"] = lambda eng: axis_in_egypt(eng)
QUERIES["playable_cards"] = lambda eng, side=AXIS: [(c, a, lbl) for c, a, lbl in declarable(eng, side)]

_ = (calendar, field, CONTINUE)  # imported for type users
