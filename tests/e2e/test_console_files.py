"""A game's file in the console (js/files.js; issue 22, "Export and import in the console"), in
Debian's chromium against a real `tablebank serve`: the banker downloads the game's file from
its Links screen (the server's export, fetched with the banker's token, never in an address),
and a fresh device opens it from the start screen as a new game (POST /api/v1/games/import)
whose table shows the same balances and the same count of transactions; a file the server
refuses shows why, in the page's language; a busy server or none says so and offers to try
again. At 360, 768 and 1280 px, in Russian, Polish and English (one language a width).

The game (docs/rules.md): Ann, Bob and Cy start with 1500 each; Ann collects GO's 200 and buys
Boardwalk for 400; Bob lands on it, bare, and pays her 50; Cy pays the luxury tax of 75; Bob
buys Reading Railroad for 200 and Ann pays him its rent of 25 (one railroad held). Ann then
has 1500 + 200 - 400 + 50 - 25 = 1325, Bob 1500 - 50 - 200 + 25 = 1275, Cy 1500 - 75 = 1425:
nine transactions, the three seats' set-up and these six.

TABLEBANK_LAYOUT_SCREENSHOTS=<dir> keeps a picture of each screen there; a screen the layout
measure finds wrong (tests/e2e/layout.py) is kept in a temporary directory the failure names.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from console_steps import goto, hold, money, new_page, open_file, record, words
from layout import HEIGHT, OFFENDERS, SPREAD, TAP
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Locator, Page, Route, expect

KEEP_PICTURES = os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS")
NAME = "Friday night"
CASH = {"p1": 1325, "p2": 1275, "p3": 1425}  # the module's docstring works them out
LAST_SEQ = 9


def played(server: Server) -> dict:
    """The module's game, through the API, still going on."""
    seats = {"name": NAME, "ruleset": "classic", "players": ["Ann", "Bob", "Cy"]}
    answer = server.call("POST", "/api/v1/games", seats)
    assert answer.status == 201, answer
    game: dict = answer.body
    for body in (
        {"type": "salary", "player": "p1"},
        {"type": "buy", "player": "p1", "property": "boardwalk"},
        {"type": "rent", "payer": "p2", "property": "boardwalk"},
        {"type": "tax", "player": "p3", "tax": "luxury"},
        {"type": "buy", "player": "p2", "property": "reading-railroad"},
        {"type": "rent", "payer": "p1", "property": "reading-railroad"},
    ):
        last = record(server, game, body)
    assert last["seq"] == LAST_SEQ
    return game


def exported(server: Server, game: dict) -> dict[str, Any]:
    answer = server.call("GET", f"/api/v1/games/{game['id']}/export", None, game["banker_token"])
    assert answer.status == 200, answer
    return answer.body  # type: ignore[no-any-return]


def kept_games(page: Page) -> dict[str, dict[str, Any]]:
    """The games this device keeps as banker (store.js)."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('tablebank.games') || '{}')")  # type: ignore[no-any-return]


def open_links(page: Page, server: Server, game: dict) -> None:
    """The banker's device holds the game and shows its Links screen."""
    hold(page, server, game)
    page.goto(f"{server.base}/#/g/{game['id']}/players")
    expect(page.get_by_test_id("download-game")).to_be_visible()


def download(page: Page, out: Path) -> Path:
    """The game's file, downloaded from the Links screen, saved in ``out``."""
    with page.expect_download() as caught:
        page.get_by_test_id("download-game").click()
    file = out / caught.value.suggested_filename
    caught.value.save_as(file)
    return file


def page_date(page: Page) -> str:
    """Today as the page's clock has it, YYYY-MM-DD."""
    return str(
        page.evaluate(
            "() => { const d = new Date(); const p = (n) => String(n).padStart(2, '0');"
            " return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`; }"
        )
    )


class Screens:
    """Each screen measured (layout.OFFENDERS); its picture kept where asked, or where found."""

    def __init__(self, out: Path, prefix: str) -> None:
        self.out, self.prefix = out, prefix
        self.offenders: dict[str, list[str]] = {}

    def look(self, page: Page, name: str, part: Locator) -> None:
        found = page.evaluate(OFFENDERS, TAP)
        if found:
            self.offenders[name] = found
        elif not KEEP_PICTURES:
            return
        part.screenshot(path=self.out / f"files-{self.prefix}-{name}.png")

    def report(self) -> str:
        lines = [f"{name}: {line}" for name, found in self.offenders.items() for line in found]
        return "\n".join([f"at {self.prefix}:", *lines, f"pictures in {self.out}"])


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = Path(KEEP_PICTURES) if KEEP_PICTURES else tmp_path_factory.mktemp("files-screens")
    out.mkdir(parents=True, exist_ok=True)
    return out


def at_least_a_tap(control: Locator) -> None:
    box = control.bounding_box()
    assert box is not None and box["width"] >= TAP and box["height"] >= TAP, box


@pytest.mark.parametrize(("width", "locale"), SPREAD)
def test_a_game_s_file_downloaded_opens_on_a_fresh_device_as_the_same_table(
    browser: Browser,
    server: Server,
    screenshots: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    width: int,
    locale: str,
) -> None:
    game = played(server)
    screens = Screens(screenshots, f"{width}-{locale[:2]}")
    banker = new_page(browser, request, locale=locale)
    banker.set_viewport_size({"width": width, "height": HEIGHT[width]})
    tokens: list[str] = []
    banker.on("request", lambda req: tokens.append(req.url) if "token" in req.url.lower() else None)
    open_links(banker, server, game)

    keep = banker.get_by_test_id("keep-game")
    expect(keep.locator("h2")).to_have_text(words(banker, "fi_keep_title"))
    at_least_a_tap(banker.get_by_test_id("download-game"))
    file = download(banker, tmp_path)
    assert file.name == f"{NAME} {page_date(banker)}.tablebank.json"
    assert json.loads(file.read_text(encoding="utf-8")) == exported(server, game)
    link = keep.get_by_test_id("file-link")
    expect(link).to_have_text(file.name)
    assert tokens == []  # the token went in a header only
    keep.scroll_into_view_if_needed()
    screens.look(banker, "keep", keep)

    # A fresh device: nothing kept, the start screen opens the file as a new game.
    device = new_page(browser, request, locale=locale)
    device.set_viewport_size({"width": width, "height": HEIGHT[width]})
    device.goto(server.base + "/")
    section = device.get_by_test_id("open-file")
    expect(section.locator("h2")).to_have_text(words(device, "fi_open_title"))
    at_least_a_tap(device.get_by_test_id("open-game-file"))
    section.scroll_into_view_if_needed()
    screens.look(device, "open", section)
    open_file(device, file)
    expect(device.get_by_test_id("cash-p1")).to_have_text(money(device, CASH["p1"]))
    for player, cash in CASH.items():
        expect(device.get_by_test_id(f"cash-{player}")).to_have_text(money(device, cash))
    expect(device.locator(".game-head h1")).to_have_text(NAME)
    expect(device.locator(".game-head p.muted")).to_contain_text(f"#{LAST_SEQ} ")
    (new_id,) = kept_games(device)
    assert new_id != game["id"]
    kept = kept_games(device)[new_id]
    assert kept["name"] == NAME and kept["banker"] and set(kept["tokens"]) == set(CASH)
    assert device.url == f"{server.base}/#/g/{new_id}"
    answer = server.call("GET", f"/api/v1/games/{new_id}", None, kept["banker"])
    assert answer.status == 200 and answer.body["last_seq"] == LAST_SEQ
    screens.look(device, "table", device.locator("main"))

    # Files the server refuses: nothing made, the reason in the page's language.
    goto(device, server.base + "/")
    not_json = tmp_path / "notes.tablebank.json"
    not_json.write_text("Ann 1325, Bob 1275, Cy 1425", encoding="utf-8")
    open_file(device, not_json)
    problem = device.get_by_test_id("file-problem")
    expect(problem.locator(".problem-title")).to_have_text(words(device, "fi_refused"))
    expect(problem.locator(".problem-detail")).to_have_text(words(device, "fi_not_a_file"))

    tampered = json.loads(file.read_text(encoding="utf-8"))
    assert tampered["transactions"][5]["type"] == "rent"  # Bob's 50 on Boardwalk, seq 6
    tampered["transactions"][5]["postings"][0]["amount"] = 5
    forged = tmp_path / "forged.tablebank.json"
    forged.write_text(json.dumps(tampered), encoding="utf-8")
    open_file(device, forged)
    expect(problem.locator(".problem-detail")).to_have_text(words(device, "fi_log_seq", seq=6))
    problem.scroll_into_view_if_needed()
    screens.look(device, "refused", device.get_by_test_id("open-file"))
    assert list(kept_games(device)) == [new_id]

    assert screens.offenders == {}, screens.report()


def test_a_busy_server_or_none_says_so_and_the_banker_tries_again(
    browser: Browser, server: Server, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    game = played(server)
    page = new_page(browser, request)
    open_links(page, server, game)
    status = page.get_by_test_id("file-status")
    busy = {"code": "busy", "status": 503, "title": "Service Unavailable", "type": "about:blank"}

    def busy_now(route: Route) -> None:
        route.fulfill(
            status=503,
            headers={"Retry-After": "4", "Content-Type": "application/problem+json"},
            body=json.dumps({**busy, "detail": "The server is busy with other long reads"}),
        )

    page.route("**/api/v1/games/*/export", busy_now, times=1)
    page.get_by_test_id("download-game").click()
    expect(status.get_by_test_id("file-problem")).to_have_text(
        words(page, "fi_busy", s=4) + words(page, "fi_try_again")
    )
    expect(page.get_by_test_id("net-banner")).to_have_count(0)
    with page.expect_download() as caught:
        status.get_by_test_id("file-try-again").click()
    caught.value.save_as(tmp_path / "game.json")
    assert json.loads((tmp_path / "game.json").read_text("utf-8")) == exported(server, game)

    page.route("**/api/v1/games/*/export", lambda route: route.abort("internetdisconnected"))
    page.get_by_test_id("download-game").click()
    expect(status.get_by_test_id("file-problem")).to_contain_text(words(page, "fi_offline_export"))
    page.unroute("**/api/v1/games/*/export")

    goto(page, server.base + "/")
    page.route("**/api/v1/games/import", lambda route: route.abort("internetdisconnected"))
    open_file(page, tmp_path / "game.json")
    problem = page.get_by_test_id("open-file").get_by_test_id("file-problem")
    expect(problem).to_contain_text(words(page, "fi_offline_import"))
    page.unroute("**/api/v1/games/import")
    problem.get_by_test_id("file-try-again").click()
    expect(page.get_by_test_id("cash-p3")).to_have_text("$1,425")


def test_a_finished_game_s_file_is_downloaded_as_an_active_one_s(
    browser: Browser, server: Server, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    game = played(server)
    record(server, game, {"type": "finish"})
    page = new_page(browser, request, locale="pl-PL")
    open_links(page, server, game)

    file = download(page, tmp_path)

    document = json.loads(file.read_text(encoding="utf-8"))
    assert document == exported(server, game)
    assert document["transactions"][-1]["type"] == "finish"
    assert len(document["transactions"]) == LAST_SEQ + 1
