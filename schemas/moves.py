"""What a game can record now: ``GET /api/v1/games/{game}/moves`` (API.md v1.2, "What a game
can record now: moves"). The moves are the ledger's declarations (``ledger.moves``); these
schemas describe them for the OpenAPI document."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ledger.transactions import ORDERED, RECORDABLE
from ledger.transactions.form import KINDS
from schemas.answers import answer


@answer("choices", "min", "max", "description", "when", "fields_", "many")
class MoveFieldSchema(Schema):
    """One field of a move's body: its kind, whether it is required, what it may hold."""

    name = fields.String(metadata={"description": "the field's name in the request body"})
    kind = fields.String(validate=validate.OneOf(sorted(KINDS)))
    required = fields.Boolean()
    choices = fields.List(
        fields.String(),
        metadata={"description": "what it may hold: the game's players, accounts, deeds, ..."},
    )
    min = fields.Integer()
    max = fields.Integer(metadata={"description": "of a number, a text's length or a list's"})
    many = fields.Boolean(metadata={"description": "a list of such values"})
    description = fields.String()
    when = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "the field applies only when these fields have these values"},
    )
    fields_ = fields.List(
        fields.Nested(lambda: MoveFieldSchema()),
        data_key="fields",
        attribute="fields",
        metadata={"description": "a list's objects: their fields"},
    )


@answer()
class MoveSchema(Schema):
    """A transaction type the game accepts now: who may record it, and its fields."""

    type = fields.String(validate=validate.OneOf(sorted(RECORDABLE)))
    who = fields.List(
        fields.String(validate=validate.OneOf(["banker", "player"])),
        metadata={"description": "whether a player token may record it too"},
    )
    voidable = fields.Boolean()
    fields_ = fields.List(fields.Nested(MoveFieldSchema), data_key="fields", attribute="fields")


@answer()
class MovesSchema(Schema):
    """What a game can record now, as ``GET .../moves`` answers it."""

    moves = fields.List(fields.Nested(MoveSchema))
    not_voidable = fields.List(
        fields.String(validate=validate.OneOf(ORDERED)),
        metadata={
            "description": "the types whose transactions are never voided, listed now or not "
            "(the set-up's, voids, disputes, the finish)"
        },
    )
