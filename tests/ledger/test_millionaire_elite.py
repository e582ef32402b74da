"""Millionaire Elite (docs/rules.md, Millionaire Elite, seed 004; IOUs: docs/rules.md, IOUs): plots
whose prices the banker
enters, branches and enterprises, shares and the exchange, round income and round tax,
insurance policies, the jackpot, auctions of owned plots, mortgages and bankruptcies the Bank
covers.

Every figure is docs/rules.md's or one entered at the table as the rule set asks (docs/rules.md,
Millionaire Elite: the
built-in rule set prints no plot prices, building prices, rents or plot taxes).
"""

from __future__ import annotations

import json

import pytest
from ledger_helpers import Table

from ledger.application import TableBank
from ledger.errors import Forbidden, InvalidField, LedgerError

ELITE = "millionaire-elite"
POLICIES = {"green": 100, "blue": 200, "orange": 300, "red": 500}


@pytest.fixture
def elite(bank: TableBank) -> Table:
    """Ann (p1), Bob (p2) and Cy (p3), 2000 each; 200 in the jackpot kitty."""
    return Table(bank, ruleset=ELITE)


@pytest.fixture
def elite_duel(bank: TableBank) -> Table:
    """Ann (p1) and Bob (p2) alone: one bankruptcy ends the game."""
    return Table(bank, players=("Ann", "Bob"), ruleset=ELITE)


@pytest.fixture
def branch(elite: Table) -> Table:
    """Ann holds the whole two-plot branch b1: b1-1 entered at 200, b1-2 at 240 (cash 1560)."""
    elite.record("buy", player="p1", property="b1-1", price=200)
    elite.record("buy", player="p1", property="b1-2", price=240)
    return elite


@pytest.fixture
def built(branch: Table) -> Table:
    """One branch on each plot of b1, the branch price entered at 100 (cash 1360)."""
    branch.record(
        "build",
        orders=[{"property": "b1-1", "price": 100}, {"property": "b1-2", "price": 100}],
    )
    return branch


@pytest.fixture
def three_branches(built: Table) -> Table:
    """Three branches on each plot of b1 at 100 (cash 960)."""
    for _ in range(2):
        built.record("build", orders=[{"property": "b1-1"}, {"property": "b1-2"}])
    return built


@pytest.fixture
def shareholder(elite: Table) -> Table:
    """Ann holds 5 shares bought at 100 (cash 1500); the price then rises 3 points to 130."""
    elite.record("shares", player="p1", action="buy", count=5)
    elite.record("share_price", direction="up", points=3)
    return elite


@pytest.fixture
def insolvent(elite: Table) -> Table:
    """Ann holds 11 shares bought at 100 (cash 900); the price rises 1 point to 110, so she
    could raise 900 + 11 x 110 = 2110."""
    elite.record("shares", player="p1", action="buy", count=11)
    elite.record("share_price", direction="up", points=1)
    return elite


def refused_field(error: LedgerError) -> list[str]:
    """The fields an InvalidField refusal names."""
    assert isinstance(error, InvalidField), error.code
    return list(error.extra["errors"])


# -- set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [("Ann", "Bob"), ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")])
def test_two_to_six_players_start_with_2000_each(bank: TableBank, players: tuple[str, ...]) -> None:
    table = Table(bank, players=players, ruleset=ELITE)
    assert [p["cash"] for p in table.state()["players"]] == [2000] * len(players)


def test_seven_players_are_refused_naming_players(bank: TableBank) -> None:
    with pytest.raises(InvalidField) as caught:
        Table(bank, players=("A", "B", "C", "D", "E", "F", "G"), ruleset=ELITE)
    assert list(caught.value.extra["errors"]) == ["players"]


def test_the_jackpot_kitty_starts_with_200_from_the_bank(elite: Table) -> None:
    # 3 x 2000 starting cash + 200 in the kitty.
    assert elite.state()["balances"] == {
        "bank": -6200,
        "pot": 200,
        "p1": 2000,
        "p2": 2000,
        "p3": 2000,
    }


def test_the_kitty_is_seeded_by_a_set_up_transaction(elite: Table) -> None:
    seeds = [t for t in elite.bank.transactions(elite.id) if t["type"] == "pot_seed"]
    assert len(seeds) == 1
    assert seeds[0]["postings"] == [{"from": "bank", "to": "pot", "amount": 200}]


def test_the_pot_seed_cannot_be_voided_like_the_rest_of_the_set_up(elite: Table) -> None:
    # API.md: game set-up cannot be voided; seq 4 seeded the kitty with its 200.
    assert elite.refused("void", seq=4, reason="no kitty").code == "void_conflict"
    assert elite.cash("pot") == 200


def test_the_pot_seed_cannot_be_recorded_by_the_banker(elite: Table) -> None:
    error = elite.refused("pot_seed")
    assert refused_field(error) == ["type"]


def test_shares_start_at_100_and_nobody_holds_any(elite: Table) -> None:
    state = elite.state()
    assert state["share_price"] == 100
    assert [(p["shares"], p["policies"], p["tax_exempt"]) for p in state["players"]] == [
        (0, [], False)
    ] * 3


def test_the_bank_has_no_limit_on_branches_or_enterprises(elite: Table) -> None:
    assert elite.supply() == {"houses": None, "hotels": None}


# -- plots -----------------------------------------------------------------------------------


def test_a_central_plot_costs_500(elite: Table) -> None:
    txn = elite.record("buy", player="p2", property="central-1")
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 500}]


def test_a_central_plot_at_another_price_is_refused(elite: Table) -> None:
    error = elite.refused("buy", player="p2", property="central-1", price=400)
    assert refused_field(error) == ["price"]


def test_nothing_may_be_built_on_the_central_branch(elite: Table) -> None:
    # Bob holds all four central plots: 4 x 500 = his 2000.
    for n in range(1, 5):
        elite.record("buy", player="p2", property=f"central-{n}")
    error = elite.refused("build", property="central-1", price=100)
    assert error.code == "not_buildable"


def test_a_branch_plot_needs_its_price_entered(elite: Table) -> None:
    error = elite.refused("buy", player="p1", property="b1-1")
    assert refused_field(error) == ["price"]


def test_a_branch_plot_is_bought_at_the_entered_price(elite: Table) -> None:
    txn = elite.record("buy", player="p1", property="b1-1", price=200)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]
    assert elite.prop("b1-1")["owner"] == "p1"


def test_the_purchase_records_that_the_price_was_entered(elite: Table) -> None:
    txn = elite.record("buy", player="p1", property="b1-1", price=200)
    assert txn["basis"]["entered"] is True
    assert txn["basis"]["printed"] is False


@pytest.fixture
def returned(elite: Table) -> Table:
    """Ann bought b1-1 at 200, went bankrupt and the plot went back to the Bank."""
    elite.record("buy", player="p1", property="b1-1", price=200)
    elite.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    return elite


def test_an_entered_plot_price_is_known_the_next_time_the_plot_is_sold(returned: Table) -> None:
    txn = returned.record("buy", player="p2", property="b1-1")
    assert txn["postings"] == [{"from": "p2", "to": "bank", "amount": 200}]


def test_an_entered_plot_price_refuses_another_one(returned: Table) -> None:
    error = returned.refused("buy", player="p2", property="b1-1", price=300)
    assert refused_field(error) == ["price"]


# -- branches and enterprises ------------------------------------------------------------------


def test_the_first_branch_needs_its_price_entered(branch: Table) -> None:
    error = branch.refused("build", orders=[{"property": "b1-1"}, {"property": "b1-2"}])
    assert refused_field(error) == ["price"]


def test_branches_are_bought_at_the_entered_price(branch: Table) -> None:
    txn = branch.record(
        "build",
        orders=[{"property": "b1-1", "price": 100}, {"property": "b1-2", "price": 100}],
    )
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_the_entered_branch_price_is_reused(built: Table) -> None:
    txn = built.record("build", orders=[{"property": "b1-1"}, {"property": "b1-2"}])
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 200}]


def test_a_branch_at_another_price_than_the_entered_one_is_refused(built: Table) -> None:
    error = built.refused("build", property="b1-1", price=150)
    assert refused_field(error) == ["price"]


def test_branches_are_built_evenly(branch: Table) -> None:
    error = branch.refused("build", property="b1-1", houses=2, price=100)
    assert error.code == "uneven_building"


def test_at_most_three_branches_stand_on_a_plot(three_branches: Table) -> None:
    error = three_branches.refused("build", property="b1-1")
    assert error.code == "building_limit"


def test_an_enterprise_follows_three_branches_at_the_branch_price(three_branches: Table) -> None:
    txn = three_branches.record("build", property="b1-1", hotel=True)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 100}]
    assert three_branches.prop("b1-1")["hotel"] is True


def test_an_enterprise_needs_three_branches_first(built: Table) -> None:
    built.record("build", orders=[{"property": "b1-1"}, {"property": "b1-2"}])
    error = built.refused("build", property="b1-1", hotel=True)
    assert error.code == "uneven_building"


def test_one_enterprise_a_plot(three_branches: Table) -> None:
    three_branches.record("build", property="b1-1", hotel=True)
    error = three_branches.refused("build", property="b1-1", hotel=True)
    assert error.code == "building_limit"


def test_the_bank_supply_stays_unlimited_after_building(three_branches: Table) -> None:
    three_branches.record("build", property="b1-1", hotel=True)
    assert three_branches.supply() == {"houses": None, "hotels": None}


def test_branches_sell_back_to_the_bank_at_half_price(built: Table) -> None:
    txn = built.record(
        "sell_buildings",
        orders=[{"property": "b1-1", "houses": 1}, {"property": "b1-2", "houses": 1}],
    )
    # Half of 100, twice.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 100}]


def test_a_mortgaged_plot_stops_building_on_its_branch(branch: Table) -> None:
    branch.record("mortgage", property="b1-2")
    error = branch.refused("build", property="b1-1", price=100)
    assert error.code == "mortgaged"


# -- rent ------------------------------------------------------------------------------------


def test_rent_on_a_plot_needs_its_amount_entered(branch: Table) -> None:
    error = branch.refused("rent", payer="p2", property="b1-1")
    assert refused_field(error) == ["amount"]


def test_rent_is_the_entered_amount(branch: Table) -> None:
    txn = branch.record("rent", payer="p2", property="b1-1", amount=75)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 75}]


def test_the_rent_records_that_its_amount_was_entered(branch: Table) -> None:
    txn = branch.record("rent", payer="p2", property="b1-1", amount=75)
    assert txn["basis"]["entered"] is True


def test_a_multiplier_multiplies_the_entered_rent(branch: Table) -> None:
    # API.md: `multiplier` multiplies the rent; 75 entered, a card doubling it: 150.
    txn = branch.record("rent", payer="p2", property="b1-1", amount=75, multiplier=2)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 150}]


def test_rent_on_a_central_plot_is_entered_too(elite: Table) -> None:
    elite.record("buy", player="p2", property="central-1")
    txn = elite.record("rent", payer="p1", property="central-1", amount=60)
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 60}]


def test_no_rent_on_a_mortgaged_plot(branch: Table) -> None:
    branch.record("mortgage", property="b1-2")
    error = branch.refused("rent", payer="p2", property="b1-2", amount=75)
    assert error.code == "mortgaged"


# -- shares and the exchange -----------------------------------------------------------------


def test_five_shares_cost_500_at_the_starting_price(elite: Table) -> None:
    txn = elite.record("shares", player="p1", action="buy", count=5)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 500}]
    assert elite.player("p1")["shares"] == 5


def test_shares_sell_to_the_bank_at_the_current_price(shareholder: Table) -> None:
    txn = shareholder.record("shares", player="p1", action="sell", count=5)
    # 5 x 130.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 650}]
    assert shareholder.player("p1")["shares"] == 0


def test_the_price_rises_10_a_point(elite: Table) -> None:
    elite.record("share_price", direction="up", points=3)
    assert elite.state()["share_price"] == 130


def test_the_price_falls_10_a_point(elite: Table) -> None:
    elite.record("share_price", direction="down", points=2)
    assert elite.state()["share_price"] == 80


def test_a_price_move_moves_no_money(elite: Table) -> None:
    txn = elite.record("share_price", direction="up", points=6)
    assert txn["postings"] == []
    assert txn["basis"]["from"] == 100
    assert txn["basis"]["to"] == 160


@pytest.mark.parametrize("points", [0, 7])
def test_a_price_move_is_1_to_6_points(elite: Table, points: int) -> None:
    error = elite.refused("share_price", direction="up", points=points)
    assert refused_field(error) == ["points"]


def test_the_price_never_falls_below_0(elite: Table) -> None:
    elite.record("share_price", direction="down", points=5)  # 50
    elite.record("share_price", direction="down", points=6)
    assert elite.state()["share_price"] == 0


def test_the_bank_sells_no_shares_at_price_0(elite: Table) -> None:
    elite.record("share_price", direction="down", points=6)  # 40
    elite.record("share_price", direction="down", points=4)  # 0
    error = elite.refused("shares", player="p1", action="buy", count=1)
    assert error.code == "shares_unavailable"


def test_shares_handed_in_at_price_0_pay_nothing(elite: Table) -> None:
    elite.record("shares", player="p1", action="buy", count=5)
    elite.record("share_price", direction="down", points=6)  # 40
    elite.record("share_price", direction="down", points=4)  # 0
    txn = elite.record("shares", player="p1", action="sell", count=5)
    assert txn["postings"] == []
    assert elite.player("p1")["shares"] == 0
    assert elite.cash("p1") == 1500


def test_selling_more_shares_than_held_is_refused(elite: Table) -> None:
    elite.record("shares", player="p1", action="buy", count=2)
    error = elite.refused("shares", player="p1", action="sell", count=3)
    assert error.code == "insufficient_shares"


def test_a_brokered_purchase_pays_the_agreed_commission_to_the_broker(elite: Table) -> None:
    # Bob buys 2 shares through Ann, who stands on the EXCHANGE, for a commission of 15.
    txn = elite.record(
        "shares", player="p2", action="buy", count=2, commission_to="p1", commission=15
    )
    assert txn["postings"] == [
        {"from": "p2", "to": "bank", "amount": 200},
        {"from": "p2", "to": "p1", "amount": 15},
    ]


def test_shares_count_in_net_worth_at_the_current_price(shareholder: Table) -> None:
    # 1500 cash + 5 x 130.
    assert shareholder.player("p1")["net_worth"] == 2150


# -- round income ----------------------------------------------------------------------------


def test_round_income_without_shares_is_200(elite: Table) -> None:
    txn = elite.record("salary", player="p1")
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 200}]


def test_round_income_adds_20_percent_of_the_shares_value(shareholder: Table) -> None:
    txn = shareholder.record("salary", player="p1")
    # 200 + 20 % of 5 x 130 = 200 + 130.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 330}]


def test_round_income_on_three_shares_at_110(elite: Table) -> None:
    # The price moves 10 a point from 100, so a holding is worth a multiple of 10 and its
    # 20 % is always whole: no share income ever needs rounding (no x.5 case exists).
    elite.record("shares", player="p1", action="buy", count=3)
    elite.record("share_price", direction="up", points=1)
    txn = elite.record("salary", player="p1")
    # 200 + 20 % of 3 x 110 = 200 + 66.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 266}]


def test_green_and_blue_policies_end_at_the_next_round_income(elite: Table) -> None:
    elite.record("insurance", player="p1", action="buy", policy="green")
    elite.record("insurance", player="p1", action="buy", policy="blue")
    txn = elite.record("salary", player="p1")
    assert sorted(txn["basis"]["policies_expired"]) == ["blue", "green"]
    assert elite.player("p1")["policies"] == []


def test_orange_and_red_policies_outlast_the_round_income(elite: Table) -> None:
    elite.record("insurance", player="p1", action="buy", policy="orange")
    elite.record("insurance", player="p1", action="buy", policy="red")
    txn = elite.record("salary", player="p1")
    assert txn["basis"]["policies_expired"] == []
    assert elite.player("p1")["policies"] == ["orange", "red"]


# -- round tax, exemption, tax inspection ------------------------------------------------------


def test_round_tax_is_10_a_share_plus_the_plot_tax(shareholder: Table) -> None:
    txn = shareholder.record("round_tax", player="p1", plot_tax=40)
    # 5 x 10 + 40.
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 90}]


def test_round_tax_needs_the_plot_tax_entered(shareholder: Table) -> None:
    error = shareholder.refused("round_tax", player="p1")
    assert refused_field(error) == ["plot_tax"]


def test_a_tax_exemption_is_shown_on_the_player(elite: Table) -> None:
    elite.record("tax_exemption", player="p1")
    assert elite.player("p1")["tax_exempt"] is True


def test_a_tax_exemption_waives_the_next_round_tax(shareholder: Table) -> None:
    shareholder.record("tax_exemption", player="p1")
    txn = shareholder.record("round_tax", player="p1", plot_tax=40)
    assert txn["postings"] == []
    assert txn["basis"]["amount"] == 0
    assert shareholder.player("p1")["tax_exempt"] is False


def test_a_tax_exemption_waives_one_round_tax_only(shareholder: Table) -> None:
    shareholder.record("tax_exemption", player="p1")
    shareholder.record("round_tax", player="p1", plot_tax=40)
    txn = shareholder.record("round_tax", player="p1", plot_tax=40)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 90}]


def test_leaving_tax_inspection_costs_50_paid_to_the_bank(elite: Table) -> None:
    txn = elite.record("jail_fine", player="p1")
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 50}]
    assert elite.cash("pot") == 200


# -- insurance -------------------------------------------------------------------------------


@pytest.mark.parametrize(("policy", "price"), list(POLICIES.items()))
def test_a_policy_is_bought_from_the_bank_at_its_price(
    elite: Table, policy: str, price: int
) -> None:
    txn = elite.record("insurance", player="p1", action="buy", policy=policy)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": price}]
    assert elite.player("p1")["policies"] == [policy]


def test_a_used_policy_goes_back_to_the_bank(elite: Table) -> None:
    elite.record("insurance", player="p1", action="buy", policy="red")
    txn = elite.record("insurance", player="p1", action="use", policy="red")
    assert txn["postings"] == []
    assert elite.player("p1")["policies"] == []


@pytest.mark.parametrize("action", ["use", "return"])
def test_a_policy_not_held_cannot_be_used_or_returned(elite: Table, action: str) -> None:
    elite.record("insurance", player="p1", action="buy", policy="green")
    error = elite.refused("insurance", player="p1", action=action, policy="red")
    assert error.code == "no_policy"


def test_a_policy_of_another_colour_is_refused(elite: Table) -> None:
    error = elite.refused("insurance", player="p1", action="buy", policy="purple")
    assert refused_field(error) == ["policy"]


# -- jackpot ---------------------------------------------------------------------------------


@pytest.fixture
def kitty_of_250(elite: Table) -> Table:
    """Cy lost a stake of 50: the kitty holds 200 + 50 = 250 (Cy 1950)."""
    elite.record("jackpot", player="p3", stake=50, payout=0)
    return elite


def test_a_lost_stake_stays_in_the_kitty(elite: Table) -> None:
    txn = elite.record("jackpot", player="p1", stake=50, payout=0)
    assert txn["postings"] == [{"from": "p1", "to": "pot", "amount": 50}]
    assert txn["basis"] == {"stake": 50, "payout": 0, "won": False, "stake_returned": False}
    assert elite.cash("pot") == 250


def test_a_win_returns_the_stake_with_the_payout_and_leaves_the_kitty_as_it_was(
    kitty_of_250: Table,
) -> None:
    """Seed 004: "Если игрок проиграл, ставка остаётся в кассе" - only a losing stake stays."""
    txn = kitty_of_250.record("jackpot", player="p1", stake=50, payout=300)
    # The stake goes into the slot and straight back: only the Bank's 300 is posted.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 300}]
    assert txn["basis"] == {"stake": 50, "payout": 300, "won": True, "stake_returned": True}
    balances = kitty_of_250.state()["balances"]
    # Ann 2000 + 300 (net +300); the kitty stays at 250; the Bank -6200 - 300.
    assert (balances["p1"], balances["pot"], balances["bank"]) == (2300, 250, -6500)


def test_a_loss_after_a_kitty_of_250_leaves_300(kitty_of_250: Table) -> None:
    kitty_of_250.record("jackpot", player="p1", stake=50, payout=0)
    assert kitty_of_250.cash("pot") == 300
    assert kitty_of_250.cash("p1") == 1950


def test_a_stake_the_player_does_not_hold_is_refused_even_if_it_would_win(elite: Table) -> None:
    elite.record("payment", **{"from": "p1", "to": "p2", "amount": 1970})
    error = elite.refused("jackpot", player="p1", stake=50, payout=300)
    # Ann holds 30 and stakes 50: short by 20.
    assert error.code == "insufficient_funds"
    assert (error.params["amount"], error.params["cash"], error.params["shortfall"]) == (50, 30, 20)


def test_a_rule_set_written_before_the_stake_came_back_keeps_its_old_postings(
    bank: TableBank,
) -> None:
    """Games stored before the fix replay as they were played: their rule set has no
    ``jackpot_stake_returned`` and the stake went into the kitty on a win too."""
    old = json.loads(json.dumps(bank.ruleset(ELITE)))
    del old["parameters"]["jackpot_stake_returned"]
    for deed in old["deeds"]:
        del deed["id"], deed["mortgage_value"]
    gid = bank.create_game(
        "old", "elite-before", ["Ann", "Bob"], {}, ruleset_document={**old, "name": "elite-before"}
    )["id"]
    txn = bank.record(gid, {"type": "jackpot", "player": "p1", "stake": 50, "payout": 300})
    assert txn["postings"] == [
        {"from": "p1", "to": "pot", "amount": 50},
        {"from": "bank", "to": "p1", "amount": 300},
    ]
    assert txn["basis"] == {"stake": 50, "payout": 300, "won": True}


def test_the_banker_records_the_kitty_collected(elite: Table) -> None:
    elite.record("jackpot", player="p2", stake=50, payout=0)
    txn = elite.record("pot_collect", player="p1")
    assert txn["postings"] == [{"from": "pot", "to": "p1", "amount": 250}]
    assert elite.cash("pot") == 0


def test_a_player_cannot_record_the_kitty_collected(elite: Table) -> None:
    with pytest.raises(Forbidden):
        elite.bank.record(elite.id, {"type": "pot_collect", "player": "p1"}, by="p1")


# -- auctions of owned plots -------------------------------------------------------------------


def test_an_auctioned_plot_goes_to_the_winner_and_the_bid_to_its_owner(branch: Table) -> None:
    txn = branch.record("auction", property="b1-2", winner="p2", bid=300)
    assert txn["postings"] == [{"from": "p2", "to": "p1", "amount": 300}]
    assert branch.prop("b1-2")["owner"] == "p2"


def test_a_mortgaged_plot_cannot_be_auctioned(branch: Table) -> None:
    branch.record("mortgage", property="b1-2")
    error = branch.refused("auction", property="b1-2", winner="p2", bid=300)
    assert error.code == "mortgaged"


def test_a_built_plot_cannot_be_auctioned(built: Table) -> None:
    error = built.refused("auction", property="b1-2", winner="p2", bid=300)
    assert error.code == "group_has_buildings"


@pytest.mark.parametrize("policy", list(POLICIES))
def test_an_insured_owners_plot_cannot_be_auctioned(branch: Table, policy: str) -> None:
    branch.record("insurance", player="p1", action="buy", policy=policy)
    error = branch.refused("auction", property="b1-2", winner="p2", bid=300)
    assert error.code == "insured"


# -- a plot won at an auction from the Bank --------------------------------------------------


def test_a_plot_won_at_an_auction_counts_at_its_bid(elite_duel: Table) -> None:
    """docs/rules.md, "Net worth of a plot won at auction": 2000 each (seed 004); Ann wins b1-1,
    whose price nobody entered, for 100: 1900 cash + the plot at 100."""
    txn = elite_duel.record("auction", property="b1-1", winner="p1", bid=100)
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 100}]
    assert {"kind": "paid", "property": "b1-1", "from": None, "to": 100} in txn["changes"]
    assert elite_duel.cash("p1") == 1900
    assert elite_duel.player("p1")["net_worth"] == 2000
    assert elite_duel.player("p2")["net_worth"] == 2000
    # Bob loses a stake of 50 at the jackpot: 1950. Ann now stands above him.
    elite_duel.record("jackpot", player="p2", stake=50, payout=0)
    elite_duel.record("finish")
    assert elite_duel.state()["standings"] == [
        {"player": "p1", "score": 2000, "rank": 1},
        {"player": "p2", "score": 1950, "rank": 2},
    ]


def test_the_bid_counts_for_whoever_holds_the_plot_and_goes_with_a_void(elite_duel: Table) -> None:
    won = elite_duel.record("auction", property="b1-1", winner="p1", bid=100)
    elite_duel.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["b1-1"]},
            {"from": "p2", "to": "p1", "cash": 150},
        ],
    )
    # Ann 1900 + 150; Bob 2000 - 150 + the plot at 100.
    assert elite_duel.player("p1")["net_worth"] == 2050
    assert elite_duel.player("p2")["net_worth"] == 1950
    assert elite_duel.state()["paid_at_auction"] == {"b1-1": 100}
    elite_duel.record(
        "trade",
        legs=[
            {"from": "p2", "to": "p1", "properties": ["b1-1"]},
            {"from": "p1", "to": "p2", "cash": 150},
        ],
    )
    elite_duel.record("void", seq=won["seq"] + 2, reason="undone")
    elite_duel.record("void", seq=won["seq"] + 1, reason="undone")
    elite_duel.record("void", seq=won["seq"], reason="no auction after all")
    assert elite_duel.prop("b1-1")["owner"] == "bank"
    assert elite_duel.player("p1")["net_worth"] == 2000
    assert "paid_at_auction" not in elite_duel.state()


def test_a_plot_whose_price_is_known_counts_at_its_price_not_its_bid(elite_duel: Table) -> None:
    # Ann buys b1-1 entering its price, 200; back with the Bank, Bob wins it for 150.
    elite_duel.record("buy", player="p1", property="b1-1", price=200)
    txn = elite_duel.record("auction", property="b1-1", winner="p2", bid=150)
    assert [c["kind"] for c in txn["changes"]] == ["deed"]
    assert elite_duel.player("p2")["net_worth"] == 2000 - 150 + 200


def test_a_rule_set_written_before_the_bid_counted_keeps_its_plots_at_0(bank: TableBank) -> None:
    """Games stored before the fix replay and import as they were played: their rule set has
    no ``unpriced_plot_counts_bid``, and the auction records no bid to count."""
    old = json.loads(json.dumps(bank.ruleset(ELITE)))
    del old["parameters"]["unpriced_plot_counts_bid"]
    for deed in old["deeds"]:
        del deed["id"], deed["mortgage_value"]
    gid = bank.create_game(
        "old", "elite-before", ["Ann", "Bob"], {}, ruleset_document={**old, "name": "elite-before"}
    )["id"]
    txn = bank.record(gid, {"type": "auction", "property": "b1-1", "winner": "p1", "bid": 100})
    assert txn["changes"] == [{"kind": "deed", "property": "b1-1", "from": "bank", "to": "p1"}]
    ann = next(p for p in bank.game(gid)["players"] if p["id"] == "p1")
    assert ann["net_worth"] == 1900
    copied = bank.import_game(json.loads(json.dumps(bank.export(gid))))
    assert bank.game(copied["id"])["head"] == bank.game(gid)["head"]


# -- mortgages and trades ----------------------------------------------------------------------


def test_a_mortgage_pays_half_the_plots_value(branch: Table) -> None:
    txn = branch.record("mortgage", property="b1-2")
    # Half of 240.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 120}]


def test_a_bare_plot_of_a_built_branch_may_be_mortgaged(built: Table) -> None:
    """docs/rules.md, Millionaire Elite: "Mortgage: sell the plot's buildings first" (the plot's,
    not the branch's)."""
    built.record("sell_buildings", property="b1-2", houses=1)
    txn = built.record("mortgage", property="b1-2")
    # Half of 240; b1-1 keeps its branch.
    assert txn["postings"] == [{"from": "bank", "to": "p1", "amount": 120}]
    assert built.state()["properties"]["b1-1"]["houses"] == 1


def test_a_plot_with_a_branch_on_it_cannot_be_mortgaged(built: Table) -> None:
    assert built.refused("mortgage", property="b1-1").code == "group_has_buildings"


def test_lifting_a_mortgage_costs_half_plus_10_percent_of_the_full_value(branch: Table) -> None:
    branch.record("mortgage", property="b1-2")
    txn = branch.record("unmortgage", property="b1-2")
    # 120 + 10 % of 240.
    assert txn["postings"] == [{"from": "p1", "to": "bank", "amount": 144}]


def test_a_mortgaged_plot_cannot_be_traded(branch: Table) -> None:
    branch.record("mortgage", property="b1-2")
    error = branch.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["b1-2"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    assert error.code == "mortgaged"


def test_an_unbuilt_plot_may_be_traded(branch: Table) -> None:
    branch.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["b1-2"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    assert branch.prop("b1-2")["owner"] == "p2"


def test_a_bare_plot_of_a_built_branch_may_be_traded(built: Table) -> None:
    """Seed 004, "ТОРГОВЛЯ СОБСТВЕННОСТЬЮ": "никакой участок не может быть продан ... если на
    нём есть хотя бы одна постройка" - the rule is per plot, not per branch."""
    built.record("sell_buildings", property="b1-2", houses=1)
    built.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["b1-2"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    # b1-1 keeps its branch; Bob holds the bare b1-2 and Ann no longer holds the branch whole.
    assert built.prop("b1-2")["owner"] == "p2"
    assert built.prop("b1-1") == {"owner": "p1", "mortgaged": False, "houses": 1, "hotel": False}
    assert built.refused("build", property="b1-1").code == "group_incomplete"


def test_a_plot_with_a_building_on_it_cannot_be_traded(built: Table) -> None:
    error = built.refused(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["b1-1"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    assert (error.code, error.params) == (
        "group_has_buildings",
        {"reason": "plot_trade", "property": "b1-1"},
    )


# -- IOUs (docs/rules.md, IOUs) --------------------------------------------------------------------


def test_ious_are_allowed_without_any_option(elite: Table) -> None:
    txn = elite.record("iou", debtor="p1", creditor="p2", amount=300)
    assert txn["postings"] == []
    assert elite.player("p1")["net_worth"] == 1700


# -- bankruptcy ------------------------------------------------------------------------------


def test_a_bankruptcy_needs_what_is_owed(insolvent: Table) -> None:
    error = insolvent.refused("bankruptcy", debtor="p1", creditor="p2")
    assert refused_field(error) == ["owed"]


def test_no_bankruptcy_while_cash_and_shares_could_pay(insolvent: Table) -> None:
    error = insolvent.refused("bankruptcy", debtor="p1", creditor="p2", owed=2110)
    assert error.code == "not_insolvent"


def test_no_bankruptcy_while_buildings_and_mortgages_could_pay(built: Table) -> None:
    # 1360 cash + two branches at half of 100 + mortgages of 100 and 120 = 1680.
    error = built.refused("bankruptcy", debtor="p1", creditor="p2", owed=1680)
    assert error.code == "not_insolvent"


def test_a_debt_one_more_than_could_be_raised_is_a_bankruptcy(built: Table) -> None:
    built.record("bankruptcy", debtor="p1", creditor="p2", owed=1681)
    assert built.player("p1")["bankrupt"] is True


def test_a_bankrupt_whose_turn_it_was_leaves_no_turn_behind(built: Table) -> None:
    # docs/rules.md, Bankruptcy: the bankrupt leaves the game, his turn with him.
    built.record("turn", player="p1")
    built.record("bankruptcy", debtor="p1", creditor="p2", owed=1681)
    assert built.state()["turn"] is None


def test_a_bankrupts_shares_are_sold_to_the_bank_at_the_current_price(
    insolvent: Table,
) -> None:
    txn = insolvent.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    # 11 x 110.
    assert txn["postings"][0] == {"from": "bank", "to": "p1", "amount": 1210}
    assert insolvent.player("p1")["shares"] == 0


def test_a_bankrupt_hands_all_his_money_to_the_creditor(insolvent: Table) -> None:
    txn = insolvent.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    # 900 cash + 1210 from the shares.
    assert {"from": "p1", "to": "p2", "amount": 2110} in txn["postings"]
    assert insolvent.cash("p1") == 0


def test_the_bank_pays_the_creditor_the_rest_of_the_debt(insolvent: Table) -> None:
    txn = insolvent.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    # 5000 - 2110.
    assert txn["postings"][-1] == {"from": "bank", "to": "p2", "amount": 2890}
    assert insolvent.cash("p2") == 7000


def test_a_bankrupts_policies_go_back_to_the_bank(insolvent: Table) -> None:
    insolvent.record("insurance", player="p1", action="buy", policy="orange")
    txn = insolvent.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    assert txn["basis"]["policies_returned"] == ["orange"]
    assert insolvent.player("p1")["policies"] == []


def test_a_bankrupts_plots_and_buildings_go_back_to_the_bank_unmortgaged(built: Table) -> None:
    built.record("buy", player="p1", property="b2-1", price=100)
    built.record("mortgage", property="b2-1")
    built.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    bare = {"owner": "bank", "mortgaged": False, "houses": 0, "hotel": False}
    assert [built.prop(s) for s in ("b1-1", "b1-2", "b2-1")] == [bare] * 3


def test_ious_held_by_a_bankrupt_pass_to_his_creditor(insolvent: Table) -> None:
    # docs/rules.md, IOUs: IOUs held by the bankrupt pass to the creditor.
    iou = insolvent.record("iou", debtor="p3", creditor="p1", amount=300)["basis"]["iou"]
    insolvent.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    held = next(i for i in insolvent.state()["ious"] if i["id"] == iou)
    assert (held["holder"], held["outstanding"]) == ("p2", 300)


def test_ious_owed_by_a_bankrupt_are_written_off(insolvent: Table) -> None:
    # docs/rules.md, IOUs: IOUs owed by the bankrupt are written off.
    iou = insolvent.record("iou", debtor="p1", creditor="p3", amount=400)["basis"]["iou"]
    insolvent.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    owed = next(i for i in insolvent.state()["ious"] if i["id"] == iou)
    assert owed["outstanding"] == 0


def test_the_game_finishes_when_one_player_is_left(elite_duel: Table) -> None:
    elite_duel.record("shares", player="p1", action="buy", count=11)  # Ann 900
    elite_duel.record("shares", player="p2", action="buy", count=5)  # Bob 1500
    elite_duel.record("share_price", direction="up", points=1)  # 110
    elite_duel.record("bankruptcy", debtor="p1", creditor="p2", owed=5000)
    state = elite_duel.state()
    assert state["status"] == "finished"
    # Bob: 1500 + 5000 owed to him + 5 shares at 110.
    assert state["standings"] == [
        {"player": "p2", "score": 7050, "rank": 1},
        {"player": "p1", "score": 0, "rank": 2},
    ]


# -- transaction types of one rule set only ----------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"type": "tax", "player": "p1", "tax": "luxury"},
        {"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"},
    ],
)
def test_classic_only_types_are_refused_in_an_elite_game(
    elite: Table, body: dict[str, object]
) -> None:
    fields = {k: v for k, v in body.items() if k != "type"}
    error = elite.refused(str(body["type"]), **fields)
    assert refused_field(error) == ["type"]


@pytest.mark.parametrize(
    "body",
    [
        {"type": "shares", "player": "p1", "action": "buy", "count": 1},
        {"type": "share_price", "direction": "up", "points": 1},
        {"type": "round_tax", "player": "p1", "plot_tax": 0},
        {"type": "tax_exemption", "player": "p1"},
        {"type": "insurance", "player": "p1", "action": "buy", "policy": "green"},
        {"type": "jackpot", "player": "p1", "stake": 10, "payout": 0},
    ],
)
def test_elite_only_types_are_refused_in_a_classic_game(
    table: Table, body: dict[str, object]
) -> None:
    fields = {k: v for k, v in body.items() if k != "type"}
    error = table.refused(str(body["type"]), **fields)
    assert refused_field(error) == ["type"]


# -- export and import -----------------------------------------------------------------------


def test_an_elite_game_round_trips_through_export_and_import(built: Table) -> None:
    built.record("shares", player="p2", action="buy", count=5)
    built.record("share_price", direction="down", points=2)
    built.record("insurance", player="p3", action="buy", policy="orange")
    built.record("tax_exemption", player="p2")
    built.record("jackpot", player="p3", stake=50, payout=0)
    built.record("rent", payer="p2", property="b1-1", amount=75)
    built.record("iou", debtor="p3", creditor="p2", amount=100)
    original = built.state()
    doc = json.loads(json.dumps(built.bank.export(built.id)))
    copy = built.bank.import_game(doc)
    assert copy["head"] == original["head"]
    for key in ("balances", "players", "properties", "share_price", "ious", "entered_figures"):
        assert copy[key] == original[key], key
