"""Creating, listing and reading games through HTTP."""

from __future__ import annotations

import pytest

NEW_GAME = {
    "name": "Friday night",
    "ruleset": "classic",
    "players": ["Ann", "Bob", "Cy"],
    "options": {"free_parking_pot": False},
}


def test_create_game_answers_201_with_the_game(client):
    response = client.post("/api/v1/games", json=NEW_GAME)

    assert response.status_code == 201
    assert response.json["name"] == "Friday night"
    assert response.json["ruleset"] == "classic"
    assert response.json["status"] == "active"


def test_create_game_pays_1500_to_each_player_out_of_the_bank(client):
    game = client.post("/api/v1/games", json=NEW_GAME).json

    assert game["balances"] == {"bank": -4500, "pot": 0, "p1": 1500, "p2": 1500, "p3": 1500}


def test_create_game_records_the_starting_cash_as_transactions_1_to_3(client):
    game = client.post("/api/v1/games", json=NEW_GAME).json

    assert game["last_seq"] == 3


def test_create_game_seats_the_players_in_order(client):
    game = client.post("/api/v1/games", json=NEW_GAME).json

    assert [(p["id"], p["name"], p["cash"]) for p in game["players"]] == [
        ("p1", "Ann", 1500),
        ("p2", "Bob", 1500),
        ("p3", "Cy", 1500),
    ]


def test_create_game_issues_a_banker_token_and_one_token_per_player(client):
    game = client.post("/api/v1/games", json=NEW_GAME).json

    tokens = [game["banker_token"], *game["tokens"].values()]
    assert sorted(game["tokens"]) == ["p1", "p2", "p3"]
    assert len(set(tokens)) == 4
    assert all(len(token) >= 22 for token in tokens)  # at least 128 bits in base64


def test_create_game_answers_location_etag_and_no_store(client):
    response = client.post("/api/v1/games", json=NEW_GAME)

    assert response.headers["Location"] == f"/api/v1/games/{response.json['id']}"
    assert response.headers["ETag"] == f'"{response.json["version"]}"'
    assert response.headers["Cache-Control"] == "no-store"


def test_create_game_with_every_deed_at_the_bank(client):
    game = client.post("/api/v1/games", json=NEW_GAME).json

    assert len(game["properties"]) == 28
    assert game["properties"]["boardwalk"] == {
        "owner": "bank",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }
    assert game["bank"] == {"houses": 32, "hotels": 12}


def test_create_game_strips_the_players_names(client):
    game = client.post("/api/v1/games", json={**NEW_GAME, "players": ["  Ann ", "Bob"]}).json

    assert [p["name"] for p in game["players"]] == ["Ann", "Bob"]


def test_create_game_refuses_a_blank_player_name(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "players": ["Ann", "   "]})

    assert response.status_code == 422
    assert "players.1" in response.json["errors"]


@pytest.mark.parametrize(
    ("players", "errors"),
    [
        pytest.param(
            ["Ann", "\u0410nn"],
            {"players": ['Names must not look alike: "Ann" and "\u0410nn" do (U+0410).']},
            id="Cyrillic A",
        ),
        pytest.param(
            ["Ann", "\uff21\uff4e\uff4e"],
            {
                "players": [
                    'Names must not look alike: "Ann" and "\uff21\uff4e\uff4e" do (U+FF21, U+FF4E).'
                ]
            },
            id="full-width",
        ),
        pytest.param(
            ["Ann", "Ann\u2800"],
            {"players.1": ["Must not contain invisible characters (U+2800)."]},
            id="U+2800",
        ),
        pytest.param(
            ["Ann", "A\u034fnn"],
            {"players.1": ["Must not contain invisible characters (U+034F)."]},
            id="U+034F",
        ),
    ],
)
def test_create_game_refuses_a_player_name_that_looks_like_another(client, players, errors):
    before = client.get("/api/v1/games").json["items"]

    response = client.post("/api/v1/games", json={**NEW_GAME, "players": players})

    assert response.status_code == 422
    assert response.json["errors"] == errors
    assert client.get("/api/v1/games").json["items"] == before


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "Anna"],
        ["\u042e\u043b\u044f", "\u042e\u043b\u0438\u044f"],  # Yulya and Yuliya, in Cyrillic
        ["\u042f\u043d", "Jan"],  # Yan in Cyrillic, and Jan
        ["Zo\u00eb", "Zoe"],
    ],
    ids=["Ann Anna", "Yulya Yuliya", "Yan Jan", "Zoe with and without diaeresis"],
)
def test_create_game_seats_players_whose_names_only_resemble_each_other(client, players):
    response = client.post("/api/v1/games", json={**NEW_GAME, "players": players})

    assert response.status_code == 201, response.json
    assert [p["name"] for p in response.json["players"]] == players


def test_create_game_refuses_nine_players(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "players": list("ABCDEFGHI")})

    assert response.status_code == 422
    assert "players" in response.json["errors"]


def test_create_game_refuses_one_player_in_a_classic_game(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "players": ["Ann"]})

    assert response.status_code == 422
    assert "players" in response.json["errors"]


def test_create_game_refuses_an_unknown_rule_set(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "ruleset": "monopoly-deal"})

    assert response.status_code == 422
    assert "ruleset" in response.json["errors"]


def test_create_game_refuses_an_option_the_rule_set_lacks(client):
    response = client.post("/api/v1/games", json={**NEW_GAME, "options": {"speed_die": True}})

    assert response.status_code == 422
    assert "options.speed_die" in response.json["errors"]


def test_create_game_refuses_a_list_as_an_option_value(client):
    response = client.post(
        "/api/v1/games", json={**NEW_GAME, "options": {"free_parking_pot": [True]}}
    )

    assert response.status_code == 422
    assert "options.free_parking_pot" in response.json["errors"]


def test_create_game_refuses_a_missing_name(client):
    body = {k: v for k, v in NEW_GAME.items() if k != "name"}

    response = client.post("/api/v1/games", json=body)

    assert response.status_code == 422
    assert response.json["errors"] == {"name": ["Missing data for required field."]}


def test_list_games_shows_the_games_activity_and_never_its_money(client, table):
    response = client.get("/api/v1/games")

    assert response.status_code == 200
    [listed] = response.json["items"]
    assert listed["id"] == table.id
    assert listed["name"] == "Friday night"
    assert listed["ruleset"] == "classic"
    assert listed["status"] == "active"
    assert set(listed) == {
        "id",
        "name",
        "ruleset",
        "status",
        "created",
        "last_activity",
        "transactions",
        "players",
    }


def test_get_game_shows_the_balances(table):
    response = table.get()

    assert response.status_code == 200
    assert response.json["balances"] == {
        "bank": -4500,
        "pot": 0,
        "p1": 1500,
        "p2": 1500,
        "p3": 1500,
    }


def test_get_game_never_shows_the_tokens(table):
    game = table.get().json

    assert "banker_token" not in game
    assert "tokens" not in game
    assert table.banker not in table.get().text


def test_get_game_carries_the_etag_of_its_version(table):
    response = table.get()

    assert response.headers["ETag"] == f'"{response.json["version"]}"'


def test_etag_changes_when_a_transaction_is_recorded(table):
    before = table.get().headers["ETag"]

    table.record({"type": "salary", "player": "p1"})

    assert table.get().headers["ETag"] != before


def test_get_game_at_seq_shows_the_balances_as_they_stood(table):
    table.record({"type": "salary", "player": "p1"})

    then = table.get("?seq=3").json
    now = table.get("?seq=4").json

    assert then["balances"]["p1"] == 1500
    assert then["last_seq"] == 3
    assert now["balances"]["p1"] == 1700


def test_get_game_at_seq_1_shows_only_the_first_starting_cash(table):
    game = table.get("?seq=1").json

    assert game["balances"] == {"bank": -1500, "pot": 0, "p1": 1500, "p2": 0, "p3": 0}


def test_get_game_at_a_seq_not_yet_recorded_is_not_found(table):
    response = table.get("?seq=4")

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_get_game_at_a_negative_seq_is_invalid(table):
    response = table.get("?seq=-1")

    assert response.status_code == 422
    assert "seq" in response.json["errors"]


def test_get_game_refuses_an_unknown_query_parameter(table):
    response = table.get("?sequence=2")

    assert response.status_code == 422
    assert response.json["errors"] == {"sequence": ["Unknown field."]}


def test_unknown_game_is_not_found(table, client):
    response = client.get(
        "/api/v1/games/00000000-0000-4000-8000-000000000000", headers=table.auth()
    )

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_malformed_game_id_is_not_found(table, client):
    response = client.get("/api/v1/games/not-a-uuid", headers=table.auth())

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_game_id_in_upper_case_is_the_same_game(table, client):
    response = client.get(f"/api/v1/games/{table.id.upper()}", headers=table.auth())

    assert response.status_code == 200
    assert response.json["id"] == table.id


def test_liquidation_itemises_buildings_and_mortgages(table):
    table.buy("p1", "park-place", "boardwalk")
    table.record({"type": "build", "property": "boardwalk"})

    response = table.get("/players/p1/liquidation")

    assert response.status_code == 200
    # Cash 1500 - 350 - 400 - 200 = 550; the house sells for 100, the deeds mortgage for
    # 175 (Park Place) and 200 (Boardwalk).
    assert response.json["cash"] == 550
    assert response.json["buildings"] == [
        {"property": "boardwalk", "houses": 1, "hotel": False, "amount": 100}
    ]
    assert sorted((m["property"], m["amount"]) for m in response.json["mortgages"]) == [
        ("boardwalk", 200),
        ("park-place", 175),
    ]
    assert response.json["can_raise"] == 475
    assert response.json["total"] == 1025


def test_liquidation_of_an_unknown_player_is_not_found(table):
    response = table.get("/players/p9/liquidation")

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_liquidation_carries_the_games_etag(table):
    version = table.state()["version"]

    assert table.get("/players/p1/liquidation").headers["ETag"] == f'"{version}"'


def test_transaction_post_etag_is_the_version_right_after_it(table):
    response = table.post({"type": "salary", "player": "p1"})
    table.record({"type": "salary", "player": "p2"})  # the game moves on
    assert response.headers["ETag"] != table.get().headers["ETag"]
    with_it = table.get(f"?seq={response.json['seq']}")
    assert response.headers["ETag"] == with_it.headers["ETag"]


@pytest.mark.parametrize("query", ["dry_run=true", "seq=1", "anything=1"])
def test_creating_a_game_refuses_a_query_parameter_and_creates_nothing(client, query) -> None:
    # API.md, v1.2 "Corrections": POST /api/v1/games knows no query parameter; `dry_run` is
    # a transaction's, and a game created "as a dry run" was a real one.
    body = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob"]}
    response = client.post(f"/api/v1/games?{query}", json=body)
    assert response.status_code == 422
    assert response.json["code"] == "validation_error"
    assert list(response.json["errors"]) == [query.split("=")[0]]
    assert client.get("/api/v1/games").json["items"] == []


def test_importing_a_game_refuses_a_query_parameter_and_imports_nothing(client, table) -> None:
    document = client.get(table.url + "/export", headers=table.auth()).json
    response = client.post("/api/v1/games/import?dry_run=true", json=document)
    assert response.status_code == 422
    assert response.json["code"] == "validation_error"
    assert [g["id"] for g in client.get("/api/v1/games").json["items"]] == [table.id]
