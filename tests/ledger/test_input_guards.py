"""The ledger refuses malformed fields itself, even where the API's schemas would have.

A log being imported, or any caller of ``TableBank.record``, must not be able to move a house
or a deed for nothing with a zero or negative count.
"""

from __future__ import annotations

import pytest
from ledger_helpers import Table

from ledger.errors import LedgerError


def test_negative_payment_is_refused_naming_amount(table: Table) -> None:
    err = table.refused("payment", **{"from": "p1", "to": "p2", "amount": -5})
    assert (err.code, err.extra["errors"].keys()) == ("validation_error", {"amount"})


def test_zero_payment_is_refused(table: Table) -> None:
    assert table.refused("payment", **{"from": "p1", "to": "p2", "amount": 0}).code == (
        "validation_error"
    )


def test_selling_a_negative_number_of_houses_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 2)
    err = table.refused("sell_buildings", property="baltic-avenue", houses=-1)
    assert err.extra["errors"].keys() == {"houses"}


def test_building_a_negative_number_of_houses_is_refused(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_houses("brown", 1)
    err = table.refused("build", property="baltic-avenue", houses=-1)
    assert err.extra["errors"].keys() == {"houses"}


def test_unknown_card_effect_is_refused(table: Table) -> None:
    err = table.refused("card", player="p1", effect="teleport", amount=10)
    assert err.extra["errors"].keys() == {"effect"}


@pytest.mark.parametrize("multiplier", [0, -2, 11])
def test_rent_multiplier_out_of_range_is_refused(table: Table, multiplier: int) -> None:
    table.buy("p1", "reading-railroad")
    err = table.refused("rent", payer="p2", property="reading-railroad", multiplier=multiplier)
    assert err.extra["errors"].keys() == {"multiplier"}


@pytest.mark.parametrize("dice", [1, 13, -3])
def test_utility_dice_out_of_range_is_refused(table: Table, dice: int) -> None:
    table.buy("p1", "electric-company")
    err = table.refused("rent", payer="p2", property="electric-company", dice=dice)
    assert err.extra["errors"].keys() == {"dice"}


def test_negative_trade_cash_is_refused(table: Table) -> None:
    err = table.refused("trade", legs=[{"from": "p1", "to": "p2", "cash": -100}])
    assert err.code == "validation_error"


def test_unknown_income_tax_choice_is_refused(table: Table) -> None:
    err = table.refused("tax", player="p1", tax="income", choice="half")
    assert err.extra["errors"].keys() == {"choice"}


def test_player_given_as_a_list_is_an_unknown_player(table: Table) -> None:
    assert table.refused("salary", player=["p1"]).code == "unknown_player"


def test_unknown_jail_deck_is_refused(table: Table) -> None:
    err = table.refused("jail_card", player="p1", action="draw", deck="bonus")
    assert err.extra["errors"].keys() == {"deck"}


def test_a_payment_without_its_payee_is_refused_naming_to(table: Table) -> None:
    err = table.refused("payment", **{"from": "p1", "amount": 10})
    assert (err.code, err.extra["errors"]) == ("validation_error", {"to": ["required"]})


def test_a_trade_leg_without_its_giver_is_refused_naming_from(table: Table) -> None:
    err = table.refused("trade", legs=[{"to": "p2", "cash": 10}])
    assert err.code == "validation_error"
    assert err.extra["errors"] == {"from": ["required"]}


@pytest.mark.parametrize("kind", [5, None, ["payment"], {"payment": 1}])
def test_a_type_that_is_not_a_name_is_refused(table: Table, kind: object) -> None:
    before = table.state()["last_seq"]
    with pytest.raises(LedgerError) as refused:
        table.bank.record(table.id, {"type": kind, "player": "p1"})
    assert refused.value.code == "validation_error"
    assert table.state()["last_seq"] == before
