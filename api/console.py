"""The browser console: the banker's page at ``/``, the players' page at ``/play/<game>``,
their static files under ``/console/static/``, the service worker at ``/sw.js`` (at the root, so
that its scope covers both pages), the web app manifest that puts the console on a phone's home
screen (``/manifest.webmanifest``, opening the banker's page; ``/play/<game>/manifest.webmanifest``,
opening that game's players' page), QR codes of the players' links, and the address the
players' phones reach this server at (``GET /console/address``).

The pages are static: their scripts do everything through the REST API, with the tokens the
banker's browser keeps. A player's token travels in the URL fragment (``#p=p1&token=...``),
which browsers never send, so it reaches no server log. For the same reason a QR code is asked
for with ``POST /console/qr`` and the link in the JSON body: a query string would be written
to the access log with the request line, a body never is.

Every answer of this blueprint carries a strict Content-Security-Policy (only this origin's
scripts and styles, nothing inline, no framing), ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: no-referrer``. ``img-src`` also allows ``blob:``: the console shows each QR
code as an ``<img>`` of the SVG it fetched, where no script in it could ever run.
"""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import segno
from flask import Blueprint, Response, abort, current_app, jsonify, request, send_from_directory
from marshmallow import RAISE, Schema, ValidationError, validate

from api.errors import invalid_problem
from schemas.fields import Name, Text

STATIC = "static/console"


def content_security_policy(images: str) -> str:
    """A strict Content-Security-Policy: scripts, styles, fonts and connections of this origin
    only, nothing inline, no plugin, no framing; images from the sources ``images`` names."""
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src {images}",
            "connect-src 'self'",
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


CONTENT_SECURITY_POLICY = content_security_policy("'self' blob:")

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

MANIFEST = "manifest.webmanifest"
MANIFEST_TYPE = "application/manifest+json"  # the W3C's; a browser takes no other for sure

MAX_QR_TEXT = 1000  # a link with a game id and a token is about 150 characters

console_blp = Blueprint(
    "console",
    __name__,
    static_folder=STATIC,
    static_url_path="/console/static",
)


class QrRequestSchema(Schema):
    """The body of ``POST /console/qr``: the text (a player's link) to draw as a QR code."""

    class Meta:
        unknown = RAISE

    # Text: a lone surrogate could not be encoded into the code (it was a 500).
    text = Text(required=True, validate=validate.Length(min=1, max=MAX_QR_TEXT))


class GameManifestQuerySchema(Schema):
    """A game's manifest names its app after the game: the players' page, which knows the
    game's name, asks with it (``?name=``); without it the app is called tablebank."""

    class Meta:
        unknown = RAISE

    name = Name()


@console_blp.after_request
def add_security_headers(response: Response) -> Response:
    """The same strict headers on every page, file, QR code and error of the console."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def page(name: str) -> Response:
    """One of the console's HTML pages; revalidated on every visit so an update shows."""
    response = send_from_directory(str(console_blp.static_folder), name, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@console_blp.get("/")
def banker_console() -> Response:
    """The banker's console."""
    return page("banker.html")


@console_blp.get("/play/<game>")
def players_view(game: str) -> Response:
    """A player's view of one game; the token is in the fragment, which the server never sees."""
    try:
        UUID(game)
    except ValueError:
        # Refused here rather than by a uuid converter, so the refusal carries our headers.
        abort(404, f"no game {game}")
    return page("play.html")


# What the service worker keeps: the pages, scripts, styles and images of the console's folder.
KEPT_SUFFIXES = (".html", ".js", ".css", ".svg", ".png")
FILES_MARK = "/* FILES */"


@functools.cache
def service_worker_script() -> str:
    """sw.js with the list of the console's files filled in (read once per process: the
    folder is the installed package's)."""
    folder = Path(str(console_blp.static_folder))
    files = sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in KEPT_SUFFIXES and path.name != "sw.js"
    )
    script = (folder / "sw.js").read_text("utf-8")
    if FILES_MARK not in script:
        raise RuntimeError("sw.js has no place for its list of files")
    return script.replace(FILES_MARK, ", ".join(json.dumps(f) for f in files))


@console_blp.get("/sw.js")
def service_worker() -> Response:
    """The console's service worker: its files kept for a reload without a server."""
    response = Response(service_worker_script(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # a new console's worker replaces the old
    response.add_etag()
    response.make_conditional(request)  # a 304 to a worker that has it already
    return response


@console_blp.get("/manifest.webmanifest")
def web_manifest() -> Response:
    """The console as an app on a phone's home screen (name, icons, colours), opening at ``/``."""
    response = send_from_directory(
        str(console_blp.static_folder), MANIFEST, mimetype=MANIFEST_TYPE, max_age=0
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@console_blp.get("/play/<game>/manifest.webmanifest")
def players_manifest(game: str) -> Response:
    """The same app opening at one game's players' page: the phone keeps the player's link, so
    the page opens without it (``js/store.js``); the manifest names no token."""
    try:
        UUID(game)
    except ValueError:
        abort(404, f"no game {game}")
    try:
        query: dict[str, Any] = GameManifestQuerySchema().load(request.args.to_dict())
    except ValidationError as error:
        return invalid_problem(error.messages)
    manifest = json.loads(Path(str(console_blp.static_folder), MANIFEST).read_text("utf-8"))
    page = f"/play/{game}"
    manifest.update(id=page, start_url=page, scope=page)
    if "name" in query:  # two games on one phone: two apps told apart by their names
        manifest.update(name=f"{query['name']} · tablebank", short_name=query["name"])
    return Response(
        json.dumps(manifest, ensure_ascii=False),
        mimetype=MANIFEST_TYPE,
        headers={"Cache-Control": "no-cache"},
    )


@console_blp.post("/console/qr")
def qr_code() -> Response:
    """The QR code of a text (a player's link) as SVG; the text comes in a JSON body."""
    try:
        body: dict[str, Any] = QrRequestSchema().load(request.get_json(silent=True) or {})
    except ValidationError as error:
        return invalid_problem(error.messages)
    return Response(
        qr_svg(body["text"]),
        mimetype="image/svg+xml",
        headers={"Cache-Control": "no-store"},  # the text is a secret link
    )


@console_blp.get("/console/address")
def players_address() -> Response:
    """The address other devices open this server at, as ``tablebank serve`` found it from its
    bind address (``TABLEBANK_PUBLIC_URL``); null when only this machine can reach it."""
    response = jsonify(lan=current_app.config.get("TABLEBANK_PUBLIC_URL"))
    response.headers["Cache-Control"] = "no-store"  # another start may find another address
    return response


def qr_svg(text: str) -> bytes:
    """A QR code as a small SVG (dark modules on white, a quiet zone of 4)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=4, xmldecl=False, light="#fff", title="QR"
    )
    return out.getvalue()
