"""``GET /metrics`` of a real ``tablebank serve --workers 2`` with an admin token (API.md v1.3,
"Operating a server"; issue 31: "after 100 known writes and 5 refusals, /metrics holds those
counts, summed over 2 workers"). Each worker keeps its counts in files of a private directory
that the server makes when it starts and removes when it stops; whichever worker answers
``/metrics`` sums every worker's. The counts do not depend on the store: run once, on SQLite."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families
from server import HOST, POLL, TRANSPORT_ERRORS, Server
from sse import EventStream

pytestmark = pytest.mark.e2e

ADMIN_TOKEN = "e2e-metrics-admin-token-5d2a9f"
NEW_GAME = {"name": "metrics", "ruleset": "classic", "players": ["Ann", "Bob"]}
WRITES = "/api/v1/games/<uuid:game>/transactions"
GAMES = 4
SALARIES, PAYMENTS = 60, 40  # 100 writes
POOR, MALFORMED = 3, 2  # 5 refusals: insufficient_funds, validation_error
DEADLINE = 15.0  # seconds for a dead worker to leave the sums


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def worker_counts(directory: Path, copies: Path) -> dict[str, float]:
    """Transactions each worker counted, by its pid: its files alone, read apart."""
    counted = {}
    for file in directory.glob("counter_*.db"):
        pid = file.stem.split("_")[1]
        alone = copies / pid
        alone.mkdir(parents=True)
        shutil.copy(file, alone)
        found = {
            (sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in MultiProcessCollector(None, str(alone)).collect()
            for sample in family.samples
        }
        counted[pid] = sum(
            v for (name, _), v in found.items() if name == "tablebank_transactions_total"
        )
    return counted


@pytest.fixture
def admin_token_file(tmp_path: Path) -> Path:
    path = tmp_path / "admin-token"
    path.write_text(ADMIN_TOKEN + "\n")
    os.chmod(path, 0o600)
    return path


def metered(tmp_path: Path, db: str, admin_token_file: Path, *extra: str) -> Server:
    """A server of two workers with an admin token: counting, its metrics at /metrics."""
    log = tmp_path / "server.log"
    return Server(db, log, "--workers", "2", "--admin-token-file", str(admin_token_file), *extra)


def held(server: Server, game: dict[str, Any]) -> tuple[EventStream, int]:
    """A stream on ``game``, and the worker that serves it: with one connection a worker, that
    worker takes no other request while the stream is open."""
    stream = EventStream(HOST, server.port, game["id"], game["banker_token"])
    (hello,) = [c for c in stream.opening(time.monotonic() + DEADLINE) if "following" in c]
    return stream, int(hello.rsplit(" ", 1)[-1])


def test_metrics_of_two_workers_hold_every_known_write_and_refusal(
    tmp_path: Path, local_db: str, admin_token_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"  # where the server makes its metrics directory
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    # One connection a worker: a worker holding a stream takes nothing else, so which worker
    # writes what is the test's choice, not the scheduler's (which gave one worker all 100).
    server = metered(tmp_path, local_db, admin_token_file, "--connections", "1")
    with server:
        (directory,) = scratch.glob("tablebank-metrics-*")
        games = [server.call("POST", "/api/v1/games", NEW_GAME).body for _ in range(GAMES)]
        first = [{"type": "salary", "player": "p1"}] * SALARIES
        first += [{"type": "payment", "from": "p2", "to": "p1", "amount": 1_000_000}] * POOR
        then = [{"type": "payment", "from": "p1", "to": "p2", "amount": 7}] * PAYMENTS
        then += [{"type": "payment", "from": "p2", "to": "p1", "amount": -1}] * MALFORMED

        def send(bodies: list[dict[str, Any]]) -> Counter[int]:
            def one(n: int) -> int:
                game = games[n % GAMES]
                url = f"/api/v1/games/{game['id']}/transactions"
                return server.call("POST", url, bodies[n], token=game["banker_token"]).status

            with ThreadPoolExecutor(8) as pool:
                return Counter(pool.map(one, range(len(bodies))))

        # One worker holds a stream: the other records the salaries and the refused payments,
        # and answers /metrics alone.
        stream, one = held(server, games[0])
        statuses = send(first)
        answers = [server.call("GET", "/metrics", token=ADMIN_TOKEN)]
        # The other worker holds a stream now, and the first, its own closed, takes the rest.
        other_stream, other = held(server, games[1])
        stream.close()
        statuses += send(then)
        answers += [server.call("GET", "/metrics", token=ADMIN_TOKEN) for _ in range(3)]
        other_stream.close()
        per_worker = worker_counts(directory, tmp_path / "apart")
        mode = stat.S_IMODE(directory.stat().st_mode)
        anonymous = server.call("GET", "/metrics")
        wrong = server.call("GET", "/metrics", token=ADMIN_TOKEN[::-1])

    assert statuses == {201: 100, 409: POOR, 422: MALFORMED}
    assert mode == 0o700
    assert one != other
    assert per_worker == {str(other): SALARIES, str(one): PAYMENTS}  # both wrote
    # The first answer came from the worker with the salaries alone; the last three from the
    # one with the payments alone: each answer holds both workers' counts.
    for answer, payments in zip(answers, [0, PAYMENTS, PAYMENTS, PAYMENTS], strict=True):
        assert answer.status == 200
        assert answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
        found = samples(answer.body)
        assert value(found, "tablebank_transactions_total", type="salary") == SALARIES
        assert value(found, "tablebank_transactions_total", type="payment") == payments
        assert value(found, "tablebank_refusals_total", code="insufficient_funds") == POOR
        assert value(found, "tablebank_refusals_total", code="validation_error") == (
            MALFORMED if payments else 0
        )
        requests = "tablebank_http_requests_total"
        assert value(found, requests, method="POST", route=WRITES, status="201") == (
            SALARIES + payments
        )
        assert value(found, requests, method="POST", route=WRITES, status="409") == POOR
        assert value(found, requests, method="POST", route=WRITES, status="422") == (
            MALFORMED if payments else 0
        )
        assert value(found, "tablebank_group_commit_size_sum") == SALARIES + payments
        assert value(found, "tablebank_games", status="active") == GAMES
        assert value(found, "tablebank_event_streams_open") == 1  # the other worker's
        secrets = [ADMIN_TOKEN] + [g[k] for g in games for k in ("id", "banker_token")]
        assert not [secret for secret in secrets if secret in answer.body]
    assert (anonymous.status, wrong.status) == (401, 401)
    assert not directory.exists()  # removed when the server stopped
    assert list(scratch.iterdir()) == []


def test_a_server_without_an_admin_token_has_no_metrics(tmp_path: Path, local_db: str) -> None:
    with Server(local_db, tmp_path / "server.log") as server:
        answer = server.call("GET", "/metrics")

    assert answer.status == 404
    assert answer.body["code"] == "not_found"


def streams_open(server: Server) -> float | None:
    """``tablebank_event_streams_open`` as the worker that answers says it; None if the
    request was lost (to a worker being killed)."""
    try:
        answer = server.call("GET", "/metrics", token=ADMIN_TOKEN)
    except TRANSPORT_ERRORS:
        return None
    return value(samples(answer.body), "tablebank_event_streams_open")


def test_the_streams_of_a_worker_that_died_leave_the_sum(
    tmp_path: Path, local_db: str, admin_token_file: Path
) -> None:
    server = metered(tmp_path, local_db, admin_token_file)
    with server:
        game = server.call("POST", "/api/v1/games", NEW_GAME).body
        stream, worker = held(server, game)
        opened = [streams_open(server) for _ in range(4)]  # whichever worker answers

        try:
            os.kill(worker, signal.SIGKILL)  # gunicorn starts another; child_exit forgets it
            deadline = time.monotonic() + DEADLINE
            while (now := streams_open(server)) != 0:
                if time.monotonic() > deadline:
                    pytest.fail(f"the dead worker's stream is still counted: {now}", pytrace=False)
                time.sleep(POLL)
        finally:
            stream.close()

    assert opened == [1, 1, 1, 1]
