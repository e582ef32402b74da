"""The short and timed games and IOUs through HTTP (docs/rules.md, short/timed game and 3; API.md:
Games,
Transactions)."""

from __future__ import annotations

from typing import Any

import pytest
from refusal_checks import checked

GAMES = "/api/v1/games"

# Ann (p1) the dark-blue group: 1500 - (350 + 400) = 750 cash.
# Bob (p2) two railroads: 1500 - 2 x 200 = 1100. Cy (p3) the utilities: 1500 - 2 x 150 = 1200.
DEALT = {
    "p1": ["park-place", "boardwalk"],
    "p2": ["reading-railroad", "short-line"],
    "p3": ["electric-company", "water-works"],
}


def new_game(
    client: Any,
    ruleset: str = "short",
    players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
    **fields: Any,
) -> Any:
    """POST a new game; the response."""
    body = {"name": "Friday night", "ruleset": ruleset, "players": list(players), **fields}
    return client.post(GAMES, json=body)


class Game:
    """A game created through HTTP and the banker's calls on it."""

    def __init__(self, client: Any, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.url = f"{GAMES}/{created['id']}"
        self.headers = {"Authorization": f"Bearer {created['banker_token']}"}

    def post(self, body: dict[str, Any]) -> Any:
        return self.client.post(self.url + "/transactions", json=body, headers=self.headers)

    def record(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.post(body)
        assert response.status_code == 201, response.json
        return response.json  # type: ignore[no-any-return]

    def refusal(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.post(body)
        assert response.status_code == 409, response.json
        assert response.mimetype == "application/problem+json"
        return checked(response.json)

    def state(self) -> dict[str, Any]:
        response = self.client.get(self.url, headers=self.headers)
        assert response.status_code == 200, response.json
        return response.json  # type: ignore[no-any-return]

    def transactions(self, **query: str) -> list[dict[str, Any]]:
        response = self.client.get(
            self.url + "/transactions", query_string=query, headers=self.headers
        )
        assert response.status_code == 200, response.json
        return response.json["items"]  # type: ignore[no-any-return]


def created(client: Any, ruleset: str = "short", **fields: Any) -> Game:
    response = new_game(client, ruleset, **fields)
    assert response.status_code == 201, response.json
    return Game(client, response.json)


@pytest.fixture
def loans(client: Any) -> Game:
    """A classic game of Ann, Bob and Cy with player loans."""
    return created(client, "classic", options={"player_loans": True})


# -- creating short and timed games ---------------------------------------------------------


def test_create_short_game_with_dealt_answers_201(client: Any) -> None:
    response = new_game(client, dealt=DEALT)

    assert response.status_code == 201
    assert response.json["ruleset"] == "short"


def test_create_short_game_records_starting_cash_and_deals_as_2_x_players_transactions(
    client: Any,
) -> None:
    game = new_game(client, dealt=DEALT).json

    assert game["last_seq"] == 6


def test_create_short_game_charges_the_dealt_deeds_at_their_printed_prices(client: Any) -> None:
    game = new_game(client, dealt=DEALT).json

    # Boardwalk 400 + Park Place 350: 1500 - 750. The Bank: -4500 + 750 + 400 + 300.
    assert game["balances"] == {"bank": -3050, "pot": 0, "p1": 750, "p2": 1100, "p3": 1200}


def test_create_short_game_hands_the_dealt_deeds_to_their_players(client: Any) -> None:
    game = new_game(client, dealt=DEALT).json

    assert game["properties"]["boardwalk"] == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }
    assert game["properties"]["water-works"]["owner"] == "p3"


def test_create_timed_game_with_dealt_answers_201(client: Any) -> None:
    response = new_game(client, "timed", dealt=DEALT)

    assert response.status_code == 201
    assert (response.json["last_seq"], response.json["balances"]["p1"]) == (6, 750)


def test_create_short_game_without_dealt_deals_two_deeds_each_at_random(client: Any) -> None:
    game = new_game(client, players=("Ann", "Bob", "Cy", "Di")).json

    owners = sorted(p["owner"] for p in game["properties"].values() if p["owner"] != "bank")
    assert owners == ["p1", "p1", "p2", "p2", "p3", "p3", "p4", "p4"]
    assert game["last_seq"] == 8


def test_random_deal_is_listed_as_deal_transactions(client: Any) -> None:
    game = created(client)

    deals = game.transactions(type="deal")
    assert [(t["seq"], t["request"]["player"]) for t in deals] == [(4, "p1"), (5, "p2"), (6, "p3")]
    for deal in deals:
        assert len(set(deal["request"]["properties"])) == 2


def test_dealt_with_three_deeds_is_a_validation_error_naming_the_player(client: Any) -> None:
    dealt = {**DEALT, "p1": ["park-place", "boardwalk", "baltic-avenue"]}
    response = new_game(client, dealt=dealt)

    assert response.status_code == 422
    assert response.json["code"] == "validation_error"
    assert "dealt.p1" in response.json["errors"]


def test_dealt_leaving_out_a_player_is_a_validation_error(client: Any) -> None:
    response = new_game(client, dealt={"p1": DEALT["p1"], "p2": DEALT["p2"]})

    assert response.status_code == 422
    assert any(field.startswith("dealt") for field in response.json["errors"])


def test_dealt_in_a_classic_game_is_a_validation_error(client: Any) -> None:
    response = new_game(client, "classic", dealt=DEALT)

    assert response.status_code == 422
    assert "dealt" in response.json["errors"]


def test_refused_game_is_not_listed(client: Any) -> None:
    response = new_game(client, dealt={**DEALT, "p1": ["boardwalk", "boardwalk"]})

    assert response.status_code == 422
    assert client.get(GAMES).json["items"] == []


def test_unknown_option_is_a_validation_error_naming_it(client: Any) -> None:
    response = new_game(client, "classic", options={"free_parking_jackpot": True})

    assert response.status_code == 422
    assert "options.free_parking_jackpot" in response.json["errors"]


# -- the short game through HTTP ------------------------------------------------------------


def test_short_game_refuses_a_fourth_house_with_building_limit(client: Any) -> None:
    game = created(client, dealt=DEALT)
    game.record({"type": "card", "player": "p1", "effect": "collect", "amount": 1000})
    for _ in range(3):
        game.record(
            {"type": "build", "orders": [{"property": "park-place"}, {"property": "boardwalk"}]}
        )

    assert game.refusal({"type": "build", "property": "boardwalk"})["code"] == "building_limit"


def test_short_game_finishes_at_the_second_bankruptcy(client: Any) -> None:
    game = created(
        client,
        players=("Ann", "Bob", "Cy", "Di"),
        dealt={**DEALT, "p4": ["pennsylvania-railroad", "b-o-railroad"]},
    )
    game.record({"type": "bankruptcy", "debtor": "p3", "creditor": "bank"})
    game.record({"type": "bankruptcy", "debtor": "p4", "creditor": "p2"})

    state = game.state()
    assert state["status"] == "finished"
    # Bob: 1100 + Di's 1100 + four railroads at 200. Ann: 750 + 750 of deeds.
    assert state["standings"] == [
        {"player": "p2", "score": 3000, "rank": 1},
        {"player": "p1", "score": 1500, "rank": 2},
        {"player": "p4", "score": 0, "rank": 3},
        {"player": "p3", "score": 0, "rank": 4},
    ]
    assert game.refusal({"type": "salary", "player": "p1"})["code"] == "game_finished"


# -- IOUs through HTTP ------------------------------------------------------------------------


def test_iou_answers_201_with_its_id_and_no_postings(loans: Game) -> None:
    response = loans.post({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})

    assert response.status_code == 201
    assert response.json["postings"] == []
    assert response.json["basis"]["iou"]


def test_state_shows_the_iou_with_its_five_fields(loans: Game) -> None:
    txn = loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})

    assert loans.state()["ious"] == [
        {
            "id": txn["basis"]["iou"],
            "debtor": "p1",
            "holder": "p2",
            "amount": 300,
            "outstanding": 300,
        }
    ]


def test_state_shows_the_iou_in_both_net_worths(loans: Game) -> None:
    loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})

    assert [p["net_worth"] for p in loans.state()["players"]] == [1200, 1800, 1500]


def test_iou_repay_answers_201_and_moves_the_cash(loans: Game) -> None:
    iou = loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})
    txn = loans.record({"type": "iou_repay", "iou": iou["basis"]["iou"], "amount": 100})

    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 100}]
    assert loans.state()["ious"][0]["outstanding"] == 200


def test_iou_repay_beyond_what_is_outstanding_is_a_validation_error(loans: Game) -> None:
    iou = loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})
    response = loans.post({"type": "iou_repay", "iou": iou["basis"]["iou"], "amount": 301})

    assert response.status_code == 422
    assert "amount" in response.json["errors"]


def test_iou_transfer_answers_201_and_changes_the_holder(loans: Game) -> None:
    iou = loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})
    loans.record({"type": "iou_transfer", "iou": iou["basis"]["iou"], "to": "p3"})

    assert loans.state()["ious"][0]["holder"] == "p3"


def test_iou_forgive_answers_201_and_leaves_nothing_outstanding(loans: Game) -> None:
    iou = loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})
    loans.record({"type": "iou_forgive", "iou": iou["basis"]["iou"]})

    assert loans.state()["ious"][0]["outstanding"] == 0


def test_iou_repay_after_forgiving_answers_409_iou_settled(loans: Game) -> None:
    iou = loans.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})
    loans.record({"type": "iou_forgive", "iou": iou["basis"]["iou"]})

    problem = loans.refusal({"type": "iou_repay", "iou": iou["basis"]["iou"], "amount": 100})
    assert problem["code"] == "iou_settled"


def test_unknown_iou_answers_409_unknown_iou(loans: Game) -> None:
    problem = loans.refusal({"type": "iou_forgive", "iou": "iou-99"})

    assert problem["code"] == "unknown_iou"


def test_iou_without_player_loans_answers_409_option_disabled(client: Any) -> None:
    game = created(client, "classic")

    problem = game.refusal({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 300})
    assert problem["code"] == "option_disabled"


# -- rule sets ----------------------------------------------------------------------------------


def test_rule_sets_list_classic_short_and_timed(client: Any) -> None:
    response = client.get("/api/v1/rulesets")

    assert response.status_code == 200
    assert {"classic", "short", "timed"} <= {rs["name"] for rs in response.json["items"]}


def test_short_rule_set_allows_3_houses_before_a_hotel(client: Any) -> None:
    short = client.get("/api/v1/rulesets/short").json

    assert len(short["deeds"]) == 28
    assert (short["parameters"]["max_houses"], short["parameters"]["houses_before_hotel"]) == (3, 3)
