"""The body of every error: an RFC 9457 problem with a stable machine ``code``.

The OpenAPI document says a problem as a union discriminated by ``code`` (``Problem``): each
variant a whole problem whose ``code`` is one value, so that a generated client narrows a
problem by its code (``code === "insufficient_funds"``) to that variant's members and typed
``params`` without a cast. A 409 rule refusal's variant (``Refusal<Code>``) comes from the one
registry of refusal codes, ``ledger.refusals``, with its ``params``; another named code's
(``Problem<Code>``) with the members it carries; werkzeug's other HTTP errors share one
(``ProblemHttp``). ``Conflict`` is the union of every 409: the refusals, and two to retry.
"""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields

from ledger.refusals import ID_KINDS, LEVELS, PARAMS, REASON, REFUSALS, Case, Refusal
from schemas.answers import answer
from schemas.fields import camel

REFUSAL = "Refusal"
PROBLEM = "Problem"
CONFLICT = "Conflict"
HTTP_PROBLEM = "ProblemHttp"
SCHEMAS = "#/components/schemas/"
CODE = "code"
REQUIRED = ["type", "title", "status", "detail", CODE]
# The members every problem has.
PROBLEM_MEMBERS: dict[str, Any] = {
    "type": {"type": "string", "description": "a URI naming the kind of problem"},
    "title": {"type": "string"},
    "status": {"type": "integer", "description": "the HTTP status"},
    "detail": {"type": "string", "description": "a human sentence"},
}
# What a problem of a named code carries besides the members every problem has.
MEMBERS: dict[str, dict[str, Any]] = {
    "validation_error": {
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
            "description": "messages by field (dotted path; a header by its name)",
        }
    },
    "log_invalid": {
        "seq": {
            "type": "integer",
            "minimum": 0,
            "description": "the first transaction of the log that fails (0: its header)",
        },
        "field": {
            "type": "string",
            "description": "the member of that transaction at fault, where the rules single "
            "one out (`by`: someone who could not have recorded it)",
        },
    },
    "version_conflict": {
        "current": {"type": "string", "description": "the game's version now"},
    },
    "idempotency_key_reused": {
        "seq": {
            "type": "integer",
            "minimum": 1,
            "description": "the transaction recorded with that key",
        },
    },
}
# Codes whose problems are answered with 409, besides the refusals: nothing refused, ask again.
RETRY_CONFLICTS = ("busy", "idempotency_in_progress")


@answer("params", "errors", "seq", "field")
class ProblemSchema(Schema):
    """The body of every error: an RFC 9457 problem with its stable machine ``code``."""

    class Meta:
        unknown = INCLUDE  # a problem carries more members, e.g. shortfall and can_raise

    codes: tuple[list[str], list[str]] = ([], [])  # the named codes, and the other ones

    @classmethod
    def declare_codes(cls, named: list[str], other: list[str]) -> None:
        """The codes the server may answer with (the API knows them all: the ledger's, the
        HTTP errors', its own): ``named`` a variant each, ``other`` one variant together.
        Before the OpenAPI document is built."""
        cls.codes = (list(named), list(other))

    @classmethod
    def openapi(cls) -> dict[str, Any]:
        """The OpenAPI document's ``Problem``: the union of every code's variant
        (``problem_components`` makes them), discriminated by ``code``."""
        named, other = cls.codes
        mapping = {code: SCHEMAS + variant_name(code) for code in named}
        mapping |= {code: SCHEMAS + HTTP_PROBLEM for code in other}
        return {
            "description": "A problem (RFC 9457): `code` says which, and with it the members "
            "the problem carries (a refusal's typed `params`, a validation error's `errors`).",
            "oneOf": [{"$ref": ref} for ref in dict.fromkeys(mapping.values())],
            "discriminator": {"propertyName": CODE, "mapping": mapping},
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
            "(see `Refusal<Code>` for each code's)"
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


def variant_name(code: str) -> str:
    """The component of a named code: a refusal's, or ``ProblemNotFound`` for ``not_found``."""
    return refusal_name(code) if code in REFUSALS else PROBLEM + camel(code)


def code_of(*codes: str) -> dict[str, Any]:
    """A problem's ``code`` that is one of ``codes`` (one, for a variant of its own)."""
    return {"type": "string", "enum": list(codes)}


def union(description: str, codes: list[str]) -> dict[str, Any]:
    """The variants of ``codes`` (named codes), discriminated by ``code``."""
    mapping = {code: SCHEMAS + variant_name(code) for code in codes}
    return {
        "description": description,
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": CODE, "mapping": mapping},
    }


def problem_components(named: list[str], other: list[str]) -> dict[str, dict[str, Any]]:
    """JSON Schemas of the problems: a variant per named code, each a whole problem (a refusal
    with its ``params``), one for the ``other`` codes, and ``Conflict`` (the union of every
    409). ``Problem``, the union of them all, is ``ProblemSchema.openapi``'s."""
    components: dict[str, dict[str, Any]] = {}
    for code in named:
        if code in REFUSALS:
            continue
        components[variant_name(code)] = {
            "type": "object",
            "properties": PROBLEM_MEMBERS | {CODE: code_of(code)} | MEMBERS.get(code, {}),
            "required": REQUIRED,
        }
    components[HTTP_PROBLEM] = {
        "description": "An HTTP error the contract names no code of its own for: its name, "
        "snake-cased.",
        "type": "object",
        "properties": PROBLEM_MEMBERS | {CODE: code_of(*other)},
        "required": REQUIRED,
    }
    for code, refusal in REFUSALS.items():
        components[refusal_name(code)] = {
            "description": refusal.description
            + (" (reserved: not refused with yet)" if refusal.reserved else ""),
            "type": "object",
            # The problem's own members too, so that a client reads a refusal whole (an allOf
            # of the problem made a generated client's models collide on `params`).
            "properties": PROBLEM_MEMBERS
            | {"status": {"type": "integer", "const": 409}}
            | {CODE: code_of(code), "params": params_schema(refusal)}
            | version_one_members(refusal),
            "required": [*REQUIRED, "params"],
        }
    components[CONFLICT] = union(
        "A 409: a rule refusal (`Refusal<Code>`: `code` says which, `params` the values its "
        "`detail` was built from, ids and whole numbers, never sentences), or, with another "
        "`code` (`busy`, `idempotency_in_progress`), nothing refused: try again.",
        [*REFUSALS, *(code for code in RETRY_CONFLICTS if code in named)],
    )
    return components


def version_one_members(refusal: Refusal) -> dict[str, Any]:
    """The members of version 1 a refusal still carries beside its ``params`` (``shortfall``
    and ``can_raise`` of ``insufficient_funds``), each as its param is."""
    return {
        member: param_schema(name)
        for case in refusal.cases.values()
        for member, name in case.members.items()
    }


def params_schema(refusal: Refusal) -> dict[str, Any]:
    """The ``params`` of one code: one object, or one per reason."""
    if None in refusal.cases:
        return case_schema(refusal.cases[None])
    return {"oneOf": [case_schema(c, reason) for reason, c in refusal.cases.items()]}


def case_schema(case: Case, reason: str | None = None) -> dict[str, Any]:
    """The ``params`` of one case of a refusal as JSON Schema: of one ``reason``, if given."""
    properties = {name: param_schema(name) for name in (*case.params, *case.optional)}
    required = list(case.params)
    schema: dict[str, Any] = {"type": "object"}
    if reason is not None:
        schema["description"] = case.description
        properties = {REASON: {"const": reason}, **properties}
        required.insert(0, REASON)
    return {**schema, "properties": properties, "required": required, "additionalProperties": False}


def param_schema(name: str) -> dict[str, Any]:
    """One param of a refusal as JSON Schema, from its declaration (``ledger.refusals.PARAMS``)."""
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
