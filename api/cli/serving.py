"""``tablebank serve``: the API through gunicorn's gevent workers, never Flask's development
server; its JSON logs with request ids and no query strings, the store's drivers made
cooperative, the admin token read, and the address announced with its QR code."""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import logging.config
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import segno
from gunicorn import glogging
from gunicorn.app.base import BaseApplication

from api import netaddr
from api.cli.failed import CommandFailed
from api.logs import ACCESS_LOG, RequestFields
from api.metrics import METRICS_DIR, MULTIPROCESS_ENV
from ledger.application import TableBank
from ledger.ruleset import BUILT_IN, built_in
from ledger.skeletons import skeleton
from ledger.store import (
    STORE_SECONDS,
    persistence_env,
    redact,
    shared_access,
)

MIN_ADMIN_TOKEN = 16  # characters: far more than anyone could guess
# Method, path and protocol, never the query string (nor any header).
ACCESS_LOG_FORMAT = '%(h)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms'
# A query string in a log message: from the "?" to the next space or quote.
QUERY_STRING = re.compile(r"\?[^\s'\"]+")


def json_logging() -> dict[str, Any]:
    """The logging of ``--log-format json``: every line of the server (gunicorn's, the app's,
    the access lines of ``api.logs``) one JSON object on stdout, with ``time``, ``level``,
    ``event`` (the message), ``logger``, and the request's fields where there is one; query
    strings cut out as in text."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "no_query": {"()": QueryRedaction},
            "request": {"()": RequestFields},
        },
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "%(asctime)s %(levelname)s %(message)s %(name)s",
                "rename_fields": {
                    "asctime": "time",
                    "levelname": "level",
                    "message": "event",
                    "name": "logger",
                },
                "datefmt": "%Y-%m-%dT%H:%M:%S%z",
            }
        },
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "formatter": "json",
                "filters": ["no_query", "request"],
            }
        },
        "root": {"handlers": ["json"], "level": "INFO"},
        "loggers": {
            "gunicorn.error": {"handlers": ["json"], "level": "INFO", "propagate": False},
            # The app writes the access lines (api.logs): gunicorn's would say each twice.
            "gunicorn.access": {"handlers": [], "level": "INFO", "propagate": False},
        },
    }


class QueryRedaction(logging.Filter):
    """Cuts query strings out of gunicorn's error log, which quotes a malformed request line
    whole ("Invalid HTTP request line: 'GET /x?token=...'") and the URI of a failed request."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Every line let through, each query string in it cut to ``?<query>``."""
        message = record.getMessage()
        if "?" in message:
            record.msg, record.args = QUERY_STRING.sub("?<query>", message), ()
        return True


class _Logger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's logger, its error log passed through ``QueryRedaction``."""

    def setup(self, cfg: Any) -> None:
        """gunicorn's, with ``QueryRedaction`` on its error log (once)."""
        super().setup(cfg)
        if not any(isinstance(each, QueryRedaction) for each in self.error_log.filters):
            self.error_log.addFilter(QueryRedaction())

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> Any:
        """The access log line's atoms: with our format, only the seven it names (gunicorn
        builds some thirty and one per header and per environ key, 3 % of a write's time)."""
        if self.cfg.access_log_format != ACCESS_LOG_FORMAT:
            return super().atoms(resp, req, environ, request_time)
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        return {
            "h": environ.get("REMOTE_ADDR", "-"),
            "m": environ.get("REQUEST_METHOD"),
            "U": environ.get("PATH_INFO"),
            "H": environ.get("SERVER_PROTOCOL"),
            "s": status,
            "b": "-" if sent is None else str(sent),
            "M": request_time.seconds * 1000 + request_time.microseconds // 1000,
        }


def cooperative_eventsourcing() -> None:
    """In a gevent worker: eventsourcing's locks and threads become gevent's, as threading's are.

    eventsourcing binds ``Lock``, ``Condition``... by name when it is imported, in the arbiter,
    before the worker patches ``threading``. A greenlet waiting on such a native lock stops the
    whole worker, and the greenlet holding it never runs again: two requests loading the same
    game (the repository's fast-forward lock) hung the worker until gunicorn killed it.
    """
    from gevent import monkey

    if not monkey.is_module_patched("threading"):
        return
    import threading

    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != "eventsourcing" or module is None:
            continue
        for attr in ("Lock", "RLock", "Condition", "Event", "Semaphore", "Timer"):
            native = monkey.get_original("threading", attr)
            if getattr(module, attr, None) is native and getattr(threading, attr) is not native:
                setattr(module, attr, getattr(threading, attr))
    cooperative_psycopg()


def warm_up() -> None:
    """Build, as a worker starts, what its first requests would build in its event loop, every
    other request waiting: the table of look-alike characters a player's name is checked
    against (0.1-0.2 s: the first ``POST /games`` of each worker held the loop that long) and
    the built-in rule sets."""
    skeleton("warm")
    for name in BUILT_IN:
        built_in(name)


def cooperative_psycopg() -> None:
    """In a gevent worker: psycopg waits for PostgreSQL's answers as a greenlet, not the worker.

    psycopg picks its way of waiting when it is imported: in C, unless ``select`` is patched
    already. The arbiter imports it (it settles the store's layout) before the worker patches
    ``select``, so a query waiting on PostgreSQL stopped the whole worker: with PostgreSQL
    frozen, every request of the worker, ``/healthz`` too, waited until gunicorn killed it
    after its 30 s, and the worker it started then failed to boot and took the server down.
    A query PostgreSQL stays silent on for ``STORE_SECONDS`` is given up (``answering``).
    """
    from gevent import monkey

    waiting: Any = sys.modules.get("psycopg.waiting")
    if waiting is None or not monkey.is_module_patched("select"):
        return
    if getattr(waiting.wait, "answering", False):
        return  # done already
    # psycopg's choice, unless it is the C wait (a worker's blocking one): then select's.
    chosen = waiting.wait
    if chosen is getattr(waiting, "wait_c", None):
        chosen = waiting.wait_select

    def wait(gen: Any, fileno: int, interval: float = 0.1, timeout: float | None = None) -> Any:
        return chosen(answering(gen), fileno, interval=interval, timeout=timeout)

    wait.answering = True  # type: ignore[attr-defined]
    waiting.wait = wait


def answering(gen: Generator[Any, Any, Any]) -> Generator[Any, Any, Any]:
    """``gen`` (psycopg's generator of one exchange with PostgreSQL, which its wait function
    drives), ended with ``OperationalError`` once PostgreSQL has sent nothing and taken nothing
    for ``STORE_SECONDS``: a hung PostgreSQL (its connections open, no answer) held each request
    waiting on it until it came back, however long; now it is answered 503
    ``storage_unavailable`` with ``Retry-After``, and its connection, left in the middle of
    a query, is closed by the pool. An answer that keeps coming (a long game's events) is never
    cut short: the bound is on silence, not on the whole exchange."""
    import psycopg

    heard = time.monotonic()
    try:
        waiting_for = next(gen)
    except StopIteration as done:
        return done.value
    while True:
        ready = yield waiting_for
        if ready:
            heard = time.monotonic()
        elif time.monotonic() - heard > STORE_SECONDS:
            raise psycopg.OperationalError(f"PostgreSQL has not answered for {STORE_SECONDS} s")
        try:
            waiting_for = gen.send(ready)
        except StopIteration as done:
            return done.value


class _Server(BaseApplication):  # type: ignore[misc]
    """gunicorn running our app factory with options from the command line."""

    def __init__(self, options: dict[str, Any], app_config: dict[str, Any]) -> None:
        self.options = options
        self.app_config = app_config
        self.app: Any = None  # a worker's app, once loaded
        super().__init__()

    def load_config(self) -> None:
        """gunicorn's settings from the command line, and the hooks that close a worker's store and
        forget a dead worker's gauges."""
        for key, value in self.options.items():
            self.cfg.set(key, value)
        self.cfg.set("worker_exit", self.close_bank)
        if self.app_config.get(METRICS_DIR):
            self.cfg.set("child_exit", self.forget_worker)

    def run(self) -> None:
        """Serve, once the store's layout is settled before any worker starts: an older one
        upgraded once, here, a newer one refused (``NewerStore``: exit status 2)."""
        with TableBank(env=persistence_env(self.app_config["TABLEBANK_DB"])) as bank:
            if bank.schema_found != bank.schema:
                print(
                    f"tablebank: the store's layout upgraded from {bank.schema_found} to "
                    f"{bank.schema}",
                    flush=True,
                )
        super().run()

    def load(self) -> Any:
        """A worker's app, made by ``create_app`` once eventsourcing's locks are gevent's, then
        warmed up (``warm_up``)."""
        from api import create_app

        cooperative_eventsourcing()
        self.app = create_app(self.app_config)
        warm_up()
        return self.app

    def close_bank(self, _arbiter: Any, _worker: Any) -> None:
        """A worker's last act (gunicorn's ``worker_exit``): close the store's connections
        while the event loop still runs, not in a finaliser at interpreter exit."""
        app = getattr(self, "app", None)
        if app is not None:
            from api.bank import EXTENSION, LATER

            app.extensions.pop(LATER, None)  # a stopping worker opens no store
            # Dropped here, so that its finaliser runs now too and not at interpreter exit,
            # when gevent can no longer take a lock.
            bank = app.extensions.pop(EXTENSION, None)  # none if the store never answered
            if bank is not None:
                bank.close()
            del bank
            self.app = None
            gc.collect()

    def forget_worker(self, _arbiter: Any, worker: Any) -> None:
        """In the arbiter, once a worker has exited (gunicorn's ``child_exit``): its gauges (the
        streams it had open, its reads waiting) leave the sums; its counters stay in them."""
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid, self.app_config[METRICS_DIR])


@contextlib.contextmanager
def metrics_directory(wanted: bool) -> Iterator[str | None]:
    """Where the workers of one server run keep their counts (``api.metrics``), where it has an
    admin token: a new directory only this user may read (0700), empty when the workers start,
    removed when the server stops; None where nothing is counted. prometheus_client, imported
    by the workers, finds it in ``$PROMETHEUS_MULTIPROC_DIR``."""
    if not wanted:
        yield None
        return
    directory = tempfile.mkdtemp(prefix="tablebank-metrics-")  # mode 0700, empty
    before = os.environ.get(MULTIPROCESS_ENV)
    os.environ[MULTIPROCESS_ENV] = directory
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)
        if before is None:
            os.environ.pop(MULTIPROCESS_ENV, None)
        else:
            os.environ[MULTIPROCESS_ENV] = before


def serve(args: argparse.Namespace) -> int:
    """``tablebank serve``: the API and console under gunicorn, until a signal stops it."""
    shared = None if args.allow_shared_db else shared_access(args.db)
    if shared is not None:
        raise CommandFailed(
            f"{shared}: group or others can read or write the games; "
            "chmod 600 it (and its -wal and -shm files), or serve with --allow-shared-db"
        )
    admin_token = read_admin_token(args.admin_token_file) if args.admin_token_file else None
    bind = f"{netaddr.url_host(args.host)}:{args.port}"
    options = gunicorn_options(bind, args)
    db = redact(args.db)  # a PostgreSQL URL may carry a password
    public = args.public_url or netaddr.public_url(args.host, args.port)
    if args.log_format == "json":
        # One JSON object a line, the app's access lines instead of gunicorn's (they know the
        # route and the request's id), and no QR code for a log collector to choke on.
        options.update(accesslog=None, logconfig_dict=json_logging())
        logging.config.dictConfig(json_logging())
        logging.getLogger("tablebank").info(
            "serving", extra={"bind": f"http://{bind}", "store": db, "public_url": public}
        )
    else:
        print(f"tablebank: serving http://{bind} with {db}", flush=True)
        announce(public, args.host, args.port, sys.stdout)
    app_config = {
        "TABLEBANK_DB": args.db,
        "TABLEBANK_PUBLIC_URL": public,
        "TABLEBANK_GAMES_PER_MINUTE": args.games_per_minute,
        "TABLEBANK_IMPORT_MIB_PER_HOUR": args.import_mib_per_hour,
        "TABLEBANK_PROXY_HOPS": args.proxy_hops,
        "TABLEBANK_ADMIN_TOKEN": admin_token,
        "TABLEBANK_IMPORT_SLOTS": args.import_slots,
        "TABLEBANK_STREAMS_PER_ADDRESS": args.streams_per_address,
        "TABLEBANK_BODIES_PER_ADDRESS": args.bodies_per_address,
        "TABLEBANK_READ_SLOTS": args.read_slots,
        "TABLEBANK_READ_CACHE_BYTES": args.read_cache_mib * 1024 * 1024,
        "TABLEBANK_POCKET_DIR": args.pocket_dir,
        ACCESS_LOG: args.log_format == "json",
    }
    with metrics_directory(admin_token is not None) as counts:
        app_config[METRICS_DIR] = counts
        _Server(options, app_config).run()
    return 0


def gunicorn_options(bind: str, args: argparse.Namespace) -> dict[str, Any]:
    """How gunicorn runs ``serve``'s workers (the log lines' format aside)."""
    return {
        "bind": bind,
        "workers": args.workers,
        # One greenlet per connection: a client that sends its request slowly, or holds an
        # event stream open for hours, costs a little memory and no thread (gthread's 4
        # threads were held by 4 slow clients, and every other request timed out).
        "worker_class": "gevent",
        "worker_connections": args.connections,
        "accesslog": "-",
        # Method, path and protocol, never the query string (nor any header): a token sent
        # where it does not belong (``?token=``, refused) is not written down either.
        "access_log_format": ACCESS_LOG_FORMAT,
        "errorlog": "-",
        "logger_class": _Logger,
        "graceful_timeout": 5,
        "timeout": 30,
        # gunicorn's control socket (for its gunicornc) is off: by default every server of
        # the machine binds the one path ~/.gunicorn/gunicorn.ctl, each taking it from the
        # one before and removing it when it stops. tablebank is run with signals
        # (docs/deploy.md, "The control socket").
        "control_socket_disable": True,
    }


def read_admin_token(path: str) -> str:
    """The admin token a file holds on one line; refused if others could read it, or if it is
    missing, empty or too short to be secret."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        text = Path(path).read_text(encoding="ascii")
    except FileNotFoundError:
        raise CommandFailed(f"no admin token file at {path}") from None
    except UnicodeDecodeError:
        raise CommandFailed(f"the admin token in {path} is not plain ASCII") from None
    except OSError as error:
        raise CommandFailed(f"cannot read {path}: {error.strerror}") from None
    if mode & 0o077:
        raise CommandFailed(
            f"{path} has mode {mode:04o}: group or others can read the admin token; "
            f"chmod 600 {path}"
        )
    token = text.strip()
    if not token:
        raise CommandFailed(f"{path} is empty: write the admin token in it, on one line")
    if not all("\x21" <= char <= "\x7e" for char in token):
        raise CommandFailed(f"{path} must hold the token alone on one line, without spaces")
    if len(token) < MIN_ADMIN_TOKEN:
        raise CommandFailed(
            f"the admin token in {path} is shorter than {MIN_ADMIN_TOKEN} characters; make "
            "one with: python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
        )
    return token


def announce(public: str | None, host: str, port: int, out: TextIO) -> None:
    """Where the banker opens the console: the address other devices reach, with its QR code,
    or, when there is none, the address on this machine and why phones cannot use it."""
    if public is None:
        every = host in netaddr.EVERY_INTERFACE
        local = f"http://{netaddr.LOOPBACK if every else netaddr.url_host(host)}:{port}"
        why = (
            "this machine has no address on a local network."
            if every
            else "serve with --host 0.0.0.0 (as `make run` does) for the players' phones."
        )
        print(f"Open {local} in a browser on this machine; no phone can reach it:", file=out)
        print(why, file=out, flush=True)
        return
    print(f"Open {public} on the banker's device, or scan this QR code with it;", file=out)
    print("players scan their own codes on the console's Links page.", file=out)
    print(
        f"(A phone that cannot connect: let port {port} through this machine's firewall.)", file=out
    )
    if can_write(out, "\u2580\u2584\u2588"):  # the half and full blocks of a compact QR code
        segno.make(public, error="m").terminal(out=out, compact=True)
    out.flush()


def can_write(out: TextIO, text: str) -> bool:
    """Whether ``out``'s encoding has every character of ``text``."""
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def base_url(text: str) -> str:
    """An ``http(s)://host[:port]`` address, without a trailing slash."""
    parts = urlsplit(text.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise argparse.ArgumentTypeError(f"{text!r} is not an http(s)://host[:port] address")
    return f"{parts.scheme}://{parts.netloc}"
