"""Replay rate, verify time and import rate for a 10,000-transaction game (in process, SQLite).

Usage: python benchmarks/audit_rates.py [--transactions N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from ledger.application import TableBank
from ledger.store import persistence_env


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--transactions", type=int, default=10_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bank = TableBank(env=persistence_env(str(Path(tmp) / "audit.sqlite")))
        gid = bank.create_game("bench", "classic", ["A", "B", "C"], {})["id"]
        bodies = [
            {"type": "payment", "from": "p1", "to": "p2", "amount": 1},
            {"type": "payment", "from": "p2", "to": "p1", "amount": 1},
            {"type": "salary", "player": "p3"},
        ]
        seq = 3
        while seq < args.transactions:
            seq = bank.record(gid, bodies[seq % 3])["seq"]
        t0 = time.perf_counter()
        steps = bank.replay(gid)["steps"]
        replay = time.perf_counter() - t0
        t0 = time.perf_counter()
        result = bank.verify(gid)
        verify = time.perf_counter() - t0
        doc = bank.export(gid)
        t0 = time.perf_counter()
        bank.import_game(doc)
        imported = time.perf_counter() - t0
        assert result["ok"] and len(steps) == seq
        print(f"transactions {seq}")
        print(f"replay  {replay:.2f} s  ({seq / replay:,.0f} transactions/s)")
        print(f"verify  {verify:.2f} s  ({seq / verify:,.0f} transactions/s)")
        print(f"import  {imported:.2f} s  ({seq / imported:,.0f} transactions/s)")


if __name__ == "__main__":
    main()
