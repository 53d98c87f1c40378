"""``python -m benchmarks.ai``: the computer opponent's evaluation (issue 21, "Must show").

Every game is a ``dfd autoplay`` run in its own process (at most ``--jobs`` at once, default 2), read from the JSON
result on the last line of its output.  The cells:

* **vs random** - for each of Sonnenblume, Fox Killed, O'Connor's War, Trail of the Fox and Desert Fox and each
  side: the AI against the random bot and the pass bot against the random bot over the same seeds (1..N).
  PASS when, seed by seed, the AI's result is at least the pass bot's on the victory scale for its side
  (:func:`core.victory.victory_scale`), and strictly better on a majority of the seeds where the pass bot does not
  already win at the highest level the scenario offers that side (a cell where it does on every seed needs only
  the first half).
* **vs greedy** - Sonnenblume and Trail of the Fox, each side: the AI against the greedy baseline
  (``core.bots.GreedyBot``).  PASS when the AI wins at least 7 games in 10 (``ceil(0.7 N)`` of N).
* **AI vs AI** - every scenario (all ten; ``--only`` names some), one seed: played to its end with no error,
  then ``dfd replay FILE --verify`` must pass.

Reported per cell: win counts, the victory levels, the mean GT of the result and PASS/FAIL; then the thinking
time per decision of the AI on each setting measured (median of the games' p50, worst game's p95; targets
p95 <= 1 s on "quick") and the longest game turn of one side (the most AI thinking time in one GT of one game;
target <= 60 s).  Without ``--setting`` the cells use "quick" and two extra games (Sonnenblume, seed 1, each side
against random) measure "thoughtful".

``python -m benchmarks.ai --seeds 3 --json`` prints one JSON document instead of the table; ``--log FILE`` keeps
every finished game in FILE and takes those already there from it (resume a run); ``--player greedy``
plays the greedy bot in the AI's place (to try the harness); ``--cells random greedy aivai`` runs only those;
``--only SCENARIO ...`` keeps only those scenarios in every cell (``--cells random greedy --only sonnenblume
trail-of-the-fox``: the cells a change of the AI is checked on).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AXIS, ALLIED = "Axis", "Allied"
SIDES = (AXIS, ALLIED)
VS_RANDOM = ("sonnenblume", "fox-killed", "oconnors-war", "trail-of-the-fox", "desert-fox")
VS_GREEDY = ("sonnenblume", "trail-of-the-fox")
#: the cells' scenarios whose games take minutes each (``--seeds-long``)
LONG = ("oconnors-war", "desert-fox")
#: issue 21: "wins >= 7 of 10 as each side against ... greedy"
GREEDY_SHARE = 0.7
QUICK_P95_S = 1.0
TURN_S = 60.0
GAME_TIMEOUT_S = float(os.environ.get("DFD_BENCH_AI_GAME_TIMEOUT", "3600"))


@dataclass
class Game:
    scenario: str
    axis: str
    allied: str
    seed: int
    setting: str
    verify: bool = False
    out: dict = field(default_factory=dict)
    verified: bool | None = None
    seconds: float = 0.0
    error: str = ""

    @property
    def result(self) -> dict:
        return self.out.get("result") or {"winner": None, "level": "error", "text": self.error}


def play(game: Game, folder: Path, number: int = 0) -> Game:
    """Run one ``dfd autoplay`` (and, if asked, ``dfd replay --verify``) in a child process."""
    path = folder / f"{number}-{game.scenario}-{game.axis}-{game.allied}-{game.setting}-{game.seed}.dfd"
    cmd = [sys.executable, "-m", "app.cli", "autoplay", game.scenario, "--axis", game.axis, "--allied", game.allied,
           "--ai-setting", game.setting, "--seed", str(game.seed), "-o", str(path)]
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=GAME_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        game.error = f"no result in {GAME_TIMEOUT_S:.0f} s"
        return game
    game.seconds = time.perf_counter() - t0
    lines = p.stdout.strip().splitlines()
    try:
        game.out = json.loads(lines[-1]) if lines else {}
    except json.JSONDecodeError:
        game.out = {}
    if not game.out:
        game.error = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1][:200]
    elif p.returncode:
        game.error = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1][:200]
    if game.verify and game.out:
        v = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(path), "--verify"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=GAME_TIMEOUT_S)
        game.verified = v.returncode == 0
        if not game.verified:
            game.error = game.error or (v.stdout.strip().splitlines() or [f"replay exit {v.returncode}"])[-1][:200]
    path.unlink(missing_ok=True)
    for extra in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        extra.unlink(missing_ok=True)
    return game


def _key(g: Game) -> tuple:
    return (g.scenario, g.axis, g.allied, g.seed, g.setting, g.verify)


def run_all(games: list[Game], jobs: int, progress=None, log: Path | None = None) -> list[Game]:
    """Play ``games`` (at most ``jobs`` at once).  With ``log``, each finished game is appended to it as a JSON line,
    and a game already there (same scenario, players, seed, setting) is read from it instead of played again."""
    done: dict[tuple, dict] = {}
    if log is not None and log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                done[tuple(rec["key"])] = rec
    todo = []
    for g in games:
        rec = done.get(_key(g))
        if rec is None:
            todo.append(g)
        else:
            g.out, g.verified, g.error, g.seconds = rec["out"], rec["verified"], rec["error"], rec["seconds"]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(play, g, Path(tmp), i) for i, g in enumerate(todo)]
        for i, f in enumerate(futures, 1):
            g = f.result()
            if log is not None:
                with log.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"key": list(_key(g)), "out": g.out, "verified": g.verified, "error": g.error,
                                         "seconds": round(g.seconds, 1)}) + "\n")
            if progress:
                progress(f"[{i}/{len(todo)}] {g.scenario} Axis={g.axis} Allied={g.allied} seed {g.seed}: "
                         f"{g.result.get('winner')} {g.result.get('level')} GT {g.out.get('gt')} ({g.seconds:.0f} s)"
                         + (f" - {g.error}" if g.error else ""))
    return games


# --------------------------------------------------------------------------- scoring


def best_level(scenario: str, side: str) -> int:
    """The highest victory level the scenario's conditions give ``side``, on :func:`core.victory.victory_scale`."""
    from core.engine import Engine
    from core.newgame import initial_state
    from core.rules import victory_rules
    from core.scenario import load
    from core.victory import WIN_LEVELS

    eng = Engine(initial_state(load(scenario), 1))
    best = 0
    for c in victory_rules.conditions(eng):
        if c.get("side") not in (side, "controller", "more"):
            continue
        instant = c.get("when") == "instant" or c.get("kind") == "withdrawal_failed"
        level = "instant" if instant else (c.get("level") or "win")
        if level in WIN_LEVELS:
            best = max(best, WIN_LEVELS.index(level) + 1)
    return best


def scale(game: Game, side: str) -> int | None:
    from core.victory import victory_scale

    try:
        return victory_scale(game.result, side)
    except ValueError:
        return None        # an error: never counted as a result


def describe(games: list[Game], side: str) -> dict:
    levels: dict[str, int] = {}
    for g in games:
        r = g.result
        key = str(r.get("level")) if r.get("winner") is None else (
            f"{'own' if r.get('winner') == side else 'enemy'} {r.get('level')}")
        levels[key] = levels.get(key, 0) + 1
    gts = [g.out["gt"] for g in games if g.out.get("gt") is not None]
    return {"games": len(games), "wins": sum(1 for g in games if g.result.get("winner") == side),
            "losses": sum(1 for g in games if g.result.get("winner") not in (None, side)),
            "errors": sum(1 for g in games if scale(g, side) is None), "levels": levels,
            "mean_gt": round(statistics.fmean(gts), 1) if gts else None}


def judge_vs_random(scenario: str, side: str, ai: list[Game], passed: list[Game]) -> dict:
    top = best_level(scenario, side)
    rows, worse, better, contested = [], 0, 0, 0
    for a, p in zip(ai, passed):
        sa, sp = scale(a, side), scale(p, side)
        rows.append({"seed": a.seed, "ai": sa, "pass": sp})
        if sa is None or sp is None or sa < sp:
            worse += 1
        if sp is not None and sp < top:
            contested += 1
            better += sa is not None and sa > sp
    ok = worse == 0 and (contested == 0 or better * 2 > contested)
    return {"cell": f"{scenario} {side}: AI vs random, pass vs random", "ai": describe(ai, side),
            "passbot": describe(passed, side), "seeds": rows, "best_level": top, "not_worse": len(ai) - worse,
            "contested": contested, "strictly_better": better, "pass": ok}


def judge_vs_greedy(scenario: str, side: str, ai: list[Game]) -> dict:
    d = describe(ai, side)
    need = math.ceil(GREEDY_SHARE * len(ai))
    return {"cell": f"{scenario} {side}: AI vs greedy", "ai": d, "need_wins": need, "pass": d["wins"] >= need}


def render(path: str) -> str:
    """The table of a ``--json`` document saved in ``path``."""
    return table(json.loads(Path(path).read_text(encoding="utf-8")))


def judge_aivai(games: list[Game]) -> dict:
    bad = [f"{g.scenario}: {g.error or g.result.get('level')}" for g in games
           if g.error or g.result.get("level") in ("error", "unfinished") or not g.verified]
    return {"cell": "AI vs AI: every scenario to its end, replay --verify",
            "games": {g.scenario: {"result": g.result.get("text", g.result.get("level")), "gt": g.out.get("gt"),
                                   "verified": g.verified, "seconds": round(g.seconds)} for g in games},
            "failures": bad, "pass": not bad}


def timing(games: list[Game], player: str) -> dict:
    """Per setting: the AI's thinking time per decision and its longest game turn, over every game it played."""
    out: dict[str, dict] = {}
    for g in games:
        for side, kind in ((AXIS, g.axis), (ALLIED, g.allied)):
            t = g.out.get("thinking", {}).get(side)
            if kind != player or not t:
                continue
            s = out.setdefault(g.setting, {"p50s": [], "p95s": [], "turns": [], "decisions": 0})
            s["p50s"].append(t["p50"])
            s["p95s"].append(t["p95"])
            s["turns"].append(t["turn_max"])
            s["decisions"] += g.out.get("decisions_by_side", {}).get(side, 0)
    return {k: {"decisions": v["decisions"], "p50_s": round(statistics.median(v["p50s"]), 4),
                "p95_s": round(max(v["p95s"]), 4), "turn_max_s": round(max(v["turns"]), 2),
                "pass": (max(v["p95s"]) <= QUICK_P95_S or k != "quick") and max(v["turns"]) <= TURN_S}
            for k, v in sorted(out.items())}


# --------------------------------------------------------------------------- the run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10, help="seeds per cell (1..N; default 10)")
    ap.add_argument("--seeds-long", type=int, help="seeds per cell of the long scenarios (O'Connor's War, Desert "
                    "Fox; default --seeds)")
    ap.add_argument("--setting", choices=["quick", "thoughtful"], help="the AI setting of every cell (default quick, "
                    "plus two thoughtful games for its timing)")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--jobs", type=int, default=2, help="games played at once (default 2)")
    ap.add_argument("--only", nargs="*", help="only these scenarios, in every cell (default: all ten in AI vs AI, every cell's own)")
    ap.add_argument("--cells", nargs="*", choices=["random", "greedy", "aivai"], default=["random", "greedy", "aivai"])
    ap.add_argument("--log", type=Path, help="append each finished game to this JSON-lines file, and take the games "
                    "already in it from it (a long run can be resumed, or judged on the games played so far)")
    ap.add_argument("--player", choices=["ai", "greedy"], default="ai",
                    help="the player evaluated (greedy: try the harness without the AI)")
    args = ap.parse_args(argv)
    from core.scenario import all_scenarios

    setting = args.setting or "quick"
    seeds = range(1, args.seeds + 1)
    long_seeds = range(1, (args.seeds_long or args.seeds) + 1)
    me = args.player
    plan: dict[str, list[Game]] = {}

    def vs(sc: str, side: str, mine: str, theirs: str, s: str = setting, ss=seeds) -> list[Game]:
        return [Game(sc, mine if side == AXIS else theirs, theirs if side == AXIS else mine, n, s) for n in ss]

    def chosen(names: list[str]) -> list[str]:
        return [sc for sc in names if not args.only or sc in args.only]

    if "random" in args.cells:
        for sc in chosen(VS_RANDOM):
            for side in SIDES:
                n = long_seeds if sc in LONG else seeds
                plan[f"random/{sc}/{side}/ai"] = vs(sc, side, me, "random", ss=n)
                plan[f"random/{sc}/{side}/pass"] = vs(sc, side, "pass", "random", ss=n)
    if "greedy" in args.cells:
        for sc in chosen(VS_GREEDY):
            for side in SIDES:
                plan[f"greedy/{sc}/{side}"] = vs(sc, side, me, "greedy")
    if "aivai" in args.cells:
        names = args.only or [s.id for s in all_scenarios()]
        plan["aivai"] = [Game(sc, me, me, 1, setting, verify=True) for sc in names]
    if args.setting is None and me == "ai":
        plan["timing/thoughtful"] = [g for side in SIDES for g in vs("sonnenblume", side, me, "random", "thoughtful",
                                                                        range(1, 2))]
    # seed by seed (a run cut short has every cell's first seeds), the longest games of a seed first
    order = sorted((g for gs in plan.values() for g in gs),
                   key=lambda g: (g.seed, g.scenario not in ("north-african-campaign", "rommels-war", "tunisian-campaign",
                                                             "desert-war", "desert-fox", "oconnors-war"), g.scenario))
    t0 = time.perf_counter()
    load = os.getloadavg()[0]
    run_all(order, args.jobs, progress=lambda s: print(s, file=sys.stderr, flush=True), log=args.log)
    cells: list[dict] = []
    for sc in chosen(VS_RANDOM) if "random" in args.cells else ():
        for side in SIDES:
            cells.append(judge_vs_random(sc, side, plan[f"random/{sc}/{side}/ai"], plan[f"random/{sc}/{side}/pass"]))
    for sc in chosen(VS_GREEDY) if "greedy" in args.cells else ():
        for side in SIDES:
            cells.append(judge_vs_greedy(sc, side, plan[f"greedy/{sc}/{side}"]))
    if "aivai" in args.cells:
        cells.append(judge_aivai(plan["aivai"]))
    doc = {"player": me, "setting": setting, "seeds": args.seeds, "seeds_long": args.seeds_long or args.seeds,
           "cells": cells,
           "timing": timing(order, me),
           "games": [{"scenario": g.scenario, "axis": g.axis, "allied": g.allied, "seed": g.seed, "setting": g.setting,
                      "out": g.out, "verified": g.verified, "error": g.error, "seconds": round(g.seconds, 1)}
                     for g in order],
           "minutes": round((time.perf_counter() - t0) / 60, 1),
           "machine": {"cpus": os.cpu_count(), "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
                       "jobs": args.jobs}}
    print(json.dumps(doc, indent=1) if args.json else table(doc))
    return 0 if all(c["pass"] for c in cells) and all(t["pass"] for t in doc["timing"].values()) else 1


def _levels(d: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(d["levels"].items(), key=lambda kv: -kv[1]))


def table(doc: dict) -> str:
    """The report as a Markdown table (for docs/performance.md)."""
    who = "AI" if doc["player"] == "ai" else doc["player"]
    lines = [f"{who} ({doc['setting']}), {doc['seeds']} seeds per cell ({doc.get('seeds_long', doc['seeds'])} for "
             f"{', '.join(LONG)}); {doc['minutes']} min on "
             f"{doc['machine']['cpus']} CPUs, {doc['machine']['jobs']} games at once, load "
             f"{doc['machine']['load_before']} -> {doc['machine']['load_after']}", "",
             "| cell | wins / games | victory levels (for the side) | mean GT | criterion | result |",
             "|---|---|---|---|---|---|"]
    for c in doc["cells"]:
        verdict = "PASS" if c["pass"] else "FAIL"
        if "not_worse" in c:
            a, p = c["ai"], c["passbot"]
            crit = (f">= pass on {c['not_worse']}/{a['games']} seeds; > pass on {c['strictly_better']}/"
                    f"{c['contested']} seeds pass does not win at the top level")
            lines.append(f"| {c['cell']} | {who} {a['wins']}/{a['games']}; pass {p['wins']}/{p['games']} | "
                         f"{who}: {_levels(a)}; pass: {_levels(p)} | {who} {a['mean_gt']}; pass {p['mean_gt']} | "
                         f"{crit} | {verdict} |")
        elif "need_wins" in c:
            a = c["ai"]
            lines.append(f"| {c['cell']} | {a['wins']}/{a['games']} | {_levels(a)} | {a['mean_gt']} | "
                         f">= {c['need_wins']} wins | {verdict} |")
        else:
            n = len(c["games"])
            ok = n - len(c["failures"])
            lines.append(f"| {c['cell']} | {ok}/{n} ended and verified | "
                         + "; ".join(f"{k}: {v['result']}" for k, v in c["games"].items())[:900]
                         + f" | | every game ends, verify passes{': ' + '; '.join(c['failures']) if c['failures'] else ''}"
                         f" | {verdict} |")
    lines += ["", "| setting | AI decisions | thinking p50 (median game) | p95 (worst game) | longest game turn of a side | "
              "targets | result |", "|---|---|---|---|---|---|---|"]
    for k, t in doc["timing"].items():
        target = f"p95 <= {QUICK_P95_S:g} s; turn <= {TURN_S:g} s" if k == "quick" else f"turn <= {TURN_S:g} s"
        lines.append(f"| {k} | {t['decisions']} | {t['p50_s']} s | {t['p95_s']} s | {t['turn_max_s']} s | {target} | "
                     f"{'PASS' if t['pass'] else 'FAIL'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
