"""``GET /api/v1/games/{game}/ruleset``: the game's own rule set, for any token of the game
(API.md, "A game's own rule set")."""

from __future__ import annotations


def test_a_classic_game_serves_the_classic_rule_set_as_the_rulesets_route_does(client, table):
    mine = table.get("/ruleset")

    assert mine.status_code == 200
    assert mine.json == client.get("/api/v1/rulesets/classic").json
    boardwalk = next(d for d in mine.json["deeds"] if d["id"] == "boardwalk")
    # Boardwalk: price 400, mortgage value 200 (docs/rules.md, "The classic board").
    assert (boardwalk["price"], boardwalk["mortgage_value"]) == (400, 200)


def test_a_player_token_reads_the_rule_set(table):
    assert table.get("/ruleset", token=table.tokens["p2"]).status_code == 200


def test_no_token_no_rule_set(client, table):
    assert client.get(table.url + "/ruleset").status_code == 401


def test_a_token_of_another_game_is_forbidden(new_game, table):
    other = new_game()

    assert table.get("/ruleset", token=other.banker).status_code == 403
