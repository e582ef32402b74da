"""The house-rule options of the classic game (docs/rules.md): each off by default, each refused
with its own code where it is off."""

from __future__ import annotations

import pytest
from ledger_helpers import Table

from ledger.application import TableBank
from ledger.errors import InvalidField


def option_error(bank: TableBank, **options: object) -> InvalidField:
    """Create a game with a bad option; the refusal (and no game was created)."""
    with pytest.raises(InvalidField) as caught:
        bank.create_game("t", "classic", ["Ann", "Bob"], dict(options))
    assert bank.list_games() == []
    return caught.value


# -- defaults and the options' own checks ---------------------------------------------------


def test_every_house_rule_is_off_by_default(table: Table) -> None:
    assert table.state()["options"] == {
        "free_parking_pot": False,
        "player_loans": False,
        "no_rent_in_jail": False,
        "keep_bankrupt_players": False,
        "one_house_per_turn": False,
        "buy_after_first_lap": False,
        "income_tax": "choice",
        "luxury_tax": 75,
    }


def test_unknown_option_is_refused_naming_it(bank: TableBank) -> None:
    error = option_error(bank, free_parking_jackpot=True)
    assert "options.free_parking_jackpot" in error.extra["errors"]


def test_boolean_option_given_a_string_is_refused_naming_it(bank: TableBank) -> None:
    error = option_error(bank, free_parking_pot="yes")
    assert "options.free_parking_pot" in error.extra["errors"]


def test_boolean_option_given_a_number_is_refused_naming_it(bank: TableBank) -> None:
    error = option_error(bank, player_loans=1)
    assert "options.player_loans" in error.extra["errors"]


def test_income_tax_option_outside_its_choices_is_refused(bank: TableBank) -> None:
    error = option_error(bank, income_tax="half")
    assert "options.income_tax" in error.extra["errors"]


def test_luxury_tax_option_given_a_string_is_refused(bank: TableBank) -> None:
    error = option_error(bank, luxury_tax="100")
    assert "options.luxury_tax" in error.extra["errors"]


def test_luxury_tax_option_given_a_boolean_is_refused(bank: TableBank) -> None:
    error = option_error(bank, luxury_tax=True)
    assert "options.luxury_tax" in error.extra["errors"]


def test_negative_luxury_tax_is_refused(bank: TableBank) -> None:
    error = option_error(bank, luxury_tax=-100)
    assert "options.luxury_tax" in error.extra["errors"]


# -- free_parking_pot ------------------------------------------------------------------------


@pytest.fixture
def pot(bank: TableBank) -> Table:
    """Ann, Bob and Cy with the Free Parking pot."""
    return Table(bank, options={"free_parking_pot": True})


def test_without_the_pot_taxes_go_to_the_bank(table: Table) -> None:
    txn = table.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 75}]
    assert txn["balances"]["pot"] == 0


def test_without_the_pot_pot_collect_is_refused(table: Table) -> None:
    assert table.refused("pot_collect", player="p1").code == "option_disabled"


def test_luxury_tax_goes_into_the_pot(pot: Table) -> None:
    txn = pot.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 75}]


def test_flat_income_tax_goes_into_the_pot(pot: Table) -> None:
    txn = pot.record("tax", player="p1", tax="income", choice="flat")
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 200}]


def test_percent_income_tax_goes_into_the_pot(pot: Table) -> None:
    txn = pot.record("tax", player="p1", tax="income", choice="percent")
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 150}]


def test_jail_fine_goes_into_the_pot(pot: Table) -> None:
    txn = pot.record("jail_fine", player="p1")
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 50}]


def test_card_payment_to_the_bank_goes_into_the_pot(pot: Table) -> None:
    txn = pot.record("card", player="p1", effect="pay", amount=15)
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 15}]


def test_street_repairs_go_into_the_pot(pot: Table) -> None:
    pot.give_group("p1", "brown")
    pot.build_houses("brown", 1)
    txn = pot.record("card", player="p1", effect="repairs", per_house=25, per_hotel=100)
    # Two houses at 25.
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 50}]


def test_card_collecting_from_the_bank_does_not_touch_the_pot(pot: Table) -> None:
    txn = pot.record("card", player="p1", effect="collect", amount=100)
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]


def test_pot_collect_pays_the_whole_pot(pot: Table) -> None:
    pot.record("tax", player="p1", tax="income", choice="flat")  # 200
    pot.record("card", player="p2", effect="pay", amount=15)  # 15
    pot.record("jail_fine", player="p1")  # 50
    txn = pot.record("pot_collect", player="p3")
    assert txn["postings"] == [{"from": "pot", "to": "p3", "amount": 265}]
    assert txn["balances"]["p3"] == 1765


def test_pot_collect_empties_the_pot(pot: Table) -> None:
    pot.record("tax", player="p1", tax="luxury")
    pot.record("pot_collect", player="p3")
    assert pot.cash("pot") == 0


# -- player_loans -------------------------------------------------------------------------


def test_without_player_loans_an_iou_is_refused(table: Table) -> None:
    error = table.refused("iou", debtor="p1", creditor="p2", amount=100)
    assert error.code == "option_disabled"


def test_with_player_loans_an_iou_is_accepted(bank: TableBank) -> None:
    loans = Table(bank, options={"player_loans": True})
    txn = loans.record("iou", debtor="p1", creditor="p2", amount=100)
    assert txn["postings"] == []
    assert len(loans.state()["ious"]) == 1


# -- no_rent_in_jail ------------------------------------------------------------------------


def test_without_the_rule_an_owner_in_jail_collects_rent(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("go_to_jail", player="p1")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_with_the_rule_an_owner_in_jail_collects_no_rent(bank: TableBank) -> None:
    table = Table(bank, options={"no_rent_in_jail": True})
    table.buy("p1", "boardwalk")
    table.record("go_to_jail", player="p1")
    assert table.refused("rent", payer="p2", property="boardwalk").code == "owner_in_jail"


def test_with_the_rule_an_owner_out_of_jail_collects_rent(bank: TableBank) -> None:
    table = Table(bank, options={"no_rent_in_jail": True})
    table.buy("p1", "boardwalk")
    table.record("go_to_jail", player="p1")
    table.record("jail_fine", player="p1")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


def test_with_the_rule_an_owner_never_sent_to_jail_collects_rent(bank: TableBank) -> None:
    table = Table(bank, options={"no_rent_in_jail": True})
    table.buy("p1", "boardwalk")
    txn = table.record("rent", payer="p2", property="boardwalk")
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 50}]


# -- keep_bankrupt_players -----------------------------------------------------------------


@pytest.fixture
def kept(bank: TableBank) -> Table:
    """Ann, Bob and Cy with bankrupt players kept at the table; Ann, with Boardwalk, has gone
    bankrupt to Bob."""
    table = Table(bank, options={"keep_bankrupt_players": True})
    table.buy("p1", "boardwalk")
    table.record("bankruptcy", debtor="p1", creditor="p2")
    return table


@pytest.fixture
def kept_duel(bank: TableBank) -> Table:
    """Ann and Bob with bankrupt players kept at the table; Ann has gone bankrupt to Bob."""
    table = Table(bank, players=("Ann", "Bob"), options={"keep_bankrupt_players": True})
    table.record("bankruptcy", debtor="p1", creditor="p2")
    return table


def test_kept_bankrupt_stays_at_the_table_with_nothing(kept: Table) -> None:
    player = kept.player("p1")
    assert (player["bankrupt"], player["cash"], player["net_worth"]) == (True, 0, 0)
    assert kept.prop("boardwalk")["owner"] == "p2"


def test_kept_bankrupt_may_receive_salary_again(kept: Table) -> None:
    txn = kept.record("salary", player="p1")
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]


def test_kept_bankrupt_may_receive_a_payment(kept: Table) -> None:
    txn = kept.record("payment", **{"from": "p2", "to": "p1", "amount": 100})
    assert txn["balances"]["p1"] == 100


def test_kept_bankrupt_plays_on(kept: Table) -> None:
    kept.record("salary", player="p1")  # 200
    kept.buy("p1", "mediterranean-avenue")  # 60
    assert kept.prop("mediterranean-avenue")["owner"] == "p1"
    assert kept.player("p1")["net_worth"] == 200  # 140 cash + a deed at 60


def test_kept_bankrupt_who_plays_on_pays_a_card_collecting_from_each_player(kept: Table) -> None:
    # Reading: playing on, he is one of "each player" again.
    kept.record("salary", player="p1")
    txn = kept.record("card", player="p3", effect="collect_from_each", amount=10)
    assert {"from": "p1", "to": "p3", "amount": 10} in txn["postings"]


def test_kept_bankruptcy_does_not_finish_the_game_with_one_solvent_player_left(
    kept_duel: Table,
) -> None:
    assert kept_duel.state()["status"] == "active"


def test_kept_bankruptcy_game_ends_by_finish(kept_duel: Table) -> None:
    kept_duel.record("finish")
    assert kept_duel.state()["status"] == "finished"


def test_kept_bankrupt_who_played_on_is_scored_by_net_worth(kept_duel: Table) -> None:
    # Reading: standings score every player "as the rule set says"; cash 200 is worth 200.
    kept_duel.record("salary", player="p1")
    kept_duel.record("finish")
    scores = {s["player"]: s["score"] for s in kept_duel.state()["standings"]}
    assert scores == {"p1": 200, "p2": 3000}


def test_without_the_rule_the_game_finishes_with_one_player_left(duel: Table) -> None:
    duel.record("bankruptcy", debtor="p1", creditor="p2")
    assert duel.state()["status"] == "finished"


# -- one_house_per_turn ----------------------------------------------------------------------


@pytest.fixture
def one_house(bank: TableBank) -> Table:
    """Ann holds the dark-blue group (750 cash); at most one house a turn."""
    table = Table(bank, options={"one_house_per_turn": True})
    table.give_group("p1", "dark-blue")
    table.record("turn", player="p1")
    return table


def test_without_the_rule_two_houses_may_be_built_in_one_turn(table: Table) -> None:
    table.give_group("p1", "dark-blue")
    table.record("turn", player="p1")
    table.record("build", property="boardwalk")
    txn = table.record("build", property="park-place")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_one_house_a_turn_is_accepted(one_house: Table) -> None:
    txn = one_house.record("build", property="boardwalk")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_second_house_in_the_same_turn_is_refused(one_house: Table) -> None:
    one_house.record("build", property="boardwalk")
    assert one_house.refused("build", property="park-place").code == "building_limit"


def test_two_houses_in_one_transaction_are_refused(one_house: Table) -> None:
    error = one_house.refused(
        "build", orders=[{"property": "boardwalk"}, {"property": "park-place"}]
    )
    assert error.code == "building_limit"


def test_a_house_is_allowed_again_after_the_next_turn(one_house: Table) -> None:
    one_house.record("build", property="boardwalk")
    one_house.record("turn", player="p2")
    txn = one_house.record("build", property="park-place")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_one_house_a_turn_is_counted_for_each_player(one_house: Table) -> None:
    # Reading: "at most one house a turn" limits each builder, not the table.
    one_house.give_group("p2", "brown")
    one_house.record("build", property="boardwalk")
    txn = one_house.record("build", property="baltic-avenue")
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 50}]


# -- buy_after_first_lap ---------------------------------------------------------------------
# Seed 000: "только по прошествии первого круга участник может приобретать активы".


@pytest.fixture
def first_lap(bank: TableBank) -> Table:
    """Ann, Bob and Cy, 1500 each; deeds only after one's first salary on GO."""
    return Table(bank, options={"buy_after_first_lap": True})


def test_without_the_rule_a_deed_is_bought_before_any_salary(table: Table) -> None:
    txn = table.record("buy", player="p1", property="boardwalk")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 400}]


def test_a_deed_bought_before_the_first_salary_is_refused(first_lap: Table) -> None:
    error = first_lap.refused("buy", player="p1", property="boardwalk")
    assert (error.code, error.params) == ("first_lap_not_done", {"player": "p1"})


def test_after_the_first_salary_the_deed_is_bought_at_its_price(first_lap: Table) -> None:
    salary = first_lap.record("salary", player="p1")
    # The first salary is recorded as a fact of the game, once.
    assert salary["changes"] == [{"kind": "first_lap", "player": "p1", "from": False, "to": True}]
    assert first_lap.record("salary", player="p1")["changes"] == []
    txn = first_lap.record("buy", player="p1", property="boardwalk")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 400}]


def test_an_auction_before_the_winners_first_salary_is_refused(first_lap: Table) -> None:
    first_lap.record("salary", player="p1")
    error = first_lap.refused("auction", property="park-place", winner="p2", bid=160)
    assert (error.code, error.params) == ("first_lap_not_done", {"player": "p2"})
    txn = first_lap.record("auction", property="park-place", winner="p1", bid=160)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 160}]


def test_a_trade_gives_deeds_only_to_a_player_past_his_first_lap(first_lap: Table) -> None:
    first_lap.record("salary", player="p1")
    first_lap.record("buy", player="p1", property="boardwalk")
    legs = [
        {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
        {"from": "p2", "to": "p1", "cash": 400},
    ]
    error = first_lap.refused("trade", legs=legs)
    assert (error.code, error.params) == ("first_lap_not_done", {"player": "p2"})
    first_lap.record("salary", player="p2")
    first_lap.record("trade", legs=legs)
    assert first_lap.prop("boardwalk")["owner"] == "p2"


def test_a_trade_of_cash_for_a_jail_card_needs_no_lap(first_lap: Table) -> None:
    first_lap.record("jail_card", player="p1", action="draw", deck="chance")
    first_lap.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "jail_cards": ["chance"]},
            {"from": "p2", "to": "p1", "cash": 30},
        ],
    )
    assert first_lap.player("p2")["jail_cards"] == ["chance"]


def test_voiding_the_first_salary_closes_the_buying_again(first_lap: Table) -> None:
    first_lap.record("salary", player="p1")
    first_lap.record("void", seq=4, reason="Ann had not reached GO")
    assert first_lap.refused("buy", player="p1", property="boardwalk").code == (
        "first_lap_not_done"
    )


def test_the_first_salary_cannot_be_voided_once_a_deed_was_bought_after_it(
    first_lap: Table,
) -> None:
    first_lap.record("salary", player="p1")
    first_lap.record("buy", player="p1", property="boardwalk")
    error = first_lap.refused("void", seq=4, reason="Ann had not reached GO")
    # Without the salary, the purchase at seq 5 would be refused.
    assert error.code == "void_conflict"
    assert error.params["reason"] == "refused"
    assert error.params["would_be"] == "first_lap_not_done"


def test_the_first_salary_is_voided_only_after_a_later_one(first_lap: Table) -> None:
    first_lap.record("salary", player="p1")  # seq 4: the first lap
    first_lap.record("salary", player="p1")  # seq 5
    # Without seq 4, seq 5 would record the first lap: it would not stand as it is.
    assert first_lap.refused("void", seq=4, reason="not on GO").code == "void_conflict"
    first_lap.record("void", seq=5, reason="not on GO either")
    first_lap.record("void", seq=4, reason="not on GO")
    assert first_lap.cash("p1") == 1500


# -- income_tax ---------------------------------------------------------------------------


def test_flat_only_income_tax_charges_200_without_a_choice(bank: TableBank) -> None:
    table = Table(bank, options={"income_tax": "flat"})
    txn = table.record("tax", player="p1", tax="income")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_flat_only_income_tax_refuses_the_percent_choice(bank: TableBank) -> None:
    table = Table(bank, options={"income_tax": "flat"})
    error = table.refused("tax", player="p1", tax="income", choice="percent")
    assert error.code == "option_disabled"


def test_percent_only_income_tax_charges_10_percent_without_a_choice(bank: TableBank) -> None:
    table = Table(bank, options={"income_tax": "percent"})
    txn = table.record("tax", player="p1", tax="income")
    # 10 % of 1500.
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 150}]


def test_percent_only_income_tax_refuses_the_flat_choice(bank: TableBank) -> None:
    table = Table(bank, options={"income_tax": "percent"})
    error = table.refused("tax", player="p1", tax="income", choice="flat")
    assert error.code == "option_disabled"


def test_income_tax_by_choice_needs_the_choice(table: Table) -> None:
    error = table.refused("tax", player="p1", tax="income")
    assert isinstance(error, InvalidField)
    assert "choice" in error.extra["errors"]


# -- luxury_tax ---------------------------------------------------------------------------


def test_luxury_tax_is_75_by_default(table: Table) -> None:
    txn = table.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 75}]


def test_luxury_tax_of_later_editions_is_100(bank: TableBank) -> None:
    table = Table(bank, options={"luxury_tax": 100})
    txn = table.record("tax", player="p1", tax="luxury")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 100}]
