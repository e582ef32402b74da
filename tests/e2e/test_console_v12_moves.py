"""Moves families met in v1.2 (issue 29), at a phone's width in Russian, where they were seen:
the trade's "lift the mortgage" box says what ticking it does, ticked or not, and a trade
started from the table is between two players chosen once (two choices, not four) (item 11);
in Polish, a Millionaire Elite bankruptcy offers no auction of the plots it puts back on the
board unowned (item 8).
"""

# The players' names and the expected texts are Cyrillic, which RUF001 would take for
# look-alikes of Latin letters.
# ruff: noqa: RUF001, RUF003

from __future__ import annotations

import contextlib

import pytest
from console_steps import card, logged, new_game, new_page, open_table, record, settled, words
from layout import HEIGHT
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


def phone(browser: Browser, request: pytest.FixtureRequest, locale: str) -> Page:
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": 360, "height": HEIGHT[360]})
    return page


def test_a_table_trade_is_between_two_players_chosen_once_and_the_lift_box_keeps_its_word(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = phone(browser, request, "ru-RU")
    game = new_game(server, "classic", ["Анна", "Вера", "Борис"])
    record(server, game, {"type": "buy", "player": "p2", "property": "reading-railroad"})
    record(server, game, {"type": "mortgage", "property": "reading-railroad"})
    open_table(page, server, game)
    settled(page)

    # The table's Trade: Вера and Борис chosen once, and every leg follows.
    page.locator(".table-actions button", has_text=words(page, "a_trade")).click()
    dialog = page.locator("dialog[open]")
    dialog.locator("select[name=party_a]").select_option("p2")
    dialog.locator("select[name=party_b]").select_option("p3")
    legs = dialog.locator("fieldset.leg")
    expect(legs.nth(0).locator("select[name=from]")).to_have_value("p2")
    expect(legs.nth(0).locator("select[name=to]")).to_have_value("p3")
    expect(legs.nth(1).locator("select[name=from]")).to_have_value("p3")
    expect(legs.nth(1).locator("select[name=to]")).to_have_value("p2")
    legs.nth(0).locator("button[data-deed=reading-railroad]").click()
    legs.nth(1).locator("input[name=cash]").fill("100")

    # The mortgaged railroad Борис receives: its box says "lift the mortgage now", ticked or not.
    box = dialog.locator(".check", has=page.locator("input[type=checkbox]")).filter(
        has_text="Рижская"
    )
    label = box.locator("label")
    before = label.inner_text()
    assert words(page, "lift_now") in before
    box.locator("input").check()
    settled(page)
    assert label.inner_text() == before
    box.locator("input").uncheck()
    settled(page)
    assert label.inner_text() == before
    expect(dialog).to_contain_text(words(page, "lift_hint"))
    box.locator("input").check()
    settled(page)
    dialog.get_by_role("button", name=words(page, "record_trade")).click()
    expect(page.locator("dialog[open]")).to_have_count(0)

    (trade,) = logged(server, game, "trade")
    assert trade["request"]["legs"] == [
        {"from": "p2", "to": "p3", "properties": ["reading-railroad"]},
        {"from": "p3", "to": "p2", "cash": 100},
    ]
    assert trade["request"]["unmortgage"] == ["reading-railroad"]
    # docs/rules.md, "Trades": Борис pays Вера 100 and lifts the railroad at once, its mortgage
    # value and 10 % (100 + 10): 1,500 - 100 - 110 = 1,290; Вера 1,500 - 200 + 100 + 100.
    expect(page.get_by_test_id("cash-p3")).to_have_text("1\u00a0290\u00a0$")
    expect(page.get_by_test_id("cash-p2")).to_have_text("1\u00a0500\u00a0$")


def test_a_millionaire_elite_bankruptcy_offers_no_auction_of_the_plots_it_returns(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # Millionaire Elite in Polish on a phone, where it was seen (issue 29, item 8).
    page = phone(browser, request, "pl-PL")
    game = new_game(server, "millionaire-elite", ["Ola", "Kuba", "Ewa"])
    record(server, game, {"type": "buy", "player": "p2", "property": "b1-1", "price": 200})
    open_table(page, server, game)
    settled(page)

    # docs/rules.md, "Bankruptcy: the Bank pays the rest": his plots go back to the Bank,
    # unmortgaged and without buildings, for whoever lands on them next; no auction.
    card(page, "p2").locator(".quick.more").click()
    page.locator("dialog .sheet-btn", has_text=words(page, "a_bankruptcy")).first.click()
    dialog = page.locator("dialog[open]")
    dialog.locator("input[name=owed]").fill("5000")
    dialog.get_by_test_id("declare-bankruptcy").click()
    expect(page.get_by_test_id("cash-p2")).to_have_text("0\u00a0fantów")
    settled(page)
    (bankruptcy,) = logged(server, game, "bankruptcy")
    assert bankruptcy["basis"]["deeds_returned"] == ["b1-1"]
    assert page.get_by_test_id("auction-prompt").count() == 0
    assert page.locator("dialog[open]").count() == 0
