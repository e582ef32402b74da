"""What a server counts for Prometheus, and the text ``GET /metrics`` answers (its view is in
``api.health``; API.md v1.3, "Operating a server"; docs/deploy.md, "Metrics" says what each
means and what to alert on).

- Only a server with an admin token counts anything (``Metrics``): ``/metrics`` answers that
  token alone (401 otherwise), and is a 404 where there is none. Without one the app holds
  ``NO_METRICS``, which counts nothing and never imports ``prometheus_client`` (a dependency
  of serving only: the pocket bank in a browser has none).
- ``tablebank serve`` runs several worker processes; each writes its counts to files of a
  private directory (``METRICS_DIR``: prometheus_client's multiprocess mode), and whichever
  worker answers ``/metrics`` sums every worker's files. The gauges (streams open, reads
  waiting) are the sum over the workers alive (``livesum``; gunicorn's ``child_exit`` drops a
  dead worker's, ``api.cli.serving``). An app made without that directory (tests) keeps its
  counts in a registry of its own.
- ``route`` is the URL rule (``/api/v1/games/<uuid:game>``), never a path with its ids, and
  ``unmatched`` for a request no rule matched; ``method`` is one of HTTP's own or ``other``;
  ``code`` and ``type`` come from the server's registries: nobody can grow a label's values
  by sending requests.
- ``tablebank_games{status}`` is counted from the store when ``/metrics`` is asked, not by the
  workers.
"""

from __future__ import annotations

import collections
import os
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from eventsourcing.persistence import PersistenceError
from flask import Response, current_app, g, request

from api.auth import ADMIN_TOKEN
from api.bank import tablebank

METRICS = "tablebank.metrics"
# Config: the directory every worker process of `tablebank serve` keeps its counts in; None
# for counts of this process alone.
METRICS_DIR = "TABLEBANK_METRICS_DIR"
# What prometheus_client reads, when it is imported, to keep its counts in files.
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
UNMATCHED = "unmatched"  # the route of a request no URL rule matched
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# A group commit takes 64 writes at most (ledger.commit.MAX_BATCH).
COMMIT_SIZES = (1, 2, 4, 8, 16, 32, 64)


class NoMetrics:
    """Counts nothing: a server without an admin token."""

    enabled = False

    def request(self, method: str, route: str | None, status: int, seconds: float) -> None:
        """One answer made."""

    def transaction(self, kind: str) -> None:
        """One transaction recorded (not a dry run, nor a repeat of an Idempotency-Key)."""

    def refusal(self, code: str) -> None:
        """One problem answered."""

    def group_commit(self, size: int) -> None:
        """One group commit of ``size`` writes over."""

    def store_error(self) -> None:
        """One error of the store met while answering."""

    def stream(self, change: int) -> None:
        """An event stream opened (1) or closed (-1)."""

    def heavy_read_waiting(self, change: int) -> None:
        """A read of a whole log started (1) or stopped (-1) waiting for a slot."""


NO_METRICS = NoMetrics()


class Metrics(NoMetrics):
    """The counts of a server with an admin token, in ``directory`` (every worker's) or in a
    registry of this app's own."""

    enabled = True

    def __init__(self, directory: str | None = None) -> None:
        self.directory = directory
        if directory and MULTIPROCESS_ENV not in os.environ:
            os.environ[MULTIPROCESS_ENV] = directory  # read once, when the library is imported
        from prometheus_client import CollectorRegistry, values

        if directory and (
            values.ValueClass is values.MutexValue or os.environ[MULTIPROCESS_ENV] != directory
        ):
            raise RuntimeError(
                f"prometheus_client must be imported with ${MULTIPROCESS_ENV}={directory}"
            )
        self.registry = CollectorRegistry()
        kept = None if directory else self.registry  # in files: summed over them when read
        self._declare(kept)

    def _declare(self, kept: Any) -> None:
        """Every metric the contract names, kept in ``kept`` (a registry of this app's, or
        ``None``: in the directory's files)."""
        from prometheus_client import Counter, Gauge, Histogram

        self._requests = Counter(
            "tablebank_http_requests",
            "HTTP requests answered, by method, URL rule and status.",
            ("method", "route", "status"),
            registry=kept,
        )
        self._durations = Histogram(
            "tablebank_http_request_duration_seconds",
            "Time from a request's arrival in the app to its answer's headers, by URL rule.",
            ("method", "route"),
            registry=kept,
        )
        self._transactions = Counter(
            "tablebank_transactions",
            "Transactions recorded through the API, by type.",
            ("type",),
            registry=kept,
        )
        self._refusals = Counter(
            "tablebank_refusals",
            "Problems answered (application/problem+json), by code.",
            ("code",),
            registry=kept,
        )
        self._commits = Histogram(
            "tablebank_group_commit_size",
            "Writes saved together in one store transaction.",
            buckets=COMMIT_SIZES,
            registry=kept,
        )
        self._streams = Gauge(
            "tablebank_event_streams_open",
            "Event streams open now.",
            registry=kept,
            multiprocess_mode="livesum",
        )
        self._waiting = Gauge(
            "tablebank_heavy_reads_waiting",
            "Reads of whole logs waiting for a slot now.",
            registry=kept,
            multiprocess_mode="livesum",
        )
        self._store_errors = Counter(
            "tablebank_store_errors",
            "Errors of the store met while answering (unavailable, full, or a defect).",
            registry=kept,
        )

    def request(self, method: str, route: str | None, status: int, seconds: float) -> None:
        """One answer counted by method, URL rule and status, and its time observed."""
        method = method if method in METHODS else "other"
        route = route or UNMATCHED
        self._requests.labels(method, route, str(status)).inc()
        self._durations.labels(method, route).observe(seconds)

    def transaction(self, kind: str) -> None:
        """One recorded transaction counted by its type."""
        self._transactions.labels(kind).inc()

    def refusal(self, code: str) -> None:
        """One problem answered, counted by its code."""
        self._refusals.labels(code).inc()

    def group_commit(self, size: int) -> None:
        """One group commit's size observed."""
        self._commits.observe(size)

    def store_error(self) -> None:
        """One error of the store counted."""
        self._store_errors.inc()

    def stream(self, change: int) -> None:
        """The gauge of open event streams moved by ``change`` (1 or -1)."""
        self._streams.inc(change)

    def heavy_read_waiting(self, change: int) -> None:
        """The gauge of reads waiting for a slot moved by ``change`` (1 or -1)."""
        self._waiting.inc(change)

    def exposition(self, games: Callable[[], Mapping[str, int] | None]) -> bytes:
        """Every count in Prometheus's text format (0.0.4): every worker's summed, and the
        games by status as ``games()`` counts them now (None: not counted, the store failed)."""
        from prometheus_client import generate_latest
        from prometheus_client.core import GaugeMetricFamily
        from prometheus_client.multiprocess import MultiProcessCollector

        counted: Any = (
            MultiProcessCollector(None, self.directory) if self.directory else self.registry
        )

        class Scrape:
            def collect(self) -> Iterator[Any]:
                by_status = games()  # first: a store error it meets is in this scrape's counts
                yield from counted.collect()
                if by_status is not None:
                    family = GaugeMetricFamily(
                        "tablebank_games", "Games the store holds, by status.", labels=("status",)
                    )
                    for status, count in sorted(by_status.items()):
                        family.add_metric((status,), count)
                    yield family

        return generate_latest(Scrape())  # type: ignore[arg-type]


def for_app(config: Mapping[str, Any]) -> NoMetrics:
    """What the app counts: everything where it has an admin token, else nothing."""
    if not config.get(ADMIN_TOKEN):
        return NO_METRICS
    return Metrics(config.get(METRICS_DIR))


def metrics() -> NoMetrics:
    """The app's metrics."""
    found: NoMetrics = current_app.extensions.get(METRICS, NO_METRICS)
    return found


def count_request(response: Response) -> Response:
    """After each request: its answer counted, by method, URL rule and status, and its time."""
    counts = metrics()
    if counts.enabled:
        started = g.get("started")
        rule = request.url_rule.rule if request.url_rule is not None else None
        seconds = 0.0 if started is None else max(0.0, time.perf_counter() - started)
        counts.request(request.method, rule, response.status_code, seconds)
    return response


def games_by_status() -> dict[str, int] | None:
    """The store's games by status; None, and a store error counted, if the store failed."""
    try:
        games = tablebank().list_games()
    except PersistenceError:
        metrics().store_error()
        return None
    return dict(collections.Counter(game["status"] for game in games))
