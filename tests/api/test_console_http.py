"""The console's pages, files and QR codes over HTTP: strict headers, nothing inline, nothing
fetched from elsewhere, and QR codes made from a POST body."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

STATIC = Path(__file__).resolve().parents[2] / "api" / "static" / "console"
GAME = "/play/6f3248a1-c3bf-4ffa-adf9-bcf865d43b24"
LINK = "http://192.168.1.20:8000/play/6f3248a1-c3bf-4ffa-adf9-bcf865d43b24#p=p1&token=qnWDMIVyr1l"

CONSOLE_URLS = [
    "/",
    GAME,
    "/console/static/js/banker.js",
    "/console/static/css/console.css",
    "/sw.js",
]


def get(client: FlaskClient, url: str, **kwargs: object) -> TestResponse:
    """A GET whose body is read and whose file is closed (static files are streamed)."""
    with client.get(url, **kwargs) as response:  # type: ignore[arg-type]
        response.get_data()
    return response


def csp_directives(header: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize("url", CONSOLE_URLS)
def test_console_answers_carry_the_security_headers(client: FlaskClient, url: str) -> None:
    response = get(client, url)
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "Content-Security-Policy" in response.headers


def test_content_security_policy_allows_this_origin_only_and_nothing_inline(
    client: FlaskClient,
) -> None:
    csp = csp_directives(get(client, "/").headers["Content-Security-Policy"])
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    assert not any("unsafe" in value for values in csp.values() for value in values)


def test_refusals_of_the_console_carry_the_headers_too(client: FlaskClient) -> None:
    response = get(client, "/play/not-a-game")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_pages_are_revalidated_so_an_update_shows(client: FlaskClient) -> None:
    assert get(client, "/").headers["Cache-Control"] == "no-cache"
    assert get(client, GAME).headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize(
    ("url", "mimetype"),
    [
        ("/console/static/js/banker.js", "text/javascript"),
        ("/console/static/css/console.css", "text/css"),
        ("/console/static/icons/favicon.svg", "image/svg+xml"),
    ],
)
def test_static_files_have_their_types_under_nosniff(
    client: FlaskClient, url: str, mimetype: str
) -> None:
    response = get(client, url)
    assert response.status_code == 200
    assert response.mimetype == mimetype or (
        mimetype == "text/javascript" and response.mimetype == "application/javascript"
    )


def test_service_worker_is_served_from_the_root_so_its_scope_covers_both_pages(
    client: FlaskClient,
) -> None:
    # A worker's scope is at most the folder of its script: /sw.js covers / and /play/<game>.
    response = get(client, "/sw.js")
    assert response.status_code == 200
    assert response.mimetype in ("text/javascript", "application/javascript")
    assert response.headers["Cache-Control"] == "no-cache"
    assert "self.addEventListener('fetch'" in response.get_data(as_text=True)


def test_service_worker_keeps_every_file_of_the_console(client: FlaskClient) -> None:
    # The server lists the console's folder into the script it serves: a new language's
    # dictionary (or any new script) is kept with no edit of sw.js.
    script = get(client, "/sw.js").get_data(as_text=True)
    listed = re.search(r"const FILES = \[(.*?)\]", script, re.S)
    assert listed is not None
    kept = set(re.findall(r'"([^"]+)"', listed.group(1)))
    assert {"js/i18n-ru.js", "js/i18n-pl.js", "banker.html", "icons/icon-512.png"} <= kept
    # A worker that has this script already is answered 304, as a static file would be.
    again = get(client, "/sw.js", headers={"If-None-Match": get(client, "/sw.js").headers["ETag"]})
    assert again.status_code == 304
    on_disk = {
        str(path.relative_to(STATIC))
        for path in STATIC.rglob("*")
        if path.is_file() and path.suffix in {".html", ".js", ".css", ".svg", ".png"}
    } - {"sw.js"}
    assert kept == on_disk
    # The manifest is kept where the pages link it, at the root beside the banker's page.
    root = re.search(r"const ROOT = \[(.*?)\]", script, re.S)
    assert root is not None
    assert set(re.findall(r"'([^']+)'", root.group(1))) == {"/", "/manifest.webmanifest"}


def test_the_api_is_not_under_the_console_policy(client: FlaskClient) -> None:
    # JSON answers are not documents: the console's headers stay on the console.
    assert "Content-Security-Policy" not in get(client, "/healthz").headers


def test_there_is_no_second_unguarded_static_route(client: FlaskClient) -> None:
    assert get(client, "/static/console/js/banker.js").status_code == 404


class Markup(HTMLParser):
    """Collects what CSP would block: inline scripts, styles, handlers, and foreign URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.urls: list[str] = []
        self.in_script_without_src = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "style" or "style" in names:
            self.inline.append(f"style on <{tag}>")
        self.inline.extend(f"{name} on <{tag}>" for name in names if name.startswith("on"))
        if tag == "script" and not names.get("src"):
            self.in_script_without_src = True
            self.inline.append("inline <script>")
        for name in ("src", "href"):
            if names.get(name) and not str(names[name]).startswith("#"):
                self.urls.append(str(names[name]))


@pytest.mark.parametrize("page", ["/", GAME])
def test_pages_hold_nothing_inline_and_load_only_local_files(
    client: FlaskClient, page: str
) -> None:
    markup = Markup()
    markup.feed(get(client, page).get_data(as_text=True))
    assert markup.inline == []
    assert markup.urls, "the page loads its script and stylesheet"
    for url in markup.urls:
        assert url.startswith("/console/static/") or url == "/manifest.webmanifest", url
        assert get(client, url).status_code == 200, url


def test_scripts_and_styles_fetch_nothing_from_another_origin() -> None:
    external = re.compile(r"""(?:from\s+|import\(\s*|url\(\s*|src=|href=)['"]?(?:https?:)?//""")
    offenders = [
        str(path.relative_to(STATIC))
        for path in STATIC.rglob("*")
        if path.suffix in {".js", ".css", ".html"} and external.search(path.read_text("utf-8"))
    ]
    assert offenders == []


def test_scripts_never_parse_data_as_html() -> None:
    # Player names and every other datum go in as text: no innerHTML, no insertAdjacentHTML.
    sink = re.compile(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write")
    offenders = [p.name for p in (STATIC / "js").glob("*.js") if sink.search(p.read_text("utf-8"))]
    assert offenders == []


def test_the_vendored_chart_library_keeps_its_licence_beside_it() -> None:
    vendor = STATIC / "vendor" / "uplot"
    assert (vendor / "uPlot.iife.min.js").is_file()
    assert "MIT License" in (vendor / "LICENSE").read_text("utf-8")


def test_qr_code_of_a_posted_link_is_an_svg_never_cached(client: FlaskClient) -> None:
    response = client.post("/console/qr", json={"text": LINK})
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    svg = response.get_data(as_text=True)
    assert svg.startswith("<svg") and "<path" in svg
    assert LINK not in svg  # the modules, not the text


def test_qr_codes_of_two_links_differ(client: FlaskClient) -> None:
    one = client.post("/console/qr", json={"text": LINK}).get_data()
    two = client.post("/console/qr", json={"text": LINK + "x"}).get_data()
    assert one != two


def test_qr_code_is_not_offered_for_a_text_in_the_address(client: FlaskClient) -> None:
    # A query string is written to the access log with the request line; a body never is.
    response = get(client, "/console/qr", query_string={"text": LINK})
    assert response.status_code == 405


@pytest.mark.parametrize(
    "body", [{}, {"text": ""}, {"text": "x" * 1001}, {"text": 7}, {"text": "x", "size": 9}]
)
def test_qr_code_refuses_a_body_without_a_text_of_1_to_1000_characters(
    client: FlaskClient, body: dict[str, object]
) -> None:
    response = client.post("/console/qr", json=body)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "validation_error"
    assert set(response.json["errors"]) <= {"text", "size"}


def test_qr_code_refuses_a_body_that_is_not_json(client: FlaskClient) -> None:
    response = client.post("/console/qr", data="text=hello", content_type="text/plain")
    assert response.status_code == 422
    assert response.json["errors"] == {"text": ["Missing data for required field."]}
