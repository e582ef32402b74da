"""The transaction bodies, one schema per type, and the transactions as the API shows them.

``TRANSACTION_SCHEMAS`` is the dispatch table on ``type``; ``TransactionRequestSchema`` loads
any body through it. A loaded body keeps the API's field names (``from``, ``to``), carries its
``type`` and holds only the fields the client gave: the ledger reads optional fields with
``.get`` and records the request as given. Shapes only: the rules (who may pay, what a deed
costs) are the ledger's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from ledger.transactions import RECORDABLE, SETUP_TYPES
from schemas.answers import answer
from schemas.fields import MAX_SEQ, Bool, Int, Text, ident, money, one_of

DECKS = ("chance", "community_chest")
CARD_EFFECTS = ("collect", "pay", "collect_from_each", "pay_each", "repairs")
MAX_ORDERS = 20
MAX_LEGS = 20
MAX_DEEDS = 40  # more than any board holds


def type_field(kind: str) -> fields.String:
    """The ``type`` discriminator of one transaction schema."""
    return fields.String(required=True, validate=validate.Equal(kind))


def deed_list(**kwargs: Any) -> fields.List:
    """A list of deed ids."""
    return fields.List(ident(), validate=validate.Length(max=MAX_DEEDS), **kwargs)


class TransactionBodySchema(Schema):
    """What every transaction body may carry besides its own fields."""

    class Meta:
        unknown = RAISE

    memo = Text(allow_none=True, validate=validate.Length(max=500))


# -- money in and out ----------------------------------------------------------------------


class SalarySchema(TransactionBodySchema):
    type = type_field("salary")
    player = ident(required=True)


class PaymentSchema(TransactionBodySchema):
    type = type_field("payment")
    from_ = ident(required=True, data_key="from", attribute="from")
    to = ident(required=True)
    amount = money(required=True)


class CardSchema(TransactionBodySchema):
    type = type_field("card")
    player = ident(required=True)
    effect = one_of(*CARD_EFFECTS, required=True)
    amount = money()
    per_house = money(minimum=0)
    per_hotel = money(minimum=0)

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


class BuySchema(TransactionBodySchema):
    type = type_field("buy")
    player = ident(required=True)
    property = ident(required=True)
    price = money()


class AuctionSchema(TransactionBodySchema):
    type = type_field("auction")
    property = ident(required=True)
    winner = ident(required=True)
    bid = money(required=True)


class RentSchema(TransactionBodySchema):
    type = type_field("rent")
    payer = ident(required=True)
    property = ident(required=True)
    dice = Int(validate=validate.Range(min=2, max=12))
    multiplier = Int(validate=validate.Range(min=1, max=10))
    amount = money()


class TaxSchema(TransactionBodySchema):
    type = type_field("tax")
    player = ident(required=True)
    tax = one_of("income", "luxury", required=True)
    choice = one_of("flat", "percent")

    @validates_schema
    def check_choice_is_for_income_tax(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Only income tax offers a choice."""
        if data["tax"] != "income" and "choice" in data:
            raise ValidationError("Only income tax offers a choice.", "choice")


# -- jail ----------------------------------------------------------------------------------


class JailFineSchema(TransactionBodySchema):
    type = type_field("jail_fine")
    player = ident(required=True)


class JailCardSchema(TransactionBodySchema):
    type = type_field("jail_card")
    player = ident(required=True)
    action = one_of("draw", "use", required=True)
    deck = one_of(*DECKS, required=True)


class GoToJailSchema(TransactionBodySchema):
    type = type_field("go_to_jail")
    player = ident(required=True)


class LeaveJailSchema(TransactionBodySchema):
    type = type_field("leave_jail")
    player = ident(required=True)


# -- buildings -----------------------------------------------------------------------------


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


class BuildOrderSchema(Schema):
    class Meta:
        unknown = RAISE

    property = ident(required=True)
    houses = Int(validate=validate.Range(min=1, max=4))
    hotel = Bool()
    price = money(metadata={"description": "per building, when the banker auctioned them"})

    @validates_schema
    def check_one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        check_houses_or_hotel(data)


class BuildSchema(TransactionBodySchema):
    type = type_field("build")
    property = ident()
    houses = Int(validate=validate.Range(min=1, max=4))
    hotel = Bool()
    price = money(metadata={"description": "per building, when the banker auctioned them"})
    orders = fields.List(
        fields.Nested(BuildOrderSchema), validate=validate.Length(min=1, max=MAX_ORDERS)
    )

    @validates_schema
    def check_shape(self, data: dict[str, Any], **kwargs: Any) -> None:
        check_property_or_orders(data, ("houses", "hotel", "price"))
        check_houses_or_hotel(data)


class SellOrderSchema(Schema):
    class Meta:
        unknown = RAISE

    property = ident(required=True)
    houses = Int(validate=validate.Range(min=1, max=4))
    hotel = Bool()
    break_down = Bool(metadata={"description": "hotel only: leave the houses it replaced"})

    @validates_schema
    def check_one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        check_houses_or_hotel(data)
        check_break_down_of_hotel(data)


def check_break_down_of_hotel(data: dict[str, Any]) -> None:
    """Only a hotel is broken down."""
    if data.get("break_down") and not data.get("hotel"):
        raise ValidationError("Only a hotel is broken down.", "break_down")


class SellBuildingsSchema(TransactionBodySchema):
    type = type_field("sell_buildings")
    property = ident()
    houses = Int(validate=validate.Range(min=1, max=4))
    hotel = Bool()
    break_down = Bool(metadata={"description": "hotel only: leave the houses it replaced"})
    orders = fields.List(
        fields.Nested(SellOrderSchema), validate=validate.Length(min=1, max=MAX_ORDERS)
    )

    @validates_schema
    def check_shape(self, data: dict[str, Any], **kwargs: Any) -> None:
        check_property_or_orders(data, ("houses", "hotel", "break_down"))
        check_houses_or_hotel(data)
        check_break_down_of_hotel(data)


# -- mortgages, trades, the end ------------------------------------------------------------


class MortgageSchema(TransactionBodySchema):
    type = type_field("mortgage")
    property = ident(required=True)
    price = money(
        metadata={
            "description": "the plot's printed price, where the rule set prints none "
            "and it was not entered before (Millionaire Elite)"
        }
    )


class UnmortgageSchema(TransactionBodySchema):
    type = type_field("unmortgage")
    property = ident(required=True)


class TradeLegSchema(Schema):
    class Meta:
        unknown = RAISE

    from_ = ident(required=True, data_key="from", attribute="from")
    to = ident(required=True)
    cash = money(minimum=0)
    properties = deed_list()
    jail_cards = fields.List(one_of(*DECKS), validate=validate.Length(max=len(DECKS)))


class TradeSchema(TransactionBodySchema):
    type = type_field("trade")
    legs = fields.List(
        fields.Nested(TradeLegSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_LEGS),
    )
    unmortgage = deed_list(metadata={"description": "mortgaged deeds lifted at once"})


class BankruptcySchema(TransactionBodySchema):
    type = type_field("bankruptcy")
    debtor = ident(required=True)
    creditor = ident(required=True, metadata={"description": "'bank' or a player"})
    owed = money()
    unmortgage = deed_list(metadata={"description": "mortgaged deeds the creditor lifts"})


class PotCollectSchema(TransactionBodySchema):
    type = type_field("pot_collect")
    player = ident(required=True)


class IouSchema(TransactionBodySchema):
    type = type_field("iou")
    debtor = ident(required=True)
    creditor = ident(required=True)
    amount = money(required=True)


class IouRepaySchema(TransactionBodySchema):
    type = type_field("iou_repay")
    iou = ident(required=True, metadata={"description": "the IOU's id, e.g. iou-12"})
    amount = money(required=True)


class IouTransferSchema(TransactionBodySchema):
    type = type_field("iou_transfer")
    iou = ident(required=True)
    to = ident(required=True)


class IouForgiveSchema(TransactionBodySchema):
    type = type_field("iou_forgive")
    iou = ident(required=True)


# -- Millionaire Elite ---------------------------------------------------------------------------


class SharesSchema(TransactionBodySchema):
    type = type_field("shares")
    player = ident(required=True)
    action = one_of("buy", "sell", required=True)
    count = Int(required=True, validate=validate.Range(min=1, max=10**6))
    commission_to = ident(metadata={"description": "the player on EXCHANGE who brokered it"})
    commission = money()


class SharePriceSchema(TransactionBodySchema):
    type = type_field("share_price")
    direction = one_of("up", "down", required=True)
    points = Int(required=True, validate=validate.Range(min=1, max=6))


class RoundTaxSchema(TransactionBodySchema):
    type = type_field("round_tax")
    player = ident(required=True)
    plot_tax = money(minimum=0, metadata={"description": "from the box's TAX table"})


class TaxExemptionSchema(TransactionBodySchema):
    type = type_field("tax_exemption")
    player = ident(required=True)


class InsuranceSchema(TransactionBodySchema):
    type = type_field("insurance")
    player = ident(required=True)
    action = one_of("buy", "use", "return", required=True)
    # The colours are the rule set's (parameters.policies): a box of one's own may add some.
    policy = ident(required=True, metadata={"description": "a policy colour of the rule set"})


class JackpotSchema(TransactionBodySchema):
    type = type_field("jackpot")
    player = ident(required=True)
    stake = money(required=True)
    payout = money(minimum=0, required=True)


class VoidSchema(TransactionBodySchema):
    type = type_field("void")
    seq = Int(required=True, validate=validate.Range(min=1, max=MAX_SEQ))
    reason = Text(required=True, validate=validate.Length(min=1, max=500))
    dispute = Int(
        validate=validate.Range(min=1, max=MAX_SEQ),
        metadata={"description": "the open dispute about seq that this void resolves"},
    )


class DisputeSchema(TransactionBodySchema):
    type = type_field("dispute")
    seq = Int(
        required=True,
        validate=validate.Range(min=1, max=MAX_SEQ),
        metadata={"description": "the transaction disputed"},
    )
    reason = Text(required=True, validate=validate.Length(min=1, max=500))


class DisputeResolveSchema(TransactionBodySchema):
    type = type_field("dispute_resolve")
    dispute = Int(
        required=True,
        validate=validate.Range(min=1, max=MAX_SEQ),
        metadata={"description": "the seq of the dispute"},
    )
    note = Text(required=True, validate=validate.Length(min=1, max=500))


class TurnSchema(TransactionBodySchema):
    type = type_field("turn")
    player = ident(required=True)


class FinishSchema(TransactionBodySchema):
    type = type_field("finish")


TRANSACTION_SCHEMAS: dict[str, type[TransactionBodySchema]] = {
    "salary": SalarySchema,
    "payment": PaymentSchema,
    "card": CardSchema,
    "buy": BuySchema,
    "auction": AuctionSchema,
    "rent": RentSchema,
    "tax": TaxSchema,
    "jail_fine": JailFineSchema,
    "jail_card": JailCardSchema,
    "go_to_jail": GoToJailSchema,
    "leave_jail": LeaveJailSchema,
    "build": BuildSchema,
    "sell_buildings": SellBuildingsSchema,
    "mortgage": MortgageSchema,
    "unmortgage": UnmortgageSchema,
    "trade": TradeSchema,
    "bankruptcy": BankruptcySchema,
    "pot_collect": PotCollectSchema,
    "iou": IouSchema,
    "iou_repay": IouRepaySchema,
    "iou_transfer": IouTransferSchema,
    "iou_forgive": IouForgiveSchema,
    "turn": TurnSchema,
    "shares": SharesSchema,
    "share_price": SharePriceSchema,
    "round_tax": RoundTaxSchema,
    "tax_exemption": TaxExemptionSchema,
    "insurance": InsuranceSchema,
    "jackpot": JackpotSchema,
    "void": VoidSchema,
    "dispute": DisputeSchema,
    "dispute_resolve": DisputeResolveSchema,
    "finish": FinishSchema,
}
# One schema per type a client may send, as the ledger declares them (ledger.transactions).
if set(TRANSACTION_SCHEMAS) != RECORDABLE:  # pragma: no cover - a type added on one side only
    raise RuntimeError(
        "transaction types without a schema or a declaration: "
        f"{sorted(set(TRANSACTION_SCHEMAS) ^ RECORDABLE)}"
    )


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
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(min=1, max=255),
        metadata={"description": "a repeat with the same key and body records nothing"},
    )
    if_match = fields.String(
        data_key="If-Match",
        validate=validate.Length(min=1, max=255),
        metadata={"description": "the ETag last seen: refused with 412 if the game moved on"},
    )


class WriteQuerySchema(Schema):
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
    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()
    amount = fields.Integer(metadata={"description": "always positive"})


@answer()
class TransactionSchema(Schema):
    seq = fields.Integer()
    # Every declared type, set-up included: the log holds both (an enum for generated clients).
    type = fields.String(validate=validate.OneOf(sorted(RECORDABLE | SETUP_TYPES)))
    at = fields.String(allow_none=True, metadata={"description": "RFC 3339 UTC; null in a dry run"})
    by = fields.String(metadata={"description": "'banker' or the player who recorded it"})
    memo = fields.String(allow_none=True)
    request = fields.Dict(metadata={"description": "the body as recorded, less type and memo"})
    postings = fields.List(fields.Nested(PostingSchema))
    changes = fields.List(
        fields.Dict(), metadata={"description": "deeds, buildings, cards and jail moved"}
    )
    basis = fields.Dict(metadata={"description": "why each computed amount is what it is"})
    balances = fields.Dict(keys=fields.String(), values=fields.Integer())
    voided_by = fields.Integer(allow_none=True)
    hash = fields.String(allow_none=True, metadata={"description": "null in a dry run"})


@answer()
class TransactionPageSchema(Schema):
    items = fields.List(fields.Nested(TransactionSchema))
    next = fields.String(
        allow_none=True, metadata={"description": "pass as `after` for the next page"}
    )


class TransactionQuerySchema(Schema):
    account = ident(metadata={"description": "only transactions moving this account's money"})
    type = ident(attribute="kind", metadata={"description": "only transactions of this type"})
    property = ident(
        attribute="deed", metadata={"description": "only transactions about this deed"}
    )
    after = fields.Integer(
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "a cursor: the `next` of the previous page"},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
