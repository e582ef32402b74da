"""Each classic transaction type recorded through HTTP, with the figures of docs/rules.md."""

from __future__ import annotations


def test_salary_pays_200_from_the_bank(table):
    txn = table.record({"type": "salary", "player": "p1"})

    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]
    assert txn["balances"]["p1"] == 1700


def test_recorded_transaction_answers_its_seq_type_and_location(table):
    response = table.post({"type": "salary", "player": "p1"})

    assert response.status_code == 201
    assert response.json["seq"] == 4
    assert response.json["type"] == "salary"
    assert response.headers["Location"] == f"/api/v1/games/{table.id}/transactions/4"


def test_recorded_transaction_carries_the_games_new_etag(table):
    response = table.post({"type": "salary", "player": "p1"})

    assert response.headers["ETag"] == f'"{table.state()["version"]}"'


def test_memo_is_kept_with_the_transaction(table):
    txn = table.record({"type": "salary", "player": "p1", "memo": "passed GO"})

    assert txn["memo"] == "passed GO"


def test_payment_moves_the_amount_between_players(table):
    txn = table.record({"type": "payment", "from": "p1", "to": "p2", "amount": 50})

    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 50}]
    assert (txn["balances"]["p1"], txn["balances"]["p2"]) == (1450, 1550)


def test_card_collect_pays_the_player_from_the_bank(table):
    txn = table.record({"type": "card", "player": "p1", "effect": "collect", "amount": 200})

    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]


def test_card_pay_each_pays_50_to_each_other_player(table):
    txn = table.record({"type": "card", "player": "p1", "effect": "pay_each", "amount": 50})

    assert txn["postings"] == [
        {"from": "p1", "to": "p2", "amount": 50},
        {"from": "p1", "to": "p3", "amount": 50},
    ]
    assert txn["balances"]["p1"] == 1400


def test_card_repairs_charges_25_per_house(table):
    table.buy("p1", "park-place", "boardwalk")
    table.record(
        {"type": "build", "orders": [{"property": "park-place"}, {"property": "boardwalk"}]}
    )

    txn = table.record(
        {"type": "card", "player": "p1", "effect": "repairs", "per_house": 25, "per_hotel": 100}
    )

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 50}]


def test_buy_pays_the_printed_price_of_boardwalk(table):
    txn = table.record({"type": "buy", "player": "p1", "property": "boardwalk"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 400}]
    assert table.state()["properties"]["boardwalk"]["owner"] == "p1"


def test_auction_sells_the_deed_for_the_winning_bid(table):
    txn = table.record({"type": "auction", "property": "boardwalk", "winner": "p2", "bid": 1})

    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 1}]
    assert table.state()["properties"]["boardwalk"]["owner"] == "p2"


def test_rent_on_bare_boardwalk_with_park_place_owned_too_is_100(table):
    table.buy("p1", "park-place", "boardwalk")

    txn = table.record({"type": "rent", "payer": "p2", "property": "boardwalk"})

    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]
    assert txn["basis"]["monopoly"] is True


def test_rent_on_one_railroad_is_25(table):
    table.buy("p1", "reading-railroad")

    txn = table.record({"type": "rent", "payer": "p2", "property": "reading-railroad"})

    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 25}]


def test_rent_multiplier_doubles_the_railroad_rent_to_50(table):
    table.buy("p1", "reading-railroad")

    txn = table.record(
        {"type": "rent", "payer": "p2", "property": "reading-railroad", "multiplier": 2}
    )

    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_rent_on_one_utility_is_4_times_the_dice(table):
    table.buy("p1", "electric-company")

    txn = table.record({"type": "rent", "payer": "p2", "property": "electric-company", "dice": 7})

    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 28}]


def test_luxury_tax_is_75(table):
    txn = table.record({"type": "tax", "player": "p1", "tax": "luxury"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 75}]


def test_income_tax_flat_is_200(table):
    txn = table.record({"type": "tax", "player": "p1", "tax": "income", "choice": "flat"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_income_tax_percent_is_10_percent_of_1500(table):
    txn = table.record({"type": "tax", "player": "p1", "tax": "income", "choice": "percent"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]


def test_jail_fine_is_50(table):
    table.record({"type": "go_to_jail", "player": "p1"})

    txn = table.record({"type": "jail_fine", "player": "p1"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 50}]
    assert table.state()["players"][0]["in_jail"] is False


def test_jail_card_drawn_is_held_by_the_player(table):
    txn = table.record({"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"})

    assert txn["postings"] == []
    assert table.state()["players"][0]["jail_cards"] == ["chance"]


def test_jail_card_used_goes_back_under_its_deck(table):
    table.record({"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"})
    table.record({"type": "go_to_jail", "player": "p1"})

    table.record({"type": "jail_card", "player": "p1", "action": "use", "deck": "chance"})

    player = table.state()["players"][0]
    assert (player["jail_cards"], player["in_jail"]) == ([], False)


def test_go_to_jail_moves_no_money(table):
    txn = table.record({"type": "go_to_jail", "player": "p1"})

    assert txn["postings"] == []
    assert table.state()["players"][0]["in_jail"] is True


def test_leave_jail_on_doubles_is_free(table):
    table.record({"type": "go_to_jail", "player": "p1"})

    txn = table.record({"type": "leave_jail", "player": "p1"})

    assert txn["postings"] == []
    assert table.state()["players"][0]["in_jail"] is False


def test_build_a_house_on_boardwalk_costs_200(table):
    table.buy("p1", "park-place", "boardwalk")

    txn = table.record({"type": "build", "property": "boardwalk"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    state = table.state()
    assert state["properties"]["boardwalk"]["houses"] == 1
    assert state["bank"]["houses"] == 31


def test_build_orders_put_a_house_on_each_street_at_once(table):
    table.buy("p1", "park-place", "boardwalk")

    txn = table.record(
        {"type": "build", "orders": [{"property": "park-place"}, {"property": "boardwalk"}]}
    )

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 400}]
    assert table.state()["bank"]["houses"] == 30


def test_sell_buildings_pays_half_the_house_price(table):
    table.buy("p1", "park-place", "boardwalk")
    table.record({"type": "build", "property": "boardwalk"})

    txn = table.record({"type": "sell_buildings", "property": "boardwalk", "houses": 1})

    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]
    assert table.state()["bank"]["houses"] == 32


def test_mortgage_pays_half_the_price_of_boardwalk(table):
    table.buy("p1", "boardwalk")

    txn = table.record({"type": "mortgage", "property": "boardwalk"})

    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]
    assert table.state()["properties"]["boardwalk"]["mortgaged"] is True


def test_unmortgage_electric_company_costs_83(table):
    table.buy("p1", "electric-company")
    table.record({"type": "mortgage", "property": "electric-company"})

    txn = table.record({"type": "unmortgage", "property": "electric-company"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 83}]


def test_trade_swaps_cash_for_a_deed_at_once(table):
    table.buy("p1", "boardwalk")

    table.record(
        {
            "type": "trade",
            "legs": [
                {"from": "p2", "to": "p1", "cash": 500},
                {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            ],
        }
    )

    state = table.state()
    assert state["properties"]["boardwalk"]["owner"] == "p2"
    assert (state["balances"]["p1"], state["balances"]["p2"]) == (1600, 1000)


def test_trade_of_a_mortgaged_deed_costs_its_receiver_10_percent(table):
    table.buy("p1", "boardwalk")
    table.record({"type": "mortgage", "property": "boardwalk"})

    txn = table.record(
        {"type": "trade", "legs": [{"from": "p1", "to": "p2", "properties": ["boardwalk"]}]}
    )

    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 20}]


def test_bankruptcy_to_the_bank_hands_over_all_cash(table):
    txn = table.record({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 2000})

    assert txn["postings"] == [{"from": "p3", "to": "bank", "amount": 1500}]
    assert table.state()["players"][2]["bankrupt"] is True


def test_turn_records_whose_turn_it_is(table):
    table.record({"type": "turn", "player": "p2"})

    assert table.state()["turn"] == "p2"


def test_finish_ranks_the_players_by_net_worth(table):
    table.buy("p2", "boardwalk")  # 1100 cash + 400 deed: level with the others
    table.record({"type": "payment", "from": "p3", "to": "p1", "amount": 100})

    table.record({"type": "finish"})

    state = table.state()
    assert state["status"] == "finished"
    assert [(s["player"], s["score"], s["rank"]) for s in state["standings"]] == [
        ("p1", 1600, 1),
        ("p2", 1500, 2),
        ("p3", 1400, 3),
    ]


def test_pot_collect_takes_the_free_parking_pot(new_game):
    table = new_game(free_parking_pot=True)
    table.record({"type": "tax", "player": "p1", "tax": "luxury"})  # 75 into the pot

    txn = table.record({"type": "pot_collect", "player": "p2"})

    assert txn["postings"] == [{"from": "pot", "to": "p2", "amount": 75}]


def test_void_reverses_a_salary_and_marks_it_voided(table):
    table.record({"type": "salary", "player": "p1"})

    txn = table.record({"type": "void", "seq": 4, "reason": "did not pass GO"})

    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    assert table.get("/transactions/4").json["voided_by"] == 5
