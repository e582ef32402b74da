"""Shared devices (API.md v1.2, "Shared devices and caches"; issue 20), in Debian's chromium
against a real `tablebank serve`: a banker's link (``#/open/<game>/<token>/<player>:<token>…``)
and a player's link (``#p=…&token=…``, or the same in the query) leave the address at once:
neither the address bar (what a bookmark takes) nor any history entry of the page holds a
token, the console's own links between screens put none back, and a reload opens the game from
what the device keeps.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from console_steps import new_game, new_page
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

# Everything the console keeps in this tab and on the device, by key.
KEPT = """() => {
  const all = {};
  for (const [where, storage] of [['local', localStorage], ['session', sessionStorage]]) {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key.startsWith('tablebank.')) all[`${where}:${key}`] = storage.getItem(key);
    }
  }
  return all;
}"""


def kept(page: Page) -> dict[str, str]:
    return page.evaluate(KEPT)  # type: ignore[no-any-return]


def tokens(game: dict) -> list[str]:
    return [game["banker_token"], *game["tokens"].values()]


def banker_link(server: Server, game: dict) -> str:
    players = "".join(f"/{player}:{token}" for player, token in game["tokens"].items())
    return f"{server.base}/#/open/{game['id']}/{game['banker_token']}{players}"


def player_link(server: Server, game: dict, player: str) -> str:
    return f"{server.base}/play/{game['id']}#p={player}&token={game['tokens'][player]}"


def no_token_in(address: str, game: dict) -> None:
    for token in tokens(game):
        assert token not in address, address


def walk_back(page: Page, game: dict) -> list[str]:
    """Every history entry of the page, newest first, back to the blank page it started at;
    none may hold a token."""
    seen = [page.url]
    while page.url != "about:blank":
        page.go_back()
        seen.append(page.url)
        assert len(seen) < 20, seen
    for address in seen:
        no_token_in(address, game)
    return seen


# -- tokens out of the address ---------------------------------------------------------------


def test_a_banker_link_leaves_the_address_at_once_and_a_reload_opens_the_game(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    sent: list[str] = []
    page.on("request", lambda req: sent.append(req.url))
    page.goto(banker_link(server, game))
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")
    assert page.url == f"{server.base}/#/g/{game['id']}"
    held = json.loads(kept(page)["local:tablebank.games"])[game["id"]]
    assert held["banker"] == game["banker_token"]
    assert held["tokens"] == game["tokens"]
    assert held["name"] == "t"  # the game's name, from the server once the link is kept

    # The console's own links between its screens put no token back.
    for screen, address in [
        ("Links & QR", "/players"),
        ("History", "/history"),
        ("Replay", "/replay"),
        ("Table", ""),
    ]:
        page.get_by_role("link", name=screen, exact=True).click()
        expect(page).to_have_url(f"{server.base}/#/g/{game['id']}{address}")
        no_token_in(page.url, game)

    page.reload()  # the address holds no token: the device does
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")
    # The entry the link was opened in holds the table's address, as every later one does.
    assert walk_back(page, game)[-2] == f"{server.base}/#/g/{game['id']}"
    for address in sent:
        no_token_in(address, game)  # nor did any request carry one in its address


def test_a_banker_link_pasted_on_the_start_screen_never_reaches_the_address(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    page.goto(server.base + "/")
    field = page.get_by_label("Banker link", exact=True)
    field.fill(banker_link(server, game))
    page.get_by_role("button", name="Open", exact=True).click()
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,500")
    assert page.url == f"{server.base}/#/g/{game['id']}"
    page.go_back()  # to the start screen, which now lists the game
    expect(page.locator(f".game-list li[data-game='{game['id']}']")).to_contain_text("t")
    expect(page.get_by_label("Banker link", exact=True)).to_have_value("")
    walk_back(page, game)


def test_a_banker_link_the_server_refuses_is_not_kept_nor_left_in_the_address(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    other = new_game(server, "classic", ["Cy", "Di"])
    wrong = {**game, "banker_token": other["banker_token"], "tokens": {}}  # another game's
    page = new_page(browser, request)
    page.goto(banker_link(server, wrong))
    expect(page.get_by_role("heading", name="Something went wrong")).to_be_visible()
    no_token_in(page.url, other)
    assert game["id"] not in json.loads(kept(page).get("local:tablebank.games", "{}"))
    assert other["banker_token"] not in json.dumps(kept(page))


@pytest.mark.parametrize("where", ["fragment", "query"])
def test_a_players_link_leaves_the_address_at_once_and_a_reload_opens_the_page(
    browser: Browser, server: Server, request: pytest.FixtureRequest, where: str
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    token = game["tokens"]["p2"]
    page = new_page(browser, request)
    given = f"#p=p2&token={token}" if where == "fragment" else f"?p=p2&token={token}"
    page.goto(f"{server.base}/play/{game['id']}{given}")
    expect(page.locator("#me-h")).to_have_text("Bob")
    assert page.url == f"{server.base}/play/{game['id']}"
    page.reload()
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,500")
    assert walk_back(page, game) == [f"{server.base}/play/{game['id']}", "about:blank"]
    page.go_forward()  # the entry again: the page, from what the device keeps
    expect(page.locator("#me-h")).to_have_text("Bob")
    no_token_in(page.url, game)


def test_another_players_link_opened_in_the_same_tab_leaves_the_address_too(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    page = new_page(browser, request)
    page.goto(player_link(server, game, "p2"))
    expect(page.locator("#me-h")).to_have_text("Bob")
    page.goto(player_link(server, game, "p1"))  # only the fragment changes: the same document
    expect(page.locator("#me-h")).to_have_text("Ann")
    assert page.url == f"{server.base}/play/{game['id']}"
    walk_back(page, game)
