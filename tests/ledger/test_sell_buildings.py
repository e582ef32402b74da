"""Selling buildings back to the Bank (docs/rules.md: Buildings)."""

from __future__ import annotations

from ledger_helpers import GROUPS, Table


def test_house_sells_back_at_half_its_price(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("build", property="boardwalk")
    txn = table.record("sell_buildings", property="boardwalk", houses=1)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]
    assert table.prop("boardwalk")["houses"] == 0
    assert table.supply() == {"houses": 32, "hotels": 12}


def test_houses_sold_on_several_streets_pay_half_each(table: Table) -> None:
    table.give_group("p1", "light-blue")
    table.build_houses("light-blue", 2)
    txn = table.record(
        "sell_buildings", orders=[{"property": s, "houses": 1} for s in GROUPS["light-blue"]]
    )
    # Three houses at 25.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 75}]


def test_selling_houses_unevenly_is_refused(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.fund("p1", 100)
    table.build_houses("dark-blue", 2)
    error = table.refused("sell_buildings", property="boardwalk", houses=2)
    assert error.code == "uneven_building"


def test_selling_one_house_of_an_even_group_is_accepted(table: Table) -> None:
    table.fund("p1", 100)
    table.give_group("p1", "dark-blue")
    table.build_houses("dark-blue", 2)
    txn = table.record("sell_buildings", property="park-place", houses=1)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]


def test_hotel_broken_down_pays_half_the_hotel_price(table: Table) -> None:
    table.fund("p1", 2000)
    table.give_group("p1", "dark-blue")
    table.build_hotels("dark-blue")
    txn = table.record("sell_buildings", property="boardwalk", hotel=True, break_down=True)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]


def test_hotel_broken_down_leaves_4_houses_taken_from_the_bank(table: Table) -> None:
    table.fund("p1", 2000)
    table.give_group("p1", "dark-blue")
    table.build_hotels("dark-blue")
    assert table.supply() == {"houses": 32, "hotels": 10}
    table.record("sell_buildings", property="boardwalk", hotel=True, break_down=True)
    assert (table.prop("boardwalk")["houses"], table.prop("boardwalk")["hotel"]) == (4, False)
    assert table.supply() == {"houses": 28, "hotels": 11}


def test_hotel_break_down_needs_4_houses_in_the_bank(table: Table) -> None:
    table.fund("p1", 3000)
    table.give_group("p1", "brown")
    table.build_hotels("brown")
    for group in ("light-blue", "pink"):
        table.give_group("p1", group)
        table.build_houses(group, 4)
    table.give_group("p1", "orange")
    table.build_houses("orange", 2)  # 32 - 12 - 12 - 6 = 2 houses left
    error = table.refused(
        "sell_buildings", property="mediterranean-avenue", hotel=True, break_down=True
    )
    assert error.code == "no_houses_left"


def test_hotels_sold_outright_pay_half_the_hotel_and_half_its_4_houses(table: Table) -> None:
    table.fund("p1", 2000)
    table.give_group("p1", "dark-blue")
    table.build_hotels("dark-blue")
    txn = table.record(
        "sell_buildings", orders=[{"property": s, "hotel": True} for s in GROUPS["dark-blue"]]
    )
    # Each: half of the 200 hotel + half of 4 houses at 200 = 100 + 400.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 1000}]
    assert table.prop("boardwalk") == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }
    assert table.supply() == {"houses": 32, "hotels": 12}


def test_hotel_sold_outright_beside_a_hotel_is_uneven(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_hotels("brown")
    error = table.refused("sell_buildings", property="baltic-avenue", hotel=True)
    assert error.code == "uneven_building"


def test_houses_sold_beside_a_hotel_must_keep_the_group_even(table: Table) -> None:
    table.give_group("p1", "light-blue")
    table.build_hotels("light-blue")
    table.record("sell_buildings", property="oriental-avenue", hotel=True, break_down=True)
    error = table.refused("sell_buildings", property="oriental-avenue", houses=1)
    assert error.code == "uneven_building"


def test_selling_a_house_from_a_bare_street_is_refused(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    error = table.refused("sell_buildings", property="boardwalk", houses=1)
    assert error.code == "no_buildings"


def test_selling_more_houses_than_stand_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 1)
    error = table.refused("sell_buildings", property="baltic-avenue", houses=2)
    assert error.code == "no_buildings"


def test_selling_a_hotel_from_a_street_without_one_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 4)
    error = table.refused("sell_buildings", property="baltic-avenue", hotel=True)
    assert error.code == "no_buildings"
