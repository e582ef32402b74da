"""Group commit: the writes of many games that arrive together, saved in one store transaction.

Each write of ``ledger.writing`` saves one game's new event (with its Idempotency-Key's answer
and the status log's line, when it has them) atomically. Saved one by one, every write pays a
whole store transaction: on SQLite a commit and its ``fsync`` (which, in a gevent worker,
holds the event loop meanwhile), on PostgreSQL a round trip and the table lock that orders
the notification ids. ``GroupCommit.save`` lets writes of different games share one:

- the first write to arrive while no commit is under way leads: it lets the writes that are
  ready join (``gather``: in a gevent worker, until the event loop has nothing else to run),
  takes every write waiting, and saves all their events in one store transaction;
- a write that arrives while a commit is under way waits for it to end, then joins the next
  one (the first of them to wake leads it);
- every write returns (its request is answered) only after the commit that holds its events
  returned: an acknowledgement is exactly as durable as a write saved alone;
- a commit of several writes that fails (one write's version was taken by another process, a
  store error) saved nothing, as one transaction: each write is then saved alone, so only the
  write that clashed sees ``IntegrityError`` (its writer retries it on the fresh game, as
  before) and the others are saved as if they had come alone;
- a game whose write the store refused alone (full, or failing for that game only: a
  trigger, a damaged page) is kept out of the next commits for ``QUARANTINE_SECONDS``: its
  writes are saved alone after the commit of the others, so that one game failing again and
  again costs the others nothing but its own round trip (it had made every commit it joined
  fail and be saved again write by write).

Writes of one game never meet in one commit: ``Writing`` holds the game's lock from load to
save, so a commit has at most one event per game. Outside gevent (threads, the CLI) writes
that arrive while a commit runs form the next one, and ``gather`` does nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import Aggregate, DomainEvent

from ledger.store import store_unavailable

# The most writes one commit takes; the rest wait for the next (a bound on a commit's size,
# and so on the time its first writer waits).
MAX_BATCH = 64
# How long a game whose write failed alone is saved alone (``GroupCommit``).
QUARANTINE_SECONDS = 5.0


def _no_gathering() -> None:
    """The ``gather`` that waits for nothing (outside gevent)."""
    return None


def collected(objs: tuple[Any, ...]) -> ProcessingEvent[Any]:
    """``ProcessingEvent.collect_events`` for what a write saves (aggregates and events), told
    apart by class: the library's runtime ``Protocol`` checks took 3 % of a write's time."""
    processing: ProcessingEvent[Any] = ProcessingEvent()
    for obj in objs:
        if isinstance(obj, Aggregate):
            processing.events.extend(obj.collect_events())
            processing.aggregates[obj.id] = obj
        elif isinstance(obj, DomainEvent):
            processing.events.append(obj)
        else:
            processing.collect_events(obj)
    return processing


class _Write:
    """One write's events, and what became of them."""

    __slots__ = ("done", "error", "processing")

    def __init__(self, processing: ProcessingEvent[Any]) -> None:
        self.processing = processing
        self.done = False
        self.error: BaseException | None = None


class GroupCommit:
    """Saves the writes of an application, several at a time when they arrive together."""

    def __init__(
        self,
        app: Application[Any],
        gather: Callable[[], None] | None = None,
        committed: Callable[[int], None] | None = None,
    ) -> None:
        """``gather``: what a leader waits for before it takes the writes waiting;
        ``committed``: told the number of writes each store transaction saved, once it has
        (a server's metrics)."""
        self.app = app
        self.gather: Callable[[], None] = gather or _no_gathering
        self.committed = committed
        self._ready = threading.Condition(threading.Lock())
        self._waiting: list[_Write] = []
        self._leading = False
        # Since this process started: the rounds led (each one commit, or one per write after
        # a failed commit of several) and the writes they took (for tests and benchmarks).
        self.rounds = 0
        self.writes = 0
        # Games whose write failed alone, and until when they are saved alone.
        self._quarantine: dict[Any, float] = {}

    def save(self, *objs: Any) -> None:
        """Save ``objs`` (aggregates and events, as ``Application.save`` takes them) atomically,
        in a commit shared with whatever other writes are ready; raise what saving them alone
        would have raised."""
        write = _Write(collected(objs))
        with self._ready:
            self._waiting.append(write)
            while self._leading and not write.done:
                self._ready.wait()
            if not write.done:
                self._leading = True
        if not write.done:
            self._lead()
        if write.error is not None:
            raise write.error

    def _lead(self) -> None:
        """Commit the writes waiting (up to ``MAX_BATCH``) after ``gather``; then wake the rest."""
        try:
            self.gather()
            with self._ready:
                batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
            self._commit(batch)
        finally:
            with self._ready:
                self._leading = False
                self._ready.notify_all()

    def _commit(self, batch: list[_Write]) -> None:
        """Save ``batch``: together in one store transaction where it can, else write by write; then
        the snapshots. Each write's error is kept for its writer."""
        try:
            apart, together = self._apart(batch)
            if len(together) < 2 or not self._record_together(together):
                apart = batch  # alone, or after a failed commit of several: all apart
            elif self.committed is not None:
                self.committed(len(together))
            for write in apart:  # each to its own fate
                try:
                    self._record(write.processing)
                except Exception as error:
                    write.error = error
                    if store_unavailable(error):  # not a clash with another writer
                        for game in write.processing.aggregates:
                            self._quarantine[game] = time.monotonic() + QUARANTINE_SECONDS
                else:
                    if self.committed is not None:
                        self.committed(1)
            # Snapshots are taken after the commit, as ``Application.save`` takes them; what
            # goes wrong there is the write's own (its events are saved).
            for write in batch:
                if write.error is None:
                    try:
                        self.app._take_snapshots(write.processing)
                    except Exception as error:
                        write.error = error
        except BaseException as error:  # the leader is stopped: nobody is left waiting
            for write in batch:
                write.error = write.error or error
            raise
        finally:
            self.rounds += 1
            self.writes += len(batch)
            for write in batch:
                write.done = True

    def _apart(self, batch: list[_Write]) -> tuple[list[_Write], list[_Write]]:
        """The writes of games in quarantine, and the others (all of them, when none is)."""
        if not self._quarantine:  # the common case: nothing to look at per write
            return [], batch
        now = time.monotonic()
        self._quarantine = {g: t for g, t in self._quarantine.items() if t > now}
        apart: list[_Write] = []
        together: list[_Write] = []
        for write in batch:
            kept_out = self._quarantine.keys() & write.processing.aggregates.keys()
            (apart if kept_out else together).append(write)
        return apart, together

    def _record_together(self, batch: list[_Write]) -> bool:
        """Record the events of every write of ``batch`` in one store transaction; whether
        that worked (if not, nothing of it was recorded)."""
        merged: ProcessingEvent[Any] = ProcessingEvent()
        for write in batch:
            merged.events.extend(write.processing.events)
            merged.aggregates.update(write.processing.aggregates)
        try:
            self._record(merged)
        except Exception:
            return False
        return True

    def _record(self, processing: ProcessingEvent[Any]) -> None:
        """What ``Application.save`` does after collecting the events, snapshots apart."""
        self.app._notify(self.app._record(processing))
