"""Writing: one transaction recorded at most once per Idempotency-Key, checked against the
game's latest state, retried against the fresh state when another process saved first, and
the dry run that shares every step but the save (a key already recorded answers it as it
answers the real write's repeat; a key whose first request is still being recorded in this
process it cannot answer yet: ``idempotency_in_progress``, ask again).

Every write loads one ``Game`` (from the cache, or a snapshot plus the events after it), runs
one command, and saves the one event it triggered, with the key's answer and the status log's
line in the same atomic write (``ledger.commit``: with the writes of other games that arrive
together). A conflict with a concurrent writer is retried, so no update is lost; a retry that
the rules now refuse returns that refusal. The first attempt takes the game as this process
last saved it, asking the store nothing: a game another process wrote since makes its save
clash, and the write is tried again on the store's game (``Writing._record_retrying``).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from copy import deepcopy
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, EventSourcedLog
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from ledger.access import NAMESPACE
from ledger.caches import BoundedCache
from ledger.chain import canonical, sha256
from ledger.commit import GroupCommit
from ledger.draft import History
from ledger.errors import (
    BUSY,
    Forbidden,
    IdempotencyInProgress,
    IdempotencyKeyReused,
    InvalidField,
    LedgerError,
    VersionConflict,
)
from ledger.game import Game
from ledger.reading import Reading
from ledger.state import State, copy_state
from ledger.storage import Storage
from ledger.transactions import RECORDABLE, REGISTRY
from ledger.transactions.declare import ADMIN, ADMIN_FORBIDDEN, FORBIDDEN, Records
from ledger.views import game_view_version, transaction_view

WRITE_ATTEMPTS = 60
# After a lost race with another process, wait a random moment (up to this many seconds per
# attempt so far) so that two writers do not keep colliding in step.
BACKOFF_SECONDS = 0.002
# After a save of a game clashed with another process's, its writes in this process load the
# game from the store for this long (``Writing._cached_game``).
SHARED_SECONDS = 60.0
# How many such games a process remembers (the least recently clashed are forgotten first).
SHARED_GAMES = 10_000


# What ``If-Match`` names: one version, or several (a list of tags: any one will do; none,
# when it named only weak tags, which never match); None for no condition.
Versions = str | tuple[str, ...]


class IdempotentWrite(Aggregate):
    """The answer recorded under one Idempotency-Key of one game, saved with the transaction."""

    @staticmethod
    def create_id(game_id: UUID, key: str) -> UUID:
        """The id of the answer kept under Idempotency-Key ``key`` of game ``game_id``."""
        return uuid5(NAMESPACE, f"idempotency:{game_id}:{key}")

    @event("Recorded")
    def __init__(self, game_id: UUID, key: str, body_digest: str, response: dict[str, Any]) -> None:
        self.body_digest = body_digest
        self.response = response


class Writing:
    """Recording transactions, and the dry run."""

    def __init__(
        self,
        storage: Storage,
        reading: Reading,
        status_log: EventSourcedLog[Any],
        gather: Callable[[], None] | None = None,
        committed: Callable[[int], None] | None = None,
    ) -> None:
        self._storage = storage
        self._reading = reading
        self._status_log = status_log
        self.group_commit = GroupCommit(storage, gather, committed)
        # Per game being written in this process: its lock and how many writers hold or wait
        # for it. A game's entry goes with its last writer, so the table holds only the games
        # being written now.
        self._locks: dict[str, tuple[threading.Lock, int]] = {}
        self._locks_guard = threading.Lock()
        # The Idempotency-Keys being recorded in this process, per game: how many requests with
        # each hold or wait for the game's lock (a dry run of one cannot answer as its repeat).
        self._keys_in_progress: dict[tuple[str, str], int] = {}
        # Games whose save clashed with another process's, with when (time.monotonic()).
        self._written_elsewhere: BoundedCache[UUID, float] = BoundedCache(SHARED_GAMES)

    def record(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str = "banker",
        *,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Record one transaction; return it as the API shows it. With ``dry_run``: what it would
        record now, refused as it would be, recording nothing."""
        return self.record_request(game_id, body, by, dry_run=dry_run)[0]

    def record_request(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str = "banker",
        *,
        key: str | None = None,
        if_match: Versions | None = None,
        dry_run: bool = False,
    ) -> tuple[dict[str, Any], bool]:
        """Record one transaction at most once per idempotency ``key``.

        Returns the transaction and whether it is the stored answer to an earlier request
        with the same key (then nothing new is recorded). ``if_match`` is the version the
        client last saw; a game that has moved on since refuses with ``version_conflict``.
        With ``dry_run``: what it would answer now, refused as it would be, recording nothing
        (``_dry_run``).
        """
        check_request(body, by, self._record_of(game_id))
        if dry_run:
            return self._dry_run(game_id, body, by, key, if_match)
        body_digest = sha256(canonical(body))
        # Threads of this process take turns on one game; only other processes can race.
        with self._key_in_progress(game_id, key), self._game_turn(game_id):
            return self._record_retrying(game_id, body, by, key, if_match, body_digest)

    def _dry_run(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str,
        key: str | None,
        if_match: Versions | None,
    ) -> tuple[dict[str, Any], bool]:
        """What ``record_request`` would answer now, its request checked; records nothing.

        A ``key`` already recorded answers as the real write's repeat would: the recorded
        transaction and ``True`` for the same body, ``idempotency_key_reused`` for another.
        Otherwise the same checks and the same ``Game.record`` as a real write, on a copy of
        the game the repository hands out, with only the save left out, and ``False``; the key
        stays unused. ``at`` and ``hash`` are then ``None`` (the real write stamps its own
        time, and the hash covers it).
        """
        game = self._storage.load_game(game_id)
        if key is not None:
            earlier = self._idempotent_answer(game.id, key, sha256(canonical(body)))
            if earlier is not None:
                return earlier, True
            if self._in_progress(game_id, key):
                raise IdempotencyInProgress("the first request with this key is being recorded")
        txn = self._draft(game, body, by, if_match)
        return {**transaction_view(txn), "at": None, "hash": None}, False

    def _draft(
        self, game: Game, body: dict[str, Any], by: str, if_match: Versions | None
    ) -> dict[str, Any]:
        """The checks of a write on the loaded ``game`` and its one new event, not yet saved."""
        wanted = (if_match,) if isinstance(if_match, str) else if_match
        current = game_view_version(game)
        if wanted is not None and current not in wanted:
            named = " or ".join(wanted) if wanted else "no version (only weak tags)"
            raise VersionConflict(f"the game is at version {current}, not {named}", current=current)
        return game.record(body, by=by, history=self._history(game))

    @contextmanager
    def _key_in_progress(self, game_id: UUID | str, key: str | None) -> Iterator[None]:
        """Mark ``key`` of the game as being recorded (by this request) until it is answered."""
        if key is None:
            yield
            return
        name = (str(game_id).lower(), key)
        with self._locks_guard:
            self._keys_in_progress[name] = self._keys_in_progress.get(name, 0) + 1
        try:
            yield
        finally:
            with self._locks_guard:
                left = self._keys_in_progress.pop(name) - 1
                if left:
                    self._keys_in_progress[name] = left

    def _in_progress(self, game_id: UUID | str, key: str) -> bool:
        """Whether a request with ``key`` is being recorded in this process now."""
        with self._locks_guard:
            return (str(game_id).lower(), key) in self._keys_in_progress

    @contextmanager
    def _game_turn(self, game_id: UUID | str) -> Iterator[None]:
        """Hold the game's lock in this process (writers of one game take turns)."""
        key = str(game_id).lower()
        with self._locks_guard:
            lock, users = self._locks.get(key) or (threading.Lock(), 0)
            self._locks[key] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._locks_guard:
                users = self._locks[key][1] - 1
                if users:
                    self._locks[key] = (lock, users)
                else:
                    del self._locks[key]

    def _record_retrying(
        self,
        game_id: UUID | str,
        body: dict[str, Any],
        by: str,
        key: str | None,
        if_match: Versions | None,
        body_digest: str,
    ) -> tuple[dict[str, Any], bool]:
        """Record ``body``, again on the store's game after a clash or a refusal on the cached one;
        the transaction's view, and whether it is the answer kept for an earlier request."""
        # The first attempt trusts this process's cache: the game as this process last saved
        # or read it, without asking the store whether another process wrote since. That is
        # checked where it matters anyway: a save on a stale game clashes with the version
        # taken (``IntegrityError``), and the write is tried again on the store's game. A
        # refusal on the cached game is not trusted either: the write is tried again on the
        # store's game, and only a refusal there is the answer. The Idempotency-Key is looked
        # up only then, too: a key already used makes the first save clash (its answer's id
        # is taken), so a repeat is found on the second attempt.
        trusted = True
        for attempt in range(WRITE_ATTEMPTS):
            if attempt > 1:
                time.sleep(random.uniform(0, BACKOFF_SECONDS * attempt))
            game = self._cached_game(game_id) if trusted else None
            if game is None:
                trusted = False
                game = self._storage.load_game(game_id)
            if key is not None and not trusted:
                earlier = self._idempotent_answer(game.id, key, body_digest)
                if earlier is not None:
                    return earlier, True
            status = game.state["status"]
            try:
                txn = self._draft(game, body, by, if_match)
            except LedgerError:
                if trusted:
                    trusted = False
                    continue
                raise
            trusted = False
            view = transaction_view(txn)
            saving: list[Any] = [game]
            if key is not None:
                saving.append(IdempotentWrite(game.id, key, body_digest, view))
            if game.state["status"] != status:  # in the same write, or not at all
                saving.append(
                    self._status_log.trigger_event(game_id=game.id, status=game.state["status"])
                )
            try:
                self.group_commit.save(*saving)
            except IntegrityError:
                # A concurrent writer won (maybe with this key): try on the fresh state, and
                # for a while trust no cached copy of this game (it is written elsewhere too).
                self._written_elsewhere.put(game.id, time.monotonic())
                continue
            self._keep(game)
            return view, False
        raise LedgerError(BUSY, "the game is too busy; try again")  # pragma: no cover

    def _cached_game(self, game_id: UUID | str) -> Game | None:
        """A copy of the game as this process's cache holds it, not brought up to date from
        the store; ``None`` if it holds none, or if a save of this game clashed with another
        process's less than ``SHARED_SECONDS`` ago (a game that several servers write, each
        behind a load balancer: its writes load it from the store first, as each would
        otherwise clash once)."""
        cache = self._storage.repository.cache
        try:
            uid = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
            cached = cache.get(uid) if cache is not None else None
        except (ValueError, KeyError):
            return None
        if not isinstance(cached, Game):
            return None
        clashed = self._written_elsewhere.get(uid)
        if clashed is not None and time.monotonic() - clashed < SHARED_SECONDS:
            return None
        return deepcopy(cached)

    def _keep(self, game: Game) -> None:
        """Put the game just saved in the aggregate cache: the next write of this game then
        finds it as it is, where the library (which, fast-forwarding, caches nothing it saves)
        would read and apply this write's event again. A later write by another process is
        still found (each load fast-forwards the cached game from the store)."""
        cache = self._storage.repository.cache
        if cache is not None:
            cache.put(game.id, game)

    def _idempotent_answer(
        self, game_id: UUID, key: str, body_digest: str
    ) -> dict[str, Any] | None:
        """The answer kept under ``key`` for this body, or None; refused if the key had another."""
        try:
            earlier: Any = self._storage.repository.get(IdempotentWrite.create_id(game_id, key))
        except AggregateNotFoundError:
            return None
        assert isinstance(earlier, IdempotentWrite)
        if earlier.body_digest != body_digest:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was used with another body", seq=earlier.response["seq"]
            )
        return dict(earlier.response)

    def _record_of(self, game_id: UUID | str) -> Records:
        """Reads one transaction record of a game by its seq (``None`` if it has none)."""

        def record(seq: int) -> dict[str, Any] | None:
            game = self._storage.load_game(game_id)
            if not 1 <= seq <= game.last_seq:
                return None
            return next(self._reading.records(game.id, after=seq - 1, limit=1), None)

        return record

    def _history(self, game: Game) -> History:
        """Reads a live game's earlier transactions from the store (for voids)."""

        def history(seq: int) -> tuple[dict[str, Any], State, list[dict[str, Any]]]:
            before = self._storage.load_game(game.id, version=seq)  # the game right after seq - 1
            txns = list(self._reading.records(game.id, after=seq - 1))
            return txns[0], copy_state(before.state), txns[1:]

        return history


def check_request(body: Any, by: str, records: Records = lambda seq: None) -> None:
    """A transaction body of a type one may record after set-up, by someone who may;
    ``records`` reads the game's transactions by seq, for a right that depends on them."""
    kind = body.get("type") if isinstance(body, dict) else None
    if not isinstance(kind, str) or kind not in RECORDABLE:
        raise InvalidField("type", f"unknown transaction type {kind!r}")
    check_may_record(body, by, records)


def check_may_record(body: dict[str, Any], by: str, records: Records = lambda seq: None) -> None:
    """A player token records only what its type's declaration lets a player record
    (``PlayerRight``): payments out of its own account, disputes of its own money; the admin
    token only the types declared ``admin=True`` (``finish``)."""
    if by == "banker":
        return
    declared = REGISTRY.get(str(body.get("type")))
    if by == ADMIN and (declared is None or not declared.may_record(body, by, records)):
        raise Forbidden(ADMIN_FORBIDDEN)
    if declared is None or not declared.may_record(body, by, records):
        right = declared.players if declared is not None else None
        raise Forbidden((right.refused if right is not None else FORBIDDEN).format(by=by))
