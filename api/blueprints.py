"""The blueprint of a resource of one game (``/api/v1/games/{game}/...``): before each view the
token is checked (``api.auth.authorize_game``) and, where its reads have one answer per version
(``conditional``), a read the client holds is answered 304 (``api.etags.not_modified``); after
it, the answer carries the game's version as its ETag. The same declaration documents it
(``api.framework.Traits``). ``create_app`` registers each such blueprint by name.

The blueprint of views that create games (``/api/v1/games``, an import: ``new_games``): a POST
from an address over its limit of new games is refused (429) before anything else
(``api.limits``); ``creates_a_game`` declares such a POST."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import RAISE

from api.auth import authorize_game
from api.etags import add_game_etag, not_modified
from api.framework import Blueprint, Traits, View
from api.limits import limit_game_creation
from schemas.games import CreatedGameSchema, NoQuerySchema

GAMES_PREFIX = "/api/v1/games"
GAME_PREFIX = GAMES_PREFIX + "/<uuid:game>"
TOO_MANY_GAMES = "Too many games created from this address."


def one_game(
    name: str, import_name: str, description: str, path: str = "", *, conditional: bool = True
) -> Blueprint:
    """A blueprint of views of one game at ``GAME_PREFIX + path``, tagged ``name`` in the
    OpenAPI document with ``description``. Not ``conditional``: its reads have no one answer
    per version of the game (a stream; the moves, which are the token's own too)."""
    traits = Traits(about_a_game=True, uses_store=True, conditional=conditional)
    blueprint = Blueprint(
        name, import_name, url_prefix=GAME_PREFIX + path, description=description, traits=traits
    )
    blueprint.before_request(authorize_game)
    if conditional:
        blueprint.before_request(not_modified)
    blueprint.after_request(add_game_etag)
    return blueprint


def new_games(name: str, import_name: str, description: str, path: str = "") -> Blueprint:
    """A blueprint whose POST creates a game, at ``GAMES_PREFIX + path``, tagged ``name`` in
    the OpenAPI document with ``description``: it uses the store, and a POST from an address
    over its limit of new games is answered 429 before anything else is done."""
    traits = Traits(uses_store=True)
    blueprint = Blueprint(
        name, import_name, url_prefix=GAMES_PREFIX + path, description=description, traits=traits
    )
    blueprint.before_request(limit_game_creation)
    return blueprint


def creates_a_game(
    blueprint: Blueprint, body: Any, operation_id: str, refusals: dict[int, str] | None = None
) -> Callable[[View], View]:
    """The decorators of a POST of a ``new_games`` blueprint: it takes ``body`` and no query
    parameter, answers 201 with the new game and its tokens, 429 when its address has created
    too many games, or one of its other ``refusals`` (status: when); it is named
    ``operation_id`` in the OpenAPI document."""

    def decorate(view: View) -> View:
        """``view`` with the decorators, in the order that keeps the document's: the
        responses 429, the other refusals, 201; the parameters body, then query."""
        declared = blueprint.doc(operationId=operation_id)(view)
        declared = blueprint.alt_response(429, description=TOO_MANY_GAMES)(declared)
        for status, description in (refusals or {}).items():
            declared = blueprint.alt_response(status, description=description)(declared)
        declared = blueprint.response(201, CreatedGameSchema)(declared)
        declared = blueprint.arguments(NoQuerySchema, location="query", unknown=RAISE)(declared)
        return blueprint.arguments(body)(declared)  # type: ignore[no-any-return]

    return decorate
