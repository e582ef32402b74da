"""Where a reader of a game's event stream starts: ``Last-Event-ID`` or ``?after=N``."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.fields import MAX_SEQ


class EventsQuerySchema(Schema):
    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "send every transaction after this seq first, then go on live"},
    )


class EventsHeadersSchema(Schema):
    last_event_id = fields.Integer(
        data_key="Last-Event-ID",
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "the id (seq) of the last event the reader has: as `after`"},
    )
