"""Fuzz whole games like a user: random bots play every scenario through a real ``.dfd`` file (issue 16).

    .venv/bin/python scripts/fuzz_autoplay.py --all --seeds 1 --report     # the reachability report (CI: one seed)
    .venv/bin/python scripts/fuzz_autoplay.py --scenario desert-war --seeds 1 2 3 --time-limit 120

Each game is created with ``core.game.Game`` (the SQLite store, one committed row per action) and driven only
through ``Game.act`` = ``Engine.apply``.  At every decision a seeded bot

* picks one of the offered options at random (every offered option must be accepted);
* sometimes takes back its last action (``undo``, R-UNDO): the state must return to one seen before;
* sometimes tries a free-form action the decision lists in ``free_kinds`` — a move to a random hex or an
  overrun of an adjacent enemy stack (via the ``route`` query a GUI uses, or a straight line that may well be
  illegal), a reserve order, supply and construction orders, rail and coastal moves, air landings from the
  airlift boxes, Oasis Track moves and raider missions, Fall Braun drops, a combat declaration with a random
  form — which the engine may accept or refuse (a refusal must leave the state hash untouched).

Odd seeds play with every optional rule the scenario allows (16.0 desert raiders), even seeds without.

After every action the invariants of ``tests/invariants.py`` are checked (counter conservation, counter-mix
limits, units only in land hexes, end-scenario marker moved only by rules, stacking at phase ends).  When the
game ends, ``core.game.verify`` (what ``dfd replay FILE --verify`` runs) replays the file and must reproduce
every stored hash of the game's actions.

A game is an **error** when it raised, refused an option it offered, failed verification, broke an invariant,
or did not finish within its time limit (CPU seconds of its worker, so a busy machine does not time games out)
or decision limit.  Each error names scenario, seed, the action
number and the message; ``--keep DIR`` keeps the ``.dfd`` files to replay.

``--report`` counts how often every registered procedure (``proc:``), decision kind (``decision:``),
Movement-Phase action kind (``move:``), card put in play by the set-up or played (``card:``), special combat
form (``form:``) and victory condition kind that held at the end of a GT or decided the game (``victory:``) was
reached (and, for names reached fewer than ten times, in which games and at which decision first), and ends
with one JSON line ``{"games": N, "errors": [...], "unreached": [...]}``.  Names listed under
``## Unreachable by random play`` in ``docs/architecture.md`` are left out of ``unreached`` (each line names why,
and the play-path test that reaches it).  The exit status is 1 when there is an error or an undocumented unreached name.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: probability that the bot tries an undo when it may / a free-form action when the decision lists one
P_UNDO = 0.03
P_FREE = 0.4

class _Reached(Counter):
    """Counts reached names and remembers the decision number (``NOW``) at which each was first reached."""

    first: dict[str, int]

    def __setitem__(self, key, value):
        self.first.setdefault(key, NOW[0])
        super().__setitem__(key, value)

    def clear(self):
        super().clear()
        self.first = {}


NOW = [0]                       # the decision number of the game being played (for ``_Reached.first``)
REACHED: _Reached = _Reached()
REACHED.first = {}
REFUSED: Counter[str] = Counter()      # free-form kind: rule -> how often the engine refused the bot's attempt


# --------------------------------------------------------------------------- reachability counters


def _install_counters() -> None:
    """Count every procedure that ran (its ``decide`` was asked) and the form of every combat pushed, in this
    worker process.  The counters wrap the registered procedures and ``Engine.push`` from the outside: they add
    nothing to the engine or its hashed state."""
    from core.engine import PROCEDURES, Engine, _ensure_rules_loaded

    if getattr(Engine.push, "_fuzz_counted", False):
        return
    _ensure_rules_loaded()
    for name, inst in PROCEDURES.items():
        def decide(eng, frame, _decide=inst.decide, _key=f"proc:{name}"):
            REACHED[_key] += 1
            return _decide(eng, frame)

        inst.decide = decide  # type: ignore[method-assign]
    push = Engine.push

    def counted(self, proc, **data):
        if proc == "exploitation":             # 14.9.3 Exploitation: a special combat form run as its own procedure
            REACHED["form:exploitation"] += 1
        if proc == "resolve_combat":
            REACHED[f"form:{data.get('form') or 'regular'}"] += 1
            if data.get("recon"):
                REACHED["form:recon_split"] += 1
        return push(self, proc, **data)

    counted._fuzz_counted = True  # type: ignore[attr-defined]
    Engine.push = counted  # type: ignore[method-assign]


def decision_kinds() -> set[str]:
    """Every constant decision kind in ``core/`` (``Decision(kind=...)``, ``item_decision(side, kind, ...)``)."""
    kinds: set[str] = set()
    for path in (ROOT / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "Decision":
                for kw in node.keywords:
                    if kw.arg == "kind" and isinstance(kw.value, ast.Constant):
                        kinds.add(kw.value.value)
            elif name == "item_decision" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                kinds.add(node.args[1].value)
            elif name == "done_step":
                kinds.add("step")
    return kinds


def victory_kinds() -> set[str]:
    """The victory-condition vocabulary: every kind the scenarios' conditions (or the built-in table) use."""
    from core.rules import victory_rules
    from core.scenario import all_scenarios

    out: set[str] = set()

    def walk(cs):
        for c in cs:
            out.add(c["kind"] if isinstance(c, dict) else c.kind)
            walk(c.get("all_of", []) if isinstance(c, dict) else c.all_of)

    for conds in victory_rules.BUILTIN.values():
        walk(conds)
    for s in all_scenarios():
        walk(s.victory)
    out.discard("")
    return out


def universe() -> set[str]:
    """Every name the report expects to see reached."""
    from core.engine import PROCEDURES, _ensure_rules_loaded

    _ensure_rules_loaded()
    from core.rules import combat, events, movement

    names = {f"proc:{p}" for p in PROCEDURES}
    names |= {f"decision:{k}" for k in decision_kinds()}
    names |= {f"move:{k}" for k in movement_kinds(movement)}
    names |= {f"card:{c}" for c in events.CARDS}
    names |= {f"form:{f}" for f in combat.FORMS} | {"form:recon_split"}
    names |= {f"victory:{k}" for k in victory_kinds()}
    return names


def movement_kinds(movement) -> set[str]:
    """The Movement Phase's free-form action kinds: 13.0's own and those other chapters register."""
    src = Path(movement.__file__).read_text(encoding="utf-8")
    m = re.search(r'kind="movement".*?free_kinds=\((.*?)\*MOVEMENT_ACTIONS', src, re.S)
    own = set(re.findall(r'"(\w+)"', m.group(1))) if m else {"move"}
    return own | set(movement.MOVEMENT_ACTIONS)


def documented_unreachable(path: Path = ROOT / "docs" / "architecture.md") -> dict[str, str]:
    """``## Unreachable by random play``: one line per name, `` `name` — why, and the play-path test``."""
    out: dict[str, str] = {}
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^## Unreachable by random play\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        return out
    for line in m.group(1).splitlines():
        g = re.match(r"^[*-]?\s*`([^`]+)`\s*[—-]+\s*(.+)$", line.strip())
        if g:
            out[g.group(1)] = g.group(2)
    return out


# --------------------------------------------------------------------------- the bot's free-form actions


def _own_stacks(st, side: str) -> dict[str, list[str]]:
    from core.rules.status import hex_of, is_combat, supply_kind

    stacks: dict[str, list[str]] = {}
    for u in st.units.values():
        if u.side == side and hex_of(u) is not None and (is_combat(u) or supply_kind(u) in ("msu", "dump")):
            stacks.setdefault(u.loc, []).append(u.id)
    return {k: sorted(v) for k, v in stacks.items()}


def _enemy_hexes(st, side: str) -> set[str]:
    from core.rules.status import hex_of

    return {u.loc for u in st.units.values() if u.side not in (side, "") and hex_of(u) is not None}


def free_action(eng, d, rng: random.Random):
    """A free-form action for decision ``d`` (or None): what a user could type or drag, legal or not."""
    from core.decisions import EITHER, Action
    from core.hexgrid import Hex

    side = d.side
    if side == EITHER:
        return None
    st = eng.state
    kinds = set(d.free_kinds)
    stacks = _own_stacks(st, side)
    others = sorted(kinds & set(SUPPORT_KINDS))
    if not stacks:
        return support_action(eng, side, rng.choice(others), rng) if others else None
    if others and ("move" not in kinds or rng.random() < 0.4):
        a = support_action(eng, side, rng.choice(others), rng)
        if a is not None:
            return a
    if "move" in kinds:
        start = rng.choice(sorted(stacks))
        units = stacks[start]
        units = rng.sample(units, rng.randint(1, len(units)))
        if "reserve" in kinds and rng.random() < 0.1:
            return Action(kind="reserve", side=side, args={"units": units})
        h = Hex.parse(start)
        enemy = sorted(e for e in _enemy_hexes(st, side) if Hex.parse(e).distance(h) <= 6)
        if enemy and rng.random() < 0.4:
            target = Hex.parse(rng.choice(enemy))                                   # 13.4 overrun attempt
        else:
            ring = [n for n in h.neighbours() if n.on_grid] or [h]
            target = rng.choice(ring)
            for _ in range(rng.randint(0, 6)):
                nxt = [n for n in target.neighbours() if n.on_grid]
                target = rng.choice(nxt) if nxt else target
        road = rng.random() < 0.3
        route = None
        if rng.random() < 0.8 and target != h:
            route = eng.query("route", units=units, to=target.label, road_march=road)
        path = route["path"] if route else [x.label for x in h.line_to(target)[1:] if x.on_grid]
        if not path:
            return None
        args = {"units": units, "path": path}
        if road:
            args["road_march"] = True
        if rng.random() < 0.2:
            args["lift"] = True                   # 13.7: an MSU carries the others
        return Action(kind="move", side=side, args=args)
    if "declare" in kinds:
        from core.rules.status import is_combat

        targets = sorted({n.label for loc in stacks for n in Hex.parse(loc).neighbours()} & _enemy_hexes(st, side))
        if not targets:
            return None
        t = Hex.parse(rng.choice(targets))
        adj = [u.id for u in st.units.values() if u.side == side and is_combat(u) and u.loc in
               {n.label for n in t.neighbours()}]
        if not adj:
            return None
        attackers = sorted(rng.sample(adj, rng.randint(1, len(adj))))
        args = {"attackers": attackers, "hexes": [t.label], "form": rng.choice(["regular", "mobile", "deliberate"])}
        if rng.random() < 0.2:
            args["recon"] = True
        return Action(kind="declare", side=side, args=args)
    return None


#: the Movement Phase's other free-form kinds the bot knows how to fill in (13.6, 12.2.3, 12.2.5, 12.7, 13.7,
#: 18.0, 20.3): their arguments are drawn from the side's own units, legal or not
SUPPORT_KINDS = ("reserve", "create_base", "build_fort", "build_road", "emergency_supply", "destroy_supply",
                 "transfer", "rail", "coastal_ship", "air_land", "oasis_move", "raid", "fall_braun_drop")


def support_action(eng, side: str, kind: str, rng: random.Random):
    from core.decisions import Action
    from core.hexgrid import Hex
    from core.rules import construction, tec
    from core.rules.status import hex_of, is_combat, supply_kind

    st = eng.state
    mine = sorted((u for u in st.units.values() if u.side == side and hex_of(u) is not None), key=lambda u: u.id)
    combat = [u for u in mine if is_combat(u)]
    by_kind = {k: [u for u in mine if supply_kind(u) == k] for k in ("msu", "dump", "base")}

    def pick(xs):
        return rng.choice(xs) if xs else None

    def with_(us, kind_):            # units of ``us`` stacked with a supply unit of ``kind_`` (preferred)
        here = {x.loc for x in by_kind[kind_]}
        return [u for u in us if u.loc in here] or us

    if kind in ("oasis_move", "raid", "air_land", "fall_braun_drop"):
        return _box_action(eng, side, kind, rng)
    if kind == "reserve" or kind in ("rail", "coastal_ship"):
        u = pick(combat)
        if u is None:
            return None
        stack = [x.id for x in combat if x.loc == u.loc]
        units = sorted(rng.sample(stack, rng.randint(1, len(stack))))
        if kind == "reserve":
            return Action(kind=kind, side=side, args={"units": units})
        gm = tec.current_map()
        if kind == "coastal_ship":
            to = pick(sorted(h.label for h in gm.ports))
        else:
            to = pick(sorted({x.loc for x in mine} - {u.loc})) or u.loc
        return Action(kind=kind, side=side, args={"units": units, "to": to})
    if kind == "create_base":
        m = pick(with_(by_kind["msu"], "dump"))
        return Action(kind=kind, side=side, args={"hex": m.loc}) if m else None
    if kind == "build_fort":
        u = pick(with_(combat, "dump") if rng.random() < 0.5 else combat)
        if u is None:
            return None
        d = pick([x for x in by_kind["dump"] if x.loc == u.loc] or by_kind["dump"])
        args = {"unit": u.id, "level": rng.randint(0, 3)}
        if d is not None:
            args["dump"] = d.id
        return Action(kind=kind, side=side, args=args)
    if kind == "build_road":
        m = pick(by_kind["msu"])
        if m is None:
            return None
        nxt = [n.label for n in Hex.parse(m.loc).neighbours() if n.on_grid]
        return Action(kind=kind, side=side, args={"msu": m.id, "road": rng.choice(construction.ROADS),
                                                  "hexes": [rng.choice(nxt)] if nxt else []})
    if kind == "emergency_supply":
        u = pick(with_(combat, "dump"))
        d = u and pick([x for x in by_kind["dump"] if x.loc == u.loc] or by_kind["dump"])
        return Action(kind=kind, side=side, args={"unit": u.id, "dump": d.id}) if u and d else None
    if kind == "destroy_supply":
        s = pick(by_kind["msu"] + by_kind["dump"])
        c = s and pick([x for x in combat if x.loc == s.loc] or combat)
        return Action(kind=kind, side=side, args={"unit": s.id, "by": c.id}) if s and c else None
    if kind == "transfer":
        if len(by_kind["base"]) < 2:
            return None
        src, dst = rng.sample(by_kind["base"], 2)
        items = [x.id for x in by_kind["dump"] if x.loc == src.loc][:1]
        return Action(kind=kind, side=side, args={"from": src.id, "to": dst.id, "units": items})
    return None


def _box_action(eng, side: str, kind: str, rng: random.Random):
    """16.2 ``oasis_move`` (a walk along the Oasis Track), 16.4 ``raid`` (a mission next to the raider),
    13.7 e) ``air_land`` (from an airlift box to a hex of the map) and AXC-19 b) ``fall_braun_drop``: the units
    are drawn from where the rule needs them (track nodes, raiders on the grid, airlift boxes, the Fall Braun Box),
    the destination at random nearby, legal or not."""
    from core import mapdata
    from core.decisions import Action
    from core.rules import airdrop, raiders, transport
    from core.rules.status import hex_of, is_combat, is_desert_raider, supply_kind

    st = eng.state
    mine = sorted((u for u in st.units.values() if u.side == side), key=lambda u: u.id)
    if kind == "oasis_move":
        links = raiders.links()
        movers = [u for u in mine if raiders.desert_capable(u) and (u.loc in links or raiders.is_chad(u))]
        if not movers:
            return None
        u = rng.choice(movers)
        units = sorted(x.id for x in movers if x.loc == u.loc)
        units = sorted(rng.sample(units, rng.randint(1, len(units))))
        path, cur = [], u.loc
        for _ in range(rng.randint(1, 3)):
            nxt = sorted(links.get(cur, {})) or [raiders.KUFRA]
            cur = rng.choice(nxt)
            path.append(cur)
        return Action(kind=kind, side=side, args={"units": units, "path": path})
    if kind == "raid":
        rs = [u for u in mine if is_desert_raider(st, u) and hex_of(u) is not None]
        if not rs:
            return None
        u = rng.choice(rs)
        h = hex_of(u)
        mission = rng.choice(["supply", "airfield", "guiding"])
        args = {"unit": u.id, "mission": mission}
        if mission == "supply":
            ts = sorted((t for t in st.units.values() if t.side not in (side, "") and supply_kind(t) in ("msu", "dump")
                         and (th := hex_of(t)) is not None and th.distance(h) <= 3), key=lambda t: t.id)
            if not ts:
                return None
            args["target"] = rng.choice(ts).id
        elif mission == "airfield":
            md = mapdata.load()
            near = sorted(n.label for n in h.neighbours() if n.on_grid and md.airfield(n))
            args["target"] = rng.choice(near) if near else rng.choice([n.label for n in h.neighbours() if n.on_grid])
        return Action(kind=kind, side=side, args=args)
    if kind == "air_land":
        boxed = [u for u in mine if u.loc in transport.AIRLIFT_FROM.get(side, ())
                 and (is_combat(u) or supply_kind(u) == "dump")]
        if not boxed:
            return None
        u = rng.choice(boxed)
        md = mapdata.load()
        dests = sorted({x.loc for x in mine if (xh := hex_of(x)) is not None and (md.airfield(xh) or md.is_city(xh))})
        if not dests:
            return None
        return Action(kind=kind, side=side, args={"units": [u.id], "to": rng.choice(dests)})
    if kind == "fall_braun_drop":
        ids = airdrop.droppers(eng)
        if not ids:
            return None
        md = mapdata.load()
        hexes = sorted(lab for lab in (h.label for h in md.hexes()) if lab.startswith("T"))
        return Action(kind=kind, side=side, args={"unit": rng.choice(ids), "to": rng.choice(hexes)}) if hexes else None
    return None


# --------------------------------------------------------------------------- one game


def optional_rules(sc: str, seed: int) -> tuple[str, ...]:
    """The optional rules of a fuzz game: odd seeds play with every one the scenario allows (16.0 desert
    raiders), even seeds without, so both games are fuzzed (CI's seed 1 plays with them)."""
    from core.scenario import load

    return tuple(load(sc).optional_rules()) if seed % 2 else ()


def _pick_option(d, rng: random.Random):
    return rng.choice(d.options).action


def play(sc: str, seed: int, folder: Path, time_limit: float, max_decisions: int) -> dict:
    """Play one game; return {scenario, seed, actions, decisions, result, error, reached, first, seconds}."""
    from core.decisions import ALLIED, AXIS, Action, IllegalAction
    from core.game import Game, verify
    from core.rules import victory_rules
    from tests import invariants

    _install_counters()
    REACHED.clear()
    REFUSED.clear()
    path = folder / f"{sc}-{seed}.dfd"
    t0, cpu0 = time.monotonic(), time.process_time()
    rng = random.Random(f"dfd-fuzz:{sc}:{seed}")
    out = {"scenario": sc, "seed": seed, "actions": 0, "decisions": 0, "result": "", "error": None, "file": str(path)}
    g = None

    def fail(msg: str) -> dict:
        out["error"] = f"{sc} seed {seed} action #{len(g.engine.log) + 1 if g else 0}: {msg}"
        return out

    try:
        g = Game.new(path, sc, seed, overwrite=True, optional=optional_rules(sc, seed))
        eng = g.engine
        from core.rules.events import CARDS

        NOW[0] = 0                                  # the set-up's cards are reached at decision 0, not at the
        for cid, c in eng.state.cards.items():      # previous game's last one; in effect from the set-up (24.0-33.0)
            # at-start cards set the scenario up and are discarded after it (5.0 At Start Cards)
            if c.get("status") == "in_play" or (c.get("status") == "discarded" and cid in CARDS
                                                 and CARDS[cid].kind == "at_start"):
                REACHED[f"card:{cid}"] += 1
        seen_hashes = {eng.hash()}
        last_gt = eng.state.gt
        while (d := eng.pending()) is not None:
            NOW[0] = out["decisions"]
            if time.process_time() - cpu0 > time_limit:
                return fail(f"unfinished within the time limit of {time_limit:.0f} s of CPU time (GT {eng.state.gt}, phase "
                            f"{eng.state.phase}, {d.kind})")
            if out["decisions"] >= max_decisions:
                return fail(f"unfinished within {max_decisions} decisions (GT {eng.state.gt}, {d.kind})")
            out["decisions"] += 1
            REACHED[f"decision:{d.kind}"] += 1
            if not d.options:
                return fail(f"dead end: decision {d.kind} ({d.rule}) offers no option")
            before = invariants.Before.of(eng.state)
            undoers = [s for s in (AXIS, ALLIED) if eng.can_undo(s)]
            if undoers and rng.random() < P_UNDO:
                g.act(Action(kind="undo", side=undoers[0]))
                if eng.hash() not in seen_hashes:
                    return fail("undo led to a state never seen before (R-UNDO)")
                continue
            action, offered = None, True
            if d.free_kinds and rng.random() < P_FREE:
                action, offered = free_action(eng, d, rng), False
            if action is None:
                action, offered = _pick_option(d, rng), True
            h0 = eng.hash()
            try:
                g.act(action)
            except IllegalAction as exc:
                if offered:
                    return fail(f"refused an option it offered in {d.kind}: {action} -> {exc} [{exc.rule}]")
                if eng.hash() != h0:
                    return fail(f"a refused free-form {action.kind} changed the state")
                REFUSED[f"{action.kind}: {exc.rule}"] += 1
                continue
            seen_hashes.add(eng.hash())
            if d.kind in ("movement",):
                REACHED[f"move:{action.kind}"] += 1
            try:
                invariants.check(eng.state, before)
            except AssertionError as exc:
                return fail(f"invariant broken after {action}: {exc}")
            if eng.state.gt != last_gt or eng.state.result is not None:
                last_gt = eng.state.gt
                for c in victory_rules.conditions(eng):
                    sd = c.get("side")
                    if sd in (AXIS, ALLIED) and c.get("kind") not in ("withdrawal_failed", "otherwise") \
                            and victory_rules.holds(eng, c, sd):
                        REACHED[f"victory:{c['kind']}"] += 1
        res = eng.state.result or {}
        out["result"] = res.get("text", "")[:80]
        for c in victory_rules.conditions(eng):
            if c.get("rule") and c.get("rule") == res.get("rule") and c.get("kind") in res.get("text", ""):
                REACHED[f"victory:{c['kind']}"] += 1
        if "withdrawals not made" in res.get("text", ""):
            REACHED["victory:withdrawal_failed"] += 1
        if res.get("text", "").startswith("Draw: neither") or "otherwise" in res.get("text", "") \
                or res.get("level") == "draw":
            REACHED["victory:otherwise"] += 1
        for cid, c in eng.state.cards.items():
            if int(c.get("plays", 0)) > 0:
                REACHED[f"card:{cid}"] += 1
        out["actions"] = len(eng.log)
        g.close()
        g = None
        rep = verify(path)
        if not rep.ok:
            return fail(f"replay --verify failed: {rep.message}")
        if rep.actions != out["actions"]:
            return fail(f"replay --verify replayed {rep.actions} actions of {out['actions']}")
        return out
    except Exception:  # noqa: BLE001 - reported as this game's error, the other games go on
        return fail("raised " + traceback.format_exc()[-1200:])
    finally:
        if g is not None:
            g.close()
        out["reached"] = dict(REACHED)
        out["first"] = dict(REACHED.first)
        out["refused"] = dict(REFUSED)
        out["seconds"] = round(time.monotonic() - t0, 1)
        out["cpu"] = round(time.process_time() - cpu0, 1)


def _job(job: tuple) -> dict:
    sc, seed, folder, time_limit, max_decisions, keep = job
    out = play(sc, seed, Path(folder), time_limit, max_decisions)
    if not keep and out["error"] is None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(out["file"] + suffix)
            except FileNotFoundError:
                pass
    return out


def main(argv: list[str] | None = None) -> int:
    from core.scenario import all_scenarios

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="every scenario (the default when no --scenario is given)")
    ap.add_argument("--scenario", action="append", help="scenario id (repeatable)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--time-limit", type=float, default=300.0,
                    help="CPU seconds per game (the worker's own time, whatever the machine's load) before it is an error")
    ap.add_argument("--limit", type=int, default=30000, help="decisions per game before it counts as an error")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="write the .dfd files here and keep them")
    ap.add_argument("--report", action="store_true", help="end with the reachability report's JSON line")
    ap.add_argument("--refusals", action="store_true", help="list the rules that refused the bot's free-form actions")
    a = ap.parse_args(argv)
    ids = [s.id for s in all_scenarios()] if a.all or not a.scenario else a.scenario
    tmp = None
    if a.keep:
        folder = Path(a.keep)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        shm = Path("/dev/shm")   # a RAM disk where there is one: the store's fsyncs cost nothing there
        tmp = tempfile.TemporaryDirectory(prefix="dfd-fuzz-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
        folder = Path(tmp.name)
    jobs = [(sc, seed, str(folder), a.time_limit, a.limit, bool(a.keep)) for sc in ids for seed in a.seeds]
    reached: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    where: dict[str, list[str]] = {}       # name -> "scenario seed S decision N" of the games that reached it
    errors: list[str] = []
    try:
        with Pool(min(a.jobs, len(jobs))) as pool:
            for out in pool.imap_unordered(_job, jobs):
                reached.update(out.get("reached", {}))
                for k, n in out.get("first", {}).items():
                    where.setdefault(k, []).append(f"{out['scenario']} seed {out['seed']} decision {n}")
                refused.update(out.get("refused", {}))
                status = "ERROR " + out["error"] if out["error"] else out["result"]
                print(f"{out['scenario']:24} seed {out['seed']:>4} {out['decisions']:>6} decisions "
                      f"{out['seconds']:>6} s ({out.get('cpu', 0):>5} s CPU)  {status}", flush=True)
                if out["error"]:
                    errors.append(out["error"])
    finally:
        if tmp is not None:
            tmp.cleanup()
    bad = bool(errors)
    if a.refusals:
        for k, n in refused.most_common():
            print(f"  refused {n:>6}  {k}")
    if a.report:
        names = universe() | set(reached)
        documented = documented_unreachable()
        unreached = sorted(n for n in names if not reached.get(n) and n not in documented)
        for n in sorted(names):
            rare = f"   first in {'; '.join(sorted(where.get(n, []))[:3])}" if 0 < reached.get(n, 0) < 10 else ""
            print(f"  {reached.get(n, 0):>8}  {n}" + ("   (documented unreachable)" if n in documented else "") + rare)
        bad = bad or bool(unreached)
        print(json.dumps({"games": len(jobs), "errors": errors, "unreached": unreached}))
    else:
        print(f"{len(jobs) - len(errors)}/{len(jobs)} games clean")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
