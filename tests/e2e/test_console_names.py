"""The console shows each deed under its name in the page's language (API.md v1.1, "Names in
the players' languages"): the classic board's Moscow names in Russian, its Warsaw names in
Polish, the US names in English, and the new names at once when the language is switched.
A currency given by language is shown in the page's language.
"""

from __future__ import annotations

import contextlib

import pytest
from console_steps import card, new_game, new_page, open_table, record
from server import Server

pytestmark = pytest.mark.e2e


with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, expect

# A classic box with its money named in each language (the names are classic's).
MONEY_BY_LANGUAGE = {
    "name": "three-currencies",
    "extends": "classic",
    "currency": {"en": "bucks", "ru": "рублей", "pl": "złotych"},
}


@pytest.mark.parametrize(
    ("locale", "boardwalk", "park_place", "buy"),
    [
        ("ru-RU", "улица Арбат", "улица Малая Бронная", "Покупка"),
        ("pl-PL", "Aleje Ujazdowskie", "ul. Belwederska", "Kupno"),
        ("en-US", "Boardwalk", "Park Place", "Buy"),
    ],
)
def test_a_classic_deed_is_shown_under_its_name_in_the_page_s_language(
    browser: Browser,
    server: Server,
    request: pytest.FixtureRequest,
    locale: str,
    boardwalk: str,
    park_place: str,
    buy: str,
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    page = new_page(browser, request, locale=locale)

    open_table(page, server, game)

    expect(card(page, "p1").locator(".chip-name")).to_have_text([boardwalk])
    card(page, "p2").get_by_role("button", name=buy, exact=True).click()
    tile = page.locator("dialog[open] button.tile[data-deed=park-place] .tile-name")
    expect(tile).to_have_text(park_place)


def test_the_names_change_with_the_language_switch(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    record(server, game, {"type": "buy", "player": "p1", "property": "boardwalk"})
    page = new_page(browser, request, locale="en-US")
    open_table(page, server, game)
    chip = card(page, "p1").locator(".chip-name")
    expect(chip).to_have_text(["Boardwalk"])

    page.get_by_label("Language").select_option("ru")
    expect(chip).to_have_text(["улица Арбат"])
    page.get_by_label("Язык").select_option("pl")
    expect(chip).to_have_text(["Aleje Ujazdowskie"])
    page.get_by_label("Język").select_option("en")
    expect(chip).to_have_text(["Boardwalk"])


@pytest.mark.parametrize(
    ("locale", "label"),
    [("ru-RU", "рублей"), ("pl-PL", "złotych"), ("en-US", "bucks")],
)
def test_a_currency_by_language_is_shown_in_the_page_s_language(
    browser: Browser, server: Server, request: pytest.FixtureRequest, locale: str, label: str
) -> None:
    game = new_game(server, "three-currencies", ["Ann", "Bob"], ruleset_document=MONEY_BY_LANGUAGE)
    page = new_page(browser, request, locale=locale)

    open_table(page, server, game)

    # Classic's starting cash, 1500, with this language's label after it.
    cash = page.get_by_test_id("cash-p1")
    expect(cash).to_contain_text(label)
    assert cash.inner_text().replace("\u202f", "\u00a0").endswith(f"\u00a0{label}")
    assert "".join(c for c in cash.inner_text() if c.isdigit()) == "1500"
