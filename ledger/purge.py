"""Purging: a finished game leaves the store whole, the one way a game ever leaves it
(``tablebank purge``, once its export is written and verified elsewhere).

A game's rows are: its ``Game`` aggregate's events and snapshots, the ``Access`` grants of its
tokens (every event of each), the answers kept per Idempotency-Key (``IdempotentWrite``), and
its entries in the two logs of the server, the list of games (``GameListed``) and the statuses
(``GameStatusLogged``). ``Purging.purge`` removes them all in one store transaction, which
first appends a ``GamePurged`` event to a log of its own, the store's record that the game was
there and was purged (its id, transactions and head: which export it left as). Nothing is
rewritten: the rows of the logs are removed, not changed, and their readers take the gaps as
they take any position (the list of games simply no longer names it).

The ``GamePurged`` event is appended before the rows go, so that SQLite never gives a later
event a notification id (its rowid) that the purged rows had held and a follower of the
notification log has already read past (``ledger.live``). PostgreSQL's ids come from a sequence.

The rows an import left when its server stopped in the middle of its save (its first store
transactions, never its list line nor its tokens: ``SetUp.save_new_game``) leave the same way,
once they are older than the day a purge is given (``Purging.unfinished_imports``).

A server that has the game's grants or the game in its caches learns of the purge from that
log (``PurgedGames``), at most ``PURGE_CHECK_SECONDS`` later, and then answers 404.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import EventSourcedLog
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import get_topic

from ledger.access import NAMESPACE, Access, ReissuedAccess, Seat
from ledger.errors import NotFound
from ledger.game import Game
from ledger.setup import GameListed, GameStatusLogged, SetUp
from ledger.storage import Storage
from ledger.store import HAS_POSTGRES
from ledger.writing import IdempotentWrite

if HAS_POSTGRES:
    from eventsourcing.postgres import PostgresAggregateRecorder
    from psycopg.rows import tuple_row
    from psycopg.sql import SQL, Identifier

PURGED_LOG_ID = uuid5(NAMESPACE, "purged games")
# How long a server may go on answering from its caches for a game another process purged.
PURGE_CHECK_SECONDS = 1.0
# How long the rows of an import no list names are left alone: it may be under way.
UNFINISHED_GRACE = timedelta(days=1)
# Tries of a purge whose place in the log of purges another purge took meanwhile.
PURGE_ATTEMPTS = 5


class GamePurged(DomainEvent):
    """A game that left the store whole: the transactions and head its verified export holds;
    or the rows of an import that never finished, removed (the transactions it had saved)."""

    game_id: UUID
    transactions: int
    head: str


# The events of the server's other aggregates and logs that name a game (its ``game_id``):
# each such aggregate, or each such entry of a log, is the game's. Stores written before the
# application was split name some by ``ledger.application`` (registered there).
WHOLE_AGGREGATES = (
    Access.Issued,  # type: ignore[attr-defined]
    ReissuedAccess.Issued,  # type: ignore[attr-defined]  # a token made anew for a role
    Seat.Replaced,  # type: ignore[attr-defined]  # a role's replacements
    IdempotentWrite.Recorded,  # type: ignore[attr-defined]
)
LOG_ENTRIES = (GameListed, GameStatusLogged)


def topics(classes: tuple[type[Any], ...]) -> list[str]:
    """The topics a store may name these events by."""
    found = [get_topic(cls) for cls in classes]
    return found + [f"ledger.application:{cls.__qualname__}" for cls in classes]


@dataclass(frozen=True)
class Purgeable:
    """A finished game that may be purged, as the store holds it now."""

    id: str
    name: str
    last_written: datetime
    version: int  # its aggregate's: a game written to since is not purged
    transactions: int
    head: str


@dataclass
class Owned:
    """A game's rows beside its own events: whole aggregates, and entries of logs."""

    aggregates: set[UUID]
    entries: set[tuple[UUID, int]]


class GameChanged(Exception):
    """The game was written to after it was exported: it is kept."""


class PurgedGames:
    """The games purged since this process started, as the log of purges says, read at most
    every ``PURGE_CHECK_SECONDS`` (one indexed read) while games are asked for."""

    def __init__(
        self, log: EventSourcedLog[GamePurged], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._log = log
        self._clock = clock
        self._ids: set[str] = set()
        self._checked = clock()
        # Games purged before this process started are in none of its caches: not read.
        last = log.get_last()
        self._position = last.originator_version if last is not None else 0

    def holds(self, game_id: UUID | str) -> bool:
        """Whether the game was purged (by any process) as of ``PURGE_CHECK_SECONDS`` ago."""
        now = self._clock()
        if now - self._checked >= PURGE_CHECK_SECONDS:
            self._checked = now
            # A store that does not answer fails the request here (503 storage_unavailable),
            # once a second at most: carried on, the request would wait for it a second time.
            for purged in self._log.get(gt=self._position):
                self._ids.add(str(purged.game_id))
                self._position = max(self._position, purged.originator_version)
        return str(game_id).lower() in self._ids


class Purging:
    """Finding the finished games that may be purged, and purging one."""

    def __init__(self, storage: Storage, setup: SetUp, log: EventSourcedLog[GamePurged]) -> None:
        self._storage = storage
        self._setup = setup
        self._log = log
        self._owned: dict[str, Owned] | None = None

    def purgeable(self, before: datetime) -> list[Purgeable]:
        """The finished games the store last wrote before ``before``, oldest listed first."""
        found = []
        for listed in self._setup.list_games():
            if listed["status"] != "finished":
                continue
            game = self._as_read(listed["id"])
            if game.last_written < before:
                found.append(game)
        return found

    def _as_read(self, game_id: str) -> Purgeable:
        """A game as the store holds it now."""
        game = self._storage.load_game(game_id)
        return Purgeable(
            id=game_id,
            name=game.name,
            last_written=game.modified_on,
            version=game.version,
            transactions=game.last_seq,
            head=game.state["head"],
        )

    def unfinished_imports(self, before: datetime) -> list[Purgeable]:
        """The games of imports that never finished, their rows last written before
        ``before`` and ``UNFINISHED_GRACE`` ago at least: a server stopped between two store
        transactions of the import's save (``SetUp.save_new_game``) left the events of the
        first ones, in no list, with no token, read by nobody. An import under way is such a
        game for a moment too (seconds; minutes at the most): one written since is left alone,
        whatever day ``before`` says (a purge given tomorrow would have removed the first
        events of an import a server was saving, and then answered 201 for it)."""
        before = min(before, datetime.now(UTC) - UNFINISHED_GRACE)
        listed = {line["id"] for line in self._setup.list_games()}
        found = []
        for stored in self._select_topics(topics((Game.Created,)), states=False):
            game_id = str(stored.originator_id)
            if game_id in listed:
                continue
            game = self._as_read(game_id)
            if game.last_written < before:
                found.append(game)
        return found

    def remove_unfinished(self, game: Purgeable) -> int:
        """Remove the rows of an import that never finished, in one transaction that logs it
        as a purge (of the transactions it had saved); the rows removed."""
        return self._removed(game)

    def purge(self, game: Purgeable) -> int:
        """Remove every row of a finished game, in one transaction that logs its purge;
        the rows removed. ``GameChanged`` if it was written to since ``game`` was read."""
        if self._storage.load_game(game.id).state["status"] != "finished":
            raise GameChanged(f"game {game.id} is active")  # never purged, whatever was read
        return self._removed(game)

    def _removed(self, game: Purgeable) -> int:
        """Log the purge of ``game`` and remove its rows, tried again when another purge took its
        place in the log; the rows removed."""
        owned = self.owned().pop(game.id, Owned(set(), set()))
        for _ in range(PURGE_ATTEMPTS):
            marker = self._log.trigger_event(
                game_id=UUID(game.id), transactions=game.transactions, head=game.head
            )
            stored = self._storage.mapper.to_stored_event(marker)
            try:
                return self._remove(UUID(game.id), game.version, owned, stored)
            except IntegrityError:  # another purge took this place in the log
                continue
        raise RuntimeError("could not log the purge")  # pragma: no cover

    def owned(self) -> dict[str, Owned]:
        """Every game's rows beside its own events, by game id: read once (one scan of the
        events of grants, idempotent answers and logs), then kept for the purges to come."""
        if self._owned is None:
            owned: dict[str, Owned] = defaultdict(lambda: Owned(set(), set()))
            whole, entries = set(topics(WHOLE_AGGREGATES)), set(topics(LOG_ENTRIES))
            for stored in self._select_topics(sorted(whole | entries)):
                event: Any = self._storage.mapper.to_domain_event(stored)
                rows = owned[str(event.game_id)]
                if stored.topic in whole:
                    rows.aggregates.add(stored.originator_id)  # type: ignore[arg-type]
                else:
                    rows.entries.add((stored.originator_id, stored.originator_version))  # type: ignore[arg-type]
            self._owned = dict(owned)
        return self._owned

    # -- the stores -----------------------------------------------------------------------------
    def _tables(self) -> tuple[Any, str, str]:
        """The store's recorder, its table of events, and its table of snapshots ("" for none)."""
        recorder: Any = self._storage.recorder
        snapshots = self._storage.snapshots
        snapshot_table = snapshots.recorder.events_table_name if snapshots is not None else ""  # type: ignore[attr-defined]
        return recorder, recorder.events_table_name, snapshot_table

    def _select_topics(self, wanted: list[str], states: bool = True) -> Iterator[StoredEvent]:
        """The stored events of these topics; without their states (empty) if not ``states``
        (a game's first event holds its whole rule set)."""
        recorder, events, _ = self._tables()
        if isinstance(recorder, SQLiteAggregateRecorder):
            state = "state" if states else "X''"  # an empty blob
            marks = ",".join("?" * len(wanted))
            with recorder.datastore.transaction(commit=False) as cursor:
                raw = cursor.sqlite_cursor
                raw.row_factory = None
                raw.execute(
                    f"SELECT originator_id, originator_version, topic, {state} FROM "
                    f"{events} WHERE topic IN ({marks})",
                    wanted,
                )
                rows = raw.fetchall()
            for oid, version, topic, state in rows:
                yield StoredEvent(UUID(oid), version, topic, state)
            return
        if HAS_POSTGRES and isinstance(recorder, PostgresAggregateRecorder):
            state = "state" if states else "''::bytea"
            statement = SQL(
                "SELECT originator_id, originator_version, topic, {} FROM {}.{} "
                "WHERE topic = ANY(%s)"
            ).format(
                SQL(state),  # a literal of ours
                Identifier(recorder.datastore.schema),
                Identifier(events),
            )
            with (
                recorder.datastore.get_connection() as connection,
                connection.cursor(row_factory=tuple_row) as cursor,
            ):
                cursor.execute(statement, (wanted,))
                rows = cursor.fetchall()
            for oid, version, topic, state in rows:
                yield StoredEvent(oid, version, topic, bytes(state))
            return
        raise NotFound("purge works on a SQLite or PostgreSQL store")

    def _remove(self, game_id: UUID, version: int, owned: Owned, marker: StoredEvent) -> int:
        """In one transaction: log the purge (``marker``), then remove the game's rows; the rows
        removed. ``GameChanged`` if the game is no longer at ``version``."""
        recorder, events, snapshots = self._tables()
        aggregates = [game_id, *sorted(owned.aggregates)]
        entries = sorted(owned.entries)
        if isinstance(recorder, SQLiteAggregateRecorder):
            with recorder.datastore.transaction(commit=True) as cursor:
                recorder._insert_events(cursor, [marker])  # first: see the module's docstring
                raw = cursor.sqlite_cursor
                raw.row_factory = None
                raw.execute(
                    f"SELECT MAX(originator_version) FROM {events} WHERE originator_id = ?",
                    (game_id.hex,),
                )
                if raw.fetchone()[0] != version:
                    raise GameChanged(f"game {game_id} was written to after its export")
                removed = 0
                for each in aggregates:
                    raw.execute(f"DELETE FROM {events} WHERE originator_id = ?", (each.hex,))
                    removed += raw.rowcount
                for oid, at in entries:
                    raw.execute(
                        f"DELETE FROM {events} WHERE originator_id = ? AND originator_version = ?",
                        (oid.hex, at),
                    )
                    removed += raw.rowcount
                if snapshots:
                    raw.execute(f"DELETE FROM {snapshots} WHERE originator_id = ?", (game_id.hex,))
                    removed += raw.rowcount
            return removed
        return self._remove_postgres(recorder, game_id, version, aggregates, entries, marker)

    def _remove_postgres(
        self,
        recorder: Any,
        game_id: UUID,
        version: int,
        aggregates: list[UUID],
        entries: list[tuple[UUID, int]],
        marker: StoredEvent,
    ) -> int:
        """``_remove`` on PostgreSQL."""
        schema = Identifier(recorder.datastore.schema)
        events = SQL("{}.{}").format(schema, Identifier(recorder.events_table_name))
        _, _, snapshot_table = self._tables()
        with (
            recorder.datastore.get_connection() as connection,
            connection.transaction(),
            connection.cursor(row_factory=tuple_row) as cursor,
        ):
            # The library's insert (it locks the table: no write of any game meanwhile).
            recorder._insert_events(cursor, [marker])
            recorder._insert_stored_events(cursor, [marker])
            cursor.execute(
                SQL("SELECT MAX(originator_version) FROM {} WHERE originator_id = %s").format(
                    events
                ),
                (game_id,),
            )
            row = cursor.fetchone()
            if row is None or row[0] != version:
                raise GameChanged(f"game {game_id} was written to after its export")
            cursor.execute(
                SQL("DELETE FROM {} WHERE originator_id = ANY(%s)").format(events), (aggregates,)
            )
            removed = cursor.rowcount
            for oid, at in entries:
                cursor.execute(
                    SQL(
                        "DELETE FROM {} WHERE originator_id = %s AND originator_version = %s"
                    ).format(events),
                    (oid, at),
                )
                removed += cursor.rowcount
            if snapshot_table:
                cursor.execute(
                    SQL("DELETE FROM {}.{} WHERE originator_id = %s").format(
                        schema, Identifier(snapshot_table)
                    ),
                    (game_id,),
                )
                removed += cursor.rowcount
        return removed
