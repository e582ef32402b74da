"""A real ``tablebank serve`` for the end-to-end tests, and a small JSON client for it.

Every e2e test that needs a server starts it here, the one way: ``python -m api.cli serve`` on a
free loopback port and the test's database, its output appended to one log file (so a test can
check what a server wrote across restarts), ready once ``/healthz`` answers 200 within a
deadline. ``stop()`` is an orderly shutdown (SIGTERM); ``kill()`` is a crash: SIGKILL to the
gunicorn arbiter and every worker at once (they share a process group of their own), as a power
cut would stop them, and the port and the database are free again when it returns.

Imported as ``from server import Server`` (pytest puts ``tests/e2e`` on the path, as it puts
``tests/ledger`` for ``ledger_helpers``).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from stores import Store

HOST = "127.0.0.1"
REQUEST_TIMEOUT = 20.0  # seconds for one request
START_TIMEOUT = 30.0  # seconds for a server to answer /healthz
STOP_TIMEOUT = 15.0  # seconds for an orderly shutdown before it becomes a kill
POLL = 0.05  # seconds between two looks at a server starting or dying (always with a deadline)

# Loopback needs no proxy, whatever the environment says.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)
"""What ``Client.call`` raises when no whole answer came back (refused, reset, cut short)."""


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@dataclass
class Answer:
    """One HTTP response: status, headers by lower-case name, and the body (JSON, else text)."""

    status: int
    headers: dict[str, str]
    body: Any

    def __repr__(self) -> str:
        return f"<{self.status} {self.body!r}>"


class Client:
    """JSON over HTTP on urllib; one connection per call, so threads may share one client."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = REQUEST_TIMEOUT,
    ) -> Answer:
        """Send one request; an HTTP error status is an ``Answer`` too, a lost one raises
        one of ``TRANSPORT_ERRORS``."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                return _answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            with error:
                return _answer(error.code, error.headers, error.read())


def _answer(status: int, headers: Any, raw: bytes) -> Answer:
    try:
        body = json.loads(raw or b"null")
    except ValueError:
        body = raw.decode(errors="replace")
    return Answer(status, {name.lower(): value for name, value in headers.items()}, body)


class Server:
    """``tablebank serve`` on loopback and one database, with any extra ``serve`` arguments.

    Use as a context manager (started on entry, stopped on exit), or ``start()`` it and
    ``stop()`` or ``kill()`` it yourself; a killed server may be started again, on the same
    port and database.
    """

    def __init__(self, db: str, log: Path, *extra: str, port: int | None = None) -> None:
        self.db = db
        self.log = log
        self.extra = list(extra)
        self.port = port or free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.client = Client(self.base)
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """``Client.call`` on this server."""
        return self.client.call(method, path, body, token, headers)

    def salary(
        self,
        game: dict[str, Any],
        key: str | None = None,
        player: str = "p1",
        timeout: float = REQUEST_TIMEOUT,
    ) -> Answer:
        """The banker records ``player``'s salary on ``game`` (as ``POST /games`` answered
        it), with ``key`` as its Idempotency-Key if one is given: a table playing on."""
        return self.client.call(
            "POST",
            f"/api/v1/games/{game['id']}/transactions",
            {"type": "salary", "player": player},
            token=game["banker_token"],
            headers={"Idempotency-Key": key} if key else None,
            timeout=timeout,
        )

    def start(self) -> Server:
        """Start the server and return once it answers ``/healthz``; fail the test if it
        exits or stays silent past ``START_TIMEOUT``."""
        if self.process is not None:
            raise RuntimeError("this server is already running")
        command = [sys.executable, "-m", "api.cli", "serve", "--host", HOST]
        command += ["--port", str(self.port), "--db", self.db, *self.extra]
        with self.log.open("ab") as out:
            # A session of its own: the arbiter and its workers form one process group, which
            # kill() ends at once, and a Ctrl-C meant for pytest does not reach them.
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + START_TIMEOUT
        while not self._healthy():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                pytest.fail(f"server did not start:\n{self.log_tail()}", pytrace=False)
            time.sleep(POLL)
        return self

    def _healthy(self) -> bool:
        try:
            return self.client.call("GET", "/healthz", timeout=2).status == 200
        except TRANSPORT_ERRORS:
            return False

    def stop(self) -> None:
        """An orderly shutdown: SIGTERM, and a kill if it takes longer than ``STOP_TIMEOUT``."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
        else:
            self._wait_group_gone(self.process.pid)
            self.process = None

    def kill(self) -> None:
        """A crash: SIGKILL to the arbiter and every worker at once, then wait until all are
        gone (nothing of this server touches the database any more)."""
        if self.process is None:
            return
        group = self.process.pid  # start_new_session: the group's id is the arbiter's pid
        with contextlib.suppress(ProcessLookupError):  # every member already gone
            os.killpg(group, signal.SIGKILL)
        self.process.wait()
        self._wait_group_gone(group)
        self.process = None

    @staticmethod
    def _wait_group_gone(group: int) -> None:
        """Wait until no live process is left in ``group`` (workers outlive their arbiter for
        a moment). A zombie counts as gone: it holds no socket and no file."""
        deadline = time.monotonic() + STOP_TIMEOUT
        while _live_members(group):
            if time.monotonic() > deadline:
                pytest.fail(f"processes of group {group} outlived their server", pytrace=False)
            time.sleep(POLL)

    def workers(self) -> list[int]:
        """The live processes of the server's group but the arbiter: its workers, now."""
        assert self.process is not None, "the server is not running"
        return [pid for pid in _live_members(self.process.pid) if pid != self.process.pid]

    def workers_rss_mib(self) -> float:
        """The resident memory of the server's workers now, in MiB (every process of its group
        but the arbiter), read from ``/proc``."""
        total_kib = 0
        for pid in self.workers():
            with contextlib.suppress(OSError):  # ended while we looked
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total_kib += int(line.split()[1])
        return total_kib / 1024

    def log_text(self) -> str:
        """Everything the server wrote, over all its starts."""
        return self.log.read_text(errors="replace")

    def log_tail(self, chars: int = 4000) -> str:
        return self.log_text()[-chars:]


def _live_members(group: int) -> list[int]:
    """Processes of a process group that are not zombies, read from ``/proc``."""
    members: list[int] = []
    if not Path("/proc").is_dir():  # not Linux: SIGKILL to a group ends it at once anyway
        return members
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry.name))
    return members


class Servers:
    """The session's running servers, one by store and ``serve`` arguments."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: dict[tuple[str, tuple[str, ...]], tuple[Store, str, Server]] = {}

    def get(self, store: Store, *extra: str) -> Server:
        """The session's server on ``store`` with these ``serve`` arguments (started now if
        it is not running yet)."""
        key = (store.name, extra)
        if key not in self.running:
            db = store.new(durable=True)
            log = self.logs / f"{store.name}-{len(self.running) + 1}.log"
            # Every console test of a process creates its games on this one server, together
            # more than the 30 a minute a client address is allowed by default: the limit is
            # not what they test (tests/e2e/test_serve_logs.py tests it on a server of its own).
            limit = () if "--games-per-minute" in extra else ("--games-per-minute", "0")
            try:
                server = Server(db, log, *limit, *extra).start()
            except BaseException:
                store.drop(db)
                raise
            self.running[key] = (store, db, server)
        return self.running[key][2]

    def stop_all(self) -> None:
        """End every server and drop its database. Killed, not stopped: their tests are done,
        an orderly stop would wait out the open streams (gunicorn's graceful timeout), and what
        a stop does is tested where a test stops its own server (test_console_live.py)."""
        for store, db, server in self.running.values():
            try:
                server.kill()
            finally:
                store.drop(db)
        self.running.clear()


@contextlib.contextmanager
def serving(store: Any, log_dir: Path, *extra: str) -> Iterator[Server]:
    """A server on a new database of the run's store (``tests/stores.py``), dropped after;
    ``extra``: more ``serve`` arguments."""
    db = store.new(durable=True)
    try:
        with Server(db, log_dir / "server.log", *extra) as running:
            yield running
    finally:
        store.drop(db)
