"""Where the events live: configuration for eventsourcing's persistence modules.

``--db`` takes a SQLite file path (the embedded default) or ``:memory:`` for tests. SQLite
runs in WAL mode (the library's choice) with ``synchronous=FULL`` (ours): a transaction is
acknowledged only after its commit reached the disk.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory

DEFAULT_DB = "var/tablebank.sqlite"


class DurableSQLiteConnectionPool(SQLiteConnectionPool):
    """The library's pool, with every connection set to fsync each commit."""

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        raw: sqlite3.Connection = connection._sqlite_conn  # type: ignore[attr-defined]
        raw.execute("PRAGMA synchronous=FULL")
        return connection


class DurableSQLiteFactory(SQLiteFactory):
    """SQLite persistence whose commits are durable."""

    def __init__(self, env):  # type: ignore[no-untyped-def]
        super().__init__(env)
        old = self.datastore.pool
        self.datastore.pool = DurableSQLiteConnectionPool(
            db_name=old.db_name, lock_timeout=old.lock_timeout
        )
        old.close()


def persistence_env(db: str | None) -> dict[str, str]:
    """The eventsourcing environment for a ``--db`` value."""
    if db is None or db == "":
        db = os.environ.get("TABLEBANK_DB", DEFAULT_DB)
    if db == ":memory:":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    path = Path(db)
    path.parent.mkdir(parents=True, exist_ok=True)
    return {
        "PERSISTENCE_MODULE": "ledger.store:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
    }
