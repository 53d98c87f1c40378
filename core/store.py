"""Persistence: one SQLite file per campaign (``.dfd``), via SQLModel.

The file holds the scenario, the seed, the initial state (action 0), an
append-only log with one row per action (its JSON, its dice, the state hash
after it) and periodic snapshots.  Every action is committed as it happens
(WAL mode, synchronous=FULL), so a crash loses nothing already confirmed.
Loading = latest snapshot + replay of the log after it.

Before anything is opened for writing, :func:`inspect_file` checks the file
read-only: SQLite header, DFD application id, schema version, integrity.  A
newer, corrupted, truncated or non-DFD file is refused with a clear message
and nothing is written to it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Iterator

from sqlalchemy import event
from sqlalchemy.engine import Engine as SAEngine
from sqlmodel import Field, Session, SQLModel, create_engine, select

SCHEMA_VERSION = 1
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
            missing = {"dfd_meta", "dfd_action", "dfd_snapshot"} - tables
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


def _engine(path: Path) -> SAEngine:
    eng = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})

    @event.listens_for(eng, "connect")
    def _pragmas(dbapi_con, _record):  # type: ignore[no-untyped-def]
        cur = dbapi_con.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return eng


class Store:
    """An open .dfd file."""

    def __init__(self, path: Path, sa: SAEngine, meta: dict[str, str]):
        self.path = Path(path)
        self._sa = sa
        self.meta = meta

    # -- creation / opening -------------------------------------------------
    @classmethod
    def create(cls, path: Path, *, scenario: str, seed: int, initial_state: bytes, initial_hash: str,
               dice: str = "seeded", overwrite: bool = False) -> "Store":
        path = Path(path)
        if path.exists():
            if not overwrite:
                raise StoreError(f"{path}: already exists (choose another name or overwrite it)")
            for suffix in ("", "-wal", "-shm"):
                Path(str(path) + suffix).unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
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
        SQLModel.metadata.create_all(sa, tables=[Meta.__table__, ActionRow.__table__, SnapshotRow.__table__])  # type: ignore[list-item]
        meta = {"app": "Desert Fox Campaign Manager", "schema": str(SCHEMA_VERSION), "scenario": scenario,
                "seed": str(seed), "dice": dice, "created": f"{time.time():.0f}"}
        with Session(sa) as s:
            for k, v in meta.items():
                s.add(Meta(key=k, value=v))
            s.add(SnapshotRow(seq=0, state=initial_state, hash=initial_hash))
            s.commit()
        return cls(path, sa, meta)

    @classmethod
    def open(cls, path: Path) -> "Store":
        meta = inspect_file(Path(path))
        return cls(Path(path), _engine(Path(path)), meta)

    def close(self) -> None:
        self._sa.dispose()

    # -- writing ------------------------------------------------------------
    def append(self, row: ActionRow, snapshot: SnapshotRow | None = None) -> None:
        """Commit one action (and optionally a snapshot) in one transaction."""
        with Session(self._sa) as s:
            s.add(row)
            if snapshot is not None:
                s.add(snapshot)
            s.commit()

    def set_meta(self, key: str, value: str) -> None:
        with Session(self._sa) as s:
            s.merge(Meta(key=key, value=value))
            s.commit()
        self.meta[key] = value

    # -- reading ------------------------------------------------------------
    def actions(self, after: int = 0) -> Iterator[ActionRow]:
        with Session(self._sa) as s:
            yield from s.exec(select(ActionRow).where(ActionRow.seq > after).order_by(ActionRow.seq))

    def count(self) -> int:
        with self._sa.connect() as con:
            return int(con.exec_driver_sql("SELECT COALESCE(MAX(seq), 0) FROM dfd_action").scalar() or 0)

    def snapshot(self, seq: int | None = None) -> SnapshotRow:
        """The snapshot at ``seq`` or, by default, the latest one."""
        with Session(self._sa) as s:
            q = select(SnapshotRow)
            q = q.where(SnapshotRow.seq == seq) if seq is not None else q.order_by(SnapshotRow.seq.desc())  # type: ignore[attr-defined]
            row = s.exec(q).first()
        if row is None:
            raise StoreError(f"{self.path}: no snapshot {'at ' + str(seq) if seq is not None else ''}")
        return row

    def initial_state(self) -> bytes:
        return self.snapshot(0).state


def rolls_of(row: ActionRow) -> list[int]:
    return list(json.loads(row.rolls))
