"""The fair-play audit (API.md v1.1, "Fair play"; docs/audit.md, "Fair play"): the handovers
that look like seed 002's economic offences, 1.1 "Слив активов" (asset dumping) and 1.3
"Поддержка другого игрока своими ресурсами" (propping up), with the exception of 1.1 for a
debt paid in deeds. Hand-made games; every figure is written out here (the rule set's defaults:
far below is under 50 % of the value, a shift is at least 10 % of the receiver's net worth,
about to go bankrupt is able to raise less than 10 % of the starting cash, 150)."""

from __future__ import annotations

import pytest
from ledger_helpers import Table

from ledger.application import TableBank


def flags(table: Table) -> list[dict[str, object]]:
    return table.bank.fairplay(table.id)["flags"]  # type: ignore[no-any-return]


def sell(table: Table, deeds: list[str], price: int, seller: str = "p1", buyer: str = "p2") -> None:
    legs: list[dict[str, object]] = [{"from": seller, "to": buyer, "properties": deeds}]
    if price:
        legs.append({"from": buyer, "to": seller, "cash": price})
    table.record("trade", legs=legs)


@pytest.fixture
def leader(table: Table) -> Table:
    """Ann buys Boardwalk (400) and the brown group (60 + 60) and pays a 970 card: she holds 10.
    Bob, the leader, buys Illinois Avenue (240) and wins 1000: 2260 cash, worth 2500."""
    table.buy("p1", "boardwalk", "mediterranean-avenue", "baltic-avenue")
    table.record("card", player="p1", effect="pay", amount=970)
    table.buy("p2", "illinois-avenue")
    table.fund("p2", 1000)
    return table


def test_a_deed_worth_400_sold_for_10_to_the_leader_is_asset_dumping(leader: Table) -> None:
    sell(leader, ["boardwalk"], 10)
    [flag] = flags(leader)
    assert {k: flag[k] for k in ("seq", "rule", "players", "given", "received", "exempt")} == {
        "seq": 10,
        "rule": "asset_dumping",
        "players": ["p1", "p2"],
        "given": 400,
        "received": 10,
        "exempt": None,
    }
    basis = flag["basis"]
    assert isinstance(basis, dict)
    # 10 is 2 % of 400; 390 moved is 15 % of Bob's 2500.
    assert basis["given"] == {
        "cash": 0,
        "deeds": {"boardwalk": 400},
        "jail_cards": {},
        "ious": {},
        "value": 400,
    }
    assert (basis["received_percent"], basis["net"], basis["receiver_worth_before"]) == (
        2,
        390,
        2500,
    )
    assert (basis["dumping_percent"], basis["shift_percent"]) == (50, 10)


def test_the_same_sale_paying_exactly_a_rent_shortfall_owed_to_the_buyer_is_a_debt_payment(
    leader: Table,
) -> None:
    # Ann owes Bob 20 on Illinois Avenue and holds 10: she sells him Boardwalk for the 10 she
    # lacks and pays the rent; she keeps the brown group to play on.
    sell(leader, ["boardwalk"], 10)
    leader.record("rent", payer="p1", property="illinois-avenue")
    [flag] = flags(leader)
    assert (flag["rule"], flag["exempt"]) == ("asset_dumping", "debt_payment")
    assert flag["basis"]["debt_payment"] == {  # type: ignore[index]
        "seq": 11,
        "type": "rent",
        "debt": 20,
        "cash_before": 10,
        "shortfall": 10,
        "groups_kept": ["brown"],
    }


def test_a_sale_for_more_than_the_shortfall_is_no_debt_payment(leader: Table) -> None:
    sell(leader, ["boardwalk"], 15)  # 5 more than the 10 Ann lacks for the rent of 20
    leader.record("rent", payer="p1", property="illinois-avenue")
    [flag] = flags(leader)
    assert (flag["rule"], flag["received"], flag["exempt"]) == ("asset_dumping", 15, None)


def test_a_debtor_left_with_nothing_to_fight_with_pays_no_debt_by_dumping(leader: Table) -> None:
    sell(leader, ["boardwalk", "mediterranean-avenue", "baltic-avenue"], 10)
    leader.record("rent", payer="p1", property="illinois-avenue")
    [flag] = flags(leader)
    # 400 + 60 + 60 handed over for 10, and no group left to Ann.
    assert (flag["given"], flag["exempt"]) == (520, None)


def test_a_fair_trade_is_not_flagged(leader: Table) -> None:
    sell(leader, ["boardwalk"], 400)
    assert flags(leader) == []


def test_a_sale_at_half_the_value_is_not_far_below_it(leader: Table) -> None:
    sell(leader, ["boardwalk"], 200)  # 50 %: not below the 50 % limit
    assert flags(leader) == []


def test_a_small_gift_does_not_shift_the_balance_of_power(table: Table) -> None:
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 100})
    # 100 is under 10 % of Bob's 1500.
    assert flags(table) == []


def test_a_cash_gift_of_a_tenth_of_the_receivers_worth_is_dumping(table: Table) -> None:
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 150})
    [flag] = flags(table)
    assert (flag["rule"], flag["players"], flag["given"], flag["received"]) == (
        "asset_dumping",
        ["p1", "p2"],
        150,
        0,
    )


def test_a_gift_of_cash_to_a_player_about_to_go_bankrupt_is_propping_up(table: Table) -> None:
    table.record("card", player="p3", effect="pay", amount=1450)  # Cy holds 50, and no deed
    table.record("payment", **{"from": "p1", "to": "p3", "amount": 300})
    [flag] = flags(table)
    assert {k: flag[k] for k in ("seq", "rule", "players", "given", "received", "exempt")} == {
        "seq": 5,
        "rule": "propping_up",
        "players": ["p1", "p3"],
        "given": 300,
        "received": 0,
        "exempt": None,
    }
    # Cy could raise 50, under 10 % of the starting 1500.
    assert (flag["basis"]["receiver_could_raise"], flag["basis"]["distress_limit"]) == (50, 150)  # type: ignore[index]


def test_overpaying_a_deed_of_a_player_who_pays_out_more_than_he_had_is_propping_up(
    table: Table,
) -> None:
    # Cy holds Mediterranean Avenue (60) and 200; Ann buys it for 1000, and Cy at once pays a
    # card of 1000, more than the 230 he could have raised (200 + 30 mortgaging it).
    table.buy("p3", "mediterranean-avenue")
    table.record("card", player="p3", effect="pay", amount=1240)
    sell(table, ["mediterranean-avenue"], 1000, seller="p3", buyer="p1")
    table.record("card", player="p3", effect="pay", amount=1000)
    [flag] = flags(table)
    assert (flag["rule"], flag["players"], flag["given"], flag["received"]) == (
        "propping_up",
        ["p1", "p3"],
        1000,
        60,
    )
    assert flag["basis"]["receiver_paid_next"] == 1000  # type: ignore[index]


def test_cash_paid_to_a_creditor_before_going_bankrupt_to_him_is_not_flagged(
    table: Table,
) -> None:
    # Bob owes Ann 2000: he pays her his 1500 and goes bankrupt to her for the rest.
    table.record("payment", **{"from": "p2", "to": "p1", "amount": 1500})
    table.record("bankruptcy", debtor="p2", creditor="p1", owed=500)
    assert flags(table) == []


def test_cash_dumped_on_a_player_before_going_bankrupt_to_the_bank_is_asset_dumping(
    table: Table,
) -> None:
    # Seed 002, 1.1: whether or not the giver means to play on ("вне зависимости от того,
    # собирается ... продолжать игру"). Bob hands Ann his 1500, then goes bankrupt to the Bank.
    table.record("payment", **{"from": "p2", "to": "p1", "amount": 1500})
    table.record("bankruptcy", debtor="p2", creditor="bank", owed=75)
    [flag] = flags(table)
    assert (flag["rule"], flag["players"], flag["given"]) == ("asset_dumping", ["p2", "p1"], 1500)


def test_a_loan_against_an_iou_is_no_gift(bank: TableBank) -> None:
    table = Table(bank, options={"player_loans": True})
    table.record("iou", debtor="p2", creditor="p1", amount=300)
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 300})
    assert flags(table) == []


def test_an_iou_forgiven_is_handed_over(bank: TableBank) -> None:
    table = Table(bank, options={"player_loans": True})
    table.record("iou", debtor="p2", creditor="p1", amount=300)
    table.record("payment", **{"from": "p1", "to": "p2", "amount": 300})
    table.record("iou_forgive", iou="iou-4")
    [flag] = flags(table)
    assert (flag["seq"], flag["rule"], flag["players"], flag["given"]) == (
        6,
        "asset_dumping",
        ["p1", "p2"],
        300,
    )


def test_a_voided_sale_is_not_flagged(leader: Table) -> None:
    sell(leader, ["boardwalk"], 10)
    leader.record("void", seq=10, reason="a slip")
    assert flags(leader) == []


def test_the_thresholds_are_the_rule_sets(bank: TableBank) -> None:
    strict = {"fairplay_dumping_percent": 90, "fairplay_shift_percent": 5}
    box = {"name": "strict", "extends": "classic", "parameters": strict}
    gid = bank.create_game("t", "strict", ["Ann", "Bob"], {}, ruleset_document=box)["id"]
    bank.record(gid, {"type": "buy", "player": "p1", "property": "boardwalk"})
    bank.record(
        gid,
        {
            "type": "trade",
            "legs": [
                {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
                {"from": "p2", "to": "p1", "cash": 300},
            ],
        },
    )
    # 300 is 75 % of 400, under this box's 90 %; the 100 moved is over 5 % of Bob's 1500.
    [flag] = bank.fairplay(gid)["flags"]
    assert (flag["given"], flag["received"]) == (400, 300)


def test_a_loans_cash_handed_over_before_its_iou_is_no_gift(bank: TableBank) -> None:
    # The console's IOU dialog, the cash handed over now: Bob pays Cy 200, then Cy owes him 200.
    table = Table(bank, options={"player_loans": True})
    table.record("payment", **{"from": "p2", "to": "p3", "amount": 200})
    table.record("iou", debtor="p3", creditor="p2", amount=200)
    assert flags(table) == []


def test_a_payment_of_200_with_no_iou_after_it_is_still_dumping(bank: TableBank) -> None:
    table = Table(bank, options={"player_loans": True})
    table.record("payment", **{"from": "p2", "to": "p3", "amount": 200})
    table.record("iou", debtor="p3", creditor="p1", amount=200)  # owed to Ann, not to Bob
    [flag] = flags(table)
    # 200 is at least 10 % of Cy's 1500, and nothing came back to Bob.
    assert (flag["rule"], flag["players"], flag["given"], flag["received"]) == (
        "asset_dumping",
        ["p2", "p3"],
        200,
        0,
    )
