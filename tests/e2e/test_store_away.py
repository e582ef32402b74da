"""A server whose PostgreSQL goes away (API.md v1.3, "Operating a server"; docs/deploy.md, "When
PostgreSQL is away"): a write is answered 503 ``storage_unavailable`` with ``Retry-After``
within seconds, not held, and none is lost or recorded twice; once PostgreSQL is back, the
next write is recorded at once. A hung PostgreSQL holds the requests that wait on it, never the
worker: ``/healthz`` answers meanwhile and ``/readyz`` says the store is away; once it has said
nothing for 3 s, they are answered 503 too.

The server talks to PostgreSQL through a ``Cable`` the test pulls out or freezes, not by
stopping the PostgreSQL every other test shares. Classic figures (docs/rules.md): each player
starts with 1,500 and a salary is 200.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cable import Cable
from server import TRANSPORT_ERRORS, Answer, Server
from stores import PostgresStore

pytestmark = pytest.mark.e2e

NEW_GAME = {"name": "Club night", "ruleset": "classic", "players": ["Ann", "Bob"]}
STARTING_CASH, SALARY = 1500, 200
# A write's wait for PostgreSQL: 3 s for a connection (ledger.store.STORE_SECONDS), and the
# test's own margin for a loaded machine.
REFUSED_WITHIN = 3.0 + 1.5


@pytest.fixture
def cabled(postgres: PostgresStore, tmp_path: Path) -> Iterator[tuple[Server, Cable]]:
    """A server of one worker on a fresh PostgreSQL schema, through a cable."""
    db = postgres.new()
    parts = urlsplit(db)
    cable = Cable(parts.hostname or "127.0.0.1", parts.port or 5432)
    try:
        with Server(cable.via(db), tmp_path / "server.log", "--workers", "1") as server:
            yield server, cable
    finally:
        cable.close()
        postgres.drop(db)


def salary(server: Server, game: dict[str, str], key: str) -> Answer:
    return server.salary(game, key, timeout=60)  # a hung store's wait, then its answer


def timed(call: object) -> tuple[Answer, float]:
    started = time.monotonic()
    answer = call()  # type: ignore[operator]
    return answer, time.monotonic() - started


def club_night(server: Server) -> dict[str, str]:
    """A new game, its first salary (k0) recorded while PostgreSQL answers."""
    game = server.call("POST", "/api/v1/games", NEW_GAME).body
    assert salary(server, game, "k0").status == 201
    return game


def assert_refused_for_now(answer: Answer) -> None:
    """503 ``storage_unavailable`` with a ``Retry-After``: nothing recorded, send it again."""
    assert answer.status == 503, answer
    assert answer.body["type"].endswith("/storage_unavailable"), answer
    assert int(answer.headers["retry-after"]) > 0, answer


def sent_until_answered(server: Server, game: dict[str, str], key: str, within: float) -> Answer:
    """The salary sent again with ``key``, as a client does after each 503, until another
    answer comes; that answer, which must come ``within`` seconds."""
    deadline = time.monotonic() + within
    while (answer := salary(server, game, key)).status == 503:
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)
    return answer


def cash_of_p1(server: Server, game: dict[str, str]) -> int:
    state = server.call("GET", f"/api/v1/games/{game['id']}", token=game["banker_token"]).body
    return int(state["balances"]["p1"])


def test_writes_while_postgres_is_stopped_are_refused_within_seconds_and_none_is_lost(
    cabled: tuple[Server, Cable],
) -> None:
    server, cable = cabled
    game = club_night(server)

    cable.unplug()  # PostgreSQL stopped: connections cut, new ones refused
    # Each refused at once or after the wait for a connection, never held: the first finds
    # its connection cut, the later ones wait for a new one (the pool's are all gone).
    for key in ("k1", "k1", "k2", "k2"):
        answer, took = timed(lambda key=key: salary(server, game, key))
        assert_refused_for_now(answer)
        assert took < REFUSED_WITHIN, f"{key} answered after {took:.1f} s"
    ready, took = timed(lambda: server.call("GET", "/readyz"))
    assert (ready.status, took < 3.0) == (503, True), (ready, took)
    assert server.call("GET", "/healthz").status == 200

    cable.plug()  # PostgreSQL back
    plugged = time.monotonic()
    answer = salary(server, game, "k1")  # the client sends its write again, same key
    assert answer.status == 201, answer
    assert time.monotonic() - plugged < 2.0
    assert salary(server, game, "k2").status == 201
    assert salary(server, game, "k2").status == 201  # the same key: the same record, not two
    assert server.call("GET", "/readyz").status == 200

    # k0, k1 and k2 each recorded once: three salaries.
    assert cash_of_p1(server, game) == STARTING_CASH + 3 * SALARY


def test_a_hung_postgres_has_its_requests_refused_within_seconds_and_holds_no_worker(
    cabled: tuple[Server, Cable],
) -> None:
    server, cable = cabled
    game = club_night(server)

    cable.freeze()  # PostgreSQL hung: connections open, no answer
    answers: list[tuple[Answer, float]] = []
    waiting = threading.Thread(
        target=lambda: answers.append(timed(lambda: salary(server, game, "k1")))
    )
    waiting.start()
    try:
        time.sleep(0.5)  # the write is waiting on PostgreSQL now
        alive, took = timed(lambda: server.call("GET", "/healthz"))
        assert (alive.status, took < 1.0) == (200, True), (alive, took)
        ready, took = timed(lambda: server.call("GET", "/readyz"))
        assert (ready.status, took < 3.0) == (503, True), (ready, took)
        # The write: given up once PostgreSQL has said nothing for 3 s (it used to wait for
        # as long as PostgreSQL hung), and its connection, in the middle of a query, closed.
        waiting.join(timeout=30)
        assert answers, "the write was still waiting 30 s after PostgreSQL hung"
        ((answer, took),) = answers
        assert_refused_for_now(answer)
        assert took < 2 * REFUSED_WITHIN, f"answered after {took:.1f} s"
    finally:
        cable.thaw()
        waiting.join(timeout=30)
    # The client sends it again, with its key, once PostgreSQL answers: recorded once.
    again = sent_until_answered(server, game, "k1", within=10.0)
    assert again.status == 201, again
    assert salary(server, game, "k1").status == 201  # the same key: the same record
    assert cash_of_p1(server, game) == STARTING_CASH + 2 * SALARY


def test_a_worker_started_while_postgres_is_away_serves_503_until_it_is_back(
    cabled: tuple[Server, Cable],
) -> None:
    server, cable = cabled
    game = club_night(server)
    assert server.process is not None
    (worker,) = server.workers()

    cable.unplug()
    # gunicorn replaces a worker it lost (here killed; in life its timeout, a crash, the
    # kernel's OOM killer): the new one cannot reach PostgreSQL as it starts. It used to fail
    # to boot, and gunicorn stopped the whole server for it.
    os.kill(worker, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while server.workers() in ([], [worker]) or not server_is_up(server):
        assert server.process.poll() is None, server.log_tail()
        assert time.monotonic() < deadline, server.log_tail()
        time.sleep(0.2)
    ready = server.call("GET", "/readyz")
    assert_refused_for_now(ready)
    assert_refused_for_now(salary(server, game, "k1"))

    cable.plug()  # PostgreSQL back: the worker opens its store on a request
    answer = sent_until_answered(server, game, "k1", within=5.0)
    assert answer.status == 201, answer
    assert server.call("GET", "/readyz").status == 200
    assert server.process.poll() is None
    assert cash_of_p1(server, game) == STARTING_CASH + 2 * SALARY  # k0 and k1, once each


def server_is_up(server: Server) -> bool:
    try:
        return server.call("GET", "/healthz").status == 200
    except TRANSPORT_ERRORS:
        return False
