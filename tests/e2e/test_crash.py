"""A server killed mid-load loses no acknowledged write and doubles none (the run's store: a
SQLite file, or a schema of PostgreSQL).

``tablebank serve --workers 2`` takes payments and salaries on four games from
eight client threads, each write with an ``Idempotency-Key`` (also written in its memo, so the
history shows where each key's transaction is). After a seeded number of 201s, with requests
in flight, the arbiter and its workers get SIGKILL together, as a power cut would stop them,
and a new server starts on the same database. Then, as API.md promises ("Writes are safe to
retry"; "Keys ... survive restarts"):

- every acknowledged write is in its game's history exactly once, at the seq and with the hash
  it was acknowledged with, and no memo appears twice;
- sending every key again with the same body answers each acknowledged one with its first
  answer and ``Idempotent-Replayed: true``, and applies each of the others exactly once (one
  the crash cut after its commit answers as a replay; one that never reached the store is
  recorded now);
- the balances are those of docs/rules.md applied to the planned writes once each: a payment moves
  its amount, a salary is 200 from the Bank, every player started with 1500;
- every game's hash chain verifies, no answer was a 5xx, and the log holds no token.

The kill is done twice on the same database, each time after a different number of writes.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import Any

import pytest
from server import TRANSPORT_ERRORS, Answer, Server

pytestmark = pytest.mark.e2e

SEED = 20261129  # the plan of writes and the moment of each kill follow from it
GAMES = 4
PLAYERS = ["Ann", "Bob", "Cy"]
ACCOUNTS = ["bank", "p1", "p2", "p3"]
STARTING_CASH = 1500  # docs/rules.md: each player starts with 1500 from the Bank
SALARY = 200  # docs/rules.md: landing on or passing GO pays 200 from the Bank
THREADS = 8
WRITES_PER_ROUND = 120  # over all games
KILL_AFTER = (25, 80)  # a round's kill comes after this many 201s, drawn from the seed
ROUNDS = 2
JOIN_TIMEOUT = 60  # seconds; a request's own timeout is 20
# `serve`'s access log: host "request line" status bytes duration.
ACCESS_LOG_STATUS = re.compile(r'^\S+ "[^"]*" (\d{3}) ', re.MULTILINE)


@dataclass(frozen=True)
class Write:
    """One planned request: its key (also its memo), its game and its body."""

    key: str
    game: int
    body: dict[str, Any]


@dataclass
class Table:
    """One game of the test: its id, its banker's token, and every token it handed out."""

    id: str
    banker: str
    tokens: list[str]
    setup: int  # transactions recorded at creation


@dataclass
class Round:
    """What one round of load saw before its kill."""

    acked: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> the 201 body
    sent: set[str] = field(default_factory=set)
    cut: list[str] = field(default_factory=list)  # sent before the kill, no answer came back
    answers: list[tuple[str, Answer]] = field(default_factory=list)
    killed_at: float = float("inf")


def plan(rng: random.Random, round_no: int) -> list[Write]:
    """Payments of 1-9 between any two accounts and GO salaries, spread over the games."""
    writes = []
    for n in range(WRITES_PER_ROUND):
        game = rng.randrange(GAMES)
        key = f"crash-r{round_no}-g{game}-{n:03d}"
        if rng.random() < 0.25:
            body = {"type": "salary", "player": rng.choice(ACCOUNTS[1:]), "memo": key}
        else:
            payer, payee = rng.sample(ACCOUNTS, 2)
            amount = rng.randint(1, 9)
            body = {"type": "payment", "from": payer, "to": payee, "amount": amount, "memo": key}
        writes.append(Write(key, game, body))
    return writes


def expected_balances(writes: list[Write], game: int) -> dict[str, int]:
    """docs/rules.md applied once to each write of one game, in any order."""
    balances = {"bank": -STARTING_CASH * len(PLAYERS), "pot": 0}
    balances |= {p: STARTING_CASH for p in ACCOUNTS[1:]}
    paid_out = Counter[str]()
    for write in (w for w in writes if w.game == game):
        body = write.body
        if body["type"] == "salary":
            balances["bank"] -= SALARY
            balances[body["player"]] += SALARY
        else:
            balances[body["from"]] -= body["amount"]
            balances[body["to"]] += body["amount"]
            paid_out[body["from"]] += body["amount"]
    # No player can run short whatever the order the threads record in: no refusal is expected.
    assert all(paid_out[p] <= STARTING_CASH for p in ACCOUNTS[1:]), paid_out
    return balances


def history(server: Server, table: Table) -> list[dict[str, Any]]:
    """Every transaction of a game, page by page."""
    items: list[dict[str, Any]] = []
    after: str | None = "0"
    while after is not None:
        path = f"/api/v1/games/{table.id}/transactions?limit=1000&after={after}"
        page = server.call("GET", path, token=table.banker)
        assert page.status == 200, page
        items += page.body["items"]
        after = page.body["next"]
    return items


def new_tables(server: Server) -> list[Table]:
    tables = []
    for n in range(GAMES):
        body = {"name": f"crash {n}", "ruleset": "classic", "players": PLAYERS}
        created = server.call("POST", "/api/v1/games", body)
        assert created.status == 201, created
        game = created.body
        tokens = [game["banker_token"], *game["tokens"].values()]
        tables.append(Table(game["id"], game["banker_token"], tokens, game["last_seq"]))
    return tables


def post(server: Server, table: Table, write: Write) -> Answer:
    return server.call(
        "POST",
        f"/api/v1/games/{table.id}/transactions",
        write.body,
        table.banker,
        {"Idempotency-Key": write.key},
    )


def load_until_killed(
    server: Server, tables: list[Table], writes: list[Write], kill_after: int
) -> Round:
    """Send ``writes`` from ``THREADS`` threads; SIGKILL the server after ``kill_after`` 201s."""
    seen = Round()
    pending: SimpleQueue[Write] = SimpleQueue()
    for write in writes:
        pending.put(write)
    guard = threading.Lock()
    enough = threading.Event()
    crashed = threading.Event()

    def work() -> None:
        while not crashed.is_set():
            try:
                write = pending.get_nowait()
            except Empty:
                return
            started = time.monotonic()
            with guard:
                seen.sent.add(write.key)
            try:
                answer = post(server, tables[write.game], write)
            except TRANSPORT_ERRORS:
                with guard:
                    if started < seen.killed_at:
                        seen.cut.append(write.key)
                return  # the server is gone: this thread's load is over
            with guard:
                seen.answers.append((write.key, answer))
                if answer.status == 201:
                    seen.acked[write.key] = answer.body
                    if len(seen.acked) >= kill_after:
                        enough.set()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    assert enough.wait(timeout=JOIN_TIMEOUT), f"the load ended before {kill_after} writes"
    with guard:
        seen.killed_at = time.monotonic()
    server.kill()
    crashed.set()
    for thread in threads:
        thread.join(timeout=JOIN_TIMEOUT)
        assert not thread.is_alive(), "a client thread hung after the kill"
    return seen


def resend(server: Server, tables: list[Table], writes: list[Write]) -> dict[str, Answer]:
    """Send every write again with its key, from ``THREADS`` threads."""
    pending: SimpleQueue[Write] = SimpleQueue()
    for write in writes:
        pending.put(write)
    answers: dict[str, Answer] = {}

    def work() -> None:
        while True:
            try:
                write = pending.get_nowait()
            except Empty:
                return
            answers[write.key] = post(server, tables[write.game], write)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_TIMEOUT)
        assert not thread.is_alive(), "a resend hung"
    return answers


def check_chain(server: Server, table: Table, transactions: int) -> None:
    game = server.call("GET", f"/api/v1/games/{table.id}", token=table.banker)
    assert game.status == 200, game
    verify = server.call("GET", f"/api/v1/games/{table.id}/verify", token=table.banker)
    assert verify.status == 200, verify
    assert verify.body == {"ok": True, "transactions": transactions, "head": game.body["head"]}


@pytest.fixture
def server(tmp_path: Path, db_url: str) -> Iterator[Server]:
    with Server(db_url, tmp_path / "server.log", "--workers", "2") as running:
        yield running


def test_a_killed_server_loses_no_acknowledged_write_and_doubles_none(server: Server) -> None:
    rng = random.Random(SEED)
    tables = new_tables(server)
    done: list[Write] = []  # every write of the rounds before, each applied once
    for round_no in range(ROUNDS):
        writes = plan(rng, round_no)
        kill_after = rng.randint(*KILL_AFTER)
        seen = load_until_killed(server, tables, writes, kill_after)
        context = f"seed {SEED}, round {round_no}, killed after {kill_after} acks"

        assert all(a.status == 201 for _, a in seen.answers), (context, seen.answers)
        assert seen.cut, f"{context}: no request was in flight at the kill"
        server.start()

        # Every acknowledged write is there once, as acknowledged; nothing is there twice.
        present: dict[str, dict[str, Any]] = {}  # key -> its transaction, found after the crash
        for n, table in enumerate(tables):
            items = history(server, table)
            memos = Counter(t["memo"] for t in items if t["memo"] is not None)
            assert all(count == 1 for count in memos.values()), (context, memos.most_common(3))
            present |= {t["memo"]: t for t in items if t["memo"] is not None}
            for write in (w for w in writes if w.game == n and w.key in seen.acked):
                assert write.key in present, f"{context}: acknowledged {write.key} lost"
                found, acked = present[write.key], seen.acked[write.key]
                assert (found["seq"], found["hash"]) == (acked["seq"], acked["hash"]), context
            known = {w.key for w in done} | seen.sent
            assert set(memos) <= known, f"{context}: recorded but never sent"
            check_chain(server, table, len(items))

        # Every key again: what the store holds is replayed (the acknowledged ones with their
        # very answer), the rest is applied now.
        again = resend(server, tables, writes)
        assert all(a.status == 201 for a in again.values()), (context, again)
        for key, acked in seen.acked.items():
            assert again[key].body == acked, (context, key)
        for write in writes:
            answer = again[write.key]
            if write.key in present:
                assert answer.headers.get("idempotent-replayed") == "true", (context, write)
                assert answer.body["seq"] == present[write.key]["seq"], (context, write)
            else:
                assert "idempotent-replayed" not in answer.headers, (context, write)
        done += writes
        for n, table in enumerate(tables):
            items = history(server, table)
            memos = Counter(t["memo"] for t in items if t["memo"] is not None)
            assert memos == Counter(w.key for w in done if w.game == n), context
            assert len(items) == table.setup + len(memos)
            game = server.call("GET", f"/api/v1/games/{table.id}", token=table.banker)
            assert game.status == 200, game
            assert game.body["balances"] == expected_balances(done, n), context
            check_chain(server, table, len(items))

    # No 5xx in any answer the servers finished, the tests' reads and writes and any other.
    log = server.log_text()
    statuses = Counter(ACCESS_LOG_STATUS.findall(log))
    assert statuses["201"] >= len(done), statuses
    assert not [s for s in statuses if s.startswith("5")], statuses
    for table in tables:
        for token in table.tokens:
            assert token not in log
