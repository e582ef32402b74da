"""Millionaire Elite's policies come from the rule set (issue: "policy colours, lifetimes and
prices come from the rule set"): a box of one's own that extends Millionaire Elite with a new
policy sells it over HTTP at its price and lets it last as the box says.

docs/rules.md, "Millionaire Elite": a policy is bought from the Bank at its price; the green
and blue ones go back when their holder next passes START; starting cash 2,000, income on
passing START 200 + 20 % of the shares' value.
"""

from __future__ import annotations

from typing import Any

import pytest

BOX: dict[str, Any] = {
    "name": "elite-plus",
    "extends": "millionaire-elite",
    "title": "Millionaire Elite with a purple policy that lasts one round",
    "parameters": {
        "policies": {"green": 100, "blue": 200, "orange": 300, "red": 500, "purple": 150},
        "policies_ending_at_start": ["green", "blue", "purple"],
    },
}


@pytest.fixture
def plus(client):
    response = client.post(
        "/api/v1/games",
        json={
            "name": "p",
            "ruleset": "elite-plus",
            "players": ["Ann", "Bob"],
            "ruleset_document": BOX,
        },
    )
    assert response.status_code == 201, response.json
    created = response.json
    auth = {"Authorization": f"Bearer {created['banker_token']}"}

    def record(body: dict[str, Any]):
        return client.post(f"/api/v1/games/{created['id']}/transactions", json=body, headers=auth)

    return record


def test_the_new_policy_is_sold_at_the_boxs_price(plus):
    response = plus({"type": "insurance", "player": "p1", "action": "buy", "policy": "purple"})

    assert response.status_code == 201, response.json
    assert response.json["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]
    # 2,000 starting cash less 150.
    assert response.json["balances"]["p1"] == 1850


def test_the_new_policy_goes_back_at_start_as_the_box_says(plus):
    plus({"type": "insurance", "player": "p1", "action": "buy", "policy": "purple"})
    plus({"type": "insurance", "player": "p1", "action": "buy", "policy": "red"})

    income = plus({"type": "salary", "player": "p1"}).json

    # No shares: the income is the salary of 200; purple lasts one round, red until used.
    assert income["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]
    assert income["basis"]["policies_expired"] == ["purple"]


def test_a_colour_the_box_does_not_sell_is_refused(plus):
    response = plus({"type": "insurance", "player": "p1", "action": "buy", "policy": "gold"})

    assert response.status_code == 422
    assert "policy" in response.json["errors"]


@pytest.mark.parametrize("ending", [["gold"], [["red"]]], ids=["unsold", "a-list-in-the-list"])
def test_a_round_policy_must_be_one_the_box_sells(client, ending):
    # A list inside the list was a 500 (unhashable, looked up among the colours).
    box = {**BOX, "parameters": {**BOX["parameters"], "policies_ending_at_start": ending}}

    response = client.post(
        "/api/v1/games",
        json={"name": "p", "ruleset": "elite-plus", "players": ["A", "B"], "ruleset_document": box},
    )

    assert response.status_code == 422
    assert response.json["errors"] == {
        "ruleset_document": ["parameters.policies_ending_at_start: a list of the policies' colours"]
    }
