"""A store that is full or failing (API.md, "Server limits"): 503 ``storage_unavailable`` with
``Retry-After``, nothing half-written, reads still served, and a retry with the same
Idempotency-Key once the store is back recorded once.

The store is made full for real, as the run's store can be:

- SQLite: ``PRAGMA max_page_count`` at the database's size on every connection of the app
  (``DurableSQLiteConnectionPool.cap_pages``), so that a write needing one more page fails
  with ``SQLITE_FULL`` ("database or disk is full"), as on a full disk;
- PostgreSQL: a trigger on the events table that raises SQLSTATE 53100 ``disk_full``, the
  error PostgreSQL gives when it cannot extend a file (psycopg's ``DiskFull``).

Both come out of eventsourcing as its ``OperationalError``; the store recovers when the cap is
lifted or the trigger dropped, with no restart.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from eventsourcing.persistence import InterfaceError, OperationalError, ProgrammingError
from flask import Flask

from api import create_app
from api.bank import EXTENSION

NEW_GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}
MEMO = "m" * 500  # the longest memo: each write takes as much room as one can
MAX_WRITES = 200  # a full store refuses one long before this many


class Outage:
    """Makes the app's store full, and lets it recover."""

    def __init__(self, app: Flask, store: Any, db: str) -> None:
        self.bank = app.extensions[EXTENSION]
        self.store = store
        self.db = db
        self.postgres = store.name == "postgres"

    def fill(self) -> None:
        if self.postgres:
            schema = dict(parse_qsl(urlsplit(self.db).query))["schema"]
            self.store.admin.execute(
                f"CREATE FUNCTION {schema}.disk_is_full() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'could not extend file: No space left on device' "
                "USING ERRCODE = 'disk_full'; END $$ LANGUAGE plpgsql"
            )
            self.store.admin.execute(
                f"CREATE TRIGGER disk_is_full BEFORE INSERT ON {schema}.tablebank_events "
                f"FOR EACH ROW EXECUTE FUNCTION {schema}.disk_is_full()"
            )
        else:
            self.bank.storage.factory.datastore.pool.cap_pages(1)  # SQLite keeps it at its size

    def recover(self) -> None:
        if self.postgres:
            schema = dict(parse_qsl(urlsplit(self.db).query))["schema"]
            self.store.admin.execute(f"DROP TRIGGER disk_is_full ON {schema}.tablebank_events")
        else:
            self.bank.storage.factory.datastore.pool.cap_pages(None)


@pytest.fixture
def app(db_url: str) -> Iterator[Flask]:
    """An app on a database of the run's store that can be made full (SQLite on a memory run);
    ``client`` and ``table`` (tests/api/conftest.py) use it."""
    app = create_app({"TESTING": True, "TABLEBANK_DB": db_url})
    yield app
    app.extensions[EXTENSION].close()


@pytest.fixture
def outage(app: Flask, store: Any, db_url: str) -> Outage:
    return Outage(app, store, db_url)


def write(table: Any, key: str, amount: int = 1) -> Any:
    body = {"type": "payment", "from": "bank", "to": "p1", "amount": amount, "memo": MEMO}
    return table.client.post(
        table.url + "/transactions",
        json=body,
        headers={**table.auth(), "Idempotency-Key": key},
    )


def until_refused(table: Any) -> tuple[str, Any]:
    """Write until the full store refuses one; that write's key and answer."""
    for n in itertools.count(1):
        assert n <= MAX_WRITES, "the store never became full"
        answer = write(table, f"fill-{n}")
        if answer.status_code != 201:
            return f"fill-{n}", answer
    raise AssertionError  # pragma: no cover


def test_a_write_to_a_full_store_is_503_storage_unavailable_with_retry_after(table, outage):
    outage.fill()

    _, answer = until_refused(table)

    assert answer.status_code == 503
    assert answer.mimetype == "application/problem+json"
    assert answer.headers["Retry-After"] == "5"
    assert answer.json["code"] == "storage_unavailable"
    assert answer.json["status"] == 503


def test_nothing_of_a_write_a_full_store_refused_is_recorded(table, outage):
    outage.fill()
    _, answer = until_refused(table)
    outage.recover()
    state = table.state()

    # Every write but the refused one is in the log, each with its 1, and the chain holds.
    logged = table.get("/transactions?limit=1000").json["items"]
    assert len(logged) == state["last_seq"]
    assert state["balances"]["p1"] == 1500 + state["last_seq"] - 3
    assert table.get("/verify").json["ok"] is True
    assert answer.status_code == 503


def test_reads_are_served_while_the_store_is_full(table, outage):
    outage.fill()
    _, refused = until_refused(table)

    assert refused.status_code == 503
    for path in ("", "/transactions", "/export", "/verify", "/accounts/p1/statement"):
        assert table.get(path).status_code == 200, path


def test_a_retry_with_the_same_key_once_the_store_recovers_records_it_once(table, outage):
    outage.fill()
    key, refused = until_refused(table)
    last_seq = table.state()["last_seq"]
    outage.recover()
    assert (refused.status_code, refused.headers["Retry-After"]) == (503, "5")

    first = write(table, key)
    again = write(table, key)

    assert first.status_code == 201, first.json
    assert "Idempotent-Replayed" not in first.headers
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    assert first.json["seq"] == last_seq + 1
    assert table.state()["last_seq"] == last_seq + 1


def test_a_game_created_on_a_full_store_leaves_nothing(client, table, outage):
    outage.fill()
    until_refused(table)

    answer = client.post("/api/v1/games", json=NEW_GAME)
    outage.recover()

    assert answer.status_code == 503
    assert answer.json["code"] == "storage_unavailable"
    assert [game["id"] for game in client.get("/api/v1/games").json["items"]] == [table.id]


def test_an_import_on_a_full_store_leaves_nothing(client, table, outage):
    exported = table.get("/export").json
    outage.fill()
    until_refused(table)

    answer = client.post("/api/v1/games/import", json=exported)
    outage.recover()

    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
    assert [game["id"] for game in client.get("/api/v1/games").json["items"]] == [table.id]


# -- what counts as the store being unavailable -------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("connection failed: Connection refused"),
        OperationalError("terminating connection due to administrator command"),
        InterfaceError("the connection is closed"),
    ],
)
def test_a_store_out_of_reach_is_503_for_a_read_too(table, monkeypatch, error):
    bank = table.client.application.extensions[EXTENSION]

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(bank.storage.repository, "get", unreachable)
    answer = table.get()

    assert answer.status_code == 503
    assert answer.json["code"] == "storage_unavailable"
    assert answer.headers["Retry-After"] == "5"


def test_a_store_refusing_a_statement_is_a_defect_not_an_outage(table, monkeypatch):
    bank = table.client.application.extensions[EXTENSION]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ProgrammingError('relation "tablebank_events" does not exist')

    monkeypatch.setattr(bank.storage.repository, "get", broken)
    answer = table.get()

    assert answer.status_code == 500
    assert answer.json["code"] == "internal_error"


# -- the OpenAPI document --------------------------------------------------------------------


def test_every_operation_on_games_lists_503_with_retry_after(client):
    document = client.get("/api/v1/openapi.json").json
    unavailable = document["components"]["responses"]["Unavailable"]

    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            listed = operation["responses"].get("503")
            if path.startswith("/api/v1/games") or path == "/readyz":  # these ask the store
                assert listed == {"$ref": "#/components/responses/Unavailable"}, (path, method)
            else:
                assert listed is None, (path, method)
    assert unavailable["headers"]["Retry-After"]["required"] is True
    assert "storage_unavailable" in unavailable["description"]


def test_a_request_after_its_worker_closed_the_store_is_told_to_come_back(client, table):
    # A worker that is stopping (or orphaned by its master's death, issue 31) closes its bank
    # while a request may still be answered: 503 with Retry-After, sent again elsewhere, never
    # a 500 ("KeyError: 'tablebank'").
    extensions = client.application.extensions
    bank = extensions.pop(EXTENSION)
    try:
        answer = table.post({"type": "salary", "player": "p1"})
    finally:
        extensions[EXTENSION] = bank  # for the fixture to close

    assert answer.status_code == 503
    assert answer.json["code"] == "storage_unavailable"
    assert answer.headers["Retry-After"] == "5"
