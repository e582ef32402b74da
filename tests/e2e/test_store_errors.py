"""One game's store error delays no other game's writes (API.md v1.2, "Reads never stall the
table"; issue 20), on PostgreSQL, where the library tried a failed insert 10 times 0.2 s apart.

A real ``tablebank serve`` (one worker: every write of every game goes through its group commit)
on a PostgreSQL schema where a trigger fails every insert of one game's events with SQLSTATE
53100 ``disk_full``, as a full disk would. Four tables write their own games meanwhile: their
p99 stays what it was without the failing game, within 250 ms: it was 13-17 ms more when this
was written, but the 2 cores CI shares with browser tests move a p99 by tens of milliseconds
from one moment to the next, and the retry loop this guards against cost 3.8 s. The failing
game's writes are each answered 503 ``storage_unavailable`` with ``Retry-After``, and once the
trigger is dropped the same request is recorded. Before: the others waited with it (p50 3.8 s,
max 7.5 s).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest
from server import HOST, Server, serving
from stores import PostgresStore

pytestmark = pytest.mark.e2e

TABLES = 4
WRITES = 60  # each table's, one after another
BOUND = 0.250  # seconds over the tables' p99 without the failing game (see above)


@pytest.fixture(scope="module")
def server(postgres: PostgresStore, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(postgres, tmp_path_factory.mktemp("store-errors")) as running:
        yield running


def new_game(server: Server) -> dict:
    answer = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": ["A", "B"]}
    )
    assert answer.status == 201, answer
    return answer.body


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, round(0.99 * len(ordered)) - 1)]


def write(conn: http.client.HTTPConnection, game: dict, key: str) -> tuple[int, float, dict]:
    """One payment on ``game``: its status, how long it took, its headers."""
    body = json.dumps({"type": "payment", "from": "bank", "to": "p1", "amount": 1})
    headers = {
        "Content-Type": "application/json",
        "Authorization": f"Bearer {game['banker_token']}",
        "Idempotency-Key": key,
    }
    began = time.perf_counter()
    conn.request("POST", f"/api/v1/games/{game['id']}/transactions", body, headers)
    response = conn.getresponse()
    response.read()
    return response.status, time.perf_counter() - began, dict(response.getheaders())


def tables_writing(server: Server, games: list[dict], round_: str) -> list[float]:
    """Each game written by a thread of its own, ``WRITES`` payments; every latency."""
    took: list[list[float]] = [[] for _ in games]

    def table(n: int) -> None:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
        try:
            for i in range(WRITES):
                status, seconds, _ = write(conn, games[n], f"{round_}-{n}-{i}")
                assert status == 201
                took[n].append(seconds)
        finally:
            conn.close()

    threads = [threading.Thread(target=table, args=(n,)) for n in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(len(each) == WRITES for each in took)
    return [seconds for each in took for seconds in each]


def test_one_games_failing_inserts_leave_the_other_games_writes_as_fast(
    server: Server, postgres: PostgresStore
) -> None:
    games = [new_game(server) for _ in range(TABLES)]
    failing = new_game(server)
    alone = p99(tables_writing(server, games, "alone"))

    schema = dict(parse_qsl(urlsplit(server.db).query))["schema"]
    postgres.admin.execute(
        f"CREATE FUNCTION {schema}.disk_is_full() RETURNS trigger AS $$ BEGIN "
        "RAISE EXCEPTION 'could not extend file: No space left on device' "
        "USING ERRCODE = 'disk_full'; END $$ LANGUAGE plpgsql"
    )
    uid = failing["id"]
    postgres.admin.execute(
        f"CREATE TRIGGER disk_is_full BEFORE INSERT ON {schema}.tablebank_events "
        f"FOR EACH ROW WHEN (NEW.originator_id = '{uid}') "
        f"EXECUTE FUNCTION {schema}.disk_is_full()"
    )
    refused: list[tuple[int, float, dict]] = []
    stop = threading.Event()

    def failing_table() -> None:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
        try:
            n = 0
            while not stop.is_set():
                refused.append(write(conn, failing, f"failing-{n}"))
                n += 1
        finally:
            conn.close()

    hammer = threading.Thread(target=failing_table)
    hammer.start()
    try:
        beside = p99(tables_writing(server, games, "beside"))
    finally:
        stop.set()
        hammer.join(timeout=60)
    print(
        f"{TABLES} tables' p99: {alone * 1000:.0f} ms alone, {beside * 1000:.0f} ms beside a "
        f"game whose every insert fails ({len(refused)} refused, slowest refusal "
        f"{max(r[1] for r in refused) * 1000:.0f} ms)"
    )
    assert beside <= alone + BOUND
    assert refused and {status for status, _, _ in refused} == {503}
    assert all(headers["Retry-After"] == "5" for _, _, headers in refused)

    postgres.admin.execute(f"DROP TRIGGER disk_is_full ON {schema}.tablebank_events")
    conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
    status, _, _ = write(conn, failing, "failing-0")  # sent again, with its key: recorded
    conn.close()
    assert status == 201
    game = server.call("GET", f"/api/v1/games/{uid}", token=failing["banker_token"]).body
    assert game["last_seq"] == 3  # starting cash of two, and this payment once
