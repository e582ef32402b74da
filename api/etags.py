"""Versions: ``ETag: "<version>"`` on every successful answer about a game, ``If-None-Match`` on
its reads, ``If-Match`` and ``Idempotency-Key`` on writes."""

from __future__ import annotations

from flask import Response, current_app, request
from marshmallow import RAISE, ValidationError
from werkzeug.http import parse_etags, quote_etag

from api.bank import tablebank
from ledger.errors import LedgerError
from schemas.fields import MAX_SEQ


def etag(version: str) -> dict[str, str]:
    """The header naming a game's version."""
    return {"ETag": quote_etag(version)}


def add_game_etag(response: Response) -> Response:
    """After a view of one game: the game's current version, unless the view named one."""
    game = (request.view_args or {}).get("game")
    if game is not None and 200 <= response.status_code < 300 and "ETag" not in response.headers:
        response.headers.update(etag(tablebank().version(game)))
    return response


def not_modified() -> Response | None:
    """Before a read of a game: 304 when ``If-None-Match`` names the version its answer would
    carry (the game's version now, or as of ``?seq=N``), so that nothing is read or computed
    again (API.md, v1.2, "Reads never stall the table"). Only blueprints whose reads have one
    answer per version take it (``api.blueprints.one_game``: not a stream's, nor the moves'); a
    request the view would refuse (a bad seq, an unknown game) goes on to be refused there."""
    header = request.headers.get("If-None-Match")
    game = (request.view_args or {}).get("game")
    if header is None or game is None or request.method not in ("GET", "HEAD"):
        return None
    if query_refused():
        return None  # the view refuses it (422): a condition never stands in for that
    seq = request.args.get("seq")
    if seq is not None and not (seq.isascii() and seq.isdigit() and int(seq) <= MAX_SEQ):
        return None
    try:
        version = tablebank().version(game, None if seq is None else int(seq))
    except LedgerError:
        return None
    if not parse_etags(header).contains_weak(version):
        return None
    return Response(status=304, headers=etag(version))


def query_refused() -> bool:
    """Whether the view's own query schema refuses this request's query (a limit of 0, an
    empty type): a request refused without its conditions is refused with them too (RFC 9110
    13.2.1), never answered 304. The schema is the one the view declares with
    ``@blueprint.arguments(..., location="query")``, as flask-smorest keeps it on the view."""
    view = current_app.view_functions.get(request.endpoint or "")
    method = getattr(getattr(view, "view_class", None), "get", view)
    declared = getattr(method, "_apidoc", {}).get("arguments", {}).get("parameters", [])
    for parameter in declared:
        if parameter.get("in") == "query":
            try:
                parameter["schema"].load(request.args.to_dict(), unknown=RAISE)
            except ValidationError:
                return True
    return False


def write_conditions(headers: dict[str, str]) -> dict[str, str | None]:
    """The ledger's ``key`` and ``if_match`` from a write's (validated) headers."""
    return {
        "key": headers.get("idempotency_key"),
        "if_match": headers.get("if_match"),  # the version named; None for * (IfMatch)
    }
