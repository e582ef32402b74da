"""The event stream as the OpenAPI document describes it (issue 29, item 17): every event the
stream sends is documented, with its name, its id and its data's schema, and what the stream
really sends is what the document says, event by event.

An event is documented as the SSE standard parses it (OpenAPI 3.2's ``itemSchema``; in 3.1
schemathesis reads the ``schema`` of ``text/event-stream`` so): an object of strings ``id``,
``event`` and ``data``, the data's JSON described by ``contentMediaType`` and
``contentSchema``. The names are read off the code: those the stream passes to ``sse`` in
api/events.py, and the table ``StreamEventSchema`` dumps every event through."""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import Table
from every_type import (
    CLASSIC,
    CLASSIC_OPTIONS,
    CLASSIC_PLAYERS,
    ELITE,
    ELITE_PLAYERS,
    Step,
    plain_steps,
    play,
)
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, ValidationError, validators

from api import create_app, events
from api.bank import EXTENSION
from ledger.transactions import REGISTRY
from schemas.events import JsonText, StreamEventSchema

STREAM = "/api/v1/games/{game}/events"
REF = "#/components/schemas/"


def sent_names() -> set[str]:
    """The event names api/events.py sends: the ``event`` of every event it passes to
    ``sse``, the one function that writes an event."""
    names = set()
    for call in ast.walk(ast.parse(inspect.getsource(events))):
        if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "sse":
            [event] = call.args
            assert isinstance(event, ast.Dict), ast.unparse(call)
            fields = dict(zip(event.keys, event.values, strict=True))
            [name] = [
                v for k, v in fields.items() if isinstance(k, ast.Constant) and k.value == "event"
            ]
            assert isinstance(name, ast.Constant), ast.unparse(call)
            names.add(name.value)
    return names


def event_lines_outside_sse() -> list[str]:
    """The strings of api/events.py, docstrings aside, that write an ``event:`` line anywhere
    but in ``sse``."""
    tree = ast.parse(inspect.getsource(events))
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "sse":
            skipped |= {id(each) for each in ast.walk(node)}
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and "event:" in node.value
        and id(node) not in skipped
    ]


def test_the_stream_writes_events_only_through_the_documented_table() -> None:
    # sse dumps each event by the schema its name has in StreamEventSchema (a KeyError for a
    # name not there), and no other code writes an event.
    assert event_lines_outside_sse() == []
    assert sent_names() == {"transaction"}
    assert sent_names() <= set(StreamEventSchema.type_schemas)


@pytest.fixture(scope="module")
def document() -> Iterator[dict[str, Any]]:
    app = create_app({"TESTING": True, "TABLEBANK_DB": ":memory:"})
    try:
        response = app.test_client().get("/api/v1/openapi.json")
        assert response.status_code == 200
        yield response.json
    finally:
        app.extensions[EXTENSION].close()


def component(document: dict[str, Any], ref: str) -> dict[str, Any]:
    assert ref.startswith(REF), ref
    return document["components"]["schemas"][ref.removeprefix(REF)]  # type: ignore[no-any-return]


def test_every_event_the_stream_sends_is_documented_with_its_data_schema(
    document: dict[str, Any],
) -> None:
    answer = document["paths"][STREAM]["get"]["responses"]["200"]
    assert list(answer["content"]) == ["text/event-stream"]
    assert "Last-Event-ID" in answer["description"]
    stream = component(document, answer["content"]["text/event-stream"]["schema"]["$ref"])
    assert stream["discriminator"]["propertyName"] == "event"
    mapping = stream["discriminator"]["mapping"]
    names = sent_names() | set(StreamEventSchema.type_schemas)
    assert set(mapping) == names
    assert sorted(each["$ref"] for each in stream["oneOf"]) == sorted(mapping.values())
    for name in names:
        event = component(document, mapping[name])
        assert event["properties"]["event"]["description"]  # what the event is, in words
        assert set(event["required"]) == {"id", "event", "data"}
        assert event["additionalProperties"] is False
        assert event["properties"]["event"]["enum"] == [name]
        assert event["properties"]["id"]["type"] == "string"
        data = event["properties"]["data"]
        assert (data["type"], data["contentMediaType"]) == ("string", "application/json")
        # The data's schema is the component of the marshmallow schema the stream dumps it by.
        field = StreamEventSchema.type_schemas[name]._declared_fields["data"]
        assert isinstance(field, JsonText)
        schema_name = field.schema.__name__.removesuffix("Schema")
        assert data["contentSchema"] == {"$ref": REF + schema_name}
        documented = component(document, data["contentSchema"]["$ref"])["properties"]
        assert set(documented) == {f.data_key or key for key, f in field.schema().fields.items()}


def check_content_schema(
    validator: Any, content_schema: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """JSON Schema's ``contentSchema`` asserted, as schemathesis does: a string of JSON,
    decoded and validated against it (jsonschema itself only annotates)."""
    if schema.get("contentMediaType") != "application/json" or not isinstance(instance, str):
        return
    try:
        decoded = json.loads(instance)
    except ValueError as exc:
        yield ValidationError(f"not JSON: {exc}")
        return
    yield from validator.descend(decoded, content_schema, schema_path="contentSchema")


ContentValidator = validators.extend(Draft202012Validator, {"contentSchema": check_content_schema})


def event_validator(document: dict[str, Any]) -> Any:
    """A validator of one parsed event against the schema the document gives the stream."""
    ref = document["paths"][STREAM]["get"]["responses"]["200"]["content"]["text/event-stream"]
    return ContentValidator({**ref["schema"], "components": document["components"]})


def parsed(text: str) -> list[dict[str, str]]:
    """The events of a stream's text as the SSE standard dispatches them (and schemathesis
    parses them): comments skipped, a block with no data no event, the last id kept."""
    out: list[dict[str, str]] = []
    last_id: str | None = None
    for block in text.split("\n\n"):
        event: dict[str, str] = {}
        data: list[str] = []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name == "id":
                last_id = value
            elif name == "event":
                event["event"] = value
        if data:
            out.append(
                {"event": event.get("event", "message"), "data": "\n".join(data)}
                | ({"id": last_id} if last_id is not None else {})
            )
    return out


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    # Streams cut after a moment, so that a test reads one whole.
    app = create_app(
        {
            "TESTING": True,
            "TABLEBANK_DB": ":memory:",
            "TABLEBANK_STREAM_MAX_SECONDS": 0.3,
            "TABLEBANK_STREAM_KEEPALIVE": 0.1,
        }
    )
    yield app
    app.extensions[EXTENSION].close()


def streamed(client: FlaskClient, ruleset: str, players: list[str], steps: list[Step]) -> Any:
    """The events of a game that recorded ``steps``, streamed from its first transaction."""
    options = CLASSIC_OPTIONS if ruleset == "classic" else {}
    body = {"name": "stream", "ruleset": ruleset, "players": players, "options": options}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.json
    table = Table(client, created.json)
    play(steps, table.record, table.state)
    moves = table.get("/moves").json["moves"]
    answer = table.get("/events?after=0")
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    return parsed(answer.get_data(as_text=True)), moves


@pytest.fixture(scope="module")
def every_type_streamed(app: Flask) -> list[dict[str, str]]:
    """The events of games that record every transaction type (tests/every_type.py)."""
    client = app.test_client()
    out: list[dict[str, str]] = []
    for ruleset, players, steps in (
        ("classic", CLASSIC_PLAYERS, CLASSIC),
        ("millionaire-elite", ELITE_PLAYERS, ELITE),
        ("short", ["Ann", "Bob"], []),  # its deal
    ):
        got, _ = streamed(client, ruleset, players, steps)
        out += got
    # A type with plain fields that no step above records, made of its fields alone.
    recorded = {json.loads(e["data"])["type"] for e in out}
    for ruleset, players in (("classic", CLASSIC_PLAYERS), ("millionaire-elite", ELITE_PLAYERS)):
        _, moves = streamed(client, ruleset, players, [])
        steps = plain_steps(recorded, moves)
        if steps:
            got, _ = streamed(client, ruleset, players, steps)
            out += got
            recorded |= {json.loads(e["data"])["type"] for e in got}
    return out


def test_streamed_events_of_every_type_are_what_the_document_says(
    document: dict[str, Any], every_type_streamed: list[dict[str, str]]
) -> None:
    assert {json.loads(e["data"])["type"] for e in every_type_streamed} == set(REGISTRY)
    assert {e["event"] for e in every_type_streamed} == {"transaction"}
    validator = event_validator(document)

    wrong = [
        (event["id"], error.message)
        for event in every_type_streamed
        for error in validator.iter_errors(event)
    ]
    assert wrong == []
    assert all(e["id"] == str(json.loads(e["data"])["seq"]) for e in every_type_streamed)


def test_the_documented_data_schema_refuses_data_the_stream_never_sends(
    document: dict[str, Any], every_type_streamed: list[dict[str, str]]
) -> None:
    # The check above checks the data's JSON, not only that it is a string.
    validator = event_validator(document)
    event = every_type_streamed[-1]
    txn = json.loads(event["data"])

    for broken in (
        {**event, "data": json.dumps({**txn, "seq": str(txn["seq"])})},
        {**event, "data": json.dumps({k: v for k, v in txn.items() if k != "postings"})},
        {**event, "data": "{not json"},
        {**event, "event": "message"},
        {**event, "id": "x"},
    ):
        assert list(validator.iter_errors(broken)) != [], broken
