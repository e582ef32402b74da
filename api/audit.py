"""Audit: a statement, the replay, the hash chain checked, and the log exported or imported.

Reads of one game need a token of that game; an import needs none and may carry a body of up
to ``MAX_IMPORT_LENGTH`` (32 MiB) where every other request stops at ``MAX_CONTENT_LENGTH``.
An import holds an import slot from the moment its body has arrived to its answer, and its
checks of every transaction and its rebuild run off the event loop (``api.offload``). A refused
import writes one line to the log, what was refused and why (``log_a_refusal``); a defect's
traceback is logged as any other (``api.errors``).
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from flask import Response, current_app, g, request
from flask.views import MethodView

from api.bank import tablebank
from api.blueprints import creates_a_game, new_games, one_game
from api.errors import invalid_body
from api.games import created_headers
from api.heavy import heavy
from api.intake import read_whole_body
from api.limits import spend_import_budget
from api.offload import cpu_pool
from ledger.application import TableBank
from ledger.exchange import RebuiltGame
from schemas.audit import (
    ExportSchema,
    ImportSchema,
    ReplaySchema,
    StatementSchema,
    VerificationSchema,
    transaction_errors,
)

audit_blp = one_game("audit", __name__, "Audit one game; needs a bearer token of that game.")

# An address over its limit of new games is refused before a body of up to 32 MiB is read
# (``new_games``); so is one over its budget of bytes an hour.
import_blp = new_games("import", __name__, "A new game from an exported log (no token).", "/import")
import_blp.before_request(spend_import_budget)

# How many of a refused import's bad fields its log line names, and how much of each: a forged
# log may have thousands, and the client's answer has them all.
LOGGED_FIELDS = 3
LOGGED_TEXT = 200
# What would break the log's one line (or colour a terminal): control characters and the
# Unicode line and paragraph separators, which a field's name in a forged log may hold.
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@import_blp.before_request
def allow_a_whole_log() -> None:
    """An exported log may be far longer than any other body."""
    request.max_content_length = current_app.config["MAX_IMPORT_LENGTH"]


@import_blp.before_request
def hold_an_import_slot() -> None:
    """Read the whole body (a slow sender holds no slot), then wait for an import slot."""
    if request.method == "POST":
        read_whole_body()
        g.import_slot = cpu_pool().hold()


@import_blp.teardown_request
def free_the_import_slot(_error: BaseException | None) -> None:
    """Give the slot back, however the import ended."""
    if g.pop("import_slot", False):
        cpu_pool().let_go()


@import_blp.after_request
def log_a_refusal(response: Response) -> Response:
    """A refused import (a 4xx) writes one line to the log, never a traceback."""
    if request.method == "POST" and 400 <= response.status_code < 500:
        current_app.logger.warning("import refused: %s", refusal(response))
    return response


def refusal(response: Response) -> str:
    """What a refused import's answer says, on one line: its status and code, then its bad
    fields (the first ``LOGGED_FIELDS``) or its detail."""
    answer = response.get_json(silent=True)
    answer = answer if isinstance(answer, dict) else {}
    line = f"{response.status_code} {answer.get('code', '-')}: "
    errors = answer.get("errors")
    if isinstance(errors, dict) and errors:
        named = [
            f"{printable(str(at))}: {printable(' '.join(map(str, why)))}"
            for at, why in list(errors.items())[:LOGGED_FIELDS]
        ]
        more = len(errors) - len(named)
        line += "; ".join(named) + (f" (and {more} more)" if more else "")
    else:
        line += printable(str(answer.get("detail", "")))
    return line


def printable(text: str) -> str:
    """A text cut to ``LOGGED_TEXT`` characters, its control characters escaped."""
    cut = text[:LOGGED_TEXT] + ("\u2026" if len(text) > LOGGED_TEXT else "")
    return UNPRINTABLE.sub(lambda found: repr(found.group())[1:-1], cut)


@audit_blp.route("/accounts/<account>/statement")
class Statement(MethodView):
    """One account's statement in a game (``/accounts/<account>/statement``)."""

    @audit_blp.read(StatementSchema, "get_statement")
    def get(self, _query: dict[str, Any], game: UUID, account: str) -> Any:
        """Every posting into or out of one account, signed, with the running balance."""
        return heavy(game, lambda: tablebank().statement_job(game, account))


@audit_blp.route("/replay")
class Replay(MethodView):
    """A game's replay, a step per transaction (``/replay``)."""

    @audit_blp.read(ReplaySchema, "replay_game")
    def get(self, _query: dict[str, Any], game: UUID) -> Any:
        """One step per transaction, with every balance and net worth after it."""
        return heavy(game, lambda: tablebank().replay_job(game))


@audit_blp.route("/verify")
class Verify(MethodView):
    """The check of a game's hash chain (``/verify``)."""

    @audit_blp.read(VerificationSchema, "verify_game")
    def get(self, _query: dict[str, Any], game: UUID) -> Any:
        """Recompute the hash chain; ``head`` is the hash to note and compare later."""
        return heavy(game, lambda: tablebank().verify_job(game))


@audit_blp.route("/export")
class Export(MethodView):
    """A game's whole log, to keep or to import elsewhere (``/export``)."""

    @audit_blp.read(ExportSchema, "export_game")
    def get(self, _query: dict[str, Any], game: UUID) -> Any:
        """The whole log with each transaction's hash, to keep or import elsewhere; no tokens."""
        return heavy(game, lambda: tablebank().export_job(game))


@import_blp.route("")
class Import(MethodView):
    """A new game from an exported log (``/api/v1/games/import``)."""

    @creates_a_game(import_blp, ImportSchema, "import_game", {413: "A body over 32 MiB."})
    def post(self, document: dict[str, Any], _query: dict[str, Any]) -> Any:
        """A new game from an exported log, every transaction checked again; new tokens."""
        rebuilt = cpu_pool().run(checked_rebuild, tablebank(), document)
        created = tablebank().save_import(rebuilt)
        return created, created_headers(created)


FREED_AT_ONCE = 1000  # transactions of an imported log


def checked_rebuild(bank: TableBank, document: dict[str, Any]) -> RebuiltGame:
    """Every transaction checked as its recording was, then the log played again: an import's
    CPU work, which touches no store and needs no request (it may run on another thread).

    The document is emptied here once done with, its transactions ``FREED_AT_ONCE`` at a
    time: its millions of objects are freed on the thread that runs this, not in the event loop
    when the request ends, and a few at a time, each time letting the loop have the GIL
    (freeing 75,000 transactions at once is one call of 70 ms that never lets it go)."""
    transactions = document["transactions"]
    try:
        errors = transaction_errors(transactions)
        if errors is not None:
            raise invalid_body(errors)
        return bank.rebuild_import(document)
    finally:
        document.clear()
        while transactions:
            del transactions[-FREED_AT_ONCE:]
