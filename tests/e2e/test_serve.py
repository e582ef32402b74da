"""`tablebank serve` on a free loopback port and the run's store, and a short classic game over
real HTTP."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, dict[str, str], Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, dict(resp.headers), json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), json.loads(err.read() or b"null")


@pytest.fixture
def server(tmp_path: Path, db_url: str) -> Iterator[tuple[Client, Path]]:
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "api.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                db_url,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    client = Client(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 30
    while True:
        try:
            if client.call("GET", "/healthz")[0] == 200:
                break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("server did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.05)  # polling with a deadline, not waiting for a fixed time
    try:
        yield client, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_short_classic_game_over_http(server: tuple[Client, Path]) -> None:
    client, log = server
    status, _, game = client.call(
        "POST", "/api/v1/games", {"name": "e2e", "ruleset": "classic", "players": ["Ann", "Bob"]}
    )
    assert status == 201
    gid, banker = game["id"], game["banker_token"]
    assert game["balances"] == {"bank": -3000, "pot": 0, "p1": 1500, "p2": 1500}

    def post(body: dict[str, Any], token: str = banker) -> tuple[int, Any]:
        status, _, out = client.call("POST", f"/api/v1/games/{gid}/transactions", body, token)
        return status, out

    # Ann buys both dark-blue deeds: 400 + 350 (RULES.md appendix).
    assert post({"type": "buy", "player": "p1", "property": "boardwalk"})[0] == 201
    assert post({"type": "buy", "player": "p1", "property": "park-place"})[0] == 201
    # Bob lands on bare Boardwalk of a complete group: 50 doubled = 100, recorded by Bob himself.
    status, rent = post(
        {"type": "rent", "payer": "p2", "property": "boardwalk"}, game["tokens"]["p2"]
    )
    assert status == 201
    assert rent["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]
    # One house each (200 apiece): Boardwalk with 1 house rents 200.
    status, _ = post(
        {"type": "build", "orders": [{"property": "boardwalk"}, {"property": "park-place"}]}
    )
    assert status == 201
    status, rent = post({"type": "rent", "payer": "p2", "property": "boardwalk"})
    assert rent["postings"] == [{"from": "p2", "to": "p1", "amount": 200}]
    # Bob cannot pay 5000: refused, with the shortfall (1500 - 100 - 200 = 1200 held).
    status, problem = post({"type": "payment", "from": "p2", "to": "p1", "amount": 5000})
    assert status == 409
    assert problem["code"] == "insufficient_funds"
    assert problem["shortfall"] == 3800
    # Bob goes bankrupt to Ann: the game is over.
    status, _ = post({"type": "bankruptcy", "debtor": "p2", "creditor": "p1"})
    assert status == 201
    status, _, state = client.call("GET", f"/api/v1/games/{gid}", token=banker)
    assert state["status"] == "finished"
    assert state["balances"]["p2"] == 0
    # Ann: 1500 - 750 + 100 - 400 + 200 + Bob's 1200 = 1850 cash.
    assert state["balances"]["p1"] == 1850
    assert sum(state["balances"].values()) == 0
    assert post({"type": "salary", "player": "p1"})[1]["code"] == "game_finished"

    text = log.read_text(errors="replace")
    for token in [banker, *game["tokens"].values()]:
        assert token not in text
