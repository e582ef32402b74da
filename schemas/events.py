"""A game's event stream: where a reader starts (``Last-Event-ID`` or ``?after=N``), and what
it is sent, event by event.

``StreamEventSchema`` is what the stream sends: every event goes out dumped by the schema its
``event`` names in ``StreamEventSchema.type_schemas`` (api/events.py), and the OpenAPI document
describes each of them from there. An event is documented as the SSE standard parses it and
OpenAPI reads it (3.2's ``itemSchema``; schemathesis reads a 3.1 ``schema`` of
``text/event-stream`` so): an object of its fields ``id``, ``event`` and ``data``, every one a
string, the data's JSON described by ``contentMediaType`` and ``contentSchema``.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from marshmallow import Schema, fields, validate

from schemas.answers import answer
from schemas.fields import MAX_SEQ
from schemas.transactions import TransactionSchema


class EventsQuerySchema(Schema):
    """The query of ``GET .../events``: ``after``, the seq to follow the game from."""

    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "send every transaction after this seq first, then go on live"},
    )


class EventsHeadersSchema(Schema):
    """The headers of ``GET .../events``: ``Last-Event-ID``, where a reader left off."""

    last_event_id = fields.Integer(
        data_key="Last-Event-ID",
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "the id (seq) of the last event the reader has: as `after`"},
    )


class JsonText(fields.Field):
    """A value sent as one line of JSON, dumped by ``schema``: an event's ``data``. The OpenAPI
    document says it as a string whose content is JSON of that schema (``contentMediaType``
    and ``contentSchema``, api.framework), so that a reader validates what it decodes."""

    def __init__(self, schema: type[Schema], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.schema = schema
        self.dumper = schema()

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str:
        """The value dumped by ``schema``, as one line of JSON."""
        # Compact and ASCII-escaped: no line break, so the data is one `data:` line.
        return json.dumps(self.dumper.dump(value), separators=(",", ":"))


def event_name(name: str, description: str) -> fields.String:
    """The ``event`` field of one event's schema: its name, the stream's discriminator, and
    what the event is. (The schema's own description would cost it its
    ``additionalProperties``: apispec writes one or the other.)"""
    return fields.String(validate=validate.Equal(name), metadata={"description": description})


@answer()
class TransactionEventSchema(Schema):
    """A ``transaction`` event of a game's stream: its seq, its name and the transaction."""

    id = fields.String(
        validate=validate.Regexp(r"^[1-9][0-9]*$"),
        metadata={
            "description": "the transaction's seq: a reader that comes back sends the last it "
            "had as `Last-Event-ID` (EventSource does) and misses nothing"
        },
    )
    event = event_name(
        "transaction",
        "a transaction recorded in the game, the set-up's included, once each in seq order: "
        "those after `Last-Event-ID` (or `?after`) first, then each as it is recorded, by any "
        "process of the server",
    )
    data = JsonText(
        TransactionSchema,
        metadata={"description": "the transaction as its POST answered it, one line of JSON"},
    )


class StreamEventSchema(Schema):
    """Any event of a game's stream, dumped by the schema its ``event`` names."""

    #: Every event the stream sends, by name: the stream dumps each through it, and the
    #: OpenAPI document makes them a ``oneOf`` with a ``discriminator`` on ``event``.
    type_schemas: ClassVar[dict[str, type[Schema]]] = {"transaction": TransactionEventSchema}
    type_key: ClassVar[str] = "event"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dumpers = {name: schema() for name, schema in self.type_schemas.items()}

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """One event, dumped by the schema its ``event`` names."""
        # An event of no name here is a KeyError: the stream sends nothing undocumented.
        return self.dumpers[obj["event"]].dump(obj)
