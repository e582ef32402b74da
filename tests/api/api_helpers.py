"""What the HTTP tests share besides fixtures: an app on a database, and one game created
through its API with the calls a test makes on it (``Table``).

Imported as ``from api_helpers import ...`` (pytest puts ``tests/api`` on the path); the
fixtures of ``tests/api/conftest.py`` build on it. No test module imports a conftest: a name
several test folders have.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from refusal_checks import checked
from werkzeug.test import TestResponse

from api import create_app
from api.bank import EXTENSION


def serving_app(db: str, **config: Any) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "TABLEBANK_DB": db, **config})
    yield app
    app.extensions[EXTENSION].close()  # its connections, before the database goes


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


NewGame = Callable[..., Table]


API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def type_rows() -> dict[str, list[str]]:
    """docs/api.md's "Every transaction type" table, in its order: type -> its cells (type,
    fields, variants, who, voidable, family)."""
    section = API_MD.read_text().split("### Every transaction type", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells
    return rows
