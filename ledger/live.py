"""Live feeds of games: each new transaction of a game, to every reader following it.

A transaction may be recorded by any process of the server, or by another server on the same
database, so nothing in memory can tell a reader about it. The store can: every event it
records has a place in the application's notification log. One watcher per process reads
that log from where it last stopped (a few rows, every ``POLL_SECONDS`` while anyone
follows a game), and for each game with readers reads the game's new records once and hands
them to each of its readers.

A reader that starts ``after`` a seq first gets the game's records after it from the store,
``BACKLOG_PAGE`` at a time, each page read only when the reader has taken the one before (a
stream sends a page when its socket has drained the last): a reader that never reads holds one
page, not the game's whole log. Then it gets the live ones. It is registered before its first
read, and drops anything at or below the last seq it has, so a transaction recorded in between
is neither lost nor repeated.

A reader that follows with a token gives the ``Watch`` of that token: when the store changes the
token's seat (its role's token was replaced, ``ledger.access``), the watcher asks whether this
reader's token was the one replaced, and if so closes the reader (within ``POLL_SECONDS``).

Works the same under threads and under gevent (its monkey-patched threads and locks). Where no
thread can start (the pocket bank, in a browser's Web Worker), following a game is refused
(``NoLiveFeed``, 404): nothing else needs the watcher.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder

from ledger.errors import NoLiveFeed

POLL_SECONDS = 0.05
RETRY_SECONDS = 1.0  # after the store failed to answer
PAGE = 500  # notifications read at once
BACKLOG_PAGE = 200  # a reader's records read from the store at once while it catches up

log = logging.getLogger(__name__)

# The game's records after a seq, in order, at most so many (``Reading.records``).
Records = Callable[[UUID, int, int | None], Iterable[dict[str, Any]]]


@dataclass(frozen=True)
class Watch:
    """How a reader that holds a token learns that it was replaced: the store changes the
    ``seat_id`` aggregate when it is; ``replaced()`` then tells (one read of the store)."""

    seat_id: UUID
    replaced: Callable[[], bool]


class Follower:
    """One reader of one game: the transactions after the last it has, as they come."""

    def __init__(self, feed: Feed, game_id: UUID, after: int, watch: Watch | None = None) -> None:
        self.feed = feed
        self.game_id = game_id
        self.watch = watch
        self.last = after
        self._pending: deque[dict[str, Any]] = deque()  # live records, from the watcher
        self._page: list[dict[str, Any]] = []  # the backlog's page read and not yet taken
        self._catching_up = True  # the store may hold records after ``last`` not yet read
        self._ready = threading.Condition()
        self.closed = False

    def offer(self, txns: Iterable[dict[str, Any]]) -> None:
        """New records of the game (the watcher's thread): kept unless already had."""
        with self._ready:
            for txn in txns:
                self._pending.append(txn)
            self._ready.notify_all()

    def read_page(self) -> None:
        """The next page of the backlog from the store, unless one is waiting to be taken or
        the reader has caught up (a short page: every later record comes live)."""
        if self._page or not self._catching_up:
            return
        page = list(self.feed.records(self.game_id, self.last, BACKLOG_PAGE))
        self._catching_up = len(page) == BACKLOG_PAGE
        self._page = page

    def next_batch(self, timeout: float) -> list[dict[str, Any]]:
        """The transactions after the last one taken: a page of the backlog while there is
        one, then the live ones, waiting up to ``timeout`` seconds for some; an empty list
        when none came (time for a keep-alive)."""
        self.read_page()
        if self._page:
            batch, self._page = self._page, []
            batch = [txn for txn in batch if txn["seq"] > self.last]
            if batch:
                self.last = batch[-1]["seq"]
                return batch
        with self._ready:
            if not self._pending and not self.closed:
                self._ready.wait(timeout)
            batch = []
            while self._pending:
                txn = self._pending.popleft()
                if txn["seq"] > self.last:
                    batch.append(txn)
                    self.last = txn["seq"]
            return batch

    def close(self) -> None:
        """Stop following; the watcher forgets this reader."""
        with self._ready:
            self.closed = True
            self._ready.notify_all()
        self.feed.forget(self)


class Feed:
    """The watcher of one process: follows the store's notification log for as long as any
    reader follows a game, and stops when the last one leaves."""

    def __init__(
        self,
        recorder: ApplicationRecorder,
        records: Records,
        last_seq: Callable[[UUID], int],
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self._recorder = recorder
        self.records = records
        self._last_seq = last_seq
        self._poll = poll_seconds
        self._lock = threading.Lock()
        self._followers: dict[UUID, set[Follower]] = {}
        self._watching: dict[UUID, set[Follower]] = {}  # per seat: the readers of its tokens
        self._delivered: dict[UUID, int] = {}  # per game: the last seq handed to its readers
        self._position = 0  # the last notification read
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()

    def follow(self, game_id: UUID, after: int, watch: Watch | None = None) -> Follower:
        """A follower of ``game_id`` from seq ``after`` on, the first page of its backlog read
        (a store that cannot answer fails here, before anything is sent); closed when the
        token ``watch`` watches is replaced."""
        follower = Follower(self, game_id, after, watch)
        with self._lock:
            if watch is not None:
                self._watching.setdefault(watch.seat_id, set()).add(follower)
            if not self._followers:
                self._start()
            readers = self._followers.setdefault(game_id, set())
            if not readers:
                # Everything up to the game's last seq now is in the store: the backlog read
                # below finds it; the watcher hands on only what comes after.
                self._delivered[game_id] = self._last_seq(game_id)
            readers.add(follower)
        try:
            follower.read_page()
            # Replaced between the request's check and now: the watcher may have read the
            # seat's change before this reader was listed.
            if watch is not None and watch.replaced():
                follower.close()
        except BaseException:
            follower.close()
            raise
        return follower

    def forget(self, follower: Follower) -> None:
        """Stop handing transactions to ``follower``; the watcher stops once no reader is left."""
        with self._lock:
            if follower.watch is not None:
                watching = self._watching.get(follower.watch.seat_id, set())
                watching.discard(follower)
                if not watching:
                    self._watching.pop(follower.watch.seat_id, None)
            readers = self._followers.get(follower.game_id)
            if readers is None:
                return
            readers.discard(follower)
            if not readers:
                del self._followers[follower.game_id]
                self._delivered.pop(follower.game_id, None)
            if not self._followers:
                self._stop.set()

    def followers(self) -> int:
        """How many readers follow a game in this process now."""
        with self._lock:
            return sum(len(readers) for readers in self._followers.values())

    def close(self) -> None:
        """Stop the watcher, whoever still follows."""
        self._stop.set()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=5)

    def _start(self) -> None:
        """Start the watcher at the log's last notification, or keep the one still running."""
        if self._watcher is not None and self._watcher.is_alive():
            self._stop.clear()
            return
        self._stop = threading.Event()
        self._position = self._recorder.max_notification_id() or 0
        watcher = threading.Thread(
            target=self._watch, args=(self._stop,), name="tablebank-feed", daemon=True
        )
        try:
            watcher.start()
        except RuntimeError:  # no threads here: the pocket bank, in a browser
            raise NoLiveFeed(
                "This bank keeps its games on this device and has no live stream of them."
            ) from None
        self._watcher = watcher

    def _watch(self, stop: threading.Event) -> None:
        """The watcher: reads the notification log until ``stop``, closing the readers of replaced
        tokens and handing on the changed games' transactions."""
        while not stop.is_set():
            try:
                notes = self._recorder.select_notifications(
                    self._position, PAGE, inclusive_of_start=False
                )
                if notes:
                    changed = {UUID(str(note.originator_id)) for note in notes}
                    self._close_replaced(changed)
                    self._hand_on(changed)
                    self._position = notes[-1].id
            except Exception:  # the store is away for a moment: the readers wait, then resume
                log.exception("reading the notification log failed; trying again")
                notes = []
                stop.wait(RETRY_SECONDS)
            if len(notes) < PAGE:
                stop.wait(self._poll)

    def _close_replaced(self, changed: set[UUID]) -> None:
        """Close the readers whose token a changed seat replaced."""
        with self._lock:
            watched = [f for seat in changed for f in self._watching.get(seat, ())]
        for follower in watched:
            if follower.watch is not None and follower.watch.replaced():
                follower.close()

    def _hand_on(self, changed: set[UUID]) -> None:
        """Give each changed game's readers the transactions recorded since the last handed on."""
        with self._lock:
            games = [g for g in changed if g in self._followers]
            since = {g: self._delivered[g] for g in games}
        for game_id in games:
            txns = list(self.records(game_id, since[game_id], None))
            if not txns:
                continue
            with self._lock:
                readers = list(self._followers.get(game_id, ()))
                if game_id in self._delivered:
                    self._delivered[game_id] = max(self._delivered[game_id], txns[-1]["seq"])
            for reader in readers:
                reader.offer(txns)
