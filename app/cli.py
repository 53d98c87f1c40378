"""``dfd``: the one command-line tool of the Desert Fox Campaign Manager.

``dfd`` alone opens the desktop app; the sub-commands work without a screen.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core import __version__


def _cmd_scenarios(args: argparse.Namespace) -> int:
    from core.scenario import all_scenarios

    for sc in all_scenarios():
        print(f"{sc.id:24} {sc.section:5} {sc.title:26} GT {sc.start_gt}-{sc.end_gt} (start Phase {sc.start_phase})")
    return 0


def _cmd_new(args: argparse.Namespace) -> int:
    from core.game import Game

    import secrets

    seed = secrets.randbits(63) if args.seed is None else args.seed
    g = Game.new(args.output, args.scenario, seed, overwrite=args.force, optional=args.optional or ())
    d = g.engine.pending()
    shown = "a random secret seed" if args.seed is None else f"seed {seed}"
    chosen = sorted(g.state.vars.get("optional", {}))
    extra = f", optional rules: {', '.join(chosen)}" if chosen else ""
    print(f"Created {args.output}: {g.state.scenario}, {shown}{extra}, GT {g.state.gt} Phase {g.state.phase}")
    if d:
        print(f"Waiting for: {d.side} — {d.prompt} ({d.rule})")
    g.close()
    return 0


def describe(g: "object") -> dict:
    """The `dfd show --json` document (keys fixed by issue 2)."""
    from core import calendar, sequence

    eng = g.engine  # type: ignore[attr-defined]
    st = eng.state
    d = eng.pending()
    units: dict[str, list[str]] = {}
    for u in sorted(st.units.values(), key=lambda u: (u.loc, u.id)):
        units.setdefault(u.loc, []).append(u.id + (" (depleted)" if u.steps == 1 and _two_step(u.id) else ""))
    ph = sequence.phase(st.phase)
    return {
        "scenario": st.scenario,
        "gt": st.gt,
        "month": str(calendar.month_of(st.gt)),
        "phase": st.phase,
        "phase_name": ph.title,
        "step": st.step,
        "impulse": ph.impulse,
        "initiative": st.initiative,
        "first_player": st.first_player,
        "surprise": st.surprise,
        "end_gt": st.end_gt,
        "pending": None if d is None else {
            "side": d.side, "kind": d.kind, "prompt": d.prompt, "rule": d.rule,
            "options": [o.label for o in d.options][:50], "free_kinds": list(d.free_kinds),
        },
        "result": st.result,
        "units": units,
        "actions": len(eng.log),
        "hash": eng.hash(),
    }


def _two_step(uid: str) -> bool:
    from core.counters import all_counters

    c = all_counters().get(uid.split("#")[0])
    return bool(c and c.steps == 2)


def _cmd_show(args: argparse.Namespace) -> int:
    from core.game import Game

    from core.game import why_unopenable

    try:
        g = Game.open(args.file, read_only=True)   # showing a game never writes to it (nor waits for its player)
    except Exception as exc:  # noqa: BLE001 - explained in one sentence naming the file (issue 14), no traceback
        print(f"dfd: {why_unopenable(args.file, exc)}", file=sys.stderr)
        return 2
    doc = describe(g)
    doc["epoch"], doc["note"] = g.epoch.n, g.note
    g.close()
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
        return 0
    if doc["note"]:
        print(doc["note"])
    print(f"{doc['scenario']}: GT {doc['gt']} ({doc['month']}), {doc['impulse']}, Phase {doc['phase_name']} step {doc['step']}")
    print(f"Initiative: {doc['initiative']}  1st player: {doc['first_player']}  Surprise: {doc['surprise']}  "
          f"End scenario marker: GT {doc['end_gt']}")
    p = doc["pending"]
    print("Pending: " + ("none — the scenario has ended" if p is None else f"{p['side']} — {p['prompt']} ({p['rule']})"))
    if doc["result"]:
        print(f"Result: {doc['result'].get('text')}")
    print(f"Units ({sum(len(v) for v in doc['units'].values())}):")
    for loc, ids in doc["units"].items():
        print(f"  {loc:14} {', '.join(ids)}")
    print(f"Actions: {doc['actions']}  Epoch: {doc['epoch']}  Hash: {doc['hash']}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from core.game import verify

    rep = verify(args.file)
    print(rep.message)
    return 0 if rep.ok else 1


def _cmd_validate(args: argparse.Namespace) -> int:
    from core.validate import validate_all

    bad = 0
    for name, errs in validate_all():
        if errs:
            bad += len(errs)
            print(f"FAIL {name}:")
            for e in errs[:50]:
                print(f"  {e}")
        else:
            print(f"ok   {name}")
    print("All data files are valid." if not bad else f"{bad} error(s).")
    if getattr(args, "provenance", False):
        from core import data_provenance
        print()
        print(data_provenance.text())
    return 0 if not bad else 1


def _cmd_ledger(args: argparse.Namespace) -> int:
    from core import ledger

    doc = ledger.build(args.file)
    if args.json:
        print(json.dumps(doc, indent=1, sort_keys=True))
        return 0
    print(ledger.text(doc))
    return 0


def _cmd_hex(args: argparse.Namespace) -> int:
    from core.hexgrid import Hex, HexLabelError

    try:
        h = Hex.parse(args.label)
    except HexLabelError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        from core.hexinfo import describe as hex_describe
    except ModuleNotFoundError:
        print(f"{h.label}: on maps {', '.join(h.labels)}; neighbours {', '.join(n.label for n in h.neighbours())}")
        return 0
    print(hex_describe(h.label))
    return 0


def _percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``xs`` by the nearest-rank method (0.0 for no sample)."""
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, int(-(-q * len(ys) // 1)) - 1))]


def thinking_summary(times: list[float], turns: dict[int, float]) -> dict:
    """A side's thinking time (seconds) for the autoplay JSON: per decision p50/p95/max, in all, and its longest
    game turn (the most thinking time summed over one GT)."""
    return {"p50": round(_percentile(times, 0.5), 4), "p95": round(_percentile(times, 0.95), 4),
            "max": round(max(times, default=0.0), 4), "total": round(sum(times), 3),
            "turn_max": round(max(turns.values(), default=0.0), 3)}


def _autoplay_players(args: argparse.Namespace) -> dict:
    """The player of each side: ``--axis`` / ``--allied``, each defaulting to ``--bot``.  With neither given and a
    bot kind in ``--bot``, one bot answers both sides' decisions, as before issue 21 (same games, same hashes)."""
    from core.decisions import ALLIED, AXIS
    from core.players import make_player

    if args.axis is None and args.allied is None and args.bot != "ai":
        both = make_player(args.bot, None, args.seed, args.ai_setting)
        return {AXIS: both, ALLIED: both}
    return {AXIS: make_player(args.axis or args.bot, AXIS, args.seed, args.ai_setting),
            ALLIED: make_player(args.allied or args.bot, ALLIED, args.seed, args.ai_setting)}


def _cmd_autoplay(args: argparse.Namespace) -> int:
    from core.decisions import ALLIED, AXIS, IllegalAction
    from core.game import Game
    from core.players import Table

    players = _autoplay_players(args)
    kinds = {AXIS: args.axis or args.bot, ALLIED: args.allied or args.bot}
    table = Table(players)
    out = args.output or f"autoplay-{args.scenario}-{args.seed}.dfd"
    g = Game.new(out, args.scenario, args.seed, overwrite=True)
    n = 0
    plans = {AXIS: "", ALLIED: ""}
    turns: dict[str, dict[int, float]] = {AXIS: {}, ALLIED: {}}

    def summary(res: dict) -> dict:
        return {"result": res, "gt": g.state.gt, "decisions": n, "hash": g.engine.hash(), "file": str(out),
                "players": kinds, "ai_setting": args.ai_setting, "decisions_by_side": table.decisions,
                "thinking": {s: thinking_summary(table.times[s], turns[s]) for s in (AXIS, ALLIED)}}

    while (d := g.engine.pending()) is not None and n < args.max_decisions:
        gt = g.state.gt
        side, action = table.choose(g.engine)
        turns[side][gt] = turns[side].get(gt, 0.0) + table.times[side][-1]
        plan = getattr(table.players[side], "plan", "")
        if args.verbose and plan and plan != plans[side]:
            print(f"GT {gt} {plan}" if plan.startswith(f"{side}:") else f"GT {gt} {side}: {plan}")
        plans[side] = plan
        try:
            g.act(action)
        except IllegalAction as exc:
            # every offered option must be legal: a refusal here is an engine (or player) bug, reported with its context
            print(f"dfd: engine error at GT {g.state.gt} phase {g.state.phase}: the {d.kind} decision was answered "
                  f"by {kinds[side]} with {action} but refused it: {exc}", file=sys.stderr)
            print(json.dumps(summary({"winner": None, "level": "error", "text": str(exc)})))
            g.close()
            return 3
        n += 1
        if args.verbose and n % 500 == 0:
            print(f"... {n} decisions, GT {g.state.gt} phase {g.state.phase}", file=sys.stderr)
    res = g.state.result or {"winner": None, "level": "unfinished", "text": f"stopped after {n} decisions"}
    print(f"{g.state.scenario}: {res.get('text')}")
    print(json.dumps(summary(res)))
    g.close()
    return 0


def _cmd_host(args: argparse.Namespace) -> int:
    from net.host import run_host

    count, _, seconds = args.connect_limit.partition("/")
    if not count.isdigit() or int(count) < 1:
        print(f"dfd host: --connect-limit {args.connect_limit!r} is not COUNT/SECONDS (e.g. 20/10)")
        return 2
    try:
        limit = (int(count), float(seconds or 10))
    except ValueError:
        print(f"dfd host: --connect-limit {args.connect_limit!r} is not COUNT/SECONDS (e.g. 20/10)")
        return 2
    from net.computer import parse_computer

    try:
        computers = tuple(parse_computer(c) for c in args.computer or ())
    except ValueError as exc:
        print(f"dfd host: {exc}")
        return 2
    return run_host(args.file, args.port, args.seats, key_dir=args.key_dir, advertise=not args.no_discovery,
                    bind=args.bind, public=args.public, connect_limit=limit, computers=computers)


def _cmd_join(args: argparse.Namespace) -> int:
    from net import keys

    if args.print_key:
        pair = keys.load_or_create(args.key, args.key_dir)
        print(f"public key:  {pair.public}\nfingerprint: {pair.fingerprint}")
        return 0
    if not args.target:
        print("dfd join: give HOST:PORT or the host's join code (dfd://HOST:PORT/KEY)", file=sys.stderr)
        return 2
    from net.client import run_join

    return run_join(args.target, key_name=args.key, server_key=args.server_key, name=args.name, key_dir=args.key_dir)


def _cmd_gui(args: argparse.Namespace) -> int:
    from app.main import run

    return run(args.file, smoke=getattr(args, "smoke", False))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dfd", description="Desert Fox Deluxe campaign manager. Without a command, opens the app.")
    p.add_argument("--version", action="version", version=f"dfd {__version__}")
    p.add_argument("--open", dest="file", type=Path, metavar="FILE", help="open this .dfd game in the app")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")

    s = sub.add_parser("play", help="open the desktop app (optionally on a game file)")
    s.add_argument("file", nargs="?", type=Path)
    s.add_argument("--smoke", action="store_true",
                   help="start-up check: show the main window, process events, close it and exit 0 (packaging)")
    s.set_defaults(fn=_cmd_gui)

    s = sub.add_parser("scenarios", help="list the ten scenarios (id, rule section, title, GT range)")
    s.set_defaults(fn=_cmd_scenarios)

    s = sub.add_parser("new", help="create a game file from a scenario")
    s.add_argument("scenario", help="scenario id (see `dfd scenarios`), rule section (26.0) or a .toml path")
    s.add_argument("-o", "--output", required=True, type=Path, help="the .dfd file to create")
    s.add_argument("--seed", type=int, default=None,
                   help="the dice seed (default: a random secret one; over a LAN a known seed reveals the dice)")
    s.add_argument("--force", action="store_true", help="overwrite an existing file")
    from core.scenario import OPTIONAL_RULES

    s.add_argument("--optional", action="append", choices=sorted(OPTIONAL_RULES), metavar="RULE",
                   help="play with an optional rule the scenario allows (repeatable): "
                        + "; ".join(f"{k} = {text}" for k, (_r, text) in OPTIONAL_RULES.items()))
    s.set_defaults(fn=_cmd_new)

    s = sub.add_parser("show", help="print a game's situation")
    s.add_argument("file", type=Path)
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(fn=_cmd_show)

    s = sub.add_parser("replay", help="replay a game's log")
    s.add_argument("file", type=Path)
    s.add_argument("--verify", action="store_true", required=True,
                   help="check the log epoch by epoch (exit 0 only if every epoch verifies)")
    s.set_defaults(fn=_cmd_replay)

    s = sub.add_parser("validate", help="check every data file (map, counters, charts, cards, scenarios)")
    s.add_argument("--provenance", action="store_true",
                   help="also print, per file, how many values come from the rules and how many are reconstructed")
    s.set_defaults(fn=_cmd_validate)

    s = sub.add_parser("ledger", help="per GT: arrivals, withdrawals, support, eliminations, counters held back")
    s.add_argument("file", type=Path)
    s.add_argument("--json", action="store_true", help="print one JSON document")
    s.set_defaults(fn=_cmd_ledger)

    s = sub.add_parser("hex", help="everything about a hex, e.g. dfd hex C2331")
    s.add_argument("label")
    s.set_defaults(fn=_cmd_hex)

    s = sub.add_parser("autoplay", help="play a scenario with the computer or a bot on each side")
    s.add_argument("scenario")
    s.add_argument("--seed", type=int, default=1)
    kinds = ["ai", "greedy", "random", "pass"]        # core.players.PLAYER_KINDS (not imported: keeps startup light)
    s.add_argument("--bot", choices=kinds, default="random",
                   help="the player of both sides (default random); --axis / --allied override it for one side")
    s.add_argument("--axis", choices=kinds, help="the Axis player (default: --bot)")
    s.add_argument("--allied", choices=kinds, help="the Allied player (default: --bot)")
    s.add_argument("--ai-setting", choices=["quick", "thoughtful"], default="quick",
                   help="the computer opponent's search budget (core.players.AI_SETTINGS)")
    s.add_argument("-o", "--output", type=Path)
    s.add_argument("--max-decisions", type=int, default=1_000_000)
    s.add_argument("-v", "--verbose", action="store_true",
                   help="print progress, and each new plan sentence of the computer opponent")
    s.set_defaults(fn=_cmd_autoplay)

    s = sub.add_parser("host", help="host a game for LAN team play (headless)")
    s.add_argument("file", type=Path)
    s.add_argument("--port", type=int, default=5670)
    s.add_argument("--seats", type=Path, help="seat file (default: FILE with .seats.toml, created if missing)")
    s.add_argument("--bind", default="*", help="interface address to listen on (default: all)")
    s.add_argument("--public", metavar="HOST[:PORT]",
                   help="the address players reach (a forwarded port, a VPN mesh address): put in the join code")
    s.add_argument("--connect-limit", default="20/10", metavar="COUNT/SECONDS",
                   help="secure handshakes one address may start per SECONDS before it is refused (default 20/10)")
    s.add_argument("--key-dir", help="where the host key is kept (default: the user data directory)")
    s.add_argument("--no-discovery", action="store_true", help="do not announce the game on the LAN (zeroconf)")
    s.add_argument("--computer", action="append", metavar="SIDE[:SETTING]",
                   help="the computer holds this side (Axis or Allied; setting quick or thoughtful), seated in the "
                        "seat file with its own key; repeat for both sides")
    s.set_defaults(fn=_cmd_host)

    s = sub.add_parser("join", help="join a hosted game in text mode (HOST:PORT or a dfd:// join code)")
    s.add_argument("target", nargs="?")
    s.add_argument("--key", default="player", help="your key: a name under the key directory or a .key file path")
    s.add_argument("--server-key", help="the host's public key, if the join code does not carry it")
    s.add_argument("--name", default="")
    s.add_argument("--key-dir", help="where your key is kept (default: the user data directory)")
    s.add_argument("--print-key", action="store_true", help="print your public key (send it to the host) and exit")
    s.set_defaults(fn=_cmd_join)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    fn = getattr(args, "fn", None)
    if fn is None:
        return _cmd_gui(args)
    from core.scenario import ScenarioError
    from core.store import StoreError

    try:
        return int(fn(args) or 0)
    except (StoreError, ScenarioError) as exc:
        print(f"dfd: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
