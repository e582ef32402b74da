"""Versions: ``ETag: "<version>"`` on every successful answer about a game, ``If-Match`` and
``Idempotency-Key`` on writes."""

from __future__ import annotations

import re

from flask import Response, request
from werkzeug.http import quote_etag

from api.bank import tablebank
from ledger.errors import VersionConflict

# One strong entity tag (RFC 9110 8.8.3): a quoted, non-empty run of etagc, spaces around it.
STRONG_TAG = re.compile(r'[ \t]*"([\x21\x23-\x7e\x80-\xff]+)"[ \t]*')


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
    """The version an ``If-Match`` header names; None for no header or ``*``.

    Anything else than one strong tag naming a version is refused as a conflict (412): an
    empty tag (``""``, which werkzeug reads as no tag at all), an unquoted word, a weak tag
    (If-Match compares strongly) or several tags. Never is it read as no condition."""
    if header is None or header.strip() == "*":
        return None
    tag = STRONG_TAG.fullmatch(header)
    if tag is None:
        game = (request.view_args or {}).get("game")
        current = {} if game is None else {"current": tablebank().version(game)}
        raise VersionConflict(
            f'If-Match names no version: one strong tag ("<version>") or *, not {header}',
            **current,
        )
    return tag.group(1)


def write_conditions(headers: dict[str, str]) -> dict[str, str | None]:
    """The ledger's ``key`` and ``if_match`` from a write's (validated) headers."""
    return {
        "key": headers.get("idempotency_key"),
        "if_match": if_match_version(headers.get("if_match")),
    }
