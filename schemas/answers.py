"""Response schemas: which fields every answer carries.

A client generated from the OpenAPI document makes every field it is not told is ``required``
optional (API.md v1.2, "The OpenAPI document": "every response schema lists its required
fields"). ``answer`` marks a response schema's fields required, but those an answer may leave
out. Answers are dumped, never loaded, so ``required`` changes nothing but the document; the
schemathesis suite (tests/api/test_schemathesis.py) checks every answer it meets against it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from marshmallow import Schema

S = TypeVar("S", bound=type[Schema])


def answer(*optional: str) -> Callable[[S], S]:
    """Mark every field of the schema required, but those named ``optional``."""

    def mark(schema: S) -> S:
        """``schema``, its fields marked required but ``optional``; a name it lacks raises."""
        declared = schema._declared_fields
        unknown = set(optional) - set(declared)
        if unknown:
            raise ValueError(f"{schema.__name__} has no field {', '.join(sorted(unknown))}")
        for name, field in declared.items():
            if name not in optional:
                field.required = True
        return schema

    return mark
