"""The Links page puts an address the players' phones can reach in their links and QR codes.

The server binds loopback only and is told its network address with ``--public-url``, as
``tablebank serve --host 0.0.0.0`` tells it the address it found: a banker's browser at
127.0.0.1 then gets links to http://192.168.1.20:8000, which no test opens. The chromium here
resolves the name ``bank.test`` to 127.0.0.1 by itself (no DNS query), for a banker who opened
the console at a network name.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from console_steps import PHONE, hold, new_game, new_page
from server import Server, Servers
from stores import Store

pytestmark = pytest.mark.e2e

LAN_URL = "http://192.168.1.20:8000"
NAME = "bank.test"  # RFC 6761: never a real host
ADDRESS = "Address the players\u2019 phones use"

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def server(servers: Servers, local_store: Store) -> Server:
    """The session's server told its network address (as ``serve --host 0.0.0.0`` is)."""
    return servers.get(local_store, "--public-url", LAN_URL)


def open_links(page: Page, origin: str, game: dict, **kept: object) -> None:
    """The banker's device at ``origin`` holds the game (and what else ``kept`` says) and
    shows its Links page."""
    page.goto(origin + "/")
    held = {
        "id": game["id"],
        "name": game["name"],
        "ruleset": game["ruleset"],
        "banker": game["banker_token"],
        "tokens": game["tokens"],
        **kept,
    }
    page.evaluate("g => localStorage.setItem('tablebank.games', JSON.stringify({[g.id]: g}))", held)
    page.goto(f"{origin}/#/g/{game['id']}/players")
    expect(page.locator(".link-card img.qr").first).to_have_attribute("src", re.compile(r"^blob:"))


def link(page: Page, player: str) -> str:
    return page.locator(f".link-card[data-player={player}] input").input_value()


def player_link(origin: str, game: dict, player: str) -> str:
    return f"{origin}/play/{game['id']}#p={player}&token={game['tokens'][player]}"


def kept_base(page: Page, game: dict) -> object:
    return page.evaluate(
        "id => JSON.parse(localStorage.getItem('tablebank.games'))[id].base ?? null", game["id"]
    )


def test_a_game_created_at_loopback_links_to_the_servers_network_address(
    browser: Browser, request: pytest.FixtureRequest, server: Server
) -> None:
    page = new_page(browser, request)
    page.goto(server.base + "/")
    page.get_by_role("link", name="New game").click()
    inputs = page.locator(".player-inputs input")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    for extra in range(2, inputs.count()):
        inputs.nth(extra).fill("")
    page.get_by_test_id("create-game").click()
    expect(page.locator(".link-card img.qr").first).to_have_attribute("src", re.compile(r"^blob:"))
    (game,) = page.evaluate("JSON.parse(localStorage.getItem('tablebank.games'))").values()

    expect(page.get_by_label(ADDRESS)).to_have_value(LAN_URL)
    tokens = game["tokens"]
    assert link(page, "p1") == f"{LAN_URL}/play/{game['id']}#p=p1&token={tokens['p1']}"
    assert link(page, "p2") == f"{LAN_URL}/play/{game['id']}#p=p2&token={tokens['p2']}"
    banker_link = page.locator(".card details input").input_value()
    assert banker_link.startswith(f"{LAN_URL}/#/open/{game['id']}/{game['banker']}/p1:")
    assert "base" not in game  # the server's address is asked for each time, never kept


def test_an_address_the_banker_types_is_used_and_kept(
    browser: Browser, request: pytest.FixtureRequest, server: Server
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    open_links(page, server.base, game)
    address = page.get_by_label(ADDRESS)
    address.fill("http://10.0.0.5:8000/")
    address.press("Tab")
    expect(page.locator(".link-card[data-player=p1] input")).to_have_value(
        player_link("http://10.0.0.5:8000", game, "p1")
    )
    assert kept_base(page, game) == "http://10.0.0.5:8000"

    page.reload()
    expect(page.get_by_label(ADDRESS)).to_have_value("http://10.0.0.5:8000")
    assert link(page, "p2") == player_link("http://10.0.0.5:8000", game, "p2")


def test_clearing_the_address_brings_back_the_servers(
    browser: Browser, request: pytest.FixtureRequest, server: Server
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    open_links(page, server.base, game, base="http://10.0.0.5:8000")
    address = page.get_by_label(ADDRESS)
    expect(address).to_have_value("http://10.0.0.5:8000")
    address.fill("")
    address.press("Tab")
    expect(address).to_have_value(LAN_URL)
    expect(page.locator(".link-card[data-player=p1] input")).to_have_value(
        player_link(LAN_URL, game, "p1")
    )
    assert kept_base(page, game) is None


def test_a_loopback_address_kept_by_an_older_console_gives_way_to_the_servers(
    browser: Browser, request: pytest.FixtureRequest, server: Server
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    open_links(page, server.base, game, base=server.base)
    expect(page.get_by_label(ADDRESS)).to_have_value(LAN_URL)
    assert link(page, "p1") == player_link(LAN_URL, game, "p1")


def test_a_console_opened_at_a_network_name_links_to_that_name(
    browser: Browser, server: Server
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on(
        "console",
        lambda msg: (
            problems.append(msg.text)
            # Plain http at a name other than localhost is no secure context: chromium ignores
            # Cross-Origin-Opener-Policy there and says so, as it will at the table.
            if msg.type == "error" and "Cross-Origin-Opener-Policy" not in msg.text
            else None
        ),
    )
    origin = f"http://{NAME}:{server.port}"
    try:
        open_links(page, origin, game)
        expect(page.get_by_label(ADDRESS)).to_have_value(origin)
        assert link(page, "p1") == player_link(origin, game, "p1")
        assert link(page, "p2") == player_link(origin, game, "p2")
    finally:
        context.close()
    assert problems == []


@pytest.mark.parametrize("width", [360, 768, 1280])
def test_five_players_codes_stay_inside_the_page(
    browser: Browser, server: Server, request: pytest.FixtureRequest, width: int
) -> None:
    game = new_game(server, "classic", ["Alexandra", "Bob", "Cy", "Dan", "Eve"])
    page = new_page(browser, request)
    page.set_viewport_size({"width": width, "height": 900})
    hold(page, server, game)
    page.goto(f"{server.base}/#/g/{game['id']}/players")
    expect(page.locator(".link-card img.qr")).to_have_count(5)

    # Every card and what it holds end inside the panel above them (issue 22: at 1280 px the
    # fifth card ran 12 px past it).
    overflow = page.evaluate(
        """() => {
          const edge = document.querySelector('main .card').getBoundingClientRect().right;
          return [...document.querySelectorAll('.link-card, .link-card *')]
            .map((el) => el.getBoundingClientRect().right - edge).filter((d) => d > 0.5);
        }"""
    )
    assert overflow == []
