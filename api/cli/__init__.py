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

Here the command line (its parser, each option also read from ``TABLEBANK_*``) and ``main``;
``api.cli.serving`` serves, ``api.cli.keeping`` keeps games outside a server (export, import,
verify, replay, backup, restore, purge). Only ``tablebank`` imports this package: what it
needs (gunicorn, gevent, rich) the app, the ledger and the pocket bank never import.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import PersistenceError

from api import heavy
from api.cli.failed import CommandFailed
from api.cli.keeping import (
    backup,
    export,
    finished_before,
    import_,
    purge,
    replay,
    restore,
    verify,
)
from api.cli.serving import base_url, serve
from api.intake import BODIES_PER_ADDRESS
from api.limits import STREAMS_PER_ADDRESS
from api.offload import DEFAULT_SLOTS
from api.version import VERSION
from ledger.errors import LedgerError
from ledger.store import (
    DEFAULT_DB,
    NewerStore,
    store_unavailable,
)

DEFAULT_GAMES_PER_MINUTE = 30


DEFAULT_IMPORT_MIB_PER_HOUR = 64


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
