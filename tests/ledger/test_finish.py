"""The end of a game and its scoring (docs/rules.md and 2: scoring by net worth)."""

from __future__ import annotations

from ledger_helpers import Table


def scored(table: Table) -> Table:
    """Ann 1600 (with two hotels), Bob 1500 (with a mortgaged Boardwalk), Cy 1400."""
    table.give_group("p1", "brown")
    table.build_hotels("brown")  # cash 880
    table.record("payment", **{"from": "p3", "to": "p1", "amount": 100})  # 980; Cy 1400
    table.buy("p2", "boardwalk")
    table.record("mortgage", property="boardwalk")  # cash 1300
    return table


def test_net_worth_counts_a_hotel_with_the_4_houses_it_replaced(table: Table) -> None:
    scored(table)
    # 980 cash + 120 of deeds + 2 x (50 + 4 x 50).
    assert table.player("p1")["net_worth"] == 1600


def test_net_worth_counts_a_mortgaged_deed_at_half_its_price(table: Table) -> None:
    scored(table)
    # 1300 cash + Boardwalk at 200.
    assert table.player("p2")["net_worth"] == 1500


def test_net_worth_counts_houses_at_their_price(table: Table) -> None:
    table.give_group("p2", "light-blue")  # 1180
    table.build_houses("light-blue", 2)  # six houses at 50: 880
    # 880 cash + 320 of deeds + 300 of houses.
    assert table.player("p2")["net_worth"] == 1500


def test_finish_ranks_the_players_by_net_worth(table: Table) -> None:
    scored(table)
    txn = table.record("finish")
    assert txn["postings"] == []
    assert table.state()["standings"] == [
        {"player": "p1", "score": 1600, "rank": 1},
        {"player": "p2", "score": 1500, "rank": 2},
        {"player": "p3", "score": 1400, "rank": 3},
    ]


def test_finish_marks_the_game_finished(table: Table) -> None:
    table.record("finish")
    assert table.state()["status"] == "finished"


def test_nothing_is_recorded_after_finish(table: Table) -> None:
    table.record("finish")
    assert table.refused("salary", player="p1").code == "game_finished"


def test_finish_cannot_be_recorded_twice(table: Table) -> None:
    table.record("finish")
    assert table.refused("finish").code == "game_finished"
