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

    def hit(self, key: str, cost: int = 1) -> float | None:
        """Count a hit of ``key`` worth ``cost`` hits (a limit of bytes counts a body's):
        None if it is allowed, else the seconds until it would be (a cost over the whole
        limit never is: ``math.inf``)."""
        with self._lock:
            now = self.clock()
            due = max(self._due.get(key, now), now)
            wait = due - now - self.tolerance + (cost - 1) * self.interval
            if cost * self.interval > self.tolerance + self.interval:
                return math.inf
            if wait > 0:
                self._due.move_to_end(key)
                return wait
            self._due[key] = due + cost * self.interval
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


IMPORT_BUDGET = "tablebank.import_budget"
HOUR = 3600.0


def spend_import_budget() -> None:
    """Before an import's body is read: 429 once its address has sent so many bytes of
    imports this hour (``TABLEBANK_IMPORT_MIB_PER_HOUR``), its Content-Length counted (the
    import's largest, if it sends none)."""
    budget: RateLimiter | None = current_app.extensions.get(IMPORT_BUDGET)
    if budget is None or request.method != "POST":
        return
    cost = request.content_length or int(current_app.config["MAX_IMPORT_LENGTH"])
    wait = budget.hit(client_key(request.remote_addr), cost)
    if wait is not None:
        if math.isinf(wait):
            return  # larger than any import: the view's 413 says so
        seconds = max(1, math.ceil(wait))
        raise TooManyRequests(
            f"This address has imported its share of logs this hour; try again in {seconds} s.",
            retry_after=seconds,
        )


def import_budget(mib_per_hour: int) -> RateLimiter | None:
    """The budget of ``TABLEBANK_IMPORT_MIB_PER_HOUR``: that many MiB of imports an hour per
    address, all at once if it likes; None for no limit (0)."""
    if mib_per_hour < 0:
        raise ValueError(f"TABLEBANK_IMPORT_MIB_PER_HOUR must be 0 or more, not {mib_per_hour}")
    return RateLimiter(mib_per_hour * 1024 * 1024, window=HOUR) if mib_per_hour else None


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
# Streams a token, and a client address, may open a minute (that many at once, then one every
# 60/N s): a reconnect storm from seq 0 (42 opens a second from one client of a game of 3,000
# transactions, each sending its first page again) held a worker at 94 % of a core. A console
# comes back once after a blip, and every 2 s at most while the network is away.
STREAM_OPENS_PER_TOKEN = 60
STREAM_OPENS_PER_ADDRESS = 240


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
        *,
        opens_per_token: int = STREAM_OPENS_PER_TOKEN,
        opens_per_address: int = STREAM_OPENS_PER_ADDRESS,
        clock: Callable[[], float] = time.monotonic,
        counted: Callable[[int], None] | None = None,
    ) -> None:
        """``counted``: told each stream opened (1) and closed (-1), for a server's metrics."""
        if min(per_token, per_game, per_address) < 1:
            raise ValueError("a cap of at least 1 open stream")
        self.caps = {"token": per_token, "game": per_game, "address": per_address}
        self.counted = counted
        self._open: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        # How often streams are opened, besides how many are open.
        self.opens = {
            "token": RateLimiter(opens_per_token, clock=clock),
            "address": RateLimiter(opens_per_address, clock=clock),
        }

    def open(self, token: str, game: str, address: str) -> Callable[[], None]:
        """Count one stream more of ``token`` (the game and role it opens), ``game`` and
        ``address``, or refuse it; the function returned counts it closed (once, however
        often it is called)."""
        keys = [("token", token), ("game", game), ("address", address)]
        for kind, opener in (("token", token), ("address", address)):
            wait = self.opens[kind].hit(opener)
            if wait is not None:
                seconds = max(1, math.ceil(wait))
                raise TooManyStreams(
                    f"Too many event streams opened for this {kind} (at most "
                    f"{round(60 / self.opens[kind].interval)} a minute); try again in "
                    f"{seconds} s.",
                    retry_after=seconds,
                )
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
