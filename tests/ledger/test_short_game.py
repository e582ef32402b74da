"""The short game (docs/rules.md, short/timed game: `short`): two deeds dealt and paid at set-up, 3
houses before a
hotel, buildings handed over in a bankruptcy, the end at the second bankruptcy."""

from __future__ import annotations

import pytest
from ledger_helpers import GROUPS, Table

from ledger.application import TableBank
from ledger.errors import InvalidField

# The printed prices of the appendix, by deed slug.
PRICES: dict[str, int] = {
    "mediterranean-avenue": 60,
    "baltic-avenue": 60,
    "oriental-avenue": 100,
    "vermont-avenue": 100,
    "connecticut-avenue": 120,
    "st-charles-place": 140,
    "states-avenue": 140,
    "virginia-avenue": 160,
    "st-james-place": 180,
    "tennessee-avenue": 180,
    "new-york-avenue": 200,
    "kentucky-avenue": 220,
    "indiana-avenue": 220,
    "illinois-avenue": 240,
    "atlantic-avenue": 260,
    "ventnor-avenue": 260,
    "marvin-gardens": 280,
    "pacific-avenue": 300,
    "north-carolina-avenue": 300,
    "pennsylvania-avenue": 320,
    "park-place": 350,
    "boardwalk": 400,
    "reading-railroad": 200,
    "pennsylvania-railroad": 200,
    "b-o-railroad": 200,
    "short-line": 200,
    "electric-company": 150,
    "water-works": 150,
}

# Ann (p1) is dealt the dark-blue group: 1500 - (350 + 400) = 750 cash.
# Bob (p2) two railroads: 1500 - 2 x 200 = 1100. Cy (p3) the utilities: 1500 - 2 x 150 = 1200.
DEALT = {
    "p1": ["park-place", "boardwalk"],
    "p2": ["reading-railroad", "short-line"],
    "p3": ["electric-company", "water-works"],
}


@pytest.fixture
def short(bank: TableBank) -> Table:
    """A short game of Ann, Bob and Cy dealt ``DEALT``."""
    return Table(bank, ruleset="short", dealt=DEALT)


@pytest.fixture
def built(short: Table) -> Table:
    """Ann with 3 houses on Park Place and 3 on Boardwalk, 1550 cash."""
    short.fund("p1", 2000)  # 2750
    build_houses(short, "dark-blue", 3)  # six houses at 200: 1550
    return short


@pytest.fixture
def hotel(built: Table) -> Table:
    """Ann with 3 houses on Park Place and a hotel on Boardwalk, 1350 cash."""
    built.record("build", property="boardwalk", hotel=True)  # 200
    return built


def build_houses(table: Table, group: str, per_street: int) -> None:
    """Build evenly up to ``per_street`` houses on every street of a held group."""
    for _ in range(per_street):
        table.record("build", orders=[{"property": s, "houses": 1} for s in GROUPS[group]])


def dealt_error(bank: TableBank, dealt: dict[str, list[str]]) -> InvalidField:
    """Create a short game with a bad deal; the refusal (and no game was created)."""
    with pytest.raises(InvalidField) as caught:
        bank.create_game("t", "short", ["Ann", "Bob", "Cy"], {}, dealt=dealt)
    assert bank.list_games() == []
    return caught.value


# -- the deal ----------------------------------------------------------------------------------


def test_dealt_deeds_belong_to_the_players_they_were_dealt_to(short: Table) -> None:
    owners = {slug: p["owner"] for slug, p in short.state()["properties"].items()}
    assert owners["park-place"] == owners["boardwalk"] == "p1"
    assert owners["reading-railroad"] == owners["short-line"] == "p2"
    assert owners["electric-company"] == owners["water-works"] == "p3"
    assert sum(1 for owner in owners.values() if owner == "bank") == 22


def test_dealt_deeds_are_paid_at_once_at_their_printed_prices(short: Table) -> None:
    # Boardwalk 400 + Park Place 350: 1500 - 750.
    assert short.cash("p1") == 750
    assert short.cash("p2") == 1100  # two railroads at 200
    assert short.cash("p3") == 1200  # two utilities at 150


def test_the_deal_is_paid_to_the_bank(short: Table) -> None:
    # -4500 of starting cash + 750 + 400 + 300 paid for the deeds.
    assert short.cash("bank") == -3050


def test_the_deal_is_recorded_after_the_starting_cash(short: Table) -> None:
    txns = list(short.bank.transactions(short.id))
    assert [t["type"] for t in txns] == ["starting_cash"] * 3 + ["deal"] * 3
    assert short.state()["last_seq"] == 6


def test_each_deal_records_the_deeds_and_the_payment(short: Table) -> None:
    deal = list(short.bank.transactions(short.id))[3]
    assert deal["request"] == {"player": "p1", "properties": ["park-place", "boardwalk"]}
    assert deal["postings"] == [{"from": "p1", "to": "bank", "amount": 750}]
    assert [(c["kind"], c["property"], c["to"]) for c in deal["changes"]] == [
        ("deed", "park-place", "p1"),
        ("deed", "boardwalk", "p1"),
    ]


def test_a_deal_cannot_be_voided_like_the_rest_of_the_set_up(short: Table) -> None:
    # API.md: game set-up cannot be voided. Ann keeps the dark blues and her 750.
    assert short.refused("void", seq=4, reason="deal again").code == "void_conflict"
    assert short.prop("boardwalk")["owner"] == "p1"
    assert short.cash("p1") == 750


def test_dealt_deeds_are_not_mortgaged_and_bare(short: Table) -> None:
    assert short.prop("boardwalk") == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }


def test_random_deal_gives_each_player_exactly_two_distinct_deeds(bank: TableBank) -> None:
    table = Table(bank, players=("Ann", "Bob", "Cy", "Di"), ruleset="short")
    owners = [p["owner"] for p in table.state()["properties"].values()]
    dealt = sorted(o for o in owners if o != "bank")
    assert dealt == ["p1", "p1", "p2", "p2", "p3", "p3", "p4", "p4"]
    assert owners.count("bank") == 20


def test_random_deal_charges_each_player_the_printed_prices(bank: TableBank) -> None:
    table = Table(bank, players=("Ann", "Bob", "Cy", "Di"), ruleset="short")
    state = table.state()
    for pid in ("p1", "p2", "p3", "p4"):
        deeds = [s for s, p in state["properties"].items() if p["owner"] == pid]
        assert state["balances"][pid] == 1500 - sum(PRICES[s] for s in deeds)


def test_random_deal_is_recorded_as_deal_transactions_naming_the_deeds(bank: TableBank) -> None:
    table = Table(bank, players=("Ann", "Bob", "Cy", "Di"), ruleset="short")
    state = table.state()
    deals = [t for t in bank.transactions(table.id) if t["type"] == "deal"]
    assert [t["seq"] for t in deals] == [5, 6, 7, 8]
    for pid, deal in zip(("p1", "p2", "p3", "p4"), deals, strict=True):
        held = sorted(s for s, p in state["properties"].items() if p["owner"] == pid)
        assert deal["request"]["player"] == pid
        assert sorted(deal["request"]["properties"]) == held
        assert sorted(c["property"] for c in deal["changes"] if c["kind"] == "deed") == held
        assert deal["postings"] == [
            {"from": pid, "to": "bank", "amount": sum(PRICES[s] for s in held)}
        ]


def test_dealt_leaving_out_a_player_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {"p1": DEALT["p1"], "p2": DEALT["p2"]})
    assert "dealt" in error.extra["errors"]


def test_dealt_naming_a_player_not_at_the_table_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {**DEALT, "p4": ["pacific-avenue", "marvin-gardens"]})
    assert "dealt" in error.extra["errors"]


def test_dealt_with_three_deeds_to_a_player_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {**DEALT, "p1": ["park-place", "boardwalk", "baltic-avenue"]})
    assert "dealt.p1" in error.extra["errors"]


def test_dealt_with_one_deed_to_a_player_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {**DEALT, "p2": ["reading-railroad"]})
    assert "dealt.p2" in error.extra["errors"]


def test_dealt_giving_a_deed_to_two_players_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {**DEALT, "p3": ["electric-company", "boardwalk"]})
    assert "dealt.p3" in error.extra["errors"]


def test_dealt_giving_one_player_the_same_deed_twice_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {**DEALT, "p1": ["boardwalk", "boardwalk"]})
    assert "dealt.p1" in error.extra["errors"]


def test_dealt_naming_an_unknown_deed_is_refused(bank: TableBank) -> None:
    error = dealt_error(bank, {**DEALT, "p1": ["boardwalk", "marvin-avenue"]})
    assert "dealt.p1" in error.extra["errors"]


def test_dealt_in_a_classic_game_is_refused(bank: TableBank) -> None:
    with pytest.raises(InvalidField) as caught:
        bank.create_game("t", "classic", ["Ann", "Bob", "Cy"], {}, dealt=DEALT)
    assert "dealt" in caught.value.extra["errors"]
    assert bank.list_games() == []


# -- buildings: 3 houses, then a hotel -------------------------------------------------------


def test_three_houses_on_a_street_are_accepted(built: Table) -> None:
    assert (built.prop("park-place")["houses"], built.prop("boardwalk")["houses"]) == (3, 3)
    assert built.cash("p1") == 1550  # 2750 - 6 x 200


def test_fourth_house_on_a_street_is_refused(built: Table) -> None:
    assert built.refused("build", property="boardwalk").code == "building_limit"


def test_hotel_after_3_houses_on_every_street_costs_the_hotel_price(built: Table) -> None:
    txn = built.record("build", property="boardwalk", hotel=True)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    assert built.prop("boardwalk") == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": True,
    }


def test_hotel_returns_its_3_houses_to_the_bank(built: Table) -> None:
    assert built.supply() == {"houses": 26, "hotels": 12}  # 32 - 6
    built.record("build", property="boardwalk", hotel=True)
    assert built.supply() == {"houses": 29, "hotels": 11}  # 32 - 6 + 3


def test_hotel_on_a_street_of_2_houses_is_refused(short: Table) -> None:
    short.fund("p1", 2000)
    build_houses(short, "dark-blue", 2)
    error = short.refused("build", property="boardwalk", hotel=True)
    assert error.code == "uneven_building"


def test_hotel_needs_3_houses_on_every_street_of_the_group(short: Table) -> None:
    short.fund("p1", 2000)
    build_houses(short, "dark-blue", 2)
    short.record("build", property="boardwalk")  # Boardwalk 3, Park Place 2
    error = short.refused("build", property="boardwalk", hotel=True)
    assert error.code == "uneven_building"


def test_house_on_a_street_with_a_hotel_is_refused(hotel: Table) -> None:
    assert hotel.refused("build", property="boardwalk").code == "building_limit"


def test_hotel_counts_as_4_houses_for_even_building(hotel: Table) -> None:
    # Boardwalk's hotel stands at 4; Park Place would go down to 2.
    error = hotel.refused("sell_buildings", property="park-place", houses=1)
    assert error.code == "uneven_building"
    assert error.extra["levels"] == {"park-place": 2, "boardwalk": 4}


def test_hotels_on_both_streets_of_the_group_are_accepted(hotel: Table) -> None:
    hotel.record("build", property="park-place", hotel=True)
    assert hotel.supply() == {"houses": 32, "hotels": 10}
    assert hotel.cash("p1") == 1150  # 1350 - 200


def test_selling_a_hotel_outright_returns_half_the_hotel_and_its_3_houses(hotel: Table) -> None:
    txn = hotel.record(
        "sell_buildings",
        orders=[{"property": "park-place", "houses": 3}, {"property": "boardwalk", "hotel": True}],
    )
    boardwalk = next(line for line in txn["basis"]["orders"] if line["property"] == "boardwalk")
    assert boardwalk["amount"] == 400  # 100 + 3 x 100
    # Park Place's 3 houses at 100 and Boardwalk's hotel at 400.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 700}]


def test_selling_a_hotel_outright_leaves_a_bare_street(hotel: Table) -> None:
    hotel.record(
        "sell_buildings",
        orders=[{"property": "park-place", "houses": 3}, {"property": "boardwalk", "hotel": True}],
    )
    assert hotel.prop("boardwalk") == {
        "owner": "p1",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }
    assert hotel.supply() == {"houses": 32, "hotels": 12}


def test_breaking_a_hotel_down_pays_half_the_hotel_price(hotel: Table) -> None:
    txn = hotel.record("sell_buildings", property="boardwalk", hotel=True, break_down=True)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]


def test_breaking_a_hotel_down_leaves_3_houses_on_the_street(hotel: Table) -> None:
    hotel.record("sell_buildings", property="boardwalk", hotel=True, break_down=True)
    assert (hotel.prop("boardwalk")["houses"], hotel.prop("boardwalk")["hotel"]) == (3, False)
    assert hotel.supply() == {"houses": 26, "hotels": 12}  # 29 - 3


def drain_houses(table: Table, orange_houses: int) -> None:
    """Ann builds brown, light-blue and pink to 3 houses a street, then ``orange_houses`` on
    orange: 29 - 6 - 9 - 9 = 5 houses left before orange."""
    table.fund("p1", 5000)
    for group in ("brown", "light-blue", "pink", "orange"):
        table.give_group("p1", group)
    for group in ("brown", "light-blue", "pink"):
        build_houses(table, group, 3)
    streets = GROUPS["orange"][:orange_houses]
    table.record("build", orders=[{"property": s} for s in streets])


def test_breaking_a_hotel_down_with_2_houses_in_the_bank_is_refused(hotel: Table) -> None:
    drain_houses(hotel, 3)
    assert hotel.supply()["houses"] == 2
    error = hotel.refused("sell_buildings", property="boardwalk", hotel=True, break_down=True)
    assert error.code == "no_houses_left"


def test_breaking_a_hotel_down_with_3_houses_in_the_bank_is_accepted(hotel: Table) -> None:
    drain_houses(hotel, 2)
    assert hotel.supply()["houses"] == 3
    hotel.record("sell_buildings", property="boardwalk", hotel=True, break_down=True)
    assert hotel.supply()["houses"] == 0


# -- bankruptcy: everything to the creditor, buildings included ------------------------------


def test_bankruptcy_to_a_player_hands_over_the_deeds_with_their_houses(built: Table) -> None:
    built.record("bankruptcy", debtor="p1", creditor="p2")
    for deed in ("park-place", "boardwalk"):
        assert built.prop(deed) == {"owner": "p2", "mortgaged": False, "houses": 3, "hotel": False}


def test_bankruptcy_to_a_player_hands_over_a_hotel_with_its_deed(hotel: Table) -> None:
    hotel.record("bankruptcy", debtor="p1", creditor="p2")
    assert hotel.prop("boardwalk") == {
        "owner": "p2",
        "mortgaged": False,
        "houses": 0,
        "hotel": True,
    }
    assert hotel.prop("park-place")["houses"] == 3


def test_bankruptcy_to_a_player_sells_no_buildings_to_the_bank(hotel: Table) -> None:
    txn = hotel.record("bankruptcy", debtor="p1", creditor="p2")
    # Only the cash moves: no building sale from the Bank.
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 1350}]
    assert txn["basis"]["buildings"] == []
    assert hotel.supply() == {"houses": 29, "hotels": 11}


def test_bankruptcy_to_a_player_hands_over_all_the_cash(built: Table) -> None:
    txn = built.record("bankruptcy", debtor="p1", creditor="p2")
    assert (txn["balances"]["p1"], txn["balances"]["p2"]) == (0, 2650)  # 1100 + 1550


def test_bankruptcy_creditor_pays_10_percent_on_a_mortgaged_deed_received(short: Table) -> None:
    short.record("mortgage", property="short-line")  # Bob 1100 + 100
    txn = short.record("bankruptcy", debtor="p2", creditor="p1")
    # Short Line's mortgage value 100: 10 % is 10.
    assert txn["postings"][-1] == {"from": "p1", "to": "bank", "amount": 10}
    assert txn["balances"]["p1"] == 1940  # 750 + 1200 - 10


def test_bankruptcy_to_the_bank_returns_the_buildings_to_the_supply(hotel: Table) -> None:
    hotel.record("bankruptcy", debtor="p1", creditor="bank")
    assert hotel.supply() == {"houses": 32, "hotels": 12}
    assert hotel.prop("boardwalk") == {
        "owner": "bank",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }


# -- the end at the second bankruptcy ------------------------------------------------------

# Four players: Ann the dark-blue group (750 cash), Bob two railroads (1100), Cy the utilities
# (1200), Di the other two railroads (1100).
DEALT_4 = {
    **DEALT,
    "p4": ["pennsylvania-railroad", "b-o-railroad"],
}


@pytest.fixture
def four(bank: TableBank) -> Table:
    return Table(bank, players=("Ann", "Bob", "Cy", "Di"), ruleset="short", dealt=DEALT_4)


def test_the_game_goes_on_after_the_first_bankruptcy(four: Table) -> None:
    four.record("bankruptcy", debtor="p3", creditor="bank")
    assert four.state()["status"] == "active"


def test_the_game_finishes_at_the_second_bankruptcy_with_two_players_left(four: Table) -> None:
    four.record("bankruptcy", debtor="p3", creditor="bank")
    four.record("bankruptcy", debtor="p4", creditor="p2")
    state = four.state()
    assert state["status"] == "finished"
    assert [p["bankrupt"] for p in state["players"]] == [False, False, True, True]


def test_the_second_bankruptcy_ranks_the_players_left_by_net_worth(four: Table) -> None:
    four.record("bankruptcy", debtor="p3", creditor="bank")
    txn = four.record("bankruptcy", debtor="p4", creditor="p2")
    # Bob: 1100 + Di's 1100 + four railroads at 200 = 3000. Ann: 750 + 750 of deeds = 1500.
    assert four.state()["standings"] == [
        {"player": "p2", "score": 3000, "rank": 1},
        {"player": "p1", "score": 1500, "rank": 2},
        {"player": "p4", "score": 0, "rank": 3},
        {"player": "p3", "score": 0, "rank": 4},
    ]
    assert [s["player"] for s in txn["basis"]["standings"]] == ["p2", "p1", "p4", "p3"]


def test_short_game_scores_a_hotel_with_its_3_houses_and_a_mortgage_at_half(
    four: Table,
) -> None:
    four.fund("p1", 1000)  # 1750
    build_houses(four, "dark-blue", 3)  # 6 x 200: 550
    four.record("build", property="boardwalk", hotel=True)  # 350
    four.record("mortgage", property="short-line")  # Bob 1100 + 100 = 1200
    four.record("bankruptcy", debtor="p3", creditor="bank")
    four.record("bankruptcy", debtor="p4", creditor="bank")
    standings = four.state()["standings"]
    # Ann: 350 cash + 750 of deeds + Park Place's 3 houses at 200 + Boardwalk's hotel at 200
    # with its 3 houses at 200 = 350 + 750 + 600 + 800.
    assert standings[0] == {"player": "p1", "score": 2500, "rank": 1}
    # Bob: 1200 cash + Reading 200 + Short Line mortgaged at 100.
    assert standings[1] == {"player": "p2", "score": 1500, "rank": 2}


def test_nothing_is_recorded_after_the_second_bankruptcy(four: Table) -> None:
    four.record("bankruptcy", debtor="p3", creditor="bank")
    four.record("bankruptcy", debtor="p4", creditor="p2")
    assert four.refused("salary", player="p1").code == "game_finished"
