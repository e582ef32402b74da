"""Bearer tokens: the banker does everything on its game, a player reads it and pays."""

from __future__ import annotations


def test_missing_token_is_unauthorized(table, client):
    response = client.get(table.url)

    assert response.status_code == 401
    assert response.json["code"] == "unauthorized"
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_unknown_token_is_unauthorized(table, client):
    response = client.get(table.url, headers={"Authorization": "Bearer not-a-token"})

    assert response.status_code == 401
    assert response.json["code"] == "unauthorized"


def test_token_in_another_scheme_is_unauthorized(table, client):
    response = client.get(table.url, headers={"Authorization": f"Basic {table.banker}"})

    assert response.status_code == 401


def test_token_of_another_game_is_forbidden(table, new_game, client):
    other = new_game()

    response = client.get(table.url, headers=other.auth())

    assert response.status_code == 403
    assert response.json["code"] == "forbidden"


def test_token_of_another_game_cannot_record(table, new_game):
    other = new_game()

    response = table.post({"type": "salary", "player": "p1"}, token=other.banker)

    assert response.status_code == 403
    assert table.state()["last_seq"] == 3


def test_missing_token_is_checked_before_the_body(table, client):
    response = client.post(table.url + "/transactions", json={"type": "nonsense"})

    assert response.status_code == 401


def test_player_may_read_the_game(table):
    response = table.get(token=table.tokens["p2"])

    assert response.status_code == 200
    assert response.json["balances"]["p2"] == 1500


def test_player_may_read_the_transactions(table):
    response = table.get("/transactions", token=table.tokens["p2"])

    assert response.status_code == 200


def test_player_may_pay_out_of_his_own_account(table):
    response = table.post(
        {"type": "payment", "from": "p1", "to": "p2", "amount": 50}, token=table.tokens["p1"]
    )

    assert response.status_code == 201
    assert response.json["by"] == "p1"


def test_player_may_record_rent_he_pays(table):
    table.buy("p1", "boardwalk")

    response = table.post(
        {"type": "rent", "payer": "p2", "property": "boardwalk"}, token=table.tokens["p2"]
    )

    assert response.status_code == 201
    assert response.json["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_player_may_not_record_a_payment_from_someone_else(table):
    response = table.post(
        {"type": "payment", "from": "p2", "to": "p1", "amount": 50}, token=table.tokens["p1"]
    )

    assert response.status_code == 403
    assert response.json["code"] == "forbidden"
    assert table.state()["last_seq"] == 3


def test_player_may_not_pay_himself_a_salary(table):
    response = table.post({"type": "salary", "player": "p1"}, token=table.tokens["p1"])

    assert response.status_code == 403


def test_games_can_be_created_and_listed_without_a_token(client):
    created = client.post(
        "/api/v1/games", json={"name": "x", "ruleset": "classic", "players": ["A", "B"]}
    )

    assert created.status_code == 201
    assert client.get("/api/v1/games").status_code == 200


def test_game_list_shows_no_token(table, client):
    text = client.get("/api/v1/games").text

    assert table.banker not in text
    assert all(token not in text for token in table.tokens.values())


def test_every_answer_to_a_request_with_a_token_is_kept_by_no_cache(table) -> None:
    # API.md, v1.2 "Shared devices and caches": Cache-Control: no-store on every answer to a
    # request with a token, whatever it answers.
    player = table.tokens["p2"]
    answers = {
        "the game": table.get(),
        "a player's view": table.get(token=player),
        "the log": table.get("/transactions"),
        "a statement": table.get("/accounts/p1/statement"),
        "a write": table.post({"type": "salary", "player": "p1"}),
        "a refusal": table.post({"type": "unmortgage", "property": "boardwalk"}),
        "a bad request": table.post({"type": "salary"}),
        "a seq not there": table.get("/transactions/999"),
        "a wrong token": table.get(token="not-a-token"),
    }
    statuses = {name: answer.status_code for name, answer in answers.items()}
    assert statuses == {
        "the game": 200,
        "a player's view": 200,
        "the log": 200,
        "a statement": 200,
        "a write": 201,
        "a refusal": 409,
        "a bad request": 422,
        "a seq not there": 404,
        "a wrong token": 401,
    }
    assert {name: a.headers.get("Cache-Control") for name, a in answers.items()} == dict.fromkeys(
        answers, "no-store"
    )
