"""Where the time goes: pyinstrument profiles of the suite's slow parts, top frames printed.

``python -m benchmarks.profile [--db DB] [--transactions N] [--part replay,verify,...]``
(pyinstrument comes with ``pip install -e '.[bench]'``, which ``make bench`` does). The long
game is imported into DB (default: a SQLite file in a temporary folder), then each part is
run once under the profiler: ``import``, ``replay``, ``verify``, ``export``, ``write`` (200
payments on the long game) and ``cold`` (the first load of the long game by a new bank).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyinstrument import Profiler

from benchmarks.workload import long_game_document, payment
from ledger.application import TableBank
from ledger.store import persistence_env

PARTS = ("import", "replay", "verify", "export", "write", "cold")


def profiled(name: str, call: Callable[[], Any], depth: int) -> Any:
    profiler = Profiler(interval=0.0005)
    started = time.perf_counter()
    profiler.start()
    result = call()
    profiler.stop()
    print(f"== {name}: {time.perf_counter() - started:.3f} s")
    text = profiler.output_text(unicode=False, color=False, show_all=False)
    body = [line for line in text.splitlines() if "|" in line or "`-" in line or "- " in line]
    print("\n".join(line for line in body if line.count("  ") <= depth * 2 + 2) or text)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--db", help="a --db value (default: a SQLite file in a temporary folder)")
    ap.add_argument("--transactions", type=int, default=10_000)
    ap.add_argument("--part", default=",".join(PARTS), help=f"some of {','.join(PARTS)}")
    ap.add_argument("--depth", type=int, default=8, help="levels of the call tree shown")
    args = ap.parse_args()
    parts = args.part.split(",")
    document = long_game_document(args.transactions)
    with tempfile.TemporaryDirectory(prefix="tablebank-profile-") as folder:
        db = args.db or str(Path(folder) / "profile.sqlite")
        env = persistence_env(db)
        with TableBank(env=env) as bank:
            if "import" in parts:
                gid = profiled("import", lambda: bank.import_game(document), args.depth)["id"]
            else:
                gid = bank.import_game(document)["id"]
            reads: dict[str, Callable[[], Any]] = {
                "replay": lambda: bank.replay(gid),
                "verify": lambda: bank.verify(gid),
                "export": lambda: bank.export(gid),
            }
            for part, call in reads.items():
                if part in parts:
                    profiled(part, call, args.depth)
            if "write" in parts:
                bank.record(gid, payment(0))

                def writes() -> None:
                    for i in range(1, 201):
                        bank.record(gid, payment(i))

                profiled("write (200 payments)", writes, args.depth)
        if "cold" in parts:
            with TableBank(env=env) as cold:
                profiled("cold load", lambda: cold.game(gid), args.depth)


if __name__ == "__main__":
    main()
