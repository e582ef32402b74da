"""The OpenAPI document as a page, ``/api/v1/docs`` (issue 29, item 19), in a real browser: it
lists the operations of the served document, needs no token, asks nothing of another host
(every request that is not to the server is blocked, and there must be none) and works under
its strict Content-Security-Policy (no violation, no script error)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from server import Server

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

# Each CSP violation, as the page reports it to itself.
VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


class Visit:
    """A page in a context of its own, with what it asked of other hosts, the requests it
    made and the problems it reported."""

    def __init__(self, browser: Browser, server: Server) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.add_init_script(VIOLATIONS)
        self.outside: list[str] = []
        self.requests: list[Any] = []
        self.problems: list[str] = []
        here = urlsplit(server.base).netloc
        self.context.route("**/*", lambda route: self.only_here(route, here))
        self.page: Page = self.context.new_page()
        self.page.on("request", lambda request: self.requests.append(request))
        self.page.on("pageerror", lambda err: self.problems.append(f"page error: {err}"))
        self.page.on(
            "console",
            lambda msg: self.problems.append(msg.text) if msg.type == "error" else None,
        )

    def only_here(self, route: Any, here: str) -> None:
        url = route.request.url
        if urlsplit(url).scheme in {"http", "https"} and urlsplit(url).netloc != here:
            self.outside.append(url)
            route.abort()
        else:
            route.continue_()


@pytest.fixture
def visit(browser: Browser, server: Server) -> Iterator[Visit]:
    visit = Visit(browser, server)
    yield visit
    visit.context.close()


def test_the_api_page_lists_the_operations_asking_nothing_of_another_host(
    visit: Visit, server: Server
) -> None:
    page = visit.page
    response = page.goto(f"{server.base}/api/v1/docs")
    assert response is not None and response.status == 200
    assert "script-src 'self'" in response.headers["content-security-policy"]

    # The operations of the document, by tag: the transactions' among them.
    expect(page.locator(".opblock-tag[data-tag='transactions']")).to_be_visible()
    paths = page.locator(".opblock-summary-path[data-path='/api/v1/games/{game}/transactions']")
    expect(paths).to_have_count(2)  # GET and POST
    record = page.locator("#operations-transactions-record_transaction")
    expect(record).to_be_visible()
    expect(record).to_contain_text("Record one transaction")
    # An operation opens, with its answer's schema: the stream's events, one by one.
    stream = page.locator("#operations-events-stream_events")
    stream.locator(".opblock-summary").click()
    expect(stream.locator(".responses-wrapper")).to_contain_text("text/event-stream")

    assert visit.outside == []
    document = [r for r in visit.requests if r.url.endswith("/api/v1/openapi.json")]
    assert len(document) == 1 and "authorization" not in document[0].headers  # no token
    assert page.evaluate("window.__violations") == []
    assert visit.problems == []
