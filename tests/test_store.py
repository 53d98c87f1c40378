"""Event sourcing and persistence (issue 2 item 6): commit per action, replay, bad files, crash safety."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from core.game import Game, verify
from core.store import SCHEMA_VERSION, StoreError

ROOT = Path(__file__).resolve().parent.parent
WALK = str(Path(__file__).parent / "fixtures" / "walk.toml")


def play(g: Game, n: int) -> None:
    for _ in range(n):
        d = g.engine.pending()
        if d is None:
            return
        g.act(d.options[0].action)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_new_play_reopen_same_hash(tmp_path):
    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=11)
    play(g, 40)
    h = g.engine.hash()
    g.close()
    g2 = Game.open(p)
    assert g2.engine.hash() == h and len(g2.engine.log) == 40
    play(g2, 5)
    g2.close()
    assert verify(p).ok


def test_replay_verify_detects_tampering(tmp_path):
    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=2)
    play(g, 30)
    g.close()
    assert verify(p).ok
    con = sqlite3.connect(p)
    con.execute("UPDATE dfd_action SET hash = 'x' WHERE seq = 7")
    con.commit()
    con.close()
    rep = verify(p)
    assert not rep.ok and rep.first_bad == 7


def test_undo_is_logged_and_replayed(tmp_path):
    from core.decisions import Action

    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=3)
    play(g, 3)
    side = g.engine.log[-1].action.side
    g.act(Action(kind="undo", side=side))
    h = g.engine.hash()
    g.close()
    assert Game.open(p).engine.hash() == h
    assert verify(p).ok


def test_snapshots_and_load_with_many_actions(tmp_path, monkeypatch):
    import core.game

    monkeypatch.setattr(core.game, "SNAPSHOT_EVERY", 25)
    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=4)
    play(g, 200)
    h, n = g.engine.hash(), len(g.engine.log)
    g.close()
    con = sqlite3.connect(p)
    snaps = con.execute("SELECT COUNT(*) FROM dfd_snapshot").fetchone()[0]
    con.close()
    assert snaps > 1
    g2 = Game.open(p)
    assert g2.engine.hash() == h and len(g2.engine.log) == n


# -- bad files: a clear error, and the file is unchanged ----------------------

def test_random_bytes_file_refused_unchanged(tmp_path):
    p = tmp_path / "junk.dfd"
    p.write_bytes(os.urandom(5000))
    before = digest(p)
    with pytest.raises(StoreError, match="not a Desert Fox game file"):
        Game.open(p)
    assert digest(p) == before and not Path(str(p) + "-wal").exists()


def test_truncated_file_refused_unchanged(tmp_path):
    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=5)
    play(g, 30)
    g.close()
    data = p.read_bytes()
    t = tmp_path / "cut.dfd"
    t.write_bytes(data[: len(data) // 2])
    before = digest(t)
    with pytest.raises(StoreError, match="damaged|truncated|incomplete"):
        Game.open(t)
    assert digest(t) == before
    tiny = tmp_path / "tiny.dfd"
    tiny.write_bytes(data[:60])
    with pytest.raises(StoreError):
        Game.open(tiny)


def test_newer_schema_refused_unchanged(tmp_path):
    p = tmp_path / "g.dfd"
    Game.new(p, WALK, seed=6).close()
    con = sqlite3.connect(p)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = digest(p)
    with pytest.raises(StoreError, match="newer version"):
        Game.open(p)
    assert digest(p) == before


def test_foreign_sqlite_refused(tmp_path):
    p = tmp_path / "other.dfd"
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="not a Desert Fox game file"):
        Game.open(p)


def test_cli_refuses_bad_file_with_message(tmp_path):
    p = tmp_path / "junk.dfd"
    p.write_text("hello")
    r = subprocess.run([sys.executable, "-m", "app.cli", "show", str(p)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "not a Desert Fox game file" in r.stderr


# -- determinism across processes ---------------------------------------------

SCRIPT = textwrap.dedent("""
    import sys
    from core.engine import Engine
    from core.newgame import initial_state
    from core.scenario import load
    eng = Engine(initial_state(load(sys.argv[1]), 1234))
    n = 0
    while eng.pending() is not None and n < 400:
        d = eng.pending()
        eng.apply(d.options[(n * 7) % len(d.options)].action)
        n += 1
    print(eng.hash())
""")


def test_same_hash_in_two_processes():
    env = dict(os.environ, PYTHONHASHSEED="random")
    outs = [
        subprocess.run([sys.executable, "-c", SCRIPT, WALK], capture_output=True, text=True, cwd=ROOT, env=env, check=True).stdout
        for _ in range(2)
    ]
    assert outs[0] == outs[1] and len(outs[0].strip()) == 64


# -- crash safety ---------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sys
    from core.game import Game
    g = Game.new(sys.argv[1], sys.argv[2], seed=9)
    n = 0
    while True:
        d = g.engine.pending()
        if d is None:
            break
        e = g.act(d.options[0].action)
        n += 1
        print(n, e.hash, flush=True)   # printed only after the commit
""")


def test_sigkill_loses_no_confirmed_action(tmp_path):
    p = tmp_path / "crash.dfd"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(p), "desert-war"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    confirmed: list[tuple[int, str]] = []
    deadline = time.time() + 60
    assert proc.stdout is not None
    while len(confirmed) < 150 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        n, h = line.split()
        confirmed.append((int(n), h))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert len(confirmed) >= 150
    g = Game.open(p)
    n_last, h_last = confirmed[-1]
    assert len(g.engine.log) >= n_last
    assert g.engine.log[n_last - 1].hash == h_last
    g.close()
    assert verify(p).ok
