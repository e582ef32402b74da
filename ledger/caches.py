"""The one kind of cache a server process keeps: bounded, least recently used out first.

A server on the internet meets strangers' data: every game ever read, every token ever shown,
every rule set ever imported. A cache of them that only grows is a slow leak anyone can
speed up, so each has a budget (docs/deploy.md, "Memory"):

- ``ledger.game``: the parsed rule sets, by the digest of their document, weighed by the
  characters of its canonical JSON (``RULESET_CACHE_BUDGET``); the built-in ones are pinned;
- ``ledger.access``: what each token opens, by its hash (``ACCESS_CACHE_SIZE`` entries);
- ``ledger.writing``: a lock per game being written, gone with its last writer;
- eventsourcing's repository cache of games (``AGGREGATE_CACHE_MAXSIZE``, ``ledger.application``)
  and the rate limiter's addresses (``api.limits``) have bounds of their own.

An entry that is evicted is rebuilt from the store (or its document) when next asked for: a
cache changes how fast, never what.
"""

from __future__ import annotations

import _thread
import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, TypeVar


def _native_lock() -> Any:
    """A lock of the operating system's, even where gevent has patched threading: a cache is
    shared by the event loop's greenlets and the native threads of gevent's pool
    (``api.offload``), and a gevent lock that two native threads contend for deadlocks. Held
    only around dictionary operations, never across a wait, it never blocks the loop for more
    than a moment.

    gevent is asked only where it was imported (a worker of ``tablebank serve``): before that
    nothing can have patched ``_thread``, and the pocket bank in a browser has no gevent."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None:
        return monkey.get_original("_thread", "allocate_lock")()
    return _thread.allocate_lock()


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """Values by key whose weights add up to at most ``budget``; putting one past it evicts the
    least recently used. A value heavier than the whole budget is not kept. A pinned value
    stays whatever the budget and weighs nothing.

    Safe to share between threads: each call holds a lock for a few dictionary operations.
    """

    def __init__(self, budget: int) -> None:
        if budget < 1:
            raise ValueError(f"a cache's budget is 1 or more, not {budget}")
        self.budget = budget
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._pinned: dict[K, V] = {}
        self._weight = 0
        self._lock: threading.Lock = _native_lock()

    def get(self, key: K) -> V | None:
        """The value under ``key``, now the most recently used; None if it is not kept."""
        with self._lock:
            pinned = self._pinned.get(key)
            if pinned is not None:
                return pinned
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: K, value: V, weight: int = 1) -> V:
        """Keep ``value`` under ``key`` (unless it outweighs the budget); return it."""
        with self._lock:
            if key in self._pinned:
                return value
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            if weight > self.budget:
                return value
            self._entries[key] = (value, weight)
            self._weight += weight
            while self._weight > self.budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._weight -= dropped
            return value

    def pin(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` for good, outside the budget; return it."""
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            self._pinned[key] = value
            return value

    @property
    def weight(self) -> int:
        """What the values kept under the budget weigh together."""
        with self._lock:
            return self._weight

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._pinned or key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries) + len(self._pinned)
