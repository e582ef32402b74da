"""A game to a clock carries ``ends_at`` (API.md, "Timed games keep their clock"): the timed
game (docs/rules.md section 2: "the players agree an end time"; 60 minutes unless they give
``options.minutes``), or any classic game created with ``options.minutes``."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest


def created(client, **body):
    response = client.post(
        "/api/v1/games", json={"name": "clock", "players": ["Ann", "Bob"], **body}
    )
    assert response.status_code == 201, response.json
    return response.json


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_timed_game_ends_an_hour_after_it_starts_by_default(client):
    game = created(client, ruleset="timed")

    assert game["options"]["minutes"] == 60
    assert at(game["ends_at"]) - at(game["created"]) == timedelta(minutes=60)


def test_the_agreed_minutes_set_the_end(client):
    game = created(client, ruleset="timed", options={"minutes": 90})

    assert at(game["ends_at"]) - at(game["created"]) == timedelta(minutes=90)


def test_a_classic_game_to_a_clock_carries_its_end_everywhere(client):
    game = created(client, ruleset="classic", options={"minutes": 45})
    auth = {"Authorization": f"Bearer {game['tokens']['p2']}"}

    state = client.get(f"/api/v1/games/{game['id']}", headers=auth).json

    assert state["ends_at"] == game["ends_at"]
    assert at(state["ends_at"]) - at(state["created"]) == timedelta(minutes=45)


def test_a_classic_game_has_no_clock_unless_asked(client):
    game = created(client, ruleset="classic")

    assert "ends_at" not in game
    assert "minutes" not in game["options"]


@pytest.mark.parametrize("minutes", [0, -5, 24 * 60 + 1, 1.5, "60", True])
def test_minutes_outside_a_day_are_refused(client, minutes):
    response = client.post(
        "/api/v1/games",
        json={
            "name": "c",
            "ruleset": "timed",
            "players": ["A", "B"],
            "options": {"minutes": minutes},
        },
    )

    assert response.status_code == 422
    assert "options.minutes" in response.json["errors"]


def test_finish_is_accepted_before_the_clock_runs_out(client):
    game = created(client, ruleset="timed")
    auth = {"Authorization": f"Bearer {game['banker_token']}"}

    response = client.post(
        f"/api/v1/games/{game['id']}/transactions", json={"type": "finish"}, headers=auth
    )

    assert response.status_code == 201
    assert response.json["basis"]["standings"]


def test_an_imported_game_keeps_its_clock(client):
    game = created(client, ruleset="timed", options={"minutes": 30})
    auth = {"Authorization": f"Bearer {game['banker_token']}"}
    document = client.get(f"/api/v1/games/{game['id']}/export", headers=auth).json

    imported = client.post("/api/v1/games/import", json=document)

    assert imported.status_code == 201, imported.json
    assert imported.json["ends_at"] == game["ends_at"]
