"""The DFD LAN protocol, version 1: message schemas and the wire format.

Wire format (see docs/lan.md)
-----------------------------
Every message is one ZeroMQ multipart message of exactly three frames::

    frame 0  b"DFD"                      magic
    frame 1  b"1"                        protocol version, ASCII decimal
    frame 2  {"type": "...", ...}        body: one JSON object (UTF-8), tagged by "type"

(The host's ROUTER socket sees the client's routing id in front of these
frames; the client's DEALER socket sees the three frames only.)

* A client message larger than :data:`MAX_CLIENT_MESSAGE` bytes (all frames) is
  refused with ``reject/oversized``; anything above :data:`HARD_LIMIT` is cut at
  the transport (``ZMQ_MAXMSGSIZE``: the connection is dropped).
* Frames 0 and 1 are checked before the body is decoded, so a client of another
  protocol version receives a clear ``reject/version`` rather than a decoding error.
  The ``reject`` message's fields (``type``, ``code``, ``reason``, ``fatal``) are
  frozen across protocol versions for that reason.
* Bodies are decoded strictly by msgspec into the structs below: unknown
  ``type``, a missing field, a wrong type or an unknown field is ``reject/malformed``
  with msgspec's message, which names the field path.

Message types
-------------
client -> host: ``hello``, ``command``, ``chat``, ``heartbeat``, ``bye``
host -> client: ``welcome``, ``ack``, ``reject``, ``update``, ``snapshot``,
``chat``, ``presence``, ``heartbeat``, ``bye``

Nothing a client sends names its seat: the host takes the seat from the CURVE
public key that authenticated the connection (see :mod:`net.host`).
"""

from __future__ import annotations

from typing import Any, Literal, Union

import msgspec

from core.decisions import Action

MAGIC = b"DFD"
VERSION = 1
VERSION_BYTES = str(VERSION).encode()
SERVICE_TYPE = "_dfd._tcp.local."

MAX_CLIENT_MESSAGE = 64 * 1024        # application limit on anything a client sends
HARD_LIMIT = 1024 * 1024               # transport limit (ZMQ_MAXMSGSIZE on the host's socket)
MAX_HOST_MESSAGE = 64 * 1024 * 1024    # the client's transport limit (snapshots, catch-up batches)
MAX_CHAT = 2000                        # characters in one chat line
MAX_ID = 64                            # characters in a command id
UPDATE_BATCH = 500                     # log entries per catch-up update message

SPECTATOR = "spectator"
Seat = Literal["Axis", "Allied", "spectator"]

# reject codes
MALFORMED = "malformed"
OVERSIZED = "oversized"
VERSION_MISMATCH = "version"
HELLO_REQUIRED = "hello_required"     # out of sequence: a message before hello
NOT_YOUR_SIDE = "not_your_side"
SPECTATOR_CANNOT_ACT = "spectator"
ILLEGAL = "illegal"                   # the engine refused; reason and rule are the engine's, verbatim
STALE = "stale"                       # the command was based on an older game state
GAME_OVER = "game_over"
STORE_FAILED = "store_failed"
ENGINE_ERROR = "engine_error"         # the engine raised something other than a rules refusal
UNAUTHORISED = "unauthorised"
TOO_MANY = "too_many"


class ProtocolError(ValueError):
    """A message that cannot be accepted; ``code`` is the reject code."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


class _Msg(msgspec.Struct, kw_only=True, tag_field="type", forbid_unknown_fields=True, omit_defaults=True):
    pass


# ---------------------------------------------------------------- client -> host
class Hello(_Msg, tag="hello"):
    """First message on every connection (and after any resync): what the client already has."""

    have_seq: int = 0            # the last update the client applied (0 = nothing)
    have_hash: str = ""          # the state hash after it (checked by the host; mismatch -> snapshot)
    game: str = ""               # the game id the client's state belongs to ("" = none)
    name: str = ""               # display name hint; the seat's name in the host's seat file wins
    client: str = ""             # program version (core.__version__)
    code: str = ""               # fingerprint of the program's rules code (core.provenance)
    data: str = ""               # fingerprint of the program's data files (core.provenance)


class Command(_Msg, tag="command"):
    """Take one action.  ``base`` is the host sequence number the player saw when choosing it."""

    id: str
    base: int
    action: Action


class ChatSend(_Msg, tag="chat"):
    to: Literal["all", "side"]
    text: str


class Heartbeat(_Msg, tag="heartbeat"):
    seq: int = 0                 # the sender's current sequence number
    session: str = ""            # host -> client: changes when the host restarts


class Bye(_Msg, tag="bye"):
    reason: str = ""
    fatal: bool = False          # host -> client: do not reconnect (kicked, version, seat removed)


ClientMessage = Union[Hello, Command, ChatSend, Heartbeat, Bye]


# ---------------------------------------------------------------- host -> client
class Welcome(_Msg, tag="welcome"):
    seat: str                    # "Axis", "Allied" or "spectator" -- from the authenticated key
    name: str                    # the player's name in the host's seat file
    campaign: str
    scenario: str
    game: str                    # game id: a random name of the campaign (never derived from its seed)
    seq: int                     # the host's sequence number now
    hash: str                    # the host's public state hash now (seed blanked: core.game.public_hash)
    session: str
    heartbeat_ms: int
    fingerprint: str             # the host key's fingerprint
    catchup: Literal["none", "tail", "snapshot"] = "none"


class Entry(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One confirmed action, exactly as the host's log holds it."""

    seq: int
    action: Action
    rolls: list[int] = []        # the dice the host rolled: a client rolls none, it applies these
    hash: str = ""               # the public state hash after it (seed blanked; core.game.public_hash)
    events: list[str] = []
    by: str = ""                 # the player (seat name) whose command it was; "" when unknown (catch-up)


class Update(_Msg, tag="update"):
    entries: list[Entry]
    acting: str = ""             # the side the game waits for after the last entry ("" = ended)


class UndoPoint(msgspec.Struct, kw_only=True):
    """One point a take-back can return to (R-UNDO): the state before action ``seq`` of ``side``."""

    seq: int
    side: str
    before: str                  # GameState canonical JSON with the seed blanked (0)


class Snapshot(_Msg, tag="snapshot"):
    """The host's state at ``seq`` (its current state when a client is behind: issue 20); the client replaces its
    engine with it and applies the updates that follow with the recorded dice."""

    seq: int
    state: str                   # GameState canonical JSON with the seed blanked (0): clients never see the seed
    hash: str                    # its public hash
    game: str
    undo: list[UndoPoint] = []   # the engine's take-back points at ``seq`` (R-UNDO), oldest first, seeds blanked


class Ack(_Msg, tag="ack"):
    id: str
    seq: int                     # the update number that carries the action
    hash: str
    duplicate: bool = False      # the command had already been applied (a resend after a reconnect)


class Reject(_Msg, tag="reject"):
    """Frozen across versions: ``type``, ``code``, ``reason``, ``fatal`` (clients of any version can show it)."""

    code: str
    reason: str
    rule: str = ""
    id: str = ""                 # the refused command's id, if any
    fatal: bool = False
    seq: int = 0                 # the host's sequence number when refusing


class ChatOut(_Msg, tag="chat"):
    sender: str
    seat: str
    to: str
    text: str
    ts: float = 0.0


class Player(msgspec.Struct, kw_only=True, omit_defaults=True):
    name: str
    seat: str
    fingerprint: str
    connected: bool = False
    acting: bool = False


class Presence(_Msg, tag="presence"):
    players: list[Player]
    acting: str = ""


HostMessage = Union[Welcome, Update, Snapshot, Ack, Reject, ChatOut, Presence, Heartbeat, Bye]

_client_decoder = msgspec.json.Decoder(ClientMessage)
_host_decoder = msgspec.json.Decoder(HostMessage)
_encoder = msgspec.json.Encoder(order="sorted")


class _AnyReject(msgspec.Struct):
    type: str
    code: str = ""
    reason: str = ""
    fatal: bool = False


def encode(msg: _Msg) -> list[bytes]:
    """The three frames of ``msg``."""
    return [MAGIC, VERSION_BYTES, _encoder.encode(msg)]


def _check_envelope(frames: list[bytes], limit: int | None) -> bytes:
    if limit is not None:
        size = sum(len(f) for f in frames)
        if size > limit:
            raise ProtocolError(OVERSIZED, f"message of {size} bytes refused: the limit is {limit} bytes")
    if len(frames) != 3:
        raise ProtocolError(MALFORMED, f"a message has 3 frames (magic, version, body), this one has {len(frames)}")
    magic, version, body = frames
    if bytes(magic) != MAGIC:
        raise ProtocolError(MALFORMED, "frame 0 is not the DFD protocol magic b'DFD'")
    if bytes(version) != VERSION_BYTES:
        v = bytes(version)[:16].decode("ascii", "replace")
        raise ProtocolError(
            VERSION_MISMATCH,
            f"protocol version mismatch: this host speaks DFD LAN protocol {VERSION}, the client speaks {v!r}; "
            f"install the same version of Desert Fox Campaign Manager as the host",
        )
    return bytes(body)


def decode_client(frames: list[bytes]) -> ClientMessage:
    """Decode a client's message (without the routing id) or raise :class:`ProtocolError`."""
    body = _check_envelope(frames, MAX_CLIENT_MESSAGE)
    try:
        msg = _client_decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(MALFORMED, f"malformed message: {exc}") from None
    except RecursionError:
        raise ProtocolError(MALFORMED, "malformed message: JSON nested too deeply") from None
    except (ValueError, OverflowError) as exc:  # e.g. invalid UTF-8 inside a string
        raise ProtocolError(MALFORMED, f"malformed message: {exc}") from None
    _validate_client(msg)
    return msg


def _validate_client(msg: ClientMessage) -> None:
    if isinstance(msg, Command):
        if not msg.id or len(msg.id) > MAX_ID:
            raise ProtocolError(MALFORMED, f"malformed message: a command id has 1-{MAX_ID} characters")
        if msg.base < 0:
            raise ProtocolError(MALFORMED, "malformed message: `base` is a sequence number (>= 0)")
        if not msg.action.kind or len(msg.action.kind) > 64:
            raise ProtocolError(MALFORMED, "malformed message: an action kind has 1-64 characters")
    elif isinstance(msg, ChatSend):
        if not msg.text.strip():
            raise ProtocolError(MALFORMED, "malformed message: empty chat line")
        if len(msg.text) > MAX_CHAT:
            raise ProtocolError(OVERSIZED, f"chat line of {len(msg.text)} characters refused: the limit is {MAX_CHAT}")
    elif isinstance(msg, Hello):
        if msg.have_seq < 0:
            raise ProtocolError(MALFORMED, "malformed message: `have_seq` is a sequence number (>= 0)")
        if len(msg.name) > 64 or len(msg.have_hash) > 128 or len(msg.game) > 128 or len(msg.client) > 64:
            raise ProtocolError(MALFORMED, "malformed message: hello field too long")


def decode_host(frames: list[bytes]) -> HostMessage:
    """Decode a host message.  A host of another version still gets its ``reject`` reason through."""
    try:
        body = _check_envelope(frames, None)
    except ProtocolError as exc:
        if exc.code == VERSION_MISMATCH and len(frames) == 3:
            try:
                r = msgspec.json.decode(bytes(frames[2]), type=_AnyReject)
            except (msgspec.DecodeError, msgspec.ValidationError):
                r = None
            host_v = bytes(frames[1])[:16].decode("ascii", "replace")
            why = f": {r.reason}" if r is not None and r.type == "reject" and r.reason else ""
            raise ProtocolError(
                VERSION_MISMATCH,
                f"protocol version mismatch: the host speaks DFD LAN protocol {host_v!r}, this client speaks {VERSION}"
                + why,
            ) from None
        raise
    try:
        return _host_decoder.decode(body)
    except RecursionError:
        raise ProtocolError(MALFORMED, "malformed message from the host: JSON nested too deeply") from None
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, OverflowError) as exc:
        raise ProtocolError(MALFORMED, f"malformed message from the host: {exc}") from None


def encode_action(action: Action) -> dict[str, Any]:
    return msgspec.to_builtins(action)
