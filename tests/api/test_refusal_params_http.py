"""A refusal carries the params its sentence was built from (API.md v1.1, "Refusals a client
can translate"): ids and whole numbers, with the figures of the rules (docs/rules.md)."""

from __future__ import annotations


def test_a_payment_beyond_the_cash_says_who_is_short_of_what_and_to_whom(table):
    # Ann holds her 1500 starting cash and nothing to sell or mortgage.
    problem = table.refusal({"type": "payment", "from": "p1", "to": "p2", "amount": 5000})

    assert problem["code"] == "insufficient_funds"
    assert problem["params"] == {
        "payer": "p1",
        "amount": 5000,
        "cash": 1500,
        "shortfall": 3500,
        "can_raise": 0,
        "creditor": "p2",
    }


def test_insufficient_funds_keeps_its_version_1_members(table):
    problem = table.refusal({"type": "payment", "from": "p1", "to": "p2", "amount": 5000})

    assert (problem["account"], problem["amount"]) == ("p1", 5000)
    assert (problem["shortfall"], problem["can_raise"]) == (3500, 0)


def test_rent_short_is_owed_to_the_deeds_owner(table):
    table.buy("p1", "boardwalk")  # bare Boardwalk charges 50
    table.record({"type": "payment", "from": "p2", "to": "p3", "amount": 1460})  # Bob keeps 40

    problem = table.refusal({"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert problem["params"] == {
        "payer": "p2",
        "amount": 50,
        "cash": 40,
        "shortfall": 10,
        "can_raise": 0,
        "creditor": "p1",
    }


def test_a_tax_short_is_owed_to_the_bank(table):
    table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 1450})  # Ann keeps 50

    problem = table.refusal({"type": "tax", "player": "p1", "tax": "luxury"})  # 75

    assert problem["params"] == {
        "payer": "p1",
        "amount": 75,
        "cash": 50,
        "shortfall": 25,
        "can_raise": 0,
        "creditor": "bank",
    }


def test_a_tax_into_the_free_parking_pot_is_owed_to_the_bank_too(new_game):
    table = new_game(free_parking_pot=True)
    table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 1450})

    problem = table.refusal({"type": "tax", "player": "p1", "tax": "luxury"})

    assert problem["params"]["creditor"] == "bank"


def test_a_purchase_short_is_owed_to_the_bank_with_what_mortgaging_could_raise(table):
    table.buy("p1", "boardwalk", "park-place")  # 400 + 350: 750 left; they mortgage for 375
    table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 700})  # 50 left

    problem = table.refusal({"type": "buy", "player": "p1", "property": "mediterranean-avenue"})

    assert problem["params"] == {
        "payer": "p1",
        "amount": 60,
        "cash": 50,
        "shortfall": 10,
        "can_raise": 375,
        "creditor": "bank",
    }


def test_a_card_paying_each_player_names_no_single_creditor(table):
    table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 1450})  # Ann keeps 50

    problem = table.refusal({"type": "card", "player": "p1", "effect": "pay_each", "amount": 50})

    assert problem["params"] == {
        "payer": "p1",
        "amount": 100,
        "cash": 50,
        "shortfall": 50,
        "can_raise": 0,
    }


def test_rent_on_a_mortgaged_deed_names_the_deed(table):
    table.buy("p1", "mediterranean-avenue")
    table.record({"type": "mortgage", "property": "mediterranean-avenue"})

    problem = table.refusal({"type": "rent", "payer": "p2", "property": "mediterranean-avenue"})

    assert problem["code"] == "mortgaged"
    assert problem["params"] == {"reason": "rent", "property": "mediterranean-avenue"}
    assert problem["detail"] == "mediterranean-avenue is mortgaged: no rent"


def test_building_on_a_group_with_a_mortgaged_deed_names_that_deed(table):
    table.buy("p1", "mediterranean-avenue", "baltic-avenue")
    table.record({"type": "mortgage", "property": "baltic-avenue"})

    problem = table.refusal({"type": "build", "property": "mediterranean-avenue"})

    assert problem["params"] == {"reason": "build", "property": "baltic-avenue", "group": "brown"}


def test_uneven_building_gives_each_deeds_level(table):
    table.buy("p1", "park-place", "boardwalk")

    problem = table.refusal({"type": "build", "property": "boardwalk", "houses": 2})

    assert problem["params"] == {
        "reason": "uneven",
        "property": "boardwalk",
        "group": "dark-blue",
        "levels": {"park-place": 0, "boardwalk": 2},
    }
    assert problem["levels"] == {"park-place": 0, "boardwalk": 2}  # version 1's member


def test_a_fifth_house_gives_the_limit_of_four(table):
    table.fund("p1", 2000)
    table.buy("p1", "park-place", "boardwalk")
    orders = [{"property": s, "houses": 4} for s in ("park-place", "boardwalk")]
    table.record({"type": "build", "orders": orders})

    problem = table.refusal({"type": "build", "property": "boardwalk"})

    assert problem["params"] == {"reason": "houses", "property": "boardwalk", "limit": 4}


def test_a_deed_bought_twice_names_its_owner(table):
    table.buy("p1", "boardwalk")

    problem = table.refusal({"type": "buy", "player": "p2", "property": "boardwalk"})

    assert problem["params"] == {"property": "boardwalk", "owner": "p1"}


def test_a_bankruptcy_of_a_solvent_debtor_says_what_he_could_raise(table):
    problem = table.refusal({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 100})

    assert problem["params"] == {
        "debtor": "p3",
        "owed": 100,
        "cash": 1500,
        "can_raise": 0,
        "total": 1500,
    }
    assert (problem["cash"], problem["can_raise"]) == (1500, 0)  # version 1's members


def test_a_void_of_the_set_up_names_its_type(table):
    problem = table.refusal({"type": "void", "seq": 1, "reason": "typo"})

    assert problem["code"] == "void_conflict"
    assert problem["params"] == {"reason": "not_voidable", "seq": 1, "type": "starting_cash"}


def test_a_refusal_without_params_carries_an_empty_object(table):
    table.record({"type": "finish"})

    problem = table.refusal({"type": "salary", "player": "p1"})

    assert (problem["code"], problem["params"]) == ("game_finished", {})


def test_a_refused_dry_run_carries_the_same_params(table):
    response = table.client.post(
        table.url + "/transactions?dry_run=true",
        json={"type": "payment", "from": "p1", "to": "p2", "amount": 5000},
        headers=table.auth(),
    )

    assert response.status_code == 409
    assert response.json["params"]["shortfall"] == 3500
    assert response.json["params"]["creditor"] == "p2"


def test_errors_other_than_409_carry_no_params(table):
    response = table.post({"type": "salary"})

    assert response.status_code == 422
    assert "params" not in response.json


def test_a_finish_while_a_dispute_is_open_gives_their_count_and_the_first(table):
    table.buy("p1", "boardwalk")  # seq 4
    table.record({"type": "rent", "payer": "p2", "property": "boardwalk"})  # seq 5: 50
    reason = {"reason": "Boardwalk was mortgaged"}
    table.record({"type": "dispute", "seq": 5, **reason}, token=table.tokens["p2"])  # seq 6
    table.record({"type": "dispute", "seq": 4, "reason": "the price"})  # seq 7

    problem = table.refusal({"type": "finish"})

    assert (problem["status"], problem["code"]) == (409, "disputes_open")
    assert problem["params"] == {"count": 2, "seq": 6}
    dry = table.client.post(
        table.url + "/transactions?dry_run=true", json={"type": "finish"}, headers=table.auth()
    )
    assert (dry.status_code, dry.json) == (409, problem)
    assert table.state()["status"] == "active"
