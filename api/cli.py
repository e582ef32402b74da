"""The ``tablebank`` command.

- ``tablebank serve --host H --port P --db PATH``: the API, through gunicorn (a production WSGI
  server), never Flask's development server. It prints the address the banker's device opens,
  with its QR code, and tells the console that address for the players' links. On the
  internet (docs/deploy.md): ``--games-per-minute N`` per client address (30; 0 for no limit),
  ``--proxy-hops N`` proxies to trust for that address, ``--admin-token-file F`` to keep the
  list of games to one token, ``--import-slots N`` imports at once per worker (each checked
  off the event loop, ``api.offload``); it refuses a SQLite database that group or others can
  read or write, unless ``--allow-shared-db``.
- ``tablebank export GAME_ID --db PATH``: a game's whole log as JSON on stdout.
- ``tablebank import FILE --db PATH``: a new game from an exported log, held to the limits
  ``POST /api/v1/games/import`` holds it to; prints its id and tokens.
- ``tablebank verify FILE``: checks an exported log offline; exit status 0 if it holds, 1 if not.
- ``tablebank replay FILE [--last N]``: every balance and net worth after each transaction.
- ``tablebank backup FILE --db PATH``: a consistent copy of a live SQLite store (mode 0600),
  every game in it verified; ``tablebank restore FILE --db PATH`` puts one in place of a store
  no server has open, keeping the one it replaces beside it.
- ``tablebank purge --finished-before DATE --export-to DIR --db PATH``: each finished game the
  store last wrote before DATE (UTC midnight) exported to ``DIR/<id>.tablebank.json``, the file
  read back and verified as an import checks it, and only then the game removed from the store
  (``ledger.purge``); never an active game, never over a file that differs. SQLite's file is
  then made smaller (``VACUUM``).
- ``tablebank --version``: the release, as ``GET /api/v1/version`` says it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import logging.config
import os
import re
import shutil
import sqlite3
import stat
import sys
import tempfile
import time
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import segno
from eventsourcing.persistence import PersistenceError
from gunicorn import glogging
from gunicorn.app.base import BaseApplication
from rich.console import Console, Group
from rich.progress import Progress, TaskID
from rich.table import Table
from rich.text import Text

from api import heavy, netaddr
from api.errors import field_errors
from api.intake import BODIES_PER_ADDRESS
from api.limits import STREAMS_PER_ADDRESS
from api.logs import ACCESS_LOG, RequestFields
from api.metrics import METRICS_DIR, MULTIPROCESS_ENV
from api.offload import DEFAULT_SLOTS
from api.version import VERSION
from ledger.application import TableBank
from ledger.errors import LedgerError, LogInvalid
from ledger.exchange import replay_document, verify_document
from ledger.purge import GameChanged, Purgeable
from ledger.ruleset import BUILT_IN, built_in
from ledger.skeletons import skeleton
from ledger.store import (
    DEFAULT_DB,
    STORE_SECONDS,
    NewerStore,
    create_private,
    is_postgres,
    persistence_env,
    redact,
    shared_access,
    store_unavailable,
)
from schemas.audit import import_errors

DEFAULT_GAMES_PER_MINUTE = 30
DEFAULT_IMPORT_MIB_PER_HOUR = 64
MIN_ADMIN_TOKEN = 16  # characters: far more than anyone could guess
# A query string in a log message: from the "?" to the next space or quote.
# Method, path and protocol, never the query string (nor any header).
ACCESS_LOG_FORMAT = '%(h)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms'
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


class CommandFailed(Exception):
    """A command that cannot do its work: the message goes to stderr, the exit status is 1."""


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


def export(args: argparse.Namespace) -> int:
    """``tablebank export``: a game's whole log as JSON on stdout."""
    if not is_postgres(args.db) and not Path(args.db).is_file():
        raise CommandFailed(f"no database at {redact(args.db)}")
    with TableBank(env=persistence_env(args.db)) as bank:
        document = bank.export(args.game)
    print(json.dumps(document, indent=2))
    return 0


def import_(args: argparse.Namespace) -> int:
    """``tablebank import``: a new game from an exported log, checked as the API checks one;
    prints its id, head and tokens."""
    document = read_log(args.file)
    check_importable(args.file, document)
    with TableBank(env=persistence_env(args.db)) as bank:
        created = bank.import_game(document)
    names = [player["name"] for player in created["players"]]
    print(f"game: {created['id']}")
    print(f"head: {created['head']}")
    print(f"banker token: {created['banker_token']}")
    for (player, token), name in zip(created["tokens"].items(), names, strict=True):
        print(f"{player} ({name}) token: {token}")
    print("The tokens are shown only this once: hand them out now.", file=sys.stderr)
    return 0


def check_importable(path: str | Path, document: Any) -> None:
    """CommandFailed with what ``POST /api/v1/games/import`` would refuse a document for
    (``validation_error``) before the ledger sees it, if anything."""
    errors = import_errors(document)
    if errors is not None:
        found = "; ".join(f"{at}: {' '.join(why)}" for at, why in field_errors(errors).items())
        raise CommandFailed(f"{path} cannot be imported: {found}")


def purge(args: argparse.Namespace) -> int:
    """Each finished game last written before the day exported, verified, then removed, and
    the rows of each import never finished before it: a line for each, then the totals; exit
    status 1 if any game was kept for a fault."""
    if not is_postgres(args.db) and not Path(args.db).is_file():
        raise CommandFailed(f"no database at {redact(args.db)}")
    folder = Path(args.export_to)
    if not folder.is_dir():
        raise CommandFailed(f"no folder {folder}: create it (mode 0700) first")
    purged = kept = unfinished = 0
    with TableBank(env=persistence_env(args.db)) as bank:
        for game in bank.purgeable(args.finished_before):
            try:
                path = exported_verified(bank, game, folder)
                bank.purge(game)
            except (CommandFailed, GameChanged, LedgerError) as why:
                detail = why.detail if isinstance(why, LedgerError) else str(why)
                print(f"kept {game.id}: {detail}", file=sys.stderr, flush=True)
                kept += 1
                continue
            purged += 1
            print(
                f"purged {game.id}: exported to {path} ({game.transactions} transactions, "
                "verified)",
                flush=True,
            )
        # Imports a server stopped in the middle of: their rows, never a game anybody saw.
        for game in bank.unfinished_imports(args.finished_before):
            try:
                bank.remove_unfinished(game)
            except GameChanged as why:  # written to since it was read: under way after all
                print(f"kept {game.id}: {why}", file=sys.stderr, flush=True)
                continue
            unfinished += 1
            print(
                f"removed {game.id}: an import never finished ({game.transactions} "
                f"transactions saved on {game.last_written:%Y-%m-%d})",
                flush=True,
            )
    smaller = ""
    if (purged or unfinished) and not args.no_vacuum and not is_postgres(args.db):
        smaller = vacuum(Path(args.db))
    fault = f", {kept} kept for the faults above" if kept else ""
    games = "1 game" if purged == 1 else f"{purged} games"
    imports = ""
    if unfinished:
        imports = f", {unfinished} unfinished import{'s' if unfinished > 1 else ''} removed"
    print(f"purge: {games} purged{imports}{fault}{smaller}", flush=True)
    return 1 if kept else 0


def exported_verified(bank: TableBank, game: Purgeable, folder: Path) -> Path:
    """The game's export in ``folder`` (written now, or there already with the same log),
    read back and checked as an import checks it, and found to hold the store's transactions
    and head; CommandFailed if it does not, or if a different file has its name."""
    document = bank.export(game.id)
    target = folder / f"{game.id}.tablebank.json"
    if target.exists():
        try:
            same = json.loads(target.read_bytes()) == document
        except (OSError, ValueError):
            same = False
        if not same:
            raise CommandFailed(f"{target} exists and differs from the stored game; move it away")
    else:
        write_new(target, (json.dumps(document, indent=2) + "\n").encode())
    written = read_log(str(target))
    check_importable(target, written)
    result = verify_document(written)
    if not result["ok"]:
        raise CommandFailed(f"{target} does not verify at seq {result['seq']}: {result['detail']}")
    if (result["transactions"], result["head"]) != (game.transactions, game.head):
        raise CommandFailed(f"{target} does not hold the stored game's last transaction")
    return target


def write_new(target: Path, data: bytes) -> None:
    """``data`` as a new file (mode 0600) on the disk whole, or nothing: written under a
    temporary name, fsynced, then linked to its name (never over a file that took it
    meanwhile), and the folder fsynced."""
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.link(temporary, target)
    except FileExistsError:
        raise CommandFailed(f"{target} appeared meanwhile; it is never overwritten") from None
    finally:
        os.unlink(temporary)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def vacuum(db: Path) -> str:
    """SQLite's file rebuilt without the pages the purged games held (``VACUUM``: a write
    that holds the store for the time of a copy of it; a server's writes wait meanwhile),
    and its WAL emptied; what that did, for the total line."""
    before = store_bytes(db)
    started = time.monotonic()
    try:
        with closing(sqlite3.connect(db, timeout=10, isolation_level=None)) as connection:
            connection.execute("VACUUM")
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as error:
        print(f"tablebank: the store was not made smaller: {error}", file=sys.stderr)
        return ""
    took = time.monotonic() - started
    return f"; the store {before:,} → {store_bytes(db):,} bytes (VACUUM {took:.1f} s)"


def store_bytes(db: Path) -> int:
    """A SQLite store's size on disk, its WAL included."""
    return sum(path.stat().st_size for path in (db, *companions(db)) if path.exists())


def finished_before(text: str) -> datetime:
    """``YYYY-MM-DD``: the midnight (UTC) that starts that day."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give it as YYYY-MM-DD (UTC)")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no day of the calendar") from None
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def backup(args: argparse.Namespace) -> int:
    """A consistent copy of a live SQLite store (SQLite's online backup: the pages of one
    moment, while the server goes on writing), readable by its owner alone, then every game in
    the copy verified; the copy is removed if one does not hold."""
    source = sqlite_store(args.db, "pg_dump")
    target = Path(args.file)
    if target.exists():
        raise CommandFailed(f"{target} exists: a backup never overwrites a file")
    create_private(target)
    try:
        sqlite_copy(Path(source), target)
        games = verified_games(target)
        with closing(sqlite3.connect(target)) as copy:
            # One file to keep: the check's WAL folded into it, and none kept beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
    except BaseException:
        for path in (target, *companions(target)):
            path.unlink(missing_ok=True)
        raise
    print(f"backup: {target}, {games} games, each verified")
    return 0


def restore(args: argparse.Namespace) -> int:
    """A backup put in place of a store that no server has open: the backup verified first,
    the store it replaces kept beside it (``<db>.replaced-<time>``), never one in use."""
    target = Path(sqlite_store(args.db, "pg_restore", must_exist=False))
    source = Path(args.file)
    if not source.is_file():
        raise CommandFailed(f"no backup at {source}")
    with held_alone(target):
        pass  # refused now, before any work, if a server has it open (and again below)
    with tempfile.TemporaryDirectory(prefix="tablebank-restore-") as checked:
        copy = Path(checked) / "check.sqlite"  # checked on a copy: the backup stays as it was
        shutil.copyfile(source, copy)
        games = verified_games(copy)
    fresh = target.with_name(target.name + ".restoring")
    fresh.unlink(missing_ok=True)
    create_private(fresh)
    sqlite_copy(source, fresh)
    with held_alone(target) as replaced:
        if replaced is not None:  # moved aside whole, its WAL (emptied into it) too
            for path, kept in zip(companions(target), companions(replaced), strict=True):
                if path.exists():
                    path.rename(kept)
            target.rename(replaced)
        fresh.replace(target)
    aside = f"; the store it replaced is {replaced}" if replaced is not None else ""
    print(f"restore: {target} holds the {games} games of {source}{aside}")
    return 0


def sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target``: its pages as of one moment,
    read while other connections go on writing."""
    with (
        closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as live,
        closing(sqlite3.connect(target)) as copy,
    ):
        live.backup(copy)


def sqlite_store(db: str, instead: str, must_exist: bool = True) -> str:
    """``--db`` for a backup or a restore: a SQLite file (there already, if ``must_exist``);
    CommandFailed for a PostgreSQL store, which ``instead`` backs up or restores."""
    if is_postgres(db):
        raise CommandFailed(
            f"a PostgreSQL store is backed up with {instead} (docs/deploy.md, Backups)"
        )
    if must_exist and not Path(db).is_file():
        raise CommandFailed(f"no database at {db}")
    return db


def companions(path: Path) -> list[Path]:
    """The files SQLite keeps beside a database in WAL mode."""
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def verified_games(path: Path) -> int:
    """How many games a store holds, each one's hash chain verified (else CommandFailed)."""
    with TableBank(env=persistence_env(str(path))) as bank:
        games = bank.list_games()
        for game in games:
            result = bank.verify(game["id"])
            if not result["ok"]:
                raise CommandFailed(
                    f"game {game['id']} does not verify at seq {result['seq']}: "
                    "this backup is not one to keep"
                )
    return len(games)


@contextlib.contextmanager
def held_alone(db: Path) -> Iterator[Path | None]:
    """The store held so that no server can open it meanwhile (SQLite's exclusive locking in
    WAL mode, which a server's open connection refuses), and the name to keep it under; None
    where there is no store yet. CommandFailed if a server has it open."""
    if not db.exists():
        yield None
        return
    with closing(sqlite3.connect(db, timeout=0)) as alone:
        try:
            alone.execute("PRAGMA locking_mode=EXCLUSIVE")
            alone.execute("BEGIN EXCLUSIVE")
            alone.execute("COMMIT")  # the lock stays, in exclusive locking mode
            busy, _, _ = alone.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.OperationalError:
            busy = 1
        if busy:
            raise CommandFailed(f"{db} is in use: stop the server that has it open, then restore")
        yield db.with_name(f"{db.name}.replaced-{time.strftime('%Y%m%dT%H%M%S')}")


def verify(args: argparse.Namespace) -> int:
    """``tablebank verify``: an exported log checked offline; exit status 0 if it holds, else 1."""
    result = verify_document(read_log(args.file))
    if not result["ok"]:
        print(f"invalid at seq {result['seq']}: {result['detail']}")
        return 1
    print(f"ok: {result['transactions']} transactions, head {result['head']}")
    return 0


def replay(args: argparse.Namespace) -> int:
    """``tablebank replay``: every balance and net worth after each transaction of a log (the last
    ``--last`` steps), with progress bars on a terminal; exit status 1 for an invalid log."""
    err = Console(stderr=True)
    bars = Progress(console=err, transient=True, redirect_stdout=False, disable=not err.is_terminal)
    with bars as progress:
        try:
            with progress.open(args.file, "rb", description="Reading") as file:
                document = parse_log(args.file, file.read())
        except OSError as error:
            raise CommandFailed(f"cannot read {args.file}: {error.strerror}") from None
        transactions = document.get("transactions") if isinstance(document, dict) else None
        if isinstance(transactions, list):
            checking = progress.add_task("Checking", total=len(transactions))
            document["transactions"] = CountedLog(transactions, progress, checking)
        try:
            steps = replay_document(document)
        except LogInvalid as error:
            print(f"invalid at seq {error.extra['seq']}: {error.detail}")
            return 1
        total = len(document["transactions"])
        kept = deque(progress.track(steps, total, description="Replaying"), maxlen=args.last)
    # Players are p1, p2, ... in the order the header names them.
    names = {f"p{seat}": name for seat, name in enumerate(document["game"]["players"], 1)}
    out = Console()
    for step in kept:
        out.print(step_table(step, names))
    return 0


class CountedLog(list[dict[str, Any]]):
    """A log's transactions that move a progress bar as a reader goes through them in order:
    the check of a long log reads each transaction once and takes most of the time."""

    def __init__(self, items: list[dict[str, Any]], progress: Progress, task: TaskID) -> None:
        super().__init__(items)
        self.progress = progress
        self.task = task
        self.furthest = 0

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for count, txn in enumerate(super().__iter__(), start=1):
            yield txn
            if count > self.furthest:  # a second reader does not move the bar back
                self.furthest = count
                self.progress.update(self.task, completed=count)


def step_table(step: dict[str, Any], names: dict[str, str]) -> Group:
    """One replay step: what happened, then every balance and each player's net worth."""
    txn = step["transaction"]
    heading = Text(f"seq {step['seq']} · {txn['type']}", style="bold")
    if txn.get("memo"):
        heading.append(f" · {txn['memo']}", style="not bold")
    if txn.get("voided_by") is not None:
        heading.append(f" (voided by {txn['voided_by']})", style="not bold")
    table = Table()
    table.add_column("account")
    table.add_column("balance", justify="right")
    table.add_column("net worth", justify="right")
    for account, balance in step["balances"].items():
        label = f"{account} {names[account]}" if account in names else account
        worth = step["net_worths"].get(account)
        table.add_row(Text(label), str(balance), "" if worth is None else str(worth))
    return Group(heading, table)


def read_log(path: str) -> Any:
    """An exported log read from a file ("-" for stdin)."""
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise CommandFailed(f"cannot read {path}: {error.strerror}") from None
    return parse_log(path, raw)


def parse_log(path: str, raw: bytes) -> Any:
    """An exported log's bytes read as JSON; CommandFailed naming ``path`` if they are not JSON."""
    try:
        return json.loads(raw)
    except ValueError as error:
        raise CommandFailed(f"{path} is not JSON: {error}") from None


def add_db_option(command: argparse.ArgumentParser) -> None:
    """A command's ``--db``: a SQLite file or a ``postgresql://`` URL (``$TABLEBANK_DB``)."""
    command.add_argument(
        "--db",
        default=os.environ.get("TABLEBANK_DB", DEFAULT_DB),
        help=f"SQLite file or postgresql:// URL (default: $TABLEBANK_DB or {DEFAULT_DB})",
    )


# What an environment variable may say for an option that is on or off.
ON, OFF = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


def environment_name(action: argparse.Action) -> str:
    """``--games-per-minute`` → ``TABLEBANK_GAMES_PER_MINUTE``."""
    long = max(action.option_strings, key=len)
    return "TABLEBANK_" + long.lstrip("-").upper().replace("-", "_")


def from_environment(command: argparse.ArgumentParser) -> None:
    """Every option of ``command`` may be set by an environment variable, ``TABLEBANK_<OPTION>``
    (a container's or a systemd unit's configuration); the option on the command line wins. A
    value is read as the option's would be (argparse converts a string default by the option's
    type, and a bad one is refused naming the variable); an empty one is as good as none; an
    on-off option takes 1/0, true/false, yes/no or on/off; a required option set so need not be
    given again."""
    for action in command._actions:
        if not action.option_strings or action.dest in ("help", "threads"):
            continue
        name = environment_name(action)
        if action.help is not argparse.SUPPRESS and name not in (action.help or ""):
            action.help = f"{action.help or ''} [${name}]".strip()
        given = os.environ.get(name)
        if isinstance(action, argparse._StoreTrueAction) and given is not None:
            word = given.strip().lower()
            if word not in ON | OFF:
                command.error(f"${name} must be one of 1, 0, true, false, yes, no, on, off")
            action.default = word in ON
        elif given:  # an empty one is as good as none
            try:
                if callable(action.type):
                    action.type(given)
            except (argparse.ArgumentTypeError, ValueError, TypeError) as error:
                command.error(f"${name}={given!r}: {error or 'not a valid value'}")
            action.default = given
            action.required = False  # given, by its variable


def serve_parser() -> argparse.ArgumentParser:
    """``tablebank serve``'s own parser: its options, each with its environment variable."""
    (found,) = (
        choice
        for action in parser()._actions
        if isinstance(action, argparse._SubParsersAction)
        for name, choice in action.choices.items()
        if name == "serve"
    )
    return found


def parser() -> argparse.ArgumentParser:
    """The command line: ``serve`` and the admin's and the offline commands."""
    top = argparse.ArgumentParser(
        prog="tablebank", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    top.add_argument("--version", action="version", version=f"tablebank {VERSION}")
    sub = top.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="serve the API and console")
    add_network_options(s)
    add_db_option(s)
    add_limit_options(s)
    add_serving_options(s)
    from_environment(s)
    s.set_defaults(func=serve)
    add_store_commands(sub)
    add_purge_command(sub)
    v = sub.add_parser("verify", help="check an exported log offline (exit status 1 if bad)")
    v.add_argument("file", metavar="FILE", help='an exported log ("-" for stdin)')
    v.set_defaults(func=verify)
    r = sub.add_parser("replay", help="every balance and net worth after each transaction")
    r.add_argument("file", metavar="FILE", help="an exported log")
    r.add_argument("--last", type=positive, metavar="N", help="only the last N steps")
    r.set_defaults(func=replay)
    return top


def add_network_options(s: argparse.ArgumentParser) -> None:
    """``serve``'s address, the players' address, its processes and connections."""
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument(
        "--public-url",
        type=base_url,
        default=os.environ.get("TABLEBANK_PUBLIC_URL") or None,
        metavar="URL",
        help="the address the players' phones open, e.g. behind a proxy (default: "
        "$TABLEBANK_PUBLIC_URL, else this machine's network address when --host is 0.0.0.0)",
    )
    s.add_argument("--workers", type=int, default=1, help="worker processes")
    s.add_argument(
        "--proxy-hops",
        type=not_negative,
        default=0,
        metavar="N",
        help="proxies in front of the server whose X-Forwarded-For gives the client's address "
        "(default: 0, the address that connects is the client's)",
    )
    s.add_argument(
        "--connections", type=int, default=1000, help="open connections per worker at most"
    )
    # Before the server took a greenlet per connection it took a thread from a pool of this
    # size; the option is still accepted so that scripts written for it keep working.
    s.add_argument("--threads", type=int, default=None, help=argparse.SUPPRESS)


def add_limit_options(s: argparse.ArgumentParser) -> None:
    """What one client address may cost ``serve``, and the slots of its heavy work."""
    for flag, kind, default, words in (
        (
            "--games-per-minute",
            not_negative,
            DEFAULT_GAMES_PER_MINUTE,
            "games one client "
            "address may create or import a minute, in each worker process (default: {}; 0: no "
            "limit)",
        ),
        (
            "--import-mib-per-hour",
            not_negative,
            DEFAULT_IMPORT_MIB_PER_HOUR,
            "MiB of exported "
            "logs one client address may import an hour, in each worker process (default: {}, two "
            "of the largest; 0: no limit)",
        ),
        (
            "--import-slots",
            positive,
            DEFAULT_SLOTS,
            "imports a worker process checks and saves "
            "at once, off its event loop; more wait for a slot (default: {})",
        ),
        (
            "--read-slots",
            positive,
            heavy.DEFAULT_SLOTS,
            "reads of whole long logs (replay, "
            "export, ...) a worker process computes at once, off its event loop; more wait for a "
            "slot (default: {})",
        ),
        (
            "--streams-per-address",
            positive,
            STREAMS_PER_ADDRESS,
            "event streams one client "
            "address may hold open at once (a club behind one NAT may need more; default: {})",
        ),
        (
            "--bodies-per-address",
            positive,
            BODIES_PER_ADDRESS,
            "requests' bodies one client "
            "address may be sending at once; one more is refused at once (a club behind one NAT "
            "may need more; default: {})",
        ),
    ):
        s.add_argument(flag, type=kind, default=default, metavar="N", help=words.format(default))
    cache_mib = heavy.CACHE_BYTES // (1024 * 1024)
    s.add_argument(
        "--read-cache-mib",
        type=not_negative,
        default=cache_mib,
        metavar="MIB",
        help="the answers of those reads a worker process keeps, by the game's version "
        f"(0: none; default: {cache_mib})",
    )


def add_serving_options(s: argparse.ArgumentParser) -> None:
    """``serve``'s admin token, pocket bundle, store's permissions and log lines."""
    s.add_argument(
        "--admin-token-file",
        metavar="FILE",
        help="a file (mode 0600) holding a token on one line: GET /api/v1/games then answers "
        "only to that bearer token",
    )
    s.add_argument(
        "--pocket-dir",
        metavar="DIR",
        help="the pocket bundle served at /pocket/ (default: dist/pocket of the checkout, "
        "once `make pocket` built it)",
    )
    s.add_argument(
        "--allow-shared-db",
        action="store_true",
        help="serve a SQLite database that group or others can read or write",
    )
    s.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="text (default; with the address's QR code), or json: one JSON object a line "
        "(time, level, event, request_id, method, route, status, duration_ms, game)",
    )


def add_store_commands(sub: Any) -> None:
    """``export``, ``import``, ``backup`` and ``restore``: one game or a whole store."""
    e = sub.add_parser("export", help="print a game's whole log as JSON")
    e.add_argument("game", metavar="GAME_ID")
    add_db_option(e)
    e.set_defaults(func=export)
    i = sub.add_parser("import", help="a new game from an exported log; prints its tokens once")
    i.add_argument("file", metavar="FILE", help='an exported log ("-" for stdin)')
    add_db_option(i)
    i.set_defaults(func=import_)
    b = sub.add_parser(
        "backup", help="a consistent copy of a live SQLite store (mode 0600), every game verified"
    )
    b.add_argument("file", metavar="FILE", help="the copy to write (never overwritten)")
    add_db_option(b)
    b.set_defaults(func=backup)
    rs = sub.add_parser(
        "restore", help="a backup in place of a SQLite store no server has open (kept aside)"
    )
    rs.add_argument("file", metavar="FILE", help="a copy `tablebank backup` wrote")
    add_db_option(rs)
    rs.set_defaults(func=restore)


def add_purge_command(sub: Any) -> None:
    """``purge``: the finished games of before a day, exported, verified, then removed."""
    pg = sub.add_parser(
        "purge",
        help="export, verify, then remove the finished games last written before a day",
        description="Each finished game the store last wrote before DATE (00:00 UTC) is "
        "exported to DIR/<id>.tablebank.json, the file read back and verified as an import "
        "checks it, and only then the game removed from the store: its transactions, tokens "
        "and line in the list of games. An active game is never touched; a file of that name "
        "that holds another log is never overwritten (the game is kept). One line per game, "
        "then the total; exit status 1 if any game was kept for a fault. Safe while a server "
        "runs on the store: it answers 404 for a purged game within a second.",
    )
    pg.add_argument(
        "--finished-before",
        type=finished_before,
        required=True,
        metavar="DATE",
        help="YYYY-MM-DD: games the store last wrote before 00:00 UTC of that day",
    )
    pg.add_argument(
        "--export-to",
        required=True,
        metavar="DIR",
        help="an existing folder for the exports (one file per game, mode 0600)",
    )
    add_db_option(pg)
    pg.add_argument(
        "--no-vacuum",
        action="store_true",
        help="leave a SQLite file its size (VACUUM makes it smaller, holding writes meanwhile)",
    )
    from_environment(pg)
    pg.set_defaults(func=purge)


def not_negative(text: str) -> int:
    """An option's whole number, 0 or more."""
    number = int(text)
    if number < 0:
        raise argparse.ArgumentTypeError(f"{text} is not 0 or more")
    return number


def positive(text: str) -> int:
    """An option's whole number, 1 or more."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return number


def main(argv: Sequence[str] | None = None) -> int:
    """The ``tablebank`` command; its exit status. A known fault is one line on stderr (status 1;
    2 for a store newer than this release), not a traceback."""
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except NewerStore as error:
        print(f"tablebank: {error}", file=sys.stderr)
        return 2
    except PersistenceError as error:
        if not store_unavailable(error):
            raise
        # PostgreSQL away when a command (or a server) starts: a sentence, not a traceback.
        print(f"tablebank: the store does not answer: {error}", file=sys.stderr)
        return 1
    except (CommandFailed, LedgerError) as error:
        detail = error.detail if isinstance(error, LedgerError) else str(error)
        seq = error.extra.get("seq") if isinstance(error, LedgerError) else None
        where = f" (seq {seq})" if seq is not None else ""
        print(f"tablebank: {detail}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
