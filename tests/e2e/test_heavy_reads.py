"""Reads never stall the table (API.md v1.2): while 8 clients replay a 10,000-transaction game
on a real ``tablebank serve`` (one worker, its defaults; the cache of answers off, so that
replays are computed, or on, so that they are sent from it), a writer on another game is not
held up, every replay is answered (200, or 503 ``busy`` with ``Retry-After``), and no worker is
killed.

Before (v1.1): one write waited 13 s behind 8 replays, and gunicorn killed the worker for its
timeout. The bounds are over what a write takes on the same server just before without the
replays: its median within the contract's 100 ms of the quiet median, and its 99th percentile
(the second slowest of 150) within 500 ms of the quiet one. The contract's 100 ms at the 99th
percentile is measured where it means something, on a quiet machine: ``make bench``, its (g).
Here the 2 cores are shared with the other half of the suite, and one of 150 writes met a
collection or the other worker's burst: a p99 of 162 ms over a quiet 30 ms failed a fresh
clone's CI once, on PostgreSQL, with the bound at 100 ms. A stall is seconds, as it was.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from long_logs import long_log
from server import HOST, Server
from stores import Store

pytestmark = pytest.mark.e2e

LONG_GAME = 10_000
REPLAYERS = 8
WRITES = 150  # the writer's, one after another, while the replays run
MEDIAN_BOUND = 0.100  # seconds over the same writer's median without the replays
P99_BOUND = 0.500  # seconds over the same writer's p99 without the replays


@pytest.fixture(scope="module")
def holding_the_long_game(
    store: Store, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path, dict]]:
    """A new database that holds the long game (put there by ``tablebank import`` before any
    server starts), a folder for the servers' logs, and that game's id and banker token."""
    out = tmp_path_factory.mktemp("heavy")
    db = store.new(durable=True)
    try:
        yield db, out, imported_offline(db, out)
    finally:
        store.drop(db)


@pytest.fixture(params=["computed", "kept"])
def served(
    request: pytest.FixtureRequest, holding_the_long_game: tuple[str, Path, dict]
) -> Iterator[tuple[Server, dict]]:
    """A server on that database: one whose cache of answers is off, so that every replay is
    computed, or one with its default cache, so that every replay but the first is sent from
    it (8 clients were then sent 2 GB a second, and a write waited 115 ms, p50)."""
    db, out, long = holding_the_long_game
    cache = ["--read-cache-mib", "0"] if request.param == "computed" else []
    with Server(db, out / f"server-{request.param}.log", *cache) as running:
        yield running, long


def median(samples: list[float]) -> float:
    return sorted(samples)[len(samples) // 2]


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, round(0.99 * len(ordered)) - 1)]


def write_latencies(server: Server, game: dict, n: int) -> list[float]:
    conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
    headers = {
        "Content-Type": "application/json",
        "Authorization": f"Bearer {game['banker_token']}",
    }
    body = '{"type": "payment", "from": "bank", "to": "p1", "amount": 1}'
    took = []
    try:
        for _ in range(n):
            began = time.perf_counter()
            conn.request("POST", f"/api/v1/games/{game['id']}/transactions", body, headers)
            response = conn.getresponse()
            response.read()
            took.append(time.perf_counter() - began)
            assert response.status == 201
            time.sleep(0.01)  # a busy table's pace, and more
    finally:
        conn.close()
    return took


def imported_offline(db: str, out: Path) -> dict[str, str]:
    """The long game put in the store by ``tablebank import``: its id and banker token. The
    replays are what this test is about; an import served under the load of the whole suite
    once held the worker past gunicorn's 30 s (its save on PostgreSQL runs in the event loop),
    and that is an issue of its own, not this test's."""
    log = out / "long.tablebank.json"
    log.write_text(json.dumps(long_log(LONG_GAME)))
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "import", str(log), "--db", db],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    said = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    return {"id": said["game"], "banker_token": said["banker token"]}


def test_a_write_is_not_held_up_while_eight_clients_replay_a_long_game(
    served: tuple[Server, dict],
) -> None:
    server, long = served
    created = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": ["A", "B"]}
    )
    writer_game = created.body
    alone = write_latencies(server, writer_game, 50)
    quiet = p99(alone)

    answers: list[int] = []
    stop = threading.Event()

    def replay() -> None:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=120)
        headers = {"Authorization": f"Bearer {long['banker_token']}"}
        try:
            while not stop.is_set():
                conn.request("GET", f"/api/v1/games/{long['id']}/replay", headers=headers)
                response = conn.getresponse()
                body = response.read()
                answers.append(response.status)
                if response.status == 200:
                    assert body.count(b'"seq"') >= LONG_GAME  # a whole replay
                else:
                    assert response.status == 503
                    stop.wait(int(response.getheader("Retry-After")))
        finally:
            conn.close()

    replayers = [threading.Thread(target=replay) for _ in range(REPLAYERS)]
    for thread in replayers:
        thread.start()
    try:
        deadline = time.monotonic() + 60
        while not answers and time.monotonic() < deadline:  # the replays under way
            time.sleep(0.05)
        loaded = write_latencies(server, writer_game, WRITES)
    finally:
        stop.set()
        for thread in replayers:
            thread.join(timeout=120)
    busy = p99(loaded)
    print(
        f"writer median: {median(alone) * 1000:.0f} ms alone, {median(loaded) * 1000:.0f} ms "
        f"beside the replays; p99: {quiet * 1000:.0f} ms alone, {busy * 1000:.0f} ms beside "
        f"{REPLAYERS} replays of {LONG_GAME:,} transactions; "
        f"replays answered {answers.count(200)}, busy {answers.count(503)}"
    )
    assert answers.count(200) >= REPLAYERS
    assert set(answers) <= {200, 503}
    assert median(loaded) <= median(alone) + MEDIAN_BOUND
    assert busy <= quiet + P99_BOUND
    assert "WORKER TIMEOUT" not in server.log_text()
