"""Slow clients cannot starve the server: 50 connections that drip one header line every
couple of seconds and never finish their request, while honest requests (health, reading a
game, recording payments) are each answered within a second throughout.

With a thread per connection (gunicorn's gthread, 4 threads) four such connections held every
thread and every honest request timed out. Everything here is on loopback, bounded in count and
time, and stops by itself.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import pytest
from server import HOST, Server, serving
from stores import Store

pytestmark = pytest.mark.e2e

DRIPPERS = 50
DRIP_EVERY = 2.0  # seconds between two header lines of one slow client
HONEST_FOR = 8.0  # seconds of honest traffic while the slow clients drip
ANSWER_WITHIN = 1.0  # seconds: the bound every honest request must meet


@pytest.fixture
def server(tmp_path, local_store: Store) -> Iterator[Server]:
    with serving(local_store, tmp_path) as running:
        yield running


@contextlib.contextmanager
def dripping(server: Server, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections, each with an unfinished request line and headers."""
    socks: list[socket.socket] = []
    try:
        for n in range(count):
            s = socket.create_connection((HOST, server.port), timeout=5)
            s.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nX-Slow-{n}: 1\r\n".encode())
            socks.append(s)
        yield socks
    finally:
        for s in socks:
            s.close()


def drip(socks: list[socket.socket], n: int) -> None:
    """One more header line on every connection still open."""
    for s in socks:
        with contextlib.suppress(OSError):  # the server may have closed a slow one: fine
            s.sendall(f"X-Drip-{n}: 1\r\n".encode())


def test_honest_requests_are_answered_while_fifty_clients_drip_headers(server: Server) -> None:
    created = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": ["A", "B"]}
    ).body
    game, token = created["id"], created["banker_token"]
    slowest = 0.0
    answered = 0
    with dripping(server, DRIPPERS) as socks:
        start = last_drip = time.monotonic()
        drips = 0
        while time.monotonic() - start < HONEST_FOR:
            for method, path, body in (
                ("GET", "/healthz", None),
                ("GET", f"/api/v1/games/{game}", None),
                (
                    "POST",
                    f"/api/v1/games/{game}/transactions",
                    {"type": "payment", "from": "bank", "to": "p1", "amount": 1},
                ),
            ):
                began = time.monotonic()
                answer = server.client.call(method, path, body, token, timeout=ANSWER_WITHIN)
                took = time.monotonic() - began
                assert answer.status in (200, 201), answer
                slowest = max(slowest, took)
                answered += 1
            if time.monotonic() - last_drip >= DRIP_EVERY:
                drips += 1
                drip(socks, drips)
                last_drip = time.monotonic()
        assert drips >= 3  # the slow clients really were dripping the whole time
    assert slowest < ANSWER_WITHIN, slowest
    assert answered > 30
