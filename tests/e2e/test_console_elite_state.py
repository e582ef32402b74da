"""A Millionaire Elite table draws from the game's state alone, in Debian's chromium headless
against a real `tablebank serve`: moves recorded by another device arrive on the game's stream
and the banker's table and the player's page show the shares, the share price, the policies and
the entered prices without asking for the transaction log (API.md v1.2; issue 21: "no page
fetches the whole log to draw the table").

Figures: docs/rules.md, Millionaire Elite: 2000 each; "Shares and the exchange" (5 shares cost
500, up 3 points takes the price from 100 to 130), "Insurance policies" (green 100), "Plots and
buying" (b1-1 entered at 200), "Mortgages" (mortgaging b1-1 entered at 200 pays 100).
"""

# The rule set's currency is Cyrillic ("фанты") and the figures use a multiplication sign:
# RUF001/RUF003 would take them for look-alikes.
# ruff: noqa: RUF001, RUF003

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit

import pytest
from console_steps import card, more, new_game, new_page, open_table, record, settled
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Locator, Page, Request, expect

UNIT = "\u00a0фанты"  # the rule set's currency, after a no-break space


def log_reads(page: Page) -> list[str]:
    """Every read of a game's transactions the page asks for from now on (a dry run's POST is
    a quote, not a read)."""
    reads: list[str] = []

    def seen(req: Request) -> None:
        if req.method == "GET" and "/transactions" in urlsplit(req.url).path:
            reads.append(req.url)

    page.on("request", seen)
    return reads


def following(page: Page) -> None:
    """Wait until the page's event stream is open."""
    expect(page.locator("#net")).to_have_attribute("data-stream", "live")


# Ann's moves, recorded by another device, and her cash and the share price after each:
# 5 shares at 100 cost 500; the exchange up 3 points takes the price from 100 to 130; green
# costs 100; b1-1 entered at 200.
MOVES = [
    ({"type": "shares", "player": "p1", "action": "buy", "count": 5}, 1500, 100),
    ({"type": "share_price", "direction": "up", "points": 3}, 1500, 130),
    ({"type": "insurance", "player": "p1", "action": "buy", "policy": "green"}, 1400, 130),
    ({"type": "buy", "player": "p1", "property": "b1-1", "price": 200}, 1200, 130),
]


def moves_by_another_device(server: Server, game: dict, cash: Locator, facts: Locator) -> None:
    """Each move recorded through the API, then seen on the page before the next one."""
    for body, after, price in MOVES:
        record(server, game, body)
        expect(cash).to_have_text(f"{after:,}{UNIT}")
        expect(facts).to_contain_text(f"Share price: {price}{UNIT}")


def test_the_elite_table_shows_moves_from_another_device_without_reading_the_log(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    reads = log_reads(page)
    game = new_game(server, "millionaire-elite", ["Ann", "Bob"])
    open_table(page, server, game)
    following(page)
    expect(page.get_by_test_id("cash-p1")).to_have_text(f"2,000{UNIT}")
    expect(card(page, "p1")).to_contain_text("Shares: 0")

    moves_by_another_device(
        server, game, page.get_by_test_id("cash-p1"), page.locator(".game-head .facts")
    )

    expect(card(page, "p1")).to_contain_text("Shares: 5 · Policies: green")
    # 1200 + 5 × 130 + 200: net worth counts the shares at the price now and b1-1 as entered.
    expect(card(page, "p1").locator(".worth")).to_have_text(f"net worth 2,050{UNIT}")
    settled(page)
    assert reads == []

    # The entered price is the state's: the mortgage is offered at half of it, with no price
    # to enter again.
    dialog = more(page, "p1", "Mortgage")
    expect(dialog.get_by_role("button", name=f"Mortgage +100{UNIT}")).to_be_visible()
    expect(dialog.locator("input[name=price]")).to_have_count(0)
    assert reads == []


def test_the_elite_players_page_shows_moves_without_reading_the_whole_log(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    reads = log_reads(page)
    game = new_game(server, "millionaire-elite", ["Ann", "Bob"])
    page.goto(f"{server.base}/play/{game['id']}#p=p1&token={game['tokens']['p1']}")
    following(page)
    expect(page.get_by_test_id("my-cash")).to_have_text(f"2,000{UNIT}")

    moves_by_another_device(server, game, page.get_by_test_id("my-cash"), page.locator(".card.me"))

    expect(page.locator(".card.me")).to_contain_text(f"Shares: 5 · Share price: 130{UNIT}")
    settled(page)
    # The page's disputes ask for the player's own transactions (?account=p1), never all.
    assert [url for url in reads if "account=p1" not in url] == []


def test_what_a_player_could_raise_counts_her_shares_at_the_price_now(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # docs/rules.md, "Shares and the exchange": shares count in what a debtor can raise at the
    # current price. Ann's 5 shares at 130 raise 650 beside her 1500 cash: 2150 in all, and
    # the breakdown's rows add up to what it says she could raise (the shares' row was missing
    # while the server's answer left them out).
    page = new_page(browser, request)
    game = new_game(server, "millionaire-elite", ["Ann", "Bob"])
    for body, _, _ in MOVES[:2]:
        record(server, game, body)
    open_table(page, server, game)

    breakdown = more(page, "p1", "What can Ann raise?").locator("table.liquidation")

    rows = breakdown.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_text(f"Cash1,500{UNIT}")
    expect(rows.nth(1)).to_have_text(f"Sell shares650{UNIT}")
    expect(breakdown.locator("tfoot tr").nth(0)).to_have_text(f"Could raise650{UNIT}")
    expect(breakdown.locator("tfoot tr").nth(1)).to_have_text(f"Total2,150{UNIT}")
