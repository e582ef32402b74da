"""Readiness (API.md v1.3, "Operating a server"): ``GET /readyz`` (no token) answers 200
``{"status": "ready"}`` after a round trip to the store, and 503 ``storage_unavailable`` with
``Retry-After`` when the store does not answer within 2 s, so that a load balancer or a
container's health check takes the server out of rotation, not its liveness (``/healthz``
touches nothing and stays 200)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import serving_app
from flask import Flask
from stores import PostgresStore

from api.bank import EXTENSION


def test_a_server_whose_store_answers_is_ready(stored_app: Flask) -> None:
    answer = stored_app.test_client().get("/readyz")

    assert (answer.status_code, answer.json) == (200, {"status": "ready"})


@pytest.fixture
def postgres_app(postgres: PostgresStore) -> Iterator[Flask]:
    """An app on a fresh PostgreSQL database (whatever ``--store`` says: what is checked here
    is a server whose PostgreSQL stops answering)."""
    db = postgres.new()
    try:
        yield from serving_app(db)
    finally:
        postgres.drop(db)


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that takes connections and never says a word, as a PostgreSQL server that hangs
    (its machine overloaded, a network that drops its answers) does."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(16)
        yield listening.getsockname()[1]


def test_a_server_whose_postgres_stops_answering_is_not_ready_within_3_s(
    postgres_app: Flask, silent_server: int
) -> None:
    client = postgres_app.test_client()
    assert client.get("/readyz").status_code == 200
    env: Any = postgres_app.extensions[EXTENSION].storage.env
    port = env["POSTGRES_PORT"]
    env["POSTGRES_PORT"] = str(silent_server)  # from now on the store's address answers nothing

    started = time.monotonic()
    answer = client.get("/readyz")
    took = time.monotonic() - started

    assert answer.status_code == 503
    assert answer.json["code"] == "storage_unavailable"
    assert answer.headers["Retry-After"] == "5"
    assert took < 3, f"{took:.1f} s"
    assert client.get("/healthz").status_code == 200  # alive all the same

    env["POSTGRES_PORT"] = port  # the store is back
    assert client.get("/readyz").status_code == 200
