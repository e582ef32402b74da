"""A player's page as families met it in v1.2 (issue 29, item 10), at a phone's width: the
IOUs still open and the Millionaire Elite policies held shown beside the cash, as the
banker's table shows them (a net worth lower by an IOU is no riddle); and a reload without a
server shows the table as this phone last saw it, said to be so, as the banker's page does,
instead of only "Waiting for the server…".
"""

# The players' names and the expected texts are Cyrillic, which RUF001 would take for
# look-alikes of Latin letters.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_steps import new_game, new_page, record, settled
from layout import HEIGHT
from server import Server, serving
from stores import Store

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

WAIT_MS = 25_000


@pytest.fixture
def restartable(tmp_path: Path, local_store: Store) -> Iterator[Server]:
    """A server of this test's own, which the test stops and starts again."""
    with serving(local_store, tmp_path) as running:
        yield running


def phone(browser: Browser, request: pytest.FixtureRequest, locale: str) -> Page:
    page = new_page(browser, request, locale=locale, worker=True)
    page.set_viewport_size({"width": 360, "height": HEIGHT[360]})
    return page


def players_page(page: Page, server: Server, game: dict, player: str) -> None:
    page.goto(f"{server.base}/play/{game['id']}#p={player}&token={game['tokens'][player]}")
    expect(page.get_by_test_id("my-cash")).to_be_visible()


def test_a_players_page_shows_the_ious_and_the_policies_the_net_worth_counts(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = phone(browser, request, "pl-PL")
    game = new_game(server, "millionaire-elite", ["Ola", "Kuba"])
    # Kuba owes Ola 100 (an IOU: no cash moves); Kuba holds the green policy (100).
    record(server, game, {"type": "iou", "debtor": "p2", "creditor": "p1", "amount": 100})
    record(server, game, {"type": "insurance", "player": "p2", "action": "buy", "policy": "red"})
    record(server, game, {"type": "insurance", "player": "p2", "action": "buy", "policy": "green"})
    players_page(page, server, game, "p2")
    settled(page)
    # docs/rules.md: 2,000 each at the start, the policies 100 and 500 paid.
    expect(page.get_by_test_id("my-cash")).to_have_text("1400\u00a0fantów")
    expect(page.get_by_test_id("my-ious")).to_have_text("dług wobec gracza Ola: 100\u00a0fantów")
    # In the box's order: green, then red.
    expect(page.get_by_test_id("my-policies")).to_have_text("Polisy: zielona, czerwona")

    players_page(page, server, game, "p1")
    expect(page.get_by_test_id("my-ious")).to_have_text("dług gracza Kuba: 100\u00a0fantów")
    expect(page.get_by_test_id("my-policies")).to_have_count(0)


def controlled(page: Page) -> None:
    """Wait until the service worker has kept the console's files and controls the page."""
    page.evaluate(
        """ms => new Promise((resolve, reject) => {
            const sw = navigator.serviceWorker;
            if (sw.controller) resolve(true);
            sw.addEventListener('controllerchange', () => resolve(true));
            setTimeout(() => reject(new Error('no service worker controls the page')), ms);
        })""",
        WAIT_MS,
    )


def test_a_players_page_reloaded_without_a_server_shows_the_table_as_last_seen(
    browser: Browser, restartable: Server, request: pytest.FixtureRequest
) -> None:
    server = restartable
    page = phone(browser, request, "ru-RU")
    game = new_game(server, "classic", ["Анна", "Вера"])
    record(server, game, {"type": "payment", "from": "p1", "to": "p2", "amount": 120})
    players_page(page, server, game, "p2")
    expect(page.locator("#net")).to_have_attribute("data-stream", "live")
    controlled(page)
    # 1 500 + 120 (docs/rules.md: 1,500 each at the start).
    expect(page.get_by_test_id("my-cash")).to_have_text("1\u00a0620\u00a0$")

    server.stop()
    page.reload()  # no server: the service worker opens the page
    expect(page.get_by_test_id("my-cash")).to_have_text("1\u00a0620\u00a0$")
    expect(page.locator("main")).not_to_contain_text("Ждём сервер")
    banner = page.get_by_test_id("net-banner")
    expect(banner).to_contain_text("Стол таким, каким он был в последний раз, на №3.")
    expect(page.locator("main")).to_contain_text("Анна")

    server.start()
    record(server, game, {"type": "payment", "from": "p1", "to": "p2", "amount": 30})
    expect(page.get_by_test_id("my-cash")).to_have_text("1\u00a0650\u00a0$")
    expect(banner).to_have_count(0)
