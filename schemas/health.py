"""The liveness answer."""

from __future__ import annotations

from marshmallow import Schema, fields


class HealthSchema(Schema):
    status = fields.String(metadata={"description": "ok"})
