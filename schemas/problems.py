"""The body of every error: an RFC 9457 problem with a stable machine ``code``."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields


class ProblemSchema(Schema):
    class Meta:
        unknown = INCLUDE  # a problem carries more members, e.g. shortfall and can_raise

    type = fields.String(metadata={"description": "a URI naming the kind of problem"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String(metadata={"description": "a human sentence"})
    code = fields.String(metadata={"description": "stable machine code, e.g. not_owner"})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "validation_error: messages by field (dotted path)"},
    )
