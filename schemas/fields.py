"""Strict field types shared by the schemas: JSON integers, JSON booleans, trimmed text."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

# Upper bounds that keep every figure and every string well inside what the ledger and its
# storage handle; no game comes near them.
MAX_AMOUNT = 10**9
MAX_SEQ = 2**31 - 1
MAX_ID = 64


class Int(fields.Integer):
    """A JSON integer: strings, floats and booleans are refused."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class Bool(fields.Boolean):
    """A JSON boolean: 0, 1, "yes" and the like are refused."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid", input=value)


class Text(fields.String):
    """A string with the whitespace around it removed before it is validated."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        return super()._deserialize(value, attr, data, **kwargs).strip()


def money(*, minimum: int = 1, **kwargs: Any) -> Int:
    """An amount of money: a whole number from ``minimum`` to ``MAX_AMOUNT``."""
    return Int(validate=validate.Range(min=minimum, max=MAX_AMOUNT), **kwargs)


def ident(**kwargs: Any) -> fields.String:
    """An identifier the ledger resolves (a player, an account, a deed): 1 to 64 characters."""
    return fields.String(validate=validate.Length(min=1, max=MAX_ID), **kwargs)


def one_of(*values: str, **kwargs: Any) -> fields.String:
    """One of a few fixed words."""
    return fields.String(validate=validate.OneOf(values), **kwargs)
