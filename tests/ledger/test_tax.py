"""Luxury and income tax (docs/rules.md: Taxes, fines, cards)."""

from __future__ import annotations

from ledger_helpers import Table

from ledger.errors import InvalidField


def test_luxury_tax_is_75(table: Table) -> None:
    txn = table.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 75}]


def test_income_tax_flat_is_200(table: Table) -> None:
    txn = table.record("tax", player="p1", tax="income", choice="flat")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_income_tax_percent_is_10_percent_of_cash(table: Table) -> None:
    txn = table.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]


def test_income_tax_percent_counts_deeds_at_printed_price(table: Table) -> None:
    table.buy("p1", "boardwalk", "reading-railroad")  # cash 900, deeds 600
    txn = table.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]


def test_income_tax_percent_counts_mortgaged_deeds_at_full_price(table: Table) -> None:
    table.buy("p1", "boardwalk")  # cash 1100
    table.record("mortgage", property="boardwalk")  # cash 1300, Boardwalk still worth 400
    txn = table.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 170}]


def test_income_tax_percent_counts_a_hotel_with_the_houses_it_replaced(table: Table) -> None:
    table.give_group("p1", "brown")  # cash 1380
    table.build_hotels("brown")  # 8 houses at 50, 2 hotels at 50: cash 880
    # 880 cash + 120 of deeds + 2 x (50 + 4 x 50) of buildings = 1500.
    txn = table.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]


def test_income_tax_percent_rounds_half_up(table: Table) -> None:
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 15})
    # 10 % of 1485 is 148.5: half up gives 149 (truncating or rounding to even gives 148).
    txn = table.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 149}]


def test_income_tax_percent_rounds_below_a_half_down(table: Table) -> None:
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 6})
    # 10 % of 1494 is 149.4: 149 (rounding every fraction up would give 150).
    txn = table.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 149}]


def test_income_tax_without_a_choice_is_refused_naming_choice(table: Table) -> None:
    error = table.refused("tax", player="p1", tax="income")
    assert isinstance(error, InvalidField)
    assert error.code == "validation_error"
    assert "choice" in error.extra["errors"]


def test_income_tax_flat_option_needs_no_choice(table: Table) -> None:
    flat_table = Table(table.bank, options={"income_tax": "flat"})
    txn = flat_table.record("tax", player="p1", tax="income")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_taxes_go_to_the_pot_under_the_free_parking_house_rule(table: Table) -> None:
    pot_table = Table(table.bank, options={"free_parking_pot": True})
    txn = pot_table.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 75}]


def test_luxury_tax_follows_the_luxury_tax_option(table: Table) -> None:
    later_edition = Table(table.bank, options={"luxury_tax": 100})
    txn = later_edition.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 100}]
