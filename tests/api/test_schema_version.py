"""The store's layout (API.md v1.3, "Operating a server"): a store records the layout it was
written in; a server upgrades an older one in place, once, at start, and refuses one a newer
release wrote (a sentence, exit status 2). v1.2's layout is the first (1), and v1.2 recorded
none: a store that records none is v1.2's. Runs on each store of the matrix."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteAggregateRecorder

from ledger.application import TableBank
from ledger.store import SCHEMA, NewerStore, persistence_env

NEW_GAME = {"name": "Club night", "ruleset": "classic", "players": ["Ann", "Bob"]}


def layout_kept(bank: TableBank) -> int | None:
    """The layout the store records, read straight from it (None: it records none)."""
    recorder: Any = bank.storage.recorder
    with recorder.datastore.transaction(commit=False) as cursor:
        if isinstance(recorder, SQLiteAggregateRecorder):
            cursor.execute("PRAGMA user_version")
            return int(cursor.fetchone()[0]) or None
        table = f'"{recorder.datastore.schema}".tablebank_schema'
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL AS there", (table,))
        if not cursor.fetchone()["there"]:
            return None
        cursor.execute(f"SELECT version FROM {table}")
        return int(cursor.fetchone()["version"])


def keep_layout(bank: TableBank, layout: int | None) -> None:
    """Make the store record ``layout`` (None: nothing, as v1.2 left every store)."""
    recorder: Any = bank.storage.recorder
    with recorder.datastore.transaction(commit=True) as cursor:
        if isinstance(recorder, SQLiteAggregateRecorder):
            cursor.execute(f"PRAGMA user_version = {layout or 0}")
        elif layout is None:
            cursor.execute(f'DROP TABLE "{recorder.datastore.schema}".tablebank_schema')
        else:
            table = f'"{recorder.datastore.schema}".tablebank_schema'
            cursor.execute(f"UPDATE {table} SET version = %s", (layout,))


@pytest.fixture
def sqlite_or_postgres(local_db: str, store: Any, db_url: str) -> str:
    """A store that keeps a layout: the matrix's, or a SQLite file where the matrix's store is
    the one in memory (which keeps none)."""
    return local_db if db_url == ":memory:" else db_url


def test_a_new_store_records_this_releases_layout(sqlite_or_postgres: str) -> None:
    with TableBank(env=persistence_env(sqlite_or_postgres)) as bank:
        assert (bank.schema_found, bank.schema, layout_kept(bank)) == (SCHEMA, SCHEMA, 1)


def test_a_v12_store_that_records_no_layout_is_upgraded_once_and_served(
    sqlite_or_postgres: str,
) -> None:
    with TableBank(env=persistence_env(sqlite_or_postgres)) as bank:
        game = bank.create_game(**NEW_GAME)
        keep_layout(bank, None)  # the store as v1.2 left it
        assert layout_kept(bank) is None

    with TableBank(env=persistence_env(sqlite_or_postgres)) as bank:
        assert (bank.schema_found, layout_kept(bank)) == (1, 1)
        state = bank.game(game["id"])
    assert [player["cash"] for player in state["players"]] == [1500, 1500]


def test_a_store_a_newer_release_wrote_is_refused(sqlite_or_postgres: str) -> None:
    with TableBank(env=persistence_env(sqlite_or_postgres)) as bank:
        keep_layout(bank, SCHEMA + 1)

    with pytest.raises(NewerStore, match="written by a newer release"):
        TableBank(env=persistence_env(sqlite_or_postgres))
    done = subprocess.run(
        [sys.executable, "-m", "tablebank", "serve", "--port", "0", "--db", sqlite_or_postgres],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "written by a newer release of tablebank" in done.stderr
