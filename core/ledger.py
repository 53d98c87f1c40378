"""The campaign ledger (`dfd ledger`): per GT, what arrived and from where, what was withdrawn, the support
received, what was eliminated and what a counter-mix limit held back (7.0, 7.4, 2.4; 24.0-33.0).

The ledger is a read-only view: it replays the game's log from its initial state (as ``dfd replay`` does) and
compares the units after every action with those before.  Nothing is stored in the game state for it.

* an **arrival** is a counter brought into play by a rule (``flags["arrived_by"]``, set by
  ``offmap.add_counter``): scenario schedules, cards (23.0), 30.1 groups;
* **support** is an arriving RP, MSU, dump or base counter (grouped by side, kind, nationality and source) and
  every Air Transport Point received (19.7);
* **withdrawn**: a combat, air or naval unit removed from play (7.4, cards); **expended**: a supply counter
  removed (24.2 b, ALC-19 c ...);
* **eliminated**: a unit that enters a Destroyed or Refit Box (9.0, 17.0);
* **held_back**: arrivals a counter-mix limit (2.4) could not provide this GT (R-CTR-MIX-HOLD);
* ``cards_in_play``: the event cards in play after the GT's Events Phase (so a reader can check each card's
  support).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from core.counters import all_counters
from core.decisions import Action
from core.state import GameState

SUPPORT_KINDS = {"msu": "MSU", "dump": "dump", "base": "base"}
_ATP = re.compile(r"^(Axis|Allied) receives (\d+) Air Transport Point\(s\); \d+ available \((.*); 19\.7\)$")


def _base(uid: str) -> str:
    return uid.split("#", 1)[0]


def support_kind(uid: str) -> str | None:
    """"RP", "MSU", "dump", "base" for a support counter, else None."""
    base = _base(uid)
    if base.endswith("-RP"):
        return "RP"
    c = all_counters().get(base)
    if c is not None and c.kind == "supply":
        return SUPPORT_KINDS.get(c.unit_type)
    return None


def _nationality(uid: str) -> str:
    c = all_counters().get(_base(uid))
    return c.nationality if c is not None else _base(uid).split("-", 1)[0]


def _snap(st: GameState) -> dict[str, tuple[str, str]]:
    return {u.id: (u.loc, str(u.flags.get("arrived_by", ""))) for u in st.units.values()}


def _out_of_play(loc: str) -> bool:
    return loc.startswith(("box:Destroyed", "box:Refit"))


class Ledger:
    """Accumulates the ledger while a game is replayed (one :meth:`observe` per applied action)."""

    def __init__(self, st: GameState):
        self.scenario = st.scenario
        self.turns: dict[int, dict[str, Any]] = {}
        self.prev = _snap(st)
        self.held_seen: set[int] = set()
        self.cards_seen: set[int] = set()
        # counters placed by a rule before the first decision (30.1 GT-31 Phase 12 arrivals) arrive on the start GT
        for uid, (loc, by) in sorted(self.prev.items()):
            if by:
                self._arrival(st.gt, uid, loc, by, st)
        self._cards(st)

    def turn(self, gt: int) -> dict[str, Any]:
        return self.turns.setdefault(gt, {"gt": gt, "arrived": [], "withdrawn": [], "support": [], "expended": [],
                                          "eliminated": [], "held_back": [], "cards_in_play": []})

    def _arrival(self, gt: int, uid: str, loc: str, by: str, st: GameState) -> None:
        t = self.turn(gt)
        kind = support_kind(uid)
        u = st.units[uid]
        if kind is None:
            t["arrived"].append({"unit": uid, "from": by, "to": loc})
            return
        self._support(t, u.side, kind, _nationality(uid), 1, by)

    @staticmethod
    def _support(t: dict, side: str, kind: str, nat: str, n: int, source: str) -> None:
        for s in t["support"]:
            if (s["side"], s["kind"], s["nationality"], s["source"]) == (side, kind, nat, source):
                s["count"] += n
                return
        t["support"].append({"side": side, "kind": kind, "nationality": nat, "count": n, "source": source})

    def _cards(self, st: GameState) -> None:
        """The cards in play once the GT's Events Phase (4.1 I) is over: those whose each-GT items were due."""
        if st.phase < 2 or st.gt in self.cards_seen:
            return
        self.cards_seen.add(st.gt)
        t = self.turn(st.gt)
        t["cards_in_play"] = sorted(cid for cid, c in st.cards.items() if c.get("status") == "in_play")

    def observe(self, st: GameState, events: list[str]) -> None:
        gt = st.gt
        now = _snap(st)
        t = self.turn(gt)
        for uid, (loc, by) in now.items():
            before = self.prev.get(uid)
            if by and (before is None or before[1] != by):
                self._arrival(gt, uid, loc, by, st)
                continue
            if before is None:
                continue
            if loc == "removed" and before[0] != "removed":
                u = st.units[uid]
                entry = {"unit": uid, "why": str(u.flags.get("removed_by", ""))}
                (t["expended"] if support_kind(uid) else t["withdrawn"]).append(entry)
            elif _out_of_play(loc) and not _out_of_play(before[0]) and before[0] != "setup":
                t["eliminated"].append({"unit": uid, "box": loc})
        for line in events:
            m = _ATP.match(line)
            if m:
                self._support(t, m.group(1), "ATP", "AX" if m.group(1) == "Axis" else "AL", int(m.group(2)),
                              m.group(3))
        held = st.vars.get("mix_held") or {}
        if held.get("gt") == gt and gt not in self.held_seen and held.get("items"):
            self.held_seen.add(gt)
            for h in held["items"]:
                key = {"what": h["what"], "why": h["why"], "source": h.get("rule", ""), "since": h.get("since", gt)}
                same = next((x for x in t["held_back"] if {k: x[k] for k in key} == key), None)
                if same:
                    same["count"] += 1
                else:
                    t["held_back"].append(key | {"count": 1})
        self._cards(st)
        self.prev = now

    def document(self, result: dict | None = None) -> dict[str, Any]:
        turns = []
        for gt in sorted(self.turns):
            t = self.turns[gt]
            t["cards_in_play"] = sorted(t["cards_in_play"])
            turns.append(t)
        return {"scenario": self.scenario, "turns": turns, "result": result}


def build(path: Path | str) -> dict[str, Any]:
    """Replay the game file at ``path`` and return its ledger document (the ``--json`` format of issue 17)."""
    from core.engine import Engine
    from core.game import _RecordedDice
    from core.store import Store

    store = Store.open(Path(path))
    try:
        dice = _RecordedDice()
        eng = Engine(GameState.decode(store.initial_state()), dice)
        led = Ledger(eng.state)
        for row in store.actions(0):
            dice.queue = json.loads(row.rolls)
            entry = eng.apply(Action.from_json(row.action))
            led.observe(eng.state, entry.events)
        return led.document(eng.state.result)
    finally:
        store.close()


def of_engine(start: GameState, actions: list[Action], dice: Any = None) -> dict[str, Any]:
    """The ledger of a game given as a start state and actions (tests, the app)."""
    from core.engine import Engine

    eng = Engine(GameState.decode(start.encode()), dice)
    led = Ledger(eng.state)
    for a in actions:
        entry = eng.apply(a)
        led.observe(eng.state, entry.events)
    return led.document(eng.state.result)


def _units(items: list[dict], key: str = "unit") -> str:
    return ", ".join(i[key] for i in items)


def text(doc: dict[str, Any]) -> str:
    """The ledger as a table a player can check against the printed game."""
    lines = [f"Ledger of {doc['scenario']}"]
    for t in doc["turns"]:
        lines.append(f"GT {t['gt']}")
        by_src: dict[str, list[str]] = {}
        for a in t["arrived"]:
            by_src.setdefault(a["from"], []).append(a["unit"])
        for src, units in by_src.items():
            lines.append(f"  arrived   {src}: {', '.join(units)}")
        for s in t["support"]:
            lines.append(f"  support   {s['side']:6} {s['count']} x {s['kind']} ({s['nationality']})  {s['source']}")
        if t["withdrawn"]:
            lines.append(f"  withdrawn {_units(t['withdrawn'])}")
        if t["expended"]:
            lines.append(f"  expended  {_units(t['expended'])}")
        if t["eliminated"]:
            lines.append(f"  eliminated {', '.join(e['unit'] + ' -> ' + e['box'] for e in t['eliminated'])}")
        for h in t["held_back"]:
            lines.append(f"  held back {h['count']} x {h['what']} ({h['source']}, due GT {h['since']}): {h['why']}")
    res = doc.get("result")
    if res:
        lines.append(f"Result: {res.get('text')}")
    return "\n".join(lines)
