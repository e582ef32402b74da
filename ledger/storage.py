"""``Storage``: the event-sourced application under every part of ``TableBank``: one ``Game``
aggregate per table, the tokens' grants, the answers kept per Idempotency-Key and the logs of
games and statuses, with the store's settings (the aggregate cache, snapshots). The parts
read and save through it; none of them is one.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import JSONTranscoder

from ledger.errors import NotFound
from ledger.game import Game
from ledger.store import answers, store_unavailable

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL = 100


class Storage(Application[UUID]):
    """The store of every table this server holds, and the games it hands out."""

    # The library names the store's tables (``tablebank_events``) and reads its settings from
    # the environment (``TABLEBANK_*``) by the application's name: the one it had when it was
    # ``TableBank`` itself.
    name = "TableBank"
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}  # noqa: RUF012 - the library's own class attribute
    env = {"AGGREGATE_CACHE_MAXSIZE": "1000"}  # noqa: RUF012

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        # Whether stored events are plain JSON text (the default): no cipher, no compressor,
        # the library's JSON transcoder. Then records are read without the mapper.
        self.plain_json = (
            self.mapper.cipher is None
            and self.mapper.compressor is None
            and type(self.mapper.transcoder) is JSONTranscoder
        )

    def answers(self) -> bool:
        """Whether the store answers a round trip in time (``ledger.store.answers``)."""
        return answers(self.recorder, self.env)

    def load_game(self, game_id: UUID | str, version: int | None = None) -> Game:
        """The game now, or at ``version``; refuses an id this server holds no game for."""
        try:
            uid = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
            game: Any = self.repository.get(uid, version=version)
        except (ValueError, AggregateNotFoundError):
            raise NotFound(f"no game {game_id}") from None
        if not isinstance(game, Game):
            raise NotFound(f"no game {game_id}")
        return game

    def _take_snapshots(self, processing_event: Any) -> None:
        """Take the snapshots due after a save; a store unavailable loses one, not the write."""
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
