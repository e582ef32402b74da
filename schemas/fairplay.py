"""The fair-play audit's answer (API.md v1.1, "Fair play")."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.answers import answer


@answer()
class FairPlayFlagSchema(Schema):
    """A transaction flagged as asset dumping or propping up, with the figures why."""

    seq = fields.Integer(metadata={"description": "the transaction flagged"})
    rule = fields.String(
        metadata={"description": "asset_dumping (seed 002, 1.1) or propping_up (1.3)"}
    )
    players = fields.List(fields.String(), metadata={"description": "[giver, receiver]"})
    given = fields.Integer(metadata={"description": "the value the giver handed over"})
    received = fields.Integer(metadata={"description": "the value that came back to the giver"})
    basis = fields.Dict(metadata={"description": "every figure the flag was raised on"})
    exempt = fields.String(
        allow_none=True,
        metadata={"description": "debt_payment where the seed's exception holds, else null"},
    )


@answer()
class FairPlaySchema(Schema):
    """The fair-play audit as ``GET .../fairplay`` answers it: the transactions flagged."""

    flags = fields.List(fields.Nested(FairPlayFlagSchema))
