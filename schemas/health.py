"""The liveness answer."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.answers import answer


@answer()
class HealthSchema(Schema):
    status = fields.String(metadata={"description": "ok"})
