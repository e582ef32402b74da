"""The new-game screen's "Your own box" (API.md v1.3, "Players and boxes"): a built-in rule set
to start from, then its money figures, each field built from GET /api/v1/parameters with the
chosen rule set's values, sent as a ``ruleset_document`` that ``extends`` it; a figure the
server refuses is shown beside its field, in the page's language, and creates nothing.

Classic's figures are docs/rules.md's: each player starts with 1500, the salary is 200.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from console_steps import money, new_page, words
from server import Server

pytestmark = pytest.mark.e2e


with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


def _new_game_screen(page: Page, server: Server) -> None:
    page.goto(server.base + "/#/new")
    expect(page.get_by_test_id("create-game")).to_be_visible()
    inputs = page.locator(".player-inputs input")
    for n, name in enumerate(["Ann", "Bob", "Cy"]):
        inputs.nth(n).fill(name)
    page.get_by_label(words(page, "box_own"), exact=True).check()


def _posted_games(page: Page) -> list[int]:
    """The statuses of the game creations the page sends from now on."""
    statuses: list[int] = []
    page.on(
        "response",
        lambda r: (
            statuses.append(r.status)
            if r.request.method == "POST" and r.url.split("?")[0].endswith("/api/v1/games")
            else None
        ),
    )
    return statuses


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
def test_a_box_with_1000_starting_cash_and_100_salary_at_360_px(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str
) -> None:
    page = new_page(browser, request, locale=locale)  # 360 px wide
    _new_game_screen(page, server)
    cash = page.get_by_label(words(page, "pm_starting_cash"), exact=True)
    salary = page.get_by_label(words(page, "pm_salary"), exact=True)
    expect(cash).to_have_value("1500")  # classic's, as the rule set gives it
    expect(salary).to_have_value("200")

    cash.fill("1000")
    salary.fill("100")
    page.get_by_test_id("create-game").click()

    expect(page).to_have_url(re.compile(r"#/g/[0-9a-f-]{36}/players$"))
    game = re.search(r"#/g/([0-9a-f-]{36})/", page.url).group(1)  # type: ignore[union-attr]
    page.goto(f"{server.base}/#/g/{game}")
    for player in ("p1", "p2", "p3"):
        expect(page.get_by_test_id(f"cash-{player}")).to_have_text(money(page, 1000))
    # The box's salary: 1000 + 100.
    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1100))


def test_the_luxury_tax_is_asked_once_among_the_house_rules(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # A family's pass set 100 in the box's Luxury tax and saw 75 left in the house rules' one.
    page = new_page(browser, request)
    _new_game_screen(page, server)
    tax = page.get_by_label("Luxury tax", exact=True)
    expect(tax).to_have_count(1)
    expect(tax).to_have_value("75")  # classic's, docs/rules.md
    tax.fill("100")
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.split("?")[0].endswith("/api/v1/games")
    ) as sent:
        page.get_by_test_id("create-game").click()
    body = sent.value.post_data_json
    assert body["options"] == {"luxury_tax": 100}
    assert "luxury_tax" not in body["ruleset_document"]["parameters"]
    expect(page).to_have_url(re.compile(r"#/g/[0-9a-f-]{36}/players$"))


def test_a_box_counted_in_its_own_currency(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    _new_game_screen(page, server)
    currency = page.get_by_label("Currency (its name or symbol)", exact=True)
    expect(currency).to_have_value("$")  # classic's

    currency.fill("beans")
    page.get_by_test_id("create-game").click()

    expect(page).to_have_url(re.compile(r"#/g/[0-9a-f-]{36}/players$"))
    game = re.search(r"#/g/([0-9a-f-]{36})/", page.url).group(1)  # type: ignore[union-attr]
    page.goto(f"{server.base}/#/g/{game}")
    expect(page.get_by_test_id("cash-p1")).to_have_text("1,500 beans")  # classic's 1500


def test_a_currency_too_long_is_refused_beside_its_field(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request)
    _new_game_screen(page, server)
    posted = _posted_games(page)
    currency = page.get_by_label("Currency (its name or symbol)", exact=True)

    currency.fill("thousands of our own kitchen beans")  # 34 characters; the server takes 32
    page.get_by_test_id("create-game").click()

    beside = currency.locator("xpath=..").get_by_test_id("box-error-currency")
    expect(beside).to_have_text("Too long: at most 32 characters.")
    expect(page).to_have_url(re.compile(r"#/new$"))
    assert posted == [422]


@pytest.mark.parametrize(
    ("locale", "says"),
    [
        ("en-US", "Enter a whole number from 1 to"),
        ("ru-RU", "Введите целое число от 1 до"),
        ("pl-PL", "Wpisz liczbę całkowitą od 1 do"),
    ],
)
def test_a_refused_starting_cash_is_shown_beside_its_field_and_creates_nothing(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str, says: str
) -> None:
    page = new_page(browser, request, locale=locale)
    _new_game_screen(page, server)
    cash = page.get_by_label(words(page, "pm_starting_cash"), exact=True)
    expect(cash).to_have_value("1500")
    posted = _posted_games(page)

    cash.fill("0")
    page.get_by_test_id("create-game").click()

    beside = cash.locator("xpath=..").get_by_test_id("box-error-starting_cash")
    expect(beside).to_contain_text(says)
    expect(cash).to_have_attribute("aria-invalid", "true")
    # Only the starting cash was refused: the salary's field says nothing.
    salary = page.get_by_label(words(page, "pm_salary"), exact=True)
    expect(salary.locator("xpath=..").locator(".field-error")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"#/new$"))
    assert posted == [422]

    cash.fill("1000")
    page.get_by_test_id("create-game").click()
    expect(page).to_have_url(re.compile(r"#/g/[0-9a-f-]{36}/players$"))
    assert posted == [422, 201]
