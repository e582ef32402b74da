"""The blueprint of a resource of one game (``/api/v1/games/{game}/...``): before each view the
token is checked (``api.auth.authorize_game``) and, where its reads have one answer per version
(``conditional``), a read the client holds is answered 304 (``api.etags.not_modified``); after
it, the answer carries the game's version as its ETag. The same declaration documents it
(``api.framework.Traits``). ``create_app`` registers each such blueprint by name."""

from __future__ import annotations

from api.auth import authorize_game
from api.etags import add_game_etag, not_modified
from api.framework import Blueprint, Traits

GAME_PREFIX = "/api/v1/games/<uuid:game>"


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
