"""Persistence: one SQLite file per campaign (``.dfd``), via SQLModel.

The file holds the scenario, the seed, the initial state (action 0), an
append-only log with one row per action (its JSON, its dice, the state hash
after it), periodic snapshots, the *head* (the state after the last action,
rewritten in every action's transaction) and the *epochs* of the log (the
program and data each stretch of the log was played with, and the state each
one starts from; see :mod:`core.game`).  Every action is committed as it
happens (WAL mode, synchronous=FULL), so a crash loses nothing already
confirmed.  Loading = latest snapshot of the current epoch + replay of the log
after it.

Before anything is opened for writing, :func:`inspect_file` checks the file
read-only: SQLite header, DFD application id, schema version, integrity.  A
newer, corrupted, truncated or non-DFD file is refused with a clear message
and nothing is written to it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from sqlalchemy import event
from sqlalchemy.engine import Engine as SAEngine
from sqlmodel import Field, Session, SQLModel, create_engine, select

if TYPE_CHECKING:
    from core.writelock import WriteLock

SCHEMA_VERSION = 2          # 2: head and epochs (schema 1 files are upgraded when opened for play)
APPLICATION_ID = 0x44464431  # "DFD1" in the SQLite header (offset 68)
SQLITE_MAGIC = b"SQLite format 3\x00"
SNAPSHOT_EVERY = 200


class StoreError(ValueError):
    """A .dfd file that cannot be used; the message says what is wrong and where."""


class Meta(SQLModel, table=True):
    __tablename__ = "dfd_meta"
    key: str = Field(primary_key=True)
    value: str


class ActionRow(SQLModel, table=True):
    __tablename__ = "dfd_action"
    seq: int = Field(primary_key=True)
    kind: str
    side: str
    action: str          # canonical JSON of core.decisions.Action
    rolls: str = "[]"    # JSON list of the d6 results rolled while applying it
    events: str = "[]"   # JSON list of log lines
    hash: str            # sha256 of the state after the action
    gt: int = 0
    phase: int = 0
    created: float = 0.0


class SnapshotRow(SQLModel, table=True):
    __tablename__ = "dfd_snapshot"
    seq: int = Field(primary_key=True)   # the state after action `seq` (0 = initial state)
    state: bytes
    hash: str


class HeadRow(SQLModel, table=True):
    """The state after the last action (one row): what the game continues from if the rules change."""

    __tablename__ = "dfd_head"
    id: int = Field(default=1, primary_key=True)
    seq: int
    state: bytes
    hash: str


class EpochRow(SQLModel, table=True):
    """A stretch of the log played with one program and one set of data (docs/architecture.md, "Epochs").

    Actions ``first_seq`` up to the next epoch's ``first_seq - 1`` belong to it.  It starts from ``start`` (the
    state continued from, settled by the program that began the epoch), which continues the state after action
    ``from_seq`` whose stored hash is ``from_hash``.  ``diverged`` is the first action of the previous epoch that
    this epoch's program did not reproduce when it began (0: it reproduced every action it replayed).
    """

    __tablename__ = "dfd_epoch"
    n: int = Field(primary_key=True)
    first_seq: int
    from_seq: int = 0
    from_hash: str = ""
    diverged: int = 0
    start: bytes
    start_hash: str
    version: str = ""
    code: str = ""
    data: str = ""
    files: str = "{}"       # JSON {data file: short sha256}
    note: str = ""          # the sentence the players were shown when the epoch began
    created: float = 0.0


V1_TABLES = {"dfd_meta", "dfd_action", "dfd_snapshot"}
V2_TABLES = V1_TABLES | {"dfd_head", "dfd_epoch"}


def inspect_file(path: Path) -> dict[str, str]:
    """Check ``path`` read-only and return its metadata, or raise StoreError (nothing is written)."""
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no such file")
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc}") from exc
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise StoreError(f"{path}: not a Desert Fox game file (it is not an SQLite database; header bytes 0-15)")
    app_id = int.from_bytes(header[68:72], "big")
    if app_id != APPLICATION_ID:
        raise StoreError(f"{path}: an SQLite database, but not a Desert Fox game file (application id {app_id:#x})")
    version = int.from_bytes(header[60:64], "big")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer version of the program (file schema {version}, this program reads up to "
            f"{SCHEMA_VERSION}); update the program to open it"
        )
    uri = f"file:{path.resolve()}?mode=ro"
    try:
        con = sqlite3.connect(uri, uri=True)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise StoreError(f"{path}: the file is damaged (SQLite quick_check: {ok})")
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            missing = (V2_TABLES if version >= 2 else V1_TABLES) - tables
            if missing:
                raise StoreError(f"{path}: incomplete game file (missing tables {', '.join(sorted(missing))})")
            meta = dict(con.execute("SELECT key, value FROM dfd_meta").fetchall())
            for k in ("scenario", "seed", "schema"):
                if k not in meta:
                    raise StoreError(f"{path}: incomplete game file (metadata key {k!r} missing)")
            if not con.execute("SELECT 1 FROM dfd_snapshot WHERE seq = 0").fetchone():
                raise StoreError(f"{path}: incomplete game file (no initial state)")
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: the file is damaged or truncated ({exc})") from exc
    return meta


def _engine(path: Path, read_only: bool = False) -> SAEngine:
    if read_only:
        uri = f"file:{Path(path).resolve().as_posix()}?mode=ro"
        eng = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))
    else:
        eng = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})

    @event.listens_for(eng, "connect")
    def _pragmas(dbapi_con, _record):  # type: ignore[no-untyped-def]
        cur = dbapi_con.cursor()
        if read_only:
            cur.execute("PRAGMA query_only=ON")
        else:
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return eng


def _put_head(s: Session, head: HeadRow) -> None:
    s.execute(HeadRow.__table__.insert().prefix_with("OR REPLACE").values(  # type: ignore[attr-defined]
        id=1, seq=head.seq, state=head.state, hash=head.hash))


class Store:
    """An open .dfd file (``read_only``: for watching or showing it while another program plays it)."""

    def __init__(self, path: Path, sa: SAEngine, meta: dict[str, str], read_only: bool = False,
                 lock: "WriteLock | None" = None):
        self.path = Path(path)
        self._sa = sa
        self.meta = meta
        self.read_only = read_only
        self._lock = lock          # the one-writer lock (core.writelock), held while open for play

    # -- creation / opening -------------------------------------------------
    @classmethod
    def create(cls, path: Path, *, scenario: str, seed: int, initial_state: bytes, initial_hash: str,
               dice: str = "seeded", overwrite: bool = False, epoch: EpochRow | None = None) -> "Store":
        """A new file holding the initial state (snapshot 0, head) and ``epoch`` 1 (its provenance)."""
        from core.writelock import WriteLock

        path = Path(path)
        if path.exists() and not overwrite:
            raise StoreError(f"{path}: already exists (choose another name or overwrite it)")
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = WriteLock.acquire(path)      # never overwrite a file another program is playing
        try:
            return cls._create(path, lock, scenario=scenario, seed=seed, initial_state=initial_state,
                               initial_hash=initial_hash, dice=dice, epoch=epoch)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _create(cls, path: Path, lock: "WriteLock", *, scenario: str, seed: int, initial_state: bytes,
                initial_hash: str, dice: str, epoch: EpochRow | None) -> "Store":
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        # The header fields (application id, schema version) are written in rollback-journal
        # mode so they reach the main file at once; in WAL mode they would sit in the -wal
        # file until a checkpoint, and a crash before it would leave an unrecognisable header.
        con = sqlite3.connect(path)
        try:
            con.execute(f"PRAGMA application_id={APPLICATION_ID}")
            con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            con.commit()
        finally:
            con.close()
        sa = _engine(path)
        SQLModel.metadata.create_all(sa, tables=[t.__table__ for t in _TABLES])  # type: ignore[attr-defined]
        meta = {"app": "Desert Fox Campaign Manager", "schema": str(SCHEMA_VERSION), "scenario": scenario,
                "seed": str(seed), "dice": dice, "created": f"{time.time():.0f}", "game_id": secrets.token_hex(16)}
        epoch = epoch or EpochRow(n=1, first_seq=1, start=initial_state, start_hash=initial_hash)
        with Session(sa, expire_on_commit=False) as s:
            for k, v in meta.items():
                s.add(Meta(key=k, value=v))
            s.add(SnapshotRow(seq=0, state=initial_state, hash=initial_hash))
            s.add(epoch)
            _put_head(s, HeadRow(seq=0, state=initial_state, hash=initial_hash))
            s.commit()
        return cls(path, sa, meta, lock=lock)

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> "Store":
        """Open ``path``; for play (``read_only=False``) a schema-1 file is upgraded to the current schema."""
        from core.writelock import WriteLock

        path = Path(path)
        inspect_file(path)
        lock = None if read_only else WriteLock.acquire(path)   # one writer at a time; watchers need no lock
        try:
            meta = inspect_file(path)       # again, now that no other writer can be changing it
            store = cls(path, _engine(path, read_only), meta, read_only, lock)
            if not read_only and int(meta.get("schema", "1")) < SCHEMA_VERSION:
                store._upgrade()
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return store

    def _upgrade(self) -> None:
        """Schema 1 -> 2: the head and epoch tables; the epoch of the earlier log has no recorded provenance."""
        SQLModel.metadata.create_all(self._sa, tables=[HeadRow.__table__, EpochRow.__table__])  # type: ignore[list-item]
        snap0 = self.snapshot(0)
        with Session(self._sa) as s:
            if s.get(EpochRow, 1) is None:
                s.add(EpochRow(n=1, first_seq=1, start=snap0.state, start_hash=snap0.hash,
                               note="played before the program recorded its version"))
            s.merge(Meta(key="schema", value=str(SCHEMA_VERSION)))
            if "game_id" not in self.meta:
                s.merge(Meta(key="game_id", value=secrets.token_hex(16)))
            s.commit()
        with self._sa.connect() as con:
            con.exec_driver_sql(f"PRAGMA user_version={SCHEMA_VERSION}")
            con.commit()
        self.meta = {**self.meta, "schema": str(SCHEMA_VERSION)}
        self.meta.setdefault("game_id", self.get_meta("game_id"))

    def close(self) -> None:
        self._sa.dispose()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- writing ------------------------------------------------------------
    def _writable(self) -> None:
        if self.read_only:
            raise StoreError(f"{self.path}: opened read-only (to watch); it cannot be written")

    def append(self, row: ActionRow, snapshot: SnapshotRow | None = None, head: HeadRow | None = None,
               extra: tuple[SQLModel, ...] = ()) -> None:
        """Commit one action (its head state, optionally a snapshot and ``extra`` rows) in one transaction."""
        self._writable()
        with Session(self._sa) as s:
            s.add(row)
            if snapshot is not None:
                s.add(snapshot)
            for r in extra:
                s.add(r)
            if head is not None:
                _put_head(s, head)
            s.commit()

    def add_epoch(self, epoch: EpochRow, head: HeadRow) -> None:
        """Begin a new epoch of the log (and its head) in one transaction."""
        self._writable()
        with Session(self._sa, expire_on_commit=False) as s:
            s.add(epoch)
            _put_head(s, head)
            s.commit()

    def set_meta(self, key: str, value: str) -> None:
        self._writable()
        with Session(self._sa) as s:
            s.merge(Meta(key=key, value=value))
            s.commit()
        self.meta[key] = value

    # -- reading ------------------------------------------------------------
    def get_meta(self, key: str) -> str:
        with Session(self._sa) as s:
            row = s.get(Meta, key)
        return row.value if row is not None else ""

    def _has(self, table: str) -> bool:
        with self._sa.connect() as con:
            return con.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).first() \
                is not None

    def actions(self, after: int = 0, upto: int | None = None) -> Iterator[ActionRow]:
        with Session(self._sa) as s:
            q = select(ActionRow).where(ActionRow.seq > after)
            if upto is not None:
                q = q.where(ActionRow.seq <= upto)
            yield from s.exec(q.order_by(ActionRow.seq))

    def action(self, seq: int) -> ActionRow | None:
        with Session(self._sa) as s:
            return s.get(ActionRow, seq)

    def count(self) -> int:
        with self._sa.connect() as con:
            return int(con.exec_driver_sql("SELECT COALESCE(MAX(seq), 0) FROM dfd_action").scalar() or 0)

    def snapshot(self, seq: int | None = None, *, at_least: int = 0) -> SnapshotRow:
        """The snapshot at ``seq`` or, by default, the latest one (not before ``at_least``)."""
        with Session(self._sa) as s:
            q = select(SnapshotRow)
            if seq is not None:
                q = q.where(SnapshotRow.seq == seq)
            else:
                q = q.where(SnapshotRow.seq >= at_least).order_by(SnapshotRow.seq.desc())  # type: ignore[attr-defined]
            row = s.exec(q).first()
        if row is None:
            raise StoreError(f"{self.path}: no snapshot {'at ' + str(seq) if seq is not None else ''}")
        return row

    def latest_snapshot(self, at_least: int) -> SnapshotRow | None:
        try:
            return self.snapshot(at_least=at_least)
        except StoreError:
            return None

    def initial_state(self) -> bytes:
        return self.snapshot(0).state

    def head(self) -> HeadRow | None:
        """The stored state after the last action (None in a schema-1 file, which did not keep it)."""
        if not self._has("dfd_head"):
            return None
        with Session(self._sa) as s:
            return s.get(HeadRow, 1)

    def epochs(self) -> list[EpochRow]:
        """The epochs in order; a schema-1 file (read-only) has one, of unknown provenance."""
        if self._has("dfd_epoch"):
            with Session(self._sa) as s:
                rows = list(s.exec(select(EpochRow).order_by(EpochRow.n)))  # type: ignore[arg-type]
            if rows:
                return rows
        snap0 = self.snapshot(0)
        return [EpochRow(n=1, first_seq=1, start=snap0.state, start_hash=snap0.hash,
                         note="played before the program recorded its version")]


_TABLES = (Meta, ActionRow, SnapshotRow, HeadRow, EpochRow)


def rolls_of(row: ActionRow) -> list[int]:
    return list(json.loads(row.rolls))
