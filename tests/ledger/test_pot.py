"""The Free Parking pot (house rule, docs/rules.md: taxes and fines go into a pot that
the player landing on Free Parking collects)."""

from __future__ import annotations

from ledger_helpers import Table


def test_player_on_free_parking_collects_the_whole_pot(table: Table) -> None:
    pot = Table(table.bank, options={"free_parking_pot": True})
    pot.record("tax", player="p1", tax="luxury")  # 75 into the pot
    pot.record("jail_fine", player="p2")  # 50 into the pot
    txn = pot.record("pot_collect", player="p3")
    assert txn["postings"] == [{"from": "pot", "to": "p3", "amount": 125}]
    assert txn["balances"]["pot"] == 0
    assert txn["balances"]["p3"] == 1625


def test_pot_collect_without_the_house_rule_is_refused(table: Table) -> None:
    assert table.refused("pot_collect", player="p1").code == "option_disabled"
