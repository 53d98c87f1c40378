"""The LAN host: the single sequencer of one campaign.

One process owns the game: the ``.dfd`` file is the truth.  Clients send
commands over one ROUTER socket; the host validates each with the engine,
appends the resulting action through :meth:`core.game.Game.act` (one SQLite
transaction, which also records the command id so that a command re-sent after
a reconnect or a host restart is applied once), then sends every connected
client the numbered update with the new state hash, and the sender an ``ack``.

The seed never leaves the host (issue 14): updates carry each action's recorded dice and the
*public* state hash (the state hashed with its seed blanked, :func:`core.game.public_hash`),
snapshots are sent with the seed blanked, and the game id is a random name.

Seats come from the CURVE handshake: the ZAP handler admits only public keys
listed in the seat file, and every received message carries the ZAP ``User-Id``
(the client's Z85 public key), which the host maps to a seat.  Nothing the
client writes in a message can change its seat.

Run it headless with :func:`run_host` (``dfd host FILE --port N``), or in a
thread with ``Host(...).start()``.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar

import zmq
from zmq.auth.thread import ThreadAuthenticator

from core.decisions import ALLIED, AXIS, GameOver, IllegalAction
from core import provenance
from core.game import Game, public_hash, public_state
from core.provenance import Provenance
from core.state import GameState
from core.store import ActionRow, HeadRow, SnapshotRow, StoreError
from net import keys as keymod
from net import protocol as P

log = logging.getLogger("dfd.net.host")

SEAT_SIDES = (AXIS, ALLIED, P.SPECTATOR)
ZAP_DOMAIN = b"dfd"
SECRET_SEED = 2 ** 40        # seeds below this can be found from the dice seen (issue 14): the host warns
SNAPSHOT_CATCHUP = 20        # a client further behind than this gets the current state, not the tail (issue 20):
                             # re-applying 20 actions costs about as much as decoding one state


@dataclass
class NetCommandRow:
    """Which command (client key, command id) produced each action; written in the action's own transaction."""

    __tablename__: ClassVar[str] = "dfd_net_command"
    seq: int
    key: str
    cmd_id: str


#: the table's DDL as SQLModel created it before (files written by either are the same); plain sqlite3, so that
#: starting a host imports no ORM (a quarter of a second of every restart, issue 20)
NET_COMMAND_DDL = ('CREATE TABLE dfd_net_command (\n\tseq INTEGER NOT NULL, \n\t"key" VARCHAR NOT NULL, \n\t'
                   'cmd_id VARCHAR NOT NULL, \n\tPRIMARY KEY (seq)\n)')


# ------------------------------------------------------------------ seats
@dataclass(frozen=True)
class SeatEntry:
    name: str
    seat: str          # Axis, Allied or spectator
    key: str           # Z85 public key

    @property
    def fingerprint(self) -> str:
        return keymod.fingerprint(self.key)


SEATS_TEMPLATE = """\
# Seats of this campaign for LAN play (dfd host).  One [[seat]] per player.
# A player gets their public key with `dfd join --print-key` and sends it to the host.
# side = "Axis", "Allied" or "spectator".  Several players may share a side.
# The host re-reads this file when it changes.
#
# campaign = "Our Desert Fox campaign"
#
# [[seat]]
# name = "Rommel"
# side = "Axis"
# key = "<40-character public key>"
"""


@dataclass
class Seats:
    by_key: dict[str, SeatEntry] = field(default_factory=dict)
    campaign: str = ""

    @classmethod
    def load(cls, path: Path) -> "Seats":
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: cannot read the seat file ({exc})") from exc
        out = cls(campaign=str(data.get("campaign", "")))
        for i, s in enumerate(data.get("seat", [])):
            where = f"{path}: seat {i + 1}"
            if not isinstance(s, dict):
                raise ValueError(f"{where}: not a table")
            name, side, key = str(s.get("name", "")).strip(), str(s.get("side", "")), str(s.get("key", "")).strip()
            if not name:
                raise ValueError(f"{where}: `name` is missing")
            if side not in SEAT_SIDES:
                raise ValueError(f"{where} ({name}): side {side!r} is not one of {', '.join(SEAT_SIDES)}")
            try:
                key = keymod.check_public_key(key, f"{name}'s key")
            except keymod.KeyError_ as exc:
                raise ValueError(f"{where}: {exc}") from exc
            if key in out.by_key:
                raise ValueError(f"{where} ({name}): the key is already {out.by_key[key].name}'s; one key, one seat")
            out.by_key[key] = SeatEntry(name, side, key)
        return out

    @classmethod
    def of(cls, entries: list[tuple[str, str, str]], campaign: str = "") -> "Seats":
        """Seats from (name, side, key) tuples (tests, the app's host dialog)."""
        return cls({k: SeatEntry(n, s, k) for n, s, k in entries}, campaign)


def write_seats(path: Path, entries: list[tuple[str, str, str]], campaign: str = "") -> None:
    lines = [SEATS_TEMPLATE]
    if campaign:
        lines.append(f'campaign = "{campaign}"\n')
    for name, side, key in entries:
        lines.append(f'[[seat]]\nname = "{name}"\nside = "{side}"\nkey = "{key}"\n')
    Path(path).write_text("\n".join(lines), encoding="utf-8")


# ------------------------------------------------------------------ connections
@dataclass
class Conn:
    rid: bytes
    key: str
    seat: SeatEntry
    last_seen: float
    strikes: int = 0
    last_hello_required: float = 0.0


class _Provider:
    """ZAP credentials provider: admits the keys of the seat file that are not banned."""

    def __init__(self, host: "Host"):
        self.host = host

    def callback(self, domain: str, key: bytes) -> bool:
        k = key.decode("ascii", "replace")
        ok = k in self.host.seats.by_key and self.host._bans.get(k, 0.0) < time.monotonic()
        if not ok:
            self.host._note(f"refused a connection: key {keymod.fingerprint(k) if keymod.is_public_key(k) else '?'} "
                            f"is {'banned for now' if k in self.host.seats.by_key else 'not in the seat file'}")
        return ok


class ConnectLimit:
    """Per-address rate limit on secure handshakes (issue 20, "Playing beyond one LAN").

    An address may start at most ``count`` handshakes in any ``seconds``; beyond that each attempt is refused
    until the address has been quiet long enough.  Refused attempts count too, so a steady flood stays refused.
    """

    def __init__(self, count: int = 20, seconds: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.count, self.seconds, self.clock = count, seconds, clock
        self._seen: dict[str, list[float]] = {}
        self._told: dict[str, float] = {}

    def admit(self, address: str) -> bool:
        now = self.clock()
        if len(self._seen) > 10_000:            # a flood of many addresses never grows the table without bound
            self._seen = {a: ts for a, ts in self._seen.items() if ts and now - ts[-1] < self.seconds}
        times = [t for t in self._seen.get(address, ()) if now - t < self.seconds]
        ok = len(times) < self.count
        times.append(now)
        self._seen[address] = times[-self.count:]
        return ok

    def first_refusal(self, address: str) -> bool:
        """True once per ``seconds`` per address: say so in the host's log, but not for every attempt."""
        now = self.clock()
        if now - self._told.get(address, -self.seconds) < self.seconds:
            return False
        self._told[address] = now
        return True


class _Authenticator(ThreadAuthenticator):
    """ZAP handler that refuses an address over its :class:`ConnectLimit` before it looks at the client's key."""

    def __init__(self, ctx: zmq.Context, host: "Host"):
        super().__init__(ctx)
        self.host = host

    async def handle_zap_message(self, msg: list[bytes]) -> None:
        address = msg[3].decode("utf-8", "replace") if len(msg) >= 6 else ""
        if len(msg) >= 6 and not self.host.connect_limit.admit(address):
            if self.host.connect_limit.first_refusal(address):
                lim = self.host.connect_limit
                self.host._note(f"refused connections from {address}: more than {lim.count} in {lim.seconds:g} s")
            self._send_zap_reply(msg[1], b"400", b"too many connections from this address")
            return
        await super().handle_zap_message(msg)


class Host:
    """The authoritative host of one campaign file."""

    def __init__(self, path: str | Path, port: int = 5670, seats: Seats | str | Path | None = None, *,
                 bind: str = "*", key: keymod.KeyPair | None = None, key_dir: str | Path | None = None,
                 campaign: str = "", heartbeat: float = 1.0, timeout: float = 6.0, max_strikes: int = 20,
                 ban_seconds: float = 10.0, advertise: bool = False, snapshot_catchup: int = SNAPSHOT_CATCHUP,
                 seats_settle: float = 1.0, presence_interval: float = 0.5, silence: float = 60.0,
                 public: str | None = None, connect_limit: tuple[int, float] = (20, 10.0),
                 on_event: Callable[[str], None] | None = None):
        self.path = Path(path)
        self.port = port
        self.bind_addr = bind
        self.public = public                      # HOST or HOST:PORT that players reach (port forward, VPN mesh)
        self.connect_limit = ConnectLimit(*connect_limit)
        self.seats_path: Path | None = None
        if isinstance(seats, Seats):
            self.seats = seats
        elif seats is None:
            self.seats = Seats()
        else:
            self.seats_path = Path(seats)
            self.seats = Seats.load(self.seats_path)
        st = self.seats_path.stat() if self.seats_path else None
        self._seats_stamp = (st.st_mtime_ns, st.st_size) if st else (0, 0)   # the seat file as loaded
        self._seats_seen, self._seats_seen_at = self._seats_stamp, 0.0         # as last seen, and when
        self.seats_settle = seats_settle
        self.presence_interval = presence_interval
        self.silence = max(silence, timeout)
        self._presence_due, self._presence_sent = False, 0.0
        self.key = key or keymod.load_or_create("host", key_dir)
        self.campaign = campaign or self.seats.campaign or self.path.stem
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.max_strikes = max_strikes
        self.ban_seconds = ban_seconds
        self.advertise = advertise
        self.snapshot_catchup = snapshot_catchup
        self.on_event = on_event
        self.session = secrets.token_hex(8)
        self.conns: dict[bytes, Conn] = {}
        self._kicked: dict[bytes, float] = {}
        self._bans: dict[str, float] = {}
        self._last_acting = ""
        self._anon_hint: dict[bytes, float] = {}
        self._anon_strikes: dict[bytes, int] = {}
        self._cmds: dict[tuple[str, str], int] = {}     # (key, command id) -> seq
        self._by: dict[int, str] = {}                   # seq -> key of the command's sender
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.game: Game | None = None
        self.stats = {"received": 0, "commands": 0, "applied": 0, "rejected": 0, "malformed": 0, "kicked": 0}

    # ------------------------------------------------------------------ public
    @property
    def fingerprint(self) -> str:
        return self.key.fingerprint

    def join_code(self, host: str | None = None) -> str:
        import socket

        if host is None and self.public:
            addr, port = parse_public(self.public, self.port)
            return keymod.join_code(addr, port, self.key.public)
        if host is None and self.bind_addr not in ("*", "0.0.0.0", "::", ""):
            host = self.bind_addr          # bound to one address: the code names it, not another interface
        return keymod.join_code(host or _lan_address() or socket.gethostname(), self.port, self.key.public)

    @property
    def seq(self) -> int:
        return len(self.game.engine.log) if self.game else 0

    def hash(self) -> str:
        """The public hash of the state now (seed blanked): what every client holds too."""
        with self._lock:
            return self._phash[self.seq] if self.game else ""

    def start(self, timeout: float = 30.0) -> "Host":
        """Open the game, bind and serve on a background thread; returns once listening."""
        self._thread = threading.Thread(target=self._run_guarded, name="dfd-host", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the host did not start in time")
        if self._error is not None:
            raise self._error
        return self

    def serve_forever(self) -> None:
        """Serve on the calling thread until :meth:`stop` (or KeyboardInterrupt)."""
        self._run_guarded()
        if self._error is not None:
            raise self._error

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # ------------------------------------------------------------------ setup
    def _note(self, text: str) -> None:
        log.info(text)
        if self.on_event:
            try:
                self.on_event(text)
            except Exception:  # noqa: BLE001 - a display callback must not take the host down
                log.exception("host event callback failed")

    def _open_game(self) -> None:
        g = Game.open(self.path)
        g.store.ensure_table(NetCommandRow.__tablename__, NET_COMMAND_DDL)   # in the game's own file
        for seq, key, cmd_id in g.store.rows(NetCommandRow.__tablename__, ("seq", "key", "cmd_id")):
            self._cmds[(key, cmd_id)] = seq
            self._by[seq] = key
        self._pending_cmd: NetCommandRow | None = None

        store_append = g.store.append

        def append(row: ActionRow, snapshot: SnapshotRow | None = None, head: HeadRow | None = None,
                   extra: tuple = ()) -> None:
            # Store.append plus the command row, in one transaction: an action and the command
            # that produced it are committed together or not at all.
            cmd = (self._pending_cmd,) if self._pending_cmd is not None else ()
            store_append(row, snapshot, head, extra=(*extra, *cmd))

        g.store.append = append  # type: ignore[method-assign]
        self.game = g
        if g.note:
            self._note(g.note)
        if g.state.seed < SECRET_SEED:
            self._note(f"warning: this game's dice seed is small ({g.state.seed.bit_length()} bits): a player who sees "
                       "its dice could work it out and foresee the rolls to come; for LAN play create the game with "
                       "a random secret seed (dfd new without --seed, or leave the seed blank in the app)")
        # Clients never see the seed (issue 14): they verify the public hashes (the state hashed with the seed
        # blanked), and the game id is a random name of this campaign, not a hash of its seeded initial state.
        self._phash: dict[int, str] = g.public_hashes()
        self.game_id = g.store.meta.get("game_id") or g.store.get_meta("game_id")

    def _run_guarded(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # noqa: BLE001 - reported to start()/serve_forever()
            self._error = exc
            self._ready.set()
            if not isinstance(exc, (StoreError, zmq.ZMQError, OSError, ValueError, KeyboardInterrupt, SystemExit)):
                log.exception("the host stopped on an error")

    def _run(self) -> None:
        # the socket is bound before the game is opened: clients reconnecting after a restart complete their
        # secure handshakes and queue their hellos while the file opens, instead of finding the port closed and
        # retrying later (issue 20 item 6); nothing is read from it before the game is open
        ctx = zmq.Context()
        auth = _Authenticator(ctx, self)
        auth.start()
        auth.configure_curve_callback(ZAP_DOMAIN.decode(), credentials_provider=_Provider(self))
        sock = ctx.socket(zmq.ROUTER)
        advert = None
        try:
            sock.setsockopt(zmq.LINGER, 0)
            sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
            sock.setsockopt(zmq.ROUTER_HANDOVER, 1)
            sock.setsockopt(zmq.MAXMSGSIZE, P.HARD_LIMIT)
            sock.setsockopt(zmq.SNDHWM, 100_000)
            sock.setsockopt(zmq.RCVHWM, 10_000)
            # liveness at the transport (ZMTP PING/PONG in libzmq's I/O thread): a client busy replaying or
            # building its engine still answers, a vanished one is cut after `timeout` (then sends to it fail)
            sock.setsockopt(zmq.HEARTBEAT_IVL, int(self.heartbeat * 1000))
            sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, int(self.timeout * 1000))
            sock.setsockopt(zmq.HEARTBEAT_TTL, int(self.timeout * 1000))
            sock.curve_server = True
            sock.curve_secretkey = self.key.secret_bytes
            sock.curve_publickey = self.key.public_bytes
            sock.setsockopt(zmq.ZAP_DOMAIN, ZAP_DOMAIN)
            if self.port == 0:
                self.port = sock.bind_to_random_port(f"tcp://{self.bind_addr}")
            else:
                sock.bind(f"tcp://{self.bind_addr}:{self.port}")
            self.sock = sock
            self._open_game()
            if self.advertise:
                try:
                    from net.discovery import Advertiser

                    advert = Advertiser(self.campaign, self.port, self.key.public)
                    advert.start()
                except Exception as exc:  # noqa: BLE001 - discovery is a convenience; manual entry still works
                    self._note(f"LAN discovery is not available ({exc}); players can join with the join code")
                    advert = None
            base = max(0, self.game.base[0])
            self._note(f"hosting {self.path.name} ({self.game.state.scenario}, action #{self.seq}) on port "
                       f"{self.port}; host key fingerprint {self.fingerprint}; opened from the state stored at "
                       f"#{base} + {self.seq - base} actions replayed")
            self._ready.set()
            self._loop(sock)
        finally:
            for c in list(self.conns.values()):
                self._send(c.rid, P.Bye(reason="the host is shutting down"))
            if advert is not None:
                advert.stop()
            sock.close(0)
            auth.stop()
            ctx.term()
            if self.game is not None:
                self.game.close()

    # ------------------------------------------------------------------ loop
    def _loop(self, sock: zmq.Socket) -> None:
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        next_beat = time.monotonic()
        while not self._stop.is_set():
            timeout = max(0.0, next_beat - time.monotonic())
            if poller.poll(min(timeout, 0.2) * 1000):
                for _ in range(1000):
                    try:
                        frames = sock.recv_multipart(zmq.NOBLOCK, copy=False)
                    except zmq.Again:
                        break
                    try:
                        self._handle(frames)
                    except Exception:  # noqa: BLE001 - one bad message never stops the host
                        log.exception("error while handling a message")
            now = time.monotonic()
            self._flush_presence(now)
            if now >= next_beat:
                next_beat = now + self.heartbeat
                self._housekeeping(now)

    def _housekeeping(self, now: float) -> None:
        beat = P.Heartbeat(seq=self.seq, session=self.session)
        for c in list(self.conns.values()):
            # a dead connection is cut by the transport heartbeat and the send below fails (then it is dropped);
            # the silence limit only catches a client that stays connected but says nothing for `silence` seconds
            if now - c.last_seen > self.silence:
                self._drop(c.rid, f"{c.seat.name} ({c.seat.seat}) timed out: nothing for {self.silence:.0f} s")
            else:
                self._send(c.rid, beat)
        for rid, t in list(self._kicked.items()):
            if now - t > 300:
                del self._kicked[rid]
        self._reload_seats()

    def _reload_seats(self, now: float | None = None) -> None:
        """Re-read the seat file once it has stopped changing for ``seats_settle`` seconds.

        An editor saving by truncate-then-write shows an empty or half-written file for a moment: a file that
        is still changing is not read, and a file that cannot be read or holds no seat keeps the seats in use
        (the note says why); nobody is disconnected until a complete file removes their key."""
        if self.seats_path is None:
            return
        now = time.monotonic() if now is None else now
        try:
            st = self.seats_path.stat()
        except OSError:
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._seats_stamp:
            return
        if stamp != self._seats_seen:
            self._seats_seen, self._seats_seen_at = stamp, now   # changing: wait until it settles
            return
        if now - self._seats_seen_at < self.seats_settle:
            return
        self._seats_stamp = stamp
        try:
            new = Seats.load(self.seats_path)
        except ValueError as exc:
            self._note(f"the seat file was not reloaded, the seats in use are kept: {exc}")
            return
        if not new.by_key and self.seats.by_key:
            self._note(f"the seat file was not reloaded, the {len(self.seats.by_key)} seat(s) in use are kept: "
                       f"{self.seats_path} has no [[seat]] (to seat nobody, stop the host)")
            return
        self.seats = new
        self._note(f"seat file reloaded: {len(new.by_key)} seat(s)")
        for c in list(self.conns.values()):
            entry = new.by_key.get(c.key)
            if entry is None:
                self._kick(c.rid, "your key was removed from the host's seat file", ban=False)
            elif entry != c.seat:
                c.seat = entry
                self._send(c.rid, self._welcome(c, "none"))
        self._presence()

    # ------------------------------------------------------------------ sending
    def _send(self, rid: bytes, msg: P._Msg) -> bool:
        return self._send_frames(rid, P.encode(msg))

    def _send_frames(self, rid: bytes, frames: list[bytes]) -> bool:
        try:
            self.sock.send_multipart([rid, *frames], zmq.NOBLOCK)
            return True
        except zmq.ZMQError as exc:
            # EHOSTUNREACH: the peer is gone; EAGAIN: it does not read (it will catch up when it says hello again)
            if rid in self.conns:
                self._drop(rid, f"{self.conns[rid].seat.name}: cannot send ({exc.strerror})", presence=False)
            return False

    def _broadcast(self, msg: P._Msg, only: Callable[[Conn], bool] | None = None) -> None:
        frames = P.encode(msg)
        for c in list(self.conns.values()):
            if only is None or only(c):
                self._send_frames(c.rid, frames)

    def _drop(self, rid: bytes, why: str, presence: bool = True) -> None:
        if self.conns.pop(rid, None) is not None:
            self._note(why)
            if presence:
                self._presence()

    def _kick(self, rid: bytes, why: str, ban: bool = True) -> None:
        c = self.conns.get(rid)
        self._send(rid, P.Bye(reason=why, fatal=True))
        self._kicked[rid] = time.monotonic()
        self.stats["kicked"] += 1
        if c is not None:
            if ban:
                self._bans[c.key] = time.monotonic() + self.ban_seconds
            self._drop(rid, f"disconnected {c.seat.name} ({c.seat.seat}): {why}")

    def _refuse(self, rid: bytes, conn: Conn | None, code: str, reason: str, *, rule: str = "", cmd_id: str = "",
                strike: bool = True, fatal: bool = False) -> None:
        self.stats["rejected"] += 1
        self._send(rid, P.Reject(code=code, reason=reason, rule=rule, id=cmd_id, fatal=fatal, seq=self.seq))
        if conn is not None and strike:
            conn.strikes += 1
            if conn.strikes > self.max_strikes:
                self._kick(rid, f"too many refused messages ({conn.strikes}); the last: {reason}")

    # ------------------------------------------------------------------ receiving
    def _handle(self, frames: list[zmq.Frame]) -> None:
        self.stats["received"] += 1
        if len(frames) < 2:
            return
        rid = frames[0].bytes
        if rid in self._kicked:
            return  # a disconnected client: ignored, no reply (no amplification)
        try:
            key = frames[1].get("User-Id")
        except zmq.ZMQError:
            key = None
        seat = self.seats.by_key.get(key) if key else None
        conn = self.conns.get(rid)
        if seat is None:
            # authenticated earlier, since removed from the seat file
            self._refuse(rid, None, P.UNAUTHORISED, "your key has no seat at this host", fatal=True)
            self._kicked[rid] = time.monotonic()
            self.conns.pop(rid, None)
            return
        if conn is not None:
            conn.last_seen = time.monotonic()
        try:
            msg = P.decode_client([f.bytes for f in frames[1:]])
        except P.ProtocolError as exc:
            self.stats["malformed"] += 1
            if exc.code == P.VERSION_MISMATCH:
                self._refuse(rid, None, exc.code, exc.reason, fatal=True)
                self._kicked[rid] = time.monotonic()
                self.conns.pop(rid, None)
                return
            self._refuse(rid, conn, exc.code, exc.reason)
            if conn is None:
                self._count_anonymous_strike(rid)
            return
        if isinstance(msg, P.Hello):
            self._hello(rid, key, seat, msg)
            return
        if conn is None:
            if isinstance(msg, P.Bye):
                return
            now = time.monotonic()
            if isinstance(msg, P.Heartbeat):
                # typically a client whose host restarted: tell it to say hello (at most once a second)
                last = self._anon_hint.get(rid, 0.0)
                if now - last >= 1.0:
                    self._anon_hint[rid] = now
                    self._refuse(rid, None, P.HELLO_REQUIRED, "out of sequence: say hello first", strike=False)
                return
            cmd_id = msg.id if isinstance(msg, P.Command) else ""
            self._refuse(rid, None, P.HELLO_REQUIRED, "out of sequence: say hello first", cmd_id=cmd_id)
            self._count_anonymous_strike(rid)
            return
        if isinstance(msg, P.Command):
            self._command(conn, msg)
        elif isinstance(msg, P.ChatSend):
            self._chat(conn, msg)
        elif isinstance(msg, P.Bye):
            self._drop(rid, f"{conn.seat.name} ({conn.seat.seat}) left" + (f": {msg.reason}" if msg.reason else ""))
        # heartbeats only refresh last_seen

    def _count_anonymous_strike(self, rid: bytes) -> None:
        if len(self._anon_strikes) > 10_000:
            self._anon_strikes.clear()
        n = self._anon_strikes[rid] = self._anon_strikes.get(rid, 0) + 1
        if n > self.max_strikes:
            self._send(rid, P.Bye(reason="too many refused messages before hello", fatal=True))
            self._kicked[rid] = time.monotonic()

    # ------------------------------------------------------------------ hello / catch-up
    def _welcome(self, c: Conn, catchup: str) -> P.Welcome:
        return P.Welcome(seat=c.seat.seat, name=c.seat.name, campaign=self.campaign,
                         scenario=self.game.state.scenario, game=self.game_id, seq=self.seq,
                         hash=self._phash[self.seq], session=self.session,
                         heartbeat_ms=int(self.heartbeat * 1000), fingerprint=self.fingerprint, catchup=catchup)

    def _hash_at(self, seq: int) -> str | None:
        """The public hash after action ``seq``, if this host process knows it (from its load base on)."""
        return self._phash.get(seq)

    def _version_refusal(self, hello: P.Hello) -> str:
        """Why a client of another program or data cannot join ("" if it runs the host's): both replay every
        action with their own engine and data, so any difference would desynchronise them."""
        mine = provenance.current()
        theirs = Provenance(version=hello.client, code=hello.code, data=hello.data)
        if mine.same_as(theirs):
            return ""

        def named(p: Provenance) -> str:
            return (f"version {p.version or '(unknown)'} (rules code {p.code[:8] or '?'}, data {p.data[:8] or '?'})")

        return (f"this host runs Desert Fox Campaign Manager {named(mine)}, your program runs {named(theirs)}: host "
                "and players must run the same program and data; install the host's version and join again")

    def _hello(self, rid: bytes, key: str, seat: SeatEntry, hello: P.Hello) -> None:
        why = self._version_refusal(hello)
        if why:
            self._note(f"refused {seat.name} ({seat.seat}): another version: {why}")
            self._refuse(rid, None, P.VERSION_MISMATCH, why, fatal=True)
            self._kicked[rid] = time.monotonic()
            self.conns.pop(rid, None)
            return
        for other in list(self.conns.values()):
            if other.key == key and other.rid != rid:
                # the newer connection wins; the older one is told why and stops for good (a non-final bye
                # made two processes of one key replace each other forever)
                self._send(other.rid, P.Bye(reason=f"{seat.name}'s key connected again from another program: this "
                                                   "newer connection has the seat; this one stops", fatal=True))
                self._kicked[other.rid] = time.monotonic()
                self._drop(other.rid, f"{seat.name}: older connection replaced by a newer one with the same key",
                           presence=False)
        c = self.conns.get(rid)
        if c is None:
            c = self.conns[rid] = Conn(rid, key, seat, time.monotonic())
        c.seat = seat
        seq = self.seq
        have = hello.have_seq
        same_game = hello.game == self.game_id
        known = self._hash_at(have)
        tail_ok = same_game and 0 <= have <= seq and known is not None and hello.have_hash == known
        snap = None
        if not tail_ok or seq - have > self.snapshot_catchup:
            snap = self._snapshot()  # the current state: in sync at once, however long the game (issue 20)
        catchup = "snapshot" if snap is not None else ("tail" if have < seq else "none")
        self._send(rid, self._welcome(c, catchup))
        start = have
        if snap is not None:
            if same_game and have > seq:
                self._note(f"{seat.name} reports action #{have}, beyond the host's #{seq}: sending a full state")
            elif same_game and have and not tail_ok:
                self._note(f"{seat.name}'s state at #{have} differs from the host's: sending a full state")
            self._send(rid, snap)
            start = snap.seq
        self._send_tail(rid, start, seq)
        self._note(f"{seat.name} ({seat.seat}) joined at #{have} ({catchup})")
        self._presence()

    def _snapshot(self) -> P.Snapshot:
        """The game's current state and take-back points (R-UNDO) without its seed (issue 14: no client can compute
        the dice to come): a client behind is in sync at once instead of re-applying every action it missed
        (issue 20), then applies the live updates with the recorded dice."""
        eng = self.game.engine
        undo = [P.UndoPoint(seq=u.seq, side=u.side, before=public_state(GameState.decode(u.before)).decode())
                for u in eng._undo]  # noqa: SLF001 - a client must be able to take back exactly what the host can
        return P.Snapshot(seq=self.seq, state=public_state(eng.state).decode(), hash=self._phash[self.seq],
                          game=self.game_id, undo=undo)

    def _entry(self, seq: int) -> P.Entry:
        e = self.game.engine.log[seq - 1]
        key = self._by.get(seq)
        by = self.seats.by_key[key].name if key in self.seats.by_key else ""
        return P.Entry(seq=seq, action=e.action, rolls=list(e.rolls), hash=self._phash[seq], events=list(e.events),
                       by=by)

    def _send_tail(self, rid: bytes, after: int, upto: int) -> None:
        for lo in range(after, upto, P.UPDATE_BATCH):
            hi = min(upto, lo + P.UPDATE_BATCH)
            msg = P.Update(entries=[self._entry(s) for s in range(lo + 1, hi + 1)],
                           acting=self._acting() if hi == upto else "")
            if not self._send(rid, msg):
                return

    def _acting(self) -> str:
        d = self.game.engine.pending()
        return d.side if d else ""

    def _presence(self, at_once: bool = False) -> None:
        """Presence changed: broadcast it, at most once per ``presence_interval`` (a host restart makes every
        client join within a second or so: one coalesced presence instead of one per join, to everyone)."""
        self._presence_due = True
        if at_once:
            self._presence_sent = 0.0
        self._flush_presence(time.monotonic())

    def _flush_presence(self, now: float) -> None:
        if not self._presence_due or now - self._presence_sent < self.presence_interval:
            return
        self._presence_due, self._presence_sent = False, now
        acting = self._last_acting = self._acting()
        online = {c.key for c in self.conns.values()}
        players = [P.Player(name=s.name, seat=s.seat, fingerprint=s.fingerprint, connected=s.key in online,
                            acting=s.seat in (AXIS, ALLIED) and (acting == s.seat or acting == "either"))
                   for s in self.seats.by_key.values()]
        self._broadcast(P.Presence(players=players, acting=acting))

    # ------------------------------------------------------------------ commands
    def _command(self, c: Conn, cmd: P.Command) -> None:
        self.stats["commands"] += 1
        seat = c.seat
        done = self._cmds.get((c.key, cmd.id))
        if done is not None:
            self._send(c.rid, P.Ack(id=cmd.id, seq=done, hash=self._hash_at(done), duplicate=True))
            return
        if seat.seat == P.SPECTATOR:
            self._refuse(c.rid, c, P.SPECTATOR_CANNOT_ACT,
                         f"{seat.name} is seated as a spectator: spectators see everything and act on nothing",
                         cmd_id=cmd.id, strike=False)
            return
        if cmd.action.side != seat.seat:
            self._refuse(c.rid, c, P.NOT_YOUR_SIDE,
                         f"{seat.name} holds an {seat.seat} seat and cannot act for the {cmd.action.side} side",
                         cmd_id=cmd.id, strike=False)
            return
        seq = self.seq
        if cmd.base != seq:
            if cmd.base < seq:
                last = self.game.engine.log[-1]
                who = self._entry(seq).by
                reason = (f"stale command: it answers the situation at action #{cmd.base}, but the game has moved on to "
                          f"#{seq} (last: {last.action}{' by ' + who if who else ''}); look again and choose anew")
            else:
                reason = f"out of sequence: the command is based on action #{cmd.base}, the host is at #{seq}"
            self._refuse(c.rid, c, P.STALE, reason, cmd_id=cmd.id, strike=False)
            return
        self._pending_cmd = NetCommandRow(seq=seq + 1, key=c.key, cmd_id=cmd.id)
        try:
            with self._lock:
                entry = self.game.act(cmd.action)
                self._phash[entry.seq] = public_hash(self.game.state)
        except GameOver as exc:
            self._refuse(c.rid, c, P.GAME_OVER, exc.reason, rule=exc.rule, cmd_id=cmd.id, strike=False)
            return
        except IllegalAction as exc:
            # the engine's reason and rule, verbatim
            self._refuse(c.rid, c, P.ILLEGAL, exc.reason, rule=exc.rule, cmd_id=cmd.id, strike=False)
            return
        except (sqlite3.Error, OSError, StoreError) as exc:
            # the file could not take the action; Game.act took it back, so the game is what the file holds
            log.exception("could not commit an action")
            self._refuse(c.rid, c, P.STORE_FAILED, f"the host could not save the action: {exc}", cmd_id=cmd.id,
                         strike=False)
            return
        except Exception as exc:  # noqa: BLE001 - the engine failed on this action and restored its state
            self._refuse(c.rid, c, P.ENGINE_ERROR, f"the engine could not apply {cmd.action}: {exc}", cmd_id=cmd.id)
            return
        finally:
            self._pending_cmd = None
        self.stats["applied"] += 1
        self._cmds[(c.key, cmd.id)] = entry.seq
        self._by[entry.seq] = c.key
        e = P.Entry(seq=entry.seq, action=entry.action, rolls=list(entry.rolls), hash=self._phash[entry.seq],
                    events=list(entry.events), by=seat.name)
        acting = self._acting()
        self._broadcast(P.Update(entries=[e], acting=acting))
        self._send(c.rid, P.Ack(id=cmd.id, seq=entry.seq, hash=e.hash))
        if acting != self._last_acting:
            self._presence(at_once=True)     # who is to act: never delayed

    # ------------------------------------------------------------------ chat
    def _chat(self, c: Conn, msg: P.ChatSend) -> None:
        out = P.ChatOut(sender=c.seat.name, seat=c.seat.seat, to=msg.to, text=msg.text, ts=time.time())
        if msg.to == "all":
            self._broadcast(out)
        else:
            self._broadcast(out, only=lambda o: o.seat.seat == c.seat.seat)


def parse_public(text: str, port: int) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[V6]:PORT`` or a bare IPv6 address -> (host, port); the port defaults to ``port``."""
    s = text.strip()
    if s.startswith("["):
        addr, _, rest = s[1:].partition("]")
        p = rest[1:] if rest.startswith(":") else ""
    elif s.count(":") == 1:
        addr, _, p = s.partition(":")
    else:
        addr, p = s, ""
    if not addr or (p and (not p.isdigit() or not 0 < int(p) < 65536)):
        raise ValueError(f"--public {text!r} is not HOST or HOST:PORT (e.g. club.example.org:5670)")
    return addr, int(p) if p else port


def _lan_address() -> str | None:
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # no packet is sent; this picks the outgoing interface
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def run_host(path: str | Path, port: int = 5670, seats_file: str | Path | None = None, *,
             key_dir: str | Path | None = None, advertise: bool = True, bind: str = "*",
             public: str | None = None, connect_limit: tuple[int, float] = (20, 10.0),
             computers: tuple[tuple[str, str], ...] = (), out: Callable[[str], None] = print) -> int:
    """Host ``path`` headless until interrupted.  Creates a commented seat file next to the game if none exists.

    ``computers``: (side, setting) of the sides the computer holds (issue 21): each is seated in the seat file and
    plays as a client of this host over loopback (:mod:`net.computer`)."""
    path = Path(path)
    if seats_file is None:
        seats_file = path.with_suffix(".seats.toml")
    seats_file = Path(seats_file)
    if not seats_file.exists():
        seats_file.write_text(SEATS_TEMPLATE, encoding="utf-8")
        out(f"Created the seat file {seats_file}: add one [[seat]] per player (name, side, key).")
    from net.computer import ComputerSeat, seat_computer

    try:
        for side, _setting in computers:
            seat_computer(seats_file, side, key_dir)
        if public:
            parse_public(public, port)
        host = Host(path, port, seats_file, key_dir=key_dir, advertise=advertise, bind=bind, public=public,
                    connect_limit=connect_limit, on_event=lambda t: out(f"[host] {t}"))
    except (ValueError, keymod.KeyError_) as exc:
        out(f"dfd host: {exc}")
        return 2
    out(f"Join code: {host.join_code()}")
    out(f"Host key fingerprint: {host.fingerprint}")
    out(f"Seats: {len(host.seats.by_key)} in {seats_file}" + ("" if host.seats.by_key else " (nobody can join yet)"))
    local = "127.0.0.1" if bind in ("*", "0.0.0.0", "") else ("::1" if bind == "::" else bind)
    seats = [ComputerSeat(local, port, host.key.public, side, setting, key_dir=key_dir).start()
             for side, setting in computers]
    for side, setting in computers:
        out(f"The computer holds the {side} side ({setting})")
    import signal

    def _term(signum, frame):  # noqa: ANN001 - signal handler
        host._stop.set()           # a clean stop: the loop ends, says goodbye to every client, closes the file

    try:
        signal.signal(signal.SIGTERM, _term)
    except ValueError:
        pass  # not the main thread
    try:
        host.serve_forever()
    except KeyboardInterrupt:
        host.stop()
    except zmq.ZMQError as exc:
        out(f"dfd host: cannot listen on port {port}: {exc}")
        return 2
    except StoreError:
        raise
    finally:
        for seat in seats:
            seat.stop()
    out("[host] stopped")
    return 0
