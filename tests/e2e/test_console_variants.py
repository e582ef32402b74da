"""The console's other flows and variant screens, in Debian's chromium headless against a real
`tablebank serve`: Millionaire Elite, the short game's deal, the trade builder with a jail card,
both income-tax figures, the legal building moves, mortgages, a bankruptcy with its breakdown
first, a void with its reason, the table "as of" a transaction, a statement, and every dialog
translated in Russian and Polish.

Needs what tests/e2e/test_console.py needs (Playwright for Python, /usr/bin/chromium); without
them these tests skip, unless TABLEBANK_REQUIRE_ALL=1 makes that a failure. Figures are those
of docs/rules.md, quoted where they are used. TABLEBANK_SCREENSHOTS=docs/screenshots also saves the
Millionaire Elite table at phone and laptop sizes.
"""

# The console writes Cyrillic ("фанты"), a true minus sign and a multiplication sign: the
# expected texts hold the same characters, which RUF001/RUF003 would take for look-alikes.
# ruff: noqa: RUF001, RUF003

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pytest
from console_steps import (
    card,
    goto,
    history_settled,
    logged,
    more,
    new_game,
    new_page,
    open_table,
    record,
    settled,
)
from server import Server

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 800}


# Without Playwright, browser.chromium() skips (or fails under TABLEBANK_REQUIRE_ALL=1).
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, expect


# -- steps ---------------------------------------------------------------------------------


# -- Millionaire Elite -----------------------------------------------------------------------


def test_millionaire_elite_records_plots_shares_the_exchange_income_and_round_tax(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    page.goto(server.base + "/")
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Rule set").select_option("millionaire-elite")
    inputs = page.locator(".player-inputs input")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    inputs.nth(2).fill("")
    page.get_by_test_id("create-game").click()
    page.get_by_role("link", name="To the table").click()
    # docs/rules.md, Millionaire Elite: 2000 each; the rule set's currency is "фанты".
    expect(page.get_by_test_id("cash-p1")).to_have_text("2,000\u00a0фанты")

    # Plots print no price: the console asks for the one agreed.
    card(page, "p1").get_by_role("button", name="Buy").click()
    page.locator("dialog .tile[data-deed=b1-1]").click()
    page.locator("dialog input[name=price]").fill("300")
    page.get_by_test_id("record-buy").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("1,700\u00a0фанты")

    # Shares at the starting price of 100: 3 × 100 = 300, the server's figure before recording.
    dialog = more(page, "p1", "Shares")
    dialog.locator("input[name=count]").fill("3")
    quote = dialog.get_by_test_id("shares-quote")
    expect(quote.get_by_test_id("shares-quote-moves")).to_have_text("Ann → Bank: 300\u00a0фанты")
    expect(quote.locator("dt", has_text="price").locator("+ dd")).to_have_text("100\u00a0фанты")
    dialog.get_by_role("button", name="Record", exact=True).click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("1,400\u00a0фанты")

    # The EXCHANGE: up 2 points of 10 takes the price from 100 to 120.
    page.get_by_role("button", name="Exchange: share price").click()
    page.locator("dialog[open] button", has_text="▲ 2").click()
    expect(page.locator(".game-head .facts")).to_contain_text("Share price: 120\u00a0фанты")
    expect(page.locator(".toast").last).to_contain_text(
        "Share price · 100\u00a0фанты → 120\u00a0фанты"
    )

    # Round income: 200 + 20 % of 3 × 120 = 200 + 72, shown on the button before the tap.
    expect(page.get_by_test_id("salary-p1")).to_have_text("Income +272\u00a0фанты")
    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("1,672\u00a0фанты")

    # Round tax: 10 a share (3 × 10 = 30) plus the plot tax from the box's table (20 here).
    dialog = more(page, "p1", "Round tax")
    expect(dialog).to_contain_text("3 shares, and the plot tax read off the box.")
    # The rule set prints no plot tax: the server's dry run asks for it, the dialog says so.
    quote = dialog.get_by_test_id("round-tax-quote")
    expect(quote).to_have_text("Enter the plot tax from the box’s table to see the round tax.")
    expect(dialog).not_to_contain_text("null")
    # Without the plot tax the server refuses (422 naming plot_tax): said, the field marked.
    dialog.get_by_role("button", name="Record the round tax").click()
    expect(dialog.locator(".problem-title")).to_have_text("Check the form")
    expect(dialog.locator(".error-slot .problem")).to_contain_text("Check: plot tax")
    expect(dialog.locator("input[name=plot_tax]")).to_have_attribute("aria-invalid", "true")
    dialog.locator("input[name=plot_tax]").fill("20")
    # 3 × 10 + 20 = 50, the server's figure, before the tap.
    expect(quote.get_by_test_id("round-tax-quote-moves")).to_have_text("Ann → Bank: 50\u00a0фанты")
    dialog.get_by_role("button", name="Record the round tax").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("1,622\u00a0фанты")

    # A green policy costs 100 and shows on the player's card.
    dialog = more(page, "p1", "Insurance")
    dialog.locator(".policy-green").get_by_role("button", name="Buy").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("1,522\u00a0фанты")
    expect(card(page, "p1")).to_contain_text("Policies: green")

    out = os.environ.get("TABLEBANK_SCREENSHOTS")
    if out:
        page.screenshot(path=Path(out) / "elite-phone.png", full_page=True)
        page.set_viewport_size(LAPTOP)
        page.screenshot(path=Path(out) / "elite-laptop.png")


def test_short_game_dealt_at_the_table_is_entered_deed_by_deed(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    page.goto(server.base + "/")
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Rule set").select_option("short")
    inputs = page.locator(".player-inputs input")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    inputs.nth(2).fill("")
    page.get_by_label("Dealt at the table: tap what each player got").check()
    ann, bob = (
        page.get_by_role("group", name="Deeds dealt to Ann"),
        page.get_by_role("group", name="Deeds dealt to Bob"),
    )
    ann.locator(".tile[data-deed=boardwalk]").click()
    ann.locator(".tile[data-deed=park-place]").click()
    expect(bob.locator(".tile[data-deed=boardwalk]")).to_have_count(0)  # dealt once only
    bob.locator(".tile[data-deed=reading-railroad]").click()
    bob.locator(".tile[data-deed=baltic-avenue]").click()
    page.get_by_test_id("create-game").click()
    page.get_by_role("link", name="To the table").click()

    # docs/rules.md, short/timed game: each pays the Bank the printed prices at once, out of 1500:
    # Ann 400 + 350, Bob 200 + 60.
    expect(page.get_by_test_id("cash-p1")).to_have_text("$750")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,240")
    # In board order, as on the table.
    expect(card(page, "p1").locator(".chip")).to_have_text(["Park Place", "Boardwalk"])
    expect(card(page, "p2").locator(".chip")).to_have_text(["Baltic Avenue", "Reading Railroad"])
    # No option `minutes`: no clock, so no countdown (test_console_trust.py has the timed one).
    expect(page.get_by_test_id("countdown")).to_have_count(0)


# -- classic flows without a test elsewhere --------------------------------------------------


def test_trade_builder_moves_cash_a_deed_a_mortgaged_deed_and_a_jail_card_at_once(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    for body in (
        {"type": "buy", "player": "p1", "property": "boardwalk"},
        {"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"},
        {"type": "buy", "player": "p2", "property": "reading-railroad"},
        {"type": "mortgage", "property": "reading-railroad"},
    ):
        record(server, game, body)
    open_table(page, server, game)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,100")  # 1500 - 400
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,400")  # 1500 - 200 + 100

    page.locator(".table-actions").get_by_role("button", name="Trade").click()
    legs = page.locator("dialog[open] fieldset.leg")
    legs.nth(0).get_by_label("Chance jail card").check()
    legs.nth(0).locator(".tile[data-deed=boardwalk]").click()
    legs.nth(1).locator("input[name=cash]").fill("100")
    legs.nth(1).locator(".tile[data-deed=reading-railroad]").click()
    # A mortgaged deed received costs its receiver 10 % of the mortgage value (100) at once
    # (docs/rules.md#mortgages): the server's dry run of the trade says so before it is recorded.
    # Its box says what ticking does (issue 29), and what an unticked deed does is said once.
    expect(page.locator("dialog[open]")).to_contain_text("Reading Railroad: lift the mortgage now")
    expect(page.locator("dialog[open]")).to_contain_text(
        "A deed not ticked stays mortgaged; its new owner pays the interest now."
    )
    expect(page.get_by_test_id("trade-quote-moves")).to_contain_text("Ann → Bank: $10")
    summary = page.locator("dialog[open] .preview:not(.quote)")
    expect(summary).to_contain_text("Ann → Bob: Boardwalk, Chance jail card")
    expect(summary).to_contain_text("Bob → Ann: $100, Reading Railroad")
    page.locator("dialog[open]").get_by_role("button", name="Record the trade").click()

    # The toast says the whole deal, not only the cash that moved (issue 22, item 8).
    toast = page.locator("#toasts .toast-ok", has_text="Trade")
    expect(toast).to_contain_text(
        "Ann → Bob: Boardwalk, Chance jail card; Bob → Ann: $100, Reading"
    )
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,190")  # 1100 + 100 - 10
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,300")  # 1400 - 100
    expect(card(page, "p2").locator(".badges")).to_contain_text("Chance jail card")
    expect(card(page, "p2").locator(".chip")).to_have_text(["Boardwalk"])
    expect(card(page, "p1").locator(".chip")).to_contain_text(["Reading Railroad"])


def test_tax_shows_both_figures_and_building_offers_only_the_legal_moves(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    record(server, game, {"type": "buy", "player": "p1", "property": "park-place"})
    open_table(page, server, game)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$750")  # 1500 - 400 - 350

    # docs/rules.md: 200, or 10 % of cash + deeds at printed price (750 + 400 + 350 = 1500).
    dialog = more(page, "p1", "Tax")
    expect(page.get_by_test_id("tax-flat")).to_contain_text("$200")
    expect(page.get_by_test_id("tax-percent")).to_contain_text("$150")
    expect(page.get_by_test_id("tax-percent")).to_contain_text("10 % · $1,500")
    page.get_by_test_id("tax-percent").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$600")
    # The toast says the way it was paid, not both (issue 22, item 8).
    expect(page.locator("#toasts .toast").last).to_contain_text(
        "10 % of a total worth of $1,500: $150"
    )

    # The whole dark-blue group: a house on each (2 × 200), or one house on either street.
    dialog = more(page, "p1", "Build / sell")
    expect(dialog.locator(".moves button")).to_have_text(
        [
            "+1 house on Park Place −$200",
            "+1 house on Boardwalk −$200",
            "+1 house on each −$400",
        ]
    )
    dialog.get_by_role("button", name="+1 house on Boardwalk −$200").click()
    expect(dialog.get_by_test_id("build-cash")).to_have_text("Cash — Ann: $400")

    # Building evenly: only Park Place may take the next house; the sale gets half (100). The
    # moves the rules refuse now (a second house on Boardwalk) are not offered: the server's
    # dry run of each decides. A house on each is legal again (1 and 2 houses: even). The
    # dialog stays open for the next step, drawn again.
    expect(dialog.locator(".moves button")).to_have_text(
        [
            "+1 house on Park Place −$200",
            "+1 house on each −$400",
            "−1 house on Boardwalk +$100",
        ]
    )
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$400")  # the table, once closed

    # A group with buildings cannot be mortgaged: the server's refusal instead of a button.
    dialog = more(page, "p1", "Mortgage")
    expect(dialog.locator(".refused-note")).to_have_text(["The group has buildings"] * 2)
    expect(dialog.get_by_role("button", name=re.compile("^Mortgage"))).to_have_count(0)


def test_mortgage_and_lift_show_what_the_bank_pays_and_what_lifting_costs(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    open_table(page, server, game)
    # docs/rules.md: the mortgage value is half the price (200); lifting costs it + 10 % (220).
    more(page, "p1", "Mortgage").get_by_role("button", name="Mortgage +$200").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,300")
    expect(card(page, "p1").locator(".chip.mortgaged")).to_have_count(1)
    more(page, "p1", "Mortgage").get_by_role("button", name="Lift −$220").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,080")
    expect(card(page, "p1").locator(".chip.mortgaged")).to_have_count(0)


def test_bankruptcy_shows_the_liquidation_breakdown_before_it_is_declared(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p2", "property": "boardwalk"})
    open_table(page, server, game)

    dialog = more(page, "p2", "Bankruptcy")
    # Cash 1100 and Boardwalk's mortgage value 200: 1300 in all, before anything is recorded.
    breakdown = dialog.locator("table.liquidation")
    expect(breakdown).to_contain_text("Cash$1,100")
    expect(breakdown).to_contain_text("Mortgage Boardwalk$200")
    expect(breakdown.locator("tr.total")).to_have_text("Total$1,300")
    # What the server would answer, before anything is recorded: owing 1000, Bob could pay.
    dialog.locator("input[name=owed]").fill("1000")
    quote = dialog.get_by_test_id("bankruptcy-quote")
    expect(quote.locator(".problem-detail")).to_have_text(
        "Bob could still raise $1,300 ($1,100 in cash + $200) and owes $1,000."
    )
    # Owing 5000 he cannot: his 1100 and Boardwalk go to the Bank (docs/rules.md#bankruptcy).
    dialog.locator("input[name=owed]").fill("5000")
    expect(quote.get_by_test_id("bankruptcy-quote-moves")).to_have_text("Bob → Bank: $1,100")
    dialog.get_by_role("button", name="Declare the bankruptcy").click()

    # One player is left: the game is over, Ann first with her 1500.
    expect(page.locator(".game-head .standings")).to_contain_text("1. Ann $1,500")
    expect(card(page, "p2").locator(".badges")).to_contain_text("bankrupt")


def test_void_with_a_reason_then_the_table_as_of_and_a_statement(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "salary", "player": "p1"})  # seq 3
    record(server, game, {"type": "payment", "from": "p1", "to": "p2", "amount": 300})  # seq 4
    open_table(page, server, game)
    page.get_by_role("link", name="History").click()

    payment = page.locator("details.txn[data-seq='4']")
    payment.locator("summary").click()
    expect(payment).to_contain_text("Ann → Bob: $300")
    payment.get_by_role("button", name="Void…").click()
    dialog = page.locator("dialog[open]")
    # The usual reason comes filled in; taken out, the void is not sent without one.
    expect(dialog.get_by_label("Reason")).to_have_value("recorded by mistake")
    dialog.get_by_label("Reason").fill("")
    dialog.get_by_role("button", name="Void", exact=True).click()
    expect(dialog.locator(".problem")).to_have_text("Say why.")  # no void without a reason
    dialog.get_by_label("Reason").fill("paid to the wrong player")
    dialog.get_by_role("button", name="Void", exact=True).click()
    expect(page.locator("details.txn[data-seq='4'] .badge")).to_have_text("voided")
    voided = server.call(
        "GET", f"/api/v1/games/{game['id']}/transactions/5", None, game["banker_token"]
    ).body
    assert voided["type"] == "void" and voided["request"]["reason"] == "paid to the wrong player"

    # The statement of Bob: +300, then -300 by the void; his balance is 1500 again.
    page.get_by_label("Account").last.select_option("p2")
    statement = page.locator("table.statement")
    expect(statement.locator("caption")).to_have_text("Statement of Bob · balance $1,500")
    expect(statement.locator("tbody tr")).to_have_count(3)
    expect(statement.locator("tbody tr").nth(0)).to_contain_text("−$300")
    expect(statement.locator("tbody tr").nth(1)).to_contain_text("+$300")

    # The table as it stood right after the salary: Ann 1700, Bob 1500.
    page.locator("details.txn[data-seq='3'] summary").click()
    page.get_by_role("link", name="Table as of #3").click()
    expect(page.locator(".banner")).to_contain_text("The table as it stood after #3.")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,500")
    expect(card(page, "p1").locator(".quick-row")).to_have_count(0)  # read-only


# -- keyboard --------------------------------------------------------------------------------


def test_a_move_is_recorded_with_the_keyboard_alone_and_focus_comes_back(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    # Tab to Ann's first move, GO, and record it with Enter.
    for _ in range(12):
        if page.evaluate("document.activeElement.dataset.testid") == "salary-p1":
            break
        page.keyboard.press("Tab")
    expect(page.get_by_test_id("salary-p1")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")  # 1500 + GO's 200

    # A dialog takes the focus, Escape closes it, and the focus goes back to its opener.
    more = card(page, "p2").locator(".quick.more")
    more.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog[open]")
    expect(dialog).to_be_visible()
    assert page.evaluate("document.activeElement.closest('dialog') !== null")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(more).to_be_focused()
    history_settled(page)  # the closed dialog's history step in, before the next one opens

    # The Pay dialog by keyboard: the first field has the focus; Enter on the button records.
    card(page, "p2").get_by_role("button", name="Pay").focus()
    page.keyboard.press("Enter")
    expect(page.locator("dialog[open] select[name=from]")).to_be_focused()
    page.locator("dialog[open] select[name=to]").select_option("p1")
    page.locator("dialog[open] input[name=amount]").fill("40")
    page.get_by_test_id("record-payment").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,460")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,740")


# -- languages -------------------------------------------------------------------------------

ENGLISH_LEFT = """async (lang) => {
  const i18n = await import('/console/static/js/i18n.js');
  const other = (await import(`/console/static/js/i18n-${lang}.js`))[lang];
  return Object.entries(i18n.en)
    .filter(([key, text]) => other[key] !== text)
    .map(([key, text]) => [text, other[key] ?? '']);
}"""

UNTRANSLATED = """async (lang) => {
  const i18n = await import('/console/static/js/i18n.js');
  const other = (await import(`/console/static/js/i18n-${lang}.js`))[lang];
  return Object.keys(i18n.en).filter((key) => !(key in other));
}"""

SHOWN = """() => {
  const open = document.querySelector('dialog[open]') || document.querySelector('main');
  const labelled = [...open.querySelectorAll('[aria-label]')];
  const labels = labelled.map((el) => el.getAttribute('aria-label'));
  return [open.innerText, ...labels].join('\\n');
}"""


@pytest.mark.parametrize("locale", ["ru-RU", "pl-PL"])
def test_every_move_of_the_table_is_translated_in_russian_and_polish(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"], options={"player_loans": True})
    for body in (
        {"type": "buy", "player": "p1", "property": "boardwalk"},
        {"type": "buy", "player": "p1", "property": "park-place"},
        {"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"},
        {"type": "iou", "debtor": "p2", "creditor": "p1", "amount": 50},
        {"type": "buy", "player": "p2", "property": "reading-railroad"},
        {"type": "mortgage", "property": "reading-railroad"},
    ):
        record(server, game, body)
    open_table(page, server, game)
    # Longer words ("Płatność", "Покупка") still fit their buttons on a 360 px phone.
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('main button')]
          .filter((b) => b.scrollWidth > b.clientWidth + 1)
          .map((b) => b.innerText)"""
    )
    assert clipped == []
    # Every English text has its translation, even on screens this test does not open.
    assert page.evaluate(UNTRANSLATED, locale[:2]) == []
    # Every English text whose translation differs: none of its words may be left on screen.
    english = page.evaluate(ENGLISH_LEFT, locale[:2])
    # ("Bank: {houses} houses" leaves "Bank:", which Polish writes the same: not a leftover.)
    fragments = {
        part.strip()
        for text, translated in english
        for part in re.split(r"\{\w+\}", text)
        if len(part.strip()) >= 4 and re.search("[a-z]", part) and part.strip() not in translated
    }
    assert "Close" in fragments  # the close button of every dialog, for one
    assert len(fragments) > 200  # the check below looks for something real

    screens = {"table": page.evaluate(SHOWN)}
    card(page, "p1").locator(".quick.more").click()
    moves = page.locator("dialog .sheet-btn").all_inner_texts()
    screens["moves"] = page.evaluate(SHOWN)
    page.keyboard.press("Escape")
    for index, move in enumerate(moves):
        card(page, "p1").locator(".quick.more").click()
        page.locator("dialog .sheet-btn").nth(index).click()
        expect(page.locator("dialog[open] h2").first).to_have_text(re.compile(r"\S"))
        settled(page)  # the bankruptcy's breakdown is fetched
        screens[move] = page.evaluate(SHOWN)
        page.keyboard.press("Escape")
    table_moves = page.locator(".table-actions .moves button")
    for index in range(table_moves.count()):
        table_moves.nth(index).click()
        screens[f"table move {index}"] = page.evaluate(SHOWN)
        page.keyboard.press("Escape")
    goto(page, f"{server.base}/#/g/{game['id']}/history")
    page.locator("details.txn[data-seq='6'] summary").click()  # a jail card drawn from its deck
    page.locator("details.txn[data-seq='7'] summary").click()  # the IOU and what it moved
    page.locator("details.txn[data-seq='8'] summary").click()  # a purchase and its basis
    page.locator("details.txn[data-seq='9'] summary").click()  # a mortgage and its basis
    screens["history"] = page.evaluate(SHOWN)
    page.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    expect(page.get_by_test_id("my-cash")).to_be_visible()
    screens["player's page"] = page.evaluate(SHOWN)

    def english_in(text: str) -> list[str]:
        # Whole words only: Polish words may hold English letters ("Bankructwo").
        return sorted(f for f in fragments if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text))

    left = {screen: english_in(text) for screen, text in screens.items() if english_in(text)}
    assert left == {}
    assert len(screens) >= 17  # the table, the sheet, its moves, the table's, history, player


# -- accessibility: contrast -----------------------------------------------------------------

# WCAG 2.x contrast of every visible text against the background it is drawn on (its
# ancestors' colours composed, opacity included): 4.5:1, or 3:1 for large text (24 px, or
# 18.66 px bold). Disabled controls are exempt, as WCAG says. Each failure: tag, class, text,
# ratio.
LOW_CONTRAST = r"""() => {
  const rgba = (text) => {
    const parts = text.match(/rgba?\(([^)]+)\)/)[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const channel = (v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const backgroundOf = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const colour = rgba(getComputedStyle(e).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] === 1) break;
    }
    return layers.reverse().reduce((under, top) => [...over(top, under), 1], [255, 255, 255, 1]);
  };
  const root = document.querySelector('dialog[open]') || document.body;
  const failures = [];
  for (const el of root.querySelectorAll('*')) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText || !el.getClientRects().length || el.closest('[hidden], .sr-only')) continue;
    if (el.closest('[disabled]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const background = backgroundOf(el);
    const ink = rgba(style.color);
    const text = over([ink[0], ink[1], ink[2], ink[3] * opacity], background);
    const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      const what = el.textContent.trim().slice(0, 30);
      failures.push(`${el.tagName.toLowerCase()}.${el.className} "${what}" ${ratio.toFixed(2)}`);
    }
  }
  return failures;
}"""


def test_every_text_meets_wcag_aa_contrast_on_the_main_screens(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    page.set_viewport_size(LAPTOP)
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"], options={"player_loans": True})
    for body in (
        {"type": "buy", "player": "p1", "property": "boardwalk"},
        {"type": "buy", "player": "p1", "property": "park-place"},
        {"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"},
        {"type": "go_to_jail", "player": "p3"},
        {"type": "buy", "player": "p2", "property": "reading-railroad"},
        {"type": "mortgage", "property": "reading-railroad"},
        {"type": "turn", "player": "p2"},
    ):
        record(server, game, body)
    open_table(page, server, game)
    low = {"table": page.evaluate(LOW_CONTRAST)}
    card(page, "p1").locator(".quick.more").click()
    moves = page.locator("dialog .sheet-btn").all_inner_texts()
    page.keyboard.press("Escape")
    for index, move in enumerate(moves):
        card(page, "p1").locator(".quick.more").click()
        page.locator("dialog .sheet-btn").nth(index).click()
        settled(page)
        low[move] = page.evaluate(LOW_CONTRAST)
        page.keyboard.press("Escape")
    for view in ("players", "history", "replay"):
        goto(page, f"{server.base}/#/g/{game['id']}/{view}")
        expect(page.locator("main h1")).to_be_visible()
        if view == "history":
            page.locator(".txn summary").first.click()
        low[view] = page.evaluate(LOW_CONTRAST)
    page.goto(f"{server.base}/play/{game['id']}#p=p3&token={game['tokens']['p3']}")
    expect(page.get_by_test_id("my-cash")).to_be_visible()
    low["player's page"] = page.evaluate(LOW_CONTRAST)
    assert {screen: found for screen, found in low.items() if found} == {}

    # The check finds a grey (#aaa) text on white, 2.3:1, when there is one.
    page.evaluate(
        """() => {
          const canary = document.createElement('span');
          canary.textContent = 'canary';
          canary.style.color = '#aaa';
          document.querySelector('main').append(canary);
        }"""
    )
    assert [line.split('"')[1] for line in page.evaluate(LOW_CONTRAST)] == ["canary"]


def test_a_group_is_built_up_to_hotels_in_one_open_dialog(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p1", "property": "mediterranean-avenue"})
    record(server, game, {"type": "buy", "player": "p1", "property": "baltic-avenue"})
    open_table(page, server, game)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,380")  # 1500 - 60 - 60

    # docs/rules.md, "Building": the brown streets' houses and hotels cost 50 each; four
    # houses on each street before a hotel. Ann builds a house on each four times, then a
    # hotel on each, in the dialog she opened once; a double tap builds one step.
    dialog = more(page, "p1", "Build / sell")
    cash = ["$1,280", "$1,180", "$1,080", "$980"]  # 100 a step: 2 houses of 50
    dialog.get_by_role("button", name="+1 house on each −$100").dblclick()
    in_dialog = dialog.get_by_test_id("build-cash")
    expect(in_dialog).to_have_text(f"Cash — Ann: {cash[0]}")
    for figure in cash[1:]:
        dialog.get_by_role("button", name="+1 house on each −$100").click()
        expect(in_dialog).to_have_text(f"Cash — Ann: {figure}")
    expect(page.get_by_test_id("again-yes")).to_have_count(0)  # never "Record it again?"
    dialog.get_by_role("button", name="Hotel on each −$100").click()
    expect(in_dialog).to_have_text("Cash — Ann: $880")
    expect(dialog.locator(".levels")).to_contain_text("Mediterranean Avenue: hotel")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$880")

    builds = [t["request"]["orders"] for t in logged(server, game, "build")]
    each = [
        {"property": "mediterranean-avenue", "houses": 1},
        {"property": "baltic-avenue", "houses": 1},
    ]
    hotels = [
        {"property": "mediterranean-avenue", "hotel": True},
        {"property": "baltic-avenue", "hotel": True},
    ]
    assert builds == [each] * 4 + [hotels]


def test_a_flat_only_income_tax_is_offered_and_told_as_flat(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # docs/rules.md, "House-rule options": income_tax "flat" charges the flat 200 only.
    game = new_game(server, "classic", ["Ann", "Bob"], options={"income_tax": "flat"})
    page = new_page(browser, request)
    open_table(page, server, game)

    more(page, "p1", "Tax")
    expect(page.get_by_test_id("tax-percent")).to_have_count(0)
    page.get_by_test_id("tax-flat").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,300")  # 1500 - 200
    toast = page.locator("#toasts .toast").last
    expect(toast).to_contain_text("flat $200")
    expect(toast).not_to_contain_text("%")


@pytest.mark.parametrize(
    ("locale", "hint"),
    [
        ("en-US", "At most one house a turn."),
        ("ru-RU", "Не больше одного дома за ход."),
        ("pl-PL", "Najwyżej jeden dom na turę."),
    ],
)
def test_the_house_rules_are_explained_in_the_readers_words(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str, hint: str
) -> None:
    page = new_page(browser, request, locale=locale)
    goto(page, server.base + "/#/new")

    options = page.locator("form")
    expect(options).to_contain_text(hint)
    # The rule set's own descriptions are for developers ("the rule set's luxury_tax
    # parameter", "(house rule)"): never on the page (issue 22, item 9).
    expect(options).not_to_contain_text("parameter")
    expect(options).not_to_contain_text("(house rule)")
