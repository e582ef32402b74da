"""``TableBank``: the application service, put together from one part per job:

- ``ledger.reading``: a game now or at any seq, its records, statements, replay, the chain
  check, the live feed;
- ``ledger.access``: the tokens, kept as hashes, and what each may do;
- ``ledger.setup``: creating a game (rule set, options, deal, set-up transactions, tokens)
  and the list of games;
- ``ledger.writing``: recording a transaction once per Idempotency-Key, with retries, and the
  dry run;
- ``ledger.exchange``: export and import of a game's log, and its offline checks;
- ``ledger.views``: how a game, a transaction and a rule set are shown.

This module composes them and owns the store's settings (the aggregate cache, snapshots).
"""

from __future__ import annotations

import logging
import threading
from typing import Any
from uuid import UUID

from eventsourcing.application import EventSourcedLog
from eventsourcing.persistence import JSONTranscoder
from eventsourcing.utils import register_topic

from ledger.access import ACCESS_CACHE_SIZE, Access
from ledger.caches import BoundedCache
from ledger.commit import GroupCommit
from ledger.exchange import SNAPSHOT_INTERVAL, Exchange
from ledger.game import Game
from ledger.setup import GAMES_LOG_ID, STATUS_LOG_ID, GameListed, GameStatusLogged
from ledger.store import store_unavailable
from ledger.writing import SHARED_GAMES, IdempotentWrite, Writing

log = logging.getLogger(__name__)

__all__ = ["TableBank"]

# Stores written before the application was split name these classes by this module.
for _name, _cls in (
    ("Access", Access),
    ("Access.Issued", Access.Issued),  # type: ignore[attr-defined]  # made by @event
    ("IdempotentWrite", IdempotentWrite),
    ("IdempotentWrite.Recorded", IdempotentWrite.Recorded),  # type: ignore[attr-defined]
    ("GameListed", GameListed),
    ("GameStatusLogged", GameStatusLogged),
):
    register_topic(f"ledger.application:{_name}", _cls)


class TableBank(Exchange, Writing):
    """The bank of every table this server holds."""

    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}  # noqa: RUF012 - the library's own class attribute
    env = {"AGGREGATE_CACHE_MAXSIZE": "1000"}  # noqa: RUF012

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.games_log: EventSourcedLog[GameListed] = EventSourcedLog(
            self.events, GAMES_LOG_ID, GameListed
        )
        self.status_log: EventSourcedLog[GameStatusLogged] = EventSourcedLog(
            self.events, STATUS_LOG_ID, GameStatusLogged
        )
        self._access_cache: BoundedCache[str, tuple[UUID, str]] = BoundedCache(ACCESS_CACHE_SIZE)
        self._locks: dict[str, tuple[threading.Lock, int]] = {}
        self._locks_guard = threading.Lock()
        self.group_commit = GroupCommit(self)
        self._written_elsewhere: BoundedCache[UUID, float] = BoundedCache(SHARED_GAMES)
        # Whether stored events are plain JSON text (the default): no cipher, no compressor,
        # the library's JSON transcoder. Then records are read without the mapper.
        self._plain_json = (
            self.mapper.cipher is None
            and self.mapper.compressor is None
            and type(self.mapper.transcoder) is JSONTranscoder
        )

    def _take_snapshots(self, processing_event: Any) -> None:
        # A snapshot is taken after its transaction is saved, and is only a shortcut for
        # loading the game: a store that fails now must not turn a recorded write into an
        # error (the next snapshot comes SNAPSHOT_INTERVAL transactions later).
        try:
            self._snapshot_saved(processing_event)
        except Exception as error:
            if not store_unavailable(error):
                raise
            log.warning("a snapshot was not saved (the store is unavailable): %s", error)

    def _snapshot_saved(self, processing_event: Any) -> None:
        """Snapshot each game whose saved event has a version that is a multiple of the
        interval, as the library does, but of the game in hand when it is at that version
        (a write saves one event: the game after it is the one just saved), instead of
        loading it again from the store (the last snapshot and up to 100 events after it)."""
        if self.snapshots is None:
            return
        taken: list[Any] = []
        for event in processing_event.events:
            game = processing_event.aggregates.get(event.originator_id)
            if not isinstance(game, Game) or event.originator_version % SNAPSHOT_INTERVAL:
                continue
            if game.version == event.originator_version:
                taken.append(Game.Snapshot.take(game))
            else:
                self.take_snapshot(event.originator_id, version=event.originator_version)
        if taken:
            self.snapshots.put(taken)
