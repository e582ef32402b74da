"""The console under a finger (issue 22, items 1 and 6): at a phone's, a tablet's and a laptop's
width, in English, Russian and Polish,

- a toast never covers a control of the table. With one showing (a salary recorded from a
  card's GO), then two, the element at the centre of every control the banker can see is that
  control, at the top of the page, at its foot and with a card in the middle; the next
  player's GO at the foot of a 360 x 740 phone stays where it was and takes the next tap; the
  toast's Undo is a button of its own, 44 px by 44 px, apart from its close button. The
  offline banner covers nothing either;
- every control the banker or a player can see is 44 CSS px by 44 at least (a radio or a
  checkbox with its label): the table, its dialogs (payment, card, trade, build, bankruptcy,
  IOU, every move of a player's More… and of the table, a dispute's void and uphold), a
  Millionaire Elite table and every move of its More… (shares, insurance, the EXCHANGE...),
  the new-game screen, the players' links, the history, the replay, the start screen and a
  player's page.

Needs what tests/e2e/test_console.py needs (Playwright for Python, chromium); without them
these tests skip, unless TABLEBANK_REQUIRE_ALL=1 makes that a failure. The phone with a toast
is saved as a picture to look at by eye, in a temporary directory (TABLEBANK_LAYOUT_SCREENSHOTS
=<dir> keeps it there), and so is any screen with an offender.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from console_steps import (
    card,
    goto,
    logged,
    money,
    new_game,
    new_page,
    open_table,
    record,
    settled,
)
from layout import COVERED, FRAMES, HEIGHT, SMALL, TAP, WIDTHS, AtEachWidth
from server import Server

pytestmark = pytest.mark.e2e

# Without Playwright, browser.chromium() skips (or fails under TABLEBANK_REQUIRE_ALL=1).
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

LOCALES = ["en-US", "ru-RU", "pl-PL"]
# 1,500 and a salary of 200 (docs/rules.md, GO), as each language writes it: $1,700, 1 700 $.
SEVENTEEN_HUNDRED = re.compile(r"^\D*1[\s,.\u00a0\u202f]?700\D*$")


@pytest.fixture(scope="module")
def game(server: Server) -> dict:
    """A classic table with something in every dialog: houses, a mortgaged railroad (a
    trade's and a bankruptcy's lift), a jail card, an IOU, a pot, a turn and a rent disputed."""
    game = new_game(
        server,
        "classic",
        ["Alexandra", "Bartholomew", "Małgorzata"],
        options={"player_loans": True, "free_parking_pot": True},
    )
    orange = ["st-james-place", "tennessee-avenue", "new-york-avenue"]
    for body in (
        {"type": "buy", "player": "p1", "property": "boardwalk"},
        {"type": "buy", "player": "p1", "property": "park-place"},
        {"type": "build", "orders": [{"property": "boardwalk"}, {"property": "park-place"}]},
        {"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"},
        *({"type": "buy", "player": "p2", "property": deed} for deed in orange),
        {"type": "build", "orders": [{"property": deed} for deed in orange]},
        {"type": "buy", "player": "p2", "property": "pennsylvania-railroad"},
        {"type": "mortgage", "property": "pennsylvania-railroad"},
        {"type": "buy", "player": "p3", "property": "electric-company"},
        {"type": "iou", "debtor": "p3", "creditor": "p1", "amount": 50},
        {"type": "payment", "from": "p3", "to": "pot", "amount": 50},
        {"type": "turn", "player": "p2"},
    ):
        record(server, game, body)
    rent = record(server, game, {"type": "rent", "payer": "p2", "property": "boardwalk"})
    disputed = server.call(
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "dispute", "seq": rent["seq"], "reason": "I was on Park Place"},
        game["tokens"]["p2"],
    )
    assert disputed.status == 201, disputed
    return game


@pytest.fixture(scope="module")
def elite(server: Server) -> dict:
    """A Millionaire Elite table, shares held: its own moves (shares, insurance, the EXCHANGE,
    income, round tax)."""
    game = new_game(server, "millionaire-elite", ["Alexandra", "Bartholomew", "Małgorzata"])
    record(server, game, {"type": "shares", "player": "p1", "action": "buy", "count": 15})
    return game


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kept = os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS")
    out = Path(kept) if kept else tmp_path_factory.mktemp("touch-screens")
    out.mkdir(parents=True, exist_ok=True)
    return out


# The page's scroller (the body while the dock holds a toast or the banner) sent to `y`.
SCROLL = """(y) => {
  const docked = document.documentElement.classList.contains('docked');
  (docked ? document.body : document.scrollingElement).scrollTop = y;
}"""


# An element brought to the foot of the screen.
TO_THE_FOOT = "(el) => el.scrollIntoView({block: 'end'})"


def uncovered(page: Page, where: str, *, at_least: int = 5) -> list[str]:
    """What a toast or the banner covers at the page's scroll now, named for `where`, of the
    `at_least` controls on the screen (a player's card has five; the foot of a phone's page is
    the board, which has none)."""
    seen = page.evaluate(COVERED)
    assert seen["count"] >= at_least, f"{where}: only {seen['count']} controls on the screen"
    return [f"{where}: {line}" for line in seen["found"]]


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("width", WIDTHS)
def test_a_toast_covers_no_control_and_the_next_players_buttons_take_the_next_tap(
    browser: Browser,
    server: Server,
    screenshots: Path,
    request: pytest.FixtureRequest,
    width: int,
    locale: str,
) -> None:
    table = new_game(server, "classic", ["Alexandra", "Bartholomew", "Małgorzata"])
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    open_table(page, server, table)
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])

    # The next player's GO at the foot of the screen (as near as the page lets it); this one's
    # GO tapped.
    going = page.get_by_test_id("salary-p2")
    nxt = page.get_by_test_id("salary-p3")
    nxt.evaluate(TO_THE_FOOT)
    before = nxt.bounding_box()
    assert before is not None
    if width == 360:  # at the foot of a phone, where the toasts were (a wider table is shorter)
        assert before["y"] + before["height"] > HEIGHT[width] - 60, before
    going.click()
    toasts = page.locator("#toasts .toast")
    expect(toasts).to_have_count(1)
    page.evaluate(FRAMES)
    expect(page.get_by_test_id("cash-p2")).to_have_text(SEVENTEEN_HUNDRED)
    settled(page)

    # It shows above the page, not over it: the next player's GO where it was, and its own.
    after = nxt.bounding_box()
    assert after is not None
    assert abs(after["x"] - before["x"]) < 1 and abs(after["y"] - before["y"]) < 1, (before, after)
    x, y = centre(after)
    assert (
        page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('button')?.dataset.testid", [x, y]
        )
        == "salary-p3"
    )
    found = uncovered(page, "the next player's GO at the foot")
    page.screenshot(path=screenshots / f"touch-{width}-{locale[:2]}-toast.png")

    # The Undo: a button of its own, a finger wide and tall, apart from the close button.
    undo = toasts.locator("button[data-undo]").bounding_box()
    close = toasts.locator("button.close").bounding_box()
    assert undo is not None and close is not None
    assert undo["width"] >= TAP and undo["height"] >= TAP, undo
    assert close["width"] >= TAP and close["height"] >= TAP, close
    assert close["x"] - (undo["x"] + undo["width"]) >= 8, (undo, close)

    # The next tap, where the next player's GO was before the toast came: his salary.
    page.mouse.click(x, y)
    expect(toasts).to_have_count(2)
    page.evaluate(FRAMES)
    expect(page.get_by_test_id("cash-p3")).to_have_text(SEVENTEEN_HUNDRED)
    salaries = logged(server, table, "salary")
    paid = [(p["to"], p["amount"]) for txn in salaries for p in txn["postings"]]
    assert paid == [("p2", 200), ("p3", 200)]
    settled(page)

    # Two toasts now, the page at its top, at its foot and with a card in the middle.
    page.evaluate(SCROLL, 0)
    found += uncovered(page, "two toasts, the page at its top")
    page.evaluate(SCROLL, 10**6)
    found += uncovered(page, "two toasts, the page at its foot", at_least=0)
    card(page, "p2").evaluate("(el) => el.scrollIntoView({block: 'center'})")
    found += uncovered(page, "two toasts, a player's card in the middle")
    if width == 360:
        page.screenshot(path=screenshots / f"touch-{width}-{locale[:2]}-two-toasts.png")
    assert found == [], "\n".join([*found, f"pictures in {screenshots}"])

    # Gone, the page is the document's to scroll again, the screen as it was.
    page.evaluate(SCROLL, 0)
    page.evaluate("() => document.getElementById('toasts').replaceChildren()")
    page.evaluate(FRAMES)
    expect(page.locator("html.docked")).to_have_count(0)
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0


def test_a_toast_on_a_players_page_covers_no_control_of_it(
    browser: Browser, server: Server, screenshots: Path, request: pytest.FixtureRequest
) -> None:
    # A player's page (play.html) docks its toasts as the table does: on a 360 x 740 phone in
    # Russian, with the toast of a payment from the page, then two, the element at the centre
    # of every control the player can see is that control.
    table = new_game(server, "classic", ["Alexandra", "Bartholomew", "Małgorzata"])
    page = new_page(browser, request, locale="ru-RU")  # console_steps.PHONE: 360 x 740
    page.goto(f"{server.base}/play/{table['id']}#p=p2&token={table['tokens']['p2']}")
    cash = page.get_by_test_id("my-cash")
    expect(cash).to_have_text(money(page, 1500))
    toasts = page.locator("#toasts .toast")

    # Bartholomew pays the Bank 50, then 25 (docs/rules.md: 1500 at the start).
    found: list[str] = []
    for amount, left, shown in ((50, 1450, 1), (25, 1425, 2)):
        page.locator("input[name=amount]").fill(str(amount))
        page.get_by_test_id("pay").click()
        expect(toasts).to_have_count(shown)
        expect(cash).to_have_text(money(page, left))
        page.evaluate(FRAMES)
        settled(page)
        page.evaluate(SCROLL, 0)
        found += uncovered(page, f"{shown} toast(s), the page at its top")
        pay = page.get_by_test_id("pay")
        pay.evaluate(TO_THE_FOOT)
        found += uncovered(page, f"{shown} toast(s), Pay at the foot", at_least=1)
        pay.evaluate("(el) => el.scrollIntoView({block: 'center'})")
        found += uncovered(page, f"{shown} toast(s), Pay in the middle", at_least=1)
    page.screenshot(path=screenshots / "touch-360-ru-player-two-toasts.png")
    assert [p["amount"] for t in logged(server, table, "payment") for p in t["postings"]] == [
        50,
        25,
    ]
    assert found == [], "\n".join([*found, f"pictures in {screenshots}"])


# What api.js tells the page after each request: whether the server answered (offline.js).
REACHABLE = """async (up) => {
  const {reachability} = await import('/console/static/js/api.js');
  reachability.dispatchEvent(new Event(up ? 'up' : 'down'));
}"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_offline_banner_covers_no_control_and_moves_nothing_under_the_finger(
    browser: Browser,
    server: Server,
    screenshots: Path,
    request: pytest.FixtureRequest,
    width: int,
) -> None:
    table = new_game(server, "classic", ["Alexandra", "Bartholomew", "Małgorzata"])
    page = new_page(browser, request)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    open_table(page, server, table)
    nxt = page.get_by_test_id("salary-p3")
    nxt.evaluate(TO_THE_FOOT)
    before = nxt.bounding_box()

    # The table's own requests answered first: one still in flight would answer after the
    # "down" below and take the banner off again (the server answered: it is up), as it did
    # once in a fresh clone's run.
    settled(page)
    page.evaluate(REACHABLE, False)  # a request got no answer: the Wi-Fi gone
    banner = page.get_by_test_id("net-banner")
    expect(banner).to_be_visible()
    page.evaluate(FRAMES)
    assert nxt.bounding_box() == before
    found = uncovered(page, "offline, the next player's GO at the foot")
    page.screenshot(path=screenshots / f"touch-{width}-offline.png")
    page.evaluate(SCROLL, 0)
    found += uncovered(page, "offline, the page at its top")
    assert found == []

    page.evaluate(REACHABLE, True)
    expect(banner).to_have_count(0)
    page.evaluate(FRAMES)
    expect(page.locator("html.docked")).to_have_count(0)


# -- every control a finger wide -------------------------------------------------------------

# What the console shows while it fetches (the bankruptcy's breakdown), in the page's language.
LOADING = """async () => (await import('/console/static/js/i18n.js')).t('loading')"""

# Every <details> of the page open, so that what they hold is measured too.
OPEN_ALL = "() => { for (const d of document.querySelectorAll('details')) d.open = true; }"


def in_the_dialog(page: Page, loading: str) -> None:
    """Waits for the dialog just opened to hold what it fetches."""
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("h2").first).to_have_text(re.compile(r"\S"))
    expect(dialog.get_by_text(loading, exact=True)).to_have_count(0)


def close_dialog(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)


def every_move_of(
    page: Page, sizes: AtEachWidth, player: str, loading: str, *, prefix: str = "", lifts: str = ""
) -> None:
    """The sheet of a player's More… and every move of it, measured; with `lifts`, his
    bankruptcy to that player too (the lifts of his mortgaged deeds)."""
    more = card(page, player).locator(".quick.more")
    more.click()
    moves = page.locator("dialog[open] .sheet-btn").all_inner_texts()
    sizes.look(f"{prefix}more")
    close_dialog(page)
    for index, move in enumerate(moves):
        more.click()
        page.locator("dialog[open] .sheet-btn").nth(index).click()
        in_the_dialog(page, loading)
        sizes.look(prefix + move)
        dialog = page.locator("dialog[open]")
        creditor = dialog.locator("select[name=creditor]")
        if lifts and creditor.count() and dialog.locator(".liquidation").count():
            creditor.select_option(lifts)
            expect(dialog.locator(".check input[type=checkbox]")).not_to_have_count(0)
            sizes.look(f"{prefix}{move}, to a player")
        close_dialog(page)


# Each language's walk, once in a test process, by language.
_WALKED: dict[str, AtEachWidth] = {}


@pytest.fixture
def walked(
    browser: Browser,
    server: Server,
    game: dict,
    elite: dict,
    screenshots: Path,
    request: pytest.FixtureRequest,
) -> Callable[[str], AtEachWidth]:
    """Every screen and dialog of the console in a language, each measured at every width:
    walked once, the first time a test of the language asks (the walk only reads)."""

    def of(locale: str) -> AtEachWidth:
        if locale not in _WALKED:
            page = new_page(browser, request, locale=locale)
            _WALKED[locale] = walk(page, server, game, elite, screenshots, locale)
        return _WALKED[locale]

    return of


def walk(
    page: Page, server: Server, game: dict, elite: dict, screenshots: Path, locale: str
) -> AtEachWidth:
    page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT[WIDTHS[0]]})
    open_table(page, server, game)
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    expect(page.locator("[data-testid=disputes] li.dispute")).to_have_count(1)
    sizes = AtEachWidth(page, screenshots, locale[:2], SMALL)
    loading = page.evaluate(LOADING)
    sizes.look("table")

    # Every move of the player with houses and a mortgaged railroad, and of the table.
    every_move_of(page, sizes, "p2", loading, lifts="p1")
    table_moves = page.locator(".table-actions .moves button")
    for index, move in enumerate(table_moves.all_inner_texts()):
        table_moves.nth(index).click()
        in_the_dialog(page, loading)
        railroad = page.locator("dialog[open] .tile[data-deed=pennsylvania-railroad]")
        if railroad.count():  # a trade: the mortgaged railroad received, its lift's checkbox
            railroad.first.click()
            expect(page.locator("dialog[open] .check input[type=checkbox]")).not_to_have_count(0)
        sizes.look(f"table: {move}")
        close_dialog(page)
    assert page.locator(".table-actions .moves button").count() >= 4
    for verdict in ("void", "uphold"):  # the disputed rent voided or upheld, with a reason
        page.locator(f"[data-testid^=dispute-{verdict}-]").click()
        in_the_dialog(page, loading)
        sizes.look(f"dispute: {verdict}")
        close_dialog(page)

    # The game's other screens, every row of the history open.
    for view in ("players", "history", "replay"):
        goto(page, f"{server.base}/#/g/{game['id']}/{view}")
        expect(page.locator(f"nav a[href$='/{view}'][aria-current=page]")).to_have_count(1)
        settled(page)
        page.evaluate(OPEN_ALL)
        sizes.look(view)

    # A Millionaire Elite table and its moves: the shares, insurance, the EXCHANGE...
    open_table(page, server, elite)
    sizes.look("elite table")
    every_move_of(page, sizes, "p1", loading, prefix="elite: ")

    # A new short game dealt at the table: the options, the seats, the deed pickers, its own box.
    goto(page, f"{server.base}/#/new")
    expect(page.get_by_test_id("create-game")).to_be_visible()
    page.locator("select[name=ruleset]").select_option("short")
    page.locator("#deal-at-table").check()
    expect(page.locator(".deal .tile").first).to_be_visible()
    page.locator("#own-box").check()  # and its own box's money fields
    expect(page.locator("input[name=starting_cash]")).to_be_visible()
    sizes.look("new game")
    page.goto(f"{server.base}/#/")
    expect(page.locator(".game-list li")).to_have_count(1)
    sizes.look("start")

    # A player's page, its forms open.
    page.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    expect(page.get_by_test_id("my-cash")).to_be_visible()
    settled(page)
    page.evaluate(OPEN_ALL)
    sizes.look("player's page")

    return sizes


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_control_is_44_px_by_44_at_least(
    walked: Callable[[str], AtEachWidth], width: int, locale: str
) -> None:
    sizes = walked(locale)

    # The table, the sheet and its moves, the table's, 2 disputes', Elite's table, sheet and
    # moves, 7 screens.
    assert sizes.count >= 40
    assert sizes.found[width] == {}, sizes.report(width)
