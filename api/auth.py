"""Bearer tokens: a view of one game runs only once the game exists and the token opens it; on a
server with an admin token, the list of games answers that token only, and that token reads any
game and records ``finish`` on it (its role is ``admin``; API.md v1.3, "Administration")."""

from __future__ import annotations

import hmac

from flask import current_app, g, request

from api.bank import tablebank
from ledger.errors import LedgerError, NotFound, Unauthorized
from ledger.transactions.declare import ADMIN

# The app's configuration key of the admin token (``tablebank serve --admin-token-file F``).
ADMIN_TOKEN = "TABLEBANK_ADMIN_TOKEN"


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if there is one."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def authorize_game() -> None:
    """Before a view of one game: 404 if there is no such game, else 401/403 unless the token
    opens it; the token's role ("banker" or a player id) is kept in ``g.role``."""
    game = (request.view_args or {}).get("game")
    if game is None:
        return
    bank = tablebank()
    given = bearer_token()
    if is_admin_token(given):
        if bank.purged.holds(game):  # a game still in this process's caches: gone all the same
            raise NotFound(f"no game {game}: it was purged")
        bank.version(game)  # 404 for a game this server does not hold
        g.role = ADMIN
        return
    try:
        # A token that opens this game proves the game exists: no need to load it here.
        g.role = bank.authenticate(game, given)
    except LedgerError:
        bank.version(game)  # a game this server does not hold is not found, whatever the token
        raise


def authorize_admin() -> None:
    """Before the list of games: 401 unless the server has no admin token or the request
    carries it."""
    expected: str | None = current_app.config.get(ADMIN_TOKEN)
    if not expected or request.method not in ("GET", "HEAD"):
        return  # POST /games (a new game) needs no token; a HEAD is the GET's headers
    if not is_admin_token(bearer_token()):
        raise Unauthorized("the list of games needs the server's admin token")


def is_admin_token(given: str | None) -> bool:
    """Whether ``given`` is the server's admin token (compared in constant time, as bytes: a
    header may hold any Latin-1); never, on a server without one."""
    expected: str | None = current_app.config.get(ADMIN_TOKEN)
    if not expected or given is None:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


def carries_token(expected: str) -> bool:
    """Whether the request's bearer token is ``expected`` (compared in constant time, as
    bytes: a header may hold any Latin-1)."""
    given = bearer_token()
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def current_role() -> str:
    """The role of the request's token on its game: "banker", a player id or ``ADMIN``."""
    role: str = g.role
    return role
