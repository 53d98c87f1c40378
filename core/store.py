"""Persistence: one SQLite file per campaign (``.dfd``), through the standard ``sqlite3`` module.

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

Speed (issue 18): the store talks to SQLite through ``sqlite3`` directly (one connection, explicit
transactions): an action's commit costs what SQLite costs, and opening the program imports no ORM.  The
tables are the ones SQLModel created before (same DDL), so files written by either are the same.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

if TYPE_CHECKING:
    from core.writelock import WriteLock

SCHEMA_VERSION = 2          # 2: head and epochs (schema 1 files are upgraded when opened for play)
APPLICATION_ID = 0x44464431  # "DFD1" in the SQLite header (offset 68)
SQLITE_MAGIC = b"SQLite format 3\x00"
SNAPSHOT_EVERY = 200       # a snapshot at least every 200 actions (core.game._Cadence) ...
SNAPSHOT_COST = 0.25       # ... or every 0.25 s of engine time to replay, whichever comes first;
SNAPSHOT_CLOSE_COST = 0.05  # and on close when the actions since the latest snapshot cost this much to replay


class StoreError(ValueError):
    """A .dfd file that cannot be used; the message says what is wrong and where."""


@dataclass
class Meta:
    __tablename__: ClassVar[str] = "dfd_meta"
    key: str
    value: str


@dataclass
class ActionRow:
    __tablename__: ClassVar[str] = "dfd_action"
    seq: int
    kind: str
    side: str
    action: str          # canonical JSON of core.decisions.Action
    rolls: str = "[]"    # JSON list of the d6 results rolled while applying it
    events: str = "[]"   # JSON list of log lines
    hash: str = ""       # sha256 of the state after the action
    gt: int = 0
    phase: int = 0
    created: float = 0.0


@dataclass
class SnapshotRow:
    __tablename__: ClassVar[str] = "dfd_snapshot"
    seq: int             # the state after action `seq` (0 = initial state)
    state: bytes
    hash: str


@dataclass
class HeadRow:
    """The state after the last action (one row): what the game continues from if the rules change."""

    __tablename__: ClassVar[str] = "dfd_head"
    seq: int
    state: bytes
    hash: str
    id: int = 1


@dataclass
class EpochRow:
    """A stretch of the log played with one program and one set of data (docs/architecture.md, "Epochs").

    Actions ``first_seq`` up to the next epoch's ``first_seq - 1`` belong to it.  It starts from ``start`` (the
    state continued from, settled by the program that began the epoch), which continues the state after action
    ``from_seq`` whose stored hash is ``from_hash``.  ``diverged`` is the first action of the previous epoch that
    this epoch's program did not reproduce when it began (0: it reproduced every action it replayed).
    """

    __tablename__: ClassVar[str] = "dfd_epoch"
    n: int
    first_seq: int
    start: bytes
    start_hash: str
    from_seq: int = 0
    from_hash: str = ""
    diverged: int = 0
    version: str = ""
    code: str = ""
    data: str = ""
    files: str = "{}"       # JSON {data file: short sha256}
    note: str = ""          # the sentence the players were shown when the epoch began
    created: float = 0.0


#: The tables, with the DDL SQLModel generated for them (kept identical, so that old and new files agree).
_DDL = {
    "dfd_meta": 'CREATE TABLE dfd_meta (\n\t"key" VARCHAR NOT NULL, \n\tvalue VARCHAR NOT NULL, \n\tPRIMARY KEY ("key")\n)',
    "dfd_action": "CREATE TABLE dfd_action (\n\tseq INTEGER NOT NULL, \n\tkind VARCHAR NOT NULL, \n\tside VARCHAR NOT NULL, "
                  "\n\taction VARCHAR NOT NULL, \n\trolls VARCHAR NOT NULL, \n\tevents VARCHAR NOT NULL, \n\thash VARCHAR "
                  "NOT NULL, \n\tgt INTEGER NOT NULL, \n\tphase INTEGER NOT NULL, \n\tcreated FLOAT NOT NULL, \n\tPRIMARY "
                  "KEY (seq)\n)",
    "dfd_snapshot": "CREATE TABLE dfd_snapshot (\n\tseq INTEGER NOT NULL, \n\tstate BLOB NOT NULL, \n\thash VARCHAR NOT "
                    "NULL, \n\tPRIMARY KEY (seq)\n)",
    "dfd_head": "CREATE TABLE dfd_head (\n\tid INTEGER NOT NULL, \n\tseq INTEGER NOT NULL, \n\tstate BLOB NOT NULL, "
                "\n\thash VARCHAR NOT NULL, \n\tPRIMARY KEY (id)\n)",
    "dfd_epoch": "CREATE TABLE dfd_epoch (\n\tn INTEGER NOT NULL, \n\tfirst_seq INTEGER NOT NULL, \n\tfrom_seq INTEGER "
                 "NOT NULL, \n\tfrom_hash VARCHAR NOT NULL, \n\tdiverged INTEGER NOT NULL, \n\tstart BLOB NOT NULL, "
                 "\n\tstart_hash VARCHAR NOT NULL, \n\tversion VARCHAR NOT NULL, \n\tcode VARCHAR NOT NULL, \n\tdata "
                 "VARCHAR NOT NULL, \n\tfiles VARCHAR NOT NULL, \n\tnote VARCHAR NOT NULL, \n\tcreated FLOAT NOT NULL, "
                 "\n\tPRIMARY KEY (n)\n)",
}


def _columns(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _insert_sql(cls: type, verb: str = "INSERT") -> str:
    cols = _columns(cls)
    return f"{verb} INTO {cls.__tablename__} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"


def _insert(con: sqlite3.Connection, row: Any, verb: str = "INSERT") -> None:
    """Insert a row: a dataclass naming its table in ``__tablename__`` (this module's, or the host's command row)."""
    con.execute(_insert_sql(type(row), verb), astuple(row))


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


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    """One connection in autocommit mode (transactions are explicit), with the store's pragmas."""
    if read_only:
        con = sqlite3.connect(f"file:{Path(path).resolve().as_posix()}?mode=ro", uri=True, isolation_level=None,
                              check_same_thread=False)
        con.execute("PRAGMA query_only=ON")
    else:
        con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
    con.execute("PRAGMA foreign_keys=ON")
    return con


def _select(cls: type) -> str:
    return f"SELECT {', '.join(_columns(cls))} FROM {cls.__tablename__}"


class Store:
    """An open .dfd file (``read_only``: for watching or showing it while another program plays it)."""

    def __init__(self, path: Path, con: sqlite3.Connection, meta: dict[str, str], read_only: bool = False,
                 lock: "WriteLock | None" = None):
        self.path = Path(path)
        self._con = con
        self._db = threading.RLock()      # the connection is shared by the threads of a host
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
        except BaseException:  # a file that could not be created releases its write lock and re-raises unchanged
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
        con = _connect(path)
        meta = {"app": "Desert Fox Campaign Manager", "schema": str(SCHEMA_VERSION), "scenario": scenario,
                "seed": str(seed), "dice": dice, "created": f"{time.time():.0f}", "game_id": secrets.token_hex(16)}
        epoch = epoch or EpochRow(n=1, first_seq=1, start=initial_state, start_hash=initial_hash)
        store = cls(path, con, meta, lock=lock)
        with store._transaction() as c:
            for ddl in _DDL.values():
                c.execute(ddl)
            for k, v in meta.items():
                _insert(c, Meta(key=k, value=v))
            _insert(c, SnapshotRow(seq=0, state=initial_state, hash=initial_hash))
            _insert(c, epoch)
            _insert(c, HeadRow(seq=0, state=initial_state, hash=initial_hash), "INSERT OR REPLACE")
        return store

    @classmethod
    def open(cls, path: Path, read_only: bool = False) -> "Store":
        """Open ``path``; for play (``read_only=False``) a schema-1 file is upgraded to the current schema."""
        from core.writelock import WriteLock

        path = Path(path)
        inspect_file(path)
        lock = None if read_only else WriteLock.acquire(path)   # one writer at a time; watchers need no lock
        try:
            meta = inspect_file(path)       # again, now that no other writer can be changing it
            store = cls(path, _connect(path, read_only), meta, read_only, lock)
            if not read_only and int(meta.get("schema", "1")) < SCHEMA_VERSION:
                store._upgrade()
        except BaseException:  # a file that could not be opened releases its write lock and re-raises unchanged
            if lock is not None:
                lock.release()
            raise
        return store

    def _upgrade(self) -> None:
        """Schema 1 -> 2: the head and epoch tables; the epoch of the earlier log has no recorded provenance."""
        snap0 = self.snapshot(0)
        with self._transaction() as c:
            for t in ("dfd_head", "dfd_epoch"):
                if not self._has(t):
                    c.execute(_DDL[t])
            if c.execute("SELECT 1 FROM dfd_epoch WHERE n = 1").fetchone() is None:
                _insert(c, EpochRow(n=1, first_seq=1, start=snap0.state, start_hash=snap0.hash,
                                    note="played before the program recorded its version"))
            _insert(c, Meta(key="schema", value=str(SCHEMA_VERSION)), "INSERT OR REPLACE")
            if "game_id" not in self.meta:
                _insert(c, Meta(key="game_id", value=secrets.token_hex(16)), "INSERT OR REPLACE")
        with self._db:
            self._con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self.meta = {**self.meta, "schema": str(SCHEMA_VERSION)}
        self.meta.setdefault("game_id", self.get_meta("game_id"))

    def close(self) -> None:
        with self._db:
            self._con.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- writing ------------------------------------------------------------
    def _writable(self) -> None:
        if self.read_only:
            raise StoreError(f"{self.path}: opened read-only (to watch); it cannot be written")

    class _Tx:
        def __init__(self, store: "Store"):
            self.store = store

        def __enter__(self) -> sqlite3.Connection:
            self.store._db.acquire()
            try:
                self.store._con.execute("BEGIN IMMEDIATE")
            except BaseException:  # no transaction began: release the database lock and re-raise unchanged
                self.store._db.release()
                raise
            return self.store._con

        def __exit__(self, typ: Any, exc: Any, tb: Any) -> None:
            try:
                if typ is None:
                    try:
                        self.store._commit()
                    except BaseException:  # a failed commit is rolled back and re-raised: nothing half-written stays
                        self.store._con.execute("ROLLBACK")
                        raise
                else:
                    self.store._con.execute("ROLLBACK")
            finally:
                self.store._db.release()

    def _transaction(self) -> "Store._Tx":
        """``with store._transaction() as con:`` one transaction, committed at the end or rolled back on error."""
        return Store._Tx(self)

    def _commit(self) -> None:
        """The end of every write transaction (a test injects a failing disk here)."""
        self._con.execute("COMMIT")

    def append(self, row: ActionRow, snapshot: SnapshotRow | None = None, head: HeadRow | None = None,
               extra: tuple[Any, ...] = ()) -> None:
        """Commit one action (its head state, optionally a snapshot and ``extra`` rows) in one transaction."""
        self._writable()
        with self._transaction() as c:
            _insert(c, row)
            if snapshot is not None:
                _insert(c, snapshot)
            for r in extra:
                _insert(c, r)
            if head is not None:
                _insert(c, head, "INSERT OR REPLACE")

    def add_epoch(self, epoch: EpochRow, head: HeadRow) -> None:
        """Begin a new epoch of the log (and its head) in one transaction."""
        self._writable()
        with self._transaction() as c:
            _insert(c, epoch)
            _insert(c, head, "INSERT OR REPLACE")

    def add_snapshot(self, snapshot: SnapshotRow) -> None:
        """Store one more snapshot (of the state after an action already committed)."""
        self._writable()
        with self._transaction() as c:
            _insert(c, snapshot, "INSERT OR REPLACE")

    def put_head(self, head: HeadRow) -> None:
        """Rewrite the head alone (when a replay proved the state at the end of the log)."""
        self._writable()
        with self._transaction() as c:
            _insert(c, head, "INSERT OR REPLACE")

    def set_meta(self, key: str, value: str) -> None:
        self._writable()
        with self._transaction() as c:
            _insert(c, Meta(key=key, value=value), "INSERT OR REPLACE")
        self.meta[key] = value

    # -- reading ------------------------------------------------------------
    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._db:
            return self._con.execute(sql, args).fetchall()

    def ensure_table(self, name: str, ddl: str) -> None:
        """Create the table ``name`` with ``ddl`` unless the file has it (a front end's own table, e.g. the LAN
        host's command ids, kept in the game's file so that it is committed with the actions)."""
        self._writable()
        if not self._has(name):
            with self._transaction() as c:
                c.execute(ddl)

    def rows(self, table: str, columns: tuple[str, ...]) -> list[tuple]:
        """Every row of ``table`` (``columns`` in that order)."""
        return self._all(f"SELECT {', '.join(columns)} FROM {table}")

    def get_meta(self, key: str) -> str:
        rows = self._all("SELECT value FROM dfd_meta WHERE key = ?", (key,))
        return rows[0][0] if rows else ""

    def _has(self, table: str) -> bool:
        return bool(self._all("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)))

    def actions(self, after: int = 0, upto: int | None = None) -> Iterator[ActionRow]:
        q, args = _select(ActionRow) + " WHERE seq > ?", (after,)
        if upto is not None:
            q, args = q + " AND seq <= ?", (after, upto)
        yield from (ActionRow(*r) for r in self._all(q + " ORDER BY seq", args))

    def action(self, seq: int) -> ActionRow | None:
        rows = self._all(_select(ActionRow) + " WHERE seq = ?", (seq,))
        return ActionRow(*rows[0]) if rows else None

    def count(self) -> int:
        return int(self._all("SELECT COALESCE(MAX(seq), 0) FROM dfd_action")[0][0] or 0)

    def snapshot(self, seq: int | None = None, *, at_least: int = 0) -> SnapshotRow:
        """The snapshot at ``seq`` or, by default, the latest one (not before ``at_least``)."""
        if seq is not None:
            rows = self._all(_select(SnapshotRow) + " WHERE seq = ?", (seq,))
        else:
            rows = self._all(_select(SnapshotRow) + " WHERE seq >= ? ORDER BY seq DESC LIMIT 1", (at_least,))
        if not rows:
            raise StoreError(f"{self.path}: no snapshot {'at ' + str(seq) if seq is not None else ''}")
        return SnapshotRow(*rows[0])

    def latest_snapshot(self, at_least: int) -> SnapshotRow | None:
        try:
            return self.snapshot(at_least=at_least)
        except StoreError:
            return None

    def snapshot_seqs(self) -> list[int]:
        """The actions after which a snapshot is stored, in order (0 = the initial state)."""
        return [r[0] for r in self._all("SELECT seq FROM dfd_snapshot ORDER BY seq")]

    def initial_state(self) -> bytes:
        return self.snapshot(0).state

    def head(self) -> HeadRow | None:
        """The stored state after the last action (None in a schema-1 file, which did not keep it)."""
        if not self._has("dfd_head"):
            return None
        rows = self._all(_select(HeadRow) + " WHERE id = 1")
        return HeadRow(*rows[0]) if rows else None

    def epochs(self) -> list[EpochRow]:
        """The epochs in order; a schema-1 file (read-only) has one, of unknown provenance."""
        if self._has("dfd_epoch"):
            rows = [EpochRow(*r) for r in self._all(_select(EpochRow) + " ORDER BY n")]
            if rows:
                return rows
        snap0 = self.snapshot(0)
        return [EpochRow(n=1, first_seq=1, start=snap0.state, start_hash=snap0.hash,
                         note="played before the program recorded its version")]


def rolls_of(row: ActionRow) -> list[int]:
    return list(json.loads(row.rolls))
