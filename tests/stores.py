"""The stores a test run may use: each hands out fresh, independent databases as ``--db`` values.

- ``sqlite``: a new file per database, in memory where the system offers it (``/dev/shm``):
  commits are fsynced (``ledger.store``), which on a disk would cost most of the run.
- ``postgres``: a new schema per database in the database at ``$TABLEBANK_TEST_POSTGRES``;
  dropped, with everything in it, when the test is done.
- ``memory``: eventsourcing's in-memory store, the quickest; where a test needs a database
  that outlives one application (a reload, a server process), a SQLite file.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ledger.store import redact

STORES = ("sqlite", "postgres", "memory")
# What .ci/run creates.
DEFAULT_POSTGRES = "postgresql://tablebank_test:tablebank_test@127.0.0.1:5432/tablebank_test"


class Unavailable(Exception):
    """The store cannot be reached: the reason, fit to print."""


class Store:
    """Fresh databases of one kind, each dropped when its test is done."""

    name = ""

    def new(self, *, durable: bool = False) -> str:
        """A fresh database's ``--db`` value; ``durable``: it outlives one application."""
        raise NotImplementedError

    def drop(self, db: str) -> None:
        """Remove a database handed out by ``new``."""

    def close(self) -> None:
        """Remove what is left at the end of the run."""


class SQLiteStore(Store):
    name = "sqlite"

    def __init__(self) -> None:
        shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        self.dir = Path(tempfile.mkdtemp(prefix="tablebank-tests-", dir=shm))
        self.numbers = itertools.count(1)

    def new(self, *, durable: bool = False) -> str:
        return str(self.dir / f"{next(self.numbers)}.sqlite")

    def drop(self, db: str) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(db + suffix).unlink(missing_ok=True)

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


class MemoryStore(SQLiteStore):
    name = "memory"

    def new(self, *, durable: bool = False) -> str:
        return super().new() if durable else ":memory:"

    def drop(self, db: str) -> None:
        if db != ":memory:":
            super().drop(db)


class PostgresStore(Store):
    name = "postgres"

    def __init__(self, url: str) -> None:
        import psycopg  # the postgres extra: only this store needs it

        self.url = url
        self.schemas: set[str] = set()
        try:
            self.admin = psycopg.connect(url, autocommit=True, connect_timeout=5)
        except psycopg.Error as error:
            raise Unavailable(
                f"PostgreSQL at {redact(url)} is not reachable ({' '.join(str(error).split())}); "
                "set TABLEBANK_TEST_POSTGRES to a database this user may create schemas in, "
                "or run .ci/run"
            ) from None

    def new(self, *, durable: bool = False) -> str:
        from psycopg.sql import SQL, Identifier

        schema = f"test_{uuid.uuid4().hex[:16]}"
        self.admin.execute(SQL("CREATE SCHEMA {}").format(Identifier(schema)))
        self.schemas.add(schema)
        # One connection kept per application: a test drives it from one thread at a time;
        # the pool's overflow serves a threaded server.
        parts = urlsplit(self.url)
        query = "&".join(filter(None, [parts.query, urlencode({"schema": schema, "pool_size": 1})]))
        return urlunsplit(parts._replace(query=query))

    def drop(self, db: str) -> None:
        from psycopg.sql import SQL, Identifier

        schema = dict(parse_qsl(urlsplit(db).query))["schema"]
        self.admin.execute(SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(Identifier(schema)))
        self.schemas.discard(schema)

    def close(self) -> None:
        for schema in list(self.schemas):  # left by a test that failed before its clean-up
            self.drop(f"?schema={schema}")
        self.admin.close()


def open_store(name: str) -> Store:
    """The store a run asked for; ``Unavailable`` if it cannot be reached."""
    if name == "postgres":
        return PostgresStore(os.environ.get("TABLEBANK_TEST_POSTGRES") or DEFAULT_POSTGRES)
    if name == "memory":
        return MemoryStore()
    return SQLiteStore()
