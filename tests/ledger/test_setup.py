"""Set-up (docs/rules.md, Set-up): 1500 each from the Bank, every deed and building with the
Bank."""

from __future__ import annotations

from ledger_helpers import Table

from ledger.application import TableBank


def test_each_player_starts_with_1500(table: Table) -> None:
    assert [p["cash"] for p in table.state()["players"]] == [1500, 1500, 1500]


def test_bank_stands_at_minus_1500_per_player(bank: TableBank) -> None:
    assert Table(bank, players=("Ann", "Bob", "Cy")).cash("bank") == -4500
    assert Table(bank, players=("Ann", "Bob", "Cy", "Di", "Ed")).cash("bank") == -7500


def test_starting_cash_is_recorded_as_one_transaction_per_player(table: Table) -> None:
    txns = list(table.bank.transactions(table.id))
    assert [t["type"] for t in txns] == ["starting_cash"] * 3
    assert [t["postings"] for t in txns] == [
        [{"from": "bank", "to": "p1", "amount": 1500}],
        [{"from": "bank", "to": "p2", "amount": 1500}],
        [{"from": "bank", "to": "p3", "amount": 1500}],
    ]


def test_bank_holds_all_28_deeds_32_houses_and_12_hotels(table: Table) -> None:
    state = table.state()
    assert len(state["properties"]) == 28
    assert {p["owner"] for p in state["properties"].values()} == {"bank"}
    assert state["bank"] == {"houses": 32, "hotels": 12}


def test_players_start_out_of_jail_without_cards(table: Table) -> None:
    player = table.player("p1")
    assert (player["in_jail"], player["jail_cards"], player["bankrupt"]) == (False, [], False)
