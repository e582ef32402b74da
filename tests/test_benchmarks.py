"""The benchmark suite (``make bench``) runs whole on this run's store and reports every row.

A smoke run (``--quick``, a tiny long game): its figures mean nothing on a shared machine, so
none is checked against a target; what is checked is that every row of the table has a
figure for the store (but for (f), scale-out, PostgreSQL's alone: n/a on SQLite), that the
results file holds them with the machine it ran on, and that no HTTP request of the load
failed, nor any of (f)'s, whose one shared game lost no update, nor any of (a)'s with metrics on
and off (``--metrics``), whose server with metrics answered its scrapes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from stores import DEFAULT_POSTGRES, Store

from benchmarks.report import ROWS

SCALEOUT = "scaleout_"  # (f)'s keys: PostgreSQL only (benchmarks.scaleout.PREFIX)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.e2e
def test_quick_run_reports_every_row(store: Store, tmp_path: Path) -> None:
    kind = "postgres" if store.name == "postgres" else "sqlite"  # memory: a SQLite file
    results = tmp_path / "results.json"
    env = dict(os.environ)
    if kind == "postgres":
        env["TABLEBANK_BENCH_POSTGRES"] = (
            os.environ.get("TABLEBANK_TEST_POSTGRES") or DEFAULT_POSTGRES
        )
    command = [sys.executable, "-m", "benchmarks", "--quick", "--stores", kind]
    command += ["--transactions", "40", "--samples", "5", "--duration", "0.2"]
    command += ["--workers", "1", "--sqlite-dir", str(tmp_path), "--metrics"]
    command += ["--json", str(results)]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr

    doc = json.loads(results.read_text(encoding="utf-8"))
    figures = doc["stores"][kind]
    derived = (  # from other keys
        "http_errors",
        "scaleout_errors",
        "replay_errors",
        "kept_replay_errors",
        "metrics_errors",
    )
    measured = [row for row in ROWS if kind == "postgres" or not row.key.startswith(SCALEOUT)]
    missing = [row.key for row in measured if row.key not in derived and row.key not in figures]
    assert missing == []
    assert figures["transactions"] == 40
    # (h)'s log, as small as --quick makes it and said so under the table.
    assert doc["config"]["import_transactions"] == 300
    assert "(h)'s log 300 transactions, 0." in done.stdout
    assert figures["http1_errors"] == figures["http16_errors"] == 0
    assert figures["http_latency_errors"] == 0
    assert figures["http1_requests"] > 0 and figures["http16_requests"] > 0
    # --metrics: (a) on a server counting and scraped, and on one not, both answered.
    assert figures["metrics_on_requests"] > 0 and figures["metrics_off_requests"] > 0
    assert figures["metrics_on_errors"] == figures["metrics_off_errors"] == 0
    assert figures["metrics_scrapes"] > 0 and figures["metrics_scrapes_failed"] == 0
    for key in ("cores", "cpu", "python", "sqlite", "eventsourcing"):
        assert doc["machine"][key], key
    if kind == "postgres":
        assert doc["machine"]["postgresql"]
        for window in ("one", "two", "shared"):
            assert figures[f"scaleout_{window}_errors"] == 0, window
            assert figures[f"scaleout_{window}_requests"] > 0, window
            assert figures[f"scaleout_{window}_rollbacks"] >= 0, window
        assert figures["scaleout_two_cpu_tps"] > 0 and figures["scaleout_efficiency"] > 0
        assert figures["scaleout_shared_lost_updates"] == 0
        assert figures["scaleout_shared_balances_off"] == 0
        seq = figures["scaleout_shared_seq_before"] + figures["scaleout_shared_writes"]
        assert figures["scaleout_shared_seq_after"] == seq
    else:
        assert not any(key.startswith(SCALEOUT) for key in figures)
    # The printed table has a line for every row, with a figure in the store's column.
    lines = {line.split(" | ")[0].lstrip("| "): line for line in done.stdout.splitlines()}
    for row in ROWS:
        assert row.label in lines, row.label
        cell = lines[row.label].split(" | ")[1]
        assert ("n/a" in cell) == (row not in measured), row.label


@pytest.mark.e2e
def test_quick_pocket_run_reports_every_row(tmp_path: Path) -> None:
    """``make bench-pocket``'s smoke run at x1 (issue 30): every row has a figure, the server's
    count saw the worker's and the service worker's fetches, and the bank's heap was read."""
    from e2e.browser import CHROMIUM, unavailable
    from e2e.pocket import built

    bundle = built()  # skipped without Node.js and npm, failed where TABLEBANK_REQUIRE_ALL=1
    if not Path(CHROMIUM).is_file():
        unavailable(f"no chromium at {CHROMIUM}")
    results = tmp_path / "pocket.json"
    command = [sys.executable, "-m", "benchmarks.pocket", "--quick", "--rates", "1"]
    command += ["--json", str(results)]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr

    from benchmarks.pocket import ROWS

    doc = json.loads(results.read_text(encoding="utf-8"))
    figures = doc["rates"]["1"]
    assert [row.key for row in ROWS if row.key not in figures] == []
    assert doc["config"]["transactions"] == 40
    # Times from the navigation's start: the answer comes after the bank is ready.
    for start in ("cold", "cached", "cached_later"):
        assert figures[f"{start}_answer_ms"]["min"] >= figures[f"{start}_ready_ms"]["min"] > 0
    # Every file of the bundle went over the network at the first visit (the service worker
    # keeps each one; the build's .gz and .br copies are not asked for by name), the interpreter and
    # the packages among them: fetched by the worker.
    files = [
        f
        for f in bundle.rglob("*")
        if f.is_file() and f.name != "BUILD" and f.suffix not in (".gz", ".br")
    ]
    assert figures["first_visit_bytes"]["min"] >= sum(f.stat().st_size for f in files)
    sent = figures["first_visit_requests"]
    for path in ("/pyodide/pyodide.asm.wasm", "/python/site.zip", "/sw.js"):
        assert sent[path] >= (bundle / path.lstrip("/")).stat().st_size, path
    assert figures["wasm_heap_mib"] > 1 and figures["page_js_heap_mib"] > 0
    assert figures["replay_bytes"] > 0 and figures["export_bytes"] > 0
    steps = list(figures["profile"]["steps_ms"].values())
    assert steps == sorted(steps) and figures["profile"]["modules_imported"] > 0
    assert "api" in figures["profile"]["import_self_ms_by_package"]
    # The printed table has a line for every row, with a figure in the x1 column.
    lines = {line.split(" | ")[0].lstrip("| "): line for line in done.stdout.splitlines()}
    for row in ROWS:
        assert row.label in lines, row.label
        assert "n/a" not in lines[row.label].split(" | ")[1], row.label
