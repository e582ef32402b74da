"""Every refusal a classic game can give: 409 with the rule's code, nothing recorded."""

from __future__ import annotations

GREEN = ("pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue")
YELLOW = ("atlantic-avenue", "ventnor-avenue", "marvin-gardens")
RED = ("kentucky-avenue", "indiana-avenue", "illinois-avenue")
ORANGE = ("st-james-place", "tennessee-avenue", "new-york-avenue")
LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")
DARK_BLUE = ("park-place", "boardwalk")
BROWN = ("mediterranean-avenue", "baltic-avenue")


def test_refused_transaction_records_nothing(table):
    table.refusal({"type": "payment", "from": "p1", "to": "p2", "amount": 2000})

    assert table.state()["last_seq"] == 3
    assert table.state()["balances"]["p1"] == 1500


def test_insufficient_funds_says_the_shortfall(table):
    problem = table.refusal({"type": "payment", "from": "p1", "to": "p2", "amount": 2000})

    assert problem["code"] == "insufficient_funds"
    assert problem["shortfall"] == 500
    assert problem["can_raise"] == 0


def test_insufficient_funds_says_what_mortgaging_could_raise(table):
    table.buy("p1", "boardwalk")  # 1100 cash; Boardwalk mortgages for 200

    problem = table.refusal({"type": "payment", "from": "p1", "to": "p2", "amount": 1200})

    assert problem["code"] == "insufficient_funds"
    assert (problem["shortfall"], problem["can_raise"]) == (100, 200)


def test_already_owned(table):
    table.buy("p1", "boardwalk")

    problem = table.refusal({"type": "buy", "player": "p2", "property": "boardwalk"})

    assert problem["code"] == "already_owned"


def test_not_owner_of_a_traded_deed(table):
    problem = table.refusal(
        {"type": "trade", "legs": [{"from": "p1", "to": "p2", "properties": ["boardwalk"]}]}
    )

    assert problem["code"] == "not_owner"


def test_mortgaged_deed_collects_no_rent(table):
    table.buy("p1", "boardwalk")
    table.record({"type": "mortgage", "property": "boardwalk"})

    problem = table.refusal({"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert problem["code"] == "mortgaged"


def test_not_mortgaged(table):
    table.buy("p1", "boardwalk")

    problem = table.refusal({"type": "unmortgage", "property": "boardwalk"})

    assert problem["code"] == "not_mortgaged"


def test_group_incomplete(table):
    table.buy("p1", "boardwalk")

    problem = table.refusal({"type": "build", "property": "boardwalk"})

    assert problem["code"] == "group_incomplete"


def test_group_has_buildings(table):
    table.buy("p1", *DARK_BLUE)
    table.record({"type": "build", "property": "boardwalk"})

    problem = table.refusal({"type": "mortgage", "property": "park-place"})

    assert problem["code"] == "group_has_buildings"


def test_uneven_building(table):
    table.buy("p1", *DARK_BLUE)

    problem = table.refusal({"type": "build", "property": "boardwalk", "houses": 2})

    assert problem["code"] == "uneven_building"


def test_building_limit_of_4_houses(table):
    table.fund("p1", 2000)
    table.buy("p1", *DARK_BLUE)
    table.record({"type": "build", "orders": [{"property": s, "houses": 4} for s in DARK_BLUE]})

    problem = table.refusal({"type": "build", "property": "boardwalk"})

    assert problem["code"] == "building_limit"


def test_no_houses_left_after_32(table):
    table.fund("p1", 20000)
    table.buy("p1", *GREEN, *YELLOW, *DARK_BLUE, *BROWN)
    table.record(  # 8 streets with 4 houses each: the Bank's 32
        {
            "type": "build",
            "orders": [{"property": s, "houses": 4} for s in (*GREEN, *YELLOW, *DARK_BLUE)],
        }
    )
    assert table.state()["bank"]["houses"] == 0

    problem = table.refusal({"type": "build", "property": "baltic-avenue"})

    assert problem["code"] == "no_houses_left"


def test_no_hotels_left_after_12(table):
    table.fund("p1", 20000)
    table.buy("p1", *GREEN, *YELLOW, *RED, *ORANGE, *LIGHT_BLUE)
    for streets in ((*GREEN, *YELLOW), (*RED, *ORANGE)):
        orders = []
        for street in streets:
            orders += [{"property": street, "houses": 4}, {"property": street, "hotel": True}]
        table.record({"type": "build", "orders": orders})
    assert table.state()["bank"]["hotels"] == 0

    problem = table.refusal(
        {
            "type": "build",
            "orders": [
                *({"property": s, "houses": 4} for s in LIGHT_BLUE),
                {"property": "oriental-avenue", "hotel": True},
            ],
        }
    )

    assert problem["code"] == "no_hotels_left"


def test_no_buildings_to_sell(table):
    table.buy("p1", *DARK_BLUE)

    problem = table.refusal({"type": "sell_buildings", "property": "boardwalk"})

    assert problem["code"] == "no_buildings"


def test_not_buildable_railroad(table):
    table.buy("p1", "reading-railroad")

    problem = table.refusal({"type": "build", "property": "reading-railroad"})

    assert problem["code"] == "not_buildable"


def test_player_bankrupt_receives_no_salary(table):
    table.record({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 2000})

    problem = table.refusal({"type": "salary", "player": "p3"})

    assert problem["code"] == "player_bankrupt"


def test_game_finished_records_nothing_more(table):
    table.record({"type": "finish"})

    problem = table.refusal({"type": "salary", "player": "p1"})

    assert problem["code"] == "game_finished"


def test_option_disabled_when_income_tax_is_flat_only(new_game):
    table = new_game(income_tax="flat")

    problem = table.refusal({"type": "tax", "player": "p1", "tax": "income", "choice": "percent"})

    assert problem["code"] == "option_disabled"


def test_unknown_player(table):
    problem = table.refusal({"type": "salary", "player": "p9"})

    assert problem["code"] == "unknown_player"


def test_unknown_property(table):
    problem = table.refusal({"type": "buy", "player": "p1", "property": "mayfair"})

    assert problem["code"] == "unknown_property"


def test_not_owned_deed_collects_no_rent(table):
    problem = table.refusal({"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert problem["code"] == "not_owned"


def test_own_property_collects_no_rent_from_its_owner(table):
    table.buy("p1", "boardwalk")

    problem = table.refusal({"type": "rent", "payer": "p1", "property": "boardwalk"})

    assert problem["code"] == "own_property"


def test_no_jail_card_to_use(table):
    problem = table.refusal(
        {"type": "jail_card", "player": "p1", "action": "use", "deck": "chance"}
    )

    assert problem["code"] == "no_jail_card"


def test_not_insolvent_debtor_cannot_go_bankrupt(table):
    problem = table.refusal({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 100})

    assert problem["code"] == "not_insolvent"


def test_claim_window_closed_once_another_turn_began(table):
    table.buy("p1", "boardwalk")
    table.record({"type": "turn", "player": "p3"})

    problem = table.refusal({"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert problem["code"] == "claim_window_closed"


def test_owner_in_jail_collects_no_rent_under_the_house_rule(new_game):
    table = new_game(no_rent_in_jail=True)
    table.buy("p1", "boardwalk")
    table.record({"type": "go_to_jail", "player": "p1"})

    problem = table.refusal({"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert problem["code"] == "owner_in_jail"
