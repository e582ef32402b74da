"""Audit answers (statement, replay, verify), and the exported log read back by an import.

An import's schema checks the document's outer shape only: the transactions themselves are
the ledger's to judge, against the rules and the hash chain (``log_invalid`` with ``seq``).
"""

from __future__ import annotations

from marshmallow import RAISE, Schema, fields

from schemas.transactions import TransactionSchema


class StatementItemSchema(Schema):
    seq = fields.Integer()
    type = fields.String()
    at = fields.String(metadata={"description": "RFC 3339 UTC"})
    amount = fields.Integer(metadata={"description": "signed: + into the account, - out of it"})
    counterparty = fields.String(metadata={"description": "the account on the other side"})
    memo = fields.String(allow_none=True)
    balance = fields.Integer(metadata={"description": "the account's balance after this item"})


class StatementSchema(Schema):
    account = fields.String()
    items = fields.List(fields.Nested(StatementItemSchema))
    balance = fields.Integer()


class ReplayStepSchema(Schema):
    seq = fields.Integer()
    transaction = fields.Nested(TransactionSchema)
    balances = fields.Dict(keys=fields.String(), values=fields.Integer())
    net_worths = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "by player"}
    )


class ReplaySchema(Schema):
    steps = fields.List(fields.Nested(ReplayStepSchema))


class VerificationSchema(Schema):
    ok = fields.Boolean()
    transactions = fields.Integer(metadata={"description": "how many hashes check out"})
    head = fields.String(metadata={"description": "the last good hash: note it to compare"})
    seq = fields.Integer(metadata={"description": "when not ok: the first transaction that fails"})


class ExportedGameSchema(Schema):
    name = fields.String()
    ruleset = fields.Dict(metadata={"description": "the rule set's whole document"})
    options = fields.Dict()
    players = fields.List(fields.String(), metadata={"description": "names in seat order"})
    created = fields.String(metadata={"description": "RFC 3339 UTC"})


class ExportSchema(Schema):
    format = fields.String(metadata={"description": "tablebank-log/1"})
    game = fields.Nested(ExportedGameSchema)
    transactions = fields.List(fields.Nested(TransactionSchema))
    head = fields.String(metadata={"description": "the hash of the last transaction"})


class ImportSchema(Schema):
    class Meta:
        unknown = RAISE

    format = fields.String(required=True, metadata={"description": "tablebank-log/1"})
    game = fields.Dict(required=True, metadata={"description": "the exported game header"})
    transactions = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "every transaction as exported, with its hash"},
    )
    head = fields.String(
        required=True,
        metadata={"description": "the last hash: a log cut short does not end at it"},
    )
