"""A rule set as the server answers it is taken back as a ``ruleset_document`` under a name of
its own, with nothing else changed (API.md v1.2, Corrections).

In memory: the document is kept in the game's first event, which every store keeps as the same
encoded bytes; what these tests check is the schema and the ledger's check of the document.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from ledger.ruleset import BUILT_IN

# A box of one's own: classic with a 45-minute clock, no limit to houses, the currency in two
# languages and a deed's name in Polish.
KITCHEN_CLOCK: dict[str, Any] = {
    "name": "kitchen-clock",
    "extends": "classic",
    "currency": {"en": "thousand zloty", "pl": "tys. zł"},
    "parameters": {"houses": None},
    "options": {"minutes": {"type": "minutes", "default": 45, "description": "Home rules."}},
    "names": {"pl": {"boardwalk": "Aleje Ujazdowskie"}},
}


def game_on(client: FlaskClient, ruleset: str, document: Any = None) -> dict[str, Any]:
    """A new game of two on a rule set (built in, or the document given); its answer."""
    body = {"name": "Round trip", "ruleset": ruleset, "players": ["Ann", "Bob"]}
    if document is not None:
        body["ruleset_document"] = document
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.json
    return created.json  # type: ignore[no-any-return]


def ruleset_of(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """``GET /api/v1/games/{game}/ruleset`` with the game's banker token."""
    answer = client.get(
        f"/api/v1/games/{game['id']}/ruleset",
        headers={"Authorization": f"Bearer {game['banker_token']}"},
    )
    assert answer.status_code == 200, answer.json
    return answer.json  # type: ignore[no-any-return]


def sent_back(client: FlaskClient, answer: dict[str, Any], name: str) -> dict[str, Any]:
    """A game created with ``answer`` as its document, only renamed; its rule set's answer."""
    return ruleset_of(client, game_on(client, name, {**answer, "name": name}))


def elapsed(start: str, end: str) -> timedelta:
    """The time between two RFC 3339 UTC times."""
    return datetime.fromisoformat(end) - datetime.fromisoformat(start)


def test_every_rule_set_the_server_lists_is_built_in(client):
    listed = client.get("/api/v1/rulesets").json["items"]

    assert [item["name"] for item in listed] == list(BUILT_IN)


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_built_in_rule_set_is_taken_back_under_a_name_of_its_own(client, name):
    answer = client.get(f"/api/v1/rulesets/{name}").json

    again = sent_back(client, answer, f"my-{name}")

    assert again == {**answer, "name": f"my-{name}"}


def test_a_games_rule_set_is_taken_back_under_a_name_of_its_own(client, table):
    answer = table.get("/ruleset").json

    assert sent_back(client, answer, "our-classic") == {**answer, "name": "our-classic"}


def test_the_rule_set_of_a_game_of_ones_own_box_is_taken_back_under_another_name(client):
    answer = ruleset_of(client, game_on(client, "kitchen-clock", KITCHEN_CLOCK))

    again = sent_back(client, answer, "kitchen-clock-2")

    assert again == {**answer, "name": "kitchen-clock-2"}
    assert again["options"]["minutes"]["default"] == 45
    assert again["parameters"]["houses"] is None


def test_a_timed_rule_set_taken_back_plays_as_the_timed_game(client):
    # docs/rules.md, "Timed game": two deeds dealt to each player, a clock of 60 minutes.
    answer = client.get("/api/v1/rulesets/timed").json

    game = game_on(client, "my-timed", {**answer, "name": "my-timed"})

    owners = [deed["owner"] for deed in game["properties"].values()]
    assert (owners.count("p1"), owners.count("p2")) == (2, 2)
    assert game["options"]["minutes"] == 60
    assert elapsed(game["created"], game["ends_at"]) == timedelta(minutes=60)


def created_with(client, answer):
    """A game created with a rule set's answer, named "mine", as its ``ruleset_document``."""
    return client.post(
        "/api/v1/games",
        json={
            "name": "Round trip",
            "ruleset": "mine",
            "players": ["Ann", "Bob"],
            "ruleset_document": {**answer, "name": "mine"},
        },
    )


def test_a_mortgage_value_other_than_half_the_price_is_refused(client):
    answer = client.get("/api/v1/rulesets/classic").json
    # Boardwalk, the last deed: price 400, mortgage value 200 (docs/rules.md).
    answer["deeds"][-1]["mortgage_value"] = 150

    created = created_with(client, answer)

    assert created.status_code == 422
    assert created.json["errors"] == {
        "ruleset_document": ["deeds[27].mortgage_value: half the price (200)"]
    }


def test_each_deed_says_whether_it_carries_buildings_and_is_taken_back_as_it_says(client):
    """A street or a plot carries houses and hotels, a railroad, a utility or a central plot
    none (docs/rules.md, "Building"); the console reads it here, never works it out."""
    answer = client.get("/api/v1/rulesets/classic").json
    by_id = {deed["id"]: deed for deed in answer["deeds"]}
    assert [
        by_id[d]["buildable"] for d in ("boardwalk", "reading-railroad", "electric-company")
    ] == [
        True,
        False,
        False,
    ]
    elite = client.get("/api/v1/rulesets/millionaire-elite").json["deeds"]
    assert {d["kind"] for d in elite if d["buildable"]} == {"plot"}
    assert {d["kind"] for d in elite if not d["buildable"]} == {"central"}

    answer["deeds"][-1]["buildable"] = False  # Boardwalk, a street
    created = created_with(client, answer)
    assert created.status_code == 422
    assert created.json["errors"] == {
        "ruleset_document": [
            "deeds[27].buildable: true for a street (streets and plots carry buildings)"
        ]
    }
