"""Shared devices (API.md v1.2, "Shared devices and caches"; issue 20), in Debian's chromium
against a real `tablebank serve`:

- a banker's link (``#/open/<game>/<token>/<player>:<token>…``) and a player's link
  (``#p=…&token=…``, or the same in the query) leave the address at once: neither the address
  bar (what a bookmark takes) nor any history entry of the page holds a token, the console's own
  links between screens put none back, and a reload opens the game from what the device keeps;
- "Forget this device" on a player's page, one tap further, takes that player's token off the
  device (and off the other tabs open on that player), and the page asks the server nothing
  more; the link opened again brings it back;
- "Forget" on the banker's list of games takes the game's tokens and everything the device
  keeps of it off the device, after saying how many moves still wait in the outbox, which it
  then drops; the game still answers on the server with its token;
- those screens fit a phone and a laptop in English, Russian and Polish, their buttons are
  touch targets of 44 px by 44 px at least, and no toast covers them.
"""

# The console's texts: typographic quotes and apostrophes.
# ruff: noqa: RUF001

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from console_steps import goto, logged, new_game, new_page, open_table, record, settled
from layout import HEIGHT, OFFENDERS, TAP
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


def game_view(server: Server, game: dict) -> dict:
    answer = server.call("GET", f"/api/v1/games/{game['id']}", None, game["banker_token"])
    assert answer.status == 200, answer
    return answer.body


def hold(page: Page, server: Server, *games: dict) -> None:
    """The banker's device holds these games (as after creating them there)."""
    goto(page, server.base + "/")
    page.evaluate(
        "gs => localStorage.setItem('tablebank.games', JSON.stringify(Object.fromEntries("
        "gs.map((g) => [g.id, g]))))",
        [
            {
                "id": g["id"],
                "name": g["name"],
                "ruleset": g["ruleset"],
                "banker": g["banker_token"],
                "tokens": g["tokens"],
                "created": g["created"],
            }
            for g in games
        ],
    )


def api_reads(page: Page) -> list[str]:
    """The API requests the page sends from now on."""
    urls: list[str] = []
    page.on("request", lambda req: urls.append(req.url) if "/api/v1/" in req.url else None)
    return urls


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


# -- forget this device ------------------------------------------------------------------------


def test_forget_this_device_takes_the_players_token_off_it_and_the_page_reads_the_game_no_more(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"])
    bob = game["tokens"]["p2"]
    page = new_page(browser, request)  # the phone's tabs: Ann's, then Bob's twice
    ann_tab = page.context.new_page()
    ann_tab.goto(player_link(server, game, "p1"))
    expect(ann_tab.locator("#me-h")).to_have_text("Ann")
    page.goto(player_link(server, game, "p2"))
    other_tab = page.context.new_page()
    other_tab.goto(player_link(server, game, "p2"))
    for tab in (page, other_tab):
        expect(tab.get_by_test_id("my-cash")).to_have_text("$1,500")
    assert json.loads(kept(page)["local:tablebank.play." + game["id"]])["token"] == bob

    device = page.get_by_test_id("forget-device")
    expect(device).to_have_text("Forget this device")
    device.click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("This device will no longer keep Bob’s link to “t”")
    dialog.get_by_role("button", name="Cancel").click()  # thought better of it: nothing goes
    expect(dialog).to_have_count(0)
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,500")
    assert bob in json.dumps(kept(page))

    device.click()
    reads = api_reads(page)
    dialog.get_by_test_id("forget-device-confirm").click()
    gone = page.get_by_test_id("device-forgotten")
    expect(gone).to_contain_text("Forgotten on this device")
    expect(gone).to_contain_text("This device no longer keeps Bob’s link to “t”.")
    expect(gone).to_contain_text("To come back, open your link again or scan your QR code.")
    expect(page.get_by_test_id("my-cash")).to_have_count(0)
    assert page.url == f"{server.base}/play/{game['id']}"
    # Bob's other tab forgets too; Ann's keeps her own link and goes on.
    expect(other_tab.get_by_test_id("device-forgotten")).to_be_visible()
    for tab in (page, other_tab, ann_tab):
        assert bob not in json.dumps(kept(tab)), kept(tab)
    assert game["tokens"]["p1"] in json.dumps(kept(ann_tab))

    # A salary for Bob reaches Ann's page (the stream sent it); the forgotten page asks nothing.
    record(server, game, {"type": "salary", "player": "p2"})
    expect(ann_tab.locator(".others")).to_contain_text("$1,700")
    settled(page)
    assert reads == [], reads
    expect(page.locator("#net")).to_have_attribute("data-stream", "none")

    page.reload()  # nothing kept: the page asks for the link, and the server for nothing
    expect(page.locator("main")).to_contain_text("Ask the banker for your link or QR code.")
    settled(page)
    assert reads == [], reads

    page.goto(player_link(server, game, "p2"))  # the link again: Bob is back
    expect(page.locator("#me-h")).to_have_text("Bob")
    expect(page.get_by_test_id("my-cash")).to_have_text("$1,700")


# -- forget this game --------------------------------------------------------------------------


def test_forget_this_game_takes_it_off_the_list_and_the_device_and_it_stays_on_the_server(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    staying = new_game(server, "classic", ["Ann", "Bob"], name="Sunday")
    game = new_game(server, "classic", ["Cy", "Di"], name="Tuesday")
    record(server, game, {"type": "salary", "player": "p1"})
    before = game_view(server, game)
    page = new_page(browser, request)
    hold(page, server, staying, game)
    # What the device keeps of the game: the table as last seen, a player's link opened here.
    goto(page, f"{server.base}/#/g/{game['id']}")
    expect(page.get_by_test_id("cash-p1")).to_have_text("$1,700")
    page.goto(player_link(server, game, "p2"))
    expect(page.locator("#me-h")).to_have_text("Di")
    held = [key for key in kept(page) if game["id"] in key]
    assert "local:tablebank.snapshot." + game["id"] in held
    assert "local:tablebank.play." + game["id"] in held

    page.goto(server.base + "/")
    rows = page.locator(".game-list li")
    expect(rows).to_have_count(2)
    row = page.locator(f".game-list li[data-game='{game['id']}']")
    forget = row.get_by_test_id("forget-game")
    expect(forget).to_have_accessible_name("Forget Tuesday")
    forget.click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Forget “Tuesday” on this device? The game stays on the server.")
    expect(dialog.get_by_test_id("forget-waiting")).to_have_count(0)  # no move waits
    loose = dialog.locator(".dialog-body").evaluate(
        "body => [...body.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)"
        ".map((n) => n.textContent)"
    )
    assert loose == [], loose  # no stray text where no move waits (a "null" was written)
    dialog.get_by_role("button", name="Cancel").click()
    expect(rows).to_have_count(2)

    forget.click()
    confirm = dialog.get_by_test_id("forget-game-confirm")
    expect(confirm).to_have_text("Forget the game")
    confirm.click()
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Sunday")
    expect(page.get_by_test_id("game-forgotten")).to_have_text(
        "“Tuesday” is forgotten on this device. It stays on the server."
    )
    everything = kept(page)
    assert [key for key in everything if game["id"] in key] == []
    assert game["id"] not in json.loads(everything["local:tablebank.games"])
    for token in tokens(game):
        assert token not in json.dumps(everything)
    assert staying["banker_token"] in everything["local:tablebank.games"]

    # On the server the game is as it was, and its banker token still opens it.
    view = game_view(server, game)
    assert view["last_seq"] == before["last_seq"]
    assert view["balances"]["p1"] == 1700  # 1,500 and the salary of 200
    goto(page, f"{server.base}/#/g/{game['id']}")
    expect(
        page.get_by_role("heading", name="This device has no banker token for this game")
    ).to_be_visible()


def test_forgetting_a_game_with_moves_waiting_says_how_many_and_drops_them_when_confirmed(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> None:
    game = new_game(server, "classic", ["Ann", "Bob"], name="Friday")
    page = new_page(browser, request)
    page.clock.install()  # the outbox's pauses between tries, run on below
    open_table(page, server, game)
    last_seq = game_view(server, game)["last_seq"]
    # The Wi-Fi loses every write from now on (a dry run still answers): the salary waits.
    writes = re.compile(r"/api/v1/games/[^/]+/transactions$")
    page.route(
        writes, lambda route: route.abort() if route.request.method == "POST" else route.continue_()
    )
    page.get_by_test_id("salary-p1").click()
    kept_dialog = page.locator("dialog[open]")
    expect(kept_dialog).to_contain_text("Not sent yet: the move waits in the outbox")
    kept_dialog.get_by_role("button", name="OK").click()
    expect(page.get_by_test_id("outbox-move")).to_have_text(re.compile("Salary: Ann"))
    goto(page, f"{server.base}/#/")  # to the start screen, the move still waiting

    row = page.locator(f".game-list li[data-game='{game['id']}']")
    row.get_by_test_id("forget-game").click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_test_id("forget-waiting")).to_have_text(
        "Moves made on this device that have not reached the server yet: 1. Forgetting the game"
        " drops them: they will never be recorded."
    )
    dialog.get_by_role("button", name="Cancel").click()
    outbox = "local:tablebank.outbox." + game["id"]
    assert len(json.loads(kept(page)[outbox])) == 1  # kept, as the banker chose

    row.get_by_test_id("forget-game").click()
    confirm = dialog.get_by_test_id("forget-game-confirm")
    expect(confirm).to_have_text("Forget it and drop the moves")
    confirm.click()
    expect(row).to_have_count(0)
    assert [key for key in kept(page) if game["id"] in key] == []

    posts: list[str] = []
    page.on("request", lambda req: posts.append(req.url) if req.method == "POST" else None)
    page.unroute(writes)  # the Wi-Fi back
    page.clock.run_for("01:00")  # past every pause the outbox would have waited (10 s at most)
    settled(page)
    assert posts == []
    assert logged(server, game, "salary") == []
    assert game_view(server, game)["last_seq"] == last_seq


# -- on a phone and a laptop ---------------------------------------------------------------------

KEEP_PICTURES = os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS")

# The buttons this page adds that cannot be shown clear of the toasts: each brought to the
# bottom of the screen (where the toasts are) and, failing that, to its middle; what covers a
# corner or the middle of it at both.
COVERED = r"""(selector) => [...document.querySelectorAll(selector)].flatMap((el) => {
  const under = () => {
    const r = el.getBoundingClientRect();
    // Inside its rounded corners (8 px): 10 px in from each edge.
    const points = [[r.left + 10, r.top + 10], [r.right - 10, r.top + 10],
      [r.left + 10, r.bottom - 10], [r.right - 10, r.bottom - 10],
      [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    const what = (hit) => (hit
      ? `${hit.tagName.toLowerCase()}.${hit.className} "${(hit.innerText || '').slice(0, 40)}"`
      : 'nothing');
    return points.map(([x, y]) => [x, y, document.elementFromPoint(x, y)])
      .filter(([, , hit]) => !(hit && (hit === el || el.contains(hit))))
      .map(([x, y, hit]) => `"${el.innerText}" at ${Math.round(x)},${Math.round(y)}: ${what(hit)}`);
  };
  el.scrollIntoView({block: 'end'});
  const atTheBottom = under();
  if (!atTheBottom.length) return [];
  el.scrollIntoView({block: 'center'});
  const inTheMiddle = under();
  return inTheMiddle.length ? [...atTheBottom, ...inTheMiddle] : [];
})"""

SIZES = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const r = el.getBoundingClientRect();
  return [el.innerText, r.width, r.height];
})"""

# A toast that stays until it is taken away, as two of them do while they are read.
SHOW_TOAST = """async (text) => {
  (await import('/console/static/js/dom.js')).toast(text, {timeout: 0});
}"""
NO_TOASTS = "() => document.getElementById('toasts').replaceChildren()"


class Screens:
    """Each screen measured (layout.OFFENDERS); its picture kept where asked, or where found."""

    def __init__(self, page: Page, out: Path, prefix: str) -> None:
        self.page, self.out, self.prefix = page, out, prefix
        self.offenders: dict[str, list[str]] = {}
        self.count = 0

    def look(self, name: str, buttons: str | None = None, toasts: tuple[str, ...] = ()) -> None:
        """The screen measured; `buttons`: the controls added here, whose size is measured and
        which none of `toasts`, shown over the screen, may cover."""
        self.count += 1
        found: list[str] = self.page.evaluate(OFFENDERS, TAP)
        if buttons:
            sizes = self.page.evaluate(SIZES, buttons)
            assert sizes, f"{name}: no {buttons}"
            found += [f"small: {text} {w:.0f}x{h:.0f}" for text, w, h in sizes if min(w, h) < TAP]
            for text in toasts:
                self.page.evaluate(SHOW_TOAST, text)
            found += self.page.evaluate(COVERED, buttons)
        if found:
            self.offenders[name] = found
        if found or KEEP_PICTURES:
            slug = re.sub(r"\W+", "-", name).strip("-").lower()
            path = self.out / f"devices-{self.prefix}-{self.count:02d}-{slug}.png"
            self.page.screenshot(path=path, full_page=not self.page.locator("dialog[open]").count())
        self.page.evaluate(NO_TOASTS)

    def report(self) -> str:
        lines = [f"{name}: {line}" for name, found in self.offenders.items() for line in found]
        return "\n".join([f"at {self.prefix}:", *lines, f"pictures in {self.out}"])


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = Path(KEEP_PICTURES) if KEEP_PICTURES else tmp_path_factory.mktemp("device-screens")
    out.mkdir(parents=True, exist_ok=True)
    return out


def words(page: Page, key: str, **params: Any) -> str:
    """A text of the page's dictionaries in the page's language."""
    return str(
        page.evaluate(
            "async ([key, params]) => (await import('/console/static/js/i18n.js')).t(key, params)",
            [key, params],
        )
    )


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
@pytest.mark.parametrize("width", [360, 1280])
def test_the_forget_screens_fit_a_phone_and_a_laptop_and_no_toast_covers_their_buttons(
    browser: Browser,
    server: Server,
    screenshots: Path,
    request: pytest.FixtureRequest,
    width: int,
    locale: str,
) -> None:
    game = new_game(
        server, "classic", ["Małgorzata Wiśniewska", "Bartholomew"], name="Wieczór u Kowalskich"
    )
    other = new_game(server, "classic", ["Ann", "Bob"], name="Воскресенье на даче")
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    screens = Screens(page, screenshots, f"{width}-{locale[:2]}")

    # The player's page, with two toasts of a payment just made over its foot.
    page.goto(player_link(server, game, "p1"))
    expect(page.get_by_test_id("my-cash")).to_be_visible()
    page.locator("input[name=amount]").fill("25")
    page.get_by_test_id("pay").click()
    paid = page.locator(".toast span").first.inner_text()
    page.evaluate(NO_TOASTS)
    toasts = (paid, paid)
    screens.look("player's page", "[data-testid=forget-device]", toasts)
    page.get_by_test_id("forget-device").click()
    expect(page.locator("dialog[open] h2")).to_have_text(words(page, "dv_forget_title"))
    screens.look("forget this device?", "dialog[open] .actions button", toasts)
    page.get_by_test_id("forget-device-confirm").click()
    expect(page.get_by_test_id("device-forgotten")).to_be_visible()
    screens.look("forgotten")

    # The banker's list of games, one with a move waiting in its outbox.
    hold(page, server, game, other)
    page.evaluate(
        "id => localStorage.setItem(`tablebank.outbox.${id}`, JSON.stringify([{key: 'k',"
        " body: {type: 'salary', player: 'p1'}, at: new Date().toISOString(), state: 'waiting'}]))",
        game["id"],
    )
    page.reload()
    expect(page.locator(".game-list li")).to_have_count(2)
    # The longest toast the start screen may show: a move of the outbox kept for later.
    toasts = (words(page, "ob_kept"), words(page, "ob_kept"))
    screens.look("games on this device", "[data-testid=forget-game]", toasts)
    page.locator(f".game-list li[data-game='{game['id']}'] [data-testid=forget-game]").click()
    expect(page.get_by_test_id("forget-waiting")).to_be_visible()
    screens.look("forget this game?", "dialog[open] .actions button", toasts)
    page.get_by_test_id("forget-game-confirm").click()
    expect(page.get_by_test_id("game-forgotten")).to_be_visible()
    screens.look("forgotten game", "[data-testid=forget-game]", toasts)

    assert screens.count == 6
    assert screens.offenders == {}, screens.report()
