"""The console live and resilient (js/live.js, offline.js, outbox.js, sw.js), in Debian's
chromium against a real `tablebank serve`: both pages follow the game's event stream, say when
the server cannot be reached, and come back by themselves; the banker's moves made meanwhile
wait in an outbox and are recorded once; a reload without a server still opens the page.

Figures: docs/rules.md, every classic player starts with 1,500 and the Bank pays 200 at GO.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_steps import card, new_game, new_page, open_table, record, transaction_keys
from server import Server, serving
from stores import Store

pytestmark = pytest.mark.e2e

# A restart: the page's next attempt comes at most 10 s after the server is back (the
# session's browser waits 25 s for what a test looks for: tests/e2e/conftest.py).
WAIT_MS = 25_000
LIVE_WITHIN = 0.5  # seconds from the POST's answer to the figure on the player's page

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


@pytest.fixture
def restartable(tmp_path: Path, local_store: Store) -> Iterator[Server]:
    """A server of this test's own, which the test stops and starts again (same port, same
    database)."""
    with serving(local_store, tmp_path) as running:
        yield running


def following(page: Page) -> None:
    """Wait until the page's event stream is open."""
    expect(page.locator("#net")).to_have_attribute("data-stream", "live")


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


def salaries(server: Server, game: dict) -> int:
    answer = server.call(
        "GET", f"/api/v1/games/{game['id']}/transactions?type=salary", None, game["banker_token"]
    )
    assert answer.status == 200, answer
    return len(answer.body["items"])


def test_players_page_shows_a_bankers_payment_within_half_a_second(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, worker=True)
    game = new_game(server, "classic", ["Ann", "Bob"])
    page.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    cash = page.get_by_test_id("my-cash")
    expect(cash).to_have_text("$1,500")
    following(page)

    record(server, game, {"type": "payment", "from": "bank", "to": "p2", "amount": 200})
    answered = time.monotonic()
    deadline = answered + 5
    while cash.text_content() != "$1,700":  # 1,500 + 200
        assert time.monotonic() < deadline, "the payment never reached the player's page"
    latency = time.monotonic() - answered

    print(f"live update on the player's page: {latency * 1000:.0f} ms after the POST's answer")
    assert latency < LIVE_WITHIN


def test_a_server_without_the_stream_is_polled_instead(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, worker=True)
    page.route("**/api/v1/games/*/events", lambda route: route.fulfill(status=404))  # an old server
    game = new_game(server, "classic", ["Ann", "Bob"])
    page.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,500")

    record(server, game, {"type": "payment", "from": "bank", "to": "p2", "amount": 200})

    expect(page.get_by_test_id("my-cash")).to_have_text("$1,700")  # at the next poll
    expect(page.get_by_test_id("net-banner")).to_have_count(0)


def test_a_stream_refused_for_too_many_streams_comes_back_after_its_retry_after(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # API.md v1.2: a token's 11th stream gets 429 too_many_streams with Retry-After. The page
    # waits that long (here 3 s), not its usual 0.5, 1, 2 s back-off, then follows live.
    page = new_page(browser, request, worker=True)
    attempts: list[float] = []

    def refuse(route) -> None:  # type: ignore[no-untyped-def]
        attempts.append(time.monotonic())
        if len(attempts) == 1:
            route.fulfill(
                status=429,
                headers={"Retry-After": "3", "Content-Type": "application/problem+json"},
                body='{"code": "too_many_streams", "status": 429}',
            )
        else:
            route.continue_()

    page.route("**/api/v1/games/*/events", refuse)
    game = new_game(server, "classic", ["Ann", "Bob"])
    page.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,500")
    following(page)

    assert len(attempts) == 2
    assert attempts[1] - attempts[0] >= 3.0  # the server's Retry-After, not 0.5 s
    record(server, game, {"type": "payment", "from": "bank", "to": "p2", "amount": 200})
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,700")  # 1,500 + 200, live


def test_banker_sees_a_payment_a_player_makes_from_their_phone(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, worker=True)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    following(page)

    paid = server.call(
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "payment", "from": "p2", "to": "p1", "amount": 25},
        game["tokens"]["p2"],
    )
    assert paid.status == 201, paid

    expect(page.locator(".toast", has_text="Bob paid Ann $25")).to_be_visible()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,525")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,475")


def test_a_restart_under_an_open_page_shows_the_banner_and_sends_the_outbox_once(
    browser: Browser, restartable: Server, request: pytest.FixtureRequest
) -> None:
    server = restartable
    page = new_page(browser, request, worker=True)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    following(page)
    page.evaluate("window.sameDocument = true")  # gone if anything reloads the page
    keys = transaction_keys(page)

    server.stop()
    banner = page.get_by_test_id("net-banner")
    expect(banner).to_be_visible()
    expect(page.locator("#net")).to_have_attribute("role", "status")

    page.get_by_test_id("salary-p1").click()
    waiting = page.get_by_test_id("outbox-move")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Salary: Ann")
    expect(banner).to_contain_text("Waiting to be sent: 1.")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")  # not recorded yet

    server.start()
    # Recorded while the page was still away: it catches up from its last event.
    record(server, game, {"type": "payment", "from": "bank", "to": "p2", "amount": 100})

    expect(page.get_by_test_id("outbox")).to_have_count(0)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")  # 1,500 + 200
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,600")  # 1,500 + 100
    expect(banner).to_have_count(0)
    assert page.evaluate("window.sameDocument") is True
    assert salaries(server, game) == 1
    assert len(keys) > 1 and len(set(keys)) == 1, keys  # every try under the first one's key


def test_a_reload_without_a_server_opens_the_page_and_its_outbox(
    browser: Browser, restartable: Server, request: pytest.FixtureRequest
) -> None:
    server = restartable
    page = new_page(browser, request, worker=True)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    following(page)
    controlled(page)

    server.stop()
    expect(page.get_by_test_id("net-banner")).to_be_visible()
    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("outbox-move")).to_have_count(1)

    asked: list[str] = []
    game_url = f"/api/v1/games/{game['id']}"
    page.on("request", lambda req: asked.append(req.url) if req.url.endswith(game_url) else None)
    page.reload()  # no server: the service worker opens the page
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")  # the table as last seen
    # Shown after one try, not after the retries a call without a fallback gets (issue 22).
    assert len(asked) == 1, asked
    expect(page.get_by_test_id("outbox-move")).to_contain_text("Salary: Ann")
    expect(page.get_by_test_id("net-banner")).to_contain_text("Waiting to be sent: 1.")

    server.start()
    expect(page.get_by_test_id("outbox")).to_have_count(0)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    expect(page.get_by_test_id("net-banner")).to_have_count(0)
    assert salaries(server, game) == 1


def test_a_waiting_move_refused_when_it_is_sent_is_shown_against_it(
    browser: Browser, restartable: Server, request: pytest.FixtureRequest
) -> None:
    server = restartable
    page = new_page(browser, request, worker=True)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    following(page)

    server.stop()
    expect(page.get_by_test_id("net-banner")).to_be_visible()
    card(page, "p1").get_by_role("button", name="Pay").click()
    page.locator("dialog select[name=to]").select_option("p2")
    page.locator("dialog input[name=amount]").fill("5000")
    page.get_by_test_id("record-payment").click()
    page.get_by_test_id("salary-p2").click()
    moves = page.get_by_test_id("outbox-move")
    expect(moves).to_have_count(2)
    expect(moves.nth(0)).to_contain_text("Payment: Ann → Bob, $5,000")
    expect(moves.nth(1)).to_contain_text("Salary: Bob")

    server.start()
    refused = page.locator("[data-testid=outbox-move][data-state=refused]")
    expect(refused.get_by_test_id("shortfall")).to_have_text("Ann is short by $3,500.")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,700")  # the salary went after it
    expect(moves).to_have_count(1)
    refused.get_by_role("button", name="Dismiss").click()
    expect(page.get_by_test_id("outbox")).to_have_count(0)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")  # nothing of it recorded
