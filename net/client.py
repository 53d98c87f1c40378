"""A LAN client: a DEALER socket, the same engine as the host, no optimistic updates.

The client says which action it has on every (re)connection (``hello``); the
host replies with the missing tail (a few actions) or its current state (issue 20).  The client applies
only host-numbered updates, through :meth:`core.engine.Engine.apply` with the
dice the host recorded, and checks each resulting state hash against the
host's.  The client never knows the game's seed (issue 14): snapshots come with the seed
blanked and the hashes it checks are the public ones (:func:`core.game.public_hash`), so
no player can compute the dice to come.  A gap or a mismatch triggers a resync (a fresh
snapshot), which is reported.  Commands carry an id and the sequence number they answer; commands
not yet acknowledged are re-sent after a reconnect and the host applies each at
most once.

All network I/O runs on one background thread.  The public methods are thread
safe; events are delivered to ``on_event(kind, data)`` callbacks on that thread
(:mod:`net.qt_adapter` turns them into Qt signals for the GUI thread).

Event kinds: ``status`` (str), ``welcome`` (Welcome), ``update`` (list[Entry]),
``snapshot`` (seq), ``ack`` (Ack), ``reject`` (Reject), ``chat`` (ChatOut),
``presence`` (Presence), ``mismatch`` (str), ``error`` (str), ``closed`` (str).
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import threading
import time
from typing import Any, Callable

import zmq
from zmq.utils.monitor import recv_monitor_message

from core import provenance as provenance_mod
from core.provenance import Provenance
from core.decisions import Action, Decision
from core.engine import Engine, LogEntry, _UndoPoint
from core.game import _RecordedDice
from core.state import GameState
from net import keys as keymod
from net import protocol as P

log = logging.getLogger("dfd.net.client")

_BEFORE = Action(kind="(before the snapshot)", side="")


class Client:
    """One player's (or spectator's) connection to a host."""

    def __init__(self, host: str, port: int, server_key: str, key: keymod.KeyPair, *, name: str = "",
                 heartbeat: float = 1.0, timeout: float = 5.0, backoff: tuple[float, float] = (0.25, 5.0),
                 on_event: Callable[[str, Any], None] | None = None, provenance: Provenance | None = None):
        self.host, self.port = host, int(port)
        self.server_key = keymod.check_public_key(server_key, "server key")
        self.key = key
        self.name = name
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.backoff = backoff
        self._callbacks: list[Callable[[str, Any], None]] = [on_event] if on_event else []
        self.provenance = provenance      # the program and data this client runs (None: this program's)
        # game state (guarded by _cond)
        self.engine: Engine | None = None
        self._dice = _RecordedDice()
        self.seq = 0
        self.game_id = ""
        self.entries: dict[int, P.Entry] = {}
        self.welcome: P.Welcome | None = None
        self.presence: P.Presence | None = None
        self.chat: list[P.ChatOut] = []
        self.acks: dict[str, P.Ack] = {}
        self.rejects: dict[str, P.Reject] = {}       # by command id
        self.refusals: list[P.Reject] = []           # the last 100 refusals of any kind
        self.mismatches: list[str] = []
        self.status = "idle"
        self.closed_reason = ""
        self.connections = 0
        self._cond = threading.Condition()
        # I/O
        self._outbox: list[P._Msg] = []
        self._outstanding: dict[str, P.Command] = {}
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._awaiting_welcome = False
        self._awaiting_snapshot = False

    # ------------------------------------------------------------------ public API
    def add_listener(self, fn: Callable[[str, Any], None]) -> None:
        self._callbacks.append(fn)

    def start(self) -> "Client":
        self._thread = threading.Thread(target=self._run, name=f"dfd-client-{self.name or 'x'}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def kill(self) -> None:
        """Drop the connection without a goodbye (as a crash would); for tests and the benchmark."""
        self._crash = True
        self.stop()

    def drop(self, seconds: float = 0.0) -> None:
        """Lose the connection without a goodbye and stay offline ``seconds`` (a network outage); then reconnect."""
        self._offline_until = time.monotonic() + seconds
        self._drop_now = True
        self._wake()

    @property
    def seat(self) -> str:
        return self.welcome.seat if self.welcome else ""

    def hash(self) -> str:
        with self._cond:
            return self.engine.hash() if self.engine else ""

    def pending(self) -> Decision | None:
        with self._cond:
            return self.engine.pending() if self.engine else None

    def fork(self, dice: Any) -> tuple[int, Engine] | None:
        """The replica's sequence number and an independent copy of it whose dice are ``dice`` (``Engine.fork``), for
        a computer seat to think on (issue 21); None before the first snapshot."""
        with self._cond:
            return (self.seq, self.engine.fork(dice)) if self.engine is not None else None

    def send_command(self, action: Action, base: int | None = None, cmd_id: str | None = None) -> str:
        """Ask the host to apply ``action``; returns the command id.  The state changes only on the host's update."""
        with self._cond:
            cmd = P.Command(id=cmd_id or secrets.token_hex(8), base=self.seq if base is None else base, action=action)
            self._outstanding[cmd.id] = cmd
        self._post(cmd)
        return cmd.id

    def send_chat(self, text: str, to: str = "all") -> None:
        self._post(P.ChatSend(to=to, text=text))  # type: ignore[arg-type]

    def send_raw(self, frames: list[bytes]) -> None:
        """Send arbitrary frames (tests: fuzzing, protocol versions)."""
        self._post(frames)  # type: ignore[arg-type]

    def wait(self, predicate: Callable[["Client"], bool], timeout: float = 30.0) -> bool:
        """Block until ``predicate(self)`` holds (checked after every message) or ``timeout`` passes."""
        end = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.2))
            return True

    def wait_seq(self, seq: int, timeout: float = 30.0) -> bool:
        return self.wait(lambda c: c.seq >= seq, timeout)

    def result(self, cmd_id: str, timeout: float = 30.0) -> P.Ack | P.Reject | None:
        """Wait for the host's answer to a command."""
        self.wait(lambda c: cmd_id in c.acks or cmd_id in c.rejects, timeout)
        with self._cond:
            return self.acks.get(cmd_id) or self.rejects.get(cmd_id)

    # ------------------------------------------------------------------ internals
    _crash = False
    _drop_now = False
    _offline_until = 0.0
    _key_proven = False      # a secure handshake with this host key has succeeded
    _welcomed_here = False   # the current socket has been welcomed (a later handshake on it is a reconnection)
    _hello_at = 0.0          # when to say hello again (a jittered rejoin after a host restart), 0 = not due
    rejoin_jitter = 0.5      # seconds

    def _post(self, msg: Any) -> None:
        with self._cond:
            self._outbox.append(msg)
        self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _emit(self, kind: str, data: Any) -> None:
        for fn in list(self._callbacks):
            try:
                fn(kind, data)
            except Exception:  # noqa: BLE001 - a listener must not break the network thread
                log.exception("client listener failed on %s", kind)

    def _set_status(self, status: str, detail: str = "") -> None:
        with self._cond:
            changed = status != self.status
            self.status = status
            self._cond.notify_all()
        if changed or detail:
            self._emit("status", f"{status}: {detail}" if detail else status)

    def _hello(self) -> P.Hello:
        if self.provenance is None:
            self.provenance = provenance_mod.current()
        me = dict(name=self.name, client=self.provenance.version, code=self.provenance.code,
                  data=self.provenance.data)
        with self._cond:
            if self.engine is None or self._awaiting_snapshot:
                return P.Hello(have_seq=0, have_hash="", game="", **me)
            return P.Hello(have_seq=self.seq, have_hash=self.engine.hash(), game=self.game_id, **me)

    def _open(self, ctx: zmq.Context) -> tuple[zmq.Socket, zmq.Socket]:
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.MAXMSGSIZE, P.MAX_HOST_MESSAGE)
        s.setsockopt(zmq.RCVHWM, 0)
        s.setsockopt(zmq.RECONNECT_IVL, 200 + random.randrange(200))   # jittered: clients do not reconnect in step
        # at most half a second between attempts while the host is away (jittered above): a restarted host is
        # found within 0.5 s of listening again (issue 20 item 6), and a refused TCP connect costs nothing
        s.setsockopt(zmq.RECONNECT_IVL_MAX, 500)
        # transport heartbeats (libzmq's I/O thread): the connection stays up while this thread replays
        s.setsockopt(zmq.HEARTBEAT_IVL, int(self.heartbeat * 1000))
        s.setsockopt(zmq.HEARTBEAT_TIMEOUT, int(self.timeout * 1000))
        s.setsockopt(zmq.HEARTBEAT_TTL, int(self.timeout * 1000))
        s.curve_secretkey = self.key.secret_bytes
        s.curve_publickey = self.key.public_bytes
        s.curve_serverkey = self.server_key.encode("ascii")
        mon = s.get_monitor_socket(zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
                                   | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_DISCONNECTED
                                   | zmq.EVENT_HANDSHAKE_SUCCEEDED)
        host = f"[{self.host}]" if ":" in self.host else self.host
        if ":" in self.host:
            s.setsockopt(zmq.IPV6, 1)
        s.connect(f"tcp://{host}:{self.port}")
        self.connections += 1
        self._awaiting_welcome = True
        self._welcomed_here = False
        s.send_multipart(P.encode(self._hello()), zmq.NOBLOCK)
        return s, mon

    def _close(self, s: zmq.Socket, mon: zmq.Socket) -> None:
        try:
            s.disable_monitor()
        except zmq.ZMQError:
            pass
        mon.close(0)
        s.close(0)

    def _run(self) -> None:
        ctx = zmq.Context()
        delay = self.backoff[0]
        s, mon = None, None
        try:
            while not self._stop.is_set():
                self._set_status("connecting", f"{self.host}:{self.port}")
                s, mon = self._open(ctx)
                outcome = self._session(s, mon)
                if outcome == "welcomed":
                    delay = self.backoff[0]
                if self._crash or self._stop.is_set() or outcome == "fatal":
                    break
                self._close(s, mon)
                s = mon = None
                wait = max(delay * (0.8 + 0.4 * random.random()), self._offline_until - time.monotonic())
                self._set_status("reconnecting", f"in {wait:.1f} s")
                delay = min(delay * 2, self.backoff[1])
                if self._stop.wait(wait):
                    break
        except Exception as exc:  # noqa: BLE001 - reported, never silent
            log.exception("client thread failed")
            self._emit("error", f"the network thread failed: {exc}")
        finally:
            if s is not None and mon is not None:
                if not self._crash:
                    try:
                        s.send_multipart(P.encode(P.Bye(reason="leaving")), zmq.NOBLOCK)
                    except zmq.ZMQError:
                        pass
                self._close(s, mon)
            ctx.term()
            os.close(self._wake_r)
            os.close(self._wake_w)
            with self._cond:
                if self.status != "closed":
                    self.status = "closed"
                self._cond.notify_all()
            self._emit("closed", self.closed_reason or "stopped")

    def _session(self, s: zmq.Socket, mon: zmq.Socket) -> str:
        """Serve one connection; returns 'fatal', 'welcomed' (then lost) or 'lost'."""
        poller = zmq.Poller()
        poller.register(s, zmq.POLLIN)
        poller.register(mon, zmq.POLLIN)
        poller.register(self._wake_r, zmq.POLLIN)
        last_heard = time.monotonic()
        next_beat = time.monotonic() + self.heartbeat
        welcomed = False
        while not self._stop.is_set():
            events = dict(poller.poll(100))
            now = time.monotonic()
            if self._wake_r in events:
                os.read(self._wake_r, 4096)
            if self._drop_now:
                self._drop_now = False
                self._emit("status", "connection dropped")
                return "welcomed" if welcomed else "lost"
            if mon in events:
                while True:
                    try:
                        ev = recv_monitor_message(mon, zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self._monitor_event(ev)
            if s in events:
                for _ in range(10_000):
                    try:
                        frames = s.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    outcome = self._receive(s, frames)
                    last_heard = time.monotonic()     # after the work: our own replay is not the host's silence
                    if outcome == "fatal":
                        return "fatal"
                    if outcome == "welcomed":
                        welcomed = True
                    elif outcome == "reconnect":
                        return "welcomed" if welcomed else "lost"
            with self._cond:
                out, self._outbox = self._outbox, []
            for m in out:
                frames = m if isinstance(m, list) else P.encode(m)
                try:
                    s.send_multipart(frames, zmq.NOBLOCK)
                except zmq.ZMQError:
                    if isinstance(m, P.Command):
                        pass  # kept in _outstanding; re-sent after the next welcome
            if self._hello_at and now >= self._hello_at:
                self._hello_at = 0.0
                self._awaiting_welcome = False
                self._send_hello(s)
            if now >= next_beat:
                next_beat = now + self.heartbeat
                try:
                    s.send_multipart(P.encode(P.Heartbeat(seq=self.seq)), zmq.NOBLOCK)
                except zmq.ZMQError:
                    pass
            if time.monotonic() - last_heard > self.timeout:
                self._emit("status", "no answer from the host" + ("" if welcomed else
                           " (is it running? is the server key right?)"))
                return "welcomed" if welcomed else "lost"
        return "welcomed" if welcomed else "lost"

    def _monitor_event(self, ev: dict) -> None:
        e = ev.get("event")
        if e == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
            self._set_status("refused", "the host refused this key: it is not in the host's seat file "
                                        f"(your key fingerprint: {self.key.fingerprint})")
        elif e == zmq.EVENT_HANDSHAKE_SUCCEEDED:
            self._key_proven = True
            if self._welcomed_here and not self._awaiting_welcome:
                # this socket reconnected by itself (libzmq): the host may be a new process that knows nothing of
                # us; say hello now (jittered) rather than wait for a heartbeat to be refused (issue 20 item 6)
                self._rejoin_later()
        elif e in (zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL, zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL):
            if self._key_proven:
                # this host key has already completed a handshake: the key is right, the connection broke
                self._emit("status", "the connection broke during the secure handshake; retrying")
            else:
                self._set_status("refused", "the secure handshake failed: check the host's key (join code)")
        elif e == zmq.EVENT_DISCONNECTED:
            self._emit("status", "disconnected")

    # ------------------------------------------------------------------ host messages
    def _receive(self, s: zmq.Socket, frames: list[bytes]) -> str:
        try:
            msg = P.decode_host(frames)
        except P.ProtocolError as exc:
            if exc.code == P.VERSION_MISMATCH:
                self._fatal(exc.reason)
                return "fatal"
            self._emit("error", exc.reason)
            return ""
        if isinstance(msg, P.Update):
            self._on_update(s, msg)
        elif isinstance(msg, P.Welcome):
            self._on_welcome(s, msg)
            return "welcomed"
        elif isinstance(msg, P.Snapshot):
            self._on_snapshot(msg)
        elif isinstance(msg, P.Ack):
            with self._cond:
                self._outstanding.pop(msg.id, None)
                self.acks[msg.id] = msg
                self._cond.notify_all()
            self._emit("ack", msg)
        elif isinstance(msg, P.Reject):
            return self._on_reject(s, msg)
        elif isinstance(msg, P.Heartbeat):
            if self.welcome is not None and msg.session and msg.session != self.welcome.session:
                if not self._awaiting_welcome:
                    self._rejoin_later()  # the host restarted
            elif msg.seq > self.seq and not self._awaiting_welcome and not self._awaiting_snapshot:
                pass  # updates may be in flight; a real gap shows up as a gap in the update numbers
        elif isinstance(msg, P.ChatOut):
            with self._cond:
                self.chat.append(msg)
                self._cond.notify_all()
            self._emit("chat", msg)
        elif isinstance(msg, P.Presence):
            with self._cond:
                self.presence = msg
                self._cond.notify_all()
            self._emit("presence", msg)
        elif isinstance(msg, P.Bye):
            if msg.fatal:
                self._fatal(f"the host disconnected us: {msg.reason}")
                return "fatal"
            self._emit("status", f"the host said goodbye: {msg.reason}")
            return "reconnect"
        return ""

    def _fatal(self, reason: str) -> None:
        with self._cond:
            self.closed_reason = reason
        self._set_status("closed", reason)
        self._stop.set()

    def _rejoin_later(self) -> None:
        """Say hello again after a random pause of up to ``rejoin_jitter`` seconds: after a host restart every
        client hears of it within the same second, and would otherwise rejoin (and be caught up) all at once."""
        if self._hello_at:
            return
        self._hello_at = time.monotonic() + random.uniform(0.0, self.rejoin_jitter)

    def _send_hello(self, s: zmq.Socket) -> None:
        if self._awaiting_welcome:
            return
        self._awaiting_welcome = True
        try:
            s.send_multipart(P.encode(self._hello()), zmq.NOBLOCK)
        except zmq.ZMQError:
            pass

    def _on_reject(self, s: zmq.Socket, msg: P.Reject) -> str:
        if msg.code == P.HELLO_REQUIRED:
            # the host does not know this connection (it restarted): hello again; commands are re-sent after welcome
            self._rejoin_later()
            return ""
        with self._cond:
            self.refusals = [*self.refusals[-99:], msg]
            if msg.id:
                self._outstanding.pop(msg.id, None)
                self.rejects[msg.id] = msg
            self._cond.notify_all()
        self._emit("reject", msg)
        if msg.fatal:
            self._fatal(msg.reason)
            return "fatal"
        return ""

    def _on_welcome(self, s: zmq.Socket, msg: P.Welcome) -> None:
        self._awaiting_welcome = False
        self._welcomed_here = True
        with self._cond:
            self.welcome = msg
            if msg.catchup == "snapshot":
                self._awaiting_snapshot = True
            resend = list(self._outstanding.values())
            self._cond.notify_all()
        self._set_status("connected", f"{msg.name} ({msg.seat}) at {msg.campaign}, action #{msg.seq}")
        self._emit("welcome", msg)
        for cmd in resend:
            try:
                s.send_multipart(P.encode(cmd), zmq.NOBLOCK)
            except zmq.ZMQError:
                pass

    def _on_snapshot(self, msg: P.Snapshot) -> None:
        try:
            state = GameState.decode(msg.state)
        except Exception as exc:  # noqa: BLE001
            self._emit("error", f"the host sent an unreadable snapshot: {exc}")
            return
        if state.hash() != msg.hash:
            self._emit("error", f"the host's snapshot at #{msg.seq} does not match its own hash")
            return
        dice = _RecordedDice()
        eng = Engine(state, dice)
        eng.log = [LogEntry(seq=i + 1, action=_BEFORE, rolls=[], hash="") for i in range(msg.seq)]
        # the host's take-back points (R-UNDO): an undo after the snapshot goes back exactly as on the host
        eng._undo = [_UndoPoint(u.seq, u.side, u.before.encode()) for u in msg.undo]  # noqa: SLF001
        with self._cond:
            self.engine, self._dice = eng, dice
            self.seq = msg.seq
            self.game_id = msg.game
            self.entries = {k: v for k, v in self.entries.items() if k <= msg.seq}
            self._awaiting_snapshot = False
            self._cond.notify_all()
        self._emit("snapshot", msg.seq)

    def _on_update(self, s: zmq.Socket, msg: P.Update) -> None:
        applied: list[P.Entry] = []
        problem = ""
        with self._cond:
            if self.engine is None or self._awaiting_snapshot:
                return  # a snapshot is on its way; these entries follow it or are re-sent after it
            for e in msg.entries:
                if e.seq <= self.seq:
                    continue
                if e.seq != self.seq + 1:
                    problem = f"gap: expected update #{self.seq + 1}, got #{e.seq}"
                    break
                self._dice.queue = list(e.rolls)
                try:
                    le = self.engine.apply(e.action)
                except Exception as exc:  # noqa: BLE001 - any failure to reproduce the host is a mismatch
                    problem = f"update #{e.seq} ({e.action}) could not be applied here: {exc}"
                    break
                if self._dice.queue or le.hash != e.hash:
                    problem = f"state hash mismatch after update #{e.seq} ({e.action})"
                    self._awaiting_snapshot = True  # the local state is no longer trustworthy
                    break
                self.seq = e.seq
                self.entries[e.seq] = e
                applied.append(e)
            self._cond.notify_all()
        if applied:
            self._emit("update", applied)
        if problem.startswith("gap"):
            self._send_hello(s)  # ask for the missing tail (once: until the welcome, later gaps are expected)
        elif problem:
            with self._cond:
                self.mismatches.append(problem)
                self._awaiting_snapshot = True
            self._emit("mismatch", problem + "; resynchronising from the host")
            self._awaiting_welcome = False
            self._send_hello(s)


def run_join(target: str, *, key_name: str = "player", server_key: str | None = None, name: str = "",
             key_dir: str | None = None, inp=None, out: Callable[[str], None] = print) -> int:
    """The text client of ``dfd join``: prints updates, reads commands (an option number, JSON, ``chat``...)."""
    import json
    import sys

    import msgspec

    code = keymod.parse_join(target)
    skey = server_key or code.server_key
    if not skey:
        skey = _discover_key(code.host, code.port, out)
        if not skey:
            out("dfd join: the host's key is needed: use the join code the host shows (dfd://HOST:PORT/KEY) "
                "or --server-key KEY")
            return 2
    me = keymod.load_or_create(key_name, key_dir)
    out(f"Your key fingerprint: {me.fingerprint}   host key fingerprint: {keymod.fingerprint(skey)}")

    def show(kind: str, data: Any) -> None:
        if kind == "update":
            for e in data:
                out(f"#{e.seq} {e.action}" + (f" (by {e.by})" if e.by else "")
                    + "".join(f"\n      {t}" for t in e.events))
            _prompt()
        elif kind == "welcome":
            out(f"Joined {data.campaign} ({data.scenario}) as {data.name}, seat {data.seat}; host at #{data.seq}")
        elif kind == "reject":
            out(f"refused ({data.code}): {data.reason}" + (f" [{data.rule}]" if data.rule else ""))
        elif kind == "ack" and data.duplicate:
            out(f"(command already applied as #{data.seq})")
        elif kind == "chat":
            out(f"[{data.to}] {data.sender} ({data.seat}): {data.text}")
        elif kind == "presence":
            out("Players: " + ", ".join(f"{p.name} ({p.seat}{', online' if p.connected else ''}"
                                        f"{', acting' if p.acting else ''})" for p in data.players))
        elif kind in ("status", "mismatch", "error", "closed"):
            out(f"[{kind}] {data}")
        elif kind == "snapshot":
            out(f"(state received at #{data})")
            _prompt()

    client = Client(code.host, code.port, skey, me, name=name, on_event=show)

    def _prompt() -> None:
        d = client.pending()
        if d is None:
            return
        out(f"Waiting for {d.side}: {d.prompt} ({d.rule})")
        if client.seat and d.allows(client.seat):
            for i, o in enumerate(d.options[:30], 1):
                if o.action.side == client.seat:
                    out(f"  {i}. {o.label}")
            if d.free_kinds:
                out(f"  or JSON: {{\"kind\": \"{d.free_kinds[0]}\", \"args\": {{...}}}}")

    client.start()
    out("Type an option number, an action as JSON, `chat TEXT`, `side TEXT` (chat to your side), or `quit`.")
    inp = inp or sys.stdin
    try:
        for line in inp:
            line = line.strip()
            if not line:
                continue
            if line in ("quit", "exit"):
                break
            if line.startswith("chat "):
                client.send_chat(line[5:], "all")
                continue
            if line.startswith("side "):
                client.send_chat(line[5:], "side")
                continue
            d = client.pending()
            try:
                if line.isdigit():
                    if d is None or not 1 <= int(line) <= len(d.options):
                        out("no such option")
                        continue
                    action = d.options[int(line) - 1].action
                else:
                    doc = json.loads(line)
                    doc.setdefault("side", client.seat)
                    action = msgspec.convert(doc, Action)
            except (ValueError, msgspec.ValidationError) as exc:
                out(f"not understood: {exc}")
                continue
            client.send_command(action)
    except KeyboardInterrupt:
        pass
    finally:
        client.stop()
    return 0


def _discover_key(host: str, port: int, out: Callable[[str], None]) -> str | None:
    """Look for the host on the LAN; its key is shown for the player to compare with the host's screen."""
    try:
        from net.discovery import browse
    except Exception:  # noqa: BLE001
        return None
    for svc in browse(3.0):
        if svc.port == port and (host in svc.addresses or host == svc.server.rstrip(".")):
            out(f"Found {svc.campaign} on the LAN; host key fingerprint {svc.fingerprint} "
                f"(UNVERIFIED: compare it with the fingerprint on the host's screen)")
            if input("Trust this key? [y/N] ").strip().lower() == "y":
                return svc.key
    return None
