"""The transaction bodies, one schema per type, and the transactions as the API shows them.

``TRANSACTION_SCHEMAS`` is the dispatch table on ``type``; ``TransactionRequestSchema`` loads
any body through it. A loaded body keeps the API's field names (``from``, ``to``), carries its
``type`` and holds only the fields the client gave: the ledger reads optional fields with
``.get`` and records the request as given. Shapes only: the rules (who may pay, what a deed
costs) are the ledger's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from ledger.transactions import ORDERED, RECORDABLE, REGISTRY, SETUP_TYPES
from ledger.transactions.form import Field
from schemas.answers import answer
from schemas.changes import CHANGE
from schemas.fields import (
    MAX_SEQ,
    Bool,
    IfMatch,
    Int,
    Name,
    Text,
    after_cursor,
    camel,
    ident,
    money,
    next_cursor,
    one_of,
    page_limit,
)


def type_field(kind: str) -> fields.String:
    """The ``type`` discriminator of one transaction schema."""
    return fields.String(required=True, validate=validate.Equal(kind))


class TransactionBodySchema(Schema):
    """What every transaction body may carry besides its own fields."""

    class Meta:
        unknown = RAISE

    memo = Text(allow_none=True, validate=validate.Length(max=500))


# -- built from the declarations ----------------------------------------------------------


def schema_field(field: Field) -> fields.Field:
    """The marshmallow field of one declared request field (ledger.transactions.form)."""
    made = _bare_field(field)
    if field.description:
        made.metadata = {**made.metadata, "description": field.description}
    return made


def _bare_field(field: Field) -> fields.Field:
    """The field of one declared request field, its description aside (``schema_field`` adds it)."""
    kind, required = field.kind, field.required
    if field.many:
        one = schema_field(replace(field, many=False, required=True, description=None, max=None))
        length = validate.Length(max=field.max) if field.max is not None else None
        return fields.List(one, validate=length, required=required)
    if kind in ("player", "account", "deed") or (kind == "choice" and field.source):
        return ident(required=required)
    if kind == "choice":
        return one_of(*field.choices, required=required)
    if kind == "deeds":
        return fields.List(ident(), validate=validate.Length(max=field.max), required=required)
    if kind == "amount":
        return money(minimum=1 if field.min is None else field.min, required=required)
    if kind == "whole":
        return Int(validate=validate.Range(min=field.min, max=field.max), required=required)
    if kind == "seq":
        return Int(validate=validate.Range(min=field.min or 1, max=MAX_SEQ), required=required)
    if kind == "text":
        return Text(validate=validate.Length(min=field.min, max=field.max), required=required)
    if kind == "boolean":
        return Bool(required=required)
    if kind == "list":
        return fields.List(
            fields.Nested(item_schema(field)),
            validate=validate.Length(min=field.min, max=field.max),
            required=required,
        )
    raise ValueError(f"no schema field for kind {kind!r}")  # pragma: no cover - form refuses it


# The name of a list's item schema in the OpenAPI document, by (type, field); others are
# named after the type and the field.
ITEM_NAMES = {("build", "orders"): "BuildOrder", ("sell_buildings", "orders"): "SellOrder"}
ITEM_NAMES |= {("trade", "legs"): "TradeLeg"}
_ITEMS: dict[int, type[Schema]] = {}


def item_schema(field: Field) -> type[Schema]:
    """The schema of one object of a declared list (the refined one, if there is one)."""
    found = _ITEMS.get(id(field))
    if found is None:
        owner = next(
            ((t.name, f.name) for t in REGISTRY.values() for f in t.fields if f is field),
            ("item", field.name),
        )
        name = ITEM_NAMES.get(owner, camel("_".join(owner)))
        found = _ITEMS[id(field)] = type(
            f"{name}Schema",
            (ItemSchema,),
            {f.name: schema_field(f) for f in field.fields},
        )
    return found


class ItemSchema(Schema):
    """One object of a list in a body (a build's order, a trade's leg)."""

    class Meta:
        unknown = RAISE


def derived(kind: str) -> type[TransactionBodySchema]:
    """The request schema of type ``kind``, built from its declared fields. A type whose body
    has checks across its fields refines it: ``class CardSchema(derived("card"))``."""
    declared = REGISTRY[kind]
    attrs: dict[str, Any] = {"type": type_field(kind)}
    attrs |= {f.name: schema_field(f) for f in declared.fields}
    attrs["kind"] = kind
    return type(f"{camel(kind)}Schema", (TransactionBodySchema,), attrs)


def refine_item(kind: str, field: str, refined: type[Schema]) -> None:
    """Use ``refined`` (a subclass of the derived item schema) for the objects of a list."""
    declared = next(f for f in REGISTRY[kind].fields if f.name == field)
    _ITEMS[id(declared)] = refined


# -- the checks across fields, where a type has them -----------------------------------------


class CardSchema(derived("card")):  # type: ignore[misc]
    """The body of a ``card``, its figures as its effect needs: per building, or one amount."""

    @validates_schema
    def check_figures_of_effect(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A repairs card gives its figures per building; every other card, one amount."""
        per_building = ("per_house", "per_hotel")
        required: tuple[str, ...]
        refused: tuple[str, ...]
        if data["effect"] == "repairs":
            required, refused = per_building, ("amount",)
        else:
            required, refused = ("amount",), per_building
        errors: dict[str, list[str]] = {}
        for name in required:
            if name not in data:
                errors[name] = [f"Required for a {data['effect']} card."]
        for name in refused:
            if name in data:
                errors[name] = [f"Not used by a {data['effect']} card."]
        if errors:
            raise ValidationError(errors)


class TaxSchema(derived("tax")):  # type: ignore[misc]
    """The body of a ``tax``, where only income tax takes a ``choice``."""

    @validates_schema
    def check_choice_is_for_income_tax(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Only income tax offers a choice."""
        if data["tax"] != "income" and "choice" in data:
            raise ValidationError("Only income tax offers a choice.", "choice")


def check_houses_or_hotel(data: dict[str, Any]) -> None:
    """One order is for houses or for a hotel, not both."""
    if data.get("hotel") and "houses" in data:
        raise ValidationError("Give houses or hotel: true, not both.", "houses")


def check_property_or_orders(data: dict[str, Any], order_fields: tuple[str, ...]) -> None:
    """One street (with its own fields) or a list of orders."""
    if "orders" in data:
        errors = {
            name: ["Give it in each order."] for name in ("property", *order_fields) if name in data
        }
        if errors:
            raise ValidationError(errors)
    elif "property" not in data:
        raise ValidationError("A property or a list of orders is required.", "property")


def check_break_down_of_hotel(data: dict[str, Any]) -> None:
    """Only a hotel is broken down."""
    if data.get("break_down") and not data.get("hotel"):
        raise ValidationError("Only a hotel is broken down.", "break_down")


def _orders(kind: str) -> Field:
    """The declared ``orders`` field of type ``kind``."""
    return next(f for f in REGISTRY[kind].fields if f.name == "orders")


class BuildOrderSchema(item_schema(_orders("build"))):  # type: ignore[misc]
    """One order of a ``build``: houses or a hotel for one deed."""

    @validates_schema
    def check_one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Houses or a hotel, not both."""
        check_houses_or_hotel(data)


class SellOrderSchema(item_schema(_orders("sell_buildings"))):  # type: ignore[misc]
    """One order of a ``sell_buildings``: houses or a hotel sold off one deed."""

    @validates_schema
    def check_one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Houses or a hotel, not both, and only a hotel broken down."""
        check_houses_or_hotel(data)
        check_break_down_of_hotel(data)


refine_item("build", "orders", BuildOrderSchema)
refine_item("sell_buildings", "orders", SellOrderSchema)


class BuildSchema(derived("build")):  # type: ignore[misc]
    """The body of a ``build``: one deed's buildings, or a list of orders."""

    @validates_schema
    def check_shape(self, data: dict[str, Any], **kwargs: Any) -> None:
        """One deed or a list of orders, for houses or a hotel, not both."""
        check_property_or_orders(data, ("houses", "hotel", "price"))
        check_houses_or_hotel(data)


class SellBuildingsSchema(derived("sell_buildings")):  # type: ignore[misc]
    """The body of a ``sell_buildings``: one deed's buildings, or a list of orders."""

    @validates_schema
    def check_shape(self, data: dict[str, Any], **kwargs: Any) -> None:
        """One deed or a list of orders, houses or a hotel, and only a hotel broken down."""
        check_property_or_orders(data, ("houses", "hotel", "break_down"))
        check_houses_or_hotel(data)
        check_break_down_of_hotel(data)


class RenamePlayerSchema(derived("rename_player")):  # type: ignore[misc]
    """The body of a ``rename_player``: the new name held to the rules of a name at creation."""

    # A new name is a name as at creation (NFC, trimmed, 1 to 40 characters, nothing hidden);
    # that it is not too like another player's is the ledger's to say (ledger.names).
    name = Name(required=True, metadata={"description": "the player's new name"})


# The types whose body has checks across its fields (or a field of a stricter kind than its
# declaration's: a name); every other type's schema is derived.
REFINED: dict[str, type[TransactionBodySchema]] = {
    schema.kind: schema  # type: ignore[attr-defined]
    for schema in (CardSchema, TaxSchema, BuildSchema, SellBuildingsSchema, RenamePlayerSchema)
}
# One schema per type a client may send, in the ledger's order (ledger.transactions.ORDERED).
TRANSACTION_SCHEMAS: dict[str, type[TransactionBodySchema]] = {
    name: REFINED.get(name) or derived(name) for name in ORDERED if name in RECORDABLE
}


class TransactionRequestSchema(Schema):
    """Any transaction body, loaded by the schema its ``type`` names."""

    #: The dispatch table, also read to document the body as a ``oneOf``.
    type_schemas: ClassVar[dict[str, type[Schema]]] = dict(TRANSACTION_SCHEMAS)

    type = fields.String(required=True, validate=validate.OneOf(TRANSACTION_SCHEMAS))

    def load(
        self,
        data: Any,
        *,
        many: bool | None = None,
        partial: Any = None,
        unknown: Any = None,
    ) -> Any:
        """The body loaded by its ``type``'s schema; a missing or unknown type refused alone."""
        if not isinstance(data, Mapping):
            raise ValidationError({"_schema": ["Invalid input type."]})
        kind = data.get("type")
        schema = self.type_schemas.get(kind) if isinstance(kind, str) else None
        if schema is None:
            # Without a known type nothing else can be judged: report the type alone.
            message = (
                "Missing data for required field."
                if kind is None
                else "Must be one of: " + ", ".join(self.type_schemas) + "."
            )
            raise ValidationError({"type": [message]})
        return _instance(schema).load(data, partial=partial, unknown=unknown)


def request_errors(body: dict[str, Any]) -> dict[str, Any]:
    """What the schema of a body's type refuses in it, as marshmallow says it; nothing for a
    type no client sends (the set-up types, which the ledger records itself)."""
    schema = TRANSACTION_SCHEMAS.get(body.get("type"))  # type: ignore[arg-type]
    return {} if schema is None else dict(_instance(schema).validate(body))


_INSTANCES: dict[type[Schema], Schema] = {}


def _instance(schema: type[Schema]) -> Schema:
    """One instance of each transaction schema, built once: building a marshmallow schema
    (its fields bound, its hooks resolved) cost a twentieth of a request. ``load`` keeps no
    state on the instance, so threads may share it."""
    instance = _INSTANCES.get(schema)
    if instance is None:
        instance = _INSTANCES.setdefault(schema, schema())
    return instance


# -- what the API answers ------------------------------------------------------------------


class WriteHeadersSchema(Schema):
    """The headers of ``POST .../transactions``: ``Idempotency-Key`` and ``If-Match``."""

    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(min=1, max=255),
        metadata={"description": "a repeat with the same key and body records nothing"},
    )
    if_match = IfMatch(
        data_key="If-Match",
        metadata={
            "description": "the ETag last seen (or `*`, or several tags): refused with 412 if "
            "the game moved on"
        },
    )


class WriteQuerySchema(Schema):
    """The query of ``POST .../transactions``: ``dry_run``, to ask without recording."""

    dry_run = fields.Boolean(
        load_default=False,
        metadata={
            "description": "answer 200 with what the transaction would record now, refused as "
            "it would be, and record nothing (a new Idempotency-Key is neither used nor kept; "
            "one already recorded answers as the real repeat would: the recorded transaction "
            "with 201 and Idempotent-Replayed, or 422 idempotency_key_reused)"
        },
    )


@answer()
class PostingSchema(Schema):
    """Money a transaction moved from one account to another."""

    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()
    amount = fields.Integer(metadata={"description": "always positive"})


@answer()
class TransactionSchema(Schema):
    """A transaction as its POST (a dry run too) and ``GET .../transactions/{seq}`` answer it."""

    seq = fields.Integer()
    # Every declared type, set-up included: the log holds both (an enum for generated clients).
    type = fields.String(validate=validate.OneOf(sorted(RECORDABLE | SETUP_TYPES)))
    at = fields.String(allow_none=True, metadata={"description": "RFC 3339 UTC; null in a dry run"})
    by = fields.String(
        metadata={"description": "'banker', the player who recorded it, or 'admin' (finish)"}
    )
    memo = fields.String(allow_none=True)
    request = fields.Dict(metadata={"description": "the body as recorded, less type and memo"})
    postings = fields.List(fields.Nested(PostingSchema))
    changes = fields.List(
        fields.Raw(metadata={"component": CHANGE}),
        metadata={"description": "deeds, buildings, cards and jail moved (`Change`, by `kind`)"},
    )
    basis = fields.Dict(metadata={"description": "why each computed amount is what it is"})
    balances = fields.Dict(keys=fields.String(), values=fields.Integer())
    voided_by = fields.Integer(allow_none=True)
    hash = fields.String(allow_none=True, metadata={"description": "null in a dry run"})


@answer()
class TransactionPageSchema(Schema):
    """A page of a game's log as ``GET .../transactions`` answers it."""

    items = fields.List(fields.Nested(TransactionSchema))
    next = next_cursor()


class TransactionQuerySchema(Schema):
    """The query of ``GET .../transactions``: the filters, and which page."""

    account = ident(metadata={"description": "only transactions moving this account's money"})
    type = ident(attribute="kind", metadata={"description": "only transactions of this type"})
    property = ident(
        attribute="deed", metadata={"description": "only transactions about this deed"}
    )
    after = after_cursor()
    limit = page_limit()
