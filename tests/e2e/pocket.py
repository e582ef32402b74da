"""The pocket bundle for the browser tests: built once per inputs (``make pocket``, whose kept
copy a later build reuses), served by a plain static file server with no API behind it, as a
family's static host would serve it (docs/pocket.md), and read through the page's own bank.

Needs Node.js and npm for the build (Pyodide's npm package); without them the tests are
skipped, or fail where ``TABLEBANK_REQUIRE_ALL=1`` says everything must run.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS
from console_steps import PHONE, watched

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Route

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "dist" / "pocket"
# How long the bank may take to start in a test (a cold start is about 2 s here).
START_MS = 60_000

# One request through the page's own transport (transport.js), as the console sends them.
CALL = """async ([method, path, body, token, key]) => {
  const {send} = await import(new URL('console/static/js/transport.js', document.baseURI).href);
  const headers = {Accept: 'application/json'};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== null) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  const answer = await send(path, {method, headers,
    body: body === null ? undefined : JSON.stringify(body)});
  const text = await answer.text();
  return [answer.status, text ? JSON.parse(text) : null];
}"""


def built() -> Path:
    """dist/pocket/, built now unless it is up to date (one build at a time on the machine)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        reason = "Node.js and npm are not installed: no pocket bundle to build"
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(reason)
    with open(Path(tempfile.gettempdir()) / "tablebank-pocket-build.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        done = subprocess.run(
            [sys.executable, str(ROOT / "tools" / "pocket" / "build.py")],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    return BUNDLE


class Quiet(http.server.SimpleHTTPRequestHandler):
    """A plain static file server's handler, with standard types (``.mjs``, ``.wasm``); the
    paths it was asked for, in ``asked``."""

    asked: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        self.asked.append(self.path.split("?")[0])
        return super().send_head()


@contextlib.contextmanager
def static_server(folder: Path, asked: list[str] | None = None) -> Iterator[str]:
    """``folder`` served over HTTP on loopback; its base URL. Each path asked for is added to
    ``asked``."""
    counting = type("Counting", (Quiet,), {"asked": asked if asked is not None else []})
    handler = functools.partial(counting, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def only_this_host(page: Page, base: str) -> list[str]:
    """Every request the page's context makes to another host than ``base`` (the static
    server's URL, with its closing slash) is refused and listed."""
    elsewhere: list[str] = []

    def refuse(route: Route) -> None:
        if route.request.url.startswith(base) or route.request.url.startswith(("data:", "blob:")):
            route.fallback()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.context.route("**/*", refuse)
    return elsewhere


def wait_ready(page: Page) -> None:
    """Until the page's bank has started (or failed to: the test then says why)."""
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement.dataset.pocket)",
        timeout=START_MS,
    )
    state = page.evaluate("() => document.documentElement.dataset.pocket")
    assert state == "ready", state


def call(
    page: Page,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    key: str | None = None,
) -> tuple[int, Any]:
    """One request to the page's bank: its status and its body."""
    status, answer = page.evaluate(CALL, [method, path, body, token, key])
    return int(status), answer


def new_game(page: Page, players: list[str], ruleset: str = "classic") -> dict[str, Any]:
    """A game made in the page's bank, held by the page's console as if it made it there."""
    status, game = call(
        page,
        "POST",
        "/api/v1/games",
        {"name": "t", "ruleset": ruleset, "players": players},
        key=f"new-game-{uuid.uuid4()}",  # as the console sends every write (new_page checks)
    )
    assert status == 201, game
    page.evaluate(
        "g => localStorage.setItem('tablebank.pocket.games', JSON.stringify({[g.id]: g}))",
        {
            "id": game["id"],
            "name": game["name"],
            "ruleset": game["ruleset"],
            "banker": game["banker_token"],
            "tokens": game["tokens"],
        },
    )
    return game  # type: ignore[no-any-return]


def logged(page: Page, game: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    status, page_of = call(
        page,
        "GET",
        f"/api/v1/games/{game['id']}/transactions?type={kind}",
        None,
        game["banker_token"],
    )
    assert status == 200, page_of
    return page_of["items"]  # type: ignore[no-any-return]


class Phone:
    """A phone's browser that keeps what it stored (IndexedDB, the service worker and its
    files, localStorage) in ``folder`` from one run of the browser to the next, as a phone's
    does: ``page`` starts it, ``restart`` closes it (a process of its own, ended) and starts it
    again. Each of its pages is ``watched``."""

    def __init__(
        self, browser: Browser, request: pytest.FixtureRequest, folder: Path, locale: str
    ) -> None:
        self.browser, self.request, self.folder, self.locale = browser, request, folder, locale
        self.context: BrowserContext | None = None

    def page(self) -> Page:
        self.context = self.browser.browser_type.launch_persistent_context(
            self.folder,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport=PHONE,  # type: ignore[arg-type]
            locale=self.locale,
        )
        for blank in self.context.pages:  # the window a browser opens with
            blank.close()
        return watched(self.context, self.request)

    def restart(self) -> Page:
        assert self.context is not None
        self.context.close()
        return self.page()
