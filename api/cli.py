"""The ``tablebank`` command: ``tablebank serve --host H --port P --db PATH``.

Serves the API through gunicorn (a production WSGI server), never Flask's development server.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from gunicorn.app.base import BaseApplication

from ledger.store import DEFAULT_DB


class _Server(BaseApplication):  # type: ignore[misc]
    """gunicorn running our app factory with options from the command line."""

    def __init__(self, options: dict[str, Any], db: str) -> None:
        self.options = options
        self.db = db
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from api import create_app

        return create_app({"TABLEBANK_DB": self.db})


def serve(args: argparse.Namespace) -> int:
    options = {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "worker_class": "gthread",
        "threads": args.threads,
        "accesslog": "-",
        # The request line only: tokens travel in the Authorization header, never logged.
        "access_log_format": '%(h)s "%(r)s" %(s)s %(b)s %(M)sms',
        "errorlog": "-",
        "graceful_timeout": 5,
        "timeout": 30,
    }
    print(f"tablebank: serving http://{args.host}:{args.port} with {args.db}", flush=True)
    _Server(options, args.db).run()
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="tablebank", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="serve the API and console")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument(
        "--db",
        default=os.environ.get("TABLEBANK_DB", DEFAULT_DB),
        help=f"SQLite file (default {DEFAULT_DB})",
    )
    s.add_argument("--workers", type=int, default=1, help="worker processes")
    s.add_argument("--threads", type=int, default=4, help="threads per worker")
    s.set_defaults(func=serve)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
