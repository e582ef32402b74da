"""The body of every error: an RFC 9457 problem with a stable machine ``code``.

A 409 rule refusal is also described code by code (``refusal_components``), from the one
registry of refusal codes, ``ledger.refusals``: each code with its ``params``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields

from ledger.refusals import ID_KINDS, LEVELS, PARAMS, REASON, REFUSALS, Case, Refusal
from schemas.answers import answer
from schemas.fields import camel

REFUSAL = "Refusal"
SCHEMAS = "#/components/schemas/"
# The members every refusal has, as ``ProblemSchema`` documents them.
PROBLEM_MEMBERS: dict[str, Any] = {
    "type": {"type": "string", "description": "a URI naming the kind of problem"},
    "title": {"type": "string"},
    "status": {"type": "integer", "const": 409},
    "detail": {"type": "string", "description": "a human sentence"},
}


@answer("params", "errors", "seq", "field")
class ProblemSchema(Schema):
    class Meta:
        unknown = INCLUDE  # a problem carries more members, e.g. shortfall and can_raise

    @classmethod
    def declare_codes(cls, codes: list[str]) -> None:
        """Document ``code`` as one of ``codes``, every code the server may answer with (the
        API knows them all: the ledger's, the HTTP errors', its own). Before the OpenAPI
        document is built; answers are dumped, so nothing else changes."""
        cls._declared_fields["code"].metadata = {
            **cls._declared_fields["code"].metadata,
            "enum": list(codes),
        }

    type = fields.String(metadata={"description": "a URI naming the kind of problem"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String(metadata={"description": "a human sentence"})
    code = fields.String(metadata={"description": "stable machine code, e.g. not_owner"})
    params = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        metadata={
            "description": "a 409: the ids and whole numbers `detail` was built from "
            "(see `Refusal` for each code's)"
        },
    )
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "validation_error: messages by field (dotted path)"},
    )
    seq = fields.Integer(
        metadata={
            "description": "log_invalid: the first transaction of the log that fails (0: its "
            "header)"
        }
    )
    field = fields.String(
        metadata={
            "description": "log_invalid: the member of that transaction at fault, where the "
            "rules single one out (`by`: someone who could not have recorded it)"
        }
    )


def refusal_name(code: str) -> str:
    """The component of one code: ``insufficient_funds`` is ``RefusalInsufficientFunds``."""
    return REFUSAL + camel(code)


def refusal_components(problem: str) -> dict[str, dict[str, Any]]:
    """JSON Schemas of the refusals: ``Refusal``, one of every code, and one per code; each
    is a ``problem`` (the name of the problem's component) too."""
    codes = list(REFUSALS)
    components = {
        REFUSAL: {
            "description": "A 409 rule refusal: `code` says which, `params` the values its "
            "`detail` was built from (ids and whole numbers, never sentences).",
            "allOf": [{"$ref": SCHEMAS + problem}],
            "type": "object",
            "properties": {
                "status": {"const": 409},
                "code": {"type": "string", "enum": codes},
                "params": {"type": "object"},
            },
            "required": ["type", "title", "status", "detail", "code", "params"],
            "oneOf": [{"$ref": SCHEMAS + refusal_name(code)} for code in codes],
            "discriminator": {
                "propertyName": "code",
                "mapping": {code: SCHEMAS + refusal_name(code) for code in codes},
            },
        }
    }
    for code, refusal in REFUSALS.items():
        components[refusal_name(code)] = {
            "description": refusal.description
            + (" (reserved: not refused with yet)" if refusal.reserved else ""),
            "type": "object",
            # The problem's own members too, so that a client reads a refusal whole (an allOf
            # of the problem made a generated client's models collide on `params`).
            "properties": PROBLEM_MEMBERS
            | {"code": {"const": code}, "params": params_schema(refusal)},
            "required": ["type", "title", "status", "detail", "code", "params"],
        }
    return components


def conflict_schema(problem: str) -> dict[str, Any]:
    """A 409: a refusal of one of the codes, or another ``problem`` (nothing refused: retry)."""
    other = {"not": {"enum": list(REFUSALS)}}
    return {
        "oneOf": [
            {"$ref": SCHEMAS + REFUSAL},
            {"allOf": [{"$ref": SCHEMAS + problem}], "properties": {"code": other}},
        ]
    }


def params_schema(refusal: Refusal) -> dict[str, Any]:
    """The ``params`` of one code: one object, or one per reason."""
    if None in refusal.cases:
        return case_schema(refusal.cases[None])
    return {"oneOf": [case_schema(c, reason) for reason, c in refusal.cases.items()]}


def case_schema(case: Case, reason: str | None = None) -> dict[str, Any]:
    properties = {name: param_schema(name) for name in (*case.params, *case.optional)}
    required = list(case.params)
    schema: dict[str, Any] = {"type": "object"}
    if reason is not None:
        schema["description"] = case.description
        properties = {REASON: {"const": reason}, **properties}
        required.insert(0, REASON)
    return {**schema, "properties": properties, "required": required, "additionalProperties": False}


def param_schema(name: str) -> dict[str, Any]:
    param = PARAMS[name]
    if param.kind in ID_KINDS:
        shape: dict[str, Any] = {"type": "string"}
    elif param.kind == LEVELS:
        shape = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    else:
        shape = {"type": "integer"}
        if param.kind in ("count", "seq"):
            shape["minimum"] = 0 if param.kind == "count" else 1
    return {**shape, "description": f"{param.kind}: {param.description}"}
