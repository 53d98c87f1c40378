"""The `dfd` command line (issue 2 item 7): new -> two GTs -> show --json -> replay --verify."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core import sequence
from core.decisions import Action, EITHER
from core.game import Game

ROOT = Path(__file__).resolve().parent.parent
WALK = str(Path(__file__).parent / "fixtures" / "walk.toml")


def dfd(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_new_walk_two_gts_then_replay_verify(tmp_path):
    f = tmp_path / "walk.dfd"
    r = dfd("new", WALK, "-o", str(f), "--seed", "5")
    assert r.returncode == 0, r.stderr
    assert "Waiting for: Allied" in r.stdout  # 3.1: the KDG is set up within 2 hexes of C0603
    g = Game.open(f)
    g.act(Action(kind="place", side="Allied", args={"unit": "UK-KDG", "hex": "C0603"}))
    seen: list[tuple[int, int]] = []
    while (d := g.engine.pending()) is not None:
        st = g.state
        step = sequence.phase(st.phase).steps[st.step - 1]
        want = sequence.side_of(step.role, st.initiative, st.first_player)
        if want != EITHER:
            assert d.side == want, (st.gt, step.key)
        seen.append((st.gt, st.phase))
        g.act(d.options[0].action)
    assert [p for gt, p in seen if gt == 5] == sorted(p for gt, p in seen if gt == 5)
    assert {p for _, p in seen} == set(range(1, 18))  # XVIII-XX are automatic
    final = g.engine.hash()
    g.close()

    r = dfd("show", str(f), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    for key in ("gt", "phase", "impulse", "initiative", "first_player", "pending", "units", "hash"):
        assert key in doc
    assert doc["hash"] == final and doc["gt"] == 6 and doc["pending"] is None
    assert doc["units"]["C0603"] == ["UK-KDG"]

    r = dfd("replay", str(f), "--verify")
    assert r.returncode == 0 and "every state hash reproduced" in r.stdout


def test_replay_verify_fails_on_a_tampered_log(tmp_path):
    import sqlite3

    f = tmp_path / "t.dfd"
    g = Game.new(f, WALK, seed=1)
    for _ in range(10):
        g.act(g.engine.pending().options[0].action)
    g.close()
    con = sqlite3.connect(f)
    con.execute("UPDATE dfd_action SET action = replace(action, 'C06', 'C07') WHERE seq = 1")
    con.commit()
    con.close()
    r = dfd("replay", str(f), "--verify")
    assert r.returncode == 1


def test_scenarios_lists_ten_with_id_first():
    r = dfd("scenarios")
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 10
    assert lines[2].split()[0] == "sonnenblume" and "26.0" in lines[2] and "GT 10-14" in lines[2]


def test_validate_passes_on_shipped_data():
    r = dfd("validate")
    assert r.returncode == 0, r.stdout + r.stderr


def test_help_everywhere():
    for sub in ("", "new", "show", "replay", "validate", "hex", "autoplay", "scenarios", "play"):
        r = dfd(*([sub] if sub else []), "--help")
        assert r.returncode == 0 and "usage: dfd" in r.stdout


def test_hex_command_describes_tobruk():
    r = dfd("hex", "C2331")
    assert r.returncode == 0 and "Tobruk" in r.stdout and "port" in r.stdout
    bad = dfd("hex", "Z9999")
    assert bad.returncode == 2 and "2.2.2" in bad.stderr
