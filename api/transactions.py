"""A game's transactions: record one, list them, read one (a token of that game)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any
from uuid import UUID

from flask import url_for
from flask.views import MethodView
from marshmallow import RAISE

from api.auth import current_role
from api.bank import tablebank
from api.blueprints import one_game
from api.etags import etag, write_conditions
from api.heavy import heavy
from api.metrics import metrics
from api.queries import transaction_page
from ledger.views import version_after
from schemas.fields import MAX_SEQ
from schemas.transactions import (
    TransactionPageSchema,
    TransactionQuerySchema,
    TransactionRequestSchema,
    TransactionSchema,
    WriteHeadersSchema,
    WriteQuerySchema,
)

transactions_blp = one_game(
    "transactions", __name__, "A game's log; needs a bearer token of that game.", "/transactions"
)


@transactions_blp.route("")
class Transactions(MethodView):
    """A game's log: record a transaction, or list them (``/transactions``)."""

    @transactions_blp.arguments(WriteQuerySchema, location="query", unknown=RAISE)
    @transactions_blp.arguments(WriteHeadersSchema, location="headers")
    @transactions_blp.arguments(TransactionRequestSchema)
    @transactions_blp.response(201, TransactionSchema)
    @transactions_blp.alt_response(200, schema=TransactionSchema, description="a dry run")
    @transactions_blp.doc(operationId="record_transaction")
    def post(
        self, query: dict[str, Any], headers: dict[str, str], body: dict[str, Any], game: UUID
    ) -> Any:
        """Record one transaction: the rules compute every amount and refuse what they forbid.

        With ``?dry_run=true``: what it would record now, with 200, and nothing recorded; an
        Idempotency-Key already recorded answers as the real repeat would."""
        bank = tablebank()
        txn, replayed = bank.record_request(
            game, body, current_role(), dry_run=query["dry_run"], **write_conditions(headers)
        )
        if query["dry_run"] and not replayed:
            return txn, 200
        if not replayed:
            metrics().transaction(txn["type"])
        return txn, recorded_headers(game, txn["seq"], txn["hash"], replayed=replayed)

    @transactions_blp.read(TransactionPageSchema, "list_transactions", TransactionQuerySchema)
    def get(self, query: dict[str, Any], game: UUID) -> Any:
        """The transactions in seq order, filtered, a page at a time."""
        after = query.get("after") or 0
        if not any(query.get(name) is not None for name in ("account", "kind", "deed")):
            # A page of the log as it is: that page read, and one more to say if there is more.
            page = tablebank().transactions(game, after, query["limit"] + 1)
            return transaction_page(page, **query)
        return heavy(game, lambda: filtered_page(game, after, query))


def filtered_page(game: UUID, after: int, query: dict[str, Any]) -> Callable[[], Any]:
    """A filtered page reads the log from ``after`` on until the page is full: the store now,
    the filter by the job returned (``api.heavy``)."""
    return partial(page_of, tablebank().transactions_job(game, after), query)


def page_of(transactions: Callable[[], Iterable[Any]], query: dict[str, Any]) -> dict[str, Any]:
    """A page of the transactions ``transactions()`` gives (a job: touches no store)."""
    return transaction_page(transactions(), **query)


def recorded_headers(game: UUID, seq: int, head: str, *, replayed: bool) -> dict[str, str]:
    """Where the recorded transaction lives; whether this answer is a stored one."""
    headers = {"Location": url_for(".Transaction", game=game, seq=seq)}
    # The game's version right after this transaction, not after whatever came since.
    headers.update(etag(version_after(head)))
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return headers


@transactions_blp.route(f"/<int(max={MAX_SEQ}):seq>")
class Transaction(MethodView):
    """One transaction of a game, by its seq (``/transactions/<seq>``)."""

    @transactions_blp.response(200, TransactionSchema)
    @transactions_blp.doc(operationId="get_transaction")
    def get(self, game: UUID, seq: int) -> Any:
        """One transaction by its seq."""
        return tablebank().transaction(game, seq)
