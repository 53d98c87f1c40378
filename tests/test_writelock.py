"""Issue 14 item 3: one writer per campaign file; a second opener is refused clearly and may watch read-only."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.game import Game, verify
from core.store import StoreError

ROOT = Path(__file__).resolve().parent.parent
WALK = str(Path(__file__).parent / "fixtures" / "walk.toml")


def play(g: Game, n: int) -> None:
    for _ in range(n):
        g.act(g.engine.pending().options[0].action)


def test_a_second_writer_is_refused_while_the_first_holds_the_file_and_allowed_after(tmp_path):
    p = tmp_path / "g.dfd"
    first = Game.new(p, WALK, seed=31)
    play(first, 5)
    with pytest.raises(StoreError) as refused:
        Game.open(p)
    msg = str(refused.value)
    assert msg.startswith(f"{p}: already open for play in ") and f"process {os.getpid()}" in msg
    assert msg.endswith("or open it read-only to watch") and "\n" not in msg
    # watching read-only is allowed, and follows the writer
    watcher = Game.open(p, read_only=True)
    assert watcher.engine.hash() == first.engine.hash()
    play(first, 3)
    assert watcher.refresh() and watcher.engine.hash() == first.engine.hash()
    assert not watcher.refresh()
    with pytest.raises(StoreError, match="read-only"):
        watcher.act(watcher.engine.pending().options[0].action)
    # a new game may not overwrite it either
    with pytest.raises(StoreError, match="already open for play"):
        Game.new(p, WALK, seed=32, overwrite=True)
    h = first.engine.hash()
    first.close()
    second = Game.open(p)                       # allowed once the first writer has closed it
    assert second.engine.hash() == h
    play(second, 2)
    second.close()
    watcher.close()
    assert verify(p).ok
    assert not Path(str(p) + ".lock").exists()   # no lock file left behind by a clean close


HOLDER = textwrap.dedent("""
    import sys
    from core.game import Game
    g = Game.open(sys.argv[1])
    g.act(g.engine.pending().options[0].action)
    print("holding", flush=True)
    sys.stdin.read()
""")


def test_another_process_holding_the_file_is_named_and_a_killed_holder_leaves_no_stale_lock(tmp_path):
    p = tmp_path / "g.dfd"
    Game.new(p, WALK, seed=33).close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(p)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(StoreError, match=f"already open for play in .*process {holder.pid}"):
            Game.open(p)
        shown = subprocess.run([sys.executable, "-m", "app.cli", "show", str(p)], check=False, capture_output=True,
                               text=True, cwd=ROOT)
        assert shown.returncode == 0 and "Actions: 1" in shown.stdout      # dfd show only reads
        hosted = subprocess.run([sys.executable, "-m", "app.cli", "host", str(p), "--port", "0", "--no-discovery",
                                 "--key-dir", str(tmp_path / "keys")], check=False, capture_output=True, text=True,
                                cwd=ROOT, timeout=60)
        assert hosted.returncode == 2
        err = hosted.stderr.strip().splitlines()[-1]
        assert err.startswith(f"dfd: {p}: already open for play in ") and "Traceback" not in hosted.stderr
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    g = Game.open(p)          # the operating system released the killed holder's lock
    assert len(g.engine.log) == 1
    g.close()


def test_a_refused_opener_changes_nothing(tmp_path):
    p = tmp_path / "g.dfd"
    first = Game.new(p, WALK, seed=34)
    play(first, 4)
    digest = hashlib.sha256(p.read_bytes()).hexdigest()
    for _ in range(3):
        with pytest.raises(StoreError):
            Game.open(p)
    assert hashlib.sha256(p.read_bytes()).hexdigest() == digest
    play(first, 2)
    first.close()
    assert verify(p).ok
