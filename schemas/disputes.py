"""A dispute as the game's state shows it (API.md v1.1, "Disputes")."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.answers import answer


@answer()
class DisputeEntrySchema(Schema):
    """A dispute of a transaction and where it stands, as the game's ``disputes`` lists it."""

    seq = fields.Integer(metadata={"description": "the dispute's own seq"})
    about = fields.Integer(metadata={"description": "the seq of the transaction disputed"})
    by = fields.String(metadata={"description": "'banker' or the player who disputed it"})
    reason = fields.String()
    status = fields.String(metadata={"description": "open, upheld or voided"})
    resolved_by = fields.Integer(
        allow_none=True,
        metadata={"description": "the void or dispute_resolve that closed it; null while open"},
    )
    note = fields.String(
        allow_none=True,
        metadata={"description": "the banker's note (upheld) or the void's reason (voided)"},
    )
