"""A transaction's ``changes`` as the OpenAPI document says them: a union discriminated by
``kind``, one variant per kind the ledger declares (``ledger.changes.CHANGES``), each with the
fields naming what it changes and what ``from`` and ``to`` hold, typed, so that a generated
client narrows a change by its kind (``kind === "houses"``: ``to`` is a number).

A kind the ledger declares and this module does not type is a programming error: building the
document raises ``KeyError`` (tests/api/test_openapi_http.py builds it).
"""

from __future__ import annotations

from typing import Any

from ledger.changes import CHANGES, JAIL_DECKS
from schemas.fields import camel

CHANGE = "Change"
SCHEMAS = "#/components/schemas/"

_STRING: dict[str, Any] = {"type": "string"}
_BOOLEAN: dict[str, Any] = {"type": "boolean"}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
_SEQ_OR_NULL: dict[str, Any] = {"type": ["integer", "null"], "minimum": 1}


def _record_or_null(component: str) -> dict[str, Any]:
    """A change's ``from`` or ``to`` that is a ``component`` record, or null where there is none."""
    return {"anyOf": [{"type": "null"}, {"$ref": SCHEMAS + component}]}


# What names the thing a change changes, by field.
TARGETS: dict[str, dict[str, Any]] = {
    "property": {"type": "string", "description": "the deed"},
    "deck": {"type": "string", "enum": list(JAIL_DECKS), "description": "the card's deck"},
    "player": {"type": "string", "description": "the player"},
    "seq": {"type": "integer", "minimum": 1, "description": "the transaction voided"},
    "iou": {"type": "string", "description": "the IOU (iou-<seq>)"},
    "field": {"type": "string", "enum": ["price", "building_price"]},
    "policy": {"type": "string", "description": "the policy's colour"},
    "dispute": {"type": "integer", "minimum": 1, "description": "the dispute's seq"},
}
# Other fields a change carries.
EXTRAS: dict[str, dict[str, Any]] = {
    "standings": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "player": _STRING,
                "score": {"type": "integer"},
                "rank": {"type": "integer", "minimum": 1},
                "bankrupt": _BOOLEAN,
            },
            "required": ["player", "score", "rank", "bankrupt"],
        },
        "description": "when the game finishes: each player's score and rank",
    },
}
# What ``from`` and ``to`` hold, by kind.
VALUES: dict[str, dict[str, Any]] = {
    "deed": _STRING,
    "mortgage": _BOOLEAN,
    "houses": _COUNT,
    "hotel": _BOOLEAN,
    "jail_card": _STRING,
    "jail": _BOOLEAN,
    "bankrupt": _SEQ_OR_NULL,
    "turn": {"type": ["string", "null"]},
    "status": {"type": "string", "enum": ["active", "finished"]},
    "void": _SEQ_OR_NULL,
    "iou": _record_or_null("IouEntry"),
    "iou_outstanding": _COUNT,
    "iou_holder": _STRING,
    "built_this_turn": _COUNT,
    "figure": {"type": ["integer", "null"], "minimum": 0},
    "share_price": _COUNT,
    "shares": _COUNT,
    "policy": _BOOLEAN,
    "exempt": _BOOLEAN,
    "first_lap": _BOOLEAN,
    "name": _STRING,
    "paid": {"type": ["integer", "null"], "minimum": 0},
    "dispute": _record_or_null("DisputeEntry"),
    "dispute_status": {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["open", "upheld", "voided"]},
            "resolved_by": _SEQ_OR_NULL,
            "note": {"type": ["string", "null"]},
        },
        "required": ["status", "resolved_by", "note"],
    },
}


def change_name(kind: str) -> str:
    """The component of one kind: ``iou_holder`` is ``ChangeIouHolder``."""
    return CHANGE + camel(kind)


def change_components() -> dict[str, dict[str, Any]]:
    """A variant per kind of change, and ``Change``, their union discriminated by ``kind``."""
    components: dict[str, dict[str, Any]] = {}
    for kind, change in CHANGES.items():
        value = {**VALUES[kind], "description": change.value}
        components[change_name(kind)] = {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": [kind]},
                **{name: TARGETS[name] for name in change.target},
                **{name: EXTRAS[name] for name in change.extra},
                "from": value,
                "to": value,
            },
            "required": ["kind", *change.target, "from", "to"],
        }
    mapping = {kind: SCHEMAS + change_name(kind) for kind in CHANGES}
    components[CHANGE] = {
        "description": "What a transaction changed besides money: `kind` says what, the "
        "fields beside it which one, `from` and `to` its value before and after.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "kind", "mapping": mapping},
    }
    return components
