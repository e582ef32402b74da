"""Request bodies: each read whole before its view runs, within a deadline, and only so many at
once from one client address.

A worker serves ``--connections`` connections at once. A client that sends a request's headers
and then its body slowly, or never, held one of them for as long as it liked: 1,000 such
connections (no token needed) held every one, and every honest request waited until they
closed. Now:
- a body must arrive within ``BODY_SECONDS``, and a longer one (an import, up to 32 MiB) at
  ``BODY_RATE`` at least; past that the answer is 408 ``request_timeout`` and the connection
  closes (gunicorn gives what is left of the body its keep-alive time, 2 s, to arrive);
- one client address reads at most ``BODIES_PER_ADDRESS`` bodies at once
  (``--bodies-per-address``); one more is answered 429 ``rate_limited`` with ``Retry-After``
  at once, its body never read. The address is the client's as ``--proxy-hops`` says (an IPv6
  client by its /64, as ``api.limits`` counts it).

A request's headers already have their deadline in gunicorn (its keep-alive time). The
deadline needs gevent's worker, whose timeouts interrupt a read: elsewhere (the test client, the
pocket bank's worker) bodies come from memory and nothing waits.
"""

from __future__ import annotations

import contextlib
import io
import math
import sys
import threading
from collections.abc import Iterator
from typing import Any

from flask import current_app, request
from werkzeug.exceptions import RequestTimeout, TooManyRequests

from api.limits import client_key
from api.offload import under_gevent

INTAKE = "tablebank.intake"
BODY_SECONDS = 10.0  # for a body of any length, on top of its time at BODY_RATE
BODY_RATE = 64 * 1024  # bytes a second: an import of 32 MiB has 8.5 min more
BODIES_PER_ADDRESS = 16
BODY_RETRY_AFTER = 2  # seconds: an honest client's bodies take milliseconds
# A longer body (an import's) is read this much at a time, the worker's other requests served
# between two reads: from a fast client, its 32 MiB were read in one go, other requests waiting.
READ_AT_ONCE = 256 * 1024


class Intake:
    """How many bodies each client address is sending right now, in this process."""

    def __init__(self, per_address: int = BODIES_PER_ADDRESS) -> None:
        if per_address < 1:
            raise ValueError("at least 1 body at once per address")
        self.per_address = per_address
        self._reading: dict[str, int] = {}
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def reading(self, address: str) -> Iterator[None]:
        """Count one body of ``address`` while it is read, or refuse it (429)."""
        with self._lock:
            now = self._reading.get(address, 0)
            if now >= self.per_address:
                raise TooManyRequests(
                    f"This address is sending {now} requests' bodies already; try again in "
                    f"{BODY_RETRY_AFTER} s.",
                    retry_after=BODY_RETRY_AFTER,
                )
            self._reading[address] = now + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._reading[address] - 1
                if left:
                    self._reading[address] = left
                else:
                    del self._reading[address]

    def count(self, address: str) -> int:
        """How many bodies ``address`` is sending right now."""
        with self._lock:
            return self._reading.get(address, 0)


def deadline(length: int | None) -> float:
    """Seconds a body of ``length`` bytes may take to arrive."""
    return BODY_SECONDS + (length or 0) / BODY_RATE


def within(seconds: float) -> Any:
    """A context that ends the body's read with 408 after ``seconds``, in a gevent worker."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        return contextlib.nullcontext()
    import gevent

    late = RequestTimeout(f"The request's body did not arrive within {math.ceil(seconds)} s.")
    return gevent.Timeout(seconds, late)


def read_whole_body() -> None:
    """Read the request's body now (``request.get_data`` keeps it for the view), within its
    deadline and its address's share; a body longer than the request may send is left unread,
    for the view's 413."""
    length = request.content_length
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if not length and not chunked:
        return
    limit = request.max_content_length
    if length and limit is not None and length > limit:
        return
    intake: Intake = current_app.extensions[INTAKE]
    with intake.reading(client_key(request.remote_addr)), within(deadline(length or limit)):
        if length is None or length <= READ_AT_ONCE:
            request.get_data(cache=True)
            return
        parts = []
        while part := request.stream.read(READ_AT_ONCE):
            parts.append(part)
            others_first()
        # What ``get_data`` reads, and keeps for the view: the body, whole.
        request.stream = io.BytesIO(b"".join(parts))  # type: ignore[misc]
        parts.clear()
        request.get_data(cache=True)


def others_first() -> None:
    """In a gevent worker, let every other greenlet ready to run have its turn first."""
    if under_gevent():
        import gevent

        gevent.sleep(0)


def read_the_body() -> None:
    """Before every request but an import (whose own hook reads its body once its rate limit
    and its size allow: ``api.audit``)."""
    if request.blueprint != "import":
        read_whole_body()
