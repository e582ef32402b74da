"""A refusal is shown in the reader's language, built from its code and params (API.md v1.1,
"Refusals a client can translate"), never from the server's English ``detail``: players by
name, deeds by their names on the board, amounts as money.

Needs what tests/e2e/test_console.py needs (Playwright for Python, /usr/bin/chromium); without
them these tests skip, unless TABLEBANK_REQUIRE_ALL=1 makes that a failure. Figures are those
of docs/rules.md: starting cash 1500, Boardwalk 400.
"""

from __future__ import annotations

import contextlib

import pytest
from console_steps import card, new_game, new_page, open_table, record
from server import Server

pytestmark = pytest.mark.e2e


# Without Playwright, browser.chromium() skips (or fails under TABLEBANK_REQUIRE_ALL=1).
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Locator, expect


def test_a_payment_beyond_the_cash_is_refused_in_russian(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, locale="ru-RU")
    game = new_game(server, "classic", ["Аня", "Борис"])
    record(server, game, {"type": "buy", "player": "p2", "property": "boardwalk"})  # 1100 left
    open_table(page, server, game)

    card(page, "p2").get_by_role("button", name="Платёж").click()
    page.locator("dialog select[name=to]").select_option("p1")
    page.locator("dialog input[name=amount]").fill("5000")
    # The server's dry run says so before the tap; the refused tap, the same, is not said twice.
    said_in_russian(page.get_by_test_id("quote").locator(".problem"))
    page.get_by_test_id("record-payment").click()
    expect(page.locator("dialog[open] .problem")).to_have_count(1)
    said_in_russian(page.locator("dialog[open] .problem"))


def said_in_russian(problem: Locator) -> None:
    expect(problem.locator(".problem-title")).to_have_text("Недостаточно наличных")
    expect(problem.locator(".problem-detail")).to_contain_text("Борис: нужно заплатить 5")
    expect(problem.locator(".problem-detail")).to_contain_text("на руках 1")
    expect(problem).not_to_contain_text("must pay")  # the server's English detail
    expect(problem).not_to_contain_text("p2")  # the id, not the name


def test_rent_on_a_mortgaged_deed_is_refused_in_polish_naming_the_deed(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, locale="pl-PL")
    game = new_game(server, "classic", ["Ania", "Bartek"])
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    record(server, game, {"type": "mortgage", "property": "boardwalk"})
    open_table(page, server, game)

    card(page, "p2").get_by_role("button", name="Czynsz").click()
    tile = page.locator("dialog button.tile[data-deed=boardwalk]")
    name = tile.locator(".tile-name").inner_text()
    tile.click()
    page.get_by_test_id("record-rent").click()

    detail = page.locator("dialog .problem .problem-detail").first
    expect(detail).to_have_text(f"Nieruchomość „{name}” jest zastawiona: bez czynszu.")
