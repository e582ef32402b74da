"""The OpenAPI document as a page for people: ``GET /api/v1/docs``, Swagger UI reading
``/api/v1/openapi.json``, its files under ``/api/v1/docs/static/``.

Swagger UI is vendored (``static/docs/vendor/swagger-ui``, with its licence and a README of
where it came from): the page fetches nothing from another host. It needs no token, as the
document needs none; a reader who tries an operation gives one in the page's Authorize dialog,
which keeps it in the page's memory only. Like the console's, kept out of the document.

Its answers carry the console's strict headers (api/console.py), but ``img-src`` also allows
``data:``: Swagger UI's stylesheet draws its icons as ``data:`` SVG images. No script or style
is inline: the page's own script (``docs.js``) starts Swagger UI, which sets styles only
through the CSSOM, as a Content-Security-Policy allows.
"""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory

from api.console import SECURITY_HEADERS, content_security_policy

STATIC = "static/docs"
PAGE = "/api/v1/docs"

CONTENT_SECURITY_POLICY = content_security_policy("'self' data:")
HEADERS = {**SECURITY_HEADERS, "Content-Security-Policy": CONTENT_SECURITY_POLICY}

docs_blp = Blueprint("docs", __name__, static_folder=STATIC, static_url_path=f"{PAGE}/static")


@docs_blp.after_request
def add_security_headers(response: Response) -> Response:
    """The strict headers on the page, its files and their errors."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


@docs_blp.get(PAGE)
def api_docs() -> Response:
    """The OpenAPI document as a page; revalidated on every visit, so an update shows."""
    response = send_from_directory(str(docs_blp.static_folder), "docs.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response
