"""GET /api/v1/parameters: the parameters a rule set may give, as a form is built from them.

API.md v1.3, "Players and boxes"; docs/api.md, "Parameters: what a box may change". The classic
figures are docs/rules.md's: 1500 starting cash, 200 salary, a 50 jail fine, 75 luxury tax, an
income tax of 200 or 10 %.
"""

from __future__ import annotations

from typing import Any

import pytest

URL = "/api/v1/parameters"


@pytest.fixture
def published(client) -> dict[str, dict[str, Any]]:
    response = client.get(URL)  # no token
    assert response.status_code == 200
    return {p["name"]: p for p in response.json["parameters"]}


def test_starting_cash_is_an_amount_of_1500_by_default_from_1(published):
    assert published["starting_cash"] == {
        "name": "starting_cash",
        "kind": "amount",
        "default": 1500,
        "required": True,
        "nullable": False,
        "min": 1,
        "max": 1_000_000_000,
        "variants": ["classic", "millionaire-elite"],
        "description": "What each player gets from the Bank at set-up.",
    }


def test_the_classic_money_figures_are_amounts_at_the_rules_figures(published):
    figures = {n: (published[n]["kind"], published[n]["default"]) for n in published}

    assert figures["salary"] == ("amount", 200)
    assert figures["jail_fine"] == ("amount", 50)
    assert figures["luxury_tax"] == ("amount", 75)
    assert figures["income_tax_flat"] == ("amount", 200)
    assert figures["income_tax_percent"] == ("percent", 10)
    assert published["income_tax_percent"]["max"] == 100
    # The taxes are classic's rules only: Millionaire Elite reads none of them.
    assert published["luxury_tax"]["variants"] == ["classic"]


def test_counts_choices_booleans_and_lists_are_published_as_what_they_are(published):
    assert (published["max_houses"]["kind"], published["max_houses"]["default"]) == ("number", 4)
    houses = published["houses"]
    assert (houses["kind"], houses["nullable"], houses["default"]) == ("number", True, None)
    assert published["variant"]["kind"] == "choice"
    assert published["variant"]["choices"] == ["classic", "millionaire-elite"]
    assert (published["variant"]["min"], published["variant"]["max"]) == (None, None)
    assert published["mortgaged_tradeable"]["kind"] == "boolean"
    assert published["mortgaged_tradeable"]["default"] is True
    rents = published["railroad_rents"]
    assert (rents["kind"], rents["entries"], rents["default"]) == (
        "list",
        "amount",
        [25, 50, 100, 200],
    )
    multipliers = published["utility_multipliers"]
    assert (multipliers["kind"], multipliers["entries"], multipliers["default"]) == (
        "list",
        "number",
        [4, 10],
    )
    assert (published["policies"]["kind"], published["policies"]["entries"]) == ("object", "amount")
    ending = published["policies_ending_at_start"]
    assert (ending["kind"], ending["entries"], ending["of"]) == ("list", "key", "policies")
    assert published["pot_seed"]["variants"] == ["millionaire-elite"]


def test_every_parameter_the_server_checks_is_published_once(published, client):
    # A document may give exactly these: one more is refused as unknown.
    assert len(published) == 34
    answer = _create(client, {"starting_cash_bonus": 5})
    assert answer.status_code == 422
    assert answer.json["errors"]["ruleset_document"] == ["parameters: unknown starting_cash_bonus"]


def _create(client, parameters: dict[str, Any]):
    document = {"name": "own-classic", "extends": "classic", "parameters": parameters}
    return client.post(
        "/api/v1/games",
        json={
            "name": "Own box",
            "ruleset": "own-classic",
            "players": ["Ann", "Bob"],
            "ruleset_document": document,
        },
    )


def test_a_figure_at_its_published_bounds_is_taken_and_past_them_refused(client):
    assert _create(client, {"starting_cash": 1}).status_code == 201
    assert _create(client, {"salary": 1_000_000_000}).status_code == 201

    below = _create(client, {"starting_cash": 0})
    above = _create(client, {"salary": 1_000_000_001})

    assert below.status_code == above.status_code == 422
    assert below.json["errors"] == {
        "ruleset_document": ["parameters.starting_cash: a whole number from 1 to 1000000000"]
    }
    assert above.json["errors"] == {
        "ruleset_document": ["parameters.salary: a whole number from 0 to 1000000000"]
    }
    assert len(client.get("/api/v1/games").json["items"]) == 2  # the refused ones made none


def test_a_game_of_a_box_with_1000_starting_cash_pays_each_player_1000(client):
    created = _create(client, {"starting_cash": 1000, "salary": 100})
    game = client.get(
        f"/api/v1/games/{created.json['id']}",
        headers={"Authorization": f"Bearer {created.json['banker_token']}"},
    ).json

    assert [p["cash"] for p in game["players"]] == [1000, 1000]


def test_the_answer_is_documented_with_its_required_fields(client):
    document = client.get("/api/v1/openapi.json").json
    ok = document["paths"][URL]["get"]["responses"]["200"]["content"]["application/json"]
    schemas = document["components"]["schemas"]

    assert ok["schema"] == {"$ref": "#/components/schemas/ParameterList"}
    assert schemas["ParameterList"]["required"] == ["parameters"]
    assert set(schemas["Parameter"]["required"]) == {
        "name",
        "kind",
        "default",
        "required",
        "nullable",
        "min",
        "max",
        "variants",
        "description",
    }
    assert schemas["Parameter"]["properties"]["kind"]["enum"] == [
        "amount",
        "percent",
        "number",
        "boolean",
        "choice",
        "list",
        "object",
    ]
