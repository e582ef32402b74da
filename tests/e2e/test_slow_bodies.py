"""Slow request bodies hold no honest request (docs/deploy.md, "What one client can cost";
``api.intake``): one address that opens 1,000 connections, each sending the headers of a POST
with ``Content-Length: 60000`` and then nothing, used to hold every connection of the worker,
so that every honest write and ``/healthz`` waited until they closed. Now each body has a
deadline (10 s for a short one: 408 ``request_timeout``) and one address sends at most 16 at
once (one more: 429 ``rate_limited`` at once, its body never read), so an honest table's write,
from another address, is answered within 2 s, and every slow connection is answered and closed.

On loopback, the attacker is 127.0.0.1 and the honest table 127.0.0.2 (Linux routes all of
127/8 to the loopback interface). Classic figures (docs/rules.md): a salary is 200 on a starting
cash of 1,500.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from server import HOST, Server

pytestmark = pytest.mark.e2e

NEW_GAME = {"name": "Club night", "ruleset": "classic", "players": ["Ann", "Bob"]}
SLOW = 1000
HONEST_WITHIN = 2.0  # seconds, the figure
SLOW_HEAD = (
    b"POST /console/qr HTTP/1.1\r\nHost: tablebank\r\nContent-Type: application/json\r\n"
    b"Content-Length: 60000\r\n\r\n"
)


def honest(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    """One request from the table's own address, 127.0.0.2: (status, JSON body, seconds)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=30, source_address=("127.0.0.2", 0))
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null"), time.monotonic() - started
    finally:
        connection.close()


def first_line_and_closed(sock: socket.socket, until: float) -> tuple[bytes, bool]:
    """What the server answered on ``sock`` (its status line), and whether it then closed
    the connection, waiting until the monotonic time ``until`` at most."""
    seen = b""
    while time.monotonic() < until:
        ready, _, _ = select.select([sock], [], [], max(0.0, until - time.monotonic()))
        if not ready:
            break
        try:
            data = sock.recv(65536)
        except ConnectionResetError:
            return seen.split(b"\r\n", 1)[0], True
        if not data:
            return seen.split(b"\r\n", 1)[0], True
        seen += data
    return seen.split(b"\r\n", 1)[0], False


def test_a_thousand_slow_bodies_from_one_address_hold_no_honest_write(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    with Server(db, tmp_path / "server.log", "--workers", "1") as server:
        status, game, _ = honest(server.port, "POST", "/api/v1/games", NEW_GAME)
        assert status == 201
        slow: list[socket.socket] = []
        try:
            for _ in range(SLOW):
                sock = socket.create_connection((HOST, server.port), timeout=5)
                sock.sendall(SLOW_HEAD)
                slow.append(sock)
            opened = time.monotonic()
            time.sleep(0.5)  # the worker has taken what it will take of them

            path = f"/api/v1/games/{game['id']}/transactions"
            for _ in range(5):
                status, record, took = honest(
                    server.port, "POST", path, {"type": "salary", "player": "p1"},
                    game["banker_token"],
                )  # fmt: skip
                assert (status, took < HONEST_WITHIN) == (201, True), (status, record, took)
            status, _, took = honest(server.port, "GET", "/healthz")
            assert (status, took < HONEST_WITHIN) == (200, True), took
            status, state, _ = honest(
                server.port, "GET", f"/api/v1/games/{game['id']}", token=game["banker_token"]
            )
            assert state["balances"]["p1"] == 1500 + 5 * 200

            # Every slow connection answered and closed: 16 after their body's 10 s (and the
            # keep-alive's 2 s for what is left of it), the others at once.
            answers: dict[str, int] = {}
            unclosed = 0
            for sock in slow:
                line, closed = first_line_and_closed(sock, opened + 10 + 2 + 5)
                status_code = line.split(b" ")[1].decode() if line else "none"
                answers[status_code] = answers.get(status_code, 0) + 1
                unclosed += not closed
        finally:
            for sock in slow:
                sock.close()
    assert unclosed == 0
    assert answers == {"408": 16, "429": SLOW - 16}
