"""The OpenAPI document as a page, ``/api/v1/docs`` (issue 29, item 19), over HTTP: no token,
strict headers, nothing inline, only this server's files, and the vendored Swagger UI as the
npm package has it, its licences beside it. tests/e2e/test_api_docs_page.py loads it in a
browser that may reach no other host."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

STATIC = Path(__file__).resolve().parents[2] / "api" / "static" / "docs"
VENDOR = STATIC / "vendor" / "swagger-ui"
PAGE = "/api/v1/docs"


def get(client: FlaskClient, url: str) -> TestResponse:
    """A GET with no token, its body read and its file closed (static files are streamed)."""
    with client.get(url) as response:
        response.get_data()
    return response


def csp_directives(header: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


class Markup(HTMLParser):
    """What a Content-Security-Policy would block (inline scripts, styles and handlers), and
    every URL the page loads or links."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "style" or "style" in names:
            self.inline.append(f"style on <{tag}>")
        self.inline.extend(f"{name} on <{tag}>" for name in names if name.startswith("on"))
        if tag == "script" and not names.get("src"):
            self.inline.append("inline <script>")
        for name in ("src", "href"):
            if names.get(name):
                self.urls.append(str(names[name]))


def test_the_page_needs_no_token_and_carries_strict_headers(client: FlaskClient) -> None:
    response = get(client, PAGE)

    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-cache"  # an update shows
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    csp = csp_directives(response.headers["Content-Security-Policy"])
    assert csp["default-src"] == csp["script-src"] == csp["style-src"] == ["'self'"]
    assert csp["connect-src"] == ["'self'"]
    assert csp["img-src"] == ["'self'", "data:"]  # Swagger UI's icons
    assert csp["frame-ancestors"] == csp["object-src"] == ["'none'"]
    assert not any("unsafe" in value for values in csp.values() for value in values)


def test_the_page_holds_nothing_inline_and_loads_only_this_server_s_files(
    client: FlaskClient,
) -> None:
    markup = Markup()
    markup.feed(get(client, PAGE).get_data(as_text=True))

    assert markup.inline == []
    assert "/api/v1/docs/static/vendor/swagger-ui/swagger-ui-bundle.js" in markup.urls
    for url in markup.urls:
        assert url.startswith("/"), url  # this server's
        answer = get(client, url)
        assert answer.status_code == 200, url
        assert "Authorization" not in answer.request.headers


def test_the_page_reads_this_server_s_document_and_no_other() -> None:
    script = (STATIC / "docs.js").read_text("utf-8")

    assert "url: '/api/v1/openapi.json'" in script
    assert "validatorUrl: null" in script  # no badge fetched from validator.swagger.io
    assert "queryConfigEnabled: false" in script  # no ?url= of another server's document
    assert not re.search(r"https?://", script)


def test_the_files_of_the_page_carry_the_headers_and_their_types(client: FlaskClient) -> None:
    for url, mimetype in (
        ("/api/v1/docs/static/docs.js", {"text/javascript", "application/javascript"}),
        ("/api/v1/docs/static/vendor/swagger-ui/swagger-ui.css", {"text/css"}),
    ):
        response = get(client, url)
        assert response.mimetype in mimetype, url
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
    missing = get(client, "/api/v1/docs/static/nothing.js")
    assert missing.status_code == 404
    assert "frame-ancestors 'none'" in missing.headers["Content-Security-Policy"]


def test_the_vendored_swagger_ui_is_the_package_s_with_its_licences_beside_it() -> None:
    assert "Apache License" in (VENDOR / "LICENSE").read_text("utf-8")
    assert "SmartBear" in (VENDOR / "NOTICE").read_text("utf-8")
    assert (VENDOR / "swagger-ui-bundle.js.LICENSE.txt").is_file()
    readme = (VENDOR / "README.md").read_text("utf-8")
    sums = dict((name, digest) for digest, name in re.findall(r"([0-9a-f]{64})  (\S+)", readme))
    assert set(sums) == {"swagger-ui-bundle.js", "swagger-ui.css"}
    for name, digest in sums.items():  # copied unchanged
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
    kept = {path.name for path in VENDOR.iterdir()}
    assert kept == {*sums, "LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt", "README.md"}
