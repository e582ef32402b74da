"""Dark mode and the app on the home screen (issue 22), in Debian's chromium against a real
``tablebank serve``, at a phone's, a tablet's and a laptop's width, each in a language of its
own (English, Russian, Polish):

- a device whose scheme is dark gets the dark theme (its ground and ink, read off the computed
  styles), before any of the console's modules has run; the main pairs of ink and ground hold
  WCAG AA's 4.5:1 in both themes (the page's, a card's, a button's, a problem's, a warning's,
  a toast's, a link's, a quote's), and every player's colour reads as text on a card;
- the switch beside the language menu (a touch target of 44 by 44 px) overrides the device's
  scheme, and its choice outlives a reload; "auto" gives the device its say back;
- the manifest the pages link is served, parses and has what a home screen needs, and both of
  its icons load at the sizes it declares; a player's page links its game's own manifest, which
  names the app after the game.

Needs what tests/e2e/test_console.py needs (Playwright for Python, Debian's chromium); without
them these tests skip, unless TABLEBANK_REQUIRE_ALL=1 makes that a failure.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_steps import goto, more, new_game, new_page, open_table, record, settled, words
from layout import HEIGHT, SPREAD, TAP
from server import Server

pytestmark = pytest.mark.e2e

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, Route, expect

# The themes' grounds and inks (console.css: --bg, --card, --ink), as computed styles give them.
LIGHT = {"bg": "rgb(243, 244, 241)", "card": "rgb(255, 255, 255)", "ink": "rgb(28, 25, 23)"}
DARK = {"bg": "rgb(12, 10, 9)", "card": "rgb(28, 25, 23)", "ink": "rgb(245, 245, 244)"}
AA = 4.5  # WCAG 2.x, level AA: normal text on its background
NON_TEXT = 3.0  # WCAG 1.4.11: a swatch or a mark beside the text it stands for

# The page's ground and ink, and the theme <html> is in.
PAINTED = """() => {
  const root = getComputedStyle(document.documentElement);
  return {theme: document.documentElement.dataset.theme, bg: root.backgroundColor, ink: root.color};
}"""

# The main pairs of ink and ground as the stylesheet paints them: an element of each kind is
# put on the page (a problem box, a toast…), and its colour is read with the ground it shows
# on (its own background, else the first of its ancestors that has one).
PAIRS = """() => {
  const main = document.getElementById('main');
  const box = document.createElement('section');
  box.className = 'card';
  main.prepend(box);
  const make = (tag, cls, parent = box) => {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = 'Alexandra $1,500';
    parent.append(el);
    return el;
  };
  const problem = make('div', 'problem');
  const toast = make('div', 'toast');
  const made = {
    'card text': make('p', ''),
    'muted text': make('p', 'muted'),
    'link': make('a', ''),
    'button': make('button', ''),
    'secondary button': make('button', 'secondary'),
    'primary button': make('button', 'primary'),
    'danger button': make('button', 'danger'),
    'gain': make('span', 'pos'),
    'loss': make('span', 'neg'),
    'problem': problem,
    'problem title': make('p', 'problem-title', problem),
    'warning': make('p', 'warn'),
    'ok': make('p', 'ok'),
    'banner': make('p', 'banner'),
    'badge': make('span', 'badge'),
    'quote': make('div', 'preview quote'),
    'text field': make('input', ''),
    'toast': toast,
    'toast undo': make('button', 'link', toast),
    'toast error': make('div', 'toast toast-error'),
    'hint': make('p', 'hint'),
  };
  const ground = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const bg = getComputedStyle(at).backgroundColor;
      if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const pairs = Object.fromEntries(Object.entries(made).map(([name, el]) =>
    [name, [getComputedStyle(el).color, ground(el)]]));
  const players = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => {
    const el = make('span', `pc${n}`);
    el.classList.add('owner');
    return getComputedStyle(el).getPropertyValue('--pc').trim();
  });
  const card = getComputedStyle(box).backgroundColor;
  const groups = ['brown', 'light-blue', 'pink', 'orange', 'red', 'yellow', 'green', 'dark-blue',
    'railroad', 'utility', 'central', 'x9'].map((g) => {
    const el = make('span', `swatch g-${g}`);
    return [g, getComputedStyle(el).backgroundColor];
  });
  box.remove();
  return {pairs, players, groups, card};
}"""


def rgb(colour: str) -> tuple[float, float, float]:
    """'rgb(1, 2, 3)' or '#010203' as channels of 0 to 1."""
    colour = colour.strip()
    if colour.startswith("#"):
        return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    inside = colour[colour.index("(") + 1 : colour.index(")")].replace(",", " ").split()
    assert len(inside) == 3 or inside[3] in ("1", "/"), f"a colour with transparency: {colour}"
    return tuple(float(n) / 255 for n in inside[:3])  # type: ignore[return-value]


def luminance(colour: str) -> float:
    """WCAG 2.x relative luminance."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG 2.x contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_wcags_ratio() -> None:
    # The measure itself, on WCAG's own end points and a pair worked out by hand:
    # #777777 is 0.1845 of white's luminance, (1.05) / (0.2345) = 4.48.
    assert contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)") == pytest.approx(21)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.fixture(scope="module")
def game(server: Server) -> dict:
    """A classic table with a little on it: a house, a mortgage, a payment, for the replay."""
    game = new_game(
        server, "classic", ["Alexandra", "Bartholomew", "Małgorzata"], name="Evening game"
    )
    for body in (
        {"type": "buy", "player": "p1", "property": "mediterranean-avenue"},
        {"type": "buy", "player": "p1", "property": "baltic-avenue"},
        {"type": "build", "orders": [{"property": "baltic-avenue"}]},
        {"type": "buy", "player": "p2", "property": "reading-railroad"},
        {"type": "mortgage", "property": "reading-railroad"},
        {"type": "payment", "from": "p3", "to": "p1", "amount": 50},
    ):
        record(server, game, body)
    return game


def themed_page(
    browser: Browser,
    request: pytest.FixtureRequest,
    width: int,
    scheme: str,
    locale: str = "en-US",
) -> Page:
    """A watched page (console_steps.new_page) at ``width`` on a device whose scheme is
    ``scheme``, in ``locale``."""
    page = new_page(browser, request, locale=locale)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    return page


# The theme-color metas in force: the colour a phone gives its status bar.
THEME_COLOUR = """() => [...document.querySelectorAll('meta[name="theme-color"]')]
  .filter((m) => matchMedia(m.getAttribute('media') || 'all').matches).map((m) => m.content)"""


def painted(page: Page) -> dict[str, str]:
    return page.evaluate(PAINTED)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("width", "locale"), SPREAD)
def test_a_dark_device_gets_the_dark_theme_whose_text_reads_at_4_5_to_1(
    browser: Browser,
    request: pytest.FixtureRequest,
    server: Server,
    game: dict,
    width: int,
    locale: str,
) -> None:
    page = themed_page(browser, request, width, "dark", locale)
    open_table(page, server, game)
    assert painted(page) == {"theme": "dark", "bg": DARK["bg"], "ink": DARK["ink"]}
    card = page.locator("article.player[data-player=p1]")
    assert card.evaluate("el => getComputedStyle(el).backgroundColor") == DARK["card"]
    # 18.1:1 on the page, 16.0:1 on a card (#f5f5f4 on #0c0a09 and on #1c1917).
    assert contrast(DARK["ink"], DARK["bg"]) == pytest.approx(18.1, abs=0.05)
    assert contrast(DARK["ink"], DARK["card"]) == pytest.approx(16.0, abs=0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_main_pairs_of_ink_and_ground_hold_4_5_to_1_in_each_theme(
    browser: Browser, request: pytest.FixtureRequest, server: Server, game: dict, scheme: str
) -> None:
    page = themed_page(browser, request, 360, scheme)
    open_table(page, server, game)
    assert painted(page)["theme"] == scheme
    found = page.evaluate(PAIRS)
    low = {
        name: round(contrast(ink, ground), 2)
        for name, (ink, ground) in found["pairs"].items()
        if contrast(ink, ground) < AA
    }
    assert low == {}, f"under {AA}:1 in the {scheme} theme"
    # A player's name is written in her colour (the deeds' owners, the replay's lines).
    players = {n: round(contrast(c, found["card"]), 2) for n, c in enumerate(found["players"], 1)}
    assert min(players.values()) >= AA, players
    if scheme == "dark":
        # Each group's swatch stands off the card it is drawn on (in the light theme the
        # yellow, as on the board, leans on the swatch's outline).
        groups = {g: round(contrast(c, found["card"]), 2) for g, c in found["groups"]}
        assert min(groups.values()) >= NON_TEXT, groups


@pytest.mark.parametrize(("width", "locale"), SPREAD)
def test_the_switch_to_light_overrides_a_dark_device_and_outlives_a_reload(
    browser: Browser,
    request: pytest.FixtureRequest,
    server: Server,
    game: dict,
    width: int,
    locale: str,
) -> None:
    page = themed_page(browser, request, width, "dark", locale)
    open_table(page, server, game)
    switch = page.get_by_test_id("theme-switch")
    expect(switch).to_have_value("auto")
    box = switch.bounding_box()
    assert box is not None
    assert box["width"] >= TAP and box["height"] >= TAP, box
    # Beside the language menu, in the top bar.
    assert page.locator(".brand-row > .lang-box + .theme-box").count() == 1
    switch.select_option("light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert painted(page) == {"theme": "light", "bg": LIGHT["bg"], "ink": LIGHT["ink"]}
    page.reload()
    expect(page.get_by_test_id("cash-p1")).to_be_visible()
    assert painted(page) == {"theme": "light", "bg": LIGHT["bg"], "ink": LIGHT["ink"]}
    # The phone's status bar takes the light theme's green (--brand), the dark scheme aside.
    assert page.evaluate(THEME_COLOUR) == ["#14532d"]
    expect(page.get_by_test_id("theme-switch")).to_have_value("light")
    assert page.evaluate("localStorage.getItem('tablebank.theme')") == "light"
    # "Auto" hands the choice back to the device, which is dark; and follows it when it turns.
    page.get_by_test_id("theme-switch").select_option("auto")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_the_switch_speaks_the_consoles_language(
    browser: Browser, request: pytest.FixtureRequest, server: Server, game: dict
) -> None:
    page = themed_page(browser, request, 360, "light")
    open_table(page, server, game)
    for code, label, options in (
        ("ru", "Тема", ["Авто", "Светлая", "Тёмная"]),
        ("pl", "Motyw", ["Auto", "Jasny", "Ciemny"]),
        ("en", "Theme", ["Auto", "Light", "Dark"]),
    ):
        page.locator("#lang-switch").select_option(code)
        # The top bar is drawn again in the chosen language.
        expect(page.locator("label[for=theme-switch]")).to_have_text(label)
        expect(page.get_by_test_id("theme-switch").locator("option")).to_have_text(options)


@pytest.fixture
def held_module() -> Iterator[list[Route]]:
    """The routes of the banker's module script, held unanswered while the test looks."""
    held: list[Route] = []
    yield held
    for route in held:
        with contextlib.suppress(Exception):  # the page may be gone with its context
            route.continue_()


def test_the_theme_is_in_force_before_any_module_of_the_console_runs(
    browser: Browser,
    request: pytest.FixtureRequest,
    server: Server,
    held_module: list[Route],
) -> None:
    page = themed_page(browser, request, 360, "light")
    # Dark chosen on this device; the page opened for the first time, so that no service worker
    # (registered by the console's script) fetches that script past the route.
    page.add_init_script("localStorage.setItem('tablebank.theme', 'dark')")
    # The console's script held: what shows meanwhile is what the first paint shows.
    page.route("**/console/static/js/banker.js", lambda route: held_module.append(route))
    # A module is deferred: the page is parsed to its end while its script is held.
    page.goto(server.base + "/", wait_until="commit")
    page.wait_for_function("() => document.getElementById('toasts')")
    deadline = time.monotonic() + 10
    while not held_module:  # the route's handler is called as Playwright delivers the event
        assert time.monotonic() < deadline, "the banker's script was never asked for"
        page.wait_for_timeout(20)
    assert page.locator("#top").evaluate("el => el.childElementCount") == 0  # no module ran
    assert painted(page) == {"theme": "dark", "bg": DARK["bg"], "ink": DARK["ink"]}
    assert page.locator('meta[name="color-scheme"]').get_attribute("content") == "dark"


MANIFEST = """async (url) => {
  const answer = await fetch(url);
  const manifest = await answer.json();
  const icons = await Promise.all(manifest.icons.map(async (icon) => {
    const img = new Image();
    img.src = icon.src;
    await img.decode();
    const loaded = `${img.naturalWidth}x${img.naturalHeight}`;
    return {sizes: icon.sizes, purpose: icon.purpose, loaded};
  }));
  return {type: answer.headers.get('content-type'), manifest, icons};
}"""


@pytest.mark.parametrize(("width", "locale"), SPREAD)
def test_the_manifest_the_bankers_page_links_is_served_with_icons_that_load(
    browser: Browser, request: pytest.FixtureRequest, server: Server, width: int, locale: str
) -> None:
    page = themed_page(browser, request, width, "dark", locale)
    page.goto(server.base + "/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    found = page.evaluate(MANIFEST, href)
    assert found["type"] == "application/manifest+json"
    manifest = found["manifest"]
    assert {key: manifest[key] for key in ("name", "short_name", "start_url", "display")} == {
        "name": "tablebank",
        "short_name": "tablebank",
        "start_url": "/",
        "display": "standalone",
    }
    assert manifest["background_color"] == "#f3f4f1"
    assert manifest["theme_color"] == "#14532d"
    assert found["icons"] == [
        {"sizes": "192x192", "purpose": "any", "loaded": "192x192"},
        {"sizes": "512x512", "purpose": "any", "loaded": "512x512"},
        {"sizes": "512x512", "purpose": "maskable", "loaded": "512x512"},
    ]
    # The status bar's colour of the theme in force (the dark one here).
    assert page.evaluate(THEME_COLOUR) == ["#0f3320"]


def test_a_players_page_links_its_games_own_manifest(
    browser: Browser, request: pytest.FixtureRequest, server: Server, game: dict
) -> None:
    page = themed_page(browser, request, 360, "dark")
    page.goto(f"{server.base}/play/{game['id']}#p=p2&token={game['tokens']['p2']}")
    expect(page.get_by_text("Bartholomew").first).to_be_visible()
    # Its app named after the game (issue 29): two games' apps on one phone are told apart.
    link = page.locator('link[rel="manifest"]')
    expect(link).to_have_attribute(
        "href", f"/play/{game['id']}/manifest.webmanifest?name=Evening%20game"
    )
    found = page.evaluate(MANIFEST, link.get_attribute("href"))
    assert found["type"] == "application/manifest+json"
    assert found["manifest"]["start_url"] == f"/play/{game['id']}"
    assert found["manifest"]["name"] == "Evening game · tablebank"
    assert found["manifest"]["short_name"] == "Evening game"
    assert "token" not in str(found["manifest"])
    assert [icon["loaded"] for icon in found["icons"]] == ["192x192", "512x512", "512x512"]
    assert painted(page)["bg"] == DARK["bg"]
    # The player finds the switch where the banker does, beside the language menu.
    switch = page.locator(".brand-row > .lang-box + .theme-box [data-testid=theme-switch]")
    expect(switch).to_be_visible()


@pytest.mark.parametrize(
    ("width", "size", "locale"),
    [
        (360, "phone", "en-US"),  # docs/console.md's pictures, which are English
        (1280, "laptop", "en-US"),
        (360, "phone", "ru-RU"),
        (768, "tablet", "pl-PL"),
    ],
)
def test_the_table_a_dialog_and_the_replay_are_drawn_in_the_dark(
    browser: Browser,
    request: pytest.FixtureRequest,
    server: Server,
    game: dict,
    tmp_path: Path,
    width: int,
    size: str,
    locale: str,
) -> None:
    # With TABLEBANK_SCREENSHOTS=docs/screenshots the dark pictures of docs/console.md, in
    # English, are saved; the other languages' are looked at here only.
    kept = os.environ.get("TABLEBANK_SCREENSHOTS") if locale == "en-US" else None
    out = Path(kept or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    page = themed_page(browser, request, width, "dark", locale)
    open_table(page, server, game)
    settled(page)
    page.screenshot(path=out / f"dark-table-{size}.png")
    dialog = more(page, "p1", words(page, "a_payment"))
    expect(dialog.locator("select[name=to]")).to_be_visible()
    colours = dialog.evaluate(
        "el => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]"
    )
    assert colours == [DARK["card"], DARK["ink"]]
    page.screenshot(path=out / f"dark-dialog-{size}.png")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    goto(page, f"{server.base}/#/g/{game['id']}/replay")
    # The net worth chart, not the statistics' chart of the deeds (.stats-chart) under it.
    markers = page.locator(".chart:not(.stats-chart) .uplot .u-legend .u-series .u-marker")
    expect(markers).to_have_count(4)  # the steps' column and the three players
    # Alexandra's line is her colour of the dark theme (--p1), and of the light one once chosen.
    marker = "el => getComputedStyle(el).borderColor"
    assert markers.nth(1).evaluate(marker) == "rgb(96, 165, 250)"  # #60a5fa
    page.screenshot(path=out / f"dark-replay-{size}.png", full_page=True)
    page.get_by_test_id("theme-switch").select_option("light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelectorAll("
        "'.chart:not(.stats-chart) .u-legend .u-marker')[1]).borderColor"
        " === 'rgb(29, 78, 216)'"  # #1d4ed8
    )
