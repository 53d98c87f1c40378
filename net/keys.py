"""CURVE keys for LAN play: generation, storage, fingerprints and join codes.

Every host and every player has one long-lived CURVE key pair (Curve25519,
Z85-encoded as 40 characters).  Key files live under the user's data directory
(``platformdirs.user_data_dir("dfd")/keys``) unless ``DFD_KEY_DIR`` or an
explicit directory says otherwise; secret key files are written with mode 0600.

* The **fingerprint** of a public key is what people compare by eye or read out
  over the phone: the first 16 bytes of its SHA-256, as eight groups of four
  hex digits (``3f2a-9c1b-...``).
* A **join code** is everything a player needs to connect and to trust the
  host: ``dfd://HOST:PORT/KEY`` with the host's public key as 64 hex digits
  (shell- and chat-safe; the Z85 form is accepted too).  The CURVE handshake
  itself proves that the host holds the matching secret key.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import zmq
from zmq.utils import z85

KEY_FILE_SUFFIX = ".key"
_Z85_RE = re.compile(r"^[0-9a-zA-Z.\-:+=^!/*?&<>()\[\]{}@%$#]{40}$")


class KeyError_(ValueError):
    """A key or join code that cannot be used; the message says why."""


@dataclass(frozen=True)
class KeyPair:
    public: str  # Z85, 40 characters
    secret: str  # Z85, 40 characters

    @property
    def public_bytes(self) -> bytes:
        return self.public.encode("ascii")

    @property
    def secret_bytes(self) -> bytes:
        return self.secret.encode("ascii")

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)


def key_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding key files: explicit, else ``$DFD_KEY_DIR``, else the user data dir."""
    if directory is not None:
        return Path(directory)
    env = os.environ.get("DFD_KEY_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("dfd", appauthor=False)) / "keys"


def is_public_key(text: str) -> bool:
    """True if ``text`` is a well-formed Z85 CURVE public key (40 characters, 32 bytes)."""
    if not isinstance(text, str) or not _Z85_RE.match(text):
        return False
    try:
        return len(z85.decode(text.encode("ascii"))) == 32
    except Exception:  # noqa: BLE001 - any decoding failure means "not a key"
        return False


def check_public_key(text: str, what: str = "public key") -> str:
    text = (text or "").strip()
    if not is_public_key(text):
        raise KeyError_(f"{what} {text!r} is not a CURVE public key (40 Z85 characters)")
    return text


def fingerprint(public: str | bytes) -> str:
    """Eight groups of four hex digits of SHA-256(raw public key)."""
    raw = public if isinstance(public, bytes) and len(public) == 32 else z85.decode(
        public.encode("ascii") if isinstance(public, str) else public)
    h = hashlib.sha256(raw).hexdigest()[:32]
    return "-".join(h[i:i + 4] for i in range(0, 32, 4))


def generate() -> KeyPair:
    pub, sec = zmq.curve_keypair()
    return KeyPair(pub.decode("ascii"), sec.decode("ascii"))


def _path(name: str, directory: str | os.PathLike[str] | None) -> Path:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
        raise KeyError_(f"key name {name!r} may use only letters, digits, '.', '_' and '-'")
    return key_dir(directory) / f"{name}{KEY_FILE_SUFFIX}"


def save(pair: KeyPair, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write("# Desert Fox Campaign Manager CURVE key pair. Keep the secret key private.\n")
        fh.write(f"public = \"{pair.public}\"\nsecret = \"{pair.secret}\"\n")
    os.replace(tmp, path)


def load(path: Path) -> KeyPair:
    import tomllib

    try:
        data = tomllib.loads(Path(path).read_text(encoding="ascii"))
        pair = KeyPair(check_public_key(data["public"]), str(data["secret"]))
    except (OSError, KeyError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise KeyError_(f"{path}: not a readable key file ({exc})") from exc
    if zmq.curve_public(pair.secret_bytes) != pair.public_bytes:
        raise KeyError_(f"{path}: the secret key does not match the public key")
    return pair


def load_or_create(name: str = "player", directory: str | os.PathLike[str] | None = None) -> KeyPair:
    """The key pair called ``name`` (``host``, ``player``...), created on first use.

    ``name`` may also be a path to a key file (anything containing a path separator or ending in ``.key``).
    """
    if os.sep in name or "/" in name or name.endswith(KEY_FILE_SUFFIX):
        path = Path(name)
    else:
        path = _path(name, directory)
    if path.exists():
        return load(path)
    pair = generate()
    save(pair, path)
    return pair


@dataclass(frozen=True)
class JoinCode:
    host: str
    port: int
    server_key: str | None

    def __str__(self) -> str:
        return join_code(self.host, self.port, self.server_key) if self.server_key else f"{self.host}:{self.port}"


def join_code(host: str, port: int, server_key: str) -> str:
    """``dfd://HOST:PORT/HEX``: the key as 64 hex digits, safe to paste into a shell or a chat."""
    raw = z85.decode(check_public_key(server_key, "server key").encode("ascii"))
    return f"dfd://{host}:{port}/{raw.hex()}"


def _key_from_code(text: str) -> str:
    if re.fullmatch(r"[0-9a-fA-F]{64}", text):
        return z85.encode(bytes.fromhex(text)).decode("ascii")
    return check_public_key(text, "server key in the join code")


def parse_join(text: str) -> JoinCode:
    """``HOST:PORT``, ``HOST:PORT/KEY`` or ``dfd://HOST:PORT/KEY`` -> JoinCode."""
    s = (text or "").strip()
    if s.startswith("dfd://"):
        s = s[len("dfd://"):]
    addr, _, key = s.partition("/")
    host, sep, port = addr.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise KeyError_(f"{text!r} is not HOST:PORT (e.g. 192.168.1.20:5670) or a dfd:// join code")
    host = host.strip("[]")
    return JoinCode(host, int(port), _key_from_code(key) if key else None)
