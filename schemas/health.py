"""The liveness answer, and the release a server runs."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.answers import answer


@answer()
class HealthSchema(Schema):
    status = fields.String(metadata={"description": "ok"})


@answer()
class ReadySchema(Schema):
    status = fields.String(metadata={"description": "ready"})


@answer()
class VersionSchema(Schema):
    version = fields.String(metadata={"description": "the release, as `tablebank --version`"})
    store = fields.String(
        metadata={
            "description": 'what keeps the games: "sqlite" or "postgresql" on a server '
            '("pocket" in the browser\'s pocket bank)'
        }
    )
    schema = fields.Integer(metadata={"description": "the layout of the store"})
