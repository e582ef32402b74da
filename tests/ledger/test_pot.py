"""The Free Parking pot (house rule, docs/rules.md: taxes and fines go into a pot that
the player landing on Free Parking collects), and no pot without it (docs/rules.md, "The pot
without the option")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from ledger_helpers import Table

from ledger.application import TableBank


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


def accounts_of(bank: TableBank, game_id: str, kind: str, field: str) -> list[str]:
    """The choices ``/moves`` offers for a field of a type."""
    move = next(m for m in bank.moves(game_id)["moves"] if m["type"] == kind)
    return list(next(f for f in move["fields"] if f["name"] == field)["choices"])


@pytest.mark.parametrize("ruleset", ["classic", "short", "timed"])
def test_without_the_house_rule_nothing_is_paid_into_the_pot(bank: TableBank, ruleset: str) -> None:
    # docs/rules.md, "The pot without the option": p2's 30 to the pot is refused, nothing moves.
    game = Table(bank, ruleset=ruleset)
    error = game.refused("payment", **{"from": "p2", "to": "pot", "amount": 30})
    assert (error.code, error.params["reason"]) == ("option_disabled", "free_parking_pot")
    assert game.cash("pot") == 0
    assert game.refused("pot_collect", player="p1").code == "option_disabled"
    # Nor out of it, nor from the Bank into it.
    error = game.refused("payment", **{"from": "pot", "to": "p1", "amount": 30})
    assert error.code == "option_disabled"
    error = game.refused("payment", **{"from": "bank", "to": "pot", "amount": 30})
    assert error.code == "option_disabled"
    # /moves offers no pot either way.
    for field in ("from", "to"):
        assert "pot" not in accounts_of(bank, game.id, "payment", field)
    # A payment between the other accounts is still recorded.
    txn = game.record("payment", **{"from": "p2", "to": "bank", "amount": 30})
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 30}]


def test_with_the_house_rule_a_payment_into_the_pot_is_collected(bank: TableBank) -> None:
    game = Table(bank, options={"free_parking_pot": True})
    game.record("payment", **{"from": "p2", "to": "pot", "amount": 30})
    assert game.cash("pot") == 30
    assert "pot" in accounts_of(bank, game.id, "payment", "to")
    txn = game.record("pot_collect", player="p1")
    assert txn["postings"] == [{"from": "pot", "to": "p1", "amount": 30}]


def test_millionaire_elite_s_kitty_takes_a_payment(bank: TableBank) -> None:
    # docs/rules.md, "Set-up and the jackpot": the kitty starts with 200.
    elite = Table(bank, ("Ann", "Bob"), ruleset="millionaire-elite")
    elite.record("payment", **{"from": "p2", "to": "pot", "amount": 30})
    assert elite.cash("pot") == 230
    assert "pot" in accounts_of(bank, elite.id, "payment", "to")


def old_classic(bank: TableBank) -> dict[str, Any]:
    """The classic rule set as written before ``pot_only_with_option``."""
    old = json.loads(json.dumps(bank.ruleset("classic")))
    del old["parameters"]["pot_only_with_option"]
    for deed in old["deeds"]:
        del deed["id"], deed["mortgage_value"]
    return {**old, "name": "classic-before"}


def test_a_game_of_a_rule_set_written_before_keeps_its_pot_and_imports(bank: TableBank) -> None:
    """Games stored before the refusal replay and import as they were played."""
    gid = bank.create_game(
        "old", "classic-before", ["Ann", "Bob"], {}, ruleset_document=old_classic(bank)
    )["id"]
    assert "pot" not in accounts_of(bank, gid, "payment", "to")
    bank.record(gid, {"type": "payment", "from": "p2", "to": "pot", "amount": 30})
    assert bank.game(gid)["balances"]["pot"] == 30
    # While it holds money, /moves offers it, to pay it out.
    assert "pot" in accounts_of(bank, gid, "payment", "from")
    copied = bank.import_game(json.loads(json.dumps(bank.export(gid))))
    assert bank.game(copied["id"])["balances"]["pot"] == 30
    bank.record(gid, {"type": "payment", "from": "pot", "to": "p2", "amount": 30})
    assert bank.game(gid)["balances"]["pot"] == 0
