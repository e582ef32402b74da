"""A new token for a role (API.md v1.3, "Administration"): ``POST
/api/v1/games/{game}/tokens/{role}`` with the banker's token makes a new token and ends the old
one at once, open event streams included; on every store of the matrix."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from api import create_app
from api.bank import EXTENSION

NEW_GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}
ADMIN_TOKEN = "club-admin-7f3c9a1e5b2d4086"


@pytest.fixture
def app(store_db: str) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "TABLEBANK_DB": store_db,
            "TABLEBANK_ADMIN_TOKEN": ADMIN_TOKEN,
            "TABLEBANK_PUBLIC_URL": "http://192.168.1.20:8000",
            "TABLEBANK_STREAM_MAX_SECONDS": 10,
            "TABLEBANK_STREAM_KEEPALIVE": 0.1,
        }
    )
    yield app
    app.extensions[EXTENSION].close()


@pytest.fixture
def client(app: Flask) -> Any:
    return app.test_client()


@pytest.fixture
def game(client: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", json=NEW_GAME)
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_token(client: Any, game: dict[str, Any], role: str, token: str | None = None) -> Any:
    return client.post(
        f"/api/v1/games/{game['id']}/tokens/{role}", headers=bearer(token or game["banker_token"])
    )


def test_a_new_token_answers_201_with_its_role_token_and_link(client, game):
    response = new_token(client, game, "p2")

    assert response.status_code == 201
    made = response.json
    assert set(made) == {"role", "token", "link"}
    assert made["role"] == "p2"
    assert made["token"] not in (game["tokens"]["p2"], game["banker_token"])
    assert made["link"] == f"http://192.168.1.20:8000/play/{game['id']}#p=p2&token={made['token']}"
    assert response.headers["Cache-Control"] == "no-store"


def test_the_old_token_answers_401_on_its_next_request_saying_it_was_replaced(client, game):
    old = bearer(game["tokens"]["p2"])
    assert client.get(f"/api/v1/games/{game['id']}", headers=old).status_code == 200

    new_token(client, game, "p2")
    response = client.get(f"/api/v1/games/{game['id']}", headers=old)

    assert response.status_code == 401
    assert response.content_type == "application/problem+json"
    assert response.json["code"] == "unauthorized"
    assert response.json["replaced"] is True


def test_the_new_token_works_as_the_old_one_did(client, game):
    made = new_token(client, game, "p2").json

    paid = client.post(
        f"/api/v1/games/{game['id']}/transactions",
        json={"type": "payment", "from": "p2", "to": "bank", "amount": 10},
        headers=bearer(made["token"]),
    )

    assert paid.status_code == 201, paid.json
    assert paid.json["by"] == "p2"


def test_other_tokens_keep_working(client, game):
    new_token(client, game, "p2")

    for token in (game["banker_token"], game["tokens"]["p1"], game["tokens"]["p3"]):
        assert client.get(f"/api/v1/games/{game['id']}", headers=bearer(token)).status_code == 200


def test_a_second_new_token_ends_the_first(client, game):
    first = new_token(client, game, "p2").json
    second = new_token(client, game, "p2").json

    url = f"/api/v1/games/{game['id']}"
    assert client.get(url, headers=bearer(first["token"])).status_code == 401
    assert client.get(url, headers=bearer(second["token"])).status_code == 200


def test_the_banker_replaces_his_own_token(client, game):
    made = new_token(client, game, "banker").json

    url = f"/api/v1/games/{game['id']}"
    assert made["link"] == f"http://192.168.1.20:8000/#/open/{game['id']}/{made['token']}"
    assert client.get(url, headers=bearer(game["banker_token"])).status_code == 401
    assert client.get(url, headers=bearer(made["token"])).status_code == 200
    assert new_token(client, game, "p1", made["token"]).status_code == 201


@pytest.mark.parametrize("role", ["p2", "p1", "banker"])
def test_a_player_token_cannot_make_a_new_token(client, game, role):
    response = new_token(client, game, role, game["tokens"]["p1"])

    assert response.status_code == 403
    assert response.json["code"] == "forbidden"
    url = f"/api/v1/games/{game['id']}"
    assert client.get(url, headers=bearer(game["tokens"]["p2"])).status_code == 200


def test_the_admin_token_cannot_make_a_new_token(client, game):
    response = new_token(client, game, "p2", ADMIN_TOKEN)

    assert response.status_code == 403
    assert response.json["code"] == "forbidden"


@pytest.mark.parametrize("role", ["p4", "p0", "bank", "pot", "admin", "Banker"])
def test_a_role_the_game_has_not_is_not_found(client, game, role):
    response = new_token(client, game, role)

    assert response.status_code == 404
    assert response.content_type == "application/problem+json"
    assert response.json["code"] == "not_found"


def test_a_token_of_another_game_is_forbidden(client, game):
    other = client.post("/api/v1/games", json=NEW_GAME).json

    response = new_token(client, game, "p2", other["banker_token"])

    assert response.status_code == 403


def test_an_open_stream_on_the_old_token_ends_within_2_s(client, game):
    response = client.get(
        f"/api/v1/games/{game['id']}/events", headers=bearer(game["tokens"]["p2"]), buffered=False
    )
    assert response.status_code == 200
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    assert next(chunks) == b": keep-alive\n\n"  # open and following

    asked = time.monotonic()
    assert new_token(client, game, "p2").status_code == 201
    for _ in chunks:  # keep-alives, until the stream ends (else after 10 s)
        pass
    ended = time.monotonic() - asked
    response.close()

    assert ended < 2.0


def test_a_stream_on_another_token_stays_open(client, game):
    response = client.get(
        f"/api/v1/games/{game['id']}/events", headers=bearer(game["tokens"]["p1"]), buffered=False
    )
    chunks = iter(response.response)
    next(chunks)

    asked = time.monotonic()
    new_token(client, game, "p2")
    while time.monotonic() - asked < 1.0:
        assert next(chunks) == b": keep-alive\n\n"
    response.close()


def test_a_stream_opened_with_the_new_token_stays_open(client, game):
    made = new_token(client, game, "p2").json
    response = client.get(
        f"/api/v1/games/{game['id']}/events", headers=bearer(made["token"]), buffered=False
    )
    chunks = iter(response.response)
    next(chunks)

    started = time.monotonic()
    while time.monotonic() - started < 1.0:
        assert next(chunks) == b": keep-alive\n\n"
    response.close()
