"""Rate limits per client address: how many games one address may create or import a minute.

``TABLEBANK_GAMES_PER_MINUTE`` (``tablebank serve --games-per-minute N``, 30 by default there; 0
or absent: no limit) is enforced before the body is read, so every attempt counts, accepted or
refused. Past it the answer is 429 ``rate_limited`` with ``Retry-After``.

The limiter is GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp per
address): ``N`` requests at once, then one every ``60/N`` seconds. It lives in memory, one per
process (a server of W workers lets an address create up to W times as many), and tracks at
most ``MAX_ADDRESSES`` addresses, forgetting the least recently seen first. An IPv6 client is
counted by its /64, which one subscriber usually holds whole. Behind a proxy the address is
the proxy's unless ``TABLEBANK_PROXY_HOPS`` says how many to trust (see docs/deploy.md).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import current_app, request
from werkzeug.exceptions import TooManyRequests

LIMITER = "tablebank.game_limiter"
MAX_ADDRESSES = 10_000
WINDOW = 60.0  # seconds: the limit is so many a minute


class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds for each key, ``limit`` of them at once."""

    def __init__(
        self,
        limit: int,
        *,
        window: float = WINDOW,
        max_keys: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if limit < 1:
            raise ValueError("a limit of at least 1 a window")
        self.interval = window / limit  # one hit's share of the window
        self.tolerance = window - self.interval  # how far ahead of time a key may run
        self.max_keys = max_keys
        self.clock = clock
        # Per key, the theoretical arrival time: when its bucket would be full again.
        self._due: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def hit(self, key: str) -> float | None:
        """Count one hit of ``key``: None if it is allowed, else the seconds until it would be."""
        with self._lock:
            now = self.clock()
            due = max(self._due.get(key, now), now)
            wait = due - now - self.tolerance
            if wait > 0:
                self._due.move_to_end(key)
                return wait
            self._due[key] = due + self.interval
            self._due.move_to_end(key)
            while len(self._due) > self.max_keys:
                self._due.popitem(last=False)
            return None

    def __len__(self) -> int:
        return len(self._due)


def client_key(address: str | None) -> str:
    """What an address is counted as: an IPv4 address itself, an IPv6 address by its /64."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def limit_game_creation() -> None:
    """Before a POST that creates a game: 429 once its address is over the limit."""
    limiter: RateLimiter | None = current_app.extensions.get(LIMITER)
    if limiter is None or request.method != "POST":
        return
    wait = limiter.hit(client_key(request.remote_addr))
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise TooManyRequests(
            f"Too many games created from this address; try again in {seconds} s.",
            retry_after=seconds,
        )


def game_limiter(per_minute: int) -> RateLimiter | None:
    """The limiter for ``TABLEBANK_GAMES_PER_MINUTE``; None for no limit (0)."""
    if per_minute < 0:
        raise ValueError(f"TABLEBANK_GAMES_PER_MINUTE must be 0 or more, not {per_minute}")
    return RateLimiter(per_minute) if per_minute else None


# -- open event streams ---------------------------------------------------------------------
STREAMS = "tablebank.stream_caps"
STREAMS_PER_TOKEN = 10
STREAMS_PER_GAME = 200
STREAMS_PER_ADDRESS = 50
# What a refused stream is told to wait: a console's other tab, or a reader that left without
# closing, frees its stream within a keep-alive (15 s) or two.
STREAM_RETRY_AFTER = 30


class TooManyStreams(TooManyRequests):
    """One stream more than a cap allows: 429 ``too_many_streams`` with ``Retry-After``."""

    problem_code = "too_many_streams"


class StreamCaps:
    """How many event streams are open, per token, per game and per client address, in this
    process; ``open`` refuses one more than a cap allows (API.md, v1.2, "Event streams are
    bounded"). Each cap guards another thing: a token's cap one device's tabs, a game's cap the
    watcher's work for one game, an address's cap the worker's connections (every stream holds
    one)."""

    def __init__(
        self,
        per_token: int = STREAMS_PER_TOKEN,
        per_game: int = STREAMS_PER_GAME,
        per_address: int = STREAMS_PER_ADDRESS,
        counted: Callable[[int], None] | None = None,
    ) -> None:
        """``counted``: told each stream opened (1) and closed (-1), for a server's metrics."""
        if min(per_token, per_game, per_address) < 1:
            raise ValueError("a cap of at least 1 open stream")
        self.caps = {"token": per_token, "game": per_game, "address": per_address}
        self.counted = counted
        self._open: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def open(self, token: str, game: str, address: str) -> Callable[[], None]:
        """Count one stream more of ``token`` (the game and role it opens), ``game`` and
        ``address``, or refuse it; the function returned counts it closed (once, however
        often it is called)."""
        keys = [("token", token), ("game", game), ("address", address)]
        with self._lock:
            for key in keys:
                if self._open.get(key, 0) >= self.caps[key[0]]:
                    raise TooManyStreams(
                        f"Too many open event streams for this {key[0]} (at most "
                        f"{self.caps[key[0]]}); close one or try again in "
                        f"{STREAM_RETRY_AFTER} s.",
                        retry_after=STREAM_RETRY_AFTER,
                    )
            for key in keys:
                self._open[key] = self._open.get(key, 0) + 1
        if self.counted is not None:
            self.counted(1)
        closed = False

        def close() -> None:
            nonlocal closed
            with self._lock:
                if closed:
                    return
                closed = True
                for key in keys:
                    left = self._open[key] - 1
                    if left:
                        self._open[key] = left
                    else:
                        del self._open[key]
            if self.counted is not None:
                self.counted(-1)

        return close

    def count(self, kind: str, key: str) -> int:
        """How many streams are open for one token, game or address."""
        with self._lock:
            return self._open.get((kind, key), 0)
