"""Concurrent writers over real HTTP: two gunicorn worker processes sharing one database (the
run's store: a SQLite file, or a schema of PostgreSQL).

`tablebank serve --workers 2` takes eight requests in flight at once (a greenlet each) in two
processes, each with its own aggregate cache, meeting only in the database. API.md ("Writes are
safe to retry"): without ``If-Match`` two concurrent writers never lose an update; a repeat of
an ``Idempotency-Key`` with the same body returns the first answer and records nothing.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from server import Answer, Server, Servers
from stores import Store

pytestmark = pytest.mark.e2e

THREADS = 8
WRITES = 50
STARTING_CASH = 1500  # docs/rules.md: every player starts with 1500


@pytest.fixture(scope="module")
def server(servers: Servers, store: Store) -> Server:
    """The session's ``serve --workers 2`` on a store of the matrix."""
    return servers.get(store, "--workers", "2")


def new_game(server: Server) -> tuple[str, str, dict[str, Any]]:
    """Ann and Bob at a classic table: set-up is transactions 1 and 2."""
    created = server.call(
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
        return [server.call("POST", path, payment, banker) for _ in range(WRITES)]

    answers = [a for thread in run_together(work) for a in thread]

    assert all(a.status == 201 for a in answers), describe(answers, server)
    seqs = [a.body["seq"] for a in answers]
    assert len(set(seqs)) == THREADS * WRITES
    assert set(seqs) == set(range(setup + 1, setup + THREADS * WRITES + 1))
    game = server.call("GET", f"/api/v1/games/{gid}", token=banker).body
    assert game["last_seq"] == setup + THREADS * WRITES == 402
    assert game["balances"]["p1"] == STARTING_CASH + THREADS * WRITES == 1900
    assert sum(game["balances"].values()) == 0
    verify = server.call("GET", f"/api/v1/games/{gid}/verify", token=banker)
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
            answers.append(server.call("POST", path, body, banker, headers))
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
    game = server.call("GET", f"/api/v1/games/{gid}", token=banker).body
    assert game["last_seq"] == setup + WRITES == 52
    assert game["balances"]["p1"] == STARTING_CASH + WRITES == 1550
    verify = server.call("GET", f"/api/v1/games/{gid}/verify", token=banker)
    assert verify.body == {"ok": True, "transactions": 52, "head": game["head"]}
