"""The transaction bodies: shapes refused or kept exactly as given, typed by ``type``."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from ledger.transactions import RECORDABLE
from schemas.transactions import TRANSACTION_SCHEMAS, TransactionRequestSchema


def load(body):
    return TransactionRequestSchema().load(body)


def errors_of(body):
    with pytest.raises(ValidationError) as info:
        load(body)
    return info.value.messages


def test_every_type_a_client_may_send_has_a_schema():
    assert set(TRANSACTION_SCHEMAS) == RECORDABLE


def test_payment_keeps_from_and_to_as_the_api_names_them():
    body = {"type": "payment", "from": "p1", "to": "p2", "amount": 50}

    assert load(body) == body


def test_fields_not_given_are_left_out():
    assert load({"type": "rent", "payer": "p2", "property": "boardwalk"}) == {
        "type": "rent",
        "payer": "p2",
        "property": "boardwalk",
    }


def test_memo_may_be_null():
    assert load({"type": "finish", "memo": None}) == {"type": "finish", "memo": None}


def test_memo_over_500_characters_is_refused():
    assert list(errors_of({"type": "finish", "memo": "x" * 501})) == ["memo"]


def test_unknown_field_is_refused():
    assert errors_of({"type": "turn", "player": "p1", "dice": 7}) == {"dice": ["Unknown field."]}


def test_unknown_type_is_reported_alone():
    assert list(errors_of({"type": "loan", "colour": "red"})) == ["type"]


def test_type_that_is_not_a_string_is_refused():
    assert list(errors_of({"type": ["salary"]})) == ["type"]


def test_body_that_is_not_an_object_is_refused():
    assert errors_of("salary") == {"_schema": ["Invalid input type."]}


@pytest.mark.parametrize("amount", [True, "50", 12.5, 0, -1, 10**9 + 1])
def test_amount_is_a_positive_json_integer(amount):
    assert list(errors_of({"type": "payment", "from": "p1", "to": "p2", "amount": amount})) == [
        "amount"
    ]


def test_identifier_longer_than_64_characters_is_refused():
    assert list(errors_of({"type": "salary", "player": "p" * 65})) == ["player"]


def test_card_effect_is_one_of_the_five():
    assert list(errors_of({"type": "card", "player": "p1", "effect": "steal", "amount": 5})) == [
        "effect"
    ]


def test_repairs_card_needs_per_house_and_per_hotel():
    errors = errors_of({"type": "card", "player": "p1", "effect": "repairs"})

    assert set(errors) == {"per_house", "per_hotel"}


def test_repairs_card_takes_no_amount():
    body = {
        "type": "card",
        "player": "p1",
        "effect": "repairs",
        "per_house": 25,
        "per_hotel": 100,
        "amount": 5,
    }

    assert list(errors_of(body)) == ["amount"]


def test_collect_card_needs_an_amount():
    assert list(errors_of({"type": "card", "player": "p1", "effect": "collect"})) == ["amount"]


def test_luxury_tax_offers_no_choice():
    body = {"type": "tax", "player": "p1", "tax": "luxury", "choice": "flat"}

    assert list(errors_of(body)) == ["choice"]


def test_income_tax_without_a_choice_is_left_to_the_rules():
    body = {"type": "tax", "player": "p1", "tax": "income"}

    assert load(body) == body


@pytest.mark.parametrize("dice", [1, 13, "7"])
def test_dice_total_is_2_to_12(dice):
    body = {"type": "rent", "payer": "p1", "property": "water-works", "dice": dice}

    assert list(errors_of(body)) == ["dice"]


@pytest.mark.parametrize("multiplier", [0, 11])
def test_rent_multiplier_is_1_to_10(multiplier):
    body = {"type": "rent", "payer": "p1", "property": "short-line", "multiplier": multiplier}

    assert list(errors_of(body)) == ["multiplier"]


def test_auction_bid_is_at_least_1():
    body = {"type": "auction", "property": "boardwalk", "winner": "p1", "bid": 0}

    assert list(errors_of(body)) == ["bid"]


def test_jail_card_deck_is_chance_or_community_chest():
    body = {"type": "jail_card", "player": "p1", "action": "draw", "deck": "treasure"}

    assert list(errors_of(body)) == ["deck"]


def test_jail_card_action_is_draw_or_use():
    body = {"type": "jail_card", "player": "p1", "action": "sell", "deck": "chance"}

    assert list(errors_of(body)) == ["action"]


def test_build_needs_a_property_or_orders():
    assert list(errors_of({"type": "build"})) == ["property"]


def test_build_orders_keep_their_own_fields():
    body = {"type": "build", "orders": [{"property": "boardwalk", "hotel": True, "price": 250}]}

    assert load(body) == body


def test_build_with_orders_takes_no_property_of_its_own():
    body = {"type": "build", "property": "boardwalk", "orders": [{"property": "park-place"}]}

    assert list(errors_of(body)) == ["property"]


def test_build_of_houses_and_a_hotel_at_once_is_refused():
    body = {"type": "build", "property": "boardwalk", "houses": 1, "hotel": True}

    assert list(errors_of(body)) == ["houses"]


def test_build_houses_are_1_to_4():
    assert list(errors_of({"type": "build", "property": "boardwalk", "houses": 5})) == ["houses"]


def test_build_hotel_is_a_json_boolean():
    assert list(errors_of({"type": "build", "property": "boardwalk", "hotel": 1})) == ["hotel"]


def test_build_orders_are_1_to_20():
    assert list(errors_of({"type": "build", "orders": []})) == ["orders"]
    orders = [{"property": "boardwalk"}] * 21
    assert list(errors_of({"type": "build", "orders": orders})) == ["orders"]


def test_unknown_field_in_an_order_is_refused():
    body = {"type": "build", "orders": [{"property": "boardwalk", "floors": 2}]}

    assert errors_of(body) == {"orders": {0: {"floors": ["Unknown field."]}}}


def test_only_a_hotel_is_broken_down():
    body = {"type": "sell_buildings", "property": "boardwalk", "houses": 1, "break_down": True}

    assert list(errors_of(body)) == ["break_down"]


def test_hotel_broken_down_is_kept():
    body = {"type": "sell_buildings", "property": "boardwalk", "hotel": True, "break_down": True}

    assert load(body) == body


def test_trade_legs_keep_from_and_to():
    body = {
        "type": "trade",
        "legs": [
            {
                "from": "p1",
                "to": "p2",
                "cash": 0,
                "properties": ["boardwalk"],
                "jail_cards": ["chance"],
            }
        ],
        "unmortgage": ["boardwalk"],
    }

    assert load(body) == body


def test_trade_needs_1_to_20_legs():
    assert list(errors_of({"type": "trade", "legs": []})) == ["legs"]
    leg = {"from": "p1", "to": "p2", "cash": 1}
    assert list(errors_of({"type": "trade", "legs": [leg] * 21})) == ["legs"]


def test_trade_cash_is_not_negative():
    body = {"type": "trade", "legs": [{"from": "p1", "to": "p2", "cash": -5}]}

    assert errors_of(body) == {
        "legs": {
            0: {
                "cash": ["Must be greater than or equal to 0 and less than or equal to 1000000000."]
            }
        }
    }


def test_trade_jail_cards_are_decks():
    body = {"type": "trade", "legs": [{"from": "p1", "to": "p2", "jail_cards": ["free"]}]}

    assert list(errors_of(body)["legs"][0]) == ["jail_cards"]


def test_bankruptcy_owed_is_optional_and_at_least_1():
    body = {"type": "bankruptcy", "debtor": "p1", "creditor": "bank"}
    assert load(body) == body

    assert list(errors_of({**body, "owed": 0})) == ["owed"]


def test_finish_takes_no_fields():
    assert list(errors_of({"type": "finish", "player": "p1"})) == ["player"]


def test_void_needs_the_seq_and_a_reason():
    assert set(errors_of({"type": "void"})) == {"seq", "reason"}


def test_void_reason_is_stripped_and_not_blank():
    assert list(errors_of({"type": "void", "seq": 4, "reason": "  "})) == ["reason"]
    assert load({"type": "void", "seq": 4, "reason": " typo "})["reason"] == "typo"
