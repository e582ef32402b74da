"""Steps the console's browser tests share: a watched page, a game made through the API and
opened on the banker's device, a player's card and the sheet of moves behind its "More…";
and what a screen in Russian or Polish may not show (an English word, a raw id, a Latin letter
in Russian), for test_console_words.py and test_console_family_game.py.

Imported as ``from console_steps import ...`` (pytest puts ``tests/e2e`` on the path).
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from pathlib import Path
from typing import Any

import pytest
from server import Server

# Without Playwright, browser.chromium() skips (or fails under TABLEBANK_REQUIRE_ALL=1).
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
    from playwright.sync_api import Error as PlaywrightError

PHONE = {"width": 360, "height": 740}
SETTLE_TIMEOUT = 30.0  # seconds, as Playwright's own wait for networkidle

# Each page's requests in flight but its game's event stream, which stays open as long as the
# page follows the game (so Playwright's "networkidle" never comes): for settled().
_IN_FLIGHT: dict[Any, set[Any]] = {}

# The work a page of `new_page` has started and not finished, counted by the page itself for
# settled(): each fetch until its answer's body is read (but the game's event stream, open as
# long as the page follows the game), and each timer of SHORT_TIMER_MS or less until it fires
# or is cleared (a quote asked 150 ms after the last key, a button given back after a write, a
# retry's pause). A toast's life, the player's page's 2 s poll and the stream's silence are
# longer, and are no work a test waits for. Installed before the console's own scripts run.
SHORT_TIMER_MS = 1000
PENDING = """(() => {
  const timers = new Set();
  let fetches = 0;
  const setTimer = window.setTimeout.bind(window), clearTimer = window.clearTimeout.bind(window);
  window.setTimeout = (fn, ms, ...args) => {
    const id = setTimer((...a) => { timers.delete(id); return fn(...a); }, ms, ...args);
    if (!(ms > SHORT_TIMER_MS)) timers.add(id);
    return id;
  };
  window.clearTimeout = (id) => { timers.delete(id); clearTimer(id); };
  const counted = (promise) => {
    fetches += 1;
    return promise.finally(() => { fetches -= 1; });
  };
  const fetchOf = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : (input && input.url) || String(input);
    const stream = url.split('?')[0].endsWith('/events');
    return stream ? fetchOf(input, init) : counted(fetchOf(input, init));
  };
  for (const read of ['json', 'text', 'blob', 'arrayBuffer']) {
    const body = Response.prototype[read];
    Response.prototype[read] = function () { return counted(body.call(this)); };
  }
  // The pocket bank's requests in its worker (pocket.js) count as fetches.
  const pocket = () => (window.__tbPocketWaiting ? window.__tbPocketWaiting() : 0);
  Object.defineProperty(window, '__tbPending', {value: () => [timers.size, fetches + pocket()]});
})();""".replace("SHORT_TIMER_MS", str(SHORT_TIMER_MS))


# The requests the pocket bundle's page hands its bank's Web Worker (pocket.js), which never
# reach the network: each POST to the API (but a dry run) told to the test with its
# Idempotency-Key, for ``new_page``'s check and ``pocket_writes``.
HANDED = """(() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'request' && message.method === 'POST'
        && message.path.startsWith('/api/v1/') && !message.path.includes('dry_run=true')) {
      window.__tbHanded(message.path, (message.headers || {})['idempotency-key'] || '');
    }
    return post.call(this, message, ...rest);
  };
})();"""
# Each page's POSTs handed to the pocket bank (``HANDED``): their paths and keys.
_HANDED: dict[Any, list[tuple[str, str]]] = {}


def new_page(
    browser: Browser, request: pytest.FixtureRequest, locale: str = "en-US", *, worker: bool = False
) -> Page:
    """A page in a context of its own, at a phone's width, ``watched``.

    The console's service worker (``sw.js``) runs only where the test asks for it
    (``worker=True``): the tests of what it is for (a reload with no server, a page opened
    offline, the pocket bank) and the families' whole games. Everywhere else it would only
    fetch and keep the console's 40-odd files again in each new context, which no test reads
    there: 0.3 s of chromium's and the server's CPU a test (test_console_variants.py, 16 tests:
    36.6 s of CPU with it, 29.9 s without). It never answers the API (sw.js)."""
    context = browser.new_context(
        viewport=PHONE, locale=locale, service_workers="allow" if worker else "block"
    )
    return watched(context, request)


def watched(context: BrowserContext, request: pytest.FixtureRequest) -> Page:
    """A new page of ``context``, which is closed at the end of the test; by then no script
    error and no Content-Security-Policy violation may have been reported, and every POST the
    console sent to the API carried an Idempotency-Key (but a dry run, which records nothing),
    over the network or handed to the pocket bank in the page (``HANDED``), but a new link."""
    context.add_init_script(PENDING)
    problems: list[str] = []
    handed: list[tuple[str, str]] = []
    context.expose_function("__tbHanded", lambda path, key: handed.append((path, key)))
    context.add_init_script(HANDED)
    page = context.new_page()
    _HANDED[page] = handed
    page.on(
        "request",
        lambda req: (
            problems.append(f"POST without an Idempotency-Key: {req.url}")
            if req.method == "POST"
            and "/api/v1/" in req.url
            and "dry_run=true" not in req.url
            # A new link takes no key: a repeat could not be answered with the same token
            # (only its hash is kept); it would make another (docs/api.md, "Administration").
            and "/tokens/" not in req.url
            and not req.headers.get("idempotency-key")
            else None
        ),
    )
    in_flight: set[Any] = set()
    _IN_FLIGHT[page] = in_flight
    page.on(
        "request",
        lambda req: None if req.url.split("?")[0].endswith("/events") else in_flight.add(req),
    )
    page.on("requestfinished", lambda req: in_flight.discard(req))
    page.on("requestfailed", lambda req: in_flight.discard(req))
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on(
        "console",
        lambda msg: (
            problems.append(msg.text)
            if msg.type == "error" and "Failed to load resource" not in msg.text
            else None
        ),
    )

    def finish() -> None:
        _IN_FLIGHT.pop(page, None)
        _HANDED.pop(page, None)
        context.close()
        problems.extend(
            f"POST without an Idempotency-Key to the pocket bank: {path}"
            for path, key in handed
            if not key
        )
        assert problems == []

    request.addfinalizer(finish)
    return page


def open_file(page: Page, file: Path) -> None:
    """The start screen's "Open a game's file", with ``file`` chosen."""
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("open-game-file").click()
    chooser.value.set_files(str(file))


def pocket_writes(page: Page) -> list[tuple[str, str]]:
    """The POSTs to the API (but dry runs) the page has handed its pocket bank so far: each
    one's path and Idempotency-Key."""
    return list(_HANDED[page])


def _pending(page: Page) -> tuple[int, int]:
    """The page's own short timers and fetches under way (``PENDING``); a page between two
    documents is busy."""
    try:
        timers, fetches = page.evaluate("() => window.__tbPending()")
    except PlaywrightError as err:
        if "context was destroyed" in str(err) or "navigat" in str(err):
            return 0, 1
        raise
    return int(timers), int(fetches)


def settled(page: Page, quiet_ms: int = 100) -> None:
    """Once the page has nothing under way: no request of a page from ``new_page`` in flight
    (the event stream left out, as "networkidle" cannot), no fetch or answer being read, and no
    short timer pending (``PENDING``), for ``quiet_ms`` on end, which covers the steps between
    an answer and what it starts next (a draw, an IndexedDB write). A short timer fires within
    ``SHORT_TIMER_MS``: one still pending well past that, with nothing else under way, is held by
    a clock the test installed (``page.clock``) and moves on only as the test moves it."""
    in_flight = _IN_FLIGHT[page]
    deadline = time.monotonic() + SETTLE_TIMEOUT
    quiet_since: float | None = None
    timers_alone_since: float | None = None
    while True:
        now = time.monotonic()
        timers, fetches = _pending(page)
        if in_flight or fetches or not timers:
            timers_alone_since = None
        elif timers_alone_since is None:
            timers_alone_since = now
        held = timers_alone_since is not None and now - timers_alone_since > SHORT_TIMER_MS / 500
        if in_flight or fetches or (timers and not held):
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= quiet_ms / 1000:
            return
        assert now < deadline, f"still under way: {sorted(r.url for r in in_flight)}"
        page.wait_for_timeout(20)  # lets Playwright deliver the request events meanwhile


def new_game(server: Server, ruleset: str, players: list[str], **extra: Any) -> dict:
    answer = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": ruleset, "players": players, **extra}
    )
    assert answer.status == 201, answer
    return answer.body


def record(server: Server, game: dict, body: dict[str, Any]) -> dict:
    answer = server.call(
        "POST", f"/api/v1/games/{game['id']}/transactions", body, game["banker_token"]
    )
    assert answer.status == 201, answer
    return answer.body


def logged(server: Server, game: dict, kind: str) -> list[dict]:
    """The game's transactions of one type, as the server lists them."""
    answer = server.call(
        "GET", f"/api/v1/games/{game['id']}/transactions?type={kind}", None, game["banker_token"]
    )
    assert answer.status == 200, answer
    return answer.body["items"]  # type: ignore[no-any-return]


def goto(page: Page, url: str) -> None:
    """``page.goto(url)`` once the history step of a dialog closed just before has arrived.

    A dialog closed takes its history entry back (dom.js: ``history.back()``, which arrives
    later): a navigation started before that step would be undone by it (the page went back
    to the table). A dialog still open keeps its entry."""
    history_settled(page)
    page.goto(url)


def history_settled(page: Page) -> None:
    """Once a dialog closed just before has taken its history entry back (dom.js:
    ``history.back()``, which arrives later): a dialog opened before that step arrives would be
    closed by it. A dialog still open keeps its entry."""
    page.wait_for_function(
        "() => !(history.state && history.state.tbDialog) || document.querySelector('dialog[open]')"
    )


def hold(page: Page, server: Server, game: dict) -> None:
    """The banker's device holds the game, as after creating it there."""
    goto(page, server.base + "/")
    page.evaluate(
        "g => localStorage.setItem('tablebank.games', JSON.stringify({[g.id]: g}))",
        {
            "id": game["id"],
            "name": game["name"],
            "ruleset": game["ruleset"],
            "banker": game["banker_token"],
            "tokens": game["tokens"],
        },
    )


def open_table(page: Page, server: Server, game: dict) -> None:
    """The banker's device holds the game (as after creating it there) and shows its table."""
    hold(page, server, game)
    page.goto(f"{server.base}/#/g/{game['id']}")
    expect(page.get_by_test_id("cash-p1")).to_be_visible()


def words(page: Page, key: str, **params: Any) -> str:
    """A text of the page's dictionaries in the page's language."""
    return str(
        page.evaluate(
            "async ([key, params]) => (await import('/console/static/js/i18n.js')).t(key, params)",
            [key, params],
        )
    )


def money(page: Page, amount: int) -> str:
    """An amount in dollars as the page writes it in its language."""
    return str(
        page.evaluate(
            "async (n) => (await import('/console/static/js/i18n.js')).money(n, '$')", amount
        )
    )


def card(page: Page, player: str) -> Locator:
    return page.locator(f"article.player[data-player={player}]")


def more(page: Page, player: str, move: str) -> Locator:
    """More… on a player's card, then one move of the sheet; the dialog it opens."""
    card(page, player).locator(".quick.more").click()
    page.locator("dialog .sheet-btn", has_text=move).first.click()
    return page.locator("dialog[open]")


def transaction_keys(page: Page) -> list[str]:
    """The Idempotency-Key of every transaction POST the page sends from now on, answered
    or not."""
    keys: list[str] = []
    page.on(
        "request",
        lambda req: (
            keys.append(req.headers.get("idempotency-key", ""))
            if req.method == "POST" and req.url.endswith("/transactions")
            else None
        ),
    )
    return keys


# -- the reader's words (issue 22) ---------------------------------------------------------

# Words of the English basis and requests that were seen in Russian and Polish (issue 22).
SEEN = ["properties", "receiver", "fee", "lifted", "jail", "cards", "chance", "printed", "kind"]
# Latin words a Russian page may hold: none since the box is named in Cyrillic ("Миллионер
# Элит", issue 29).
BRANDS: set[str] = set()
# A raw id: an IOU's, a Millionaire Elite plot's, a field's name.
RAW = re.compile(r"\biou-\d+|\bb\d+-\d+\b|\bcentral-\d+\b|\b[a-z]+_[a-z_]+\b")

ENGLISH = """async (lang) => {
  const i18n = await import('/console/static/js/i18n.js');
  const other = (await import(`/console/static/js/i18n-${lang}.js`))[lang];
  return Object.entries(i18n.en).filter(([key, text]) => other[key] !== text)
    .map(([key, text]) => [text, other[key] ?? '']);
}"""


def english_words(page: Page, lang: str) -> set[str]:
    """The English texts that the language translates otherwise, cut at their placeholders
    into phrases of 4 letters or more (but those its translation keeps: "Bank" in Polish);
    and the words seen before."""
    pairs = page.evaluate(ENGLISH, lang)
    phrases = {
        part.strip()
        for text, translated in pairs
        for part in re.split(r"\{\w+\}|[.:;,()…“”]", text)
        if len(part.strip()) >= 4 and re.search("[a-z]{3}", part) and part.strip() not in translated
    }
    return phrases | set(SEEN)


@functools.cache
def whole_word(word: str) -> re.Pattern[str]:
    """``word`` where it is a whole word: no letter, digit or hyphen against either end.

    Compiled once a process: a page's text is searched for each of some 600 phrases, more than
    ``re``'s own cache keeps, so ``re.search`` compiled them all again for every text (13 s of
    a whole family game's 25 s in the test's process)."""
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")


def has_word(text: str, word: str) -> bool:
    return word in text and whole_word(word).search(text) is not None


def english_in(text: str, words: set[str]) -> list[str]:
    # Whole words only: Polish words hold English letters ("Bankructwo", "hotel").
    return sorted(w for w in words if has_word(text, w))


def problems(text: str, locale: str, words: set[str], deeds: list[str]) -> list[str]:
    found = [f"raw id {m}" for m in RAW.findall(text)]
    found += [f"slug {d}" for d in deeds if has_word(text, d)]
    if locale != "en-US":
        found += [f"English {w!r}" for w in english_in(text, words)]
    if locale == "ru-RU":
        latin = re.findall(r"[A-Za-z]+", text.replace("$", ""))
        found += [f"Latin {m!r}" for m in latin if m not in BRANDS]
    return found
