"""Median time of one recorded payment on a game with few and with many prior transactions.

In process (TableBank on a SQLite file) and, with --http, over real HTTP against
`tablebank serve`. Usage: python benchmarks/write_latency.py [--http] [--samples N]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from ledger.application import TableBank
from ledger.store import persistence_env

PRIORS = (10, 5000)
PAYMENT = {"type": "payment", "from": "p1", "to": "p2", "amount": 1}
BACK = {"type": "payment", "from": "p2", "to": "p1", "amount": 1}


def fill(bank: TableBank, gid: str, prior: int) -> None:
    """Record payments until the game has ``prior`` transactions."""
    seq = bank.game(gid)["last_seq"]
    while seq < prior:
        seq = bank.record(gid, PAYMENT if seq % 2 else BACK)["seq"]


def in_process(db: Path, samples: int) -> dict[int, float]:
    bank = TableBank(env=persistence_env(str(db)))
    out = {}
    for prior in PRIORS:
        gid = bank.create_game(f"bench-{prior}", "classic", ["A", "B"], {})["id"]
        fill(bank, gid, prior)
        times = []
        for i in range(samples):
            t0 = time.perf_counter()
            bank.record(gid, PAYMENT if i % 2 else BACK)
            times.append(time.perf_counter() - t0)
        out[prior] = statistics.median(times) * 1000
    return out


def over_http(db: Path, samples: int) -> dict[int, float]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bank = TableBank(env=persistence_env(str(db)))
    games = {}
    for prior in PRIORS:
        created = bank.create_game(f"http-{prior}", "classic", ["A", "B"], {})
        fill(bank, created["id"], prior)
        games[prior] = created
    del bank
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    out = {}
    try:
        for prior, created in games.items():
            url = f"{base}/api/v1/games/{created['id']}/transactions"
            times = []
            for i in range(samples):
                req = urllib.request.Request(
                    url,
                    data=json.dumps(PAYMENT if i % 2 else BACK).encode(),
                    method="POST",
                    headers={
                        "Content-Type": "application/json",
                        "Authorization": f"Bearer {created['banker_token']}",
                    },
                )
                t0 = time.perf_counter()
                with urllib.request.urlopen(req, timeout=10) as resp:
                    resp.read()
                times.append(time.perf_counter() - t0)
            out[prior] = statistics.median(times) * 1000
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--http", action="store_true")
    ap.add_argument("--samples", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for prior, ms in in_process(Path(tmp) / "a.sqlite", args.samples).items():
            print(f"in-process  prior={prior:5d}  median {ms:.2f} ms")
        if args.http:
            for prior, ms in over_http(Path(tmp) / "b.sqlite", args.samples).items():
                print(f"over HTTP   prior={prior:5d}  median {ms:.2f} ms")


if __name__ == "__main__":
    main()
