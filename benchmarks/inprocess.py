"""The in-process parts of the suite on one store, run in a process of their own.

``TABLEBANK_DB=DB python -m benchmarks.inprocess --document FILE ...`` prints one JSON object:

- (b) the ledger's transactions/s (``TableBank.record`` of payments, one after another on
  one game) and the raw append rate of ``workload.Counter`` on the same store settings, each
  for the same duration, and their ratio;
- (c) the median and p99 latency of a payment on a game with ``prior`` transactions and on
  one with 10, taken in turns so that a busy moment of the machine falls on both;
- (d) the import, replay and verify rates of the long game (the document of ``FILE``);
- (e) this process's peak memory (``ru_maxrss``), which covers all of the above;
- the ids and banker tokens of the games the HTTP parts use, created here in the same store
  (``--tables`` of them: ``benchmarks.run`` asks for 17, the 16 tables of (a) and (f) and the
  game (f) shares between two servers).

A process of its own, so that its peak memory and caches are its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from typing import Any

from benchmarks.workload import Counter, RawAppend, new_game_with, payment, percentile
from ledger.application import TableBank
from ledger.store import persistence_env

SHORT_PRIOR = 10


def rate(duration: float, step: Any) -> float:
    """Calls of ``step(i)`` per second, one after another, for ``duration`` seconds."""
    count = 0
    started = time.perf_counter()
    deadline = started + duration
    while time.perf_counter() < deadline:
        step(count)
        count += 1
    return count / (time.perf_counter() - started)


def append_rates(env: dict[str, str], bank: TableBank, duration: float) -> dict[str, float]:
    """(b): the ledger against the raw eventsourcing append, in this one run."""
    game = new_game_with(bank, "rate", SHORT_PRIOR)["id"]
    with RawAppend(env=env) as raw:
        counter = Counter()
        raw.save(counter)

        def append(i: int) -> None:
            counter.set_value(i)
            raw.save(counter)

        raw_tps = rate(duration, append)
    ledger_tps = rate(duration, lambda i: bank.record(game, payment(i)))
    return {
        "raw_append_tps": raw_tps,
        "ledger_tps": ledger_tps,
        "ledger_over_raw": ledger_tps / raw_tps,
    }


def timed(call: Any) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def timed_both(call: Any) -> tuple[float, float]:
    """Wall-clock and CPU seconds of this process: on a busy machine the first counts the
    time spent waiting for a core; the second is what the code itself costs (a PostgreSQL
    server's share is not in it)."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def latencies(bank: TableBank, long_id: str, samples: int) -> dict[str, float]:
    """(c): one payment on the long game and one on a short game, in turns."""
    short_id = new_game_with(bank, "short", SHORT_PRIOR)["id"]
    bank.record(long_id, payment(1))  # the first load of each game is not a payment's cost
    bank.record(short_id, payment(1))
    short: list[float] = []
    long: list[float] = []
    for i in range(samples):
        short.append(timed(lambda i=i: bank.record(short_id, payment(i))))
        long.append(timed(lambda i=i: bank.record(long_id, payment(i))))
    return {
        "latency_short_ms": statistics.median(short) * 1000,
        "latency_long_ms": statistics.median(long) * 1000,
        "latency_short_p99_ms": percentile(short, 0.99) * 1000,
        "latency_long_p99_ms": percentile(long, 0.99) * 1000,
        "latency_ratio": statistics.median(long) / statistics.median(short),
    }


def audit_rates(bank: TableBank, document: dict[str, Any], repeats: int) -> dict[str, Any]:
    """(d): import the long game, then replay and verify it (the median of ``repeats``)."""
    count = len(document["transactions"])
    created: dict[str, Any] = {}
    imported, imported_cpu = timed_both(lambda: created.update(bank.import_game(document)))
    gid = created["id"]
    replays, replays_cpu, verifies, verifies_cpu = [], [], [], []
    for _ in range(repeats):
        wall, cpu = timed_both(lambda: bank.replay(gid))
        replays.append(wall)
        replays_cpu.append(cpu)
        wall, cpu = timed_both(lambda: bank.verify(gid))
        verifies.append(wall)
        verifies_cpu.append(cpu)
    steps = bank.replay(gid)["steps"]
    verified = bank.verify(gid)
    if len(steps) != count or not verified["ok"] or verified["transactions"] != count:
        raise SystemExit("the imported game does not replay or verify whole")
    return {
        "long_game_id": gid,
        "long_game_token": created["banker_token"],
        "transactions": count,
        "import_s": imported,
        "import_tps": count / imported,
        "replay_s": statistics.median(replays),
        "replay_tps": count / statistics.median(replays),
        "verify_s": statistics.median(verifies),
        "verify_tps": count / statistics.median(verifies),
        "import_cpu_tps": count / imported_cpu,
        "replay_cpu_tps": count / statistics.median(replays_cpu),
        "verify_cpu_tps": count / statistics.median(verifies_cpu),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    # From the environment by default: a PostgreSQL URL's password stays off the command line.
    ap.add_argument("--db", default=os.environ.get("TABLEBANK_DB"))
    ap.add_argument("--document", required=True, help="the long game's exported log")
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tables", type=int, default=16, help="games to create for the HTTP parts")
    args = ap.parse_args()
    if not args.db:
        ap.error("give --db or set TABLEBANK_DB")
    with open(args.document, encoding="utf-8") as file:
        document = json.load(file)
    env = persistence_env(args.db)
    out: dict[str, Any] = {}
    with TableBank(env=env) as bank:
        out.update(audit_rates(bank, document, args.repeats))
        out.update(latencies(bank, out["long_game_id"], args.samples))
        out.update(append_rates(env, bank, args.duration))
        http_games = [new_game_with(bank, f"http-{n}", SHORT_PRIOR) for n in range(args.tables)]
    out["http_games"] = [[g["id"], g["banker_token"]] for g in http_games]
    # Linux gives ru_maxrss in KiB.
    out["peak_rss_inprocess_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


if __name__ == "__main__":
    main()
