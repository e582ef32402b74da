"""flask-smorest set up for this API: strict JSON, problem answers, a faithful OpenAPI document.

- ``Blueprint`` parses bodies with ``JSONParser``: malformed JSON, or a body that is not
  JSON, is a 422 validation error like any other, never a 400 or a 500. Its ``read`` declares
  a read's answer, query and operationId at once.
- ``TableBankApi`` answers every HTTP error as a problem and documents the typed transaction
  body as a ``oneOf`` of its per-type schemas, with a ``discriminator`` on ``type`` (an event
  of the stream likewise, on ``event``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NoReturn, TypeVar

import flask_smorest
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from flask import Request, Response
from marshmallow import RAISE, fields, missing
from webargs.flaskparser import FlaskParser, abort, is_json_request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.routing import Rule

from api.errors import PROBLEM_JSON, http_problem, named_codes, problem_codes
from api.offload import cpu_pool
from schemas.changes import change_components
from schemas.events import JsonText
from schemas.fields import Cursor, surrogate_in
from schemas.games import NoQuerySchema
from schemas.problems import CONFLICT, REFUSAL, SCHEMAS, ProblemSchema, problem_components

PROBLEM_RESPONSE = "Problem"
PROBLEM_SCHEMA = "Problem"  # the component apispec makes of ProblemSchema
REFUSAL_RESPONSE = REFUSAL  # a 409: a rule refusal, described code by code
RATE_LIMITED_RESPONSE = "RateLimited"  # a 429, with the Retry-After that says how long
UNAVAILABLE_RESPONSE = "Unavailable"  # a 503, with the Retry-After that says how long
VERSION_HEADER = "Version"  # the header component of an ETag: the game's version
# Every answer to a request with a token, and the answer that hands out a new game's tokens.
NO_STORE_HEADER = {
    "description": "`no-store`: no cache, a shared device's or a proxy's, keeps the answer",
    "required": True,
    "schema": {"type": "string", "enum": ["no-store"]},
}
BEARER = "bearer"  # the security scheme: a banker's or player's token of the game in the path
ADMIN = "admin"  # the server's admin token (tablebank serve --admin-token-file)
# A problem answered with the seconds to wait before asking again.
RETRY_AFTER = {
    "headers": {
        "Retry-After": {
            "description": "seconds to wait",
            "required": True,
            "schema": {"type": "integer", "minimum": 1},
        }
    },
    "content": {PROBLEM_JSON: {"schema": ProblemSchema}},
}
NOT_JSON = "Send the body as JSON, with Content-Type: application/json."
# A JSON escape of a surrogate: the only way one gets into a body (UTF-8 cannot carry it), as a
# half of a pair (an escaped emoji) or alone.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


# Beyond every integer a field takes (amounts are at most 10**9, seqs 2**31 - 1): 10**18.
WHOLE_DIGITS = 18

OFF_LOOP_BYTES = 256 * 1024  # a body longer than this is read off the event loop

View = TypeVar("View", bound=Callable[..., Any])  # a view function, as a decorator hands it back


def parse_json(raw: bytes) -> Any:
    """A JSON body, each number written with a fraction or an exponent that is whole (``4.0``,
    ``1e3``) read as the integer it is: JSON has one kind of number, and JSON Schema's
    "integer" admits 4.0, so a client (or a fuzzer) reading the OpenAPI document may send
    one. No field of the API takes a fraction; 12.5 stays a fraction, refused where a whole
    number is asked."""
    return json.loads(
        raw.decode("utf-8"), parse_float=whole_or_fraction, object_pairs_hook=no_name_twice
    )


class NameTwice(ValueError):
    """A JSON object that names a member twice (``{"amount": 1, "amount": 7}``): RFC 8259
    leaves which one counts to the reader, so the request is refused rather than read as the
    last one says, which another reader of the same body (a proxy, a log) may not."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def no_name_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict, or ``NameTwice`` for a name given twice
    (``parse_json``'s ``object_pairs_hook``)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise NameTwice(name)
            seen.add(name)
    return found


def whole_or_fraction(text: str) -> int | float:
    """A JSON number written with a fraction or an exponent: the integer it is exactly
    (``4.0``, ``4e0``, ``40e-1``), else a float (``12.5``, and ``1.0000000000000000001``,
    which a float would round to 1). One too large for any field stays a float: making an
    integer of ``1e999999999`` would take the server's memory."""
    exact = Decimal(text)
    # ``adjusted``: the exponent of the leading digit, read without arithmetic (which overflows
    # the decimal context on such exponents).
    if exact.adjusted() <= WHOLE_DIGITS and exact == exact.to_integral_value():
        return int(exact)
    return float(text)


def off_the_loop(raw: bytes) -> bool:
    """Whether a body is long enough (an import's, the one body that may be) to be parsed and
    loaded on the CPU pool's thread (``api.offload``) rather than in the event loop, every
    other request of the worker waiting: a log of 30,000 transactions, 12.6 MB, took 0.6 s
    to parse and 0.34 s to load by its schema, on a busy machine."""
    return len(raw) > OFF_LOOP_BYTES


def read_body(raw: bytes) -> Any:
    """A JSON body as ``parse_json`` reads it, refused (422) for a lone surrogate, which UTF-8
    cannot carry but a JSON escape can, in any string of it, a field's or not: no store could
    keep it. Touches no request: it may run on another thread."""
    data = parse_json(raw)
    if SURROGATE_ESCAPE.search(raw):
        found = surrogate_in(data)
        if found is not None:
            path, message = found
            abort(422, messages={"json": {path or "_schema": [message]}})
    return data


class JSONParser(FlaskParser):
    """webargs' Flask parser, refusing bad JSON with 422 like any invalid input."""

    def _raw_load_json(self, req: Request) -> Any:
        """The request's body as JSON (``read_body``; a long one on the CPU pool's thread): 413
        for a chunked body at the limit, 422 for a body not JSON or not valid JSON."""
        # A chunked body has no Content-Length to refuse up front, and werkzeug stops
        # reading it at the limit without a word: the body would look cut short (422).
        limit = req.max_content_length
        if (
            req.content_length is None
            and limit is not None
            and len(req.get_data(cache=True)) >= limit
        ):
            raise RequestEntityTooLarge()
        if not is_json_request(req) and req.get_data(cache=True):
            # webargs would ignore the body and report every field missing.
            abort(422, messages={"json": {"_schema": [NOT_JSON]}})
        if not is_json_request(req):
            return missing  # no body at all: webargs reports the fields it needed
        raw = req.get_data(cache=True)
        try:
            data = cpu_pool().run(read_body, raw) if off_the_loop(raw) else read_body(raw)
        except (ValueError, RecursionError) as exc:
            # Besides bad syntax and bad UTF-8: numbers too long to convert, and nesting
            # deeper than the parser goes.
            self._handle_invalid_json_error(exc, req)
        return data

    def _process_location_data(
        self,
        location_data: Any,
        schema: Any,
        req: Request,
        location: str,
        unknown: str | None,
        validators: Any,
    ) -> Any:
        """The body loaded by its schema: a long one (an import's) on the CPU pool's thread."""
        process = super()._process_location_data
        args = (location_data, schema, req, location, unknown, validators)
        if location == "json" and off_the_loop(req.get_data(cache=True)):
            return cpu_pool().run(process, *args)
        return process(*args)

    def _handle_invalid_json_error(
        self, error: Exception, req: Request, *args: Any, **kwargs: Any
    ) -> NoReturn:
        """A body that is not valid JSON refused with 422, saying why (bad syntax, not UTF-8, a
        name given twice, nested too deeply, a number too long)."""
        if isinstance(error, json.JSONDecodeError):
            reason = error.msg
        elif isinstance(error, UnicodeDecodeError):
            reason = "not UTF-8"
        elif isinstance(error, NameTwice):
            reason = f"{json.dumps(error.name)} is given twice in one object"
        elif isinstance(error, RecursionError):
            reason = "nested too deeply"
        else:
            reason = "a number too long"
        abort(422, exc=error, messages={"json": {"_schema": [f"Invalid JSON body: {reason}."]}})


@dataclass(frozen=True)
class Traits:
    """What the operations of a blueprint are, declared with it and documented from it
    (``ProblemResponsesPlugin``): ``about_a_game`` (a token of the game in the path, its 401,
    403 and 404, its version as the ETag, never cached), ``uses_store`` (503 while the store is
    away), ``conditional`` (a read answers 304 to ``If-None-Match`` naming its version)."""

    about_a_game: bool = False
    uses_store: bool = False
    conditional: bool = False


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's ``Blueprint`` with this API's strict JSON parser (``JSONParser``) and the
    ``Traits`` its operations are documented from."""

    ARGUMENTS_PARSER = JSONParser()

    def __init__(self, *args: Any, traits: Traits = Traits(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.traits = traits

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """flask-smorest's ``arguments``, the schema built once: given a class, webargs built
        a new instance of it for every request (4 % of a write's time, with three of them)."""
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)

    def read(
        self, schema: Any, operation_id: str, query: Any = NoQuerySchema
    ) -> Callable[[View], View]:
        """The decorators of a read: it answers 200 with ``schema``, takes the query parameters
        of ``query`` and refuses any other (422; by default it takes none), and is named
        ``operation_id`` in the OpenAPI document."""

        def decorate(view: View) -> View:
            """``view`` with the three decorators, the answer's outermost."""
            named = self.doc(operationId=operation_id)(view)
            parsed = self.arguments(query, location="query", unknown=RAISE)(named)
            return self.response(200, schema)(parsed)  # type: ignore[no-any-return]

        return decorate


class OneOfConverter(OpenAPIConverter):
    """Documents a schema with a ``type_schemas`` dispatch table as a ``oneOf`` of them
    (discriminated by its ``type_key``, else ``type``), what a ``Dict`` field refuses
    (``dict_keys2properties``) and the JSON a ``JsonText`` field carries
    (``json_text2properties``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.field_mapping[Cursor] = ("string", None)  # a page's cursor: digits in a string

    def init_attribute_functions(self) -> None:
        """apispec's functions documenting a field, and this API's: ``dict_keys2properties``,
        ``json_text2properties`` and ``component_ref``."""
        super().init_attribute_functions()
        self.add_attribute_function(dict_keys2properties)
        self.add_attribute_function(json_text2properties)
        self.add_attribute_function(component_ref)

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        """A schema as JSON Schema: what it says of itself (a union), a ``oneOf`` of its
        ``type_schemas``, else apispec's."""
        said = getattr(schema, "openapi", None)
        if said is not None:
            return said()  # type: ignore[no-any-return]  # a schema that says itself (a union)
        type_schemas = getattr(schema, "type_schemas", None)
        if type_schemas is None:
            return super().schema2jsonschema(schema)
        refs = {kind: self.resolve_nested_schema(each) for kind, each in type_schemas.items()}
        return {
            "oneOf": list(refs.values()),
            "discriminator": {
                "propertyName": getattr(schema, "type_key", "type"),
                "mapping": {kind: ref["$ref"] for kind, ref in refs.items()},
            },
        }


def component_ref(
    converter: OpenAPIConverter, field: Any, ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """A field whose ``component`` metadata names a component of the document this plugin
    registers itself (a union, such as ``Change``): a reference to it. (An ``allOf`` around
    the reference made a generated TypeScript client drop the union's discriminator.)"""
    component = field.metadata.get("component")
    return {} if component is None else {"$ref": SCHEMAS + component}


def dict_keys2properties(
    converter: OpenAPIConverter, field: Any, ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """What a ``Dict`` field refuses, said as JSON Schema says it for an object: its key field
    as ``propertyNames`` (apispec documents only the values), and a ``Length`` bound as
    ``minProperties``/``maxProperties`` (apispec writes ``minLength``/``maxLength``, which an
    object ignores)."""
    if not isinstance(field, fields.Dict):
        return {}
    out: dict[str, Any] = {}
    for bound in ("min", "max"):
        if f"{bound}Length" in ret:
            out[f"{bound}Properties"] = ret.pop(f"{bound}Length")
    if field.key_field is not None:
        names = converter.field2property(field.key_field)
        names.pop("type", None)  # property names are strings whatever the key field says
        if names:
            out["propertyNames"] = names
    return out


def json_text2properties(
    converter: OpenAPIConverter, field: Any, ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """A ``JsonText`` field (an event's ``data``): a string whose content is JSON of its
    schema, said with JSON Schema's ``contentMediaType`` and ``contentSchema``, which OpenAPI
    3.1 and 3.2 keep for a value encoded in a string (schemathesis decodes and checks it)."""
    if not isinstance(field, JsonText):
        return {}
    return {
        "type": "string",
        "contentMediaType": "application/json",
        "contentSchema": converter.resolve_nested_schema(field.schema),
    }


class TableBankMarshmallowPlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, its schemas documented by ``OneOfConverter``."""

    Converter = OneOfConverter


class ProblemResponsesPlugin(BasePlugin):
    """Documents the errors of every operation as problems (a 503 with ``Retry-After`` where the
    operation uses the store), the ETag of game answers, and the bearer token that every
    operation on one game needs."""

    def __init__(self) -> None:
        super().__init__()
        self.traits: dict[str, Traits] = {}  # by blueprint, as TableBankApi registers them

    def operation_helper(
        self,
        path: str | None = None,
        operations: dict[str, Any] | None = None,
        rule: Rule | None = None,
        **kwargs: Any,
    ) -> None:
        """Each operation of ``path`` documented from its blueprint's ``Traits``: the problems it
        may answer, the headers of its answers, the token it needs, its 304."""
        blueprint = "" if rule is None else str(rule.endpoint).rpartition(".")[0]
        traits = self.traits.get(blueprint, Traits())
        about_a_game = traits.about_a_game
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            problems_as_components(responses, about_a_game or method == "post")
            add_error_responses(responses, method, traits)
            if about_a_game:
                operation.setdefault("security", [{BEARER: []}])
                for status, response in responses.items():
                    if isinstance(response, dict) and str(status)[0] in "23":
                        response.setdefault("headers", {})["Cache-Control"] = NO_STORE_HEADER
            if method == "post":
                add_created_headers(responses, about_a_game)
            if traits.conditional and method == "get":
                add_not_modified(operation)
            responses.setdefault("default", PROBLEM_RESPONSE)


def problems_as_components(responses: dict[Any, Any], versioned: bool) -> None:
    """Each error a view declared as the response component of its kind; a success of a
    ``versioned`` operation (about a game, or a creation) with its ETag."""
    for status in list(responses):
        if str(status) == "409":
            responses[status] = REFUSAL_RESPONSE
        elif str(status) == "429":
            responses[status] = RATE_LIMITED_RESPONSE
        elif str(status) == "503":
            responses[status] = UNAVAILABLE_RESPONSE
        elif str(status)[0] in "45":
            responses[status] = PROBLEM_RESPONSE
        elif str(status)[0] == "2" and versioned:
            responses[status].setdefault("headers", {})["ETag"] = VERSION_HEADER


def add_error_responses(responses: dict[Any, Any], method: str, traits: Traits) -> None:
    """The errors every operation of its kind may answer, declared or not."""
    # Every body is read against a size limit (64 KiB; an import 32 MiB): 413 over it.
    errors = ["413", "422"] if method == "post" else []
    if traits.about_a_game:
        errors += ["401", "403", "404"]
        if method == "post":
            errors += ["409", "412"]
    for status in errors:
        responses.setdefault(status, REFUSAL_RESPONSE if status == "409" else PROBLEM_RESPONSE)
    if traits.uses_store:
        # It reads or writes the store, which may be full or out of reach for a while.
        responses.setdefault("503", UNAVAILABLE_RESPONSE)


def add_created_headers(responses: dict[Any, Any], about_a_game: bool) -> None:
    """A creation's ``Location``; a recorded transaction's ``Idempotent-Replayed``, a new
    game's ``Cache-Control`` (its tokens)."""
    created = next((r for status, r in responses.items() if str(status) == "201"), None)
    if created is None:
        return
    headers = created.setdefault("headers", {})
    headers["Location"] = {
        "description": "where the new game or transaction lives",
        "required": True,
        "schema": {"type": "string"},
    }
    if about_a_game:
        headers["Idempotent-Replayed"] = {
            "description": "`true` when this is the answer an earlier request with the same "
            "Idempotency-Key and body was given; nothing recorded",
            "schema": {"type": "string", "enum": ["true"]},
        }
    else:
        headers["Cache-Control"] = NO_STORE_HEADER  # the new game's tokens


def add_not_modified(operation: dict[str, Any]) -> None:
    """Every read of a game answers If-None-Match naming its version with 304."""
    operation.setdefault("parameters", []).append(
        {
            "in": "header",
            "name": "If-None-Match",
            "required": False,
            "description": 'the ETag of an earlier answer ("<version>"): 304 if this answer '
            "would carry the same",
            "schema": {"type": "string"},
        }
    )
    operation["responses"].setdefault(
        "304",
        {
            "description": "Not modified: the answer would carry the version If-None-Match "
            "named; nothing in it.",
            "headers": {"ETag": VERSION_HEADER},
        },
    )


class TableBankApi(flask_smorest.Api):
    """The flask-smorest ``Api`` answering in problems."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # ProblemResponsesPlugin documents the errors instead

    def __init__(self, app: Any = None) -> None:
        self.problems = ProblemResponsesPlugin()
        super().__init__(
            app,
            spec_kwargs={
                "marshmallow_plugin": TableBankMarshmallowPlugin(),
                "extra_plugins": [self.problems],
            },
        )

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        """flask-smorest's, the blueprint's ``Traits`` handed to the plugin that documents its
        operations from them."""
        self.problems.traits[options.get("name", blp.name)] = getattr(blp, "traits", Traits())
        super().register_blueprint(blp, parameters=parameters, **options)

    def _register_pagination_header(self) -> None:
        """Nothing: our pages carry their cursor in the body (``next``), never flask-smorest's
        ``X-Pagination`` header, whose schema would stand in the document unused."""

    def init_app(self, app: Any, *, spec_kwargs: dict[str, Any] | None = None) -> None:
        """flask-smorest's, ``ProblemSchema`` told its codes first; then the components the
        operations refer to: the version header and responses, problems by code, changes, tokens."""
        # Before the document holds the schema: a variant per named code, one for the others.
        named = named_codes()
        ProblemSchema.declare_codes(named, sorted(set(problem_codes()) - set(named)))
        super().init_app(app, spec_kwargs=spec_kwargs)
        self.declare_responses()
        for name, component in problem_components(*ProblemSchema.codes).items():
            self.spec.components.schema(name, component)
        for name, component in change_components().items():
            self.spec.components.schema(name, component)
        self.declare_security()

    def declare_responses(self) -> None:
        """The components the operations refer to: the version header and the responses of
        problems (``ProblemResponsesPlugin``)."""
        self.spec.components.header(
            VERSION_HEADER,
            {
                "description": 'The game\'s version, `"<version>"` (opaque; not its last seq): '
                "what `If-Match` on a write and `If-None-Match` on a read name.",
                "required": True,
                "schema": {"type": "string"},
            },
        )
        self.spec.components.response(
            PROBLEM_RESPONSE,
            {
                "description": "A problem (RFC 9457); `code` says which.",
                "content": {PROBLEM_JSON: {"schema": ProblemSchema}},
            },
        )
        self.spec.components.response(
            RATE_LIMITED_RESPONSE,
            {
                "description": "Too many games created or imported from this address "
                "(`rate_limited`), or too many event streams open for this token, game or "
                "address (`too_many_streams`): try again after `Retry-After` seconds.",
                **RETRY_AFTER,
            },
        )
        self.spec.components.response(
            UNAVAILABLE_RESPONSE,
            {
                "description": "The store is full or unavailable (`storage_unavailable`; the "
                "write was rolled back whole: send it again, with the same Idempotency-Key), "
                "or, for an import or a read of a long log (replay, export, verify, fair play, "
                "a statement, a filtered page), every slot stayed taken (`busy`): try again "
                "after `Retry-After` seconds.",
                **RETRY_AFTER,
            },
        )
        self.spec.components.response(
            REFUSAL_RESPONSE,
            {
                "description": "A rule refusal (RFC 9457 problem): `code` says which, `params` "
                "the values of its `detail`. Or, with another `code` (`busy`, "
                "`idempotency_in_progress`), nothing refused: try again.",
                "content": {PROBLEM_JSON: {"schema": {"$ref": SCHEMAS + CONFLICT}}},
            },
        )

    def declare_security(self) -> None:
        """The two bearer tokens: the admin's and a game's."""
        self.spec.components.security_scheme(
            ADMIN,
            {
                "type": "http",
                "scheme": "bearer",
                "description": "The server's admin token, on a server started with "
                "`--admin-token-file`: the list of games answers it only (401 otherwise), and "
                "`/metrics` (401 otherwise; 404 on a server without one).",
            },
        )
        self.spec.components.security_scheme(
            BEARER,
            {
                "type": "http",
                "scheme": "bearer",
                "description": "The banker's token or a player's token of the game in the path, "
                "as `POST /api/v1/games` returned it.",
            },
        )

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Every HTTP error answered as a problem."""
        return http_problem(error)
