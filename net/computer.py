"""A computer seat at a LAN table (issue 21): the computer holds one side of a hosted campaign.

A :class:`ComputerSeat` is an ordinary client of the host (:class:`net.client.Client`), seated like any player by a
``[[seat]]`` of the seat file with its own key (``computer-axis`` / ``computer-allied`` in the key folder).  It
answers the decisions of its side through the same command path as every client — a command based on the sequence
number it saw, ordered, checked and applied by the host, refused with the rule like anyone's — so the host needs no
special case.  It thinks on an independent copy of its replica (``Client.fork``) whose dice are sampled from its own
RNG: it never sees the real future dice, which only the host rolls.

``dfd host FILE --computer Allied[:thoughtful]`` seats it from the command line (:func:`seat_computer` adds its seat
to the seat file); File ▸ Host this campaign… has *Seat the computer*.
"""

from __future__ import annotations

import logging
import random
import threading
from pathlib import Path
from typing import Any

from core import computer as computer_mod
from core.decisions import ALLIED, AXIS
from net import keys as keymod
from net import protocol as P
from net.client import Client

log = logging.getLogger(__name__)

COMPUTER_NAME = "Computer"


def key_name(side: str) -> str:
    """The key file of the computer seat of ``side`` (one key, one seat)."""
    return f"computer-{side.lower()}"


def computer_key(side: str, key_dir: str | Path | None = None) -> keymod.KeyPair:
    if side not in (AXIS, ALLIED):
        raise ValueError(f"{side!r} is not a side (Axis or Allied)")
    return keymod.load_or_create(key_name(side), key_dir)


def parse_computer(text: str) -> tuple[str, str]:
    """``"Allied"`` or ``"Allied:thoughtful"`` -> (side, setting)."""
    side, _, setting = text.partition(":")
    side = side.strip().capitalize()
    setting = setting.strip() or computer_mod.DEFAULT_SETTING
    if side not in (AXIS, ALLIED):
        raise ValueError(f"--computer {text!r}: the side is Axis or Allied")
    if setting not in computer_mod.settings():
        raise ValueError(f"--computer {text!r}: the setting is one of {', '.join(computer_mod.settings())}")
    return side, setting


def seat_computer(seats_file: Path, side: str, key_dir: str | Path | None = None) -> keymod.KeyPair:
    """Make sure the seat file seats the computer on ``side`` (adds its ``[[seat]]`` block if missing)."""
    from net.host import Seats

    pair = computer_key(side, key_dir)
    seats_file = Path(seats_file)
    text = seats_file.read_text(encoding="utf-8") if seats_file.exists() else ""
    seats = Seats.load(seats_file) if seats_file.exists() else Seats()
    if pair.public not in seats.by_key:
        block = f'\n[[seat]]\nname = "{COMPUTER_NAME} ({side})"\nside = "{side}"\nkey = "{pair.public}"\n'
        seats_file.write_text(text + block, encoding="utf-8")
    return pair


class ComputerSeat:
    """The computer holding ``side`` of the campaign served at ``host:port``."""

    def __init__(self, host: str, port: int, server_key: str, side: str, setting: str = "quick", *,
                 key: keymod.KeyPair | None = None, key_dir: str | Path | None = None, kind: str = "ai",
                 seed: int | None = None, player: Any = None, heartbeat: float = 1.0):
        self.side, self.setting = side, setting
        self.key = key or computer_key(side, key_dir)
        self.client = Client(host, port, server_key, self.key, name=f"{COMPUTER_NAME} ({side})", heartbeat=heartbeat)
        self.seed = seed if seed is not None else computer_mod.player_seed(self.key.public, side)
        self.player = player if player is not None else computer_mod.make_computer(side, self.seed, setting, kind)
        self.plan = ""
        self.sent = 0
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._rng = random.Random(f"dfd-computer-seat-dice:{self.seed}")

    def start(self) -> "ComputerSeat":
        self.client.start()
        self._thread = threading.Thread(target=self._run, name=f"dfd-computer-{self.side}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.client.stop(timeout)

    def _mine(self, c: Client) -> bool:
        if self._stop.is_set():
            return True
        if c.engine is None or c.welcome is None or c.welcome.seat != self.side:
            return False
        return computer_mod.answering_side(c.engine.pending(), {self.side: self.setting}) is not None

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if not self.client.wait(self._mine, timeout=0.5) or self._stop.is_set():
                    continue
                copy = self.client.fork(computer_mod.SampledDice(self._rng))
                if copy is None:
                    continue
                seq, eng = copy
                action, plan = computer_mod.think(self.player, eng, self.side)
                if plan and plan != self.plan:
                    self.plan = plan
                    self.client.send_chat(f"{self.side}: {plan}" if not plan.startswith(self.side) else plan, "all")
                cid = self.client.send_command(action, base=seq)
                self.sent += 1
                res = self.client.result(cid, timeout=60)
                # an answer refused (stale after another player's command, or by the engine): think again on the
                # new state; a refusal on an unchanged state would loop, so it stops the seat loudly
                if isinstance(res, P.Reject) and res.code != P.STALE and self.client.seq == seq:
                    raise RuntimeError(f"the host refused the computer's {action.kind}: {getattr(res, 'reason', '')}")
                self.client.wait(lambda c, s=seq: c.seq > s or self._stop.is_set(), timeout=60)
        except Exception as exc:  # noqa: BLE001 - kept for the owner (tests, the host's log); the seat stops
            self.error = exc
            log.exception("the computer seat (%s) stopped", self.side)
