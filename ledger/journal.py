"""The pocket store: the events of the games a browser keeps, in memory, each write handed to a
``Journal`` that its host keeps durably (IndexedDB, in the pocket bank's Web Worker).

The browser gives no synchronous durable write: IndexedDB answers later, with a promise. So
the store is eventsourcing's in-memory recorder, and every insert it takes (one write of the
API: a transaction with its idempotency record, a new game with its tokens) is also put in the
journal, as one line of text. After each request the host takes the journal's lines and stores
them, in one IndexedDB transaction of strict durability, *before* it hands the answer back: an
answer is shown only once its write is on the device. If that fails (the quota is full) the
answer is never shown and the host starts the bank again from what IndexedDB holds, so what
the request recorded in memory is gone too: nothing is half kept.

At start the host reads every line back, in order, and ``PocketFactory`` inserts them again,
which gives each event its place in the notification log again. Snapshots are taken in memory
only: they are a shortcut, made again as the games are written.

A line is the JSON list of the insert's events, each ``[originator_id, version, topic,
state]`` with the state as its JSON text (the store's events are plain JSON: no cipher, no
compressor).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, StoredEvent
from eventsourcing.popo import POPOAggregateRecorder, POPOApplicationRecorder, POPOFactory


class Journal:
    """The lines of the writes not yet taken by the host, and those it read back at start."""

    def __init__(self, lines: Iterable[str] = ()) -> None:
        self.loaded: list[str] = list(lines)
        self._pending: list[str] = []

    def write(self, stored_events: Sequence[StoredEvent]) -> None:
        """Add one insert's events as a line, for the host to take."""
        self._pending.append(encode(stored_events))

    def take(self) -> list[str]:
        """The lines written since the last call, oldest first, for the host to keep."""
        lines, self._pending = self._pending, []
        return lines


# The journal of the process: a browser's worker holds one bank. Set before the bank is made.
JOURNAL = Journal()


def use(journal: Journal) -> Journal:
    """Make ``journal`` the one the next pocket store writes to and loads from."""
    global JOURNAL
    JOURNAL = journal
    return journal


def encode(stored_events: Sequence[StoredEvent]) -> str:
    """The journal line of one insert's events."""
    return json.dumps(
        [
            [str(e.originator_id), e.originator_version, e.topic, e.state.decode()]
            for e in stored_events
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )


def decode(line: str) -> list[StoredEvent]:
    """The events of one journal line, as the store keeps them."""
    return [
        StoredEvent(
            originator_id=UUID(originator_id),
            originator_version=version,
            topic=topic,
            state=state.encode(),
        )
        for originator_id, version, topic, state in json.loads(line)
    ]


class PocketRecorder(POPOApplicationRecorder):
    """The library's in-memory recorder, whose inserts also go to the journal once they are
    taken (a clash of versions is refused before, and writes nothing)."""

    def __init__(self, journal: Journal) -> None:
        super().__init__()
        self.journal = journal
        for line in journal.loaded:
            self._insert_events(decode(line))
        journal.loaded = []  # read once: the memory is the recorder's now

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Insert the events as the library does, then write them to the journal."""
        ids = super().insert_events(stored_events, **kwargs)
        self.journal.write(stored_events)
        return ids

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """As the library's, but a game's events after ``gt`` are found by their versions
        (one after another, with no gaps), not by going through the whole game: loading a
        cached game forward at each write costs what the new events cost."""
        if desc or gt is None:
            return super().select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        with self._database_lock:
            index = self._stored_events_index[str(originator_id)]
            found: list[StoredEvent] = []
            version = gt + 1
            while version in index and (lte is None or version <= lte):
                found.append(self._stored_events[index[version]])
                if len(found) == limit:
                    break
                version += 1
            return found


class PocketFactory(POPOFactory):
    """The pocket store: events in ``PocketRecorder``, snapshots in memory only."""

    def application_recorder(self) -> ApplicationRecorder:
        """The recorder of the games' events: a ``PocketRecorder`` on the process's journal."""
        return PocketRecorder(JOURNAL)

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        """A recorder in memory only, for the snapshots."""
        return POPOAggregateRecorder()
