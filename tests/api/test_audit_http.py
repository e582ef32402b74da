"""Reading the log: the transactions filtered, a page at a time, and one by its seq."""

from __future__ import annotations

import pytest


@pytest.fixture
def played(table):
    """Seq 4: salary to p1; 5: p1 buys Boardwalk; 6: p2 pays Boardwalk's rent of 50."""
    table.record({"type": "salary", "player": "p1"})
    table.buy("p1", "boardwalk")
    table.record({"type": "rent", "payer": "p2", "property": "boardwalk"})
    return table


def seqs(response):
    assert response.status_code == 200, response.json
    return [txn["seq"] for txn in response.json["items"]]


def test_transactions_are_listed_in_seq_order(played):
    response = played.get("/transactions")

    assert seqs(response) == [1, 2, 3, 4, 5, 6]
    assert response.json["next"] is None


def test_set_up_transactions_pay_the_starting_cash(table):
    items = table.get("/transactions").json["items"]

    assert [(t["type"], t["postings"]) for t in items] == [
        ("starting_cash", [{"from": "bank", "to": f"p{i}", "amount": 1500}]) for i in (1, 2, 3)
    ]


def test_filter_by_account_keeps_those_moving_its_money(played):
    assert seqs(played.get("/transactions?account=p2")) == [2, 6]


def test_filter_by_type(played):
    assert seqs(played.get("/transactions?type=rent")) == [6]


def test_filter_by_property(played):
    assert seqs(played.get("/transactions?property=boardwalk")) == [5, 6]


def test_filters_combine(played):
    assert seqs(played.get("/transactions?account=p1&property=boardwalk")) == [5, 6]


def test_first_page_gives_the_cursor_of_the_next(played):
    response = played.get("/transactions?limit=4")

    assert seqs(response) == [1, 2, 3, 4]
    assert response.json["next"] == "4"


def test_next_page_starts_after_the_cursor(played):
    response = played.get("/transactions?limit=4&after=4")

    assert seqs(response) == [5, 6]
    assert response.json["next"] is None


def test_page_of_filtered_transactions_ends_without_a_cursor(played):
    response = played.get("/transactions?account=p1&limit=2&after=2")

    assert seqs(response) == [4, 5]
    assert response.json["next"] == "5"
    assert seqs(played.get("/transactions?account=p1&limit=2&after=5")) == [6]


def test_limit_over_1000_is_refused(played):
    response = played.get("/transactions?limit=1001")

    assert response.status_code == 422
    assert list(response.json["errors"]) == ["limit"]


def test_limit_of_zero_is_refused(played):
    assert played.get("/transactions?limit=0").status_code == 422


def test_unknown_filter_is_refused(played):
    response = played.get("/transactions?player=p1")

    assert response.status_code == 422
    assert response.json["errors"] == {"player": ["Unknown field."]}


def test_transaction_list_carries_the_games_etag(played):
    version = played.state()["version"]

    assert played.get("/transactions").headers["ETag"] == f'"{version}"'


def test_one_transaction_by_its_seq(played):
    response = played.get("/transactions/6")

    assert response.status_code == 200
    assert response.json["type"] == "rent"
    assert response.json["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]
    assert response.json["balances"]["p2"] == 1450


def test_transaction_not_yet_recorded_is_not_found(played):
    response = played.get("/transactions/7")

    assert response.status_code == 404
    assert response.json["code"] == "not_found"


def test_transaction_seq_too_large_for_any_game_is_not_found(played):
    response = played.get("/transactions/99999999999999999999")

    assert response.status_code == 404
