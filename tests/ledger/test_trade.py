"""Trades between players (docs/rules.md: Trades; Mortgages)."""

from __future__ import annotations

from ledger_helpers import Table


def test_trade_moves_cash_deeds_and_jail_cards_at_once(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.buy("p3", "park-place")
    table.record("jail_card", player="p1", action="draw", deck="chance")
    txn = table.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"], "jail_cards": ["chance"]},
            {"from": "p2", "to": "p1", "cash": 450},
            {"from": "p3", "to": "p2", "properties": ["park-place"]},
            {"from": "p2", "to": "p3", "cash": 400},
        ],
    )
    assert txn["postings"] == [
        {"from": "p2", "to": "p1", "amount": 450},
        {"from": "p2", "to": "p3", "amount": 400},
    ]
    assert txn["balances"]["p1"] == 1550  # 1500 - 400 + 450
    assert txn["balances"]["p2"] == 650  # 1500 - 450 - 400
    assert txn["balances"]["p3"] == 1550  # 1500 - 350 + 400
    assert table.prop("boardwalk")["owner"] == "p2"
    assert table.prop("park-place")["owner"] == "p2"
    assert table.player("p2")["jail_cards"] == ["chance"]
    assert table.player("p1")["jail_cards"] == []


def test_jail_card_sold_at_an_agreed_price(table: Table) -> None:
    table.record("jail_card", player="p3", action="draw", deck="community_chest")
    txn = table.record(
        "trade",
        legs=[
            {"from": "p3", "to": "p1", "jail_cards": ["community_chest"]},
            {"from": "p1", "to": "p3", "cash": 35},
        ],
    )
    assert txn["postings"] == [{"from": "p1", "to": "p3", "amount": 35}]
    assert table.player("p1")["jail_cards"] == ["community_chest"]


def test_trade_of_a_deed_the_giver_does_not_hold_is_refused(table: Table) -> None:
    table.buy("p3", "boardwalk")
    error = table.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p2", "to": "p1", "cash": 400},
        ],
    )
    assert error.code == "not_owner"


def test_trade_of_a_jail_card_the_giver_does_not_hold_is_refused(table: Table) -> None:
    error = table.refused("trade", legs=[{"from": "p1", "to": "p2", "jail_cards": ["chance"]}])
    assert error.code == "no_jail_card"


def test_trade_of_a_deed_whose_group_has_buildings_is_refused(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("build", property="park-place")
    error = table.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p2", "to": "p1", "cash": 600},
        ],
    )
    assert error.code == "group_has_buildings"


def test_received_mortgaged_deed_costs_the_receiver_10_percent_at_once(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    txn = table.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    assert txn["postings"] == [
        {"from": "p2", "to": "p1", "amount": 100},
        {"from": "p2", "to": "bank", "amount": 20},
    ]
    assert table.prop("boardwalk") == {
        "owner": "p2",
        "mortgaged": True,
        "houses": 0,
        "hotel": False,
    }


def test_mortgaged_deed_lifted_in_the_trade_costs_value_plus_10_percent(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    txn = table.record(
        "trade",
        legs=[{"from": "p1", "to": "p2", "properties": ["boardwalk"]}],
        unmortgage=["boardwalk"],
    )
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 220}]
    assert table.prop("boardwalk")["mortgaged"] is False


def test_mortgaged_deed_lifted_later_costs_value_plus_10_percent_again(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    table.record("trade", legs=[{"from": "p1", "to": "p2", "properties": ["boardwalk"]}])
    txn = table.record("unmortgage", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 220}]


def test_trade_the_receiver_cannot_pay_for_is_refused_whole(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("jail_card", player="p1", action="draw", deck="chance")
    error = table.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"], "jail_cards": ["chance"]},
            {"from": "p2", "to": "p1", "cash": 1600},
        ],
    )
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 100)
    assert table.prop("boardwalk")["owner"] == "p1"
    assert table.player("p1")["jail_cards"] == ["chance"]


def test_trade_whose_mortgage_fee_the_receiver_cannot_pay_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    error = table.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p2", "to": "p1", "cash": 1490},
        ],
    )
    # 1490 + the 20 fee against 1500.
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 10)


def test_trade_with_an_unknown_player_is_refused(table: Table) -> None:
    error = table.refused("trade", legs=[{"from": "p1", "to": "p5", "cash": 10}])
    assert error.code == "unknown_player"


def test_trade_of_an_unknown_property_is_refused(table: Table) -> None:
    error = table.refused(
        "trade", legs=[{"from": "p1", "to": "p2", "properties": ["old-kent-road"]}]
    )
    assert error.code == "unknown_property"


def test_a_trade_leg_that_moves_nothing_is_refused(table: Table) -> None:
    err = table.refused("trade", legs=[{"from": "p1", "to": "p2"}])
    assert err.extra["errors"].keys() == {"legs.0"}


def test_a_leg_from_a_player_to_himself_is_refused(table: Table) -> None:
    # docs/rules.md, Trades: a trade moves things between two different players.
    table.buy("p1", "boardwalk")
    error = table.refused("trade", legs=[{"from": "p1", "to": "p1", "cash": 10}])
    assert error.extra["errors"] == {"legs.0.to": ["a leg needs two different players"]}


def test_a_deed_traded_twice_in_one_trade_is_refused(table: Table) -> None:
    table.buy("p1", "boardwalk")
    error = table.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p1", "to": "p3", "properties": ["boardwalk"]},
        ],
    )
    assert error.extra["errors"] == {"legs.1.properties": ["boardwalk is traded twice"]}


def test_lifting_a_mortgage_on_a_deed_outside_the_trade_is_refused(table: Table) -> None:
    # docs/rules.md, Trades: a mortgaged deed received in a trade may be lifted at once; a deed
    # the trade does not move is not the receiver's to lift there.
    table.buy("p1", "boardwalk")
    table.buy("p2", "park-place")
    table.record("mortgage", property="park-place")
    error = table.refused(
        "trade",
        legs=[{"from": "p1", "to": "p2", "properties": ["boardwalk"]}],
        unmortgage=["park-place"],
    )
    assert error.extra["errors"] == {
        "unmortgage": ["park-place is not a mortgaged deed of this trade"]
    }
