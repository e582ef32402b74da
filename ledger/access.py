"""Access: the tokens of a game. A token is random, shown once, and kept only as its hash, in
an ``Access`` aggregate found by that hash, which says which game it opens and as whom
('banker' or a player id).

A role's token can be replaced (API.md v1.3, "Administration": a lost or shared phone). Nothing
is deleted or changed: the replacement is an event of the role's ``Seat`` (one aggregate per
game and role, made at its first replacement), whose version is the role's **generation**; the
new token's grant (``ReissuedAccess``) carries the generation it was made for, the game's first
tokens generation 0. A token opens its game while its generation is the seat's. A grant never
changes, so it stays cached; the seat's generation is asked of the store at each request (one
read by primary key: the seat's last version), so the old token is refused at once by every
process of every server on the store.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from ledger.caches import BoundedCache
from ledger.errors import Forbidden, NotFound, Unauthorized
from ledger.game import Game
from ledger.live import Watch
from ledger.storage import Storage

NAMESPACE = uuid5(NAMESPACE_URL, "https://tablebank.invalid/")
# What so many tokens open is kept in memory (a grant never changes); one evicted is read again.
ACCESS_CACHE_SIZE = 10_000
# How often a replacement is tried again when another one of the same role was saved first.
REPLACE_ATTEMPTS = 10
REPLACED = "this link was replaced by a new one: ask the banker for it"


class Access(Aggregate):
    """What one token may do, found by the token's hash (the token itself is never kept)."""

    @staticmethod
    def create_id(token_hash: str) -> UUID:
        """The id of a token's grant, made from the token's hash."""
        return uuid5(NAMESPACE, "token:" + token_hash)

    # The seat's generation the token was made for: a game's first tokens are of generation 0.
    generation = 0

    @event("Issued")
    def __init__(self, token_hash: str, game_id: UUID, role: str) -> None:
        self.game_id = game_id
        self.role = role


class ReissuedAccess(Access):
    """The grant of a token that replaced another: of the seat's generation it was made for."""

    @event("Issued")
    def __init__(self, token_hash: str, game_id: UUID, role: str, generation: int) -> None:
        self.game_id = game_id
        self.role = role
        self.generation = generation


class Seat(Aggregate):
    """One role of one game whose token was replaced: each replacement is one event, so the
    seat's version is the generation of the one token of the role that opens the game now."""

    @staticmethod
    def create_id(game_id: UUID, role: str) -> UUID:
        """The id of the seat of ``role`` in game ``game_id``."""
        return uuid5(NAMESPACE, f"seat:{game_id}:{role}")

    @event("Replaced")
    def __init__(self, game_id: UUID, role: str) -> None:
        self.game_id = game_id
        self.role = role

    @event("ReplacedAgain")
    def replace(self) -> None:
        """The role's token is replaced once more."""


@dataclass(frozen=True)
class Grant:
    """What a token opens: its game, as whom, and of which generation of that role."""

    game_id: UUID
    role: str
    generation: int


def hash_token(token: str) -> str:
    """The hash a token is kept and found by (SHA-256, in hex)."""
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
        self._cache: BoundedCache[str, Grant] = BoundedCache(ACCESS_CACHE_SIZE)

    def issue(self, game: Game) -> tuple[dict[str, str], list[Access]]:
        """A token for the banker and one per player, and the grants that keep their hashes."""
        tokens = {"banker": secrets.token_urlsafe(32)}
        tokens.update({pid: secrets.token_urlsafe(32) for pid in game.state["players"]})
        return tokens, [Access(hash_token(t), game.id, role) for role, t in tokens.items()]

    def authenticate(self, game_id: UUID | str, token: str | None) -> str:
        """The role a token has on a game: 'banker' or a player id."""
        grant = self._grant(game_id, token)
        if grant.generation != self.generation(grant.game_id, grant.role):
            raise Unauthorized(REPLACED, replaced=True)
        return grant.role

    def watch(self, game_id: UUID | str, token: str | None) -> Watch:
        """How a reader holding ``token`` (which opens the game) learns it was replaced."""
        grant = self._grant(game_id, token)
        seat_id = Seat.create_id(grant.game_id, grant.role)
        return Watch(
            seat_id, lambda: grant.generation != self.generation(grant.game_id, grant.role)
        )

    def generation(self, game_id: UUID, role: str) -> int:
        """The generation of the role's token now: how often it was replaced (one read of the
        store, by the seat's id: its last version; 0 where it never was)."""
        recorder = self._storage.recorder
        last = recorder.select_events(Seat.create_id(game_id, role), desc=True, limit=1)
        return last[0].originator_version if last else 0

    def replace_token(self, game_id: UUID | str, role: str, by: str) -> dict[str, str]:
        """A new token for ``role`` of the game (the banker's, or a player's), made by ``by``
        (the banker alone: a player's or the admin's token may not), ending the old one."""
        if by != "banker":
            raise Forbidden("only the banker's token makes a new link")
        game = self._storage.load_game(game_id)
        check_role(game, role)
        return {"role": role, "token": self.replace(game.id, role)}

    def replace(self, game_id: UUID, role: str) -> str:
        """A new token for ``role`` of the game (shown once), saved with the seat's event that
        ends the role's token before it, in one write; retried on a concurrent replacement,
        which then came first (the last one made is the one that opens the game)."""
        token = secrets.token_urlsafe(32)
        for _ in range(REPLACE_ATTEMPTS):
            try:
                seat: Any = self._storage.repository.get(Seat.create_id(game_id, role))
                seat.replace()
            except AggregateNotFoundError:
                seat = Seat(game_id, role)
            grant = ReissuedAccess(hash_token(token), game_id, role, seat.version)
            try:
                self._storage.save(seat, grant)
            except IntegrityError:
                continue
            return token
        raise Unauthorized("the link could not be replaced; try again")  # pragma: no cover

    def _grant(self, game_id: UUID | str, token: str | None) -> Grant:
        """What ``token`` opens, from the cache or the store; 401 for none, 403 for a token of
        another game."""
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
            grant = Grant(access.game_id, access.role, access.generation)
            self._cache.put(digest, grant)
        if str(grant.game_id) != str(game_id).lower():
            raise Forbidden("this token belongs to another game")
        if self._purged(grant.game_id):
            raise NotFound(f"no game {game_id}: it was purged")
        return grant


def check_role(game: Game, role: str) -> None:
    """Refuse a role the game has not: not the banker, nor one of its players."""
    if role != "banker" and role not in game.state["players"]:
        raise NotFound(f"no role {role!r} in this game: 'banker' or a player id")
