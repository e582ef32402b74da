"""The timed game (docs/rules.md, short/timed game: `timed`): two deeds dealt and paid as in the
short game,
standard building, and at the end the richest wins (hotels scored with four houses)."""

from __future__ import annotations

import pytest
from ledger_helpers import GROUPS, Table

from ledger.application import TableBank

# Ann (p1) the dark-blue group: 1500 - (350 + 400) = 750 cash.
# Bob (p2) two railroads: 1500 - 2 x 200 = 1100. Cy (p3) the utilities: 1500 - 2 x 150 = 1200.
DEALT = {
    "p1": ["park-place", "boardwalk"],
    "p2": ["reading-railroad", "short-line"],
    "p3": ["electric-company", "water-works"],
}


@pytest.fixture
def timed(bank: TableBank) -> Table:
    """A timed game of Ann, Bob and Cy dealt ``DEALT``."""
    return Table(bank, ruleset="timed", dealt=DEALT)


@pytest.fixture
def built(timed: Table) -> Table:
    """Ann with 4 houses on Park Place and 4 on Boardwalk, 250 cash."""
    timed.fund("p1", 1100)  # 1850
    build_houses(timed, "dark-blue", 4)  # eight houses at 200: 250
    return timed


def build_houses(table: Table, group: str, per_street: int) -> None:
    """Build evenly up to ``per_street`` houses on every street of a held group."""
    for _ in range(per_street):
        table.record("build", orders=[{"property": s, "houses": 1} for s in GROUPS[group]])


def test_dealt_deeds_belong_to_the_players_they_were_dealt_to(timed: Table) -> None:
    props = timed.state()["properties"]
    assert (props["park-place"]["owner"], props["boardwalk"]["owner"]) == ("p1", "p1")
    assert (props["reading-railroad"]["owner"], props["short-line"]["owner"]) == ("p2", "p2")
    assert (props["electric-company"]["owner"], props["water-works"]["owner"]) == ("p3", "p3")


def test_dealt_deeds_are_paid_at_once_at_their_printed_prices(timed: Table) -> None:
    # Boardwalk 400 + Park Place 350: 1500 - 750.
    assert [timed.cash(p) for p in ("p1", "p2", "p3")] == [750, 1100, 1200]


def test_the_deal_is_recorded_after_the_starting_cash(timed: Table) -> None:
    txns = list(timed.bank.transactions(timed.id))
    assert [t["type"] for t in txns] == ["starting_cash"] * 3 + ["deal"] * 3


def test_random_deal_gives_each_player_exactly_two_distinct_deeds(bank: TableBank) -> None:
    table = Table(bank, ruleset="timed")
    owners = [p["owner"] for p in table.state()["properties"].values()]
    assert sorted(o for o in owners if o != "bank") == ["p1", "p1", "p2", "p2", "p3", "p3"]


def test_fourth_house_on_a_street_is_accepted(built: Table) -> None:
    assert (built.prop("park-place")["houses"], built.prop("boardwalk")["houses"]) == (4, 4)
    assert built.supply() == {"houses": 24, "hotels": 12}


def test_fifth_house_on_a_street_is_refused(built: Table) -> None:
    assert built.refused("build", property="boardwalk").code == "building_limit"


def test_hotel_on_a_street_of_3_houses_is_refused(timed: Table) -> None:
    timed.fund("p1", 1100)
    build_houses(timed, "dark-blue", 3)
    error = timed.refused("build", property="boardwalk", hotel=True)
    assert error.code == "uneven_building"


def test_hotel_after_4_houses_returns_4_houses_to_the_bank(built: Table) -> None:
    txn = built.record("build", property="boardwalk", hotel=True)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    assert built.supply() == {"houses": 28, "hotels": 11}  # 32 - 8 + 4


def test_hotel_counts_as_5_houses_for_even_building(built: Table) -> None:
    built.record("build", property="boardwalk", hotel=True)
    error = built.refused("sell_buildings", property="park-place", houses=1)
    assert error.code == "uneven_building"
    assert error.extra["levels"] == {"park-place": 3, "boardwalk": 5}


def test_selling_a_hotel_outright_returns_half_the_hotel_and_its_4_houses(built: Table) -> None:
    built.record("build", property="boardwalk", hotel=True)
    txn = built.record(
        "sell_buildings",
        orders=[{"property": "park-place", "houses": 4}, {"property": "boardwalk", "hotel": True}],
    )
    boardwalk = next(line for line in txn["basis"]["orders"] if line["property"] == "boardwalk")
    assert boardwalk["amount"] == 500  # 100 + 4 x 100


def test_the_game_goes_on_after_a_second_bankruptcy(bank: TableBank) -> None:
    table = Table(
        bank,
        players=("Ann", "Bob", "Cy", "Di"),
        ruleset="timed",
        dealt={**DEALT, "p4": ["pennsylvania-railroad", "b-o-railroad"]},
    )
    table.record("bankruptcy", debtor="p3", creditor="bank")
    table.record("bankruptcy", debtor="p4", creditor="p2")
    assert table.state()["status"] == "active"


def test_bankruptcy_to_a_player_sells_the_buildings_to_the_bank(built: Table) -> None:
    txn = built.record("bankruptcy", debtor="p1", creditor="p2")
    # 250 cash + eight houses at half of 200.
    assert {"from": "p1", "to": "p2", "amount": 1050} in txn["postings"]
    assert built.prop("boardwalk")["houses"] == 0
    assert built.supply() == {"houses": 32, "hotels": 12}


def test_finish_ends_the_timed_game(timed: Table) -> None:
    timed.record("finish")
    assert timed.state()["status"] == "finished"


def test_finish_scores_a_hotel_with_the_4_houses_it_replaced(built: Table) -> None:
    built.record("build", property="boardwalk", hotel=True)  # 50
    built.record("mortgage", property="short-line")  # Bob 1100 + 100 = 1200
    built.record("tax", player="p3", tax="luxury")  # Cy 1200 - 75 = 1125
    built.record("finish")
    # Ann: 50 cash + 750 of deeds + Park Place's 4 houses at 200 + Boardwalk's hotel at 200
    # with its 4 houses at 200 = 50 + 750 + 800 + 1000.
    # Bob: 1200 cash + Reading 200 + Short Line mortgaged at 100. Cy: 1125 + 2 x 150.
    assert built.state()["standings"] == [
        {"player": "p1", "score": 2600, "rank": 1},
        {"player": "p2", "score": 1500, "rank": 2},
        {"player": "p3", "score": 1425, "rank": 3},
    ]


def test_nothing_is_recorded_after_finish(timed: Table) -> None:
    timed.record("finish")
    assert timed.refused("salary", player="p1").code == "game_finished"
