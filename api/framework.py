"""flask-smorest set up for this API: strict JSON, problem answers, a faithful OpenAPI document.

- ``Blueprint`` parses bodies with ``JSONParser``: malformed JSON, or a body that is not
  JSON, is a 422 validation error like any other, never a 400 or a 500.
- ``TableBankApi`` answers every HTTP error as a problem and documents the typed transaction
  body as a ``oneOf`` of its per-type schemas, with a ``discriminator`` on ``type``.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

import flask_smorest
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from flask import Request, Response
from webargs.flaskparser import FlaskParser, abort, is_json_request
from werkzeug.exceptions import HTTPException

from api.errors import PROBLEM_JSON, http_problem
from schemas.problems import ProblemSchema

PROBLEM_RESPONSE = "Problem"
NOT_JSON = "Send the body as JSON, with Content-Type: application/json."


class JSONParser(FlaskParser):
    """webargs' Flask parser, refusing bad JSON with 422 like any invalid input."""

    def _raw_load_json(self, req: Request) -> Any:
        if not is_json_request(req) and req.get_data(cache=True):
            # webargs would ignore the body and report every field missing.
            abort(422, messages={"json": {"_schema": [NOT_JSON]}})
        try:
            return super()._raw_load_json(req)
        except (ValueError, RecursionError) as exc:
            # Besides bad syntax and bad UTF-8: numbers too long to convert, and nesting
            # deeper than the parser goes.
            self._handle_invalid_json_error(exc, req)

    def _handle_invalid_json_error(
        self, error: Exception, req: Request, *args: Any, **kwargs: Any
    ) -> NoReturn:
        if isinstance(error, json.JSONDecodeError):
            reason = error.msg
        elif isinstance(error, UnicodeDecodeError):
            reason = "not UTF-8"
        elif isinstance(error, RecursionError):
            reason = "nested too deeply"
        else:
            reason = "a number too long"
        abort(422, exc=error, messages={"json": {"_schema": [f"Invalid JSON body: {reason}."]}})


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JSONParser()


class OneOfConverter(OpenAPIConverter):
    """Documents a schema with a ``type_schemas`` dispatch table as a ``oneOf`` of them."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        type_schemas = getattr(schema, "type_schemas", None)
        if type_schemas is None:
            return super().schema2jsonschema(schema)
        refs = {kind: self.resolve_nested_schema(each) for kind, each in type_schemas.items()}
        return {
            "oneOf": list(refs.values()),
            "discriminator": {
                "propertyName": "type",
                "mapping": {kind: ref["$ref"] for kind, ref in refs.items()},
            },
        }


class TableBankMarshmallowPlugin(MarshmallowPlugin):
    Converter = OneOfConverter


class ProblemResponsesPlugin(BasePlugin):
    """Documents the errors of every operation as problems, and the ETag of game answers."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        about_a_game = path is not None and "{game}" in path
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            for status in list(responses):
                if str(status)[0] in "45":
                    responses[status] = PROBLEM_RESPONSE
                elif str(status)[0] == "2" and (about_a_game or method == "post"):
                    responses[status].setdefault("headers", {})["ETag"] = "ETAG"
            errors = ["422"] if method == "post" else []
            if about_a_game:
                errors += ["401", "403", "404"]
                if method == "post":
                    errors += ["409", "412"]
            for status in errors:
                responses.setdefault(status, PROBLEM_RESPONSE)
            responses.setdefault("default", PROBLEM_RESPONSE)


class TableBankApi(flask_smorest.Api):
    """The flask-smorest ``Api`` answering in problems."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # ProblemResponsesPlugin documents the errors instead

    def __init__(self, app: Any = None) -> None:
        super().__init__(
            app,
            spec_kwargs={
                "marshmallow_plugin": TableBankMarshmallowPlugin(),
                "extra_plugins": [ProblemResponsesPlugin()],
            },
        )

    def init_app(self, app: Any, *, spec_kwargs: dict[str, Any] | None = None) -> None:
        super().init_app(app, spec_kwargs=spec_kwargs)
        self.spec.components.response(
            PROBLEM_RESPONSE,
            {
                "description": "A problem (RFC 9457); `code` says which.",
                "content": {PROBLEM_JSON: {"schema": ProblemSchema}},
            },
        )

    def handle_http_exception(self, error: HTTPException) -> Response:
        return http_problem(error)
