"""Bankruptcy and the end of a player (docs/rules.md: Bankruptcy)."""

from __future__ import annotations

import pytest
from ledger_helpers import Table


@pytest.fixture
def debtor(table: Table) -> Table:
    """Ann (p1) down to 80 cash, with brown (a house on each street), a mortgaged Boardwalk
    and the Chance jail card."""
    table.give_group("p1", "brown")  # 1380
    table.build_houses("brown", 1)  # 1280
    table.buy("p1", "boardwalk")  # 880
    table.record("mortgage", property="boardwalk")  # 1080
    table.record("jail_card", player="p1", action="draw", deck="chance")
    table.record("payment", **{"from": "p1", "to": "p3", "amount": 1000})  # 80
    return table


def test_bankruptcy_to_a_player_hands_cash_and_building_sales_to_the_creditor(
    debtor: Table,
) -> None:
    txn = debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    # 80 cash + two houses sold at 25.
    assert {"from": "p1", "to": "p2", "amount": 130} in txn["postings"]
    assert txn["balances"]["p1"] == 0


def test_bankruptcy_to_a_player_sells_the_buildings_to_the_bank_first(debtor: Table) -> None:
    txn = debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    sales = [p for p in txn["postings"] if p["from"] == "bank" and p["to"] == "p1"]
    assert sum(p["amount"] for p in sales) == 50
    handover = txn["postings"].index({"from": "p1", "to": "p2", "amount": 130})
    assert all(txn["postings"].index(p) < handover for p in sales)
    assert debtor.supply() == {"houses": 32, "hotels": 12}


def test_bankruptcy_to_a_player_sells_hotels_with_their_4_houses_at_half_price(
    table: Table,
) -> None:
    table.give_group("p1", "brown")
    table.build_hotels("brown")  # cash 880
    table.record("payment", **{"from": "p1", "to": "p3", "amount": 880})
    txn = table.record("bankruptcy", debtor="p1", creditor="p2")
    # Each hotel: half of 50 + half of 4 houses at 50 = 125.
    assert txn["postings"][-1] == {"from": "p1", "to": "p2", "amount": 250}
    assert table.supply() == {"houses": 32, "hotels": 12}


def test_bankruptcy_to_a_player_hands_over_the_deeds_bare(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    assert debtor.prop("mediterranean-avenue") == {
        "owner": "p2",
        "mortgaged": False,
        "houses": 0,
        "hotel": False,
    }
    assert debtor.prop("baltic-avenue")["owner"] == "p2"
    assert debtor.prop("boardwalk") == {
        "owner": "p2",
        "mortgaged": True,
        "houses": 0,
        "hotel": False,
    }


def test_bankruptcy_to_a_player_hands_over_the_jail_cards(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    assert debtor.player("p2")["jail_cards"] == ["chance"]


def test_bankruptcy_creditor_pays_10_percent_on_each_mortgaged_deed_last(
    debtor: Table,
) -> None:
    txn = debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    assert txn["postings"][-1] == {"from": "p2", "to": "bank", "amount": 20}
    assert txn["balances"]["p2"] == 1610  # 1500 + 130 - 20


def test_bankruptcy_creditor_may_lift_a_mortgage_at_once_for_value_plus_10_percent(
    debtor: Table,
) -> None:
    txn = debtor.record(
        "bankruptcy", debtor="p1", creditor="p2", owed=500, unmortgage=["boardwalk"]
    )
    assert txn["postings"][-1] == {"from": "p2", "to": "bank", "amount": 220}
    assert txn["balances"]["p2"] == 1410  # 1500 + 130 - 220
    assert debtor.prop("boardwalk")["mortgaged"] is False


def test_bankrupt_player_is_marked_bankrupt(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    player = debtor.player("p1")
    assert (player["bankrupt"], player["cash"], player["net_worth"]) == (True, 0, 0)


def test_bankruptcy_to_the_bank_hands_the_cash_to_the_bank(debtor: Table) -> None:
    txn = debtor.record("bankruptcy", debtor="p1", creditor="bank", owed=500)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 80}]
    # -4500 + 120 + 100 + 400 - 200 + 80: the buildings are taken, not paid for.
    assert txn["balances"]["bank"] == -4000


def test_bankruptcy_to_the_bank_returns_houses_and_hotels_to_the_supply(table: Table) -> None:
    table.give_group("p1", "brown")
    table.build_hotels("brown")
    table.give_group("p1", "light-blue")
    table.build_houses("light-blue", 1)
    assert table.supply() == {"houses": 29, "hotels": 10}
    table.record("bankruptcy", debtor="p1", creditor="bank")
    assert table.supply() == {"houses": 32, "hotels": 12}


def test_bankruptcy_to_the_bank_returns_the_deeds_unmortgaged(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="bank", owed=500)
    for deed in ("mediterranean-avenue", "baltic-avenue", "boardwalk"):
        assert debtor.prop(deed) == {
            "owner": "bank",
            "mortgaged": False,
            "houses": 0,
            "hotel": False,
        }


def test_bankruptcy_to_the_bank_returns_the_jail_cards_to_their_decks(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="bank", owed=500)
    assert debtor.state()["jail_cards"] == {"chance": "deck", "community_chest": "deck"}


def test_bankruptcy_is_refused_when_the_debtor_could_pay_in_cash(table: Table) -> None:
    error = table.refused("bankruptcy", debtor="p1", creditor="p2", owed=1000)
    assert error.code == "not_insolvent"


def test_bankruptcy_is_refused_when_mortgaging_would_raise_what_is_owed(table: Table) -> None:
    table.buy("p1", "boardwalk")  # 1100
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 1000})  # 100
    # 100 cash + Boardwalk's mortgage value 200 = 300.
    error = table.refused("bankruptcy", debtor="p1", creditor="p2", owed=300)
    assert error.code == "not_insolvent"
    assert error.extra["can_raise"] == 200


def test_bankruptcy_is_accepted_when_the_debt_exceeds_what_could_be_raised(
    table: Table,
) -> None:
    table.buy("p1", "boardwalk")
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 1000})
    txn = table.record("bankruptcy", debtor="p1", creditor="p2", owed=301)
    assert txn["postings"][0] == {"from": "p1", "to": "p2", "amount": 100}


def test_bankruptcy_is_refused_when_building_sales_would_raise_what_is_owed(
    table: Table,
) -> None:
    table.fund("p1", 500)
    table.give_group("p1", "dark-blue")  # 1250
    table.build_houses("dark-blue", 2)  # 450
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 450})  # 0
    # Four houses at 100 + mortgages 175 + 200 = 775.
    error = table.refused("bankruptcy", debtor="p1", creditor="p2", owed=775)
    assert (error.code, error.extra["can_raise"]) == ("not_insolvent", 775)


def test_a_bankrupt_player_receives_no_salary(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    assert debtor.refused("salary", player="p1").code == "player_bankrupt"


def test_a_bankrupt_player_cannot_be_paid(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    error = debtor.refused("payment", **{"from": "p2", "to": "p1", "amount": 10})
    assert error.code == "player_bankrupt"


def test_a_bankrupt_player_cannot_go_bankrupt_again(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    error = debtor.refused("bankruptcy", debtor="p1", creditor="bank")
    assert error.code == "player_bankrupt"


def test_a_bankrupt_player_cannot_be_a_creditor(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    error = debtor.refused("bankruptcy", debtor="p3", creditor="p1")
    assert error.code == "player_bankrupt"


def test_a_bankrupt_player_cannot_trade(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    error = debtor.refused("trade", legs=[{"from": "p2", "to": "p1", "cash": 10}])
    assert error.code == "player_bankrupt"


def test_a_card_collecting_from_each_player_skips_the_bankrupt(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    txn = debtor.record("card", player="p2", effect="collect_from_each", amount=10)
    assert txn["postings"] == [{"from": "p3", "to": "p2", "amount": 10}]


def test_the_game_goes_on_while_two_players_are_left(debtor: Table) -> None:
    debtor.record("bankruptcy", debtor="p1", creditor="p2", owed=500)
    assert debtor.state()["status"] == "active"


def test_the_game_finishes_when_one_player_is_left(duel: Table) -> None:
    duel.record("payment", **{"from": "p1", "to": "p2", "amount": 1400})
    duel.record("bankruptcy", debtor="p1", creditor="p2")
    state = duel.state()
    assert state["status"] == "finished"
    assert state["standings"] == [
        {"player": "p2", "score": 3000, "rank": 1},
        {"player": "p1", "score": 0, "rank": 2},
    ]


def test_nothing_is_recorded_after_the_last_bankruptcy(duel: Table) -> None:
    duel.record("bankruptcy", debtor="p1", creditor="p2")
    assert duel.refused("salary", player="p2").code == "game_finished"


def test_bankruptcy_standings_rank_the_last_out_above_the_first_out(table: Table) -> None:
    table.record("bankruptcy", debtor="p3", creditor="bank")
    table.record("bankruptcy", debtor="p1", creditor="p2")
    assert [(s["player"], s["rank"]) for s in table.state()["standings"]] == [
        ("p2", 1),
        ("p1", 2),
        ("p3", 3),
    ]


def test_a_player_cannot_go_bankrupt_to_himself(debtor: Table) -> None:
    # docs/rules.md, Bankruptcy: the creditor is the Bank or another player.
    error = debtor.refused("bankruptcy", debtor="p1", creditor="p1", owed=500)
    assert error.extra["errors"] == {"creditor": ["a player cannot owe himself"]}
