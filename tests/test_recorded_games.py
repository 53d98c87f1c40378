"""Recorded games replay with identical hashes (issue 18 'Must show': speed changes change no result).

``tests/fixtures/recorded/*.json`` holds games played by the random bot from real scenario set-ups (several
scenarios, a few thousand actions in all; one of them also takes actions back with ``undo`` and replays them).
Each file keeps the action log and, every :data:`EVERY` actions and after the last one, the state hash and a
digest of the pending decision (side, kind, free kinds and the actions of its options).  The test replays the log
through ``Engine.apply`` alone, as ``Game.open`` and ``dfd replay --verify`` do, and checks every recorded hash;
at each checkpoint it also asks for the pending decision and checks its digest, so a change that alters a
sampled option (not only a state) is caught too.  A speed change must pass this test unchanged.

**Re-recording.**  A rules fix that changes what a game does (a hash, or an option offered) makes this test
fail at the first checkpoint after the change.  When the change is intended, re-record the fixtures in the same
commit as the fix and say so in the commit message::

    PYTHONPATH=$PWD .venv/bin/python tests/test_recorded_games.py            # every game in GAMES
    PYTHONPATH=$PWD .venv/bin/python tests/test_recorded_games.py sonnenblume # only the named ones

Recording plays each game of :data:`GAMES` again with ``RandomBot(seed)`` (the game may then differ from the old
recording after the changed rule: that is expected) and rewrites its file.  Never re-record to make a speed
change pass: a speed change that moves a hash is a bug.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest

HERE = Path(__file__).parent
RECORDED = HERE / "fixtures" / "recorded"
EVERY = 10    # a checkpoint every EVERY actions (and after the last one)


@dataclass(frozen=True)
class Recording:
    """One recorded game: ``scenario`` played with ``seed`` by ``RandomBot(seed)`` for at most ``actions``
    actions; with ``undo_every`` > 0 every ``undo_every``-th action the bot's side takes it back and plays it again
    (R-UNDO), so the undo path is replayed too."""

    name: str
    scenario: str
    seed: int
    actions: int
    undo_every: int = 0


GAMES = (
    Recording("sonnenblume", "sonnenblume", 1, 3000),                   # the whole scenario (26.0)
    Recording("sonnenblume-undo", "sonnenblume", 2, 700, undo_every=7),
    Recording("fox-killed", "fox-killed", 1, 3000),                     # the whole scenario (24.0)
    Recording("trail-of-the-fox", "trail-of-the-fox", 1, 3000),         # the whole scenario (30.0)
    Recording("run-for-tunis", "run-for-tunis", 3, 3000),               # the whole scenario (29.0)
    Recording("desert-fox", "desert-fox", 1, 700),                      # GT 10 onwards (27.0)
    Recording("north-african-campaign", "north-african-campaign", 1, 700),  # GT 1 onwards (33.0)
    Recording("rommels-war", "rommels-war", 1, 400),                    # GT 10 onwards (32.0)
)


def pending_digest(eng) -> str:
    """A short digest of what the engine asks now: side, kind, free kinds and every option's action."""
    d = eng.pending()
    if d is None:
        return "ended"
    body = [d.side, d.kind, list(d.free_kinds), [o.action.to_json().decode() for o in d.options]]
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def _new_engine(scenario: str, seed: int):
    from core.engine import Engine
    from core.newgame import initial_state
    from core.scenario import load

    return Engine(initial_state(load(scenario), seed))


def record(rec: Recording) -> dict:
    """Play ``rec`` with the random bot and return the fixture document."""
    from core.bots import RandomBot
    from core.decisions import Action

    eng = _new_engine(rec.scenario, rec.seed)
    bot = RandomBot(rec.seed)
    log: list[Action] = []
    checkpoints: dict[str, dict[str, str]] = {"0": {"hash": eng.hash(), "pending": pending_digest(eng)}}

    def act(a: Action) -> None:
        eng.apply(a)           # a refusal of an offered option is a bug: let it fail the recording
        log.append(a)
        if len(log) % EVERY == 0:
            checkpoints[str(len(log))] = {"hash": eng.hash(), "pending": pending_digest(eng)}

    while (d := eng.pending()) is not None and len(log) < rec.actions:
        a = bot.choose(d)
        act(a)
        if (rec.undo_every and len(log) % rec.undo_every == 0 and eng.pending() is not None   # not after the end
                and eng.can_undo(a.side) and len(log) + 2 <= rec.actions):
            act(Action(kind="undo", side=a.side))
            act(a)
    checkpoints[str(len(log))] = {"hash": eng.hash(), "pending": pending_digest(eng)}
    return {"scenario": rec.scenario, "seed": rec.seed, "bot": f"RandomBot({rec.seed})", "undo_every": rec.undo_every,
            "every": EVERY, "gt": eng.state.gt, "phase": eng.state.phase, "ended": eng.pending() is None,
            "checkpoints": checkpoints, "actions": [json.loads(a.to_json()) for a in log]}


def write(rec: Recording, doc: dict) -> Path:
    """One action per line, so a re-recording shows as a readable diff."""
    RECORDED.mkdir(parents=True, exist_ok=True)
    head = {k: v for k, v in doc.items() if k not in ("checkpoints", "actions")}
    cps = [f'  "{n}": {json.dumps(c, sort_keys=True)}' for n, c in doc["checkpoints"].items()]
    lines = [json.dumps(a, sort_keys=True, separators=(",", ":")) for a in doc["actions"]]
    text = (json.dumps(head, indent=1, sort_keys=True)[:-2] + ',\n "checkpoints": {\n' + ",\n".join(cps)
            + '\n },\n "actions": [\n' + ",\n".join(lines) + "\n ]\n}\n")
    path = RECORDED / f"{rec.name}.json"
    path.write_text(text)
    assert json.loads(text) == doc
    return path


@pytest.mark.parametrize("rec", GAMES, ids=[g.name for g in GAMES])
def test_recorded_game_replays_with_identical_hashes(rec: Recording):
    from core.decisions import Action

    doc = json.loads((RECORDED / f"{rec.name}.json").read_text())
    assert (doc["scenario"], doc["seed"]) == (rec.scenario, rec.seed)
    checkpoints = doc["checkpoints"]
    eng = _new_engine(rec.scenario, rec.seed)
    assert eng.hash() == checkpoints["0"]["hash"], "the scenario set-up changed: re-record (see the docstring)"
    actions = [msgspec.convert(a, Action) for a in doc["actions"]]
    for i, a in enumerate(actions, 1):
        entry = eng.apply(a)
        cp = checkpoints.get(str(i))
        if cp is None:
            continue
        assert entry.hash == cp["hash"], f"{rec.name}: action #{i} ({a}) reaches another state than recorded"
        assert pending_digest(eng) == cp["pending"], f"{rec.name}: after action #{i} the engine asks something else"
    assert str(len(actions)) in checkpoints and len(actions) > 0
    assert (eng.state.gt, eng.state.phase, eng.pending() is None) == (doc["gt"], doc["phase"], doc["ended"])


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    for g in GAMES:
        if not wanted or g.name in wanted:
            d = record(g)
            p = write(g, d)
            print(f"{p.relative_to(HERE.parent)}: {len(d['actions'])} actions, GT {d['gt']} phase {d['phase']}"
                  f"{' (ended)' if d['ended'] else ''}, {p.stat().st_size // 1024} KiB")
