"""Buying deeds and auctions (docs/rules.md: Buying and auctions)."""

from __future__ import annotations

import pytest
from ledger_helpers import Table

from ledger.errors import InvalidField


@pytest.mark.parametrize(
    ("deed", "price"),
    [
        ("mediterranean-avenue", 60),
        ("connecticut-avenue", 120),
        ("boardwalk", 400),
        ("short-line", 200),
        ("water-works", 150),
    ],
)
def test_buy_pays_the_printed_price_to_the_bank(table: Table, deed: str, price: int) -> None:
    txn = table.record("buy", player="p1", property=deed)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": price}]


def test_buy_gives_the_deed_to_the_buyer(table: Table) -> None:
    table.record("buy", player="p2", property="boardwalk")
    assert table.prop("boardwalk") == {
        "owner": "p2",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }


def test_buy_of_a_deed_someone_holds_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    assert table.refused("buy", player="p2", property="boardwalk").code == "already_owned"


def test_buy_beyond_cash_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk", "park-place", "pacific-avenue", "north-carolina-avenue")
    # 1500 - 400 - 350 - 300 - 300 = 150 left; Pennsylvania Avenue costs 320.
    error = table.refused("buy", player="p1", property="pennsylvania-avenue")
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 170)


def test_buy_at_another_price_is_refused(table: Table) -> None:
    error = table.refused("buy", player="p1", property="boardwalk", price=300)
    assert isinstance(error, InvalidField)
    assert "price" in error.extra["errors"]


def test_buy_of_an_unknown_property_is_refused(table: Table) -> None:
    assert table.refused("buy", player="p1", property="park-lane").code == "unknown_property"


def test_auction_winner_pays_the_bid_to_the_bank(table: Table) -> None:
    txn = table.record("auction", property="boardwalk", winner="p3", bid=310)
    assert txn["postings"] == [{"from": "p3", "to": "bank", "amount": 310}]
    assert table.prop("boardwalk")["owner"] == "p3"


def test_auction_accepts_a_bid_of_1(table: Table) -> None:
    txn = table.record("auction", property="mediterranean-avenue", winner="p2", bid=1)
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 1}]


def test_auction_accepts_a_bid_above_the_printed_price(table: Table) -> None:
    txn = table.record("auction", property="baltic-avenue", winner="p2", bid=75)
    assert txn["balances"]["p2"] == 1425


def test_auction_bid_of_0_is_refused_and_the_deed_stays_with_the_bank(table: Table) -> None:
    error = table.refused("auction", property="boardwalk", winner="p2", bid=0)
    assert isinstance(error, InvalidField)
    assert "bid" in error.extra["errors"]
    assert table.prop("boardwalk")["owner"] == "bank"


def test_auction_of_a_deed_someone_holds_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    error = table.refused("auction", property="boardwalk", winner="p2", bid=500)
    assert error.code == "already_owned"


def test_auction_bid_beyond_the_winners_cash_is_refused(table: Table) -> None:
    error = table.refused("auction", property="boardwalk", winner="p2", bid=1600)
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 100)
