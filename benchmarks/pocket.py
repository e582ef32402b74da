"""The pocket bank's benchmark (issue 30, "Speed"): ``python -m benchmarks.pocket``.

The bundle ``make pocket`` builds (``dist/pocket/``), served by a plain static file server on
loopback (no API behind it, as a family's static host serves it), driven in chromium as the
browser tests start it (``tests/e2e/browser.py``), at each CPU rate: x1, then x4, which stands
in for a mid-range phone. x4 is the whole browser on a quarter of one core (``--slow cgroup``,
the default: a CPU cgroup's quota, ``CpuLimit``, which needs root), or chromium's
``Emulation.setCPUThrottlingRate`` (``--slow chromium``), which slows the page's main thread
only, not the Web Worker where the bank runs. At each rate:

- **Starts** (``--runs`` of each; the median, min and max). *Cold*: a new browser context
  (empty HTTP cache, no service worker, no IndexedDB) opens the bundle's address; *cached*:
  ``--visits`` more visits in the same context (the tab closed, a new one opened), once the
  first one's service worker has kept every file, each at the table of a game of 10
  transactions kept there: the second visit, and the third and later ones (which start
  faster than the second); *cached, long game*: later visits with the
  2,000-transaction game below kept too. Each is timed inside the page from the
  navigation's start (``performance.now()``): to the bank's first answer (``data-pocket`` is
  ``ready``, then one ``GET /api/v1/rulesets`` through the page's transport), and to the
  console being usable (the table showing ``cash-p1`` with the bank ready; a cold start has no
  game, so there it is the start screen's "New game").
- **Durable writes**: payments posted through the page's transport, each kept in IndexedDB
  before its answer, timed inside the page around the send (Playwright's round trip is not
  counted); ``--samples`` on a game with 10 prior transactions and on one with 2,000, taken in
  turns; p50, p99, and the 2,000 game's p50 over the 10 game's.
- **Replay and export** of the 2,000-transaction game (``--runs`` of each, inside the page).
- **Bytes**: what the static server sent (headers and bodies, every request of the page, its
  Web Worker and its service worker) at the first visit and at a later one; what the page's
  own CDP ``Network.loadingFinished`` counted (``encodedDataLength``: the page's requests
  only, not its workers'); what the first visit would weigh from a server that sends the
  build's gzip or brotli copies (api/pocket_files.py); the bundle's size with gzip and brotli.
- **Memory**, in MB as the target is: the resident memory (``VmRSS`` in ``/proc``) of
  chromium's renderer processes, less that of a blank page's (the page's extra memory: the
  page, its Web Worker and its service worker run there). At the first visit, once its
  service worker has kept every file; then, that service worker stopped (idle for
  ``SERVICE_WORKER_IDLE_S``), a start from the cache with the bank ready, after the long game's
  writes and after its replays and exports (the page's garbage collected first). All of
  chromium's processes likewise; the page's JS heap (CDP ``Performance.getMetrics``) and the
  worker's WebAssembly heap (Pyodide's ``HEAP8``).
- **The CPU rate**: a fixed JS loop timed in the page and in its Web Worker. Chromium's
  throttling slows the thread that asked for it, the page's main thread, and not the Web
  Worker where the bank runs.
- **Where the start goes** (unless ``--no-profile``), once the rest is measured: a fresh
  Worker of the page loads Pyodide again, step by step, with ``PYTHONPROFILEIMPORTTIME``: the
  interpreter, the packages' zip, ``import api.pocket`` (the modules that cost the most),
  ``PocketBank()``; then the same on the page's main thread, which the CPU rate does slow.

It prints the table of ``docs/performance.md`` ("The pocket bank") and writes every figure to
``benchmarks/results/pocket.json``. ``--quick`` is a smoke run: few runs, a 40-transaction
"long" game; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import importlib.util
import json
import os
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks import machine
from benchmarks.report import add_json_option, put_between, run_parser, save, table
from benchmarks.workload import percentile

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "dist" / "pocket"
RESULTS = Path(__file__).resolve().parent / "results" / "pocket.json"
QUICK_RESULTS = RESULTS.with_name("pocket-quick.json")  # never committed
START_MS = 180_000  # the longest a start may take before the run gives up
# How long chromium keeps an idle service worker running (its idle timeout, 30 s), and a margin.
SERVICE_WORKER_IDLE_S = 35

# How the browser tests start chromium (Debian's headless shell, off the network): one way.
_spec = importlib.util.spec_from_file_location("e2e_browser", ROOT / "tests" / "e2e" / "browser.py")
assert _spec is not None and _spec.loader is not None
_browser = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_browser)
CHROMIUM: str = _browser.CHROMIUM
CHROMIUM_ARGS: list[str] = _browser.CHROMIUM_ARGS

PAY = ({"type": "payment", "from": "p1", "to": "p2", "amount": 1},
       {"type": "payment", "from": "p2", "to": "p1", "amount": 1})  # fmt: skip
TIMES = "\u00d7"  # the CPU rate's sign in the table: x4 is shown with a multiplication sign
START_SCREEN = 'a[href="#/new"]'
TABLE = '[data-testid="cash-p1"]'

# Timed in the page from the navigation's start: the bank ready, its first answer, and the
# console usable (``selector`` shown with a figure or a word in it, and the bank ready).
VISIT = """async (selector) => {
  const state = () => document.documentElement && document.documentElement.dataset.pocket;
  const when = (look) => new Promise((resolve, reject) => {
    const seen = new MutationObserver(() => check());
    const check = () => {
      let found;
      try { found = look(); } catch (err) { seen.disconnect(); reject(err); return true; }
      if (found) { seen.disconnect(); resolve(performance.now()); }
      return found;
    };
    if (!check()) seen.observe(document, {subtree: true, childList: true, characterData: true,
      attributes: true});
  });
  const ready = when(() => {
    if (state() === 'failed') throw new Error('the pocket bank failed to start');
    return state() === 'ready';
  });
  const shown = when(() => {
    const el = document.querySelector(selector);
    return Boolean(el && el.offsetParent !== null && el.textContent.trim());
  });
  const answered = ready.then(async () => {
    const {send} = await import(new URL('console/static/js/transport.js', document.baseURI).href);
    const answer = await send('/api/v1/rulesets', {headers: {Accept: 'application/json'}});
    await answer.text();
    return [answer.status, performance.now()];
  });
  const [readyAt, shownAt, [status, answerAt]] = await Promise.all([ready, shown, answered]);
  return {ready: readyAt, answer: answerAt, status, shown: shownAt,
    usable: Math.max(readyAt, shownAt)};
}"""

SEND = """async ([method, path, body, token]) => {
  const {send} = await import(new URL('console/static/js/transport.js', document.baseURI).href);
  const headers = {Accept: 'application/json'};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== null) headers['Content-Type'] = 'application/json';
  const answer = await send(path, {method, headers,
    body: body === null ? undefined : JSON.stringify(body)});
  const text = await answer.text();
  return [answer.status, text ? JSON.parse(text) : null];
}"""

# ``count`` payments on each game, in turns, as the console sends them (an Idempotency-Key
# each); each timed around the send in the page. Answers other than 201 are counted.
WRITES = """async ([games, count, payments]) => {
  const {send} = await import(new URL('console/static/js/transport.js', document.baseURI).href);
  const took = games.map(() => []);
  let failed = 0;
  for (let i = 0; i < count; i += 1) {
    for (let g = 0; g < games.length; g += 1) {
      const game = games[g];
      const headers = {Accept: 'application/json', 'Content-Type': 'application/json',
        Authorization: `Bearer ${game.token}`, 'Idempotency-Key': crypto.randomUUID()};
      const body = JSON.stringify(payments[(game.seq + i) % 2]);
      const started = performance.now();
      const answer = await send(`/api/v1/games/${game.id}/transactions`,
        {method: 'POST', headers, body});
      await answer.text();
      took[g].push(performance.now() - started);
      if (answer.status !== 201) failed += 1;
    }
  }
  return {took, failed};
}"""

READ = """async ([path, token, runs]) => {
  const {send} = await import(new URL('console/static/js/transport.js', document.baseURI).href);
  const took = [];
  let bytes = 0;
  let failed = 0;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const answer = await send(path, {headers: {Accept: 'application/json',
      Authorization: `Bearer ${token}`}});
    const text = await answer.text();
    took.push(performance.now() - started);
    bytes = text.length;
    if (answer.status !== 200) failed += 1;
  }
  return {took, bytes, failed};
}"""

# When the worker started and its files arrived (Resource Timing), from the worker's origin.
WORKER_TIMELINE = """() => ({origin: performance.timeOrigin,
  files: performance.getEntriesByType('resource').map((e) => [e.name, e.responseEnd])})"""
TIMELINE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                  "site.zip")  # fmt: skip

# A fixed piece of work timed in the page and in its Web Worker: whether the CPU rate slows both.
BUSY = """() => {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 2e7; i += 1) x += i % 7;
  return [performance.now() - started, x];
}"""

# Pyodide's WebAssembly heap, read in the worker through the bank's own Python objects.
WASM_HEAP = """() => {
  const builtins = self.PocketBank.__init__.__globals__.get('__builtins__');
  return builtins.get('__import__')('pyodide_js')._module.HEAP8.length;
}"""

# The worker's start again, step by step: Pyodide loaded, the packages unpacked, the bank's
# module imported (with the interpreter's own import profile) and a bank made. Run in a fresh
# Worker of the page (as the bank runs), and on the page's main thread, which the CPU rate
# slows (it does not slow a Web Worker: see the docs).
STEPS = """async (runtime, site) => {
  const lines = [];
  const at = {};
  const t0 = performance.now();
  const {loadPyodide} = await import(runtime + 'pyodide.mjs');
  at.loader = performance.now() - t0;
  const py = await loadPyodide({indexURL: runtime, packages: [],
    env: {PYTHONPROFILEIMPORTTIME: '1'}, stderr: (line) => lines.push(line)});
  at.interpreter = performance.now() - t0;
  const zip = await (await fetch(site)).arrayBuffer();
  at.site_fetched = performance.now() - t0;
  py.unpackArchive(zip, 'zip', {extractDir: '/pocket'});
  py.runPython("import sys; sys.path.insert(0, '/pocket')");
  at.site_unpacked = performance.now() - t0;
  const before = lines.length;
  py.runPython('import api.pocket');
  at.imported = performance.now() - t0;
  py.runPython('api.pocket.PocketBank([])');
  at.bank = performance.now() - t0;
  return {at, lines: lines.slice(before)};
}"""
PROFILE_IN_WORKER = (
    """async ([runtime, site]) => {
  const code = `const steps = """
    + STEPS
    + """;
    self.onmessage = async ({data: [runtime, site]}) => {
      try { self.postMessage(await steps(runtime, site)); }
      catch (err) { self.postMessage({error: String(err && err.stack || err)}); }
    };`;
  const url = URL.createObjectURL(new Blob([code], {type: 'text/javascript'}));
  const worker = new Worker(url, {type: 'module'});
  const done = new Promise((resolve) => { worker.onmessage = (event) => resolve(event.data); });
  worker.postMessage([runtime, site]);
  const result = await done;
  worker.terminate();
  return result;
}"""
)
PROFILE_ON_PAGE = (
    """async ([runtime, site]) => {
  const steps = """
    + STEPS
    + """;
  try { return await steps(runtime, site); }
  catch (err) { return {error: String(err && err.stack || err)}; }
}"""
)


# --- the static server, counting what it sends -------------------------------------------------


class _Counting:
    """A response stream that adds what is written to the server's count for the request."""

    def __init__(self, raw: Any, add: Callable[[int], None]) -> None:
        self.raw, self.add = raw, add

    def write(self, data: bytes) -> int:
        self.add(len(data))
        return int(self.raw.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class _Handler(http.server.SimpleHTTPRequestHandler):
    """A plain static file server's handler (standard types: ``.mjs``, ``.wasm``)."""

    sent: Counter[str]
    lock: threading.Lock

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counting(self.wfile, self._count)  # type: ignore[assignment]

    def _count(self, size: int) -> None:
        path = getattr(self, "path", "?").split("?")[0]
        with self.lock:
            self.sent[path] += size

    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticServer:
    """``folder`` on loopback; what it sent, per path, since the last ``take()``."""

    def __init__(self, folder: Path) -> None:
        self.sent: Counter[str] = Counter()
        self.lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"sent": self.sent, "lock": self.lock})
        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=str(folder))
        )
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self) -> Counter[str]:
        with self.lock:
            taken = Counter(self.sent)
            self.sent.clear()
        return taken

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- chromium's processes and memory ------------------------------------------------------------


def descendants() -> list[int]:
    """This process's descendants (Playwright's driver, chromium and its processes)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def chromium_pids() -> dict[int, bytes]:
    """Chromium's processes among this one's descendants, with their command lines."""
    found = {}
    for pid in descendants():
        with contextlib.suppress(OSError):
            # chromium's child processes write their command line as one string, spaces and all.
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            if b"chrom" in command.split(b" ")[0]:
                found[pid] = command
    return found


def chromium_memory_mib() -> dict[str, float]:
    """``VmRSS`` of chromium's renderer processes and of all its processes, MiB."""
    renderers = everything = 0
    for pid, command in chromium_pids().items():
        with contextlib.suppress(OSError):
            rss = 0
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
            everything += rss
            if b" --type=renderer" in command:
                renderers += rss
    return {"renderers": renderers / 1024, "chromium": everything / 1024}


# --- one browser at one CPU rate ----------------------------------------------------------------


@dataclass
class Visit:
    ready_ms: float
    answer_ms: float
    usable_ms: float
    timeline: dict[str, float]  # ms from the navigation's start: the worker's start, its files


def settled_memory(session: Any) -> dict[str, float]:
    """Chromium's memory once the page's garbage is collected (the worker's is not: CDP's
    page session cannot ask it) and a second has passed."""
    session.send("HeapProfiler.collectGarbage")
    time.sleep(1)
    return chromium_memory_mib()


def throttled(page: Any, rate: int) -> tuple[Any, list[int]]:
    """The page's CDP session, with the CPU slowed ``rate`` times (1: not at all), and the
    list its ``Network.loadingFinished`` events fill (the page's own requests' bytes)."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    session.send("Network.enable")
    session.send("Performance.enable")
    loaded: list[int] = []
    session.on("Network.loadingFinished", lambda event: loaded.append(event["encodedDataLength"]))
    return session, loaded


def visit(page: Any, url: str, selector: str) -> Visit:
    page.goto(url, wait_until="commit", timeout=START_MS)
    at = page.evaluate(VISIT, selector)
    if at["status"] != 200:
        raise RuntimeError(f"GET /api/v1/rulesets answered {at['status']}")
    return Visit(at["ready"], at["answer"], at["usable"], worker_timeline(page))


def worker_timeline(page: Any) -> dict[str, float]:
    """When, from the navigation's start, the bank's worker started and each of its big files
    had arrived (from the network or the service worker's cache)."""
    (worker,) = page.workers
    seen = worker.evaluate(WORKER_TIMELINE)
    start = seen["origin"] - page.evaluate("() => performance.timeOrigin")
    found = {"worker started": start}
    for url, end in seen["files"]:
        name = url.rsplit("/", 1)[-1]
        if name in TIMELINE_FILES:
            found[f"{name} in"] = start + end
    return found


def timelines(visits: list[Visit]) -> dict[str, float]:
    """The median of each point of the visits' timelines."""
    names = visits[0].timeline.keys()
    return {
        name: statistics.median(v.timeline[name] for v in visits if name in v.timeline)
        for name in names
    }


def service_worker_ready(page: Any) -> None:
    """Until the page's service worker has kept every file (its install is over)."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")


def send(page: Any, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    status, answer = page.evaluate(SEND, [method, path, body, token])
    if status not in (200, 201):
        raise RuntimeError(f"{method} {path} answered {status}: {answer}")
    return answer


def new_game(page: Any, transactions: int) -> dict[str, Any]:
    """A classic game of two players with ``transactions`` transactions (set-up included),
    held by the page's console (localStorage) as if it had made it."""
    game = send(page, "POST", "/api/v1/games",
                {"name": "bench", "ruleset": "classic", "players": ["Ann", "Bob"]})  # fmt: skip
    page.evaluate(
        "g => localStorage.setItem('tablebank.pocket.games', JSON.stringify({"
        "...JSON.parse(localStorage.getItem('tablebank.pocket.games') || '{}'), [g.id]: g}))",
        {"id": game["id"], "name": game["name"], "ruleset": game["ruleset"],
         "banker": game["banker_token"], "tokens": game["tokens"]},
    )  # fmt: skip
    held = {"id": game["id"], "token": game["banker_token"], "seq": game["last_seq"]}
    writes(page, [held], transactions - game["last_seq"])
    held["seq"] = transactions
    return held


def writes(page: Any, games: list[dict[str, Any]], count: int) -> list[list[float]]:
    if count <= 0:
        return [[] for _ in games]
    done = page.evaluate(WRITES, [games, count, list(PAY)])
    if done["failed"]:
        raise RuntimeError(f"{done['failed']} payments were not recorded")
    for game in games:
        game["seq"] += count
    return list(done["took"])


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def starts(
    browser: Any, server: StaticServer, rate: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Cold and cached starts, each run in a new context: the first visit, then ``visits``
    more (the second, and the third and later ones); the bytes of each visit."""
    cold: list[Visit] = []
    second: list[Visit] = []
    later: list[Visit] = []
    first_bytes: list[Counter[str]] = []
    later_bytes: list[float] = []
    later_requests: Counter[str] = Counter()
    page_bytes_first: list[float] = []
    page_bytes_later: list[float] = []
    for _ in range(args.runs):
        context = browser.new_context()
        try:
            page = context.new_page()
            _, loaded = throttled(page, args.page_rate)
            server.take()
            cold.append(visit(page, server.url, START_SCREEN))
            service_worker_ready(page)
            first_bytes.append(server.take())
            page_bytes_first.append(float(sum(loaded)))
            game = new_game(page, 10)
            for again in range(args.visits):
                page.close()
                server.take()
                page = context.new_page()
                _, loaded = throttled(page, args.page_rate)
                (later if again else second).append(
                    visit(page, f"{server.url}#/g/{game['id']}", TABLE)
                )
                time.sleep(0.5)  # the browser's check of sw.js for a new version, if it asks
                sent = server.take()
                later_bytes.append(float(sum(sent.values())))
                later_requests.update(sent)
                page_bytes_later.append(float(sum(loaded)))
        finally:
            context.close()
    results = {
        "cold_timeline_ms": timelines(cold),
        "cold_ready_ms": spread([v.ready_ms for v in cold]),
        "cold_answer_ms": spread([v.answer_ms for v in cold]),
        "cold_usable_ms": spread([v.usable_ms for v in cold]),
        "first_visit_bytes": spread([float(sum(c.values())) for c in first_bytes]),
        "first_visit_gzip_bytes": served(first_bytes[0], ".gz"),
        "first_visit_brotli_bytes": served(first_bytes[0], ".br"),
        "first_visit_requests": first_bytes[0],
        "first_visit_page_cdp_bytes": spread(page_bytes_first),
        "later_visit_bytes": spread(later_bytes),
        "later_visits_requests": later_requests,  # all the later visits' together
        "later_visit_page_cdp_bytes": spread(page_bytes_later),
    }
    for name, visits in (("cached", second), ("cached_later", later)):
        if visits:
            results[f"{name}_ready_ms"] = spread([v.ready_ms for v in visits])
            results[f"{name}_answer_ms"] = spread([v.answer_ms for v in visits])
            results[f"{name}_usable_ms"] = spread([v.usable_ms for v in visits])
            results[f"{name}_timeline_ms"] = timelines(visits)
    return results


def long_game(
    browser: Any, server: StaticServer, rate: int, args: argparse.Namespace
) -> dict[str, Any]:
    """One context: the memory of a blank page and of the bank, the long game's writes,
    replay and export, then cached starts with it kept."""
    results: dict[str, Any] = {}
    context = browser.new_context()
    try:
        page = context.new_page()
        throttled(page, args.page_rate)
        page.goto("about:blank")
        time.sleep(1)
        blank_first = chromium_memory_mib()
        visit(page, server.url, START_SCREEN)
        service_worker_ready(page)
        time.sleep(1)
        first = chromium_memory_mib()
        # The first visit's service worker holds what it fetched and checked until it is idle
        # and stopped (chromium: 30 s); the page's memory from now on is a start from the cache.
        page.close()
        page = context.new_page()
        session, _ = throttled(page, args.page_rate)
        page.goto("about:blank")
        time.sleep(2 if args.quick else SERVICE_WORKER_IDLE_S)  # quick: figures mean nothing
        blank = chromium_memory_mib()
        visit(page, server.url, START_SCREEN)
        time.sleep(1)
        ready = settled_memory(session)
        # Whether the rate slows the page and its Web Worker alike.
        (worker,) = page.workers
        results["busy_page_ms"] = statistics.median(page.evaluate(BUSY)[0] for _ in range(3))
        results["busy_worker_ms"] = statistics.median(worker.evaluate(BUSY)[0] for _ in range(3))

        started = time.perf_counter()
        short = new_game(page, 10)
        long = new_game(page, 2)
        growing = writes(page, [long], args.transactions - 2)[0]
        print(f"{TIMES}{rate}: {args.transactions:,} transactions written in "
              f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
        if len(growing) >= 200:
            results["growing_first_100_p50_ms"] = percentile(growing[:100], 0.5)
            results["growing_last_100_p50_ms"] = percentile(growing[-100:], 0.5)
        took_short, took_long = writes(page, [short, long], args.samples)
        for name, took in (("short", took_short), ("long", took_long)):
            results[f"write_{name}_p50_ms"] = percentile(took, 0.5)
            results[f"write_{name}_p99_ms"] = percentile(took, 0.99)
            results[f"write_{name}_max_ms"] = max(took)
        results["write_ratio"] = results["write_long_p50_ms"] / results["write_short_p50_ms"]
        written = settled_memory(session)
        results["wasm_heap_written_mib"] = worker.evaluate(WASM_HEAP) / 2**20

        base = f"/api/v1/games/{long['id']}"
        for what in ("replay", "export"):
            read = page.evaluate(READ, [f"{base}/{what}", long["token"], args.runs])
            if read["failed"]:
                raise RuntimeError(f"{what}: {read['failed']} answers other than 200")
            results[f"{what}_ms"] = spread(read["took"])
            results[f"{what}_bytes"] = read["bytes"]

        after = settled_memory(session)
        metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
        results["memory_blank_first"] = blank_first
        results["memory_first"] = first
        results["memory_blank"] = blank
        results["memory_ready"] = ready
        results["memory_written"] = written
        results["memory_read"] = after
        results["extra_renderer_first_mib"] = first["renderers"] - blank_first["renderers"]
        results["extra_renderer_ready_mib"] = ready["renderers"] - blank["renderers"]
        results["extra_renderer_written_mib"] = written["renderers"] - blank["renderers"]
        results["extra_renderer_read_mib"] = after["renderers"] - blank["renderers"]
        results["extra_chromium_read_mib"] = after["chromium"] - blank["chromium"]
        results["page_js_heap_mib"] = metrics["JSHeapUsedSize"] / 2**20
        results["wasm_heap_mib"] = worker.evaluate(WASM_HEAP) / 2**20

        # Starts from the cache with the long game (and the short one) kept in IndexedDB.
        visits = []
        for _ in range(args.runs):
            page.close()
            page = context.new_page()
            throttled(page, args.page_rate)
            visits.append(visit(page, f"{server.url}#/g/{long['id']}", TABLE))
        results["cached_long_answer_ms"] = spread([v.answer_ms for v in visits])
        results["cached_long_usable_ms"] = spread([v.usable_ms for v in visits])
        if args.profile:  # last: its second Pyodide must not warm anything measured above
            results["profile"] = profile(page, server.url, PROFILE_IN_WORKER)
            results["profile_on_page"] = profile(page, server.url, PROFILE_ON_PAGE)
            results["bank_start_in_worker_ms"] = results["profile"]["steps_ms"]["bank"]
            results["bank_start_on_page_ms"] = results["profile_on_page"]["steps_ms"]["bank"]
    finally:
        context.close()
    return results


def profile(page: Any, base: str, where: str) -> dict[str, Any]:
    """The worker's start again (``PROFILE_IN_WORKER`` or ``PROFILE_ON_PAGE``): its steps, and
    the imports that cost most."""
    found = page.evaluate(where, [f"{base}pyodide/", f"{base}python/site.zip"])
    if "error" in found:
        raise RuntimeError(f"the start's profile failed: {found['error']}")
    modules = []
    for line in found["lines"]:
        # "import time:       self [us] |  cumulative | imported package"
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            name = parts[2].rstrip()
            modules.append(
                {
                    "module": name.strip(),
                    "depth": (len(name) - len(name.lstrip())) // 2,
                    "self_ms": int(parts[0]) / 1000,
                    "cumulative_ms": int(parts[1]) / 1000,
                }
            )
    tops: dict[str, float] = {}
    for module in modules:
        top = module["module"].split(".")[0]
        tops[top] = tops.get(top, 0.0) + module["self_ms"]
    return {
        "steps_ms": found["at"],
        "modules_imported": len(modules),
        "import_self_ms_by_package": dict(sorted(tops.items(), key=lambda kv: -kv[1])),
        "slowest_modules": sorted(modules, key=lambda m: -m["self_ms"])[:15],
    }


def served(requests: Counter[str], suffix: str) -> float:
    """What a server that sends the build's compressed copies (``suffix``: ".gz" or ".br";
    api/pocket_files.py, Caddy's ``precompressed``) would have sent for these requests: each
    file's copy where the build made one, else the file, as many times as it was sent whole
    (the headers left out)."""
    total = 0
    for path, sent in requests.items():
        file = BUNDLE / path.lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        size = file.stat().st_size if file.is_file() else 0
        if size == 0:
            total += sent  # no file (a 404, a 304): as sent
            continue
        copy = file.with_name(file.name + suffix)
        times = max(1, sent // size)
        total += times * (copy if copy.is_file() else file).stat().st_size
    return float(total)


def bundle_sizes() -> dict[str, float | None]:
    """The bundle's files (not the build's compressed copies beside them): their size, with
    gzip at a server's level 6 and as the build's copies (level 9), and as the build's brotli
    copies (quality 11)."""
    files = [
        f
        for f in BUNDLE.rglob("*")
        if f.is_file() and f.name != "BUILD" and f.suffix not in (".gz", ".br")
    ]

    def copies(suffix: str) -> float:
        return float(
            sum(
                (c if (c := f.with_name(f.name + suffix)).is_file() else f).stat().st_size
                for f in files
            )
        )

    return {
        "files": float(len(files)),
        "bytes": float(sum(f.stat().st_size for f in files)),
        "gzip6_bytes": float(sum(len(gzip.compress(f.read_bytes(), 6)) for f in files)),
        "gzip9_bytes": copies(".gz"),
        "brotli_bytes": copies(".br"),
    }


class CpuLimit:
    """Chromium's processes, all together, on ``1/rate`` of one core: a CPU cgroup's quota
    (cgroup v1's ``cpu.cfs_quota_us`` or v2's ``cpu.max``, 10 ms periods), which slows every
    thread of the browser, the bank's Web Worker too, unlike chromium's own throttling (its
    page's main thread only). A phone's other cores would run the browser's other threads
    beside the bank's; here they share the quarter core, so the figures err slow. It needs
    root and a writable cpu controller; ``why_not()`` says what is missing."""

    PERIOD_US = 10_000
    PLACES = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"))  # v1, then v2

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.top = next((p for p in self.PLACES if (p / "cgroup.procs").is_file()), None)
        self.group: Path | None = None

    def why_not(self) -> str | None:
        if self.top is None:
            return "no cgroup file system with a cpu controller"
        try:
            self.group = self.top / f"tablebank-bench-{os.getpid()}"
            self.group.mkdir(exist_ok=True)
            quota = self.PERIOD_US // self.rate
            if (self.group / "cpu.max").exists():
                (self.group / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
            else:
                (self.group / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                (self.group / "cpu.cfs_quota_us").write_text(str(quota))
        except OSError as error:
            self.group = None
            return f"no CPU cgroup could be made ({error.strerror})"
        return None

    def enter(self) -> None:
        """Every chromium process now, and those they start later (the renderers of new
        contexts, forked from its zygote), into the group."""
        assert self.group is not None
        self._move(self.group)

    def leave(self) -> None:
        if self.group is not None and self.top is not None:
            self._move(self.top)
            with contextlib.suppress(OSError):
                self.group.rmdir()

    def _move(self, into: Path) -> None:
        for pid in chromium_pids():
            with contextlib.suppress(OSError):  # a process that has ended since
                (into / "cgroup.procs").write_text(str(pid))


def run_rate(
    browser: Any, server: StaticServer, rate: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Every figure at one CPU rate: ``args.slow`` says how the rate is had (a CPU cgroup on
    the browser, or chromium's throttling of the page)."""
    limit = CpuLimit(rate) if rate > 1 and args.slow == "cgroup" else None
    args.page_rate = rate if args.slow == "chromium" else 1
    if limit is not None:
        why = limit.why_not()
        if why is not None:
            raise SystemExit(f"--slow cgroup: {why}; run as root, or --slow chromium")
        limit.enter()
    try:
        results = measure_rate(browser, server, rate, args)
    finally:
        if limit is not None:
            limit.leave()
    results["slowed_by"] = (
        "nothing"
        if rate == 1
        else f"a CPU cgroup: the browser on 1/{rate} of a core"
        if limit is not None
        else f"chromium's throttling of the page (Emulation.setCPUThrottlingRate {rate})"
    )
    return results


def measure_rate(
    browser: Any, server: StaticServer, rate: int, args: argparse.Namespace
) -> dict[str, Any]:
    started = time.perf_counter()
    results = starts(browser, server, rate, args)
    print(f"{TIMES}{rate}: starts in {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    results.update(long_game(browser, server, rate, args))
    print(f"{TIMES}{rate}: the long game in {time.perf_counter() - started:.1f} s", flush=True)
    return results


# --- the table ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    fmt: str
    scale: float = 1.0  # the figure in the table: the result times this
    # The target: (rate, bound) pairs, the figure at most the bound (or below it, if ``strict``).
    limits: tuple[tuple[int, float], ...] = ()
    strict: bool = False

    def target(self) -> str:
        sign = "<" if self.strict else "≤"
        bounds = {bound for _, bound in self.limits}
        if len(bounds) == 1 and len(self.limits) > 1:
            return f"{sign} {bounds.pop():{self.fmt}}"
        return ", ".join(
            f"{sign} {bound:{self.fmt}} ({TIMES}{rate})" for rate, bound in self.limits
        )

    def met(self, value: float | None, rate: int) -> str:
        bound = dict(self.limits).get(rate)
        if value is None or bound is None:
            return ""
        return "met" if (value < bound if self.strict else value <= bound) else "NOT met"


S, MB, KB = 1 / 1000, 1 / 1e6, 1 / 1e3
MIB_MB = 2**20 / 1e6  # the memory figures are MiB; the target is in MB


def on_both(bound: float) -> tuple[tuple[int, float], ...]:
    return ((1, bound), (4, bound))


CACHED = ((1, 2.0), (4, 5.0))
ROWS = (
    Row("cold_answer_ms", "cold start: first answer, s", ".2f", S),
    Row("cold_usable_ms", "cold start: start screen usable, s", ".2f", S),
    Row("cached_answer_ms", "start from cache, 2nd visit: first answer, s", ".2f", S, CACHED),
    Row("cached_usable_ms", "start from cache, 2nd visit: table usable, s", ".2f", S),
    Row(
        "cached_later_answer_ms",
        "start from cache, later visits: first answer, s",
        ".2f",
        S,
        CACHED,
    ),
    Row("cached_later_usable_ms", "start from cache, later visits: table usable, s", ".2f", S),
    Row("cached_long_answer_ms", "start from cache, long game kept: first answer, s", ".2f", S),
    Row("cached_long_usable_ms", "start from cache, long game kept: table usable, s", ".2f", S),
    Row("write_short_p50_ms", "durable write, 10 prior: p50 ms", ".1f"),
    Row("write_short_p99_ms", "durable write, 10 prior: p99 ms", ".1f", limits=((4, 50),)),
    Row("write_long_p50_ms", "durable write, long game: p50 ms", ".1f"),
    Row("write_long_p99_ms", "durable write, long game: p99 ms", ".1f", limits=((4, 50),)),
    Row("write_ratio", "durable write: long game p50 ÷ 10 prior p50", ".2f", limits=on_both(1.3)),
    Row("replay_ms", "replay of the long game: ms", ".0f"),
    Row("export_ms", "export of the long game: ms", ".0f"),
    Row("first_visit_bytes", "first visit: from the network, MB", ".1f", MB),
    Row("first_visit_gzip_bytes", "first visit, served with gzip: MB", ".1f", MB),
    Row("first_visit_brotli_bytes", "first visit, served with brotli: MB", ".1f", MB, on_both(8)),
    Row("first_visit_page_cdp_bytes", "first visit: the page's own requests (CDP), MB", ".2f", MB),
    Row("later_visit_bytes", "later visit: from the network, KB", ".1f", KB, on_both(10), True),
    Row(
        "extra_renderer_first_mib",
        "extra memory, first visit (its service worker keeping the files): MB (renderer RSS)",
        ".0f",
        MIB_MB,
        on_both(200),
    ),
    Row(
        "extra_renderer_ready_mib",
        "extra memory, bank ready: MB (renderer RSS)",
        ".0f",
        MIB_MB,
        on_both(200),
    ),
    Row(
        "extra_renderer_written_mib",
        "extra memory, long game written: MB (renderer RSS)",
        ".0f",
        MIB_MB,
        on_both(200),
    ),
    Row(
        "extra_renderer_read_mib",
        "extra memory, long game replayed: MB (renderer RSS)",
        ".0f",
        MIB_MB,
        on_both(200),
    ),
    Row(
        "extra_chromium_read_mib",
        "extra memory, long game replayed: MB (all chromium)",
        ".0f",
        MIB_MB,
    ),
    Row("page_js_heap_mib", "the page's JS heap: MiB", ".1f"),
    Row("wasm_heap_written_mib", "the worker's WebAssembly heap, long game written: MiB", ".0f"),
    Row("wasm_heap_mib", "the worker's WebAssembly heap, long game replayed: MiB", ".0f"),
    Row("busy_page_ms", "a fixed JS loop in the page: ms", ".0f"),
    Row("busy_worker_ms", "the same loop in the Web Worker: ms", ".0f"),
    Row("bank_start_in_worker_ms", "the bank's own start in a Worker: s", ".2f", S),
    Row("bank_start_on_page_ms", "the bank's own start on the page's main thread: s", ".2f", S),
)


def value(row: Row, results: dict[str, Any]) -> tuple[float, str] | None:
    """The row's figure (a median where there were runs) and its cell."""
    found = results.get(row.key)
    if found is None:
        return None
    if isinstance(found, dict):
        low, mid, high = (found[k] * row.scale for k in ("min", "median", "max"))
        cell = f"{mid:{row.fmt}}"
        if high > low:
            cell += f" ({low:{row.fmt}}-{high:{row.fmt}})"
        return mid, cell
    figure = float(found) * row.scale
    return figure, f"{figure:{row.fmt}}"


def markdown(doc: dict[str, Any]) -> str:
    """The results table in Markdown: one column per CPU rate, then the target and verdicts."""

    def judged(row: Row, rate: int) -> tuple[str, str]:
        """The row's cell at CPU ``rate`` and its verdict there."""
        found = value(row, doc["rates"][str(rate)])
        if found is None:
            return "n/a", row.met(None, rate)
        return found[1], row.met(found[0], rate)

    return table([(f"{TIMES}{int(r)}", int(r)) for r in doc["rates"]], ROWS, judged)


def summary(doc: dict[str, Any]) -> str:
    c, m, b = doc["config"], doc["machine"], doc["bundle"]
    return (
        f"Bundle {doc['bundle_build']}: {int(b['files'])} files, {b['bytes'] / 1e6:.1f} MB; "
        f"gzip -6 {b['gzip6_bytes'] / 1e6:.1f} MB, the build's gzip -9 and brotli copies "
        f"{b['gzip9_bytes'] / 1e6:.1f} and {b['brotli_bytes'] / 1e6:.1f} MB. "
        f"{c['runs']} runs of each start, replay and export (median, min-max); "
        f"{c['samples']} writes on each game; long game {c['transactions']:,} transactions. "
        f"{doc['chromium']}; {m['cores']} cores ({m['cpu']}); load average "
        f"{m['load_average_at_start']} at the start, {doc.get('load_average_at_end')} at the "
        f"end{' (--quick)' if c['quick'] else ''}. "
        + "; ".join(
            f"{TIMES}{rate}: slowed by {results.get('slowed_by', 'chromium (before --slow)')}"
            for rate, results in doc["rates"].items()
            if rate != "1"
        )
    )


def profile_lines(doc: dict[str, Any]) -> str:
    """The start's steps and the packages whose imports cost most, per rate."""
    out = []
    for rate, results in doc["rates"].items():
        for start, name in (
            ("cold", "cold start"),
            ("cached", "2nd visit"),
            ("cached_later", "later visits"),
        ):
            points = results.get(f"{start}_timeline_ms")
            ready = results.get(f"{start}_ready_ms")
            if points and ready:
                ordered = sorted(points.items(), key=lambda kv: kv[1])
                line = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in ordered)
                out.append(
                    f"{TIMES}{rate} {name} (medians from the navigation): {line}, "
                    f"bank ready {ready['median'] / 1000:.2f} s"
                )
        for key, where in (("profile", "in a Worker"), ("profile_on_page", "on the page")):
            found = results.get(key)
            if not found:
                continue
            steps = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in found["steps_ms"].items())
            tops = ", ".join(
                f"{k} {v:.0f} ms" for k, v in list(found["import_self_ms_by_package"].items())[:8]
            )
            out.append(f"{TIMES}{rate} the start's steps {where} (cumulative): {steps}")
            out.append(
                f"{TIMES}{rate} import api.pocket {where}: {found['modules_imported']} modules; "
                f"self time by package: {tops}"
            )
    return "\n".join(out)


START, END = "<!-- pocket:start -->", "<!-- pocket:end -->"


def write_into(page: Path, doc: dict[str, Any]) -> None:
    """Replace what stands between the pocket markers of ``page`` with this run's table."""
    lines = "\n".join(f"- {line}" for line in profile_lines(doc).splitlines())
    put_between(page, START, END, f"{markdown(doc)}\n\n{summary(doc)}\n\n{lines}")


# --- the run ------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    ap = run_parser("python -m benchmarks.pocket", __doc__)
    ap.add_argument("--rates", default="1,4", help="CPU rates (default 1,4)")
    ap.add_argument(
        "--slow",
        choices=("cgroup", "chromium"),
        default="cgroup",
        help="how a rate above 1 is had: a CPU cgroup's quota on the whole browser (default; "
        "needs root) or chromium's throttling, which slows only the page's main thread",
    )
    ap.add_argument("--runs", type=int, help="runs of each start and read (default 5; quick 1)")
    ap.add_argument(
        "--visits", type=int, help="visits from the cache after each cold one (default 3; quick 2)"
    )
    ap.add_argument("--samples", type=int, help="writes on each game (default 300; quick 10)")
    ap.add_argument("--transactions", type=int, help="the long game (default 2000; quick 40)")
    ap.add_argument("--no-profile", dest="profile", action="store_false",
                    help="skip the start's step-by-step profile")  # fmt: skip
    ap.add_argument(
        "--write",
        type=Path,
        metavar="PAGE",
        help="run nothing: put the table of the results (--json) into PAGE, between its "
        f"{START} and {END} markers",
    )
    add_json_option(ap, RESULTS, QUICK_RESULTS)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    quick = args.quick
    args.json = args.json or (QUICK_RESULTS if quick else RESULTS)
    args.runs = args.runs or (1 if quick else 5)
    args.samples = args.samples or (10 if quick else 300)
    args.visits = args.visits or (2 if quick else 3)
    args.transactions = args.transactions or (40 if quick else 2000)
    rates = [int(r) for r in args.rates.split(",") if r.strip()]
    if args.write:
        write_into(args.write, json.loads(args.json.read_text(encoding="utf-8")))
        return 0
    if not (BUNDLE / "BUILD").is_file():
        print(f"no bundle at {BUNDLE}: build it first (make pocket)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    doc: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine.describe(0.1, str(ROOT), None),
        "bundle_build": (BUNDLE / "BUILD").read_text(encoding="utf-8").split()[0][:12],
        "bundle": bundle_sizes(),
        "config": {
            "quick": quick,
            "runs": args.runs,
            "samples": args.samples,
            "visits": args.visits,
            "transactions": args.transactions,
            "server": "http.server (plain static files, no compression)",
        },
        "rates": {},
    }
    server = StaticServer(BUNDLE)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            doc["chromium"] = f"chromium {browser.version}"
            try:
                for rate in rates:
                    doc["rates"][str(rate)] = run_rate(browser, server, rate, args)
            finally:
                browser.close()
    finally:
        server.close()
    save(doc, args.json)
    print()
    print(markdown(doc))
    print()
    print(summary(doc))
    print(profile_lines(doc))
    print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
