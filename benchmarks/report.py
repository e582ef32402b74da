"""The results as a table: every row, each store's figure, the target and whether it is met.

``python -m benchmarks.report [RESULTS.json]`` prints the Markdown table of a results file
(default ``benchmarks/results/latest.json``); with ``--write docs/performance.md`` it puts it
into that page, between the ``results:start`` and ``results:end`` markers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from benchmarks import machine

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RESULTS = Path(__file__).resolve().parent / "results" / "latest.json"


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    fmt: str  # a format spec for the figure
    at_least: float | None = None
    at_most: float | None = None
    below: float | None = None  # strictly less than
    # The stores the target applies to (None: every store); the others show the figure alone.
    stores: frozenset[str] | None = None

    def target(self) -> str:
        where = ""
        if self.stores is not None:
            where = " (" + ", ".join(STORE_NAMES.get(s, s) for s in sorted(self.stores)) + ")"
        if self.at_least is not None:
            return f"≥ {self.at_least:{self.fmt}}{where}"
        if self.at_most is not None:
            return f"≤ {self.at_most:{self.fmt}}{where}"
        if self.below is not None:
            return f"< {self.below:{self.fmt}}{where}"
        return ""

    def met(self, value: float | None, store: str | None = None) -> str:
        bounds = (self.at_least, self.at_most, self.below)
        if value is None or all(bound is None for bound in bounds):
            return ""
        if self.stores is not None and store not in self.stores:
            return ""
        ok = (
            (self.at_least is None or value >= self.at_least)
            and (self.at_most is None or value <= self.at_most)
            and (self.below is None or value < self.below)
        )
        return "met" if ok else "NOT met"


SQLITE, POSTGRES = frozenset({"sqlite"}), frozenset({"postgres"})
ROWS = (
    Row("http1_tps", "(a) HTTP, 1 table: transactions/s", ",.0f"),
    Row("http1_p50_ms", "(a) HTTP, 1 table: p50 ms", ".2f"),
    Row("http1_p99_ms", "(a) HTTP, 1 table: p99 ms", ".2f", at_most=10),
    Row("http16_tps", "(a) HTTP, 16 tables: transactions/s", ",.0f"),
    Row("http16_p50_ms", "(a) HTTP, 16 tables: p50 ms", ".2f"),
    Row("http16_p99_ms", "(a) HTTP, 16 tables: p99 ms", ".2f", at_most=25, stores=SQLITE),
    Row(
        "http16_server_cpu_ms",
        "(a) HTTP, 16 tables: server CPU ms per request",
        ".2f",
        at_most=1.0,
    ),
    Row("http16_client_cpu_ms", "(a) HTTP, 16 tables: client CPU ms per request", ".2f"),
    # --metrics: (a) at 16 tables with metrics off and on, side by side (n/a without it).
    Row("metrics_off_server_cpu_ms", "(a) metrics off: server CPU ms per request", ".3f"),
    Row(
        "metrics_on_server_cpu_ms",
        "(a) metrics on, scraped every second: server CPU ms per request",
        ".3f",
    ),
    Row("metrics_cpu_ratio", "(a) metrics on ÷ off: server CPU per request", ".3f", at_most=1.05),
    Row(
        "metrics_errors",
        "(a) metrics on and off: answers other than 201, scrapes failed",
        ".0f",
        at_most=0,
    ),
    Row("http16_over_raw", "(a)/(b) HTTP 16 tables ÷ raw append rate", ".2f", at_least=0.5),
    Row("http_errors", "(a) HTTP answers other than 201", ".0f", at_most=0),
    Row("raw_append_tps", "(b) raw eventsourcing append: events/s", ",.0f"),
    Row("ledger_tps", "(b) ledger in process: transactions/s", ",.0f"),
    Row("ledger_over_raw", "(b) ledger ÷ raw append", ".2f"),
    Row("latency_short_ms", "(c) payment, 10 prior: median ms", ".2f"),
    Row("latency_long_ms", "(c) payment, long game: median ms", ".2f"),
    Row("latency_ratio", "(c) long ÷ 10 prior, in process", ".2f", at_most=1.3),
    Row("http_latency_ratio", "(c) long ÷ 10 prior, over HTTP", ".2f", at_most=1.3),
    Row("replay_tps", "(d) replay: transactions/s", ",.0f", at_least=40_000),
    Row("verify_tps", "(d) verify: transactions/s", ",.0f", at_least=50_000),
    Row("import_tps", "(d) import: transactions/s", ",.0f", at_least=15_000),
    Row("replay_cpu_tps", "(d) replay: transactions per CPU second", ",.0f"),
    Row("verify_cpu_tps", "(d) verify: transactions per CPU second", ",.0f"),
    Row("import_cpu_tps", "(d) import: transactions per CPU second", ",.0f"),
    Row("peak_rss_inprocess_mib", "(e) peak RSS, in-process run: MiB", ".0f"),
    Row("peak_rss_server_worker_mib", "(e) peak RSS, server worker: MiB", ".0f"),
    Row("peak_rss_server_total_mib", "(e) peak RSS, server, all processes: MiB", ".0f"),
    Row("replay_writer_p50_ms", "(g) a write beside 8 replays of the long game: p50 ms", ".1f"),
    Row(
        "replay_writer_p99_ms",
        "(g) a write beside 8 replays of the long game: p99 ms",
        ".1f",
        at_most=100,
    ),
    Row("replays_answered", "(g) replays answered meanwhile", ".0f"),
    Row("replay_errors", "(g) answers other than 201 and 200 (503 busy aside)", ".0f", at_most=0),
    Row(
        "kept_replay_writer_p50_ms",
        "(g) the same, the answers kept (the default cache): p50 ms",
        ".1f",
    ),
    Row(
        "kept_replay_writer_p99_ms",
        "(g) the same, the answers kept (the default cache): p99 ms",
        ".1f",
        at_most=100,
    ),
    Row("kept_replays_answered", "(g) replays answered meanwhile, the answers kept", ".0f"),
    Row(
        "kept_replay_errors",
        "(g) answers other than 201 and 200, the answers kept (503 busy aside)",
        ".0f",
        at_most=0,
    ),
    Row("import_writer_p50_ms", "(h) a write beside the largest import: p50 ms", ".1f"),
    Row(
        "import_writer_p99_ms",
        "(h) a write beside the largest import: p99 ms",
        ".1f",
        at_most=100,
    ),
    Row("import_writer_max_ms", "(h) a write beside the largest import: max ms", ".1f"),
    Row("import_large_seconds", "(h) the import: s", ".1f"),
    Row("import_large_us_per_txn", "(h) the import: µs a transaction", ".0f"),
    Row(
        "import_large_rss_over_document",
        "(h) the worker's memory grown ÷ the document",
        ".1f",
        at_most=2,
    ),
    Row("import_errors", "(h) answers other than 201", ".0f", at_most=0),
    # (f): PostgreSQL only (benchmarks.scaleout); n/a on SQLite.
    Row("scaleout_one_tps", "(f) one server (1 worker), 8 tables: transactions/s", ",.0f"),
    Row("scaleout_one_cpu_tps", "(f) one server: transactions per server CPU second", ",.0f"),
    Row(
        "scaleout_two_tps", "(f) two servers (1 worker each), 8 tables each: transactions/s", ",.0f"
    ),
    Row("scaleout_two_cpu_tps", "(f) two servers: transactions per server CPU second", ",.0f"),
    Row(
        "scaleout_efficiency",
        "(f) two servers ÷ one: transactions per server CPU second",
        ".2f",
        at_least=0.9,
        stores=POSTGRES,
    ),
    Row(
        "scaleout_two_conflicts_per_write",
        "(f) two servers: store conflicts retried per write",
        ".3f",
        below=0.1,
        stores=POSTGRES,
    ),
    Row(
        "scaleout_shared_conflicts_per_write",
        "(f) one game on both servers: store conflicts retried per write",
        ".3f",
    ),
    Row(
        "scaleout_shared_lost_updates",
        "(f) one game on both servers: lost updates",
        ".0f",
        at_most=0,
        stores=POSTGRES,
    ),
    Row(
        "scaleout_errors",
        "(f) answers other than 201",
        ".0f",
        at_most=0,
        stores=POSTGRES,
    ),
)
STORE_NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


def figure(row: Row, results: dict[str, Any]) -> float | None:
    value = results.get(row.key)
    if row.key == "http_errors" and "http1_errors" in results:
        value = results["http1_errors"] + results["http16_errors"]
        value += results.get("http_latency_errors", 0)
    if row.key == "metrics_errors" and "metrics_on_errors" in results:
        value = results["metrics_on_errors"] + results["metrics_off_errors"]
        value += results["metrics_scrapes_failed"]
    if row.key == "replay_errors" and "replays_failed" in results:
        value = results["replays_failed"] + results["replay_writer_errors"]
    if row.key == "kept_replay_errors" and "kept_replays_failed" in results:
        value = results["kept_replays_failed"] + results["kept_replay_writer_errors"]
    if row.key == "scaleout_errors" and "scaleout_one_errors" in results:
        value = sum(results[f"scaleout_{w}_errors"] for w in ("one", "two", "shared"))
    if row.key == "scaleout_shared_lost_updates" and value is not None:
        # A write lost or doubled either way, and a balance off from the acknowledged payments.
        value = abs(value) + results.get("scaleout_shared_balances_off", 0)
    return None if value is None else float(value)


def markdown(doc: dict[str, Any]) -> str:
    """The results table in Markdown: one column per store, then the target and verdicts."""

    def judged(row: Row, store: str) -> tuple[str, str]:
        """The row's cell under ``store`` and its verdict there."""
        value = figure(row, doc["stores"][store])
        return "n/a" if value is None else f"{value:{row.fmt}}", row.met(value, store)

    return table([(STORE_NAMES.get(s, s), s) for s in doc["stores"]], ROWS, judged)


class TableRow(Protocol):
    """A row of a benchmark's table: what ``table`` needs of it."""

    @property
    def label(self) -> str: ...

    def target(self) -> str: ...


TableRowT = TypeVar("TableRowT", bound=TableRow)
Column = TypeVar("Column")


def table(
    columns: list[tuple[str, Column]],
    rows: Iterable[TableRowT],
    judged: Callable[[TableRowT, Column], tuple[str, str]],
) -> str:
    """A benchmark's results in Markdown: a line per row, its label, its cell in each of the
    ``columns`` (heading, column), its target, then its verdicts, each named by its column's
    heading. ``judged(row, column)`` is a row's cell in a column and its verdict there ("":
    none)."""
    head = ["", *(heading for heading, _ in columns), "target", "met"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells, verdicts = [row.label], []
        for heading, column in columns:
            cell, verdict = judged(row, column)
            cells.append(cell)
            if verdict:
                verdicts.append(f"{heading}: {verdict}")
        cells += [row.target(), ", ".join(verdicts)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def imported(config: dict[str, Any]) -> str:
    """(h)'s log as the run made it (a results file from before it was recorded: nothing)."""
    if "import_transactions" not in config:
        return ""
    size = config["import_bytes"] / 1e6
    return f"(h)'s log {config['import_transactions']:,} transactions, {size:.1f} MB; "


def summary(doc: dict[str, Any]) -> str:
    """One line on the run: the size of the long game, durations, the server and the load."""
    c, m = doc["config"], doc["machine"]
    return (
        f"Long game: {c['transactions']:,} transactions; HTTP windows {c['duration']} s; "
        f"{c['samples']} latency samples; server `--workers {c['workers']}`"
        f"{' (gthread, --threads ' + str(c['threads']) + ')' if 'threads' in c else ''}; "
        f"{m['cores']} cores ({m['cpu']}), Python {m['python']}, "
        f"SQLite {m['sqlite']} on {m['sqlite_dir_filesystem']} "
        f"({m['fsyncs_per_s']} fdatasync/s), PostgreSQL "
        f"{m['postgresql'] or 'n/a'}; {imported(c)}"
        f"load average {m['load_average_at_start']} at the start, "
        f"{doc.get('load_average_at_end')} at the end{' (--quick)' if c['quick'] else ''}."
    )


START, END = "<!-- results:start -->", "<!-- results:end -->"


def write_into(page: Path, doc: dict[str, Any]) -> None:
    """Replace what stands between the results markers of ``page`` with this run's table."""
    put_between(page, START, END, f"{markdown(doc)}\n\n{summary(doc)}")


def run_parser(prog: str, description: str | None) -> argparse.ArgumentParser:
    """The command line of a benchmark's run: its module's docstring as its description, and
    ``--quick``; the run adds its own options, then ``add_json_option``."""
    ap = argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="a smoke run: small and short")
    return ap


def add_json_option(ap: argparse.ArgumentParser, results: Path, quick_results: Path) -> None:
    """A run's ``--json`` option: where it writes its results, by default ``results``, and
    ``quick_results`` with ``--quick``."""
    ap.add_argument(
        "--json",
        type=Path,
        help=f"where to write the results (default {results.relative_to(ROOT)}; "
        f"with --quick, {quick_results.relative_to(ROOT)}, never committed)",
    )


def save(doc: dict[str, Any], path: Path) -> None:
    """Write a run's results to ``path`` as JSON, with the load average at its end."""
    doc["load_average_at_end"] = machine.load_average()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def put_between(page: Path, start: str, end: str, text: str) -> None:
    """Replace what stands between the markers ``start`` and ``end`` of ``page`` with ``text``
    (docs/performance.md holds a table of each benchmark between markers of its own)."""
    whole = page.read_text(encoding="utf-8")
    head, found, rest = whole.partition(start)
    _, found_end, tail = rest.partition(end)
    if not (found and found_end):
        raise SystemExit(f"{page} has no {start} ... {end} markers")
    page.write_text(f"{head}{start}\n{text}\n{end}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__)
    ap.add_argument("results", nargs="?", type=Path, default=DEFAULT_RESULTS)
    ap.add_argument("--write", type=Path, metavar="PAGE", help="put the table into PAGE")
    args = ap.parse_args(argv)
    doc = json.loads(args.results.read_text(encoding="utf-8"))
    if args.write:
        write_into(args.write, doc)
        return 0
    print(markdown(doc))
    print()
    print(summary(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
