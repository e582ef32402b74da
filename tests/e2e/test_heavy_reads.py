"""Reads never stall the table (API.md v1.2): while 8 clients replay a 10,000-transaction game
on a real ``tablebank serve`` (one worker, its defaults, the cache of answers off so that
replays are computed and not served from it), a writer on another game is answered within
100 ms at the 99th percentile, every replay is answered (200, or 503 ``busy`` with
``Retry-After``), and no worker is killed.

Before (v1.1): one write waited 13 s behind 8 replays, and gunicorn killed the worker for its
timeout. The bound is the contract's 100 ms over what a write takes on the same server just
before without the replays (a few milliseconds on a quiet machine): on the 2 cores CI shares
with other tests, those take their share of every write too. ``make bench`` measures it on a
quiet machine (its (g)).
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator

import pytest
from long_logs import long_log
from server import HOST, Server, serving
from stores import Store

pytestmark = pytest.mark.e2e

LONG_GAME = 10_000
REPLAYERS = 8
WRITES = 150  # the writer's, one after another, while the replays run
P99_BOUND = 0.100  # seconds over the same writer's p99 without the replays


@pytest.fixture(scope="module")
def server(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(store, tmp_path_factory.mktemp("heavy"), "--read-cache-mib", "0") as running:
        yield running


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


def test_a_write_is_answered_within_100_ms_while_eight_clients_replay_a_long_game(
    server: Server,
) -> None:
    imported = server.client.call("POST", "/api/v1/games/import", long_log(LONG_GAME), timeout=120)
    assert imported.status == 201, imported
    long = imported.body
    created = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": ["A", "B"]}
    )
    writer_game = created.body
    quiet = p99(write_latencies(server, writer_game, 50))

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
        f"writer p99: {quiet * 1000:.0f} ms alone, {busy * 1000:.0f} ms beside {REPLAYERS} "
        f"replays of {LONG_GAME:,} transactions; replays answered {answers.count(200)}, "
        f"busy {answers.count(503)}"
    )
    assert answers.count(200) >= REPLAYERS
    assert set(answers) <= {200, 503}
    assert busy <= quiet + P99_BOUND
    assert "WORKER TIMEOUT" not in server.log_text()
