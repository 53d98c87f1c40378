"""Issue 14: a campaign file survives a failed write and every change of the rules or data (epochs)."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core import provenance
from core.decisions import Action
from core.game import Game, verify
from core.store import Store, StoreError

from tests.test_store import ROOT, WALK, play


def saved(p: Path, seed: int, n: int) -> tuple[str, list]:
    """A walk game with ``n`` actions saved in ``p`` (and closed): its hash and its log."""
    g = Game.new(p, WALK, seed=seed)
    play(g, n)
    out = g.engine.hash(), list(g.engine.log)
    g.close()
    return out


def rolls_in(log: list) -> list[int]:
    return [e.seq for e in log if e.action.kind == "roll_initiative"]


def updated_program(monkeypatch, version: str = "9.9.9") -> provenance.Provenance:
    """Pretend this program is another version; returns the real provenance."""
    now = provenance.current()
    monkeypatch.setattr(provenance, "current", lambda: dataclasses.replace(now, version=version))
    return now


def files_digest(p: Path) -> str:
    h = hashlib.sha256()
    for suffix in ("", "-wal"):
        f = Path(str(p) + suffix)
        h.update(f.read_bytes() if f.exists() else b"")   # (a reader may leave an empty -wal behind)
    return h.hexdigest()


def initiative_rolls(g: Game) -> list[int]:
    return [e.seq for e in g.engine.log if e.action.kind == "roll_initiative"]


# -- 1. a failed write leaves the game exactly where its file is ----------------------------------------------

@pytest.mark.parametrize("where", ["append", "commit"])
def test_commit_failure_leaves_game_and_file_identical(tmp_path, monkeypatch, where):
    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=21)
    play(g, 25)
    # the next action rolls dice (the initiative, 6.1) so that a kept state would be visibly ahead
    while g.engine.pending().options[0].action.kind != "roll_initiative":
        play(g, 1)
    hash_before, log_before, file_before = g.engine.hash(), len(g.engine.log), files_digest(p)
    pending_before = g.engine.pending()
    action = pending_before.options[0].action

    def disk_full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full (injected)")

    if where == "append":
        monkeypatch.setattr(g.store, "append", disk_full)
    else:  # inside Store.append's transaction, after the rows were added
        monkeypatch.setattr(Store, "_commit", disk_full)
    with pytest.raises(sqlite3.OperationalError, match="injected"):
        g.act(action)
    monkeypatch.undo()
    assert g.engine.hash() == hash_before
    assert len(g.engine.log) == log_before
    assert g.engine.pending() == pending_before
    watcher = Game.open(p, read_only=True)
    assert watcher.engine.hash() == hash_before
    watcher.close()
    assert files_digest(p) == file_before
    # play on: the file and the game stay one
    g.act(action)
    play(g, 20)
    h = g.engine.hash()
    g.close()
    g2 = Game.open(p)
    assert g2.engine.hash() == h and len(g2.epochs) == 1
    g2.close()
    assert verify(p).ok


# -- 2. a changed data file: the game continues as a new epoch ------------------------------------------------

def copy_program(dst: Path) -> Path:
    """This program's code and data in ``dst`` (a second installation to edit)."""
    for d in ("core", "app", "net", "resources", "scenarios"):
        shutil.copytree(ROOT / d, dst / d, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def program_with_corrected_counter(dst: Path, uid: str, *, column: int, was: str, now: str) -> Path:
    """A copy of this program whose resources/counters/axis.csv has ``now`` in ``column`` of ``uid``'s row."""
    tree = copy_program(dst)
    csv = tree / "resources" / "counters" / "axis.csv"
    text = csv.read_text(encoding="utf-8")
    old_row = next(line for line in text.splitlines() if line.startswith(f"{uid},"))
    cols = old_row.split(",")
    assert cols[column] == was
    cols[column] = now
    csv.write_text(text.replace(old_row, ",".join(cols)), encoding="utf-8")
    return tree


def run_in(tree: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], check=False, capture_output=True, text=True, cwd=tree,
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen"})


CONTINUE = textwrap.dedent("""
    import sys
    from core.game import Game
    g = Game.open(sys.argv[1])
    print(len(g.epochs), g.note)
    for _ in range(15):
        g.act(g.engine.pending().options[0].action)
    print(g.engine.hash())
    g.close()
""")


def test_changed_data_file_continues_as_an_epoch(tmp_path):
    p = tmp_path / "campaign.dfd"
    g = Game.new(p, WALK, seed=22)
    play(g, 30)
    played_hash, n = g.engine.hash(), len(g.engine.log)
    g.close()
    # the player corrects GE-5Pz's CF (the cf column, docs/manual.md chapter 13) to match a printed counter
    tree = program_with_corrected_counter(tmp_path / "updated", "GE-5Pz", column=11, was="9", now="10")

    shown = run_in(tree, "-m", "app.cli", "show", str(p))
    assert shown.returncode == 0, shown.stderr
    assert "resources/counters/axis.csv" in shown.stdout and "epoch 2" in shown.stdout
    assert len(Game.open(p, read_only=True).epochs) == 1      # showing writes nothing

    r = run_in(tree, "-c", CONTINUE, str(p))
    assert r.returncode == 0, r.stderr
    epochs, note = r.stdout.splitlines()[0].split(" ", 1)
    assert epochs == "2"
    assert "resources/counters/axis.csv" in note and "epoch 2" in note and "nothing was lost" in note
    assert note.count(". ") == 0 and note.endswith(".")      # one sentence

    g = Game.open(p, read_only=True)
    e1, e2 = g.epochs
    assert (e1.first_seq, e2.first_seq, e2.from_seq) == (1, n + 1, n)
    assert e2.from_hash == played_hash                         # it continues the state as it was played
    assert len(g.engine.log) == n + 15
    g.close()

    v = run_in(tree, "-m", "app.cli", "replay", str(p), "--verify")
    assert v.returncode == 0, v.stdout + v.stderr
    assert "epoch 1 (actions #1-#30" in v.stdout and "epoch 2 (actions #31-#45" in v.stdout
    # this (unchanged) program verifies the same file per epoch as well
    rep = verify(p)
    assert rep.ok and [e.n for e in rep.epochs] == [1, 2], rep.message
    # reopened by the updated program: no further epoch
    r2 = run_in(tree, "-c", CONTINUE, str(p))
    assert r2.returncode == 0 and r2.stdout.split(" ", 1)[0] == "2", r2.stderr


def test_a_move_the_corrected_data_forbid_stays_made_and_verify_says_so(tmp_path):
    """A logged action the new data no longer allow is never re-applied: it stays as played, and verify reports
    where the new program stops reproducing the old epoch (docs/architecture.md, "Epochs")."""
    import random

    p = tmp_path / "campaign.dfd"
    g = Game.new(p, WALK, seed=37)
    rng = random.Random(17)     # a game whose 5 Pz makes a long move (in GenS: 4.1 IX determines it each GT)
    for _ in range(35):
        g.act(rng.choice(g.engine.pending().options).action)
    long_move = next(e for e in g.engine.log if e.action.kind == "move" and e.action.args["units"] == ["GE-5Pz"])
    assert len(long_move.action.args["path"]) > 4
    where = g.state.units["GE-5Pz"].loc
    g.close()
    # a corrected movement allowance (the ma column) far below the move already made
    tree = program_with_corrected_counter(tmp_path / "updated", "GE-5Pz", column=15, was="22", now="4")
    r = run_in(tree, "-c", CONTINUE, str(p))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split(" ", 1)[0] == "2"
    g = Game.open(p, read_only=True)
    assert g.engine.log[long_move.seq - 1].action == long_move.action     # the move stays in the log as made
    assert g.epochs[1].from_seq == 35
    g.close()
    v = run_in(tree, "-m", "app.cli", "replay", str(p), "--verify")
    assert v.returncode == 0, v.stdout + v.stderr
    assert (f"reproduces {long_move.seq - 1} of its 35 actions from its start; from action #{long_move.seq} on "
            f"(it is refused:") in v.stdout
    assert where != "C0702"


# -- 3. a changed rule (no new version number): the divergence starts a new epoch ------------------------------

def flip_ghibli(monkeypatch):
    """A 'rules fix' of the Initiative Table (6.1 / 6.3): every result toggles Ghibli."""
    from core.rules import initiative

    orig = initiative.read_table
    monkeypatch.setattr(initiative, "read_table",
                        lambda modified, gt: dataclasses.replace(orig(modified, gt), ghibli=not orig(modified, gt).ghibli))


def test_changed_rule_continues_as_an_epoch(tmp_path, monkeypatch):
    p = tmp_path / "campaign.dfd"
    g = Game.new(p, WALK, seed=23)
    play(g, 40)
    rolled = initiative_rolls(g)
    assert rolled, "the log must hold an initiative roll for the changed rule to matter"
    played_hash, n = g.engine.hash(), len(g.engine.log)
    played_state = g.state.encode()
    g.close()

    flip_ghibli(monkeypatch)
    assert not verify(p).ok        # the current epoch no longer replays: verify says so before the game is opened
    g = Game.open(p)
    assert len(g.epochs) == 2
    assert f"action #{rolled[0]} no longer replays" in g.note and "nothing was lost" in g.note
    assert g.state.encode() == played_state and g.engine.hash() == played_hash   # the board as it was played
    assert g.epoch.from_seq == n and g.epoch.first_seq == n + 1
    play(g, 60)                     # on through the next initiative roll, under the new rule
    assert initiative_rolls(g)[-1] > n
    h, m = g.engine.hash(), len(g.engine.log) - n
    g.close()

    rep = verify(p)
    assert rep.ok, rep.message
    e1, e2 = rep.epochs
    assert e1.reproduced == rolled[0] - 1 and "stands on the hashes recorded" in e1.text
    assert e2.reproduced == m and f"all {m} actions reproduced" in e2.text
    g = Game.open(p)
    assert g.engine.hash() == h and len(g.epochs) == 2 and g.note == ""
    g.close()

    # back to the old rule: epoch 2 no longer replays; the game goes on as epoch 3, still nothing lost
    monkeypatch.undo()
    g = Game.open(p)
    assert len(g.epochs) == 3 and g.engine.hash() == h
    play(g, 5)
    g.close()
    rep = verify(p)
    assert rep.ok and len(rep.epochs) == 3, rep.message
    assert rep.epochs[0].reproduced == n      # epoch 1 reproduces again under its own rule


def test_a_program_update_is_an_epoch_boundary_even_when_everything_replays(tmp_path, monkeypatch):
    p = tmp_path / "g.dfd"
    h, _ = saved(p, 24, 12)
    now = updated_program(monkeypatch)
    g = Game.open(p)
    assert len(g.epochs) == 2 and g.engine.hash() == h
    assert g.note.startswith(f"The program ({now.version} → 9.9.9) changed since g.dfd was last played")
    play(g, 3)
    g.close()
    rep = verify(p)
    assert rep.ok and [e.reproduced for e in rep.epochs] == [12, 3], rep.message


def test_verify_fails_when_the_epoch_chain_is_broken(tmp_path, monkeypatch):
    p = tmp_path / "g.dfd"
    saved(p, 25, 10)
    updated_program(monkeypatch)
    Game.open(p).close()
    con = sqlite3.connect(p)
    con.execute("UPDATE dfd_epoch SET from_hash = 'x' WHERE n = 2")
    con.commit()
    con.close()
    rep = verify(p)
    assert not rep.ok and "does not continue" in rep.message


# -- schema-1 files (saved before epochs) ---------------------------------------------------------------------

def make_schema1(p: Path) -> None:
    """Turn a file into what the program wrote before issue 14 (no head, no epochs)."""
    con = sqlite3.connect(p)
    con.execute("DROP TABLE dfd_head")
    con.execute("DROP TABLE dfd_epoch")
    con.execute("UPDATE dfd_meta SET value = '1' WHERE key = 'schema'")
    con.execute("DELETE FROM dfd_meta WHERE key = 'game_id'")
    con.execute("PRAGMA user_version=1")
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def test_schema1_file_is_upgraded_as_a_second_epoch(tmp_path):
    p = tmp_path / "old.dfd"
    h, _ = saved(p, 26, 20)
    make_schema1(p)
    assert verify(p).ok                        # read-only: an old file verifies without being changed
    g = Game.open(p)
    assert len(g.epochs) == 2 and g.engine.hash() == h
    assert "earlier version" in g.note and "nothing was lost" in g.note
    play(g, 5)
    g.close()
    assert verify(p).ok


def test_schema1_file_whose_log_no_longer_replays_continues_from_the_last_reproduced_state(tmp_path, monkeypatch):
    p = tmp_path / "old.dfd"
    _, log = saved(p, 27, 40)
    rolled = rolls_in(log)[0]
    make_schema1(p)
    flip_ghibli(monkeypatch)
    g = Game.open(p)
    assert g.epoch.from_seq == rolled - 1 and len(g.engine.log) == 40
    assert f"actions #{rolled}-#40 stay in the file but are not on the board" in g.note
    play(g, 5)
    g.close()
    assert verify(p).ok


def test_read_only_open_of_a_changed_game_writes_nothing(tmp_path, monkeypatch):
    p = tmp_path / "g.dfd"
    saved(p, 28, 8)
    before = files_digest(p)
    updated_program(monkeypatch)
    g = Game.open(p, read_only=True)
    assert "opening it to play continues it" in g.note and len(g.epochs) == 1
    with pytest.raises(StoreError, match="read-only"):
        g.act(g.engine.pending().options[0].action)
    g.close()
    assert files_digest(p) == before


def test_undo_does_not_reach_into_an_earlier_epoch(tmp_path, monkeypatch):
    p = tmp_path / "g.dfd"
    g = Game.new(p, WALK, seed=29)
    play(g, 3)
    side = g.engine.log[-1].action.side
    g.close()
    updated_program(monkeypatch)
    g = Game.open(p)
    assert not g.engine.can_undo(side)
    with pytest.raises(Exception, match="Nothing to take back"):
        g.act(Action(kind="undo", side=side))
    g.close()


# -- 5. a file that cannot be opened is explained in one sentence ---------------------------------------------

def test_dfd_show_explains_every_unopenable_file_in_one_sentence(tmp_path):
    good = tmp_path / "good.dfd"
    saved(good, 35, 20)
    data = good.read_bytes()
    cases = {
        "missing.dfd": None,
        "letter.dfd": b"Dear Erwin,",
        "cut.dfd": data[: len(data) // 2],
    }
    newer = tmp_path / "newer.dfd"
    newer.write_bytes(data)
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version=99")
    con.commit()
    con.close()
    damaged = tmp_path / "damaged.dfd"
    damaged.write_bytes(data)
    con = sqlite3.connect(damaged)
    con.execute("UPDATE dfd_epoch SET start = X'00'")     # the state the log starts from is unreadable
    con.commit()
    con.close()
    paths = [newer, damaged]
    for name, content in cases.items():
        p = tmp_path / name
        if content is not None:
            p.write_bytes(content)
        paths.append(p)
    reasons = []
    for p in paths:
        r = subprocess.run([sys.executable, "-m", "app.cli", "show", str(p)], check=False, capture_output=True,
                           text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and r.stdout == "", (p, r.stderr)
        assert lines[0].startswith(f"dfd: {p}: ") and "Traceback" not in r.stderr
        reasons.append(lines[0])
    newer_r, damaged_r, missing_r, letter_r, cut_r = reasons
    assert "newer version" in newer_r and "no such file" in missing_r
    assert "not a Desert Fox game file" in letter_r and "damaged or truncated" in cut_r
    assert "the state at action #0 is not a valid game state" in damaged_r


def test_a_stale_head_is_rewritten_from_the_replayed_state(tmp_path):
    p = tmp_path / "g.dfd"
    h, _ = saved(p, 36, 12)
    con = sqlite3.connect(p)
    con.execute("UPDATE dfd_head SET state = X'00', hash = 'x'")
    con.commit()
    con.close()
    assert not verify(p).ok
    Game.open(p).close()          # the log replays to its end: the head is written again from that state
    assert verify(p).ok and Game.open(p, read_only=True).engine.hash() == h
