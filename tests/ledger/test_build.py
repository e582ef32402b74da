"""Building houses and hotels (docs/rules.md: Buildings)."""

from __future__ import annotations

from ledger_helpers import GROUPS, Table

from ledger.errors import InvalidField


def test_house_costs_the_printed_house_price(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    txn = table.record("build", property="boardwalk")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_house_is_taken_from_the_banks_supply(table: Table) -> None:
    table.give_group("p1", "brown")
    table.record("build", property="baltic-avenue")
    assert table.prop("baltic-avenue")["houses"] == 1
    assert table.supply() == {"houses": 31, "hotels": 12}


def test_houses_on_several_streets_cost_their_house_prices(table: Table) -> None:
    table.give_group("p1", "light-blue")
    txn = table.record("build", orders=[{"property": s} for s in GROUPS["light-blue"]])
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]


def test_build_without_the_whole_group_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    assert table.refused("build", property="boardwalk").code == "group_incomplete"


def test_build_when_another_player_holds_part_of_the_group_is_refused(table: Table) -> None:
    table.buy("p1", "st-charles-place", "states-avenue")
    table.buy("p2", "virginia-avenue")
    assert table.refused("build", property="states-avenue").code == "group_incomplete"


def test_build_on_a_group_with_a_mortgaged_street_is_refused(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("mortgage", property="park-place")
    assert table.refused("build", property="boardwalk").code == "mortgaged"


def test_build_resumes_once_the_mortgage_is_lifted(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("mortgage", property="park-place")
    table.record("unmortgage", property="park-place")
    txn = table.record("build", property="boardwalk")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_build_on_a_railroad_is_refused(table: Table) -> None:
    table.give_group("p1", "railroad")
    assert table.refused("build", property="short-line").code == "not_buildable"


def test_build_on_a_utility_is_refused(table: Table) -> None:
    table.give_group("p1", "utility")
    assert table.refused("build", property="water-works").code == "not_buildable"


def test_build_on_a_deed_the_bank_holds_is_refused(table: Table) -> None:
    assert table.refused("build", property="boardwalk").code == "not_owned"


def test_second_house_before_the_group_has_one_each_is_uneven(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("build", property="boardwalk")
    assert table.refused("build", property="boardwalk").code == "uneven_building"


def test_two_houses_at_once_on_one_street_of_a_bare_group_is_uneven(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    error = table.refused("build", property="boardwalk", houses=2)
    assert error.code == "uneven_building"


def test_orders_are_checked_for_evenness_after_the_whole_transaction(table: Table) -> None:
    table.fund("p1", 500)
    table.give_group("p1", "dark-blue")
    txn = table.record(
        "build",
        orders=[{"property": "boardwalk", "houses": 2}, {"property": "park-place", "houses": 2}],
    )
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 800}]
    assert (table.prop("boardwalk")["houses"], table.prop("park-place")["houses"]) == (2, 2)


def test_orders_that_leave_the_group_uneven_are_refused_whole(table: Table) -> None:
    table.give_group("p1", "light-blue")
    error = table.refused(
        "build",
        orders=[{"property": "oriental-avenue", "houses": 2}, {"property": "vermont-avenue"}],
    )
    assert error.code == "uneven_building"


def test_fifth_house_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 4)
    assert table.refused("build", property="baltic-avenue").code == "building_limit"


def test_hotel_costs_the_hotel_price_and_returns_4_houses(table: Table) -> None:
    table.fund("p1", 2000)
    table.give_group("p1", "dark-blue")
    table.build_houses("dark-blue", 4)
    assert table.supply() == {"houses": 24, "hotels": 12}
    txn = table.record("build", property="boardwalk", hotel=True)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    assert table.prop("boardwalk") == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": True,
    }
    assert table.supply() == {"houses": 28, "hotels": 11}


def test_hotel_needs_4_houses_on_the_street(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 3)
    error = table.refused("build", property="mediterranean-avenue", hotel=True)
    assert error.code == "uneven_building"


def test_hotel_needs_4_houses_on_every_street_of_the_group(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 3)
    table.record("build", property="mediterranean-avenue")  # 4 and 3
    error = table.refused("build", property="mediterranean-avenue", hotel=True)
    assert error.code == "uneven_building"


def test_hotel_ordered_with_the_house_that_completes_the_group_is_accepted(
    table: Table,
) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 3)
    table.record("build", property="mediterranean-avenue")  # 4 and 3
    txn = table.record(
        "build",
        orders=[{"property": "baltic-avenue"}, {"property": "mediterranean-avenue", "hotel": True}],
    )
    # A house at 50 and a hotel at 50.
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 100}]
    assert table.supply() == {"houses": 28, "hotels": 11}


def test_second_hotel_on_a_street_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_hotels("brown")
    error = table.refused("build", property="baltic-avenue", hotel=True)
    assert error.code == "building_limit"


def test_house_on_a_street_with_a_hotel_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_hotels("brown")
    assert table.refused("build", property="baltic-avenue").code == "building_limit"


def test_houses_run_out_after_32(table: Table) -> None:
    table.fund("p1", 3000)
    for group in ("brown", "light-blue", "pink"):  # 2 + 3 + 3 streets, 4 houses each
        table.give_group("p1", group)
        table.build_houses(group, 4)
    table.give_group("p1", "orange")
    assert table.supply()["houses"] == 0
    assert table.refused("build", property="new-york-avenue").code == "no_houses_left"


def test_orders_beyond_the_houses_left_are_refused(table: Table) -> None:
    table.fund("p1", 3000)
    for group in ("brown", "light-blue"):
        table.give_group("p1", group)
        table.build_houses(group, 4)
    table.give_group("p1", "pink")
    table.build_houses("pink", 3)  # 32 - 8 - 12 - 9 = 3 left
    table.give_group("p1", "orange")
    error = table.refused(
        "build",
        orders=[
            {"property": "st-james-place", "houses": 2},
            {"property": "tennessee-avenue"},
            {"property": "new-york-avenue"},
        ],
    )
    assert error.code == "no_houses_left"


def test_hotels_run_out_after_12(table: Table) -> None:
    table.fund("p1", 7000)
    for group in ("brown", "light-blue", "pink", "orange"):  # 2 + 3 + 3 + 3 = 11 hotels
        table.give_group("p1", group)
        table.build_hotels(group)
    table.give_group("p1", "red")
    table.build_houses("red", 4)
    table.record("build", property="kentucky-avenue", hotel=True)  # the twelfth
    assert table.supply()["hotels"] == 0
    error = table.refused("build", property="indiana-avenue", hotel=True)
    assert error.code == "no_hotels_left"


def test_build_beyond_cash_is_refused(table: Table) -> None:
    table.give_group("p1", "green")  # 1500 - 920 = 580 left
    error = table.refused("build", orders=[{"property": s} for s in GROUPS["green"]])
    # Three houses at 200.
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 20)


def test_auctioned_building_price_is_charged(table: Table) -> None:
    table.give_group("p1", "brown")
    txn = table.record("build", property="baltic-avenue", price=80)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 80}]


def test_auctioned_building_price_below_the_printed_price_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    error = table.refused("build", property="baltic-avenue", price=49)
    assert isinstance(error, InvalidField)
    assert "price" in error.extra["errors"]


def test_orders_that_are_not_a_list_of_orders_are_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    error = table.refused("build", orders={"property": "baltic-avenue"})
    assert error.extra["errors"] == {"orders": ["a list of orders"]}


def test_a_build_naming_no_property_and_no_orders_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    error = table.refused("build")
    assert error.extra["errors"] == {"property": ["a property or a list of orders is required"]}
