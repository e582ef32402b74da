"""The pocket bundle (``make pocket``, docs/pocket.md) as any tablebank server serves it, at
``/pocket/``: a family opens it once from the server on the table's network, and the bank then
lives on the phone, offline (the bundle's service worker keeps it there).

The bundle is served only once built: ``TABLEBANK_POCKET_DIR`` (``tablebank serve --pocket-dir``)
names its folder, the checkout's ``dist/pocket`` by default. Its files come with the console's
strict headers, but that WebAssembly may be compiled (Pyodide's interpreter) and the page may
start its Web Worker.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request, send_from_directory

from api.console import SECURITY_HEADERS

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "dist" / "pocket"

CONTENT_SECURITY_POLICY = SECURITY_HEADERS["Content-Security-Policy"].replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'"
)

# The build's compressed copies beside each file, the smaller first.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))

pocket_blp = Blueprint("pocket", __name__)


@pocket_blp.after_request
def add_security_headers(response: Response) -> Response:
    """The console's strict headers on every answer of ``/pocket/``, its policy letting
    WebAssembly compile and the page start its Web Worker."""
    for name, value in {
        **SECURITY_HEADERS,
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    }.items():
        response.headers.setdefault(name, value)
    return response


@pocket_blp.get("/pocket/")
@pocket_blp.get("/pocket/<path:name>")
def pocket_file(name: str = "index.html") -> Response:
    """A file of the bundle; 404 where none was built."""
    folder = Path(current_app.config.get("TABLEBANK_POCKET_DIR") or DEFAULT_DIR)
    if not (folder / "index.html").is_file():
        abort(404, "No pocket bundle was built for this server (make pocket).")
    for encoding, suffix in ENCODINGS:
        accepted = request.accept_encodings[encoding] > 0  # "br;q=0" refuses it
        if accepted and (folder / f"{name}{suffix}").is_file():
            # The build's copy (tools/pocket/build.py), sent as the file itself: the bundle is
            # 30 MB of files, 10.6 MB with gzip and 7.9 MB with brotli.
            response = send_from_directory(folder, f"{name}{suffix}", max_age=0)
            response.content_encoding = encoding
            response.mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            break
    else:
        response = send_from_directory(folder, name, max_age=0)
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = "no-cache"  # the service worker keeps them; revalidate
    return response
