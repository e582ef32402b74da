"""Audit answers (statement, replay, verify), and the exported log read back by an import.

An import obeys every limit creation does (API.md, "Server limits"): ``ImportSchema`` checks
the document's shape and its header as ``NewGameSchema`` checks a new game (the name, the
players' names and how many, and ``created`` an RFC 3339 UTC time); ``transaction_errors``
checks each transaction as ``POST .../transactions`` checked it (its request by its type's
schema, its memo, ``at`` and ``by``). It walks the whole log, so the API runs it with the
rebuild, off the request's event loop (``api.offload``). The rest (the rules, who may record a
type, the hash chain) is the ledger's to judge (``log_invalid`` with ``seq``).
"""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from schemas.answers import answer
from schemas.fields import (
    MAX_ID,
    RFC3339_UTC,
    TEXT_CONTROLS,
    StoredName,
    Text,
    Timestamp,
    code_point,
    ident,
    stored_names,
)
from schemas.games import MAX_PLAYERS
from schemas.transactions import TransactionSchema, request_errors


@answer()
class StatementItemSchema(Schema):
    """One posting of an account's statement, signed, with the balance after it."""

    seq = fields.Integer()
    type = fields.String()
    at = fields.String(metadata={"description": "RFC 3339 UTC"})
    amount = fields.Integer(metadata={"description": "signed: + into the account, - out of it"})
    counterparty = fields.String(metadata={"description": "the account on the other side"})
    memo = fields.String(allow_none=True)
    balance = fields.Integer(metadata={"description": "the account's balance after this item"})


@answer()
class StatementSchema(Schema):
    """An account's statement as ``GET .../accounts/{account}/statement`` answers it."""

    account = fields.String()
    items = fields.List(fields.Nested(StatementItemSchema))
    balance = fields.Integer()


@answer()
class ReplayStepSchema(Schema):
    """One step of a replay: a transaction, and every balance and net worth after it."""

    seq = fields.Integer()
    transaction = fields.Nested(TransactionSchema)
    balances = fields.Dict(keys=fields.String(), values=fields.Integer())
    net_worths = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "by player"}
    )


@answer()
class ReplaySchema(Schema):
    """The game played again as ``GET .../replay`` answers it: a step per transaction."""

    steps = fields.List(fields.Nested(ReplayStepSchema))


@answer("seq")
class VerificationSchema(Schema):
    """The hash chain checked again, as ``GET .../verify`` answers it."""

    ok = fields.Boolean()
    transactions = fields.Integer(metadata={"description": "how many hashes check out"})
    head = fields.String(metadata={"description": "the last good hash: note it to compare"})
    seq = fields.Integer(metadata={"description": "when not ok: the first transaction that fails"})


@answer()
class ExportedGameSchema(Schema):
    """An export's game header: what the game was created with, its rule set whole."""

    name = fields.String()
    ruleset = fields.Dict(metadata={"description": "the rule set's whole document"})
    options = fields.Dict()
    players = fields.List(fields.String(), metadata={"description": "names in seat order"})
    created = fields.String(metadata={"description": "RFC 3339 UTC"})


@answer()
class ExportSchema(Schema):
    """A game's whole log as ``GET .../export`` answers it: to keep, or to import elsewhere."""

    format = fields.String(metadata={"description": "tablebank-log/1"})
    game = fields.Nested(ExportedGameSchema)
    transactions = fields.List(fields.Nested(TransactionSchema))
    head = fields.String(metadata={"description": "the hash of the last transaction"})


def plain_texts(document: Any, path: str = "") -> None:
    """Refuse a rule-set document any of whose texts holds a control character (a newline
    aside), as the labels of a banker's own rule set are refused at creation."""
    if isinstance(document, str):
        found = TEXT_CONTROLS.search(document)
        if found is not None:
            message = "Must not contain control characters other than newline ({char})."
            raise ValidationError({path or "_schema": [message.format(char=code_point(found[0]))]})
    elif isinstance(document, dict):
        for key, value in document.items():
            plain_texts(key, path)
            plain_texts(value, f"{path}.{key}" if path else str(key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            plain_texts(value, f"{path}.{index}" if path else str(index))


class ImportedGameSchema(Schema):
    """An exported game's header, held to what ``NewGameSchema`` holds a new game to."""

    class Meta:
        unknown = RAISE

    name = StoredName(required=True)
    ruleset = fields.Dict(
        required=True,
        validate=plain_texts,
        metadata={"description": "the rule set's whole document"},
    )
    options = fields.Dict(required=True)
    players = stored_names(
        max_count=MAX_PLAYERS,
        required=True,
        metadata={
            "description": "names in seat order; no two the same ignoring case or alike to the eye"
        },
    )
    created = Timestamp(required=True)


class ImportedTransactionSchema(Schema):
    """One transaction of an exported log, held to what ``POST .../transactions`` held it to:
    its request and memo by its type's schema, when (``at``) and by whom (``by``, an id; whether
    that one may record the type is the ledger's to say). The other members (seq, postings,
    hash, ...) are the ledger's to judge against the rules and the chain."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True)
    at = Timestamp(required=True)
    by = ident(required=True)
    memo = Text(allow_none=True, validate=validate.Length(max=500))
    request = fields.Dict(required=True)

    @validates_schema
    def check_request(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The request as the API would have taken it (set-up types are the ledger's own)."""
        body = {**data["request"], "type": data["type"]}
        if data.get("memo") is not None:
            body["memo"] = data["memo"]
        errors = request_errors(body)
        if errors:
            raise ValidationError({"request": errors})


_IMPORTED_TRANSACTION = ImportedTransactionSchema()
# What the OpenAPI document says of one, as ``ImportedTransactionSchema`` checks it (the list
# is a list of dicts, checked one by one, so that the errors name the first at fault).
IMPORTED_TRANSACTION = {
    "required": ["type", "at", "by", "request"],
    "properties": {
        "type": {"type": "string"},
        "at": {"type": "string", "pattern": RFC3339_UTC, "description": "RFC 3339 UTC"},
        "by": {"type": "string", "minLength": 1, "maxLength": MAX_ID},
        "memo": {"type": ["string", "null"], "maxLength": 500},
        "request": {"type": "object"},
    },
}


def transaction_errors(transactions: list[Any]) -> dict[str, Any] | None:
    """The errors of the first transaction of an exported log that its recording would have
    refused, as marshmallow gives them (``{"transactions": {4: {"at": [...]}}}``); None if
    every one passes."""
    for index, txn in enumerate(transactions):
        errors = _IMPORTED_TRANSACTION.validate(txn)
        if errors:
            return {"transactions": {index: errors}}
    return None


class ImportSchema(Schema):
    """The body of ``POST /api/v1/games/import``: an exported log, its header and shape checked."""

    class Meta:
        unknown = RAISE

    # Said as the one value it takes; any other is refused by the log's own check (422
    # log_invalid "not a tablebank-log/1 document"), as before the document said it.
    format = fields.String(
        required=True, metadata={"description": "tablebank-log/1", "enum": ["tablebank-log/1"]}
    )
    game = fields.Nested(
        ImportedGameSchema,
        required=True,
        metadata={"description": "the exported game header, checked as a new game is"},
    )
    transactions = fields.List(
        fields.Dict(metadata=IMPORTED_TRANSACTION),
        required=True,
        metadata={
            "description": "every transaction as exported, with its hash; each checked as its "
            "recording was (its request by its type's schema, memo, `at` an RFC 3339 UTC time, "
            "`by` the banker or a player who may record that type) and against the rules"
        },
    )
    head = fields.String(
        required=True,
        metadata={"description": "the last hash: a log cut short does not end at it"},
    )


def import_errors(document: Any) -> dict[str, Any] | None:
    """What an import of ``document`` is refused for before the ledger sees it, as marshmallow
    says it (the header, the shape, then the first transaction at fault); None if nothing."""
    errors = ImportSchema().validate(document)
    if errors:
        return dict(errors)
    return transaction_errors(document["transactions"])
