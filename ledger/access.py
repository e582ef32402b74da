"""Access: the tokens of a game. A token is random, shown once, and kept only as its hash, in
an ``Access`` aggregate found by that hash, which says which game it opens and as whom
('banker' or a player id).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event

from ledger.caches import BoundedCache
from ledger.errors import Forbidden, NotFound, Unauthorized
from ledger.game import Game
from ledger.storage import Storage

NAMESPACE = uuid5(NAMESPACE_URL, "https://tablebank.invalid/")
# What so many tokens open is kept in memory (a grant never changes); one evicted is read again.
ACCESS_CACHE_SIZE = 10_000


class Access(Aggregate):
    """What one token may do, found by the token's hash (the token itself is never kept)."""

    @staticmethod
    def create_id(token_hash: str) -> UUID:
        return uuid5(NAMESPACE, "token:" + token_hash)

    @event("Issued")
    def __init__(self, token_hash: str, game_id: UUID, role: str) -> None:
        self.game_id = game_id
        self.role = role


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Tokens:
    """Issuing a game's tokens and telling what a token may do."""

    def __init__(
        self, storage: Storage, purged: Callable[[UUID | str], bool] = lambda game_id: False
    ) -> None:
        """``purged``: whether a game left the store (``ledger.purge.PurgedGames``), which
        the grants kept in memory cannot tell."""
        self._storage = storage
        self._purged = purged
        # What each token opens, by its hash: a grant never changes.
        self._cache: BoundedCache[str, tuple[UUID, str]] = BoundedCache(ACCESS_CACHE_SIZE)

    def issue(self, game: Game) -> tuple[dict[str, str], list[Access]]:
        """A token for the banker and one per player, and the grants that keep their hashes."""
        tokens = {"banker": secrets.token_urlsafe(32)}
        tokens.update({pid: secrets.token_urlsafe(32) for pid in game.state["players"]})
        return tokens, [Access(hash_token(t), game.id, role) for role, t in tokens.items()]

    def authenticate(self, game_id: UUID | str, token: str | None) -> str:
        """The role a token has on a game: 'banker' or a player id."""
        if not token:
            raise Unauthorized("a bearer token is required")
        digest = hash_token(token)
        grant = self._cache.get(digest)
        if grant is None:
            try:
                access: Any = self._storage.repository.get(Access.create_id(digest))
            except AggregateNotFoundError:
                if self._purged(game_id):
                    raise NotFound(f"no game {game_id}: it was purged") from None
                raise Unauthorized("unknown token") from None
            assert isinstance(access, Access)
            grant = (access.game_id, access.role)
            self._cache.put(digest, grant)
        if str(grant[0]) != str(game_id).lower():
            raise Forbidden("this token belongs to another game")
        if self._purged(grant[0]):
            raise NotFound(f"no game {game_id}: it was purged")
        return grant[1]
