"""``--db`` values: a PostgreSQL URL read into eventsourcing's settings, its password kept
out of print, and servers that start together on a new database."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import OperationalError
from long_logs import long_log
from stores import PostgresStore

from ledger.application import TableBank
from ledger.store import LOCK_SECONDS, PIPELINED_BYTES, persistence_env, redact


def test_a_postgresql_url_gives_every_part_to_eventsourcing() -> None:
    env = persistence_env("postgresql://bank:s3cret@db.example:6543/tables")

    assert env["POSTGRES_DBNAME"] == "tables"
    assert env["POSTGRES_HOST"] == "db.example"
    assert env["POSTGRES_PORT"] == "6543"
    assert env["POSTGRES_USER"] == "bank"
    assert env["POSTGRES_PASSWORD"] == "s3cret"


def test_a_postgres_url_is_a_postgresql_url_too() -> None:
    env = persistence_env("postgres://bank:pw@db/tables")

    assert env["PERSISTENCE_MODULE"] == "ledger.store:SerialSetupPostgresFactory"
    assert env["POSTGRES_PORT"] == "5432"


def test_the_url_query_sets_the_schema_and_the_pool() -> None:
    env = persistence_env("postgresql://bank:pw@db/tables?schema=club&pool_size=4&max_overflow=2")

    assert env["POSTGRES_SCHEMA"] == "club"
    assert env["POSTGRES_POOL_SIZE"] == "4"
    assert env["POSTGRES_MAX_OVERFLOW"] == "2"


def test_a_url_without_a_password_takes_pgpassword(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", "from-env")

    assert persistence_env("postgresql://bank@db/tables")["POSTGRES_PASSWORD"] == "from-env"


def test_a_percent_encoded_password_is_decoded() -> None:
    env = persistence_env("postgresql://bank:p%40ss%2Fword@db/tables")

    assert env["POSTGRES_PASSWORD"] == "p@ss/word"


def test_a_unix_socket_directory_may_be_given_as_host() -> None:
    env = persistence_env("postgresql://bank@/tables?host=/var/run/postgresql")

    assert env["POSTGRES_HOST"] == "/var/run/postgresql"


def test_an_unknown_url_parameter_is_refused_without_the_password() -> None:
    with pytest.raises(ValueError, match="unknown parameter sslmode") as refused:
        persistence_env("postgresql://bank:s3cret@db/tables?sslmode=require")

    assert "s3cret" not in str(refused.value)


def test_a_url_without_a_database_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no database name"):
        persistence_env("postgresql://bank:s3cret@db/")


def test_redact_hides_the_password_and_keeps_the_rest() -> None:
    shown = redact("postgresql://bank:s3cret@db.example:6543/tables?schema=club")

    assert shown == "postgresql://bank:***@db.example:6543/tables?schema=club"


def test_redact_leaves_a_sqlite_path_and_a_url_without_password_alone() -> None:
    assert redact("var/tablebank.sqlite") == "var/tablebank.sqlite"
    assert redact("postgresql://bank@db/tables") == "postgresql://bank@db/tables"


def test_six_banks_that_start_together_on_a_new_sqlite_file_all_start(tmp_path: Path) -> None:
    # Two of them switching a new file to WAL mode together deadlocked, and SQLite failed one at
    # once ("database is locked"): 6 rounds in 300 did before ledger.store waited it out. A
    # hundred new files make a regression all but certain to show (it did, 4 in 100).
    for round_ in range(100):
        env = persistence_env(str(tmp_path / f"new-{round_}.sqlite"))

        def start(_: int, env: dict[str, str] = env) -> None:
            TableBank(env=env).close()

        with ThreadPoolExecutor(max_workers=6) as pool:
            list(pool.map(start, range(6)))

        with TableBank(env=env) as bank:
            assert bank.list_games() == []


def test_banks_that_start_together_on_a_new_database_all_start(db_url: str) -> None:
    env = persistence_env(db_url)

    def start(_: int) -> None:
        TableBank(env=env).close()  # creates the tables on a new database

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(start, range(6)))

    with TableBank(env=env) as bank:
        created = bank.create_game("start", "classic", ["Ann", "Bob"])
        assert bank.game(created["id"])["balances"]["p1"] == 1500


def test_a_long_game_is_imported_whole_without_psycopgs_pipeline_mode(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import saves thousands of events, a thousand to an insert. On PostgreSQL, sent in
    psycopg's pipeline mode, 2,000 events (900 KB of state) could leave the client and its
    backend both waiting to read, for good (``ledger.store.PIPELINED_BYTES``): such an insert
    goes without it, and a write at the table (a few events, as the import's last insert may
    be) still takes it."""
    pipelines: list[int] = []  # the bytes of state of the insert under way at each pipeline
    inserting = {"bytes": 0}
    entered = psycopg.Connection.pipeline

    def pipeline(self: psycopg.Connection, *args: object, **kwargs: object) -> object:
        pipelines.append(inserting["bytes"])
        return entered(self, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "pipeline", pipeline)
    with TableBank(env=persistence_env(db_url)) as bank:
        insert = bank.storage.recorder.insert_events

        def sized(events: Any, **kwargs: Any) -> Any:
            inserting["bytes"] = sum(len(event.state) for event in events)
            return insert(events, **kwargs)

        monkeypatch.setattr(bank.storage.recorder, "insert_events", sized)
        log = long_log(2000)
        imported = bank.import_game(log)
        assert max(inserting.values()) > 0
        assert all(0 < size <= PIPELINED_BYTES for size in pipelines), pipelines
        game = bank.game(imported["id"])
        # The set-up's transactions, then 2,000 payments of 1 between Ann and Bob, each way in
        # turn: each ends as it began, with the 1,500 of a classic game's start.
        assert game["balances"]["p1"] == 1500
        assert game["balances"]["p2"] == 1500
        exported = bank.export(imported["id"])
        assert len(exported["transactions"]) == len(log["transactions"])
        assert exported["head"] == log["head"]
        bank.record(imported["id"], {"type": "payment", "from": "p1", "to": "p2", "amount": 5})
        assert bank.game(imported["id"])["balances"]["p2"] == 1505
        assert bool(pipelines) == db_url.startswith("postgresql")


def test_a_url_sets_the_wait_for_the_events_lock_else_two_seconds() -> None:
    assert persistence_env("postgresql://bank:pw@db/tables")["POSTGRES_LOCK_TIMEOUT"] == "2"
    given = persistence_env("postgresql://bank:pw@db/tables?lock_timeout=7")
    assert given["POSTGRES_LOCK_TIMEOUT"] == "7"


def test_a_write_kept_from_the_events_lock_is_refused_after_two_seconds(
    postgres: PostgresStore,
) -> None:
    """Another transaction holds PostgreSQL's lock on the events (as a long purge would): the
    write is refused by PostgreSQL after LOCK_SECONDS, rolled back, not queued for good; once
    the lock is let go, the same write is recorded (Ann 1,500 + a salary of 200)."""
    db = postgres.new()
    try:
        with TableBank(env=persistence_env(db)) as bank:
            game = bank.create_game("Club night", "classic", ["Ann", "Bob"])
            recorder: Any = bank.storage.recorder
            table = f"{recorder.datastore.schema}.{recorder.events_table_name}"
            outcome: list[BaseException | None] = []

            def salary() -> None:
                try:
                    bank.record(game["id"], {"type": "salary", "player": "p1"})
                    outcome.append(None)
                except OperationalError as error:
                    outcome.append(error)

            with psycopg.connect(postgres.url, autocommit=False) as other:
                other.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
                started = time.monotonic()
                waiting = threading.Thread(target=salary)
                waiting.start()
                waiting.join(timeout=LOCK_SECONDS + 5.0)
                took = time.monotonic() - started
                other.rollback()  # let go, whatever happened: the write stops waiting
                waiting.join()
            assert isinstance(outcome[0], OperationalError), f"{outcome} after {took:.1f} s"
            assert LOCK_SECONDS <= took < LOCK_SECONDS + 2.0, took
            bank.record(game["id"], {"type": "salary", "player": "p1"})
            assert bank.game(game["id"])["balances"]["p1"] == 1700
    finally:
        postgres.drop(db)
