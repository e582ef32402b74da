"""Chance and Community Chest cards (docs/rules.md: Taxes, fines, cards)."""

from __future__ import annotations

from ledger_helpers import Table


def test_collect_card_pays_the_player_from_the_bank(table: Table) -> None:
    txn = table.record("card", player="p1", effect="collect", amount=100)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]


def test_pay_card_pays_the_bank(table: Table) -> None:
    txn = table.record("card", player="p1", effect="pay", amount=50)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 50}]


def test_pay_card_goes_to_the_pot_under_the_free_parking_house_rule(table: Table) -> None:
    pot_table = Table(table.bank, options={"free_parking_pot": True})
    txn = pot_table.record("card", player="p1", effect="pay", amount=50)
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 50}]


def test_collect_from_each_card_takes_the_amount_from_every_other_player(table: Table) -> None:
    txn = table.record("card", player="p2", effect="collect_from_each", amount=10)
    assert txn["postings"] == [
        {"from": "p1", "to": "p2", "amount": 10},
        {"from": "p3", "to": "p2", "amount": 10},
    ]
    assert txn["balances"]["p2"] == 1520


def test_pay_each_card_pays_every_other_player(table: Table) -> None:
    txn = table.record("card", player="p1", effect="pay_each", amount=50)
    assert txn["postings"] == [
        {"from": "p1", "to": "p2", "amount": 50},
        {"from": "p1", "to": "p3", "amount": 50},
    ]
    assert txn["balances"]["p1"] == 1400


def test_pay_each_card_beyond_cash_is_refused(table: Table) -> None:
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 1450})
    error = table.refused("card", player="p1", effect="pay_each", amount=50)
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 50)


def test_repairs_card_charges_per_house_and_per_hotel(table: Table) -> None:
    table.fund("p1", 2000)
    table.give_group("p1", "brown")
    table.build_hotels("brown")  # two hotels
    table.give_group("p1", "light-blue")
    table.build_houses("light-blue", 1)  # three houses
    txn = table.record("card", player="p1", effect="repairs", per_house=25, per_hotel=100)
    # 3 houses at 25 + 2 hotels at 100.
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 275}]


def test_repairs_card_costs_nothing_without_buildings(table: Table) -> None:
    table.give_group("p1", "brown")
    txn = table.record("card", player="p1", effect="repairs", per_house=40, per_hotel=115)
    assert txn["postings"] == []
    assert txn["balances"]["p1"] == 1380
