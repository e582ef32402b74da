"""The pocket bank in a real browser (issue 30; docs/pocket.md): the bundle ``make pocket``
builds, served by a plain static file server with no API behind it, runs the whole bank in the
page's Web Worker and keeps each write in IndexedDB before it answers.

- A family game made on the new-game screen, in Russian at 360 px: the console says the game
  has no players' links and how to move it to a server; a salary tapped on the table survives a
  reload; nothing is ever asked of another host.
- A page killed right after a tap finds its move once or not at all, and its outbox sends what
  it kept: never twice.
- A write the device's storage refuses is a 503 ``storage_unavailable`` that records nothing;
  sent again once there is room, it is recorded once.
- A second tab waits for the first to let go of the bank, and says so.
- A browser that refuses service workers still starts the bank, records, and keeps the game
  across a reload.

Figures from docs/rules.md: each player starts with 1,500; passing GO pays 200.
"""

# The players' names are Cyrillic, which RUF001 would take for look-alikes of Latin letters.

from __future__ import annotations

import contextlib
import gzip
from collections.abc import Iterator
from typing import Any

import brotli  # type: ignore[import-not-found]
import pytest
from console_steps import money, new_page, settled, words
from pocket import built, call, logged, new_game, only_this_host, static_server, wait_ready
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with static_server(built()) as url:
        yield url


def create_on_screen(page: Page, name: str, players: list[str]) -> None:
    """The new-game screen: a classic game of these players, created."""
    page.get_by_role("link", name=words(page, "new_game")).click()
    page.locator("input[name=name]").fill(name)
    inputs = page.locator(".player-inputs input")
    for index, player in enumerate(players):
        inputs.nth(index).fill(player)
    while inputs.count() > len(players):
        page.locator(".player-inputs li button").last.click()
    page.get_by_test_id("create-game").click()
    expect(page.get_by_test_id("pocket-links")).to_be_visible()


def salary_outlives_a_reload(page: Page) -> None:
    """On the table of a game of two: the first player's GO tapped, then the page reloaded.
    docs/rules.md: each starts with 1,500 and GO pays 200, so 1,700 and 1,500 before and after
    the reload."""
    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1700))
    settled(page)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1700))
    expect(page.get_by_test_id("cash-p2")).to_have_text(money(page, 1500))


def test_a_game_kept_on_the_phone_outlives_a_reload_and_asks_no_other_host(
    browser: Browser, base: str, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, locale="ru-RU", worker=True)
    elsewhere = only_this_host(page, base)
    page.goto(base)
    wait_ready(page)
    settled(page)
    create_on_screen(page, "Пятница", ["Аня", "Борис"])
    # No links to give: the game is on this phone. The way to give them is said.
    links = page.get_by_test_id("pocket-links")
    expect(links).to_contain_text(words(page, "pocket_no_links"))
    expect(page.get_by_text(words(page, "move_to_server_hint"))).to_be_visible()
    links.get_by_role("link", name=words(page, "to_the_table")).click()
    expect(page.get_by_test_id("cash-p1")).to_have_text(money(page, 1500))
    salary_outlives_a_reload(page)
    assert elsewhere == []

    # Nobody else writes a game kept here (one tab holds the bank), so the table does not ask
    # the bank for it every 3 s as it polls a server with no stream (live.js: once a minute).
    settled(page)
    page.evaluate(COUNT_READS)
    page.wait_for_timeout(7000)
    reads = page.evaluate("() => window.__tbReads")
    assert reads <= 1, f"{reads} GETs handed to the bank in 7 s at rest"


# The GETs the page hands its bank's worker from now on, in ``window.__tbReads``.
COUNT_READS = """() => {
  window.__tbReads = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'request' && message.method === 'GET') window.__tbReads += 1;
    return post.call(this, message, ...rest);
  };
}"""


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
def test_a_pocket_game_is_said_to_be_on_no_server(
    browser: Browser, base: str, request: pytest.FixtureRequest, locale: str
) -> None:
    # The section tab and the "Forget" question speak of a game kept on this device alone,
    # whose file is the way back, not of links, QR codes and a server that keeps the log.
    page = new_page(browser, request, locale=locale, worker=True)
    page.goto(base)
    wait_ready(page)
    settled(page)
    create_on_screen(page, "Piątek", ["Ann", "Bob"])
    nav = page.get_by_role("navigation")
    expect(nav.get_by_role("link", name=words(page, "nav_pocket"))).to_be_visible()
    expect(nav).not_to_contain_text(words(page, "nav_players"))
    page.goto(base)
    wait_ready(page)
    # The start screen: no players' phones to follow a game kept here, no banker link of a
    # server's game to paste (a game comes to the pocket bank by its file), no players' links.
    main = page.locator("main")
    expect(main).to_contain_text(words(page, "home_intro_pocket"))
    expect(main).to_contain_text(words(page, "fi_open_hint_pocket"))
    for server_words in ("home_intro", "open_banker_link", "fi_open_hint"):
        expect(main).not_to_contain_text(words(page, server_words))
    row = page.locator("li[data-game]").filter(has_text="Piątek")
    row.get_by_test_id("forget-game").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text(words(page, "forget_confirm_pocket", name="Piątek"))
    expect(dialog).to_contain_text(words(page, "fg_hint_pocket"))
    expect(dialog).not_to_contain_text(words(page, "fg_hint"))
    # Nothing but its paragraphs and buttons: no stray text (a "null" was written there).
    loose = dialog.locator(".dialog-body").evaluate(
        "body => [...body.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)"
        ".map((n) => n.textContent)"
    )
    assert loose == [], loose
    dialog.get_by_test_id("forget-game-confirm").click()
    expect(page.get_by_test_id("game-forgotten")).to_have_text(
        words(page, "fg_done_pocket", name="Piątek")
    )


def test_the_first_visit_fetches_each_file_of_the_bundle_once(
    browser: Browser, request: pytest.FixtureRequest
) -> None:
    # sw.js: the bank starts once the service worker has taken the page, which keeps the big
    # files as the bank loads them; its install fetches only the rest (docs/pocket.md).
    asked: list[str] = []
    with static_server(built(), asked) as here:
        page = new_page(browser, request, worker=True)
        page.goto(here)
        wait_ready(page)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        big = ["/pyodide/pyodide.asm.wasm", "/pyodide/python_stdlib.zip", "/python/site.zip"]
        assert [asked.count(path) for path in big] == [1, 1, 1], asked
        # Then nothing again: a reload comes from the service worker's copy.
        del asked[:]
        page.reload()
        wait_ready(page)
        assert [path for path in asked if path != "/sw.js"] == []


def test_after_one_visit_the_bank_opens_with_no_network(
    browser: Browser, base: str, request: pytest.FixtureRequest
) -> None:
    # The bundle's service worker keeps every file at the first visit (docs/pocket.md).
    page = new_page(browser, request, worker=True)
    page.goto(base)
    wait_ready(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    game = new_game(page, ["Ann", "Bob"])
    page.context.set_offline(True)
    page.reload()
    wait_ready(page)
    status, txn = call(
        page,
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "salary", "player": "p2"},
        game["banker_token"],
        key="offline-1",
    )
    assert (status, txn["balances"]["p2"]) == (201, 1700), txn  # 1,500 + 200
    page.goto(f"{base}#/g/{game['id']}")
    expect(page.get_by_test_id("cash-p2")).to_have_text("$1,700")
    page.context.set_offline(False)


def test_a_browser_refusing_service_workers_keeps_the_game_while_online(
    browser: Browser, base: str, request: pytest.FixtureRequest
) -> None:
    # A private window, or plain http away from the device: the page may not register a service
    # worker (docs/pocket.md: "Offline use needs the service worker"). The bank still starts,
    # records and keeps its game in IndexedDB: it only cannot open without the network.
    page = new_page(browser, request, locale="pl-PL")  # worker=False: service workers refused
    elsewhere = only_this_host(page, base)
    page.goto(base)
    wait_ready(page)
    game = new_game(page, ["Ann", "Bob"])
    page.goto(f"{base}#/g/{game['id']}")
    salary_outlives_a_reload(page)
    assert [t["request"] for t in logged(page, game, "salary")] == [{"player": "p1"}]
    assert page.evaluate("() => navigator.serviceWorker?.controller ?? null") is None
    assert elsewhere == []


@pytest.mark.parametrize("after_ms", [0, 15, 60])
def test_a_page_killed_right_after_a_tap_finds_its_move_once_or_not_at_all(
    browser: Browser, base: str, request: pytest.FixtureRequest, after_ms: int
) -> None:
    page = new_page(browser, request, worker=True)
    page.goto(base)
    wait_ready(page)
    game = new_game(page, ["Ann", "Bob"])
    page.goto(f"{base}#/g/{game['id']}")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,500")
    settled(page)
    page.get_by_test_id("salary-p1").click()
    page.wait_for_timeout(after_ms)
    context = page.context
    page.close()  # the tab, and the bank's worker with it, gone at once

    again = context.new_page()
    again.goto(f"{base}#/g/{game['id']}")
    wait_ready(again)
    # What the outbox kept is sent again with its key; what it never kept was never shown.
    again.wait_for_function(
        "id => !JSON.parse(localStorage.getItem('tablebank.outbox.' + id) || '[]')"
        ".some((e) => e.state === 'waiting')",
        arg=game["id"],
    )
    salaries = logged(again, game, "salary")
    assert len(salaries) in (0, 1), salaries
    expect(again.get_by_test_id("cash-p1")).to_have_text(f"${1500 + 200 * len(salaries):,}")


REFUSE_NEXT_WRITE = """() => {
  // As IndexedDB does when the device's storage is full: the transaction aborts.
  const add = IDBObjectStore.prototype.add;
  IDBObjectStore.prototype.add = function (...args) {
    IDBObjectStore.prototype.add = add;
    const asked = add.apply(this, args);
    this.transaction.abort();
    return asked;
  };
}"""


def test_a_write_the_device_cannot_keep_is_refused_and_records_nothing(
    browser: Browser, base: str, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, worker=True)
    page.goto(base)
    wait_ready(page)
    game = new_game(page, ["Ann", "Bob"])
    token = game["banker_token"]
    pay: dict[str, Any] = {"type": "payment", "from": "p1", "to": "p2", "amount": 70}
    (worker,) = page.workers
    worker.evaluate(REFUSE_NEXT_WRITE)
    path = f"/api/v1/games/{game['id']}/transactions"
    status, problem = call(page, "POST", path, pay, token, key="k1")
    assert (status, problem["code"]) == (503, "storage_unavailable"), problem
    assert "nothing was recorded" in problem["detail"]
    status, state = call(page, "GET", f"/api/v1/games/{game['id']}", None, token)
    assert [p["cash"] for p in state["players"]] == [1500, 1500]
    assert state["last_seq"] == 2  # the starting cash of each player, nothing after
    # Room again: the same key records it, once.
    status, txn = call(page, "POST", path, pay, token, key="k1")
    assert (status, txn["seq"]) == (201, 3), txn
    page.reload()
    wait_ready(page)
    status, state = call(page, "GET", f"/api/v1/games/{game['id']}", None, token)
    assert [p["cash"] for p in state["players"]] == [1430, 1570]  # 1,500 - 70, 1,500 + 70


def test_a_second_tab_waits_for_the_first_to_let_go(
    browser: Browser, base: str, request: pytest.FixtureRequest
) -> None:
    page = new_page(browser, request, worker=True)
    page.goto(base)
    wait_ready(page)
    game = new_game(page, ["Ann", "Bob"])
    second = page.context.new_page()
    second.goto(base)
    second.wait_for_function("() => document.documentElement.dataset.pocket === 'elsewhere'")
    page.close()
    wait_ready(second)
    status, state = call(second, "GET", f"/api/v1/games/{game['id']}", None, game["banker_token"])
    assert (status, state["last_seq"]) == (200, 2)


def test_the_bundles_compressed_copies_are_its_files_and_weigh_under_8_mb() -> None:
    # Issue 30: the first visit takes at most 8 MB with compression. Each file that gains from
    # it has a brotli and a gzip copy beside it (tools/pocket/build.py), which a server sends
    # (api/pocket_files.py, Caddy's precompressed); each copy gives back its file's bytes.
    bundle = built()
    copies = sorted(p for p in bundle.rglob("*") if p.suffix in (".br", ".gz"))
    decode = {".br": brotli.decompress, ".gz": gzip.decompress}
    for copy in copies:
        assert decode[copy.suffix](copy.read_bytes()) == copy.with_suffix("").read_bytes(), copy
    big = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "python/site.zip")
    for name in big:
        assert (bundle / f"{name}.br").is_file() and (bundle / f"{name}.gz").is_file(), name
    files = [p for p in bundle.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")]
    sent = sum(
        (p.with_name(p.name + ".br") if p.with_name(p.name + ".br").exists() else p).stat().st_size
        for p in files
        if p.name != "BUILD"
    )
    assert sent <= 8_000_000, f"{sent / 1e6:.2f} MB with brotli"


def test_a_tablebank_server_serves_the_bundle_at_pocket(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # API.md v1.3: any tablebank server serves the pocket mode at /pocket/ once it is built,
    # with the console's strict headers but for WebAssembly and the bank's worker.
    built()
    page = new_page(browser, request, worker=True)
    answer = page.request.get(f"{server.base}/pocket/")
    assert answer.status == 200
    policy = answer.headers["content-security-policy"]
    assert "'wasm-unsafe-eval'" in policy and "worker-src 'self'" in policy, policy
    assert "'unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
    # The interpreter goes with brotli to a browser that takes it, else with gzip, as what it
    # is (Playwright decodes the body as a browser does).
    for accepted, sent in (("gzip, deflate, br", "br"), ("gzip", "gzip")):
        wasm = page.request.get(
            f"{server.base}/pocket/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": accepted}
        )
        assert wasm.status == 200
        assert (wasm.headers["content-type"], wasm.headers["content-encoding"]) == (
            "application/wasm",
            sent,
        )
        assert wasm.body() == (built() / "pyodide" / "pyodide.asm.wasm").read_bytes()
    page.goto(f"{server.base}/pocket/")
    wait_ready(page)
    settled(page)
    create_on_screen(page, "Pocket only", ["Ann", "Bob"])
    game_id = page.url.split("#/g/")[1].split("/")[0]
    # The game is the page's, not the server's: the server has never heard of it, and the
    # server's console on this very browser does not list it among its games.
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('tablebank.pocket.games'))[id].banker", game_id
    )
    assert server.call("GET", f"/api/v1/games/{game_id}", None, token).status == 404
    page.goto(f"{server.base}/")
    expect(page.get_by_role("link", name=words(page, "new_game"))).to_be_visible()
    settled(page)
    expect(page.locator(".game-list strong", has_text="Pocket only")).to_have_count(0)
    page.goto(f"{server.base}/pocket/")
    wait_ready(page)
    expect(page.locator(".game-list strong", has_text="Pocket only")).to_be_visible()


def test_a_pocket_game_moves_to_the_server_that_served_it(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    # API.md v1.3: a pocket game moves to a server by an import of its export; the server
    # checks it again and gives it a new id and tokens; the device's copy stays, read-only,
    # marked as moved, with a link to the server's game.
    built()
    page = new_page(browser, request, worker=True)
    page.goto(f"{server.base}/pocket/")
    wait_ready(page)
    settled(page)
    create_on_screen(page, "Moving day", ["Ann", "Bob"])
    pocket_id = page.url.split("#/g/")[1].split("/")[0]
    page.get_by_test_id("pocket-links").get_by_role(
        "link", name=words(page, "to_the_table")
    ).click()
    page.get_by_test_id("salary-p1").click()
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")  # 1,500 + 200
    settled(page)
    page.goto(f"{server.base}/pocket/#/g/{pocket_id}/players")
    page.get_by_test_id("move-here").click()
    # The server's console, on the moved game's links: a link for each player.
    page.wait_for_url(f"{server.base}/#/g/*/players")
    server_id = page.url.split("#/g/")[1].split("/")[0]
    assert server_id != pocket_id
    expect(page.locator(".link-card")).to_have_count(2)
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('tablebank.games'))[id].banker", server_id
    )
    state = server.call("GET", f"/api/v1/games/{server_id}", None, token).body
    assert [(p["name"], p["cash"]) for p in state["players"]] == [("Ann", 1700), ("Bob", 1500)]
    # The copy on the device: marked as moved, read-only, linking to the server's game.
    page.goto(f"{server.base}/pocket/#/g/{pocket_id}")
    wait_ready(page)
    expect(page.get_by_test_id("moved")).to_be_visible()
    expect(page.get_by_test_id("moved").get_by_role("link")).to_have_attribute(
        "href", f"{server.base}/#/g/{server_id}"
    )
    expect(page.get_by_test_id("salary-p1")).to_have_count(0)
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
