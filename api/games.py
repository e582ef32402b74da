"""Games: create them (no token, so many a minute per address), list them (no token, or the
server's admin token), read one (its token)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote
from uuid import UUID

from flask import current_app, request, url_for
from flask.views import MethodView
from marshmallow import RAISE

from api.auth import authorize_admin, current_role
from api.bank import tablebank
from api.blueprints import creates_a_game, new_games, one_game
from api.etags import etag
from api.framework import ADMIN
from api.queries import game_page
from schemas.games import (
    AsOfQuerySchema,
    GameListQuerySchema,
    GameListSchema,
    GameSchema,
    LiquidationSchema,
    NewGameSchema,
    NewTokenSchema,
    NoQuerySchema,
)
from schemas.moves import MovesSchema
from schemas.rulesets import RuleSetSchema

games_blp = new_games("games", __name__, "Create and list games.")
game_blp = one_game("game", __name__, "One game; needs a bearer token of that game.")
games_blp.before_request(authorize_admin)


@games_blp.route("")
class Games(MethodView):
    """The games of this server: create one, or list them (``/api/v1/games``)."""

    @creates_a_game(games_blp, NewGameSchema, "create_game")
    def post(self, body: dict[str, Any], _query: dict[str, Any]) -> Any:
        """Create a game: seat the players, pay their starting cash, issue tokens (shown once)."""
        created = tablebank().create_game(**body)
        return created, created_headers(created)

    @games_blp.arguments(GameListQuerySchema, location="query", unknown=RAISE)
    @games_blp.response(200, GameListSchema)
    @games_blp.alt_response(401, description="The server has an admin token; this is not it.")
    # Open to all, but on a server with --admin-token-file only to that token.
    @games_blp.doc(operationId="list_games", security=[{}, {ADMIN: []}])
    def get(self, query: dict[str, Any]) -> Any:
        """The games this server holds, a page at a time, with their last activity: never
        their money or tokens; ``status`` and ``idle_days`` filter them.

        A server started with an admin token answers that token only."""
        after, limit = query.pop("after", None) or 0, query.pop("limit")
        return game_page(tablebank().listed_games(after, **query), limit)


def created_headers(created: dict[str, Any]) -> dict[str, str]:
    """The headers of a new game, created or imported: where it lives and its version; its
    tokens must not be cached."""
    location = url_for("game.Game", game=created["id"])
    return {**etag(created["version"]), "Location": location, "Cache-Control": "no-store"}


@game_blp.route("")
class Game(MethodView):
    """One game, now or as of a seq (``/api/v1/games/<game>``)."""

    @game_blp.read(GameSchema, "get_game", AsOfQuerySchema)
    def get(self, query: dict[str, Any], game: UUID) -> Any:
        """The game now, or as it stood right after transaction ``seq``."""
        view = tablebank().game(game, query.get("seq"))
        return view, etag(view["version"])


@game_blp.route("/ruleset")
class GameRuleSet(MethodView):
    """The rule set a game is played by (``/ruleset``)."""

    @game_blp.response(200, RuleSetSchema)
    @game_blp.doc(operationId="get_game_ruleset")
    def get(self, game: UUID) -> Any:
        """The game's own rule set, built in or from its ``ruleset_document``."""
        return tablebank().game_ruleset(game)


moves_blp = one_game(
    "moves",
    __name__,
    "What one game can record now, as the token may; needs a bearer token of that game.",
    conditional=False,
)


@moves_blp.route("/moves")
class Moves(MethodView):
    """What a game can record now, as the token may (``/moves``)."""

    @moves_blp.read(MovesSchema, "list_moves")
    def get(self, query: dict[str, Any], game: UUID) -> Any:
        """The transaction types the game accepts now, as the server declares them, with the
        choices of each field; with a player's token, only what that player may record."""
        bank, role = tablebank(), current_role()
        # The ETag names the token's role too: a player's moves are not the banker's.
        tag = etag(f"{bank.version(game)}-{role}")
        return bank.moves(game, role), tag


@game_blp.route("/tokens/<role>")
class NewToken(MethodView):
    """A role's token replaced, with the banker's token (``/tokens/<role>``)."""

    @game_blp.arguments(NoQuerySchema, location="query", unknown=RAISE)
    @game_blp.response(201, NewTokenSchema)
    @game_blp.doc(operationId="replace_token")
    def post(self, _query: dict[str, Any], game: UUID, role: str) -> Any:
        """A new token for ``role`` (``banker`` or a player id) with the banker's token; the
        role's token before it answers 401 from now on, in every process."""
        made = tablebank().replace_token(game, role, current_role())
        return {**made, "link": link_of(game, **made)}, {"Cache-Control": "no-store"}


def link_of(game: UUID, role: str, token: str) -> str:
    """The page a token opens, as the console links it: a player's page, or the console."""
    base = (current_app.config.get("TABLEBANK_PUBLIC_URL") or request.host_url).rstrip("/")
    if role == "banker":
        return f"{base}/#/open/{game}/{quote(token, safe='')}"
    return f"{base}/play/{game}#p={quote(role, safe='')}&token={quote(token, safe='')}"


@game_blp.route("/players/<player>/liquidation")
class Liquidation(MethodView):
    """What a player could raise by selling and mortgaging (``/players/<player>/liquidation``)."""

    @game_blp.response(200, LiquidationSchema)
    @game_blp.doc(operationId="get_liquidation")
    def get(self, game: UUID, player: str) -> Any:
        """What the player could raise by selling every building and mortgaging every deed."""
        return tablebank().liquidation(game, player)
