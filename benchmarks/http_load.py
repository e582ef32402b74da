"""Load over real HTTP: ``tablebank serve`` in a process of its own, driven by client threads.

Each client thread holds one keep-alive connection and records payments on a table of its
own for a fixed time, timing each request from send to the last byte of the answer. The
clients run in this process, on the same machine as the server: they take CPU from it, as a
banker's phones would not.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.workload import payment, percentile

ROOT = Path(__file__).resolve().parent.parent
# Requests each client sends before its timed window (by default): the first load of a game
# from the store, the server's first requests and the connection's set-up are not steady state.
WARM_UP = 5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A running ``tablebank serve`` on a loopback port; ``env``: more environment variables
    for it (``PGAPPNAME`` names its PostgreSQL connections, for ``benchmarks.scaleout``)."""

    def __init__(
        self, db: str, workers: int, env: dict[str, str] | None = None, *extra: str
    ) -> None:
        self.port = free_port()
        # A URL's password stays off the command line.
        env = {**os.environ, **(env or {}), "TABLEBANK_DB": db}
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "api.cli", "serve", "--port", str(self.port)),
                *("--workers", str(workers)),
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,  # the access log: written, as in production, not read
            stderr=subprocess.DEVNULL,
        )
        self.wait_ready(workers)

    def wait_ready(self, workers: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"tablebank serve exited with {self.process.returncode}")
            with contextlib.suppress(OSError):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200 and len(self.workers()) >= workers:
                    conn.close()
                    return
                conn.close()
            time.sleep(0.05)
        raise RuntimeError("tablebank serve did not answer in 60 s")

    def workers(self) -> list[int]:
        """The gunicorn worker processes (children of the server process)."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def peak_rss_mib(self) -> dict[str, float]:
        """Peak resident memory (VmHWM, what ``ru_maxrss`` reports) of the server's processes:
        the largest worker and all of them with the master."""
        peaks = [proc_mib(pid) for pid in self.workers()]
        master = proc_mib(self.process.pid)
        return {"worker_mib": max(peaks, default=0.0), "total_mib": master + sum(peaks)}

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server's processes have used so far."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in [self.process.pid, *self.workers()]:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        return total

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def proc_mib(pid: int, field: str = "VmHWM") -> float:
    """A process's peak resident memory in MiB (``VmRSS``: its resident memory now), from
    ``/proc``; 0 once it has ended."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return 0.0


@contextlib.contextmanager
def serving(
    db: str, workers: int, env: dict[str, str] | None = None, *extra: str
) -> Iterator[Server]:
    server = Server(db, workers, env, *extra)
    try:
        yield server
    finally:
        server.stop()


class Client:
    """One table's banker: a keep-alive connection that records payments."""

    def __init__(self, port: int, game_id: str, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.path = f"/api/v1/games/{game_id}/transactions"
        self.headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        self.sent = 0
        self.errors = 0

    def pay(self) -> float:
        """Record one payment; its latency in seconds."""
        body = json.dumps(payment(self.sent))
        self.sent += 1
        started = time.perf_counter()
        self.conn.request("POST", self.path, body=body, headers=self.headers)
        response = self.conn.getresponse()
        response.read()
        elapsed = time.perf_counter() - started
        if response.status != 201:
            self.errors += 1
        return elapsed

    def close(self) -> None:
        self.conn.close()


def run_window(
    clients: Sequence[Client], duration: float, warm_up: int, server_cpu: Callable[[], float]
) -> tuple[list[list[float]], float, float, float]:
    """Each client in a thread of its own: ``warm_up`` payments, then payments for ``duration``
    seconds, the windows of all starting together. Returns the latency of each client's timed
    payments, the window's length, and the CPU seconds over it of the servers
    (``server_cpu()``, a running total) and of this process (the clients)."""
    samples: list[list[float]] = [[] for _ in clients]
    ready = threading.Barrier(len(clients) + 1)
    window: dict[str, float] = {}

    def drive(n: int) -> None:
        client = clients[n]
        for _ in range(warm_up):
            client.pay()
        ready.wait()
        ready.wait()  # the window's start is set between the two
        while time.perf_counter() < window["end"]:
            samples[n].append(client.pay())

    threads = [threading.Thread(target=drive, args=(n,)) for n in range(len(clients))]
    for thread in threads:
        thread.start()
    ready.wait()
    servers_before, clients_before = server_cpu(), time.process_time()
    window["start"] = time.perf_counter()
    window["end"] = window["start"] + duration
    ready.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - window["start"]
    servers_used = server_cpu() - servers_before
    return samples, elapsed, servers_used, time.process_time() - clients_before


def load(
    server: Server, games: list[list[str]], duration: float, warm_up: int = WARM_UP
) -> dict[str, float]:
    """One client thread per game, all recording payments for ``duration`` seconds; with the
    CPU time per request of the server's processes and of the clients (this process)."""
    clients = [Client(server.port, gid, token) for gid, token in games]
    samples, elapsed, server_cpu, client_cpu = run_window(
        clients, duration, warm_up, server.cpu_seconds
    )
    for client in clients:
        client.close()
    latencies = [s for per_client in samples for s in per_client]
    return {
        "tps": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "requests": len(latencies),
        "errors": sum(client.errors for client in clients),
        "server_cpu_ms": server_cpu / max(len(latencies), 1) * 1000,
        "client_cpu_ms": client_cpu / max(len(latencies), 1) * 1000,
    }


def serial_latencies(
    port: int, short: list[str], long: list[str], samples: int, warm_up: int = WARM_UP
) -> dict[str, float]:
    """(c) over HTTP: one payment on the long game, one on the short one, in turns."""
    short_client, long_client = Client(port, *short), Client(port, *long)
    short_times: list[float] = []
    long_times: list[float] = []
    for _ in range(warm_up):
        short_client.pay()
        long_client.pay()
    for _ in range(samples):
        short_times.append(short_client.pay())
        long_times.append(long_client.pay())
    errors = short_client.errors + long_client.errors
    short_client.close()
    long_client.close()
    return {
        "http_latency_short_ms": statistics.median(short_times) * 1000,
        "http_latency_long_ms": statistics.median(long_times) * 1000,
        "http_latency_ratio": statistics.median(long_times) / statistics.median(short_times),
        "http_latency_errors": errors,
    }


REPLAYERS = 8  # (g): clients replaying the long game at once


def replays_beside_a_writer(
    port: int, writer_game: list[str], long_game: list[str], duration: float
) -> dict[str, float]:
    """(g): one client records payments on a game while ``REPLAYERS`` others replay the long
    game again and again (``GET .../replay``) for ``duration`` seconds: the writer's latencies,
    the replays answered, and those refused (503 ``busy``, retried after a pause)."""
    writer = Client(port, *writer_game)
    for _ in range(WARM_UP):
        writer.pay()
    stop = threading.Event()
    answered = [0] * REPLAYERS
    busy = [0] * REPLAYERS
    failed = [0] * REPLAYERS

    def replay(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Authorization": f"Bearer {long_game[1]}"}
        while not stop.is_set():
            try:
                conn.request("GET", f"/api/v1/games/{long_game[0]}/replay", headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                failed[n] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                continue
            if response.status == 200:
                answered[n] += 1
            elif response.status == 503:
                busy[n] += 1
                stop.wait(float(response.getheader("Retry-After", "1")))
            else:
                failed[n] += 1
        conn.close()

    threads = [threading.Thread(target=replay, args=(n,)) for n in range(REPLAYERS)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the replays under way
    latencies = []
    ends = time.perf_counter() + duration
    while time.perf_counter() < ends:
        latencies.append(writer.pay())
        time.sleep(0.01)  # a banker's pace, well above it: about 50 writes a second
    stop.set()
    for thread in threads:
        thread.join()
    writer.close()
    return {
        "replay_writer_p50_ms": percentile(latencies, 0.50) * 1000,
        "replay_writer_p99_ms": percentile(latencies, 0.99) * 1000,
        "replay_writer_max_ms": max(latencies) * 1000,
        "replay_writer_writes": len(latencies),
        "replay_writer_errors": writer.errors,
        "replays_answered": sum(answered),
        "replays_busy": sum(busy),
        "replays_failed": sum(failed),
    }


def import_beside_a_writer(
    server: Server, writer_game: list[str], document: Path
) -> dict[str, float]:
    """(h): one client records payments on a game, 10 ms apart, while another imports
    ``document`` (the largest log a server takes), on a server of one worker: the writer's
    latencies from the import's start to its answer, the import's time, and how much the
    worker's resident memory grew, against the document's size."""
    body = document.read_bytes()
    writer = Client(server.port, *writer_game)
    for _ in range(WARM_UP):
        writer.pay()
    (worker,) = server.workers()
    before = proc_mib(worker, "VmRSS")
    answer: dict[str, Any] = {}

    def post() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        started = time.perf_counter()
        answer.update(status=0, transactions=0)  # no answer at all, unless one comes
        try:
            conn.request("POST", "/api/v1/games/import", body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            created = json.loads(response.read())
            answer["status"] = response.status
            answer["transactions"] = created.get("last_seq", 0)
        except (OSError, http.client.HTTPException, ValueError):
            pass  # counted among the errors
        finally:
            answer["seconds"] = time.perf_counter() - started
            conn.close()

    importer = threading.Thread(target=post)
    importer.start()
    latencies = []
    while importer.is_alive():
        latencies.append(writer.pay())
        time.sleep(0.01)
    importer.join()
    writer.close()
    grown = proc_mib(worker) - before
    document_mib = len(body) / 2**20
    return {
        "import_writer_p50_ms": percentile(latencies, 0.50) * 1000,
        "import_writer_p99_ms": percentile(latencies, 0.99) * 1000,
        "import_writer_max_ms": max(latencies) * 1000,
        "import_writer_writes": len(latencies),
        "import_errors": writer.errors + (answer["status"] != 201),
        "import_large_seconds": answer["seconds"],
        "import_large_us_per_txn": answer["seconds"] / max(answer["transactions"], 1) * 1e6,
        "import_large_document_mib": document_mib,
        "import_large_rss_growth_mib": grown,
        "import_large_rss_over_document": grown / document_mib,
    }


def http_part(
    db: str,
    games: list[list[str]],
    long_game: list[str],
    largest_log: Path,
    *,
    duration: float,
    samples: int,
    workers: int,
    warm_up: int = WARM_UP,
) -> dict[str, Any]:
    """(a), (c), (g) and (h) over HTTP and the server's part of (e), on one store."""
    out: dict[str, Any] = {}
    with serving(db, workers) as server:
        out.update(serial_latencies(server.port, games[0], long_game, samples, warm_up))
        for tables in (1, len(games)):
            run = load(server, games[:tables], duration, warm_up)
            for key, value in run.items():
                out[f"http{tables}_{key}"] = value
        peak = server.peak_rss_mib()
    out["peak_rss_server_worker_mib"] = peak["worker_mib"]
    out["peak_rss_server_total_mib"] = peak["total_mib"]
    # (g) on a server of its own whose answers are not kept: every replay is computed.
    with serving(db, workers, None, "--read-cache-mib", "0") as server:
        out.update(replays_beside_a_writer(server.port, games[1], long_game, duration))
    # (g) again with the server's default cache: every replay but the first is sent from it.
    with serving(db, workers) as server:
        kept = replays_beside_a_writer(server.port, games[1], long_game, duration)
        out.update({f"kept_{key}": value for key, value in kept.items()})
    # (h) on a server of one worker: the import and the writer share its event loop.
    with serving(db, 1) as server:
        out.update(import_beside_a_writer(server, games[2], largest_log))
    return out


# (a) with metrics on and off: windows of each, in turns, this many times.
METRICS_ROUNDS = 3
# How often the server with metrics is scraped meanwhile: Prometheus's default is every 15 s.
SCRAPE_SECONDS = 1.0
ADMIN_TOKEN = "bench-admin-token-" + "0" * 24


def metrics_on_and_off(
    db: str, games: list[list[str]], *, duration: float, workers: int, warm_up: int = WARM_UP
) -> dict[str, float]:
    """(a) at ``len(games)`` tables on two servers side by side on one store: one without an
    admin token, which counts nothing, and one with, which counts every request (``/metrics``)
    and is scraped every ``SCRAPE_SECONDS`` meanwhile, as Prometheus would (more often). Their
    windows take turns, ``METRICS_ROUNDS`` each, so that the machine's drift falls on both
    alike; the server CPU per request of each, and their ratio (issue 31: at most 1.05)."""
    runs: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    scrapes = {"ok": 0, "failed": 0}
    with tempfile.TemporaryDirectory(prefix="tablebank-bench-metrics-") as folder:
        token_file = Path(folder) / "admin-token"
        token_file.write_text(ADMIN_TOKEN + "\n")
        token_file.chmod(0o600)
        with (
            serving(db, workers) as off,
            serving(db, workers, None, "--admin-token-file", str(token_file)) as on,
        ):
            for _ in range(METRICS_ROUNDS):
                runs["off"].append(load(off, games, duration, warm_up))
                with scraping(on.port, scrapes):
                    runs["on"].append(load(on, games, duration, warm_up))
    out: dict[str, float] = {}
    for side, windows in runs.items():
        requests = sum(window["requests"] for window in windows)
        cpu_ms = sum(window["server_cpu_ms"] * window["requests"] for window in windows)
        out[f"metrics_{side}_server_cpu_ms"] = cpu_ms / max(requests, 1)
        out[f"metrics_{side}_tps"] = statistics.mean(window["tps"] for window in windows)
        out[f"metrics_{side}_p99_ms"] = max(window["p99_ms"] for window in windows)
        out[f"metrics_{side}_requests"] = requests
        out[f"metrics_{side}_errors"] = sum(window["errors"] for window in windows)
    out["metrics_cpu_ratio"] = out["metrics_on_server_cpu_ms"] / out["metrics_off_server_cpu_ms"]
    out["metrics_scrapes"] = scrapes["ok"]
    out["metrics_scrapes_failed"] = scrapes["failed"]
    return out


@contextlib.contextmanager
def scraping(port: int, counts: dict[str, int]) -> Iterator[None]:
    """``GET /metrics`` with the admin token now and every ``SCRAPE_SECONDS`` until the block
    ends; ``counts`` the scrapes answered 200 and the others."""
    stop = threading.Event()

    def scrape() -> None:
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request("GET", "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
                response = conn.getresponse()
                response.read()
                counts["ok" if response.status == 200 else "failed"] += 1
            except (OSError, http.client.HTTPException):
                counts["failed"] += 1
            finally:
                conn.close()
            if stop.wait(SCRAPE_SECONDS):
                return

    thread = threading.Thread(target=scrape)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
