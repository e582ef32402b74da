"""Millionaire Elite through HTTP (docs/rules.md, Millionaire Elite; API.md: Games, Millionaire
Elite transactions,
Errors, Audit and replay)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from refusal_checks import checked

GAMES = "/api/v1/games"


def create(client: FlaskClient, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Any:
    """POST a new Millionaire Elite game; the response."""
    body = {"name": "Friday night", "ruleset": "millionaire-elite", "players": list(players)}
    return client.post(GAMES, json=body)


def json_of(response: Any) -> dict[str, Any]:
    """A response's JSON object."""
    data = response.json
    assert isinstance(data, dict), data
    return data


class Game:
    """An elite game created through HTTP and the banker's calls on it."""

    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.url = f"{GAMES}/{created['id']}"
        self.headers = {"Authorization": f"Bearer {created['banker_token']}"}

    def post(self, body: dict[str, Any]) -> Any:
        return self.client.post(self.url + "/transactions", json=body, headers=self.headers)

    def record(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.post(body)
        assert response.status_code == 201, response.json
        return json_of(response)

    def refusal(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.post(body)
        assert response.status_code == 409, response.json
        assert response.mimetype == "application/problem+json"
        return checked(json_of(response))

    def invalid(self, body: dict[str, Any]) -> dict[str, list[str]]:
        response = self.post(body)
        assert response.status_code == 422, response.json
        assert response.mimetype == "application/problem+json"
        problem = json_of(response)
        assert problem["code"] == "validation_error"
        errors: dict[str, list[str]] = problem["errors"]
        return errors

    def state(self) -> dict[str, Any]:
        response = self.client.get(self.url, headers=self.headers)
        assert response.status_code == 200, response.json
        return json_of(response)

    def player(self, pid: str) -> dict[str, Any]:
        return next(p for p in self.state()["players"] if p["id"] == pid)


@pytest.fixture
def game(client: FlaskClient) -> Game:
    """Ann (p1), Bob (p2) and Cy (p3), 2000 each; 200 in the kitty."""
    response = create(client)
    assert response.status_code == 201, response.json
    return Game(client, json_of(response))


# -- creating a game -------------------------------------------------------------------------


def test_an_elite_game_starts_with_2000_each_and_200_in_the_kitty(client: FlaskClient) -> None:
    response = create(client)
    assert response.status_code == 201, response.json
    created = json_of(response)
    assert created["ruleset"] == "millionaire-elite"
    assert created["balances"] == {
        "bank": -6200,
        "pot": 200,
        "p1": 2000,
        "p2": 2000,
        "p3": 2000,
    }


def test_an_elite_game_shows_the_share_price_of_100(game: Game) -> None:
    assert game.state()["share_price"] == 100


def test_an_elite_game_shows_each_players_shares_policies_and_exemption(game: Game) -> None:
    players = game.state()["players"]
    assert [(p["shares"], p["policies"], p["tax_exempt"]) for p in players] == [(0, [], False)] * 3


def test_an_elite_game_shows_its_entered_figures_while_none_is_entered(game: Game) -> None:
    # API.md v1.2 (issue 21): the console draws an Elite table from the game alone.
    assert game.state()["entered_figures"] == {}


def test_an_entered_plot_price_shows_in_the_state(game: Game) -> None:
    game.record({"type": "buy", "player": "p1", "property": "b1-1", "price": 200})
    assert game.state()["entered_figures"] == {"b1-1": {"price": 200}}


def test_a_classic_game_shows_no_entered_figures(client: FlaskClient) -> None:
    body = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", "Bob"]}
    created = json_of(client.post(GAMES, json=body))
    assert "entered_figures" not in created
    assert "share_price" not in created


def test_an_elite_game_has_no_limit_on_buildings(game: Game) -> None:
    assert game.state()["bank"] == {"houses": None, "hotels": None}


def test_seven_players_are_refused_naming_players(client: FlaskClient) -> None:
    response = create(client, players=("A", "B", "C", "D", "E", "F", "G"))
    assert response.status_code == 422, response.json
    problem = json_of(response)
    assert problem["code"] == "validation_error"
    assert "players" in problem["errors"]


# -- elite transactions ----------------------------------------------------------------------


def test_shares_bought_show_on_the_player(game: Game) -> None:
    txn = game.record({"type": "shares", "player": "p1", "action": "buy", "count": 5})
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 500}]
    assert (game.player("p1")["shares"], game.player("p1")["cash"]) == (5, 1500)


def test_liquidation_counts_the_shares_at_the_current_price(game: Game) -> None:
    # docs/rules.md, "Shares and the exchange": shares count in what a debtor can raise at the
    # current price. Ann starts with 2000, buys 5 at 100 (1500 left), the price goes to 130.
    game.record({"type": "shares", "player": "p1", "action": "buy", "count": 5})
    game.record({"type": "share_price", "direction": "up", "points": 3})
    response = game.client.get(game.url + "/players/p1/liquidation", headers=game.headers)
    assert response.status_code == 200
    assert json_of(response) == {
        "player": "p1", "cash": 1500, "buildings": [], "mortgages": [],
        "shares": 650, "can_raise": 650, "total": 2150,
    }  # fmt: skip


def test_a_price_move_shows_in_the_state(game: Game) -> None:
    game.record({"type": "share_price", "direction": "up", "points": 3})
    assert game.state()["share_price"] == 130


def test_round_income_adds_20_percent_of_the_shares_value(game: Game) -> None:
    game.record({"type": "shares", "player": "p1", "action": "buy", "count": 5})
    game.record({"type": "share_price", "direction": "up", "points": 3})
    txn = game.record({"type": "salary", "player": "p1"})
    # 200 + 20 % of 5 x 130.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 330}]


def test_round_tax_is_10_a_share_plus_the_entered_plot_tax(game: Game) -> None:
    game.record({"type": "shares", "player": "p1", "action": "buy", "count": 5})
    txn = game.record({"type": "round_tax", "player": "p1", "plot_tax": 40})
    # 5 x 10 + 40.
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 90}]


def test_a_policy_bought_shows_on_the_player(game: Game) -> None:
    txn = game.record({"type": "insurance", "player": "p1", "action": "buy", "policy": "orange"})
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 300}]
    assert game.player("p1")["policies"] == ["orange"]


def test_a_tax_exemption_shows_on_the_player(game: Game) -> None:
    game.record({"type": "tax_exemption", "player": "p1"})
    assert game.player("p1")["tax_exempt"] is True


def test_a_lost_stake_goes_into_the_kitty(game: Game) -> None:
    game.record({"type": "jackpot", "player": "p1", "stake": 50, "payout": 0})
    assert game.state()["balances"]["pot"] == 250


def test_a_branch_plot_is_bought_at_the_entered_price(game: Game) -> None:
    txn = game.record({"type": "buy", "player": "p1", "property": "b1-1", "price": 200})
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    assert txn["basis"]["entered"] is True


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "share_price", "direction": "up", "points": 7}, "points"),
        ({"type": "insurance", "player": "p1", "action": "buy", "policy": "purple"}, "policy"),
        ({"type": "shares", "player": "p1", "action": "buy", "count": 0}, "count"),
    ],
)
def test_schemas_refuse_bad_elite_input_naming_the_field(
    game: Game, body: dict[str, Any], field: str
) -> None:
    before = game.state()["last_seq"]
    assert field in game.invalid(body)
    assert game.state()["last_seq"] == before


def test_a_branch_plot_without_its_price_is_refused_naming_price(game: Game) -> None:
    errors = game.invalid({"type": "buy", "player": "p1", "property": "b1-1"})
    assert "price" in errors


def test_a_bankruptcy_without_what_is_owed_is_refused_naming_owed(game: Game) -> None:
    errors = game.invalid({"type": "bankruptcy", "debtor": "p1", "creditor": "p2"})
    assert "owed" in errors


def test_a_classic_tax_is_refused_naming_type(game: Game) -> None:
    errors = game.invalid({"type": "tax", "player": "p1", "tax": "luxury"})
    assert "type" in errors


def test_the_bank_sells_no_shares_at_price_0(game: Game) -> None:
    game.record({"type": "share_price", "direction": "down", "points": 6})  # 40
    game.record({"type": "share_price", "direction": "down", "points": 4})  # 0
    problem = game.refusal({"type": "shares", "player": "p1", "action": "buy", "count": 1})
    assert problem["code"] == "shares_unavailable"


def test_nothing_may_be_built_on_a_central_plot(game: Game) -> None:
    game.record({"type": "buy", "player": "p2", "property": "central-1"})
    problem = game.refusal({"type": "build", "property": "central-1", "price": 100})
    assert problem["code"] == "not_buildable"


def test_a_policy_not_held_cannot_be_used(game: Game) -> None:
    problem = game.refusal({"type": "insurance", "player": "p1", "action": "use", "policy": "red"})
    assert problem["code"] == "no_policy"


# -- export and import -----------------------------------------------------------------------


def test_an_elite_game_round_trips_through_export_and_import(game: Game) -> None:
    game.record({"type": "shares", "player": "p1", "action": "buy", "count": 5})
    game.record({"type": "share_price", "direction": "up", "points": 3})
    game.record({"type": "insurance", "player": "p2", "action": "buy", "policy": "green"})
    game.record({"type": "buy", "player": "p3", "property": "b1-1", "price": 200})
    game.record({"type": "jackpot", "player": "p3", "stake": 50, "payout": 0})
    exported = game.client.get(game.url + "/export", headers=game.headers)
    assert exported.status_code == 200, exported.json
    imported = game.client.post(f"{GAMES}/import", json=exported.json)
    assert imported.status_code == 201, imported.json
    original, copy = game.state(), json_of(imported)
    assert copy["head"] == original["head"]
    assert copy["balances"] == original["balances"]


# -- a plot won at an auction from the Bank ----------------------------------------------------


def test_a_plot_won_at_an_auction_counts_at_its_bid_in_net_worth_and_standings(
    client: FlaskClient,
) -> None:
    """docs/rules.md, "Net worth of a plot won at auction": 2000 each; Ann wins b1-1 for 100."""
    response = create(client, ("Ann", "Bob"))
    assert response.status_code == 201, response.json
    duel = Game(client, json_of(response))

    duel.record({"type": "auction", "property": "b1-1", "winner": "p1", "bid": 100})

    ann = duel.player("p1")
    assert (ann["cash"], ann["net_worth"]) == (1900, 2000)
    assert duel.state()["paid_at_auction"] == {"b1-1": 100}
    duel.record({"type": "jackpot", "player": "p2", "stake": 50, "payout": 0})  # Bob 1950
    duel.record({"type": "finish"})
    assert duel.state()["standings"] == [
        {"player": "p1", "score": 2000, "rank": 1},
        {"player": "p2", "score": 1950, "rank": 2},
    ]
