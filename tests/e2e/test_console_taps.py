"""A tap records once: one intent, one Idempotency-Key (api/static/console/js/intents.js).

A family paid the GO salary twice: two taps 40-300 ms apart, the second on the button redrawn
after the first answer, which carried a new key. These tests tap as a person does (the mouse at
the same spot twice, whatever the page redrew in between), in Debian's chromium against a real
`tablebank serve`, and count what the server recorded. Figures: docs/rules.md "Passing GO": the
Bank pays 200 (docs/rules.md, section 1); every classic player starts with 1,500.
"""

from __future__ import annotations

import contextlib

import pytest
from console_steps import card, logged, new_game, new_page, open_table, transaction_keys
from server import Server

pytestmark = pytest.mark.e2e


with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


def tap_twice(page: Page, testid: str, gap_ms: int) -> None:
    """Two taps at the same spot, `gap_ms` apart, as a finger does."""
    box = page.get_by_test_id(testid).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(gap_ms)  # the gap between the taps is the stimulus, not a wait
    page.mouse.click(x, y)


@pytest.mark.parametrize("gap_ms", [50, 150, 400])
def test_double_tap_on_go_records_one_salary(
    browser: Browser, server: Server, request: pytest.FixtureRequest, gap_ms: int
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    keys = transaction_keys(page)

    tap_twice(page, "salary-p1", gap_ms)

    # 1,500 + one salary of 200.
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    page.evaluate("() => new Promise((r) => setTimeout(r, 0))")  # let a second send show up
    assert len(set(keys)) == 1, keys
    assert len(logged(server, game, "salary")) == 1


def test_second_tap_after_the_answer_shows_done_and_can_record_again(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)

    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    page.get_by_test_id("salary-p1").click()  # the redrawn button, moments later

    done = page.locator(".toast", has_text="Done: recorded as #")
    expect(done).to_be_visible()
    assert len(logged(server, game, "salary")) == 1

    # A second salary that is meant (passing GO twice in one turn) is one more tap away.
    done.get_by_role("button", name="Record again").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,900")
    assert len(logged(server, game, "salary")) == 2


def test_go_tapped_again_after_its_undo_pays_the_salary(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # A family's pass: GO, Undo, GO within seconds said "Done: recorded as #4" and paid nothing.
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)

    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    page.locator(".toast").get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")
    page.get_by_test_id("salary-p1").click()

    # 1,500, the salary voided, then a salary of 200 of its own.
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    expect(page.locator(".toast", has_text="Done: recorded as #")).to_have_count(0)
    salaries = logged(server, game, "salary")
    assert len(salaries) == 2
    assert [s["voided_by"] is not None for s in salaries] == [True, False]


def test_same_payment_again_from_a_dialog_asks_first(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)

    def pay_bob_50() -> None:
        card(page, "p1").get_by_role("button", name="Pay").click()
        page.locator("dialog select[name=to]").select_option("p2")
        page.locator("dialog input[name=amount]").fill("50")
        page.get_by_test_id("record-payment").click()

    pay_bob_50()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,450")
    pay_bob_50()
    expect(page.locator("dialog[open]", has_text="Record it again?")).to_be_visible()
    page.get_by_test_id("again-no").click()
    assert len(logged(server, game, "payment")) == 1

    page.get_by_test_id("record-payment").click()
    page.get_by_test_id("again-yes").click()
    # 1,500 - 50 - 50, and Bob 1,500 + 100.
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,400")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,600")
    assert len(logged(server, game, "payment")) == 2


def test_key_of_an_unanswered_tap_survives_a_reload(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    game = new_game(server, "classic", ["Ann", "Bob"])
    open_table(page, server, game)
    keys = transaction_keys(page)

    def recorded_but_never_answered(route) -> None:
        route.fetch()  # the server records it...
        route.abort("connectionreset")  # ...and every answer is lost

    page.route("**/api/v1/games/*/transactions", recorded_but_never_answered)
    page.get_by_test_id("salary-p1").click()
    expect(page.locator("dialog[open]")).to_be_visible()  # the console says it failed
    page.unroute("**/api/v1/games/*/transactions")
    assert len(logged(server, game, "salary")) == 1

    page.reload()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    page.get_by_test_id("salary-p1").click()  # the banker, unsure, taps again

    expect(page.locator(".toast", has_text="already recorded")).to_be_visible()
    assert len(set(keys)) == 1, keys
    assert len(logged(server, game, "salary")) == 1
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
