"""The 48 event cards as data (5.0, 23.0-23.2).

``resources/cards/allied.toml`` (ALC-1..28) and ``resources/cards/axis.toml``
(AXC-1..20) hold each card's type, activation, play window, discard, end-
scenario shifts (ES, 5.0(b)), reinforcement / withdrawal schedules (fixed GT or
T+n, 5.0(a), 7.1), set-up placements, MET track parameters (22.2, 23.0) and
the names of the procedure hooks the events engine implements for effects that
are procedures.  Every card records ``source`` (rules / reconstructed) for its
structure and ``units_source`` for its unit lists.  See
docs/data.d/charts-cards.md for the format.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Literal

import msgspec

from core.datafile import load_toml
from core.resources import resource

SOURCES = ("rules", "reconstructed")
CARD_ID = re.compile(r"^(ALC|AXC)-([1-9]\d?)$")
HEX = re.compile(r"^[ALSCTW]\d{4}$")
UNIT_ID = re.compile(r"^[A-Z]{2,3}-[A-Za-z0-9]+$")
CARD_TYPES = ("at_start", "met", "reinforcement", "monthly_support", "event")
LOCATION_PREFIXES = ("box:", "track:", "card:")


class CardError(ValueError):
    """A card file that cannot be used; the message names the file, the card and the field."""


class _S(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    pass


class Activation(_S, kw_only=True):
    """When the card becomes available for play (5.0)."""

    at_start: bool = False              # in play / available from set-up
    gt: int = 0                         # activated on this GT (0: none)
    after_played: list[str] = []        # every one of these cards has been played ...
    after_discarded: list[str] = []     # ... or discarded
    any_of: list[str] = []              # at least one of these cards has been played
    delay: int = 0                      # GTs after the condition (1 = "the GT after")
    condition: str = ""                 # further condition, in words
    hook: str = ""                      # events-engine predicate for ``condition``


class Play(_S, kw_only=True):
    """When it may or must be played."""

    window: Literal["at_start", "automatic", "any_gt", "each_gt", "events_phase"]
    earliest_gt: int = 0
    forced_gt: int = 0                  # must be activated and played on this GT if not before
    repeatable: bool = False            # may be played every GT (Appeal, Monthly Support)
    hook: str = ""


class Discard(_S, kw_only=True):
    when: Literal["after_setup", "never", "end_of_gt", "conditions_met", "track_deactivated",
                  "after_gts", "on_play"]
    gt: int = 0                         # end_of_gt: discard at the end of this GT
    gts: int = 0                        # after_gts: this many GTs after play
    then_activate: list[str] = []       # cards put in play on discard
    hook: str = ""


class EsShift(_S, kw_only=True):
    """5.0(b): a move of the end scenario marker."""

    shift: int
    when: Literal["on_play", "each_play", "gt", "per_gt_in_crisis", "condition", "declared"]
    gt: int = 0
    condition: str = ""
    hook: str = ""
    or_units: bool = False              # 5.0 Important: "ES ... OR" counters: the player chooses


class Arrival(_S, kw_only=True):
    """Reinforcements (7.0): a fixed GT, T+n after play (5.0(a)), or every GT."""

    units: list[str]
    gt: int = 0
    t: int = -1                         # T+n (n >= 0); -1 when a fixed GT is given
    each_gt: bool = False
    from_gt: int = 0                    # each_gt items: paid from this GT (or the GT of play if later)
    where: str = "box:Available"
    depleted: list[str] = []
    training_box: int = 0               # 8.5.1: arrive in this Training Track box
    or_es: int = 0                      # 5.0 Important / ALC-14(d): take these or shift ES by this
    condition: str = ""
    hook: str = ""
    note: str = ""
    source: str = ""
    reason: str = ""


class Withdrawal(_S, kw_only=True):
    units: list[str] = []
    gt: int = 0
    t: int = -1
    to: str = "removed"                 # removed | a MET track | box:...
    note: str = ""
    hook: str = ""
    source: str = ""
    reason: str = ""


class Placement(_S, kw_only=True):
    """Set-up (3.1): ``within`` hexes of ``where`` (0 = in it); ``adjacent``: on or adjacent."""

    where: str
    units: list[str] = []
    within: int = 0
    adjacent: bool = False
    depleted: list[str] = []
    active: list[str] = []              # bases placed active side up (12.2.3)
    primary: list[str] = []             # the primary base (12.2.4)
    fort_levels: list[int] = []         # fort markers placed (18.1)
    training_box: int = 0
    note: str = ""
    source: str = ""
    reason: str = ""


def placement_units(p: Placement) -> list[str]:
    """The counters a set-up line places: its units, or one fort marker per listed level (18.1)."""
    return list(p.units) or ["MK-Fort"] * len(p.fort_levels)


def state_location(where: str, side: str, training_box: int = 0) -> str:
    """A card's set-up location in the game state's vocabulary (the scenarios' ``at``): the Training Track box
    of the side (8.5.1), the MET track boxes (22.2), the Oasis and FNA boxes by name, the side's air box."""
    if where.startswith("track:Training"):
        return f"track:Training:{side}:{training_box or where.rsplit(':', 1)[-1]}"
    if where.startswith("track:MET:"):
        return "track:MET-" + where[len("track:MET:"):].replace(" ", "")
    if where.startswith("box:Oasis:") and where[len("box:Oasis:"):].lower() != "any":
        return "box:Oasis:" + where[len("box:Oasis:"):].lower()      # the Oasis Track's boxes (16.2, core.rules.raiders)
    if where.startswith("box:FNA:") and where[len("box:FNA:"):].lower() != "any":
        return "box:" + where[len("box:FNA:"):]
    if where.startswith("box:AirNorthAfrica:"):
        return "box:AirNA:" + where.rsplit(":", 1)[-1]
    return where


class Drm(_S, kw_only=True):
    value: int
    condition: str
    per: str = ""                       # "" or what the DRM is counted per (e.g. "Axis air unit on track")
    hook: str = ""


class CrisisEffect(_S, kw_only=True):
    text: str
    es_per_gt: int = 0                  # ES shift each Events Phase the track is in crisis
    nrv_port_capacity: int = 0          # 22.1: NRV port capacity while in crisis (0: unchanged)
    hook: str = ""


class MetTrack(_S, kw_only=True):
    """22.2 / 23.0: a Middle East Track card's parameters."""

    track: str
    boxes: int                          # highest box (the track runs 0..boxes, 22.2 table)
    mountain_boxes: list[int] = []      # brown boxes (22.2.2(b))
    advance: list[int]                  # [low, high] 1d6 range that advances the marker
    drms: list[Drm] = []
    crisis: list[CrisisEffect] = []
    deactivate: str                     # "never" or the condition in words
    deactivate_hook: str = ""
    active_at_start: bool = False
    combat: str = "22.2.2"
    source: str = "rules"
    reason: str = ""


class Link(_S, kw_only=True):
    card: str
    when: Literal["on_play", "on_discard", "gt", "next_gt", "on_deactivate", "on_complete"]
    gt: int = 0


class Card(_S, kw_only=True):
    id: str
    title: str
    type: Literal["at_start", "met", "reinforcement", "monthly_support", "event"]
    rule: str
    text: str
    source: str
    reason: str = ""
    units_source: str = "reconstructed"
    units_reason: str = ""
    activation: Activation = Activation()
    play: Play
    discard: Discard
    once_per_game: bool = True
    es: list[EsShift] = []
    reinforcements: list[Arrival] = []
    withdrawals: list[Withdrawal] = []
    setup: list[Placement] = []
    met: MetTrack | None = None
    activates: list[Link] = []
    hooks: list[str] = []
    params: dict[str, Any] = {}         # machine-readable parameters the events engine reads (AXC-9 conditions...)

    @property
    def side(self) -> str:
        return "Allied" if self.id.startswith("ALC") else "Axis"

    @property
    def number(self) -> int:
        return int(self.id.split("-")[1])


class CardFile(_S, kw_only=True):
    card: list[Card]


FILES = {"Allied": "allied.toml", "Axis": "axis.toml"}
COUNT = {"Allied": 28, "Axis": 20}


def _check_source(where: str, source: str, reason: str) -> None:
    if source not in SOURCES:
        raise CardError(f"{where}.source must be 'rules' or 'reconstructed', not {source!r}")
    if source == "reconstructed" and not reason.strip():
        raise CardError(f"{where}.reason: a reconstructed value needs a one-line reason")


def _check_location(where: str, loc: str) -> None:
    if not (HEX.match(loc) or loc.startswith(LOCATION_PREFIXES) or loc == "removed"):
        raise CardError(f"{where}: {loc!r} is neither a hex (C2331) nor a box:/track: location")


def _check_units(where: str, units: list[str]) -> None:
    for i, u in enumerate(units):
        if not UNIT_ID.match(u):
            raise CardError(f"{where}[{i}]: {u!r} is not a counter id (NAT-Name, e.g. UK-7RTR)")


def _validate(name: str, cards: list[Card]) -> None:
    f = f"resources/cards/{name}"
    for i, c in enumerate(cards):
        w = f"{f}: card[{i}] ({c.id})"
        if not CARD_ID.match(c.id):
            raise CardError(f"{w}.id: not a card id (ALC-n or AXC-n)")
        _check_source(w, c.source, c.reason)
        _check_source(w + ".units", c.units_source, c.units_reason)
        if not c.text.strip():
            raise CardError(f"{w}.text: the card text is empty")
        refs = (c.activation.after_played + c.activation.after_discarded + c.activation.any_of
                + c.discard.then_activate + [link.card for link in c.activates])
        for r in refs:
            if not CARD_ID.match(r):
                raise CardError(f"{w}: {r!r} is not a card id")
        for k, a in enumerate(c.reinforcements):
            ww = f"{w}.reinforcements[{k}]"
            _check_units(ww + ".units", a.units)
            _check_units(ww + ".depleted", a.depleted)
            if not set(a.depleted) <= set(a.units):
                raise CardError(f"{ww}.depleted: every depleted unit must also be listed in units")
            if sum((a.gt > 0, a.t >= 0, a.each_gt)) != 1 and not a.condition:
                raise CardError(f"{ww}: give exactly one of gt, t (T+n) or each_gt (or a condition)")
            _check_location(ww + ".where", a.where)
            if a.source:
                _check_source(ww, a.source, a.reason or c.units_reason)
        for k, wd in enumerate(c.withdrawals):
            ww = f"{w}.withdrawals[{k}]"
            _check_units(ww + ".units", wd.units)
            _check_location(ww + ".to", wd.to)
            if not wd.units and not wd.hook:
                raise CardError(f"{ww}: a withdrawal names its units or a hook that chooses them")
        for k, p in enumerate(c.setup):
            ww = f"{w}.setup[{k}]"
            _check_units(ww + ".units", p.units)
            _check_location(ww + ".where", p.where)
            for fld in ("depleted", "active"):
                if not set(getattr(p, fld)) <= set(p.units):
                    raise CardError(f"{ww}.{fld}: every unit listed must also be in units")
            if any(lv not in (0, 1, 2, 3) for lv in p.fort_levels):
                raise CardError(f"{ww}.fort_levels: forts are level 0-3 (18.1)")
            if p.source:
                _check_source(ww, p.source, p.reason or c.units_reason)
        if c.type == "met":
            if c.met is None:
                raise CardError(f"{w}.met: a MET card needs its track parameters (23.0)")
            m = c.met
            _check_source(w + ".met", m.source, m.reason)
            if len(m.advance) != 2 or not 1 <= m.advance[0] <= m.advance[1] <= 6:
                raise CardError(f"{w}.met.advance: a 1d6 range [low, high] within 1..6")
            if any(not 0 <= b <= m.boxes for b in m.mountain_boxes):
                raise CardError(f"{w}.met.mountain_boxes: boxes run 0..{m.boxes}")
        elif c.met is not None:
            raise CardError(f"{w}.met: only MET cards have track parameters")


@cache
def all_cards() -> dict[str, Card]:
    """Every card by id, validated (48 cards: 28 Allied, 20 Axis, 5.0)."""
    out: dict[str, Card] = {}
    for side, name in FILES.items():
        cards = load_toml(resource("cards", name), CardFile, CardError, f"resources/cards/{name}").card
        _validate(name, cards)
        for c in cards:
            if c.side != side:
                raise CardError(f"resources/cards/{name}: {c.id} belongs in {FILES[c.side]}")
            if c.id in out:
                raise CardError(f"resources/cards/{name}: {c.id} defined twice")
            out[c.id] = c
        want = {f"{'ALC' if side == 'Allied' else 'AXC'}-{n}" for n in range(1, COUNT[side] + 1)}
        got = {c.id for c in cards}
        if got != want:
            raise CardError(f"resources/cards/{name}: missing {sorted(want - got)}, unexpected {sorted(got - want)}")
    for c in out.values():
        for r in (c.activation.after_played + c.activation.after_discarded + c.activation.any_of
                  + c.discard.then_activate + [link.card for link in c.activates]):
            if r not in out:
                raise CardError(f"resources/cards/{FILES[c.side]}: {c.id} refers to unknown card {r}")
    return out


def card(card_id: str) -> Card:
    """One card by id (``"ALC-12"``)."""
    try:
        return all_cards()[card_id]
    except KeyError:
        raise KeyError(f"no card {card_id!r} (ALC-1..28, AXC-1..20)") from None


def cards_of(side: str) -> list[Card]:
    """The cards of one side in number order."""
    return sorted((c for c in all_cards().values() if c.side == side), key=lambda c: c.number)


def arrival_gt(item: Arrival, played_gt: int) -> int | None:
    """GT an arrival is due: T+n counts from the GT of play (5.0(a)); a fixed GT already passed
    arrives on the GT of play (7.1).  None for every-GT items."""
    if item.each_gt:
        return None
    if item.t >= 0:
        return played_gt + item.t
    if item.gt:
        return max(item.gt, played_gt)
    return None


def reinforcements_due(c: Card, played_gt: int, gt: int) -> list[Arrival]:
    """Reinforcements of ``c`` (played on ``played_gt``) that arrive on ``gt`` (5.0(a), 7.1).

    Every-GT items (monthly support) are due on every GT from the GT of play (or their ``from_gt``)."""
    out = []
    for a in c.reinforcements:
        if a.each_gt:
            if gt >= max(played_gt, a.from_gt):
                out.append(a)
        elif arrival_gt(a, played_gt) == gt:
            out.append(a)
    return out


def withdrawals_due(c: Card, played_gt: int, gt: int) -> list[Withdrawal]:
    """Withdrawals of ``c`` due on ``gt`` (T+n from play, or a fixed GT; 7.4)."""
    out = []
    for w in c.withdrawals:
        due = played_gt + w.t if w.t >= 0 else (max(w.gt, played_gt) if w.gt else None)
        if due == gt:
            out.append(w)
    return out


def es_on_play(c: Card) -> int:
    """The end-scenario shift applied when the card is played (5.0(b))."""
    return sum(e.shift for e in c.es if e.when in ("on_play", "each_play"))


def all_hooks() -> list[str]:
    """Every procedure hook the cards name (the events engine implements each)."""
    hooks: set[str] = set()
    for c in all_cards().values():
        hooks.update(c.hooks)
        for h in (c.activation.hook, c.play.hook, c.discard.hook):
            if h:
                hooks.add(h)
        for seq in (c.es, c.reinforcements, c.withdrawals):
            hooks.update(x.hook for x in seq if x.hook)
        if c.met:
            hooks.update(d.hook for d in c.met.drms if d.hook)
            hooks.update(e.hook for e in c.met.crisis if e.hook)
            if c.met.deactivate_hook:
                hooks.add(c.met.deactivate_hook)
    return sorted(hooks)


def unit_ids() -> set[str]:
    """Every counter id a card names (for ``dfd validate``'s cross-check with resources/counters)."""
    out: set[str] = set()
    for c in all_cards().values():
        for a in c.reinforcements:
            out.update(a.units)
        for w in c.withdrawals:
            out.update(w.units)
        for p in c.setup:
            out.update(p.units)
    return out


def unknown_units(known: set[str] | None = None) -> list[str]:
    """Card unit ids missing from resources/counters (aliases resolved)."""
    if known is None:
        from core.counters import all_counters, resolve
        counters = all_counters()
        return sorted(u for u in unit_ids() if (resolve(u) or u) not in counters)
    return sorted(u for u in unit_ids() if u not in known)
