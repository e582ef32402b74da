"""(f) Scale-out on PostgreSQL: two servers on one database against one, and one game shared.

Three windows, each with servers of its own (``tablebank serve`` with one worker each, see
``benchmarks.run.SCALEOUT_WORKERS``; all five started at once before the first window, so
that no start falls in a window, and each killed after its window):

- one server driven by 8 client tables (one keep-alive client thread per table, as in (a)):
  its rate and its processes' CPU seconds (``Server.cpu_seconds``), so transactions per
  server CPU second;
- two servers on the same database, each on its own port and its own 8 tables (the first
  window's and 8 others), driven at once for the same time: the combined rate over the two
  servers' combined CPU. The efficiency is the two servers' transactions per CPU second over
  the one server's: each server has the same load in both windows, so 1.0 means that sharing
  the database with another server costs no CPU per transaction (on 2 cores the combined rate
  cannot double; on a machine with a core per worker it would, at that efficiency);
- one shared game: both servers take payments on the same game at once (``SHARED_CLIENTS``
  clients each, ``SHARED_SECONDS``). Afterwards its ``last_seq`` (``GET /api/v1/games/{id}``,
  through the other server) must be its ``last_seq`` before plus the 201 answers, and its
  balances what those payments make of the balances before: the lost updates are the
  difference (0 if no write was lost or doubled).

Store conflicts retried per write, without touching the server: PostgreSQL's rolled-back
transactions (``xact_rollback`` of ``pg_stat_database``) over the window's life, through an
admin connection of this process, divided by the writes the window's servers acknowledged
(201 answers, the warm-up's included). A save that loses the race to another writer fails its
insert (``IntegrityError``: a unique violation) and its transaction is rolled back, then
retried; reads commit (checked: reads and writes of the ledger add no rollback, and one save of
a stale game adds exactly one). So the figure counts every rolled-back transaction of the
database, a write's conflict being one of them: it is an upper bound, and it includes other
sessions' rollbacks if anything else uses the database meanwhile. Also given: the event rows
inserted into this schema's events table but not kept (``n_tup_ins`` of
``pg_stat_user_tables`` against ``count(*)``), each one the insert of a failed save, which is
this schema's alone.

PostgreSQL publishes a backend's counters after its transaction only if it last did so a
second or more before, else once the backend has been idle for 10 s, or when it exits
(PostgreSQL 15, checked: a conflict's rollback showed 10 s later on a connection left idle, at
once when it closed; ``pg_stat_force_next_flush()`` only acts on the calling backend). So the
counters are read just before the window, when its servers have only started (which rolls
nothing back and inserts nothing), and again when the servers have been killed and every one
of their connections (named by ``PGAPPNAME``) has left ``pg_stat_activity``: by then every
counter of theirs has been published.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg.sql import SQL, Identifier

from benchmarks.http_load import WARM_UP, Client, Server, run_window

# The shared game: clients per server and seconds (at most the suite's duration).
SHARED_CLIENTS = 4
SHARED_SECONDS = 2.0
# Every key of this part starts so (the report shows n/a for them on SQLite).
PREFIX = "scaleout_"
# The ledger's events (eventsourcing's table for the TableBank application).
EVENTS_TABLE = "tablebank_events"


class Tally(Client):
    """A client that counts its acknowledged payments of each direction (p1 to p2, back)."""

    def __init__(self, port: int, game_id: str, token: str) -> None:
        super().__init__(port, game_id, token)
        self.moved = [0, 0]  # 201 answers to payment(i) for even i, for odd i

    def pay(self) -> float:
        i, errors = self.sent, self.errors
        elapsed = super().pay()
        if self.errors == errors:
            self.moved[i % 2] += 1
        return elapsed

    @property
    def acknowledged(self) -> int:
        return sum(self.moved)


class Counters:
    """The store's counters, through a connection of this process's own."""

    def __init__(self, db: str) -> None:
        parts = urlsplit(db)
        query = dict(parse_qsl(parts.query))
        self.schema = query.pop("schema", "public")
        url = urlunsplit(parts._replace(query=urlencode(query)))
        self.conn = psycopg.connect(url, autocommit=True, application_name="tablebank-bench")
        # The servers' connections: this run's, whatever else runs on the machine.
        self.app_name = f"tablebank-bench-{os.getpid()}"

    def read(self) -> dict[str, int]:
        """Rolled-back transactions of the database; event rows inserted and kept in the
        schema. (None of these queries can fail: a failed one would be a rollback itself.)"""
        row = self.conn.execute(
            "SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        table = self.conn.execute(
            "SELECT n_tup_ins FROM pg_stat_user_tables WHERE schemaname = %s AND relname = %s",
            (self.schema, EVENTS_TABLE),
        ).fetchone()
        inserted = kept = 0
        if table is not None:  # the table exists: it can be counted
            inserted = int(table[0])
            count = SQL("SELECT count(*) FROM {}.{}").format(
                Identifier(self.schema), Identifier(EVENTS_TABLE)
            )
            kept = int(self.conn.execute(count).fetchone()[0])  # type: ignore[index]
        return {"rollbacks": int(row[0]) if row else 0, "inserted": inserted, "kept": kept}

    def wait_gone(self, names: list[str], timeout: float = 30) -> None:
        """Until no connection named one of ``names`` is left (each publishes its counters as
        it ends)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = self.conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = ANY(%s)",
                (names,),
            ).fetchone()
            if not left or not left[0]:
                return
            time.sleep(0.02)
        raise RuntimeError("the servers' PostgreSQL connections did not close")

    def close(self) -> None:
        self.conn.close()


def drive(
    servers: Sequence[Server], clients: list[Tally], duration: float, warm_up: int
) -> dict[str, Any]:
    """Every client in a thread of its own, all recording payments for ``duration`` seconds
    after ``warm_up`` each; the servers' CPU seconds over the window."""
    samples, elapsed, cpu, _ = run_window(
        clients, duration, warm_up, lambda: sum(server.cpu_seconds() for server in servers)
    )
    requests = sum(len(each) for each in samples)
    return {
        "tps": requests / elapsed,
        "cpu_tps": requests / cpu if cpu > 0 else 0.0,
        "requests": requests,
        "server_cpu_s": cpu,
        "errors": sum(client.errors for client in clients),
    }


def get_game(port: int, game: list[str]) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Authorization": f"Bearer {game[1]}"}
        conn.request("GET", f"/api/v1/games/{game[0]}", headers=headers)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"GET game: {response.status} {body[:200]!r}")
        return dict(json.loads(body))
    finally:
        conn.close()


class NamedServer(Server):
    """A server whose PostgreSQL connections carry ``app_name`` (``PGAPPNAME``)."""

    def __init__(self, db: str, workers: int, app_name: str) -> None:
        self.app_name = app_name
        super().__init__(db, workers, {"PGAPPNAME": app_name})


def kill(server: Server) -> None:
    """End a server at once (SIGKILL, its master first, so that no worker is started again):
    after a window nothing is in flight, and every PostgreSQL connection of a killed process
    ends with it. (A graceful stop takes 2 s; (f) stops five servers.)"""
    pids = [server.process.pid, *server.workers()]
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.process.wait()


def window(
    counters: Counters,
    servers: list[NamedServer],
    per_server: list[list[list[str]]],
    *,
    duration: float,
    warm_up: int,
    shared: list[str] | None = None,
) -> dict[str, Any]:
    """One window on ``servers``, each driven on its games of ``per_server`` (one client each)
    at once, then killed; with the store's conflicts over the window. With ``shared``, that
    game's state before (through the first server) and after (through the last) too.

    The servers have only started (no rollback, no insert) before the counters are first
    read, and they are gone, every counter of theirs published, when they are read again."""
    before = counters.read()
    clients: list[Tally] = []
    out: dict[str, Any] = {}
    try:
        for server, games in zip(servers, per_server, strict=True):
            clients += [Tally(server.port, *game) for game in games]
        if shared is not None:
            out["game_before"] = get_game(servers[0].port, shared)
        out.update(drive(servers, clients, duration, warm_up))
        if shared is not None:
            out["game_after"] = get_game(servers[-1].port, shared)
    finally:
        for client in clients:
            client.close()
        for server in servers:
            kill(server)
    counters.wait_gone([server.app_name for server in servers])
    after = counters.read()
    writes = sum(client.acknowledged for client in clients)
    rollbacks = after["rollbacks"] - before["rollbacks"]
    out["writes"] = writes
    out["rollbacks"] = rollbacks
    out["conflicts_per_write"] = rollbacks / max(writes, 1)
    out["aborted_inserts"] = (after["inserted"] - before["inserted"]) - (
        after["kept"] - before["kept"]
    )
    out["moved"] = [sum(c.moved[0] for c in clients), sum(c.moved[1] for c in clients)]
    return out


def start_servers(db: str, workers: int, names: list[str]) -> list[NamedServer]:
    """The servers of every window, started at once (a start takes 2 s of CPU), so that none
    starts during a window."""
    with ThreadPoolExecutor(len(names)) as pool:
        futures = [pool.submit(NamedServer, db, workers, name) for name in names]
        wait(futures)
    servers = [f.result() for f in futures if f.exception() is None]
    failed = [f.exception() for f in futures if f.exception() is not None]
    if failed:
        for server in servers:
            kill(server)
        raise RuntimeError(f"a server of (f) did not start: {failed[0]}")
    return servers


def scaleout_part(
    db: str,
    games: list[list[str]],
    shared: list[str],
    *,
    duration: float,
    workers: int,
    warm_up: int = WARM_UP,
) -> dict[str, Any]:
    """The three windows of (f) on the PostgreSQL database ``db``; ``games``: 16 tables (an
    even number), ``shared``: the one game both servers write."""
    half = len(games) // 2
    counters = Counters(db)
    names = [f"{counters.app_name}-{n}" for n in ("one", "two-a", "two-b", "shared-a", "shared-b")]
    servers = start_servers(db, workers, names)
    try:
        # The same load per server in both windows (half the tables each): what the second
        # server changes is only that it shares the database.
        one = window(counters, servers[:1], [games[:half]], duration=duration, warm_up=warm_up)
        two = window(
            counters,
            servers[1:3],
            [games[:half], games[half:]],
            duration=duration,
            warm_up=warm_up,
        )
        both = window(
            counters,
            servers[3:],
            [[shared] * SHARED_CLIENTS] * 2,
            duration=min(SHARED_SECONDS, duration),
            warm_up=1,
            shared=shared,
        )
    finally:
        for server in servers:
            if server.process.poll() is None:
                kill(server)
        counters.close()
    out: dict[str, Any] = {}
    for name, run in (("one", one), ("two", two), ("shared", both)):
        for key in ("tps", "cpu_tps", "requests", "server_cpu_s", "errors", "writes"):
            out[f"{PREFIX}{name}_{key}"] = run[key]
        for key in ("rollbacks", "conflicts_per_write", "aborted_inserts"):
            out[f"{PREFIX}{name}_{key}"] = run[key]
    out[f"{PREFIX}efficiency"] = two["cpu_tps"] / one["cpu_tps"] if one["cpu_tps"] else 0.0
    # The shared game: what the acknowledged payments make of it, against what it is.
    start, end = both["game_before"], both["game_after"]
    to_p2, to_p1 = both["moved"]  # payment(i): p1 pays p2 1 on even i, p2 pays p1 on odd
    expected = dict(start["balances"])
    expected["p1"] += to_p1 - to_p2
    expected["p2"] += to_p2 - to_p1
    out[f"{PREFIX}shared_seq_before"] = start["last_seq"]
    out[f"{PREFIX}shared_seq_after"] = end["last_seq"]
    out[f"{PREFIX}shared_lost_updates"] = start["last_seq"] + both["writes"] - end["last_seq"]
    out[f"{PREFIX}shared_balances_off"] = sum(
        abs(end["balances"].get(k, 0) - v) for k, v in expected.items()
    ) + abs(sum(end["balances"].values()) - sum(start["balances"].values()))
    return out
