"""The computer at the table (issue 21): which sides it plays, which decision it answers, and its thinking on a copy.

No Qt and no network: the desktop app (:mod:`app.computer`) and a LAN host's computer seat (:mod:`net.computer`)
both use it, and both send the computer's answer through the same path as a person's (``GameController.act``, a
client's command), so the engine judges it like any other action.

* :func:`load_seating` / :func:`save_seating`: the sides the computer plays and its setting ("quick",
  "thoughtful"), kept in the game file's meta table (key ``players``) so that a reopened game remembers them.  The
  meta table is not part of the state: the game's hash, log and ``replay --verify`` are unchanged by it.
* :func:`answering_side` (``core.players.answering_side``, the one definition): the computer side that answers a
  decision (a decision either side answers, 4.1 III.1, is answered for the computer's side by the computer, shown
  its own options only: ``core.players.view_for``).
* :func:`think`: the computer's answer, chosen on an independent copy of the engine (``Engine.fork`` with
  :class:`~core.dice.SampledDice` from the computer's own RNG) — the real future dice are never seen (issue 21).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping  # noqa: UP035

from core.decisions import ALLIED, AXIS, Action
from core.dice import SampledDice  # noqa: F401 - the copies' dice (app.computer, net.computer)
from core.engine import Engine
from core.players import AI_SETTINGS, Player, answering_side, make_player, view_for  # noqa: F401 - answering_side: for the front ends

#: the game file's meta key holding the seating: {"Axis": "person" | "computer", "Allied": ..., "setting": ...}
META_KEY = "players"
PERSON, COMPUTER = "person", "computer"
DEFAULT_SETTING = "quick"


def settings() -> tuple[str, ...]:
    """The computer's settings (``core.players.AI_SETTINGS``): how long it may think per decision."""
    return AI_SETTINGS


def parse_seating(text: str) -> dict[str, str]:
    """``{side: setting}`` for the sides the computer plays, from the meta value (empty or unknown: nobody)."""
    if not text:
        return {}
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"the game's {META_KEY!r} meta value is not JSON: {text!r}") from exc
    setting = str(raw.get("setting") or DEFAULT_SETTING)
    return {side: str(raw.get(f"{side}_setting") or setting) for side in (AXIS, ALLIED) if raw.get(side) == COMPUTER}


def format_seating(computer: Mapping[str, str]) -> str:
    """The meta value for ``{side: setting}`` (sides not named are played by a person)."""
    out: dict[str, Any] = {side: COMPUTER if side in computer else PERSON for side in (AXIS, ALLIED)}
    for side, setting in computer.items():
        if side not in (AXIS, ALLIED):
            raise ValueError(f"{side!r} is not a side (Axis or Allied)")
        if setting not in settings():
            raise ValueError(f"{setting!r} is not a computer setting ({', '.join(settings())})")
        out[f"{side}_setting"] = setting
    return json.dumps(out, sort_keys=True)


def load_seating(store: Any) -> dict[str, str]:
    """The sides the computer plays in the game kept by ``store`` (a :class:`core.store.Store`)."""
    return parse_seating(store.meta.get(META_KEY) or "")


def save_seating(store: Any, computer: Mapping[str, str]) -> None:
    """Remember the seating in the game file (not in the state: the hash does not change)."""
    store.set_meta(META_KEY, format_seating(computer))


def player_seed(game_id: str, side: str) -> int:
    """The computer's seed for ``side`` of one game: fixed for the game (so a reopened game plays the same way), and
    unrelated to the dice seed (the computer must not foresee the dice)."""
    return int.from_bytes(hashlib.sha256(f"dfd-computer:{game_id}:{side}".encode()).digest()[:8], "big")


def make_computer(side: str, seed: int, setting: str = DEFAULT_SETTING, kind: str = "ai") -> Player:
    """The player for ``side`` (``core.players.make_player``; ``kind`` other than "ai" for tests and baselines)."""
    return make_player(kind, side, seed, setting)


def think(player: Player, eng: Engine, side: str) -> tuple[Action, str]:
    """The computer's answer for ``side`` to the decision pending in ``eng`` (already a copy the caller owns) and its
    plan sentence (``player.plan``, "" for a bot)."""
    d = eng.pending()
    if d is None:
        raise ValueError("the game has ended: nothing to answer")
    action = player.choose(view_for(d, side), eng)
    return action, str(getattr(player, "plan", "") or "")
