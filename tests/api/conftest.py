"""An app, and games created through its API.

An HTTP answer of the rules does not depend on where the events are kept: ``app`` keeps them in
eventsourcing's in-memory store, and these tests run once (``tests/conftest.py``). A module whose
answers a store can change (text a store cannot keep, outages, restarts, streams) builds its app
on ``store_db`` or ``db_url`` instead, and runs on every store of the matrix.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

pytest.register_assert_rewrite("api_helpers")
from api_helpers import NewGame, Table, serving_app  # noqa: E402 - after the line above


@pytest.fixture
def app() -> Iterator[Flask]:
    """An app in memory."""
    yield from serving_app(":memory:")


@pytest.fixture
def stored_app(store_db: str) -> Iterator[Flask]:
    """An app on a fresh database of a store of the matrix (a module whose answers a store can
    change makes it its ``app``)."""
    yield from serving_app(store_db)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def new_game(client: FlaskClient) -> NewGame:
    """Create a classic game through the API: Ann, Bob and Cy unless told otherwise."""

    def create(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **options: Any) -> Table:
        body = {
            "name": "Friday night",
            "ruleset": "classic",
            "players": list(players),
            "options": options,
        }
        response = client.post("/api/v1/games", json=body)
        assert response.status_code == 201, response.json
        return Table(client, response.json)

    return create


@pytest.fixture
def table(new_game: NewGame) -> Table:
    return new_game()
