"""What the console offers next, in the players' words (issue 29): the jail dialog offers only
the ways out that the server gives a player in jail; an outbox that empties after an outage
closes its notice and the table follows; a correction names the dispute it settles; an IOU says
it records a debt, and records the lent notes with it when the family hands them over; a void
refused because later transactions depend on it lists them, each with its own Void.

Each was seen in chromium at a phone's width (360 px) in the language named; the cheap ones run
in English, Russian and Polish. Figures: docs/rules.md, every classic player starts with 1,500;
the jail fine is 50.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from console_steps import (
    card,
    logged,
    money,
    more,
    new_game,
    new_page,
    open_table,
    record,
    settled,
    words,
)
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, expect

LOCALES = ["en-US", "ru-RU", "pl-PL"]
NAMES = {
    "en-US": ["Anna", "Bob"],
    "ru-RU": ["Анна", "Борис"],
    "pl-PL": ["Anna", "Bartek"],
}


def ledger(server: Server, game: dict) -> dict[str, Any]:
    """The game as the server holds it."""
    answer = server.call("GET", f"/api/v1/games/{game['id']}", None, game["banker_token"])
    assert answer.status == 200, answer
    return answer.body  # type: ignore[no-any-return]


# -- 9. the jail dialog -------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
def test_the_jail_dialog_offers_no_fine_to_a_player_who_is_not_in_jail(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)
    game = new_game(server, "classic", NAMES[locale])
    open_table(page, server, game)
    anna = NAMES[locale][0]

    dialog = more(page, "p1", words(page, "a_jail"))
    expect(dialog).to_contain_text(words(page, "not_in_jail", name=anna))
    expect(dialog.get_by_role("button", name=words(page, "go_to_jail"))).to_be_visible()
    # Nothing that takes a player out of jail, who is not in it.
    for offer in (words(page, "pay_fine"), words(page, "leave_jail_doubles")):
        expect(dialog.get_by_role("button", name=re.compile(re.escape(offer)))).to_have_count(0)
    dialog.get_by_role("button", name=words(page, "go_to_jail")).click()
    expect(card(page, "p1").locator(".badges")).to_contain_text(words(page, "in_jail"))

    dialog = more(page, "p1", words(page, "a_jail"))
    expect(dialog).to_contain_text(words(page, "is_in_jail", name=anna))
    # docs/rules.md, "Jail fine": leaving jail by paying costs 50: 1,500 - 50 = 1,450.
    fine = dialog.get_by_role("button", name=re.compile(re.escape(words(page, "pay_fine"))))
    expect(fine).to_contain_text(money(page, 50))
    fine.click()
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1450))
    assert ledger(server, game)["balances"]["p1"] == 1450


# -- 4. the outbox after an outage ---------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
def test_the_kept_notice_closes_and_the_table_follows_once_the_outbox_sent_its_move(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)
    game = new_game(server, "classic", NAMES[locale])
    open_table(page, server, game)
    # The Wi-Fi loses every write while the page still thinks the server is there: the salary
    # is kept in the outbox, and the notice says so.
    writes = re.compile(r"/api/v1/games/[^/]+/transactions$")
    page.route(
        writes, lambda route: route.abort() if route.request.method == "POST" else route.continue_()
    )
    page.get_by_test_id("salary-p1").click()
    notice = page.locator("dialog[open]")
    expect(notice).to_contain_text(words(page, "ob_kept"))
    expect(page.get_by_test_id("outbox-move")).to_have_count(1)

    page.unroute(writes)  # the Wi-Fi back: the outbox tries again (after 10 s at most)
    # docs/rules.md: the salary is 200: 1,500 + 200 = 1,700, on the table as soon as it is
    # recorded, with no tap on the notice (it waited for OK for 20 s to 2 min).
    expect(page.get_by_test_id("outbox-move")).to_have_count(0, timeout=15000)
    expect(notice).to_have_count(0, timeout=1000)
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1700), timeout=5000)
    assert ledger(server, game)["balances"]["p1"] == 1700


# -- 13. a correction names its dispute and comes filled in ----------------------------------


def disputed_payment(server: Server, locale: str) -> tuple[dict, int, int]:
    """A game where Anna paid Bob 50 and Bob disputes it from his phone: the game, the
    payment's seq and the dispute's."""
    game = new_game(server, "classic", NAMES[locale])
    paid = record(server, game, {"type": "payment", "from": "p1", "to": "p2", "amount": 50})
    answer = server.call(
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "dispute", "seq": paid["seq"], "reason": "?!"},
        game["tokens"]["p2"],
    )
    assert answer.status == 201, answer
    return game, paid["seq"], answer.body["seq"]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_void_from_all_moves_names_the_open_dispute_and_fills_in_its_transaction(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)
    game, paid, dispute = disputed_payment(server, locale)
    open_table(page, server, game)
    bob = NAMES[locale][1]

    page.get_by_test_id("all-moves").click()
    page.get_by_test_id("move-void").click()
    dialog = page.locator("dialog[open]")
    # The dispute is picked among the open ones by who disputes what and why, not typed as a
    # bare number.
    picker = dialog.locator("select[data-field=dispute]")
    named = words(
        page, "dp_choice", name=bob, about=f"#{paid} {words(page, 'ty_payment')}", reason="?!"
    )
    expect(picker.locator("option", has_text=named)).to_have_count(1)
    picker.select_option(str(dispute))
    # Its transaction and the player's reason come filled in.
    expect(dialog.locator("[data-field=seq]")).to_have_value(str(paid))
    expect(dialog.locator("[data-field=reason]")).to_have_value("?!")
    settled(page)
    dialog.get_by_test_id("move-record").click()
    expect(dialog).to_have_count(0)

    # docs/rules.md: a void moves the payment back: Anna 1,500 again, Bob 1,500.
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1500))
    [void] = logged(server, game, "void")
    assert void["request"] == {"seq": paid, "reason": "?!", "dispute": dispute}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_void_from_the_history_asks_no_dispute_number_and_comes_with_a_reason(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)
    game, paid, dispute = disputed_payment(server, locale)
    salary = record(server, game, {"type": "salary", "player": "p1"})["seq"]
    open_table(page, server, game)
    page.goto(f"{server.base}/#/g/{game['id']}/history")

    # A salary nobody disputes: no dispute to name, the usual reason filled in; two taps.
    row = page.locator(f"details.txn[data-seq='{salary}']")
    row.locator("summary").click()
    row.get_by_role("button", name=words(page, "void_ellipsis")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("[data-field=reason]")).to_have_value(words(page, "void_reason_default"))
    expect(dialog.locator("[data-field=dispute]")).to_have_count(0)
    expect(dialog.get_by_text(words(page, "mf_dispute"), exact=True)).to_have_count(0)
    settled(page)
    dialog.get_by_test_id("move-record").click()
    expect(dialog).to_have_count(0)
    voids = logged(server, game, "void")
    assert [v["request"] for v in voids] == [
        {"seq": salary, "reason": words(page, "void_reason_default")}
    ]
    # The history drawn again with the void: the row the banker opened is still open, voided.
    expect(row.locator("summary .badge")).to_have_text(words(page, "voided"))
    expect(row).to_have_js_property("open", True)
    settled(page)

    # The disputed payment: voided through its dispute, with the player's reason filled in.
    # The banker reads Bob's transactions alone; the void takes neither that nor the open row.
    page.locator("select[name=account]").select_option("p2")
    row = page.locator(f"details.txn[data-seq='{paid}']")
    expect(page.locator(f"details.txn[data-seq='{salary}']")).to_have_count(0)
    row.locator("summary").click()
    row.get_by_role("button", name=words(page, "void_ellipsis")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("input[name=reason]")).to_have_value("?!")
    settled(page)
    dialog.get_by_test_id("dispute-void-send").click()
    expect(dialog).to_have_count(0)
    assert logged(server, game, "void")[-1]["request"] == {
        "seq": paid,
        "reason": "?!",
        "dispute": dispute,
    }
    expect(row.locator("summary .badge")).to_have_text(words(page, "voided"))
    expect(row).to_have_js_property("open", True)
    expect(page.locator("select[name=account]")).to_have_value("p2")
    expect(page.locator(f"details.txn[data-seq='{salary}']")).to_have_count(0)


# -- 7. an IOU says it records a debt, and records the lent notes with it --------------------


def net_worth(state: dict[str, Any], pid: str) -> int:
    (player,) = (p for p in state["players"] if p["id"] == pid)
    return int(player["net_worth"])


@pytest.mark.parametrize("locale", LOCALES)
def test_an_iou_says_it_records_a_debt_and_records_the_lent_cash_first_when_ticked(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)
    game = new_game(server, "classic", NAMES[locale], options={"player_loans": True})
    open_table(page, server, game)
    anna, bob = NAMES[locale]

    # Anna borrows 100 from Bob. The dialog says an IOU is a debt and moves no cash.
    dialog = more(page, "p1", words(page, "a_iou"))
    expect(dialog).to_contain_text(words(page, "iou_hint"))
    dialog.locator("select[name=creditor]").select_option("p2")
    dialog.locator("input[name=amount]").fill("100")
    expect(dialog.get_by_test_id("iou-debt")).to_have_text(
        words(page, "iou_records", debtor=anna, holder=bob, amount=money(page, 100))
    )
    # Bob hands over the notes: ticked, the payment is shown before anything is recorded, and
    # the debt's line still holds beside it (the IOU itself moves no cash; the payment does).
    dialog.get_by_label(words(page, "iou_with_cash")).check()
    expect(dialog.get_by_test_id("iou-cash-quote")).to_have_text(
        f"{bob} → {anna}: {money(page, 100)}"
    )
    if locale == "en-US":
        expect(dialog.get_by_test_id("iou-debt")).to_have_text(
            "A debt is recorded: Anna owes Bob $100. The IOU itself moves no cash."
        )
    settled(page)
    dialog.get_by_role("button", name=words(page, "issue_iou")).click()
    expect(dialog).to_have_count(0)

    # docs/rules.md, IOUs: the IOU moves no cash; the payment of 100 does: Anna 1,500 + 100 =
    # 1,600, Bob 1,400; the IOU is Anna's liability and Bob's asset: both worth 1,500.
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1600))
    expect(page.get_by_test_id("cash-p2")).to_have_text(money(page, 1400))
    settled(page)
    [payment] = logged(server, game, "payment")
    [iou] = logged(server, game, "iou")
    assert payment["request"] == {"from": "p2", "to": "p1", "amount": 100}
    assert iou["request"] == {"debtor": "p1", "creditor": "p2", "amount": 100}
    assert payment["seq"] < iou["seq"]
    state = ledger(server, game)
    assert (net_worth(state, "p1"), net_worth(state, "p2")) == (1500, 1500)


def test_lent_cash_the_creditor_has_not_got_records_neither_the_payment_nor_the_iou(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, locale="ru-RU")
    game = new_game(server, "classic", NAMES["ru-RU"], options={"player_loans": True})
    open_table(page, server, game)

    dialog = more(page, "p1", words(page, "a_iou"))
    dialog.locator("select[name=creditor]").select_option("p2")
    dialog.locator("input[name=amount]").fill("2000")  # Bob holds 1,500
    dialog.get_by_label(words(page, "iou_with_cash")).check()
    expect(dialog.get_by_test_id("iou-cash-quote").locator(".problem")).to_be_visible()
    settled(page)
    dialog.get_by_role("button", name=words(page, "issue_iou")).click()
    expect(dialog.locator(".problem").first).to_be_visible()
    settled(page)
    assert logged(server, game, "payment") == []
    assert logged(server, game, "iou") == []
    expect(page.get_by_test_id("cash-p2")).to_have_text(money(page, 1500))


# -- 5. a void refused for the later transactions that depend on it ---------------------------


@pytest.mark.parametrize("locale", LOCALES)
def test_a_disputed_rent_whose_void_later_taxes_depend_on_lists_them_in_order_to_void_first(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    game = new_game(server, "classic", NAMES[locale])
    record(server, game, {"type": "buy", "player": "p2", "property": "boardwalk"})
    rent = record(server, game, {"type": "rent", "payer": "p1", "property": "boardwalk"})["seq"]
    # Two income taxes of 10 % of what Anna is worth: each depends on the rent (without it she
    # would be worth 50 more), the second on the first too.
    income = {"type": "tax", "player": "p1", "tax": "income", "choice": "percent"}
    first = record(server, game, income)["seq"]
    second = record(server, game, income)["seq"]
    disputed = server.call(
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "dispute", "seq": rent, "reason": "?!"},
        game["tokens"]["p1"],
    )
    assert disputed.status == 201, disputed
    page = new_page(browser, request, locale=locale)
    open_table(page, server, game)

    page.get_by_test_id(f"dispute-void-{disputed.body['seq']}").click()
    dialog = page.locator("dialog[open]")
    send = dialog.get_by_test_id("dispute-void-send")
    way = dialog.get_by_test_id("void-quote").get_by_test_id("void-first")
    # The way forward, in the order the server takes them: the second tax (its own void
    # waits for nothing), then the first; the rent's own Void is shut meanwhile.
    expect(way.locator("li")).to_have_count(2)
    assert way.locator("li").evaluate_all("els => els.map((el) => Number(el.dataset.seq))") == [
        second,
        first,
    ]
    expect(way.locator("li").first).to_contain_text(words(page, "ty_tax"))
    expect(send).to_be_disabled()

    way.get_by_test_id(f"void-first-{second}").click()
    # Asked again: the first tax still stands in the way, alone now.
    expect(way.locator("li")).to_have_count(1)
    expect(way.locator("li")).to_have_attribute("data-seq", str(first))
    way.get_by_test_id(f"void-first-{first}").click()
    # Nothing stands in the way: the rent's void shows what it moves back, and goes.
    expect(dialog.get_by_test_id("void-quote")).to_contain_text(
        f"{NAMES[locale][1]} → {NAMES[locale][0]}: {money(page, 50)}"
    )
    expect(send).to_be_enabled()
    settled(page)
    send.click()
    expect(dialog).to_have_count(0)

    # docs/rules.md: every classic player starts with 1,500; Boardwalk costs 400. With the
    # rent and both taxes voided, Anna holds 1,500 again and Bob 1,100.
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1500))
    expect(page.get_by_test_id("cash-p2")).to_have_text(money(page, 1100))
    voids = [v["request"] for v in logged(server, game, "void")]
    reason = words(page, "vf_reason", seq=rent)
    assert voids == [
        {"seq": second, "reason": reason},
        {"seq": first, "reason": reason},
        {"seq": rent, "reason": "?!", "dispute": disputed.body["seq"]},
    ]


def test_a_void_from_the_history_refused_for_a_later_tax_offers_its_void_then_goes(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", NAMES["pl-PL"])
    record(server, game, {"type": "buy", "player": "p2", "property": "boardwalk"})
    rent = record(server, game, {"type": "rent", "payer": "p1", "property": "boardwalk"})["seq"]
    income = {"type": "tax", "player": "p1", "tax": "income", "choice": "percent"}
    tax = record(server, game, income)["seq"]
    page = new_page(browser, request, locale="pl-PL")
    open_table(page, server, game)
    page.goto(f"{server.base}/#/g/{game['id']}/history")

    row = page.locator(f"details.txn[data-seq='{rent}']")
    row.locator("summary").click()
    row.get_by_role("button", name=words(page, "void_ellipsis")).click()
    dialog = page.locator("dialog[open]")
    way = dialog.get_by_test_id("void-quote").get_by_test_id("void-first")
    expect(way.locator("li")).to_have_count(1)
    expect(way.locator("li")).to_have_attribute("data-seq", str(tax))
    expect(dialog.get_by_test_id("move-record")).to_be_disabled()
    way.get_by_test_id(f"void-first-{tax}").click()
    expect(dialog.get_by_test_id("move-record")).to_be_enabled()
    settled(page)
    dialog.get_by_test_id("move-record").click()
    expect(dialog).to_have_count(0)
    # docs/rules.md: with the rent and the tax voided, Anna holds her 1,500 again.
    settled(page)
    assert ledger(server, game)["balances"]["p1"] == 1500
    assert [v["request"]["seq"] for v in logged(server, game, "void")] == [tax, rent]
