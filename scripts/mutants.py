"""Mutation check of the rules (issue 16): flip one rule constant or comparison at a time, run the tests that
should notice, and print whether they did.

    .venv/bin/python scripts/mutants.py                 # every mutant in MUTANTS
    .venv/bin/python scripts/mutants.py --only stacking-ge disrupted-ma-floor --jobs 1

Each mutant names a file, an exact snippet of it (which must occur exactly once) and its replacement, the rule
it breaks, and the test files that must fail when it is applied.  The mutants are applied to a copy of the
source tree (the working tree is never touched), one at a time, and the test files are run with pytest
(``-x``).  A mutant is **caught** when the tests fail, **missed** when they pass.  One line per mutant, then
one JSON line ``{"mutants": N, "caught": N, "missed": [names]}``; the exit status is 1 when one is missed.

Keep the list growing: every rule limit with a boundary test belongs here, and every mutant listed must be
caught (add the limit and limit + 1 test that catches it).  ``tests/test_mutants_list.py`` checks that every
snippet still occurs exactly once, so the list cannot silently rot when the code moves.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.pool import ThreadPool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    rule: str
    tests: tuple[str, ...] = field(default_factory=tuple)


B = "tests/test_rules_boundaries.py"
STATUS = "tests/test_rules_8_status.py"
SUPPLY = "tests/test_rules_12_supply.py"
MOVE = "tests/test_rules_13_movement.py"
EOP = "tests/test_rules_13_eop.py"
CONTROL = "tests/test_rules_2_2_2_hex_control.py"
PRIMARY = "tests/test_rules_12_2_4_primary_base_play.py"
ALC26 = "tests/test_cards_alc26_cw_withdrawal_play.py"
ALC28 = "tests/test_cards_alc28_soft_underbelly_play.py"

MUTANTS: tuple[Mutant, ...] = (
    # --- the four of issue 16
    Mutant("stacking-ge", "core/rules/stacking.py", "if p > lim:", "if p >= lim:",
           "10.2: overstacked only above the limit", (B,)),
    Mutant("disrupted-ma-floor", "core/rules/status.py",
           "    if u.disrupted or u.untrained:\n        ma = math.ceil(ma / 2)",
           "    if u.disrupted or u.untrained:\n        ma = ma // 2",
           "8.2 e): disrupted MA halved, round up", (STATUS, B)),
    Mutant("reaction-radius-3", "core/rules/movement.py", "radius: int = 2", "radius: int = 3",
           "13.5: units within two hexes of an enemy may react", (B, MOVE)),
    Mutant("morale-natural-six", "core/rules/status.py", "return die != 6 and die + morale_value + mods <= 6",
           "return die + morale_value + mods <= 6", "8.1: a natural 6 always fails", (STATUS,)),
    # --- 10.0 stacking
    Mutant("city-limit-10", "core/rules/stacking.py", "CITY_LIMIT = 9", "CITY_LIMIT = 10", "10.2: 9 points in a city", (B,)),
    Mutant("hex-limit-7", "core/rules/stacking.py", "OTHER_LIMIT = 6", "OTHER_LIMIT = 7", "10.2: 6 points", (B,)),
    # --- 8.0 status, 13.2 movement allowances
    Mutant("morale-pass-lt", "core/rules/status.py", "return die != 6 and die + morale_value + mods <= 6",
           "return die != 6 and die + morale_value + mods < 6", "8.1: pass on 6 or less", (STATUS,)),
    Mutant("disrupted-morale-plus-0", "core/rules/status.py", "    if u.disrupted or u.untrained:\n        m += 1",
           "    if u.disrupted or u.untrained:\n        m += 0", "8.2 a): disrupted +1 morale", (STATUS,)),
    Mutant("rma-floor", "core/rules/status.py", "return math.ceil(printed_ma(u) / 4) if is_motorized(u) else 0",
           "return printed_ma(u) // 4 if is_motorized(u) else 0", "13.2.1: RMA a quarter, round up", (B,)),
    Mutant("ogs-motorised-half", "core/rules/status.py",
           "ma = rma(u) if is_motorized(u) else math.ceil(ma / 2)", "ma = math.ceil(ma / 2)",
           "13.2.2: OGS motorised units are restricted to their RMA", (STATUS,)),
    Mutant("disrupted-msu-ma-8", "core/rules/status.py", "return min(ma, 7)", "return min(ma, 8)",
           "8.2.1: a disrupted MSU has MA 7", (STATUS,)),
    Mutant("road-march-6", "core/rules/movement.py", "ROAD_MARCH = 7 ", "ROAD_MARCH = 6 ", "13.2.3: +7 MP",
           (MOVE, EOP)),
    Mutant("overrun-cost-1", "core/rules/movement.py", "OVERRUN_COST = 2 * E", "OVERRUN_COST = 1 * E",
           "13.4: an overrun costs 2 MP", (MOVE, EOP)),
    Mutant("ezoc-cost-0", "core/rules/movement.py", "EZOC_COST = 1 * E", "EZOC_COST = 0 * E",
           "11.4 a): +1 MP to enter an EZOC", (MOVE, EOP, "tests/test_rules_11_zoc.py")),
    # --- 11.0 ZOC
    Mutant("zoc-disrupted", "core/rules/zoc.py", "and not u.disrupted and not u.reserve",
           "and not u.reserve", "8.2 c): a disrupted unit projects no ZOC", ("tests/test_rules_11_zoc.py",)),
    # --- 12.4.1 supply ranges
    Mutant("base-los-15", "core/rules/supply.py", "BASE_LOS = 14 * E", "BASE_LOS = 15 * E",
           "12.4.1 a): base LOS 14 MMP", (SUPPLY, B)),
    Mutant("dump-los-8", "core/rules/supply.py", "DUMP_LOS = 7 * E", "DUMP_LOS = 8 * E",
           "12.4.1 b): dump 7 MMP", (B,)),
    Mutant("msu-los-8", "core/rules/supply.py", "MSU_LOS = 7 * E ", "MSU_LOS = 8 * E ",
           "12.4.1 c): MSU 7 MMP", (SUPPLY, B)),
    Mutant("disrupted-base-los-8", "core/rules/supply.py", "DISRUPTED_BASE_LOS = 7 * E", "DISRUPTED_BASE_LOS = 8 * E",
           "8.2.1: a disrupted base 7 MMP", (SUPPLY, B)),
    Mutant("disrupted-msu-los-4", "core/rules/supply.py", "DISRUPTED_MSU_LOS = 3 * E", "DISRUPTED_MSU_LOS = 4 * E",
           "8.2.1: a disrupted MSU or dump 3 MMP", (B,)),
    # --- 14.0 combat
    Mutant("half-rounds-down", "core/rules/special_units.py", "return whole + (1 if f - whole >= HALF else 0)",
           "return whole + (1 if f - whole > HALF else 0)", "14.3, 14.6: fractions of 1/2 or more round up",
           ("tests/test_rules_14_5_examples.py", "tests/test_rules_14_15_coverage.py")),
    # --- 13.7 transport, 15.3 recon
    Mutant("rail-cost-2", "core/rules/transport.py", "RAIL_COST = 3 * E ", "RAIL_COST = 2 * E ",
           "13.7: a rail lift costs 3 MP", ("tests/test_rules_13_transport.py",)),
    Mutant("recon-extra-1", "core/rules/movement.py", "RECON_EXTRA = 2 * E ", "RECON_EXTRA = 1 * E ",
           "15.3: +2 MP in a recon-superior ZOC", (B,)),
    # --- 4.0 end of the game
    Mutant("trt-last-gt-37", "core/engine.py", "TRT_LAST_GT = 38", "TRT_LAST_GT = 37",
           "R-TRT-END: the end scenario marker stops at GT 38", (B,)),
    # --- 23.0 cards
    Mutant("australian-cf-37", "core/rules/events.py", "AUSTRALIAN_CF_MIN = 36", "AUSTRALIAN_CF_MIN = 37",
           "23.1 ALC-18 b): 36 CF of Australian units", (B,)),
    Mutant("fall-braun-crete-gt", "core/rules/strategic_moves.py", "if d + moved >= 7:", "if d + moved > 7:",
           "23.2 AXC-19 d): 7+ lengthens the game", ("tests/test_events_cards.py",
                                                     "tests/test_rules_22_3_crete_leave_play.py")),
    Mutant("torch-east-before-alc23", "core/rules/strategic_moves.py",
           'if not offmap.fna_in_play(eng):\n        return ("The Torch East Box is not in play',
           'if False:\n        return ("The Torch East Box is not in play',
           "20.2.5; 23.1 ALC-21 d): the Torch East Box is playable once ALC-23 is played (R-TORCH-EAST)",
           ("tests/test_rules_20_2_5_torch_east_move_play.py",)),
    Mutant("torch-east-air-units", "core/rules/strategic_moves.py", "if not naval.is_cargo(uid):", "if False:",
           "20.2.5: the units that land from the Torch Box move to the Torch East Box, not air units (R-TORCH-EAST)",
           ("tests/test_rules_20_2_5_torch_east_move_play.py",)),
    Mutant("alc26-sa-steps-14", "core/rules/events.py", "if sa_steps < 10:", "if sa_steps < 14:",
           "23.1 ALC-26 b): fewer than 10 South African steps withdrawn shortens the game", (ALC26,)),
    Mutant("alc26-a-no-shift", "core/rules/events.py", 'es_shift(eng, "ALC-26", -1, "CW withdrawal not complete',
           'es_shift(eng, "ALC-26", 0, "CW withdrawal not complete',
           "23.1 ALC-26 a): one GT less each Events Phase the withdrawal is not complete", (ALC26,)),
    Mutant("fleet-hit-mission-kept", "core/rules/fleets.py",
           "            if hits:\n                # 19.9.2: fleet units that are hit",
           "            if False:\n                # 19.9.2: fleet units that are hit",
           "19.9.2 Strikes on Fleets: a hit fleet's mission is cancelled",
           ("tests/test_rules_20_naval_play.py", "tests/test_rules_20_4_2_fleet_missions.py")),
    Mutant("alc28-rp-per-8", "core/rules/events.py",
           "for _ in range((before[nat] + added[nat]) // 10 - before[nat] // 10):",
           "for _ in range((before[nat] + added[nat]) // 8 - before[nat] // 8):",
           "23.1 ALC-28 a), b): one RP for every 10 CF of the nation withdrawn", (ALC28,)),
    Mutant("alc28-gt-per-21", "core/rules/events.py", "for _ in range(total // 20 - was):",
           "for _ in range(total // 21 - was):", "23.1 ALC-28 c): one GT more for every 20 CF withdrawn", (ALC28,)),
    Mutant("destroy-cost-not-offered", "core/rules/movement.py",
           'costs = frame.data.get("destroy_cost", {}) if frame is not None else {}', "costs = {}",
           "12.2.5 1): the MP spent destroying supply count in the moves offered and the reachable hexes",
           ("tests/test_rules_12_2_5_destroy_offered_moves.py",)),
    # --- 2.2.2 hex control
    Mutant("control-supply-units", "core/rules/control.py", 'if c is None or c.kind != "combat":\n        return ""',
           'if c is None:\n        return ""', "2.2.2: only a ground combat unit transfers control, not a supply unit",
           (CONTROL,)),
    Mutant("control-enter-last-hex-only", "core/rules/control.py", "    for lab in labels:\n        if not is_map_hex(lab)",
           "    for lab in list(labels)[-1:]:\n        if not is_map_hex(lab)",
           "2.2.2: every hex a unit enters on its path becomes its player's", (CONTROL,)),
    Mutant("control-record-ignored", "core/rules/control.py", "rec = state.control.get(label)", "rec = None",
           "2.2.2: control stays until an opposing unit enters the hex", (CONTROL,)),
    Mutant("control-vichy-neutral", "core/rules/control.py",
           'return k == "ground" or (k == "vf" and u.flags.get("vichy") == "joined")',
           'return k == "ground" or k == "vf"', "22.7, R-VIC-VICHY: a Vichy French unit not joined controls nothing",
           (CONTROL,)),
    Mutant("control-back-to-start-kept", "core/rules/control.py", "        if _initial(rules, lab) == side:\n",
           "        if False:\n", "2.2.2: an opposing unit entering transfers control back (the record keeps differences)",
           (CONTROL,)),
    Mutant("control-move-path-not-entered", "core/rules/movement.py",
           "control.enter(st, side, _entered_by_ground_combat(st, units, path[:plan.overrun_at], pickup, drop))",
           "control.enter(st, side, [])", "2.2.2: a move enters every hex of its path", (CONTROL,)),
    # --- 12.2.4 primary base
    Mutant("primary-base-half-round-down", "core/rules/supply.py", "gts = (die + 1) // 2", "gts = die // 2",
           "12.2.4: 1d6 halved, round up", (PRIMARY,)),
    Mutant("primary-base-early", "core/rules/supply.py", 'if lost and st.gt >= lost["return_gt"]:',
           'if lost and st.gt >= lost["return_gt"] - 1:', "12.2.4: replaced once the GTs rolled have passed",
           (PRIMARY,)),
    Mutant("primary-base-port-cap-2", "core/rules/supply.py", "if _port_capacity(h) >= 3 and port_controlled",
           "if _port_capacity(h) >= 2 and port_controlled", "12.2.4: a friendly port with a capacity of three or more", (PRIMARY,)),
)


def _copy_tree(dst: Path) -> None:
    ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis",
                                    "build", "dist", "*.dfd")
    for name in ("core", "tests", "resources", "scenarios", "app", "net", "scripts", "docs"):
        src = ROOT / name
        if src.exists():
            shutil.copytree(src, dst / name, ignore=ignore)
    for f in ("pyproject.toml", "README.md", "CHANGELOG.md"):
        if (ROOT / f).exists():
            shutil.copy2(ROOT / f, dst / f)


def check_list(mutants: tuple[Mutant, ...] = MUTANTS, root: Path = ROOT) -> list[str]:
    """Problems with the list itself: snippets that do not occur exactly once, test files that do not exist."""
    out = []
    names = set()
    for m in mutants:
        if m.name in names:
            out.append(f"{m.name}: listed twice")
        names.add(m.name)
        text = (root / m.file).read_text(encoding="utf-8")
        n = text.count(m.old)
        if n != 1:
            out.append(f"{m.name}: {m.file} holds the snippet {n} times (must be once): {m.old!r}")
        if m.old == m.new:
            out.append(f"{m.name}: the mutant changes nothing")
        for t in m.tests:
            if not (root / t).exists():
                out.append(f"{m.name}: no test file {t}")
        if not m.tests:
            out.append(f"{m.name}: names no test file")
    return out


def _pytest(tree: Path, tests: tuple[str, ...], timeout: float) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *tests]
    try:
        p = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "timeout"
    tail = (p.stdout + p.stderr).strip().splitlines()
    return p.returncode, tail[-1] if tail else ""


def run_one(tree: Path, m: Mutant, timeout: float) -> tuple[str, bool, str]:
    path = tree / m.file
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(original.replace(m.old, m.new, 1), encoding="utf-8")
        code, tail = _pytest(tree, m.tests, timeout)
    finally:
        path.write_text(original, encoding="utf-8")
    # caught: the tests failed (1) or errored on the mutant (2); 5 = no tests ran, -1 = timeout: not a catch
    return m.name, code in (1, 2), tail


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    ap.add_argument("--jobs", type=int, default=2, help="mutants run at once (one source copy each)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant's test run")
    a = ap.parse_args(argv)
    problems = check_list()
    if problems:
        print("\n".join(problems))
        return 2
    chosen = [m for m in MUTANTS if not a.only or m.name in a.only]
    if a.only and len(chosen) != len(a.only):
        print(f"unknown mutants: {sorted(set(a.only) - {m.name for m in MUTANTS})}")
        return 2
    jobs = max(1, min(a.jobs, len(chosen)))
    with tempfile.TemporaryDirectory(prefix="dfd-mutants-") as tmp:
        trees = []
        for i in range(jobs):
            t = Path(tmp) / f"tree{i}"
            t.mkdir()
            _copy_tree(t)
            trees.append(t)
        # the unmutated tests must pass, or no mutant result means anything
        every = tuple(sorted({t for m in chosen for t in m.tests}))
        code, tail = _pytest(trees[0], every, a.timeout * 2)
        if code != 0:
            print(f"the test files fail without any mutant ({tail}): fix them first")
            return 2
        free = list(trees)
        results: dict[str, tuple[bool, str]] = {}

        def work(m: Mutant) -> tuple[str, bool, str]:
            tree = free.pop()
            try:
                t0 = time.monotonic()
                name, caught, tail = run_one(tree, m, a.timeout)
                print(f"{'caught' if caught else 'MISSED':6}  {name:26} {time.monotonic() - t0:6.1f} s  {m.rule}"
                      + ("" if caught else f"  [{tail}]"), flush=True)
                return name, caught, tail
            finally:
                free.append(tree)

        with ThreadPool(jobs) as pool:
            for name, caught, tail in pool.imap_unordered(work, chosen):
                results[name] = (caught, tail)
    missed = [m.name for m in chosen if not results[m.name][0]]
    print(json.dumps({"mutants": len(chosen), "caught": len(chosen) - len(missed), "missed": missed}))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
