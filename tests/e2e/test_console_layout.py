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
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import chromium
from console_steps import card, new_game, new_page, open_table, record
from server import Server, serving
from stores import Store

pytestmark = pytest.mark.e2e

WAIT_MS = 10_000
HEIGHT = {360: 740, 768: 1024, 1280: 800}
TAP = 44  # px: the smallest touch target a quick button may be


# Without Playwright, browser.chromium() skips (or fails under TABLEBANK_REQUIRE_ALL=1).
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, store: Store) -> Iterator[Server]:
    with serving(store, tmp_path_factory.mktemp("console-layout")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium(WAIT_MS) as browser:
        yield browser


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

# Every visible control of the open dialog (else of the page), and what is wrong with it:
# - clipped: its content is wider (or taller) than its box (scrollWidth > clientWidth + 1),
#   a text field aside (a long link scrolls inside its field);
# - a word broken: a word of a deed's name or of a button's label split over two lines;
# - hidden by its container: it reaches past an ancestor that hides what overflows;
# - cut off: it reaches past the edge of the screen (a horizontal scroller's content aside);
# - overlapping: two controls' boxes intersect (neither holding the other);
# - small: a quick button under 44 px by 44 px;
# - the page (or the dialog) scrolls sideways.
OFFENDERS = r"""(tap) => {
  const dialog = document.querySelector('dialog[open]');
  const root = dialog || document.body;
  const screen = document.documentElement.clientWidth;
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, label, summary,'
    + ' .tile, .tile-name, .tile-sub, .chip, .chip-name';
  const INTERACTIVE = 'button, a[href], input:not([type=hidden]), select, textarea, summary, label';
  const WORDS = '.tile-name, .chip-name, button';
  const shown = (el) => {
    if (!el.getClientRects().length || el.closest('.sr-only, .skip-link, [hidden]')) return false;
    if (getComputedStyle(el).visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const what = (el) => {
    const r = el.getBoundingClientRect();
    const cls = typeof el.className === 'string' && el.className.trim()
      ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 48);
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    return `${el.tagName.toLowerCase()}${cls} "${text}" ${size}`;
  };
  const controls = [...root.querySelectorAll(CONTROLS)].filter(shown);
  const found = [];
  for (const el of controls) {
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (style.display !== 'inline' && !el.matches('input, textarea')) {
      if (el.scrollWidth > el.clientWidth + 1) {
        found.push(`clipped: ${what(el)}: ${el.scrollWidth} px wide inside ${el.clientWidth}`);
      }
      if (el.scrollHeight > el.clientHeight + 1) {
        found.push(`clipped: ${what(el)}: ${el.scrollHeight} px tall inside ${el.clientHeight}`);
      }
    }
    let inScroller = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (a === dialog) break;
      const overflow = getComputedStyle(a).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') { inScroller = true; break; }
      if (overflow === 'hidden' || overflow === 'clip') {
        const box = a.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) {
          found.push(`hidden by its container: ${what(el)} in ${what(a)}`);
        }
      }
    }
    if (!inScroller && (r.left < -1 || r.right > screen + 1)) {
      const span = `${Math.round(r.left)}..${Math.round(r.right)}`;
      found.push(`cut off: ${what(el)} spans ${span} px of ${screen}`);
    }
  }
  for (const el of root.querySelectorAll(WORDS)) {
    if (!shown(el)) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.sr-only')) continue;
      for (const m of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((q) => Math.round(q.top)));
        if (tops.size > 1) found.push(`a word broken: "${m[0]}" in ${what(el)}`);
      }
    }
  }
  // What a scroller shows of a control: its box cut to every ancestor that clips (a deed
  // picker scrolled, the dialog); a control scrolled out of sight overlaps nothing.
  const seen = (el) => {
    let {left, top, right, bottom} = el.getBoundingClientRect();
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      left = Math.max(left, box.left);
      top = Math.max(top, box.top);
      right = Math.min(right, box.right);
      bottom = Math.min(bottom, box.bottom);
    }
    return {left, top, right, bottom};
  };
  const boxes = [...root.querySelectorAll(INTERACTIVE)].filter(shown)
    .map((el) => [el, seen(el)]).filter(([, r]) => r.right - r.left > 1 && r.bottom - r.top > 1);
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i][1];
    for (let j = i + 1; j < boxes.length; j++) {
      if (boxes[i][0].contains(boxes[j][0]) || boxes[j][0].contains(boxes[i][0])) continue;
      const b = boxes[j][1];
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 1 && down > 1) {
        found.push(`overlapping: ${what(boxes[i][0])} and ${what(boxes[j][0])}`);
      }
    }
  }
  for (const el of root.querySelectorAll('.quick')) {
    const r = el.getBoundingClientRect();
    if (shown(el) && (r.width < tap || r.height < tap)) found.push(`small: ${what(el)}`);
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth + 1) {
    found.push(`the page scrolls sideways: ${page.scrollWidth} px wide on ${page.clientWidth}`);
  }
  if (dialog && dialog.scrollWidth > dialog.clientWidth + 1) {
    found.push(`the dialog scrolls sideways: ${dialog.scrollWidth} px in ${dialog.clientWidth}`);
  }
  return found;
}"""

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


class Screens:
    """The offenders of each screen looked at; its picture where asked, or where found."""

    def __init__(self, page: Page, out: Path, prefix: str, *, every: bool) -> None:
        self.page = page
        self.out = out
        self.prefix = prefix
        self.every = every
        self.offenders: dict[str, list[str]] = {}
        self.count = 0

    def look(self, name: str, *, picture: bool = False) -> None:
        self.count += 1
        self.page.evaluate(TO_THE_TOP)
        found = self.page.evaluate(OFFENDERS, TAP)
        if found:
            self.offenders[name] = found
        if found or picture or self.every:
            slug = re.sub(r"\W+", "-", name).strip("-").lower()
            path = self.out / f"{self.prefix}-{self.count:02d}-{slug}.png"
            # A table in full; a dialog as the banker sees it, its own scroller at the top.
            self.page.screenshot(path=path, full_page=not self.page.locator("dialog[open]").count())

    def report(self) -> str:
        lines = [f"{name}: {line}" for name, found in self.offenders.items() for line in found]
        return "\n".join([f"at {self.prefix}:", *lines, f"pictures in {self.out}"])


def open_and_look(page: Page, screens: Screens, name: str, loading: str) -> None:
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


@pytest.mark.parametrize("locale", ["en-US", "ru-RU", "pl-PL"])
@pytest.mark.parametrize("width", [360, 768, 1280])
def test_no_control_is_clipped_overlapped_or_cut_off_on_the_table_and_in_its_dialogs(
    browser: Browser,
    server: Server,
    game: dict,
    elite: dict,
    screenshots: Path,
    request: pytest.FixtureRequest,
    width: int,
    locale: str,
) -> None:
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    open_table(page, server, game)
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    expect(page.locator(".quick")).to_have_count(3 * 5)  # GO, rent, buy, pay, more each
    every = bool(os.environ.get("TABLEBANK_LAYOUT_SCREENSHOTS"))
    screens = Screens(page, screenshots, f"{width}-{locale[:2]}", every=every)
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

    assert screens.count >= 19  # the tables, the sheet, its 13 moves and the table's 4
    assert screens.offenders == {}, screens.report()
