"""Salary, payments and what a payer short of cash is told (docs/rules.md: Salary, Bankruptcy)."""

from __future__ import annotations

from ledger_helpers import Table

from ledger.errors import InsufficientFunds


def test_salary_pays_200_from_the_bank(table: Table) -> None:
    txn = table.record("salary", player="p1")
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]
    assert txn["balances"]["p1"] == 1700


def test_salary_can_be_paid_twice_in_one_turn(table: Table) -> None:
    table.record("salary", player="p1")
    table.record("salary", player="p1")
    assert table.cash("p1") == 1900


def test_payment_moves_the_amount_between_players(table: Table) -> None:
    txn = table.record("payment", **{"from": "p1", "to": "p2", "amount": 120})
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 120}]
    assert (txn["balances"]["p1"], txn["balances"]["p2"]) == (1380, 1620)


def test_payment_to_the_bank(table: Table) -> None:
    txn = table.record("payment", **{"from": "p3", "to": "bank", "amount": 15})
    assert txn["balances"]["p3"] == 1485
    assert txn["balances"]["bank"] == -4485


def test_payment_of_all_a_players_cash_is_accepted(table: Table) -> None:
    txn = table.record("payment", **{"from": "p1", "to": "p2", "amount": 1500})
    assert txn["balances"]["p1"] == 0


def test_payment_beyond_cash_is_refused_as_insufficient_funds(table: Table) -> None:
    error = table.refused("payment", **{"from": "p1", "to": "p2", "amount": 1501})
    assert isinstance(error, InsufficientFunds)
    assert error.code == "insufficient_funds"
    assert error.extra["shortfall"] == 1


def test_insufficient_funds_can_raise_counts_mortgages_of_bare_deeds(table: Table) -> None:
    table.buy("p1", "boardwalk", "reading-railroad")  # 1500 - 400 - 200 = 900 left
    error = table.refused("payment", **{"from": "p1", "to": "p2", "amount": 1000})
    # Mortgage values: Boardwalk 200, Reading Railroad 100.
    assert (error.extra["shortfall"], error.extra["can_raise"]) == (100, 300)


def test_insufficient_funds_can_raise_counts_houses_at_half_price(table: Table) -> None:
    table.give_group("p1", "dark-blue")  # 1500 - 350 - 400 = 750
    table.build_houses("dark-blue", 1)  # two houses at 200: 350 left
    error = table.refused("payment", **{"from": "p1", "to": "p2", "amount": 1000})
    # Two houses sold at 100 each, then Park Place 175 and Boardwalk 200 mortgaged.
    assert (error.extra["shortfall"], error.extra["can_raise"]) == (650, 575)


def test_insufficient_funds_can_raise_leaves_out_deeds_already_mortgaged(table: Table) -> None:
    table.buy("p1", "boardwalk", "park-place")  # 750 left
    table.record("mortgage", property="boardwalk")  # +200: 950
    error = table.refused("payment", **{"from": "p1", "to": "p2", "amount": 1000})
    assert (error.extra["shortfall"], error.extra["can_raise"]) == (50, 175)


def test_liquidation_shows_what_a_player_could_raise(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.build_houses("dark-blue", 1)
    liquidation = table.bank.liquidation(table.id, "p1")
    assert (liquidation["cash"], liquidation["can_raise"], liquidation["total"]) == (
        350,
        575,
        925,
    )


def test_salary_for_an_unknown_player_is_refused(table: Table) -> None:
    assert table.refused("salary", player="p4").code == "unknown_player"


def test_payment_to_an_unknown_player_is_refused(table: Table) -> None:
    error = table.refused("payment", **{"from": "p1", "to": "p9", "amount": 10})
    assert error.code == "unknown_player"
