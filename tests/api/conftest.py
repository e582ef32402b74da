"""An app, and games created through its API.

An HTTP answer of the rules does not depend on where the events are kept: ``app`` keeps them in
eventsourcing's in-memory store, and these tests run once (``tests/conftest.py``). A module whose
answers a store can change (text a store cannot keep, outages, restarts, streams) builds its app
on ``store_db`` or ``db_url`` instead, and runs on every store of the matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from refusal_checks import checked
from werkzeug.test import TestResponse

from api import create_app
from api.bank import EXTENSION


def serving_app(db: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "TABLEBANK_DB": db})
    yield app
    app.extensions[EXTENSION].close()  # its connections, before the database goes


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


class Table:
    """One game created through the API, and the calls a test makes on it."""

    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.id: str = created["id"]
        self.banker: str = created["banker_token"]
        self.tokens: dict[str, str] = created["tokens"]
        self.url = f"/api/v1/games/{self.id}"

    def auth(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.banker}"}

    def get(self, path: str = "", *, token: str | None = None) -> TestResponse:
        return self.client.get(self.url + path, headers=self.auth(token))

    def post(self, body: Any, *, token: str | None = None) -> TestResponse:
        return self.client.post(self.url + "/transactions", json=body, headers=self.auth(token))

    def record(self, body: dict[str, Any], *, token: str | None = None) -> dict[str, Any]:
        """Record a transaction that must be accepted; the transaction."""
        response = self.post(body, token=token)
        assert response.status_code == 201, response.json
        return response.json  # type: ignore[no-any-return]

    def refusal(self, body: dict[str, Any]) -> dict[str, Any]:
        """Record a transaction that the rules must refuse; the problem, whose ``params`` are
        those its code declares and whose ``detail`` is built from them."""
        response = self.post(body)
        assert response.status_code == 409, response.json
        assert response.mimetype == "application/problem+json"
        return checked(response.json)

    def invalid(self, body: Any) -> dict[str, list[str]]:
        """Record a malformed transaction; the problem's errors by field."""
        response = self.post(body)
        assert response.status_code == 422, response.json
        assert response.json["code"] == "validation_error"
        return response.json["errors"]  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        response = self.get()
        assert response.status_code == 200, response.json
        return response.json  # type: ignore[no-any-return]

    def fund(self, player: str, amount: int) -> None:
        self.record({"type": "payment", "from": "bank", "to": player, "amount": amount})

    def buy(self, player: str, *deeds: str) -> None:
        for deed in deeds:
            self.record({"type": "buy", "player": player, "property": deed})


NewGame = Callable[..., Table]


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
