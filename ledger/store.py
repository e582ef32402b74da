"""Where the events live: configuration for eventsourcing's persistence modules.

``--db`` takes a SQLite file path (the embedded default), ``:memory:`` for tests, ``pocket:``
for the pocket bank in a browser (``ledger.journal``), or a PostgreSQL URL for several servers
on one database::

    postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=S&pool_size=N&max_overflow=M]

SQLite runs in WAL mode (the library's choice) with ``synchronous=FULL`` (ours): a transaction
is acknowledged only after its commit reached the disk. A new database file is created readable
and writable by its owner only (0600, whatever the umask); SQLite gives its ``-wal`` and
``-shm`` files the database's own mode, and every connection makes those that exist match it.
``shared_access`` says whether group or others can reach a database (``tablebank serve``
refuses to start on one that they can, unless told ``--allow-shared-db``).

PostgreSQL runs through the library's own persistence (psycopg 3, the ``postgres`` extra),
which commits each save in one transaction and turns a clash of versions into
``eventsourcing.persistence.IntegrityError`` as SQLite does. A URL without a password takes
``$PGPASSWORD`` (keep passwords off command lines: ``ps`` shows them).

A store that is full or cannot be reached raises what ``store_unavailable`` tells apart from a
defect: the library wraps sqlite3's and psycopg's errors, and a full disk or database (SQLite's
``SQLITE_FULL``, PostgreSQL's ``disk_full``), a lost or refused connection, an empty pool, a
lock held past its timeout or a read-only file are all its ``OperationalError`` or
``InterfaceError``. The save that met it was rolled back whole (each save is one
transaction), so the write can be sent again. ``DurableSQLiteConnectionPool.cap_pages`` makes a
SQLite database full on purpose, for the tests of that.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import sqlite3
import stat
import time
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteFactory,
)

try:  # the postgres extra
    import psycopg
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresFactory,
    )
    from psycopg.errors import DuplicateObject
    from psycopg.rows import tuple_row
    from psycopg.sql import SQL, Identifier
except ImportError:  # SQLite only
    HAS_POSTGRES = False
else:
    HAS_POSTGRES = True

DEFAULT_DB = "var/tablebank.sqlite"
POCKET_DB = "pocket:"  # ledger.journal
PRIVATE_MODE = 0o600  # a new database file: its owner reads and writes it, nobody else
# The files SQLite keeps beside a database in WAL mode.
COMPANIONS = ("-wal", "-shm")
POSTGRES_SCHEMES = ("postgresql", "postgres")
# The URL's query parameters and the eventsourcing settings they give.
POSTGRES_PARAMS = {
    "schema": "POSTGRES_SCHEMA",
    "pool_size": "POSTGRES_POOL_SIZE",
    "max_overflow": "POSTGRES_MAX_OVERFLOW",
    "max_waiting": "POSTGRES_MAX_WAITING",
    "connect_timeout": "POSTGRES_CONNECT_TIMEOUT",
    "lock_timeout": "POSTGRES_LOCK_TIMEOUT",
    "conn_max_age": "POSTGRES_CONN_MAX_AGE",
    "pre_ping": "POSTGRES_PRE_PING",
}


# How long a new database may stay locked by others while it is put into WAL mode.
WAL_SWITCH_SECONDS = 5.0
# SQLite's own bound on a database's pages, which ``cap_pages(None)`` puts back.
SQLITE_MAX_PAGES = 1073741823
# What a store raises while it is full or out of reach (see the module's docstring).
UNAVAILABLE = (OperationalError, InterfaceError)


def store_unavailable(error: BaseException) -> bool:
    """Whether an error of the store means it is full or unavailable for now, not a defect."""
    return isinstance(error, UNAVAILABLE)


class DurableSQLiteConnectionPool(SQLiteConnectionPool):
    """The library's pool, with every connection set to fsync each commit."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._made: weakref.WeakSet[SQLiteConnection] = weakref.WeakSet()
        self._max_pages: int | None = None

    def _create_connection(self) -> SQLiteConnection:
        """A connection of the library's that syncs each commit to disk, the database in WAL mode,
        held to the page limit if one is set."""
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            self._into_wal()
        connection = super()._create_connection()
        raw: sqlite3.Connection = connection._sqlite_conn  # type: ignore[attr-defined]
        raw.execute("PRAGMA synchronous=FULL")
        if self._max_pages is not None:
            raw.execute(f"PRAGMA max_page_count={int(self._max_pages)}")
        match_companions(Path(self.db_name))
        self._made.add(connection)
        return connection

    def _into_wal(self) -> None:
        """Put the database into WAL mode, waiting out the servers that start beside this one.

        Switching a new file's journal to WAL needs it alone. SQLite answers "database is
        locked" at once, without waiting its timeout, to whoever would otherwise deadlock: two
        banks (workers) creating their tables on the same new file. The library's connection
        then failed (1 start in 50 on a test of 6 together). WAL mode stays with the file, so
        this is done once per database: later connections find it set."""
        deadline = time.monotonic() + (self.lock_timeout or WAL_SWITCH_SECONDS)
        pause = 0.005
        with contextlib.closing(
            sqlite3.connect(self.db_name, uri=True, timeout=self.lock_timeout or 5)
        ) as raw:
            while True:
                try:
                    (mode,) = raw.execute("PRAGMA journal_mode=WAL").fetchone()
                except sqlite3.OperationalError as error:
                    if "locked" not in str(error) or time.monotonic() > deadline:
                        raise OperationalError(error) from error
                    time.sleep(pause)
                    pause = min(pause * 2, 0.1)
                    continue
                if str(mode).lower() == "wal":
                    return
                raise OperationalError(f"SQLite kept journal mode {mode!r}, not WAL")

    def cap_pages(self, pages: int | None) -> None:
        """Let the database grow to ``pages`` pages at most (``None``: as far as SQLite goes),
        on every connection, made or to be made: past it a write fails as on a full disk.
        SQLite never caps a database below its size."""
        self._max_pages = pages
        for connection in list(self._made):
            raw: sqlite3.Connection = connection._sqlite_conn  # type: ignore[attr-defined]
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed meanwhile
                raw.execute(f"PRAGMA max_page_count={int(pages or SQLITE_MAX_PAGES)}")


class DurableSQLiteFactory(SQLiteFactory):
    """SQLite persistence whose commits are durable."""

    def __init__(self, env):  # type: ignore[no-untyped-def]
        super().__init__(env)
        old = self.datastore.pool
        self.datastore.pool = DurableSQLiteConnectionPool(
            db_name=old.db_name, lock_timeout=old.lock_timeout
        )
        old.close()


# The most bytes of events' state one insert sends in psycopg's pipeline mode: over them (an
# import), its statements go one after another (``_insert_unpipelined``). A write at the table
# is a few events of under 1 KB each; a socket's buffer holds 200 KB and more.
PIPELINED_BYTES = 64 * 1024
# The advisory lock that table creation holds; any constant: the database has no other users.
SETUP_LOCK = 0x7461626C6562616E  # "tableban"


def once_more_if_quick(read: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A read of PostgreSQL, tried again once if it failed at once (a connection that a
    restart of PostgreSQL broke, found as it was used), never after a wait.

    The library tries each read 10 times, 0.2 s apart: with PostgreSQL stopped, each try
    waited its ``connect_timeout`` for a connection, and a request that loaded a game (or
    checked the log of purges) answered 503 after 35 s instead of 3."""
    started = time.monotonic()
    try:
        return read(*args, **kwargs)
    except (InterfaceError, OperationalError):
        if time.monotonic() - started > QUICK_FAILURE_SECONDS:
            raise
    return read(*args, **kwargs)


# A failed read this quick met a broken connection, not a database that does not answer.
QUICK_FAILURE_SECONDS = 0.5

if HAS_POSTGRES:

    class _SerialSetup:
        """Creates a recorder's tables, types and function in one transaction behind a lock.

        The library creates each type in a transaction of its own, then the rest without a
        lock: servers that start together on one database collide (a duplicate ``pg_type``
        row for a new table, "tuple concurrently updated" for the function) and a gunicorn
        worker that fails to boot stops the whole server.
        """

        def select_events(self, *args: Any, **kwargs: Any) -> Any:
            return once_more_if_quick(
                PostgresAggregateRecorder.select_events.__wrapped__,  # type: ignore[attr-defined]
                self,
                *args,
                **kwargs,
            )

        def create_table(self) -> None:
            with self.datastore.transaction(commit=True) as curs:  # type: ignore[attr-defined]
                curs.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
                for statement in self.sql_create_statements:  # type: ignore[attr-defined]
                    if "CREATE TYPE" in statement.as_string():  # no IF NOT EXISTS for types
                        with contextlib.suppress(DuplicateObject), curs.connection.transaction():
                            curs.execute(statement, prepare=False)
                self._create_table(curs)  # type: ignore[attr-defined]
            self.datastore.register_type_adapters()  # type: ignore[attr-defined]

    class SerialSetupApplicationRecorder(_SerialSetup, PostgresApplicationRecorder):
        """The library's recorder of events, with serial set-up, and an insert tried once.

        The library tries a failed insert 10 times, 0.2 s apart. A group commit
        (``ledger.commit``) holds every game's writes that joined it, so one game's failing
        insert (a trigger raising ``disk_full``) held every other game's writes 2 s a try,
        twice (their p50 3.8 s, max 7.5 s). Now a commit that fails is tried once more write
        by write, each alone; a write that fails alone too is answered 503 (its client sends
        it again, with its Idempotency-Key, after ``Retry-After``)."""

        def select_notifications(self, *args: Any, **kwargs: Any) -> Any:
            """The library's read of the notification log, tried again once if it failed at once."""
            return once_more_if_quick(
                PostgresApplicationRecorder.select_notifications.__wrapped__,  # type: ignore[attr-defined]
                self,
                *args,
                **kwargs,
            )

        def max_notification_id(self) -> Any:
            """The last notification id, tried again once if the read failed at once."""
            return once_more_if_quick(
                PostgresApplicationRecorder.max_notification_id.__wrapped__,  # type: ignore[attr-defined]
                self,
            )

        def insert_events(
            self, stored_events: Sequence[StoredEvent], **kwargs: Any
        ) -> Sequence[int] | None:
            """The library's insert, tried once; one over ``PIPELINED_BYTES`` goes unpipelined."""
            if sum(len(event.state) for event in stored_events) > PIPELINED_BYTES:
                return self._insert_unpipelined(stored_events, **kwargs)
            once = PostgresApplicationRecorder.insert_events.__wrapped__  # type: ignore[attr-defined]
            inserted: Sequence[int] | None = once(self, stored_events, **kwargs)
            return inserted

        def _insert_unpipelined(
            self, stored_events: Sequence[StoredEvent], **kwargs: Any
        ) -> Sequence[int] | None:
            """The library's statements of an insert (the table's lock, its notice, the rows),
            one after another in one transaction, outside psycopg's pipeline mode.

            In pipeline mode psycopg sends a query while it reads the answers to those before
            it; a query larger than the socket's buffer (an imported game's 10,000 events, 4
            MB) could leave both ends waiting to read, for good (psycopg/psycopg#685): the
            import's backend "active" in ``ClientRead``, the client in ``Pipeline.sync``,
            until the 600 s of the test that imports one ran out, under the whole suite's load.
            A write at the table, a few events, still takes the library's pipeline."""
            with (
                self.datastore.get_connection() as conn,
                conn.transaction(),
                conn.cursor() as curs,
            ):
                self._insert_events(curs, stored_events, **kwargs)
                self._insert_stored_events(curs, stored_events, **kwargs)
                return self._fetch_ids_after_insert_events(curs, stored_events, **kwargs)

    class SerialSetupAggregateRecorder(_SerialSetup, PostgresAggregateRecorder):
        """The library's recorder of snapshots, with serial set-up."""

    class SerialSetupPostgresFactory(PostgresFactory):
        """PostgreSQL persistence that several servers may start on at once, and that says
        within seconds that its database is away, and uses it again as soon as it is back.

        The library's pool waits ``connect_timeout`` (30 s unless the URL said) for a
        connection, and tries again to connect after 1, 2, 4, 8, ... s for 5 minutes: with
        PostgreSQL stopped, a write waited 30 s before its 503; once it was back, the first
        write waited 24 s more, until the pool's next try. Now a new connection, and a wait for
        one from the pool, take ``connect_timeout`` at most (``STORE_SECONDS`` unless the URL
        says), and the pool gives up trying after as long: the next request then opens a
        connection of its own at once (the pool grows on demand), failing fast while the
        database is away and succeeding as soon as it answers again."""

        application_recorder_class = SerialSetupApplicationRecorder
        aggregate_recorder_class = SerialSetupAggregateRecorder

        def __init__(self, env: Any) -> None:
            super().__init__(env)
            pool = self.datastore.pool
            within = pool.timeout  # connect_timeout: the wait for a connection from the pool
            pool.reconnect_timeout = within
            assert isinstance(pool.kwargs, dict)
            pool.kwargs.setdefault("connect_timeout", max(2, round(within)))  # libpq's least


def select_states(
    recorder: object, originator_id: UUID | str, *, gt: int, limit: int | None = None
) -> list[bytes] | None:
    """The stored state of an originator's events after version ``gt``, in order, at most
    ``limit`` (as the library's ``select_events(originator_id, gt=gt, limit=limit)`` gives
    them, its ``StoredEvent.state`` each): one column read with a SELECT of our own, through
    the recorder's own connections, without an event object and an id per row.

    For the library's SQLite and PostgreSQL recorders, whose ``select_events`` this mirrors
    (the same table, conditions, order and limit; ours only tries a read again less often);
    None for any other recorder (in memory, or one whose ``select_events`` was overridden):
    then read with ``select_events``.
    """
    if (
        isinstance(recorder, SQLiteAggregateRecorder)
        and type(recorder).select_events is SQLiteAggregateRecorder.select_events
    ):
        return _sqlite_states(recorder, originator_id, gt, limit)
    if (
        HAS_POSTGRES
        and isinstance(recorder, PostgresAggregateRecorder)
        and type(recorder).select_events
        in (PostgresAggregateRecorder.select_events, _SerialSetup.select_events)
    ):
        return _postgres_states(recorder, originator_id, gt, limit)
    return None


def _sqlite_states(
    recorder: SQLiteAggregateRecorder, originator_id: UUID | str, gt: int, limit: int | None
) -> list[bytes]:
    """``select_states`` on the library's SQLite recorder."""
    statement = (
        f"SELECT state FROM {recorder.events_table_name} "
        "WHERE originator_id=? AND originator_version>? ORDER BY originator_version ASC"
    )
    params: list[Any] = [originator_id.hex if isinstance(originator_id, UUID) else originator_id]
    params.append(gt)
    if limit is not None:
        statement += " LIMIT ?"
        params.append(limit)
    with recorder.datastore.transaction(commit=False) as cursor:
        raw: sqlite3.Cursor = cursor.sqlite_cursor  # type: ignore[attr-defined]
        raw.row_factory = None  # plain tuples, not a sqlite3.Row per row (a cursor of its own)
        raw.execute(statement, params)
        return [row[0] for row in raw.fetchall()]


def _postgres_states(
    recorder: Any, originator_id: UUID | str, gt: int, limit: int | None
) -> list[bytes]:
    """``select_states`` on the library's PostgreSQL recorder, its results in binary."""
    statement = SQL(
        "SELECT state FROM {schema}.{table} WHERE originator_id = %s"
        " AND originator_version > %s ORDER BY originator_version ASC"
    ).format(
        schema=Identifier(recorder.datastore.schema),
        table=Identifier(recorder.events_table_name),
    )
    params: list[Any] = [originator_id, gt]
    if limit is not None:
        statement += SQL(" LIMIT %s")
        params.append(limit)
    # Binary results: a bytea arrives as its bytes, not as hex text to be decoded.
    with (
        recorder.datastore.get_connection() as connection,
        connection.cursor(row_factory=tuple_row, binary=True) as cursor,
    ):
        cursor.execute(statement, params, prepare=True)
        return [bytes(row[0]) for row in cursor.fetchall()]


# How long a store may take to answer a readiness check (GET /readyz) before it is called away.
READY_SECONDS = 2.0
# How long a request waits for a connection to PostgreSQL (new, or from the pool) before it is
# answered 503 storage_unavailable (the URL's connect_timeout, when it gives one); and, in a
# server's worker, how long PostgreSQL may say nothing in the middle of a query
# (``api.cli.serving.answering``).
STORE_SECONDS = 3


# How long a write waits for the lock eventsourcing takes on PostgreSQL's table of events (the
# order of the notification log) before PostgreSQL refuses it: 503 storage_unavailable, the
# write rolled back and its backend freed, before a worker's own bound on a silent PostgreSQL
# (``STORE_SECONDS``) would give up on it, unsure of its outcome, its backend still queued.
LOCK_SECONDS = 2


def answers(recorder: object, env: Any, within: float = READY_SECONDS) -> bool:
    """Whether the store answers a round trip within ``within`` seconds (``/readyz``).

    SQLite: a read of the events table through the recorder's own connections (a file that
    is gone or unreadable fails). PostgreSQL: ``SELECT 1`` on a connection of its own, made
    with the environment's address, so that a pool whose connections all wait on a stopped
    server does not hold the check past its time: the connection's and the statement's
    timeouts bound it. A store in memory (the pocket bank's, tests') always answers."""
    started = time.monotonic()
    try:
        if isinstance(recorder, SQLiteAggregateRecorder):
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(f"SELECT 1 FROM {recorder.events_table_name} LIMIT 1")
        elif HAS_POSTGRES and isinstance(recorder, PostgresAggregateRecorder):
            with (
                psycopg.connect(
                    host=env.get("POSTGRES_HOST"),
                    port=env.get("POSTGRES_PORT"),
                    dbname=env.get("POSTGRES_DBNAME"),
                    user=env.get("POSTGRES_USER"),
                    password=env.get("POSTGRES_PASSWORD"),
                    connect_timeout=max(2, round(within)),  # libpq's least
                    options=f"-c statement_timeout={int(within * 1000)}",
                ) as connection,
                connection.cursor() as cursor,
            ):
                cursor.execute("SELECT 1")
    except (OperationalError, InterfaceError, sqlite3.Error, OSError) as error:
        del error
        return False
    except Exception as error:  # psycopg's own, where the postgres extra is installed
        if HAS_POSTGRES and isinstance(error, psycopg.Error):
            return False
        raise
    return time.monotonic() - started <= within


def is_postgres(db: str) -> bool:
    """Whether a ``--db`` value is a PostgreSQL URL."""
    return db.lower().startswith(tuple(scheme + "://" for scheme in POSTGRES_SCHEMES))


# The layout of the store this release reads and writes (GET /api/v1/version's "schema"):
# v1.2's, the first. A store records its own (``settle_schema``): SQLite in its header's
# ``user_version``, PostgreSQL in a table of one row, ``tablebank_schema``.
SCHEMA = 1
# What takes a store from one layout to the next, by the layout it starts from, each run in the
# transaction that records the next: none yet. A store that records none is v1.2's, layout 1.
UPGRADES: dict[int, Callable[[Any], None]] = {}


class NewerStore(RuntimeError):
    """The store was written by a newer release: this one must not touch it."""


def settle_schema(recorder: object) -> tuple[int, int]:
    """The store's layout read, an older one upgraded in place once, in one transaction (two
    servers starting together on PostgreSQL take turns), and this release's recorded; (the
    layout found, the layout now). ``NewerStore`` where a newer release wrote it. A store in
    memory has no layout to keep: (SCHEMA, SCHEMA)."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        pool = recorder.datastore.pool
        if pool.is_sqlite_memory_mode:
            return SCHEMA, SCHEMA
        # A connection of its own that takes the write lock first (BEGIN IMMEDIATE), waiting
        # for it as long as any write may: servers that start together on a new file take
        # turns (one that read first, then asked to write, was refused at once).
        connection = sqlite3.connect(
            pool.db_name, uri=True, timeout=pool.lock_timeout or 5, isolation_level=None
        )
        try:
            connection.execute("BEGIN IMMEDIATE")
            recorded = int(connection.execute("PRAGMA user_version").fetchone()[0])
            found = recorded or 1
            if recorded != SCHEMA:
                upgrade(found, connection)
                connection.execute(f"PRAGMA user_version = {SCHEMA}")
            connection.execute("COMMIT")
        finally:
            connection.close()  # a transaction left open is rolled back
        return found, SCHEMA
    if HAS_POSTGRES and isinstance(recorder, PostgresAggregateRecorder):
        table = SQL("{schema}.tablebank_schema").format(
            schema=Identifier(recorder.datastore.schema)
        )
        with recorder.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
            curs.execute(
                SQL("CREATE TABLE IF NOT EXISTS {} (version integer NOT NULL)").format(table)
            )
            curs.execute(SQL("SELECT version FROM {}").format(table))
            row = curs.fetchone()
            recorded = int(row["version"] if isinstance(row, dict) else row[0]) if row else 0
            found = recorded or 1
            if recorded != SCHEMA:
                upgrade(found, curs)
                curs.execute(SQL("DELETE FROM {}").format(table))
                insert = SQL("INSERT INTO {} (version) VALUES (%s)")
                curs.execute(insert.format(table), (SCHEMA,))
        return found, SCHEMA
    return SCHEMA, SCHEMA


def upgrade(found: int, cursor: Any) -> None:
    """Take a store from layout ``found`` to ``SCHEMA``; a store of a newer layout is refused."""
    if found > SCHEMA:
        raise NewerStore(
            f"this store was written by a newer release of tablebank (its layout is {found}, "
            f"this release knows {SCHEMA} at most): serve it with that release or a later one"
        )
    for layout in range(found, SCHEMA):
        UPGRADES[layout](cursor)


def store_kind(db: str) -> str:
    """What keeps the games for a ``--db`` value: "sqlite" or "postgresql" on a server,
    "pocket" in the browser's pocket bank, "memory" for an app in memory (tests)."""
    if db == ":memory:":
        return "memory"
    if db == POCKET_DB:
        return "pocket"
    return "postgresql" if is_postgres(db) else "sqlite"


def persistence_env(db: str | None) -> dict[str, str]:
    """The eventsourcing environment for a ``--db`` value."""
    if db is None or db == "":
        db = os.environ.get("TABLEBANK_DB", DEFAULT_DB)
    if db == ":memory:":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if db == POCKET_DB:  # the pocket bank's: in memory, each write kept by the browser
        return {"PERSISTENCE_MODULE": "ledger.journal:PocketFactory"}
    if is_postgres(db):
        return postgres_env(db)
    path = Path(db)
    path.parent.mkdir(parents=True, exist_ok=True)
    create_private(path)
    return {
        "PERSISTENCE_MODULE": "ledger.store:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
    }


def create_private(path: Path) -> None:
    """Create an empty database file that only its owner may read or write, unless one is there
    already (SQLite takes an empty file for a new database)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, PRIVATE_MODE)  # the umask may have taken the owner's bits too
    finally:
        os.close(fd)


def match_companions(path: Path) -> None:
    """Give the database's ``-wal`` and ``-shm`` files no wider a mode than the database has
    (SQLite does so when it creates them; a file left by an older start may be wider)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    for suffix in COMPANIONS:
        companion = Path(f"{path}{suffix}")
        with contextlib.suppress(OSError):  # not there, or not ours to change
            if stat.S_IMODE(companion.stat().st_mode) & ~mode:
                companion.chmod(stat.S_IMODE(companion.stat().st_mode) & mode)


def shared_access(db: str) -> str | None:
    """Why group or others can reach a SQLite database (its file, ``-wal`` or ``-shm``): e.g.
    ``"var/tablebank.sqlite has mode 0644"``; None if they cannot, or it is no SQLite file."""
    if db in ("", ":memory:") or is_postgres(db):
        return None
    for name in (db, *(db + suffix for suffix in COMPANIONS)):
        try:
            mode = stat.S_IMODE(os.stat(name).st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            return f"{name} has mode {mode:04o}"
    return None


def postgres_env(url: str) -> dict[str, str]:
    """The eventsourcing environment for a PostgreSQL URL; refuses what it cannot honour."""
    if not HAS_POSTGRES:
        raise ValueError("PostgreSQL needs the postgres extra: pip install 'tablebank[postgres]'")
    parts = urlsplit(url)
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise ValueError(f"no database name in {redact(url)}")
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = sorted(set(query) - set(POSTGRES_PARAMS) - {"host"})
    if unknown:
        known = ", ".join(["host", *POSTGRES_PARAMS])
        raise ValueError(f"unknown parameter {', '.join(unknown)} in {redact(url)}; try {known}")
    password = parts.password
    env = {
        "PERSISTENCE_MODULE": "ledger.store:SerialSetupPostgresFactory",
        "POSTGRES_DBNAME": dbname,
        # A host in the query may be a Unix-socket directory, as libpq allows.
        "POSTGRES_HOST": unquote(parts.hostname or "") or query.pop("host", "localhost"),
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "") or getpass.getuser(),
        "POSTGRES_PASSWORD": (
            unquote(password) if password is not None else os.environ.get("PGPASSWORD", "")
        ),
    }
    query.pop("host", None)
    env["POSTGRES_CONNECT_TIMEOUT"] = str(STORE_SECONDS)  # unless the URL says otherwise
    env["POSTGRES_LOCK_TIMEOUT"] = str(LOCK_SECONDS)  # likewise
    env.update({POSTGRES_PARAMS[name]: value for name, value in query.items()})
    return env


def redact(db: str) -> str:
    """A ``--db`` value fit to print: a URL's password replaced by ``***``."""
    if not is_postgres(db):
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    userinfo, _, host = parts.netloc.rpartition("@")
    user = userinfo.partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
