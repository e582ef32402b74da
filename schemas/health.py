"""The liveness answer, and the release a server runs."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.answers import answer


@answer()
class HealthSchema(Schema):
    """The answer of ``GET /healthz``: the server is up."""

    status = fields.String(metadata={"description": "ok"})


@answer()
class ReadySchema(Schema):
    """The answer of ``GET /readyz``: the store answered within 2 s."""

    status = fields.String(metadata={"description": "ready"})


@answer()
class VersionSchema(Schema):
    """The release a server runs and what keeps its games, as ``GET /api/v1/version`` says."""

    version = fields.String(metadata={"description": "the release, as `tablebank --version`"})
    store = fields.String(
        metadata={
            "description": 'what keeps the games: "sqlite" or "postgresql" on a server '
            '("pocket" in the browser\'s pocket bank)'
        }
    )
    schema = fields.Integer(metadata={"description": "the layout of the store"})
