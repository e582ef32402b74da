"""Versions: ``ETag: "<version>"`` on every successful answer about a game, ``If-Match`` and
``Idempotency-Key`` on writes."""

from __future__ import annotations

from flask import Response, request
from werkzeug.http import parse_etags, quote_etag

from api.bank import tablebank


def etag(version: str) -> dict[str, str]:
    """The header naming a game's version."""
    return {"ETag": quote_etag(version)}


def add_game_etag(response: Response) -> Response:
    """After a view of one game: the game's current version, unless the view named one."""
    game = (request.view_args or {}).get("game")
    if game is not None and 200 <= response.status_code < 300 and "ETag" not in response.headers:
        response.headers.update(etag(tablebank().version(game)))
    return response


def if_match_version(header: str | None) -> str | None:
    """The version an ``If-Match`` header names; None for no header or ``*``."""
    if header is None:
        return None
    tags = parse_etags(header)
    if tags.star_tag:
        return None
    strong = tags.as_set()
    if len(strong) != 1:
        # A weak tag, or several: no one version the game can be at.
        return header
    return strong.pop()


def write_conditions(headers: dict[str, str]) -> dict[str, str | None]:
    """The ledger's ``key`` and ``if_match`` from a write's (validated) headers."""
    return {
        "key": headers.get("idempotency_key"),
        "if_match": if_match_version(headers.get("if_match")),
    }
