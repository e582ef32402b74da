"""Mortgages at 10 % interest (docs/rules.md: Mortgages)."""

from __future__ import annotations

import pytest
from ledger_helpers import Table


@pytest.mark.parametrize(
    ("deed", "value"),
    [
        ("boardwalk", 200),
        ("mediterranean-avenue", 30),
        ("electric-company", 75),
        ("short-line", 100),
    ],
)
def test_mortgage_pays_half_the_printed_price(table: Table, deed: str, value: int) -> None:
    table.buy("p1", deed)
    txn = table.record("mortgage", property=deed)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": value}]
    assert table.prop(deed)["mortgaged"] is True


def test_mortgage_of_a_deed_in_a_group_with_buildings_is_refused(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("build", property="park-place")
    error = table.refused("mortgage", property="boardwalk")
    assert error.code == "group_has_buildings"


def test_mortgage_is_accepted_once_the_groups_buildings_are_sold(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("build", property="park-place")
    table.record("sell_buildings", property="park-place", houses=1)
    txn = table.record("mortgage", property="boardwalk")
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]


def test_mortgaging_twice_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    assert table.refused("mortgage", property="boardwalk").code == "mortgaged"


def test_mortgage_of_a_deed_the_bank_holds_is_refused(table: Table) -> None:
    assert table.refused("mortgage", property="boardwalk").code == "not_owned"


def test_unmortgage_electric_company_costs_75_plus_8(table: Table) -> None:
    table.buy("p1", "electric-company")
    table.record("mortgage", property="electric-company")
    txn = table.record("unmortgage", property="electric-company")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 83}]
    assert table.prop("electric-company")["mortgaged"] is False


def test_unmortgage_mediterranean_costs_30_plus_3(table: Table) -> None:
    table.buy("p1", "mediterranean-avenue")
    table.record("mortgage", property="mediterranean-avenue")
    txn = table.record("unmortgage", property="mediterranean-avenue")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 33}]


def test_unmortgage_boardwalk_costs_200_plus_20(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    txn = table.record("unmortgage", property="boardwalk")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 220}]


def test_unmortgage_of_a_deed_not_mortgaged_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    assert table.refused("unmortgage", property="boardwalk").code == "not_mortgaged"


def test_unmortgage_beyond_cash_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")  # cash 1300
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 1100})
    error = table.refused("unmortgage", property="boardwalk")
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 20)


def test_mortgage_of_an_unknown_property_is_refused(table: Table) -> None:
    assert table.refused("mortgage", property="mayfair").code == "unknown_property"
