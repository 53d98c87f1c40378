"""One writer per campaign file (issue 14 item 3).

A program that opens a ``.dfd`` file to play it (the app, ``dfd host``) holds an exclusive operating-system
lock on ``FILE.lock`` beside it for as long as the file is open.  A second writer — another window, another
program, another machine on a shared folder that honours locks — is refused at once with a message naming
who holds the file; it may open the file read-only to watch.  The operating system releases the lock when
the holder exits in any way (a crash, a kill), so a lock is never stale; the holder's description left in
the file is only informative and is overwritten by the next writer.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

from core.store import StoreError

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def lock_path(path: Path) -> Path:
    return Path(str(path) + ".lock")


def program_name() -> str:
    """How this process is described to a refused second writer ("dfd host", "the Desert Fox app"...)."""
    argv = [Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python", *sys.argv[1:2]]
    if argv[0] in ("dfd", "dfd.exe", "cli.py", "__main__.py", "-m") and len(argv) > 1 and argv[1] != "play":
        return f"dfd {argv[1]}"
    if argv[0] in ("dfd", "dfd.exe", "main.py"):
        return "the Desert Fox app"
    return " ".join(argv)


class WriteLock:
    """The exclusive right to write one campaign file; :meth:`release` (or process exit) gives it back."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, path: Path | str, who: str = "") -> "WriteLock":
        """Take the lock of ``path`` or raise :class:`StoreError` naming the program that holds it."""
        path = Path(path)
        lp = lock_path(path)
        for _ in range(20):
            try:
                fd = os.open(lp, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise StoreError(f"{path}: cannot create its lock file {lp.name} ({exc.strerror})") from exc
            if not _try_lock(fd):
                holder = _read(fd)
                os.close(fd)
                raise StoreError(
                    f"{path}: already open for play in {holder or 'another program'}; close it there first, "
                    f"or open it read-only to watch")
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(lp))
            except FileNotFoundError:
                same = False
            if same:   # not a lock file its last holder removed between our open and our lock
                _write(fd, who or program_name())
                return cls(path, fd)
            os.close(fd)
        raise StoreError(f"{path}: its lock file {lp.name} keeps changing; another program is opening it")

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if sys.platform != "win32":
            lock_path(self.path).unlink(missing_ok=True)   # still locked: nobody can take the removed file
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None


def _write(fd: int, who: str) -> None:
    info = {"program": who, "pid": os.getpid(), "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%d %H:%M")}
    data = json.dumps(info).encode()
    os.lseek(fd, 1, os.SEEK_SET)     # byte 0 is the locked byte on Windows
    os.write(fd, data)
    os.ftruncate(fd, 1 + len(data))


def _read(fd: int) -> str:
    try:
        os.lseek(fd, 1, os.SEEK_SET)
        info = json.loads(os.read(fd, 4096) or b"{}")
    except (OSError, ValueError):
        return ""
    if not isinstance(info, dict) or "pid" not in info:
        return ""
    return f"{info.get('program', 'another program')} (process {info['pid']} on {info.get('host', '?')}, " \
           f"since {info.get('since', '?')})"
