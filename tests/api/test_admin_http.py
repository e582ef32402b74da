"""Administration (API.md v1.3, "Administration"): the admin's list of games with their last
activity, counts and filters, on every store of the matrix."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask

from api import create_app
from api.bank import EXTENSION

NEW_GAME = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}
ADMIN_TOKEN = "club-admin-7f3c9a1e5b2d4086"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def app(store_db: str) -> Iterator[Flask]:
    """A server with an admin token, on a store of the matrix."""
    app = create_app(
        {"TESTING": True, "TABLEBANK_DB": store_db, "TABLEBANK_ADMIN_TOKEN": ADMIN_TOKEN}
    )
    yield app
    app.extensions[EXTENSION].close()


@pytest.fixture
def client(app: Flask) -> Any:
    return app.test_client()


def created(client: Any, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", json={**NEW_GAME, **changes})
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def record(client: Any, game: dict[str, Any], body: dict[str, Any], token: str | None = None):
    auth = {"Authorization": f"Bearer {token or game['banker_token']}"}
    return client.post(f"/api/v1/games/{game['id']}/transactions", json=body, headers=auth)


def listed(client: Any, query: str = "") -> dict[str, Any]:
    response = client.get(f"/api/v1/games{query}", headers=ADMIN)
    assert response.status_code == 200, response.json
    return response.json  # type: ignore[no-any-return]


# -- the list ----------------------------------------------------------------------------------


def test_the_list_shows_each_games_last_activity_and_counts(client):
    game = created(client, players=["Ann", "Bob"])
    paid = record(client, game, {"type": "payment", "from": "p1", "to": "bank", "amount": 50})

    [line] = listed(client)["items"]

    assert line["status"] == "active"
    assert line["created"] == game["created"]
    assert line["last_activity"] == paid.json["at"]
    # Two starting cash transactions, then the payment.
    assert line["transactions"] == 3
    assert line["players"] == 2


def test_the_list_never_shows_money_or_tokens(client):
    game = created(client)

    [line] = listed(client)["items"]

    assert set(line) == {
        "id",
        "name",
        "ruleset",
        "status",
        "created",
        "last_activity",
        "transactions",
        "players",
    }
    assert game["banker_token"] not in str(line)


def test_the_list_filters_by_status(client):
    playing = created(client, name="Playing")
    over = created(client, name="Over")
    assert record(client, over, {"type": "finish"}).status_code == 201

    active = listed(client, "?status=active")["items"]
    finished = listed(client, "?status=finished")["items"]

    assert [line["id"] for line in active] == [playing["id"]]
    assert [line["id"] for line in finished] == [over["id"]]
    assert finished[0]["status"] == "finished"


def test_a_game_just_written_is_not_idle_for_a_day(client):
    created(client)

    assert listed(client, "?idle_days=1")["items"] == []
    assert len(listed(client, "?idle_days=0")["items"]) == 1


def test_the_list_filters_games_idle_for_so_many_days(app, client):
    old = created(client, name="Old")
    bank = app.extensions[EXTENSION]
    in_three_days = datetime.now(UTC) + timedelta(days=3)

    idle = [line["id"] for _, line in bank.listed_games(idle_days=2, now=in_three_days)]
    busy = [line["id"] for _, line in bank.listed_games(idle_days=4, now=in_three_days)]

    assert idle == [old["id"]]
    assert busy == []


def test_a_filtered_page_names_the_place_after_its_last_game(client):
    for n in range(1, 6):
        created(client, name=f"Table {n}")
    finished = [created(client, name=f"Done {n}") for n in range(1, 4)]
    for game in finished:
        assert record(client, game, {"type": "finish"}).status_code == 201

    first = listed(client, "?status=finished&limit=2")
    last = listed(client, f"?status=finished&limit=2&after={first['next']}")

    assert [line["id"] for line in first["items"]] == [g["id"] for g in finished[:2]]
    # Five active games, then the finished ones: the second finished is the list's 7th.
    assert first["next"] == "7"
    assert [line["id"] for line in last["items"]] == [finished[2]["id"]]
    assert last["next"] is None


@pytest.mark.parametrize(
    "query", ["status=foo", "status=", "idle_days=-1", "idle_days=x", "idle_days=36501"]
)
def test_a_bad_filter_is_a_422_problem(client, query):
    response = client.get(f"/api/v1/games?{query}", headers=ADMIN)

    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    assert response.json["code"] == "validation_error"


def test_the_list_needs_the_admin_token(client):
    created(client)

    assert client.get("/api/v1/games").status_code == 401


# -- the admin closes an abandoned game ---------------------------------------------------------


def test_the_admin_finishes_any_game_and_the_record_says_by_admin(client):
    game = created(client)

    response = record(client, game, {"type": "finish"}, ADMIN_TOKEN)

    assert response.status_code == 201, response.json
    assert response.json["type"] == "finish"
    banker = {"Authorization": f"Bearer {game['banker_token']}"}
    [last] = client.get(f"/api/v1/games/{game['id']}/transactions?after=3", headers=banker).json[
        "items"
    ]
    assert last["by"] == "admin"
    assert client.get(f"/api/v1/games/{game['id']}", headers=ADMIN).json["status"] == "finished"
    assert [line["status"] for line in listed(client)["items"]] == ["finished"]


@pytest.mark.parametrize(
    "body",
    [
        {"type": "payment", "from": "p1", "to": "bank", "amount": 1},
        {"type": "salary", "player": "p1"},
        {"type": "turn", "player": "p2"},
    ],
)
def test_the_admin_records_nothing_but_finish(client, body):
    game = created(client)

    response = record(client, game, body, ADMIN_TOKEN)

    assert response.status_code == 403
    assert response.content_type == "application/problem+json"
    assert response.json["code"] == "forbidden"
    assert client.get(f"/api/v1/games/{game['id']}", headers=ADMIN).json["last_seq"] == 3


@pytest.mark.parametrize(
    "path",
    [
        "",
        "/transactions",
        "/transactions/1",
        "/moves",
        "/ruleset",
        "/replay",
        "/verify",
        "/export",
        "/stats",
        "/fairplay",
        "/accounts/p1/statement",
        "/players/p1/liquidation",
    ],
)
def test_the_admin_reads_any_game(client, path):
    game = created(client)

    response = client.get(f"/api/v1/games/{game['id']}{path}", headers=ADMIN)

    assert response.status_code == 200, response.json


def test_the_admin_is_offered_finish_alone(client):
    game = created(client)

    moves = client.get(f"/api/v1/games/{game['id']}/moves", headers=ADMIN).json["moves"]

    assert [move["type"] for move in moves] == ["finish"]


def test_the_admin_token_finds_no_game_the_server_does_not_hold(client):
    response = client.get("/api/v1/games/00000000-0000-4000-8000-000000000000", headers=ADMIN)

    assert response.status_code == 404


def test_a_game_the_admin_finished_exports_and_imports_again(client):
    game = created(client)
    assert record(client, game, {"type": "finish"}, ADMIN_TOKEN).status_code == 201
    document = client.get(f"/api/v1/games/{game['id']}/export", headers=ADMIN).json

    again = client.post("/api/v1/games/import", json=document)

    assert again.status_code == 201, again.json
    assert again.json["status"] == "finished"


def test_the_list_reads_no_whole_game(app, client, monkeypatch):
    """Each game's activity comes from its last event alone, never from loading the game."""
    for n in range(3):
        created(client, name=f"Table {n}")
    bank = app.extensions[EXTENSION]

    def no_loading(*_: Any, **__: Any) -> Any:
        raise AssertionError("the list loaded a game")

    monkeypatch.setattr(bank.storage, "load_game", no_loading)
    monkeypatch.setattr(bank.storage.repository, "get", no_loading)
    lines = listed(client, "?idle_days=0")["items"]

    assert [line["transactions"] for line in lines] == [3, 3, 3]
