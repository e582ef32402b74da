"""The benchmark suite of issues 6 and 13 on SQLite and PostgreSQL: ``python -m benchmarks``.

For each store, in a fresh database (a SQLite file in a temporary folder, a new PostgreSQL
schema dropped at the end):

- (a) transactions/s, p50 and p99 latency of payments over real HTTP against ``tablebank
  serve``, with 1 and with 16 tables (one client thread per table), for a fixed time;
- (b) the ledger's in-process transactions/s against the raw eventsourcing append of a
  one-field aggregate on the same store settings, as a ratio; and HTTP at 16 tables over
  that raw rate;
- (c) the latency of a payment on a game with 10,000 prior transactions over one with 10,
  in process and over HTTP;
- (d) import, replay and verify rates of the 10,000-transaction game;
- (e) peak memory: ``ru_maxrss`` of the in-process run (a process of its own) and the peak
  RSS (VmHWM) of the server's processes;
- (f) on PostgreSQL only (n/a on SQLite), scale-out (``benchmarks.scaleout``): transactions
  per server CPU second of two servers on one database, 8 tables each, over those of one
  server on 16 tables, each window as long as (a)'s; the store conflicts retried per write
  (PostgreSQL's rolled-back transactions); and one game written through both servers at once
  for up to 2 s, checked for lost updates;
- (g) a writer's p50 and p99 on one game while 8 clients replay the 10,000-transaction game
  again and again, on a server that keeps no answer (``--read-cache-mib 0``), for as long as
  (a)'s windows; then the same on a server with its default cache, which sends every replay
  but the first from memory (issue 31: that was 2 GB a second, and a write's p50 115 ms).
- (h) a writer's p50 and p99 on one game, 10 ms apart, while the largest log a server takes
  (32 MiB, ``IMPORT_TRANSACTIONS``) is imported, on a server of one worker; the import's time
  a transaction, and how much the worker's memory grew over the document's size (issue 31).
- with ``--metrics``, (a) at 16 tables on two servers side by side, one with an admin token
  (counting for ``/metrics``, scraped every second) and one without, their windows in turns:
  the server CPU per request of each and their ratio (issue 31: at most 1.05).

It prints the results as a Markdown table (the one in ``docs/performance.md``) and writes
them, with a description of the machine, to ``benchmarks/results/latest.json``.
``--quick`` is a smoke run of a few seconds: its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from benchmarks import machine, report
from benchmarks.http_load import ROOT, WARM_UP, http_part, metrics_on_and_off
from benchmarks.workload import long_game_document

# The URL the tests use (tests/stores.py; what .ci/run creates).
DEFAULT_POSTGRES = "postgresql://tablebank_test:tablebank_test@127.0.0.1:5432/tablebank_test"
TABLES = 16
# (f)'s servers have one worker each: two servers are then two worker processes on the 2 cores
# of the machine this was built on, as one server of two workers is, and each server has a core
# to itself (with two workers each, four processes would share two cores, and what (f) measures
# would be the cores' sharing, not the database's).
SCALEOUT_WORKERS = 1
# (h): the largest log a server takes is 32 MiB (API.md, "Server limits"); this many of the long
# game's transactions are 31.7 MB of JSON.
IMPORT_TRANSACTIONS = 75_000
IMPORT_LIMIT = 32 * 1024 * 1024
# A smoke run's figures mean nothing: they never replace the results the doc shows.
QUICK_RESULTS = report.DEFAULT_RESULTS.with_name("quick.json")


class StoreUnavailable(Exception):
    """A store asked for cannot be reached."""


def postgres_base_url() -> str:
    return (
        os.environ.get("TABLEBANK_BENCH_POSTGRES")
        or os.environ.get("TABLEBANK_TEST_POSTGRES")
        or DEFAULT_POSTGRES
    )


@contextmanager
def fresh_database(store: str, sqlite_dir: str | None) -> Iterator[str]:
    """A new, empty database of ``store`` as a ``--db`` value; removed afterwards."""
    if store == "sqlite":
        with tempfile.TemporaryDirectory(prefix="tablebank-bench-", dir=sqlite_dir) as folder:
            yield str(Path(folder) / "bench.sqlite")
        return
    import psycopg
    from psycopg.sql import SQL, Identifier

    url = postgres_base_url()
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    try:
        admin = psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.Error as error:
        reason = " ".join(str(error).split())
        raise StoreUnavailable(f"PostgreSQL is not reachable: {reason}") from None
    with admin:
        admin.execute(SQL("CREATE SCHEMA {}").format(Identifier(schema)))
        try:
            parts = urlsplit(url)
            query = dict(parse_qsl(parts.query))
            query["schema"] = schema
            yield urlunsplit(parts._replace(query=urlencode(query)))
        finally:
            admin.execute(SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(Identifier(schema)))


def in_process_part(db: str, document: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The in-process parts, in a child process (``benchmarks.inprocess``)."""
    command = [sys.executable, "-m", "benchmarks.inprocess", "--document", str(document)]
    command += ["--duration", str(args.duration), "--samples", str(args.samples)]
    command += ["--tables", str(TABLES + 1)]  # the last: (f)'s shared game
    done = subprocess.run(
        command,
        cwd=ROOT,
        env={**os.environ, "TABLEBANK_DB": db},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the in-process run failed:\n{done.stderr}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run_store(
    store: str, document: Path, largest: Path, args: argparse.Namespace
) -> dict[str, Any]:
    with fresh_database(store, args.sqlite_dir) as db:
        started = time.perf_counter()
        results = in_process_part(db, document, args)
        print(f"{store}: in process {time.perf_counter() - started:.1f} s", flush=True)
        started = time.perf_counter()
        *games, shared = results.pop("http_games")
        long_game = [results.pop("long_game_id"), results.pop("long_game_token")]
        results.update(
            http_part(
                db,
                games,
                long_game,
                largest,
                duration=args.duration,
                samples=args.samples,
                workers=args.workers,
                warm_up=1 if args.quick else WARM_UP,
            )
        )
        print(f"{store}: over HTTP {time.perf_counter() - started:.1f} s", flush=True)
        if args.metrics:
            started = time.perf_counter()
            results.update(
                metrics_on_and_off(
                    db,
                    games,
                    duration=args.duration,
                    workers=args.workers,
                    warm_up=1 if args.quick else WARM_UP,
                )
            )
            print(f"{store}: metrics on and off {time.perf_counter() - started:.1f} s", flush=True)
        if store == "postgres":
            from benchmarks.scaleout import scaleout_part  # psycopg: the postgres extra

            started = time.perf_counter()
            results.update(
                scaleout_part(
                    db,
                    games,
                    shared,
                    duration=args.duration,
                    workers=SCALEOUT_WORKERS,
                    warm_up=1 if args.quick else WARM_UP,
                )
            )
            print(f"{store}: scale-out {time.perf_counter() - started:.1f} s", flush=True)
    results["http16_over_raw"] = results["http16_tps"] / results["raw_append_tps"]
    return results


def parser() -> argparse.ArgumentParser:
    ap = report.run_parser("python -m benchmarks", __doc__)
    ap.add_argument("--stores", default="sqlite,postgres", help="comma-separated (default: both)")
    ap.add_argument("--transactions", type=int, help="the long game (default 10000; quick 100)")
    ap.add_argument("--duration", type=float, help="seconds per rate (default 10; quick 0.3)")
    ap.add_argument("--samples", type=int, help="latency samples (default 300; quick 10)")
    ap.add_argument("--workers", type=int, default=2, help="server worker processes")
    ap.add_argument("--sqlite-dir", help="folder for the SQLite file (default: the temp dir)")
    ap.add_argument(
        "--metrics",
        action="store_true",
        help="also (a) at 16 tables with metrics on and off, side by side (issue 31)",
    )
    report.add_json_option(ap, report.DEFAULT_RESULTS, QUICK_RESULTS)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    quick = args.quick
    args.json = args.json or (QUICK_RESULTS if quick else report.DEFAULT_RESULTS)
    args.transactions = args.transactions or (100 if quick else 10_000)
    args.duration = args.duration or (0.3 if quick else 10.0)
    args.samples = args.samples or (10 if quick else 300)
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    unknown = set(stores) - set(report.STORE_NAMES)
    if unknown or not stores:
        print(f"unknown store {', '.join(sorted(unknown))}; try sqlite,postgres", file=sys.stderr)
        return 2
    sqlite_dir = args.sqlite_dir or tempfile.gettempdir()
    doc: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine.describe(
            0.2 if quick else 1.0, sqlite_dir, postgres_base_url() if "postgres" in stores else None
        ),
        "config": {
            "quick": quick,
            "transactions": args.transactions,
            "duration": args.duration,
            "samples": args.samples,
            "workers": args.workers,
            "server": "gevent",
            "tables": TABLES,
            "metrics": args.metrics,
        },
        "stores": {},
    }
    with tempfile.TemporaryDirectory(prefix="tablebank-bench-doc-") as folder:
        document = Path(folder) / "long-game.json"
        started = time.perf_counter()
        document.write_text(json.dumps(long_game_document(args.transactions)), encoding="utf-8")
        print(f"long game of {args.transactions:,} built in {time.perf_counter() - started:.1f} s")
        largest = Path(folder) / "largest-log.json"
        started = time.perf_counter()
        imported = 300 if quick else IMPORT_TRANSACTIONS
        largest.write_text(json.dumps(long_game_document(imported)), encoding="utf-8")
        size = largest.stat().st_size
        if size > IMPORT_LIMIT:
            raise RuntimeError(f"(h)'s log is {size:,} bytes, over the server's limit")
        doc["config"]["import_transactions"], doc["config"]["import_bytes"] = imported, size
        print(
            f"(h)'s log of {imported:,} transactions, {size / 1e6:.1f} MB, "
            f"built in {time.perf_counter() - started:.1f} s"
        )
        for store in stores:
            started = time.perf_counter()
            try:
                doc["stores"][store] = run_store(store, document, largest, args)
            except StoreUnavailable as reason:
                print(f"{store}: {reason}", file=sys.stderr)
                return 1
            print(f"{store} done in {time.perf_counter() - started:.1f} s", flush=True)
    report.save(doc, args.json)
    print()
    print(report.markdown(doc))
    print()
    print(report.summary(doc))
    print(f"\nwritten to {args.json}")
    return 0
