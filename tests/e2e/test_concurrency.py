"""Concurrent writers over real HTTP: two gunicorn worker processes sharing one database (the
run's store: a SQLite file, or a schema of PostgreSQL).

`tablebank serve --workers 2 --threads 4` gives eight requests in flight at once from two
processes, each with its own aggregate cache, meeting only in the database. API.md ("Writes are
safe to retry"): without ``If-Match`` two concurrent writers never lose an update; a repeat of
an ``Idempotency-Key`` with the same body returns the first answer and records nothing.
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from stores import Store

pytestmark = pytest.mark.e2e

THREADS = 8
WRITES = 50
STARTING_CASH = 1500  # RULES.md: every player starts with 1500
TIMEOUT = 20  # seconds for one request; the whole test stays well under a minute


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Answer:
    """One HTTP response: status, headers (by lower-case name), JSON body."""

    def __init__(self, status: int, headers: dict[str, str], body: Any) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def __repr__(self) -> str:
        return f"<{self.status} {self.body!r}>"


class Client:
    """A small HTTP client over one new connection per call, safe to share between threads."""

    def __init__(self, port: int) -> None:
        self.port = port

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            sent = {"Content-Type": "application/json", **(headers or {})}
            if token:
                sent["Authorization"] = f"Bearer {token}"
            data = None if body is None else json.dumps(body).encode()
            conn.request(method, path, body=data, headers=sent)
            resp = conn.getresponse()
            raw = resp.read()
            got = {k.lower(): v for k, v in resp.getheaders()}
            try:
                parsed = json.loads(raw or b"null")
            except ValueError:
                parsed = raw.decode(errors="replace")
            return Answer(resp.status, got, parsed)
        finally:
            conn.close()


class Server:
    def __init__(self, client: Client, log: Path) -> None:
        self.client = client
        self.log = log

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, store: Store) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("concurrency")
    db = store.new(durable=True)
    port = free_port()
    log = tmp / "server.log"
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
                db,
                "--workers",
                "2",
                "--threads",
                "4",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    client = Client(port)
    deadline = time.monotonic() + 30
    while True:
        try:
            if client.call("GET", "/healthz").status == 200:
                break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            pytest.fail("server did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.05)  # polling with a deadline, not waiting for a fixed time
    try:
        yield Server(client, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        store.drop(db)


def new_game(server: Server) -> tuple[str, str, dict[str, Any]]:
    """Ann and Bob at a classic table: set-up is transactions 1 and 2."""
    created = server.client.call(
        "POST", "/api/v1/games", {"name": "race", "ruleset": "classic", "players": ["Ann", "Bob"]}
    )
    assert created.status == 201, created
    return created.body["id"], created.body["banker_token"], created.body


def run_together(work: Callable[[int], list[Answer]]) -> list[list[Answer]]:
    """Run ``work(i)`` in ``THREADS`` threads at once; every thread joined with a timeout."""
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        futures = [pool.submit(work, i) for i in range(THREADS)]
        return [f.result(timeout=60) for f in futures]


def describe(answers: list[Answer], server: Server) -> str:
    counts = Counter(
        (a.status, a.body.get("code") if isinstance(a.body, dict) else None) for a in answers
    )
    odd = [a for a in answers if a.status != 201][:3]
    return f"statuses {dict(counts)}, e.g. {odd}\n--- server log ---\n{server.log_tail()}"


def test_concurrent_writers_on_one_game_lose_no_update(server: Server) -> None:
    gid, banker, created = new_game(server)
    setup = created["last_seq"]
    start = threading.Barrier(THREADS)
    path = f"/api/v1/games/{gid}/transactions"
    payment = {"type": "payment", "from": "bank", "to": "p1", "amount": 1}

    def work(_: int) -> list[Answer]:
        start.wait(timeout=30)
        return [server.client.call("POST", path, payment, banker) for _ in range(WRITES)]

    answers = [a for thread in run_together(work) for a in thread]

    assert all(a.status == 201 for a in answers), describe(answers, server)
    seqs = [a.body["seq"] for a in answers]
    assert len(set(seqs)) == THREADS * WRITES
    assert set(seqs) == set(range(setup + 1, setup + THREADS * WRITES + 1))
    game = server.client.call("GET", f"/api/v1/games/{gid}", token=banker).body
    assert game["last_seq"] == setup + THREADS * WRITES == 402
    assert game["balances"]["p1"] == STARTING_CASH + THREADS * WRITES == 1900
    assert sum(game["balances"].values()) == 0
    verify = server.client.call("GET", f"/api/v1/games/{gid}/verify", token=banker)
    assert verify.status == 200
    assert verify.body == {"ok": True, "transactions": 402, "head": game["head"]}


def test_racing_repeats_of_one_idempotency_key_record_it_once(server: Server) -> None:
    gid, banker, created = new_game(server)
    setup = created["last_seq"]
    path = f"/api/v1/games/{gid}/transactions"
    # Every thread sends request i at the same moment: same key, same body.
    together = threading.Barrier(THREADS)

    def request(i: int) -> tuple[dict[str, Any], dict[str, str]]:
        body = {"type": "payment", "from": "bank", "to": "p1", "amount": 1, "memo": f"#{i}"}
        return body, {"Idempotency-Key": f"race-{gid}-{i}"}

    def work(_: int) -> list[Answer]:
        answers = []
        for i in range(WRITES):
            body, headers = request(i)
            together.wait(timeout=30)
            answers.append(server.client.call("POST", path, body, banker, headers))
        return answers

    by_thread = run_together(work)
    answers = [a for thread in by_thread for a in thread]

    in_progress = [a for a in answers if a.status == 409]
    assert not in_progress, f"409 seen (idempotency_in_progress?): {in_progress[:3]}"
    assert all(a.status == 201 for a in answers), describe(answers, server)
    for i in range(WRITES):
        same_key = [thread[i] for thread in by_thread]
        assert all(a.body == same_key[0].body for a in same_key), i
        replayed = [a.headers.get("idempotent-replayed") for a in same_key]
        assert replayed.count("true") == THREADS - 1, (i, replayed)
        assert replayed.count(None) == 1, (i, replayed)
        assert same_key[0].body["memo"] == f"#{i}"
    seqs = {thread[i].body["seq"] for thread in by_thread for i in range(WRITES)}
    assert seqs == set(range(setup + 1, setup + WRITES + 1))
    game = server.client.call("GET", f"/api/v1/games/{gid}", token=banker).body
    assert game["last_seq"] == setup + WRITES == 52
    assert game["balances"]["p1"] == STARTING_CASH + WRITES == 1550
    verify = server.client.call("GET", f"/api/v1/games/{gid}/verify", token=banker)
    assert verify.body == {"ok": True, "transactions": 52, "head": game["head"]}
