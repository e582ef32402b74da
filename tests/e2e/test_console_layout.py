"""The console's layout at a phone's, a tablet's and a laptop's width, in English, Russian and
Polish: on the table and in every dialog a player's "More…" and the table's moves open, no
visible control is clipped, overlaps another or runs off the screen, no deed name is broken
inside a word, and the quick buttons are touch targets (44 px by 44 px at least).

Needs what tests/e2e/test_console.py needs (Playwright for Python, /usr/bin/chromium); without
them these tests skip, unless TABLEBANK_REQUIRE_ALL=1 makes that a failure. The tables, and
any screen with an offender, are saved as pictures to look at by eye (the failure names them),
in a temporary directory; TABLEBANK_LAYOUT_SCREENSHOTS=<dir> saves every screen there.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from console_steps import card, new_game, new_page, open_table, record
from layout import HEIGHT, OFFENDERS, WIDTHS, AtEachWidth
from server import Server

pytestmark = pytest.mark.e2e


# Without Playwright, browser.chromium() skips (or fails under TABLEBANK_REQUIRE_ALL=1).
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def game(server: Server) -> dict:
    """A classic table every screen has something on: three players with long-ish names,
    streets with houses, a mortgaged railroad, a jail card, an IOU, a pot and a turn."""
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
        {"type": "build", "orders": [{"property": "boardwalk"}]},
        {"type": "jail_card", "player": "p1", "action": "draw", "deck": "chance"},
        *({"type": "buy", "player": "p2", "property": deed} for deed in orange),
        {"type": "build", "orders": [{"property": deed} for deed in orange]},
        {"type": "buy", "player": "p2", "property": "pennsylvania-railroad"},
        {"type": "mortgage", "property": "pennsylvania-railroad"},
        {"type": "buy", "player": "p3", "property": "electric-company"},
        {"type": "buy", "player": "p3", "property": "kentucky-avenue"},
        {"type": "iou", "debtor": "p3", "creditor": "p1", "amount": 50},
        {"type": "payment", "from": "p3", "to": "pot", "amount": 50},
        {"type": "go_to_jail", "player": "p3"},
        {"type": "turn", "player": "p2"},
    ):
        record(server, game, body)
    return game


@pytest.fixture(scope="module")
def elite(server: Server) -> dict:
    """A Millionaire Elite table: its income button holds a word and a figure ("+500 фанты")."""
    game = new_game(server, "millionaire-elite", ["Alexandra", "Bartholomew", "Małgorzata"])
    # 200 + 20 % of 15 shares at 100 = 500, written on Alexandra's income button.
    record(server, game, {"type": "shares", "player": "p1", "action": "buy", "count": 15})
    return game


# -- the measure -------------------------------------------------------------------------

# OFFENDERS (layout.py) finds what is wrong with a screen.

# What the console shows while it fetches (the bankruptcy's breakdown), in the page's language.
LOADING = """async () => (await import('/console/static/js/i18n.js')).t('loading')"""

# The longest deed name among the tiles a dialog offers: picked, it fills the previews and the
# buttons that name it ("Buy Pennsylvania Avenue $320").
LONGEST_TILE = """() => {
  const tiles = [...document.querySelectorAll('dialog[open] .tile')];
  if (!tiles.length) return null;
  const longest = tiles.reduce((a, b) => (b.innerText.length > a.innerText.length ? b : a));
  return longest.dataset.deed;
}"""


# From the top: what has scrolled under a dialog's sticky head is not an overlap.
TO_THE_TOP = "() => { const d = document.querySelector('dialog[open]'); if (d) d.scrollTop = 0; }"


def open_and_look(page: Page, screens: AtEachWidth, name: str, loading: str) -> None:
    """The dialog just opened, with its longest-named deed picked, looked at; then closed."""
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("h2").first).to_have_text(re.compile(r"\S"))
    expect(dialog.get_by_text(loading, exact=True)).to_have_count(0)  # what it fetches is in
    deed = page.evaluate(LONGEST_TILE)
    if deed:
        dialog.locator(f".tile[data-deed={deed}]").first.click()
    screens.look(name)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kept = os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS")
    out = Path(kept) if kept else tmp_path_factory.mktemp("layout-screens")
    out.mkdir(parents=True, exist_ok=True)
    return out


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
    """The table, its sheet and every dialog of its moves in a language, each measured at
    every width: walked once, the first time a test of the language asks (the walk reads)."""

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
    expect(page.locator(".quick")).to_have_count(3 * 5)  # GO, rent, buy, pay, more each
    every = bool(os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS"))
    screens = AtEachWidth(page, screenshots, locale[:2], OFFENDERS, before=TO_THE_TOP, every=every)
    loading = page.evaluate(LOADING)
    screens.look("table", picture=True)

    # The sheet of moves of the player whose groups hold houses and a mortgaged railroad.
    more = card(page, "p2").locator(".quick.more")
    more.click()
    moves = page.locator("dialog[open] .sheet-btn").all_inner_texts()
    screens.look("more")
    page.keyboard.press("Escape")
    for index, move in enumerate(moves):
        more.click()
        page.locator("dialog[open] .sheet-btn").nth(index).click()
        open_and_look(page, screens, move, loading)
    table_moves = page.locator(".table-actions .moves button")
    for index, move in enumerate(table_moves.all_inner_texts()):
        table_moves.nth(index).click()
        open_and_look(page, screens, move, loading)
    open_table(page, server, elite)
    screens.look("elite table", picture=True)
    return screens


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
@pytest.mark.parametrize("width", WIDTHS)
def test_no_control_is_clipped_overlapped_or_cut_off_on_the_table_and_in_its_dialogs(
    walked: Callable[[str], AtEachWidth], width: int, locale: str
) -> None:
    screens = walked(locale)

    assert screens.count >= 19  # the tables, the sheet, its 13 moves and the table's 4
    assert screens.found[width] == {}, screens.report(width)
