"""The statistics of a game in the ledger (API.md v1.2, "Statistics of a game"): what counts
as interest, buildings sold and a deed's price beyond the plain purchases (the HTTP module plays
those), in a trade, a bankruptcy, the deal of a short or timed game and Millionaire Elite.
Every figure is docs/rules.md's, worked out in the test."""

from __future__ import annotations

from typing import Any

from ledger_helpers import Table

from ledger.application import TableBank


def stats_of(table: Table, player: str) -> dict[str, Any]:
    return next(p for p in table.bank.stats(table.id)["players"] if p["player"] == player)


def deed_of(table: Table, slug: str) -> dict[str, Any]:
    return next(d for d in table.bank.stats(table.id)["deeds"] if d["property"] == slug)


def test_a_mortgaged_deed_received_in_a_trade_costs_its_receiver_interest(table: Table) -> None:
    table.buy("p1", "boardwalk")
    table.record("mortgage", property="boardwalk")
    table.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    # Boardwalk's mortgage value is 400 / 2 = 200; its receiver pays 10 % of it at once: 20.
    assert stats_of(table, "p2")["interest"] == 20
    assert stats_of(table, "p2")["bought"] == 0  # a trade's cash buys no deed of the Bank
    assert stats_of(table, "p1")["bought"] == 400
    # Bob paid 100 for what came with the trade, not a price of Boardwalk's own.
    assert deed_of(table, "boardwalk")["owner"] == "p2"
    assert deed_of(table, "boardwalk")["price_paid"] is None


def test_a_bankrupt_s_buildings_count_as_sold_and_the_creditor_pays_the_fees(
    table: Table,
) -> None:
    # Ann: the browns (60 + 60), a house on each (50 + 50), Reading Railroad (200) mortgaged
    # for 100: cash 1500 - 120 - 100 - 200 + 100 = 1180. She could raise 1180 + the houses at
    # half (25 + 25) + the browns mortgaged (30 + 30) = 1290, less than the 2000 she owes Bob.
    table.give_group("p1", "brown")
    table.build_houses("brown", 1)
    table.buy("p1", "reading-railroad")
    table.record("mortgage", property="reading-railroad")
    table.record("bankruptcy", debtor="p1", creditor="p2", owed=2000)

    ann, bob = stats_of(table, "p1"), stats_of(table, "p2")
    assert ann["buildings_bought"] == 100
    assert ann["buildings_sold"] == 50  # two houses at half their 50, passed on to Bob
    assert bob["interest"] == 10  # 10 % of Reading Railroad's mortgage value, 100
    assert deed_of(table, "reading-railroad")["owner"] == "p2"
    assert deed_of(table, "reading-railroad")["price_paid"] is None  # handed over


def test_dealt_deeds_count_as_bought_at_the_price_paid_at_the_deal(bank: TableBank) -> None:
    """docs/rules.md, "Dealing": the example's deal, Ann pays 750, Bob 120, Cy 200, Di 320."""
    dealt = {
        "p1": ["park-place", "boardwalk"],
        "p2": ["mediterranean-avenue", "baltic-avenue"],
        "p3": ["oriental-avenue", "vermont-avenue"],
        "p4": ["connecticut-avenue", "reading-railroad"],
    }
    short = Table(bank, ruleset="short", players=("Ann", "Bob", "Cy", "Di"), dealt=dealt)
    assert [stats_of(short, p)["bought"] for p in ("p1", "p2", "p3", "p4")] == [750, 120, 200, 320]
    assert deed_of(short, "park-place")["price_paid"] == 350
    assert deed_of(short, "boardwalk")["price_paid"] == 400
    assert deed_of(short, "reading-railroad")["price_paid"] == 200
    short.record("buy", player="p1", property="st-charles-place")
    # Then Ann buys St. Charles Place at 140: 750 + 140.
    assert stats_of(short, "p1")["bought"] == 890
    assert deed_of(short, "st-charles-place")["price_paid"] == 140
    # 1500 - 750 + 750 in deeds: her net worth never moved from the 1500 of her cash.
    ann = stats_of(short, "p1")
    assert (ann["peak_net_worth"], ann["peak_seq"]) == (1500, 1)


def test_the_timed_game_s_dealt_deeds_count_as_bought_too(bank: TableBank) -> None:
    """docs/rules.md, "Timed game": the same dealing as the short game."""
    dealt = {"p1": ["park-place", "boardwalk"], "p2": ["mediterranean-avenue", "baltic-avenue"]}
    timed = Table(bank, ("Ann", "Bob"), ruleset="timed", dealt=dealt)
    assert [stats_of(timed, p)["bought"] for p in ("p1", "p2")] == [750, 120]
    assert deed_of(timed, "baltic-avenue")["price_paid"] == 60
    # A dealt deed that changes hands in a trade has no price of its new owner's own.
    timed.record(
        "trade",
        legs=[
            {"from": "p1", "to": "p2", "properties": ["boardwalk"]},
            {"from": "p2", "to": "p1", "cash": 100},
        ],
    )
    assert deed_of(timed, "boardwalk")["price_paid"] is None
    assert stats_of(timed, "p1")["bought"] == 750


def test_millionaire_elite_s_round_income_is_salary_and_round_tax_is_taxes(
    bank: TableBank,
) -> None:
    elite = Table(bank, ruleset="millionaire-elite")
    elite.record("shares", player="p1", action="buy", count=5)
    elite.record("share_price", direction="up", points=3)
    elite.record("salary", player="p1")
    elite.record("round_tax", player="p1", plot_tax=0)

    ann = stats_of(elite, "p1")
    # Round income: 200 + 20 % of 5 shares at 130 = 200 + 130 = 330 (docs/rules.md 4).
    assert ann["salary"] == 330
    # Round tax: 10 a share, 5 shares, no plot tax: 50.
    assert ann["taxes"] == 50
    # The shares bought (5 x 100) are no deed.
    assert ann["bought"] == 0
    # 2000 - 500 + 5 x 130 = 2150 when the price rose, + 330 = 2480 after the round income.
    assert (ann["peak_net_worth"], ann["peak_seq"]) == (2480, elite.state()["last_seq"] - 1)


def test_an_owner_who_wins_his_own_plot_s_auction_keeps_what_he_paid_for_it(
    bank: TableBank,
) -> None:
    # docs/rules.md, "Auctions of owned plots": the highest bid takes the plot and goes to its
    # owner. Ann enters b1-1 at 200; Bob wins it at auction for 260, paid to Ann; at the next
    # auction of it Bob bids highest again, for 100: he pays himself nothing and keeps it, so
    # what he paid for it is still 260 and he bought nothing more.
    elite = Table(bank, ruleset="millionaire-elite")
    elite.record("buy", player="p1", property="b1-1", price=200)
    elite.record("auction", property="b1-1", winner="p2", bid=260)
    elite.record("auction", property="b1-1", winner="p2", bid=100)

    assert deed_of(elite, "b1-1")["owner"] == "p2"
    assert deed_of(elite, "b1-1")["price_paid"] == 260
    assert stats_of(elite, "p2")["bought"] == 260


def test_as_of_seq_0_nothing_has_happened_yet(table: Table) -> None:
    # Before the first transaction (the starting cash is seq 1): no figure, no peak, every
    # deed the Bank's, whatever came after (a purchase, its rent, the rent voided).
    table.buy("p1", "boardwalk")
    rent = table.record("rent", payer="p2", property="boardwalk")
    table.record("void", seq=rent["seq"], reason="wrong deed")

    stats = table.bank.stats(table.id, 0)

    assert stats["seq"] == 0
    for player in stats["players"]:
        assert {k: v for k, v in player.items() if k != "player"} == {
            "salary": 0, "rent_received": 0, "rent_paid": 0, "taxes": 0, "bought": 0,
            "buildings_bought": 0, "buildings_sold": 0, "interest": 0,
            "peak_net_worth": 0, "peak_seq": 0,
        }  # fmt: skip
    assert len(stats["deeds"]) == 28  # the classic board's deeds (docs/rules.md)
    assert {d["owner"] for d in stats["deeds"]} == {"bank"}
    assert all(d["price_paid"] is None and d["rent_collected"] == 0 for d in stats["deeds"])


def test_a_loan_raises_no_peak_between_its_cash_and_its_iou(bank: TableBank) -> None:
    table = Table(bank, options={"player_loans": True})
    table.record("payment", **{"from": "p2", "to": "p3", "amount": 200})
    table.record("iou", debtor="p3", creditor="p2", amount=200)
    # Cy: 1500 + 200 cash - 200 owed: never above the 1500 of her starting cash (seq 3).
    cy = stats_of(table, "p3")
    assert (cy["peak_net_worth"], cy["peak_seq"]) == (1500, 3)
    # The other order: Bob holds Cy's IOU of 200 before the cash goes: never above 1500 either.
    table.record("iou", debtor="p3", creditor="p2", amount=200)
    table.record("payment", **{"from": "p2", "to": "p3", "amount": 200})
    bob = stats_of(table, "p2")
    assert (bob["peak_net_worth"], bob["peak_seq"]) == (1500, 2)  # his starting cash
