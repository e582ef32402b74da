"""A new link from Links & QR (API.md v1.3, "Administration"; docs/console.md, "The players'
phones"): the banker replaces a player's link on a phone's screen (360 px), the new link and
its QR code show at once, and the player's page open on the old link says, on its next
request, that its link was replaced; the banker's own link too. Screenshots at 360 and 1280 px
in English, Russian and Polish are saved where ``TABLEBANK_SCREENSHOTS`` says (else a
temporary folder)."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pytest
from console_steps import PHONE, hold, new_game, new_page, words
from server import Server, Servers
from stores import Store

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 800}
WAIT_MS = 5000  # the old page hears of it on its next request: its stream ends within 2 s

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def server(servers: Servers, local_store: Store) -> Server:
    return servers.get(local_store)


def player_url(server: Server, game: dict, player: str, token: str) -> str:
    return f"{server.base}/play/{game['id']}#p={player}&token={token}"


def open_links(page: Page, server: Server, game: dict) -> None:
    hold(page, server, game)
    page.goto(f"{server.base}/#/g/{game['id']}/players")
    expect(page.locator(".link-card img.qr").first).to_have_attribute("src", re.compile("^blob:"))


def kept(page: Page, game: dict) -> dict:
    return page.evaluate(
        "id => JSON.parse(localStorage.getItem('tablebank.games'))[id]", game["id"]
    )


def new_link(page: Page, button: str, player: str | None = None) -> None:
    """Tap "New link" (of ``player``'s row, or the banker's), and confirm."""
    scope = page.locator(f".link-card[data-player={player}]") if player else page
    scope.get_by_test_id(button).click()
    page.get_by_test_id("new-link-confirm").click()
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_a_new_link_for_a_player_ends_the_old_one_on_the_players_page(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob", "Cy"])
    old = game["tokens"]["p2"]
    phone = new_page(browser, request)
    phone.goto(player_url(server, game, "p2", old))
    expect(phone.get_by_text("Bob").first).to_be_visible()
    banker = new_page(browser, request)
    open_links(banker, server, game)
    row = banker.locator(".link-card[data-player=p2]")

    new_link(banker, "new-link", "p2")

    token = kept(banker, game)["tokens"]["p2"]
    assert token != old
    expect(row.locator("input")).to_have_value(player_url(server, game, "p2", token))
    expect(row.locator("img.qr")).to_have_attribute("src", re.compile("^blob:"))
    assert kept(banker, game)["tokens"]["p1"] == game["tokens"]["p1"]
    # The old page, on its next request (its stream, ended by the server, comes back): its
    # link was replaced, in its words, not a generic error.
    replaced = phone.get_by_test_id("link-replaced")
    expect(replaced).to_be_visible(timeout=WAIT_MS)
    expect(replaced.locator("h1")).to_have_text(words(phone, "link_replaced_title"))
    assert server.call("GET", f"/api/v1/games/{game['id']}", token=old).status == 401
    # The new link opens the page again.
    phone.goto(player_url(server, game, "p2", token))
    expect(phone.get_by_test_id("link-replaced")).to_have_count(0)
    expect(phone.get_by_text("Bob").first).to_be_visible()


def test_a_new_banker_link_keeps_this_device_working_with_it(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    banker = new_page(browser, request)
    open_links(banker, server, game)
    banker.get_by_text(words(banker, "banker_link"), exact=True).click()  # its details

    new_link(banker, "new-banker-link")

    token = kept(banker, game)["banker"]
    assert token != game["banker_token"]
    path = f"/api/v1/games/{game['id']}"
    assert server.call("GET", path, token=game["banker_token"]).status == 401
    assert server.call("GET", path, token=token).status == 200
    expect(banker.locator("details input")).to_have_value(
        re.compile(f"/#/open/{game['id']}/{token}")
    )
    # This device goes on recording with the new token.
    banker.goto(f"{server.base}/#/g/{game['id']}")
    expect(banker.get_by_test_id("cash-p1")).to_be_visible()


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
def test_screens_of_a_new_link_at_phone_and_laptop_sizes(
    browser: Browser, server: Server, request: pytest.FixtureRequest, tmp_path: Path, locale: str
) -> None:
    out = Path(os.environ.get("TABLEBANK_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    lang = locale[:2]
    for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        game = new_game(server, "classic", ["Ann", "Bob", "Cy"])
        banker = new_page(browser, request, locale=locale)
        banker.set_viewport_size(viewport)
        phone = new_page(browser, request, locale=locale)
        phone.set_viewport_size(viewport)
        phone.goto(player_url(server, game, "p2", game["tokens"]["p2"]))
        expect(phone.get_by_text("Bob").first).to_be_visible()
        open_links(banker, server, game)
        banker.locator(".link-card[data-player=p2]").get_by_test_id("new-link").click()
        dialog = banker.locator("dialog[open]")
        expect(dialog).to_contain_text(words(banker, "new_link_title", name="Bob"))
        banker.screenshot(path=out / f"new-link-ask-{lang}-{size}.png")
        banker.get_by_test_id("new-link-confirm").click()
        expect(dialog).to_have_count(0)
        for qr in banker.locator(".link-card img.qr").all():
            expect(qr).to_have_attribute("src", re.compile("^blob:"))
        # Scrolled to in one go in the page: the cards are drawn again as the new link comes
        # (a locator's scroll met a card already replaced: "not attached to the DOM").
        banker.wait_for_function(
            "() => { const row = document.querySelector('.link-card[data-player=p2]');"
            " if (row) row.scrollIntoView({block: 'center'}); return !!row; }"
        )
        banker.wait_for_function(
            "() => [...document.querySelectorAll('.link-card img.qr')].every(i => i.complete)"
        )
        banker.screenshot(path=out / f"new-link-made-{lang}-{size}.png")
        expect(phone.get_by_test_id("link-replaced")).to_be_visible(timeout=WAIT_MS)
        phone.screenshot(path=out / f"link-replaced-{lang}-{size}.png")
        # Nothing wider than the screen.
        for page in (banker, phone):
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_another_device_on_the_old_banker_link_says_it_was_replaced(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    other = new_page(browser, request)
    hold(other, server, game)
    other.goto(f"{server.base}/#/g/{game['id']}")
    expect(other.get_by_test_id("cash-p1")).to_be_visible()
    banker = new_page(browser, request)
    open_links(banker, server, game)
    banker.get_by_text(words(banker, "banker_link"), exact=True).click()

    new_link(banker, "new-banker-link")

    replaced = other.get_by_test_id("banker-link-replaced")
    expect(replaced).to_be_visible(timeout=WAIT_MS)
    expect(replaced.locator("h1")).to_have_text(words(other, "link_replaced_title"))
    # This device, with the new token, is not told so: it goes on.
    banker.goto(f"{server.base}/#/g/{game['id']}")
    expect(banker.get_by_test_id("cash-p1")).to_be_visible()
    expect(banker.get_by_test_id("banker-link-replaced")).to_have_count(0)
