"""Jail: the fine, the cards, going and leaving (docs/rules.md: Salary; Taxes, fines, cards)."""

from __future__ import annotations

from ledger_helpers import Table


def test_go_to_jail_moves_no_money(table: Table) -> None:
    txn = table.record("go_to_jail", player="p1")
    assert txn["postings"] == []
    assert txn["balances"]["p1"] == 1500


def test_go_to_jail_puts_the_player_in_jail(table: Table) -> None:
    table.record("go_to_jail", player="p1")
    assert table.player("p1")["in_jail"] is True


def test_jail_fine_is_50_to_the_bank(table: Table) -> None:
    table.record("go_to_jail", player="p1")
    txn = table.record("jail_fine", player="p1")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 50}]


def test_jail_fine_lets_the_player_out(table: Table) -> None:
    table.record("go_to_jail", player="p1")
    table.record("jail_fine", player="p1")
    assert table.player("p1")["in_jail"] is False


def test_jail_fine_beyond_cash_is_refused(table: Table) -> None:
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 1460})
    error = table.refused("jail_fine", player="p1")
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 10)


def test_jail_fine_goes_to_the_pot_under_the_free_parking_house_rule(table: Table) -> None:
    pot_table = Table(table.bank, options={"free_parking_pot": True})
    txn = pot_table.record("jail_fine", player="p2")
    assert txn["postings"] == [{"from": "p2", "to": "pot", "amount": 50}]


def test_leave_jail_on_doubles_is_free(table: Table) -> None:
    table.record("go_to_jail", player="p1")
    txn = table.record("leave_jail", player="p1")
    assert txn["postings"] == []
    assert table.player("p1")["in_jail"] is False


def test_jail_card_drawn_is_kept_by_the_player(table: Table) -> None:
    txn = table.record("jail_card", player="p2", action="draw", deck="chance")
    assert txn["postings"] == []
    assert table.player("p2")["jail_cards"] == ["chance"]


def test_a_player_may_hold_both_jail_cards(table: Table) -> None:
    table.record("jail_card", player="p2", action="draw", deck="chance")
    table.record("jail_card", player="p2", action="draw", deck="community_chest")
    assert table.player("p2")["jail_cards"] == ["chance", "community_chest"]


def test_jail_card_cannot_be_drawn_while_another_player_holds_it(table: Table) -> None:
    table.record("jail_card", player="p2", action="draw", deck="chance")
    error = table.refused("jail_card", player="p3", action="draw", deck="chance")
    assert error.code == "no_jail_card"


def test_jail_card_used_lets_the_player_out_for_free(table: Table) -> None:
    table.record("jail_card", player="p1", action="draw", deck="community_chest")
    table.record("go_to_jail", player="p1")
    txn = table.record("jail_card", player="p1", action="use", deck="community_chest")
    assert txn["postings"] == []
    assert table.player("p1")["in_jail"] is False


def test_jail_card_used_goes_back_under_its_deck(table: Table) -> None:
    table.record("jail_card", player="p1", action="draw", deck="community_chest")
    table.record("jail_card", player="p1", action="use", deck="community_chest")
    assert table.player("p1")["jail_cards"] == []
    assert table.state()["jail_cards"]["community_chest"] == "deck"


def test_jail_card_use_without_the_card_is_refused(table: Table) -> None:
    table.record("go_to_jail", player="p1")
    error = table.refused("jail_card", player="p1", action="use", deck="chance")
    assert error.code == "no_jail_card"


def test_jail_card_held_by_another_player_cannot_be_used(table: Table) -> None:
    table.record("jail_card", player="p2", action="draw", deck="chance")
    error = table.refused("jail_card", player="p1", action="use", deck="chance")
    assert error.code == "no_jail_card"
