"""Rent (docs/rules.md: Rent; the appendix's rent columns)."""

from __future__ import annotations

import pytest
from ledger_helpers import GROUPS, Table

from ledger.errors import InvalidField


def test_rent_on_a_bare_street_is_the_printed_rent(table: Table) -> None:
    table.buy("p1", "boardwalk")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_rent_doubles_on_bare_street_of_complete_group(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]


def test_rent_doubles_on_each_street_of_a_three_street_group(table: Table) -> None:
    table.give_group("p1", "light-blue")
    txn = table.record("rent", payer="p2", property="connecticut-avenue")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 16}]


def test_rent_does_not_double_when_another_player_holds_part_of_the_group(table: Table) -> None:
    table.buy("p1", "oriental-avenue", "vermont-avenue")
    table.buy("p3", "connecticut-avenue")
    txn = table.record("rent", payer="p2", property="oriental-avenue")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 6}]


def test_rent_doubles_on_bare_street_where_another_street_of_the_group_has_houses(
    table: Table,
) -> None:
    table.give_group("p1", "dark-blue")
    table.record("build", property="park-place")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]


def test_rent_does_not_double_when_a_street_of_the_group_is_mortgaged(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("mortgage", property="park-place")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


@pytest.mark.parametrize(
    ("boardwalk_houses", "park_place_houses", "rent"),
    [(1, 0, 200), (2, 1, 600), (3, 2, 1400), (4, 3, 1700)],
)
def test_rent_follows_the_house_column(
    table: Table, boardwalk_houses: int, park_place_houses: int, rent: int
) -> None:
    table.fund("p1", 2000)
    table.fund("p2", 1000)
    table.give_group("p1", "dark-blue")
    orders = [{"property": "boardwalk", "houses": boardwalk_houses}]
    if park_place_houses:
        orders.append({"property": "park-place", "houses": park_place_houses})
    table.record("build", orders=orders)
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": rent}]


def test_rent_with_a_hotel_is_the_hotel_column(table: Table) -> None:
    table.fund("p1", 2000)
    table.fund("p2", 1000)
    table.give_group("p1", "dark-blue")
    table.build_houses("dark-blue", 4)
    table.record("build", property="boardwalk", hotel=True)
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 2000}]


def test_rent_on_a_street_with_houses_is_not_doubled(table: Table) -> None:
    table.give_group("p1", "brown")
    table.record("build", orders=[{"property": s} for s in GROUPS["brown"]])
    txn = table.record("rent", payer="p2", property="mediterranean-avenue")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 10}]


@pytest.mark.parametrize(
    ("held", "rent"),
    [(1, 25), (2, 50), (3, 100), (4, 200)],
)
def test_railroad_rent_follows_the_number_held(table: Table, held: int, rent: int) -> None:
    table.buy("p1", *GROUPS["railroad"][:held])
    txn = table.record("rent", payer="p2", property="reading-railroad")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": rent}]


def test_railroad_rent_counts_mortgaged_railroads(table: Table) -> None:
    table.buy("p1", "reading-railroad", "short-line", "b-o-railroad")
    table.record("mortgage", property="short-line")
    txn = table.record("rent", payer="p2", property="reading-railroad")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]


def test_railroad_rent_counts_only_the_owners_railroads(table: Table) -> None:
    table.buy("p1", "reading-railroad", "short-line")
    table.buy("p3", "b-o-railroad", "pennsylvania-railroad")
    txn = table.record("rent", payer="p2", property="short-line")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_utility_rent_is_4_times_the_dice_with_one_utility(table: Table) -> None:
    table.buy("p1", "electric-company")
    txn = table.record("rent", payer="p2", property="electric-company", dice=7)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 28}]


def test_utility_rent_is_10_times_the_dice_with_both_utilities(table: Table) -> None:
    table.buy("p1", "electric-company", "water-works")
    txn = table.record("rent", payer="p2", property="water-works", dice=7)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 70}]


def test_utility_rent_counts_a_mortgaged_utility(table: Table) -> None:
    table.buy("p1", "electric-company", "water-works")
    table.record("mortgage", property="water-works")
    txn = table.record("rent", payer="p2", property="electric-company", dice=3)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 30}]


def test_utility_rent_without_dice_is_refused_naming_dice(table: Table) -> None:
    table.buy("p1", "electric-company")
    error = table.refused("rent", payer="p2", property="electric-company")
    assert isinstance(error, InvalidField)
    assert error.code == "validation_error"
    assert "dice" in error.extra["errors"]


def test_rent_multiplier_from_a_card_multiplies_the_rent(table: Table) -> None:
    table.buy("p1", "reading-railroad", "short-line")
    txn = table.record("rent", payer="p2", property="short-line", multiplier=2)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]


def test_no_rent_on_a_mortgaged_deed(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    assert table.refused("rent", payer="p2", property="boardwalk").code == "mortgaged"


def test_no_rent_on_a_deed_the_bank_holds(table: Table) -> None:
    assert table.refused("rent", payer="p2", property="boardwalk").code == "not_owned"


def test_no_rent_to_oneself(table: Table) -> None:
    table.buy("p1", "boardwalk")
    assert table.refused("rent", payer="p1", property="boardwalk").code == "own_property"


def test_rent_beyond_the_payers_cash_is_refused(table: Table) -> None:
    table.fund("p1", 2000)
    table.give_group("p1", "dark-blue")
    table.build_hotels("dark-blue")
    error = table.refused("rent", payer="p2", property="boardwalk")
    # Hotel rent 2000 against 1500 cash.
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 500)


def test_rent_is_charged_to_the_player_whose_turn_it_is(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("turn", player="p2")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_rent_claim_window_closes_once_the_next_turn_is_recorded(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("turn", player="p2")
    table.record("turn", player="p3")
    error = table.refused("rent", payer="p2", property="boardwalk")
    assert error.code == "claim_window_closed"


def test_owner_in_jail_collects_rent_by_default(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("go_to_jail", player="p1")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_owner_in_jail_collects_no_rent_under_the_house_rule(table: Table) -> None:
    jail_table = Table(table.bank, options={"no_rent_in_jail": True})
    jail_table.buy("p1", "boardwalk")
    jail_table.record("go_to_jail", player="p1")
    assert jail_table.refused("rent", payer="p2", property="boardwalk").code == "owner_in_jail"


def test_rent_from_an_unknown_player_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    assert table.refused("rent", payer="p7", property="boardwalk").code == "unknown_player"
