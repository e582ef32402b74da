"""The rule sets as the API shows them: their documents, with each deed's id."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_dump, validate

from ledger.parameters import (
    BOOLEAN,
    CHOICE,
    EVERY_VARIANT,
    KEYS,
    PARAMETERS,
    PRICES,
    VARIANT,
    WHOLE,
    WHOLE_OR_NULL,
    WHOLES,
    Parameter,
)
from ledger.ruleset import BUILT_IN
from schemas.answers import answer
from schemas.fields import MAX_AMOUNT, Int, Text

LANGUAGE = r"^[a-z]{2}$"  # ISO 639-1: "en", "ru", "pl"
DEED_ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"
MAX_CURRENCY = 32
MAX_LOCAL_NAME = 60
MAX_LANGUAGES = 16
MAX_DEEDS = 60

CURRENCY_DESCRIPTION = (
    "what the figures count: one label, or a label for each language (a 2-letter code); a "
    "console shows its language's, else the en one, else the first"
)
NAMES_DESCRIPTION = (
    "the deeds' names in other languages: language -> deed id -> name; a console shows its "
    "language's name of a deed, else the deed's name"
)


PARAMETERS_DESCRIPTION = (
    'the money figures of the box (docs/rulesets.md, "Parameters"): each one\'s type, range, '
    "default and meaning below; whether they make a playable board is the ledger's check, and "
    "a parameter it does not know is refused"
)


def parameter_schema(p: Parameter) -> dict[str, Any]:
    """One rule-set parameter as JSON Schema, from its declaration (``ledger.parameters``)."""
    whole = {"type": "integer", "minimum": p.low, "maximum": p.high}
    shapes: dict[str, dict[str, Any]] = {
        WHOLE: whole,
        WHOLE_OR_NULL: {**whole, "type": ["integer", "null"]},
        BOOLEAN: {"type": "boolean"},
        CHOICE: {"type": "string", "enum": list(p.choices)},
        VARIANT: {"type": "string", "enum": list(p.choices)},
        WHOLES: {"type": "array", "items": whole},
        PRICES: {"type": "object", "additionalProperties": whole},
        KEYS: {"type": ["array", "null"], "items": {"type": "string"}},
    }
    notes = [p.description]
    if p.at_most:
        notes.append(f"At most `{p.at_most}`.")
    if p.kind == KEYS:
        notes.append(f"Each one of `{p.of}`; null: those of {', '.join(p.legacy)} it has.")
    if p.variants != EVERY_VARIANT:
        notes.append(f"Read in {', '.join(sorted(p.variants))} games only.")
    if p.required:
        notes.append("Required in a complete document.")
    schema = {**shapes[p.kind], "description": " ".join(notes)}
    if not p.required:
        schema["default"] = p.default
    return schema


def parameters_metadata(description: str, *, answer: bool = False) -> dict[str, Any]:
    """The OpenAPI description of a rule set's ``parameters``: every one the ledger knows.
    An ``answer``'s lists those without a default as required: every rule set the ledger
    holds has them (a document that ``extends`` another may leave them out)."""
    metadata: dict[str, Any] = {
        "description": description,
        "properties": {name: parameter_schema(p) for name, p in PARAMETERS.items()},
        "additionalProperties": False,
    }
    if answer:
        metadata["required"] = [name for name, p in PARAMETERS.items() if p.required]
    return metadata


def _currency_forms() -> list[dict[str, Any]]:
    """The two forms of a currency, as JSON Schema: a label, or labels by language."""
    return [
        {"type": "string", "maxLength": MAX_CURRENCY},
        {
            "type": "object",
            "propertyNames": {"pattern": LANGUAGE},
            "additionalProperties": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_CURRENCY,
            },
            "minProperties": 1,
            "maxProperties": MAX_LANGUAGES,
        },
    ]


class DocumentSchema(Schema):
    """A data document: the declared fields are documented, the others pass through."""

    @post_dump(pass_original=True)
    def keep_undeclared(
        self, data: dict[str, Any], original: dict[str, Any], **kwargs: Any
    ) -> dict[str, Any]:
        """The dump, with the original's members the schema does not declare passed through."""
        return {**{k: v for k, v in original.items() if k not in self.fields}, **data}


# What every rule set's answer carries, a banker's own as well as a built-in one: a banker's
# document may leave out a deed's position (its place in the list), a title, a currency, the
# spaces and the names, and a deed that takes no buildings has no rents or building prices.
@answer("position", "rents", "house_price", "hotel_price")
class DeedSchema(DocumentSchema):
    """A deed of a rule set as the API shows it, with its id."""

    id = fields.String(metadata={"description": "the deed's slug, used in transactions"})
    name = fields.String()
    position = fields.Integer()
    kind = fields.String(
        metadata={"description": "street, railroad or utility; plot or central: Millionaire Elite"}
    )
    group = fields.String()
    price = fields.Integer(
        allow_none=True, metadata={"description": "null where the banker enters the price"}
    )
    mortgage_value = fields.Integer(allow_none=True, metadata={"description": "null with price"})
    buildable = fields.Boolean(
        metadata={"description": "whether it carries houses and hotels: a street or a plot"}
    )
    rents = fields.List(fields.Integer())
    house_price = fields.Integer()
    hotel_price = fields.Integer()


@answer("title", "currency", "names", "spaces")
class RuleSetSchema(DocumentSchema):
    """A rule set's whole document as ``GET /api/v1/rulesets/{name}`` answers it."""

    name = fields.String()
    title = fields.String()
    currency = fields.Raw(
        metadata={"oneOf": _currency_forms(), "description": CURRENCY_DESCRIPTION}
    )
    names = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.String()),
        metadata={"description": NAMES_DESCRIPTION},
    )
    players = fields.Dict(keys=fields.String(), values=fields.Integer())
    # No value field: apispec would document it as additionalProperties.
    parameters = fields.Dict(
        keys=fields.String(),
        metadata=parameters_metadata(
            "the money figures of the box (docs/rulesets.md)", answer=True
        ),
    )
    options = fields.Dict(keys=fields.String(), values=fields.Dict())
    spaces = fields.List(fields.Dict())
    deeds = fields.List(fields.Nested(DeedSchema))


@answer()
class RuleSetListSchema(Schema):
    """Every built-in rule set, whole, as ``GET /api/v1/rulesets`` answers it."""

    items = fields.List(fields.Nested(RuleSetSchema))


# -- the parameters as the server publishes them (GET /api/v1/parameters) -----------------------

PUBLISHED_KINDS = ("amount", "percent", "number", "boolean", "choice", "list", "object")


@answer("choices", "entries", "of")
class ParameterSchema(Schema):
    """One parameter of ``ledger.parameters.PARAMETERS``, as a form is built from it."""

    name = fields.String(metadata={"description": "its key in a document's `parameters`"})
    kind = fields.String(
        validate=validate.OneOf(PUBLISHED_KINDS),
        metadata={
            "description": "amount: money, a whole number of the box's currency; percent: a "
            "whole percentage; number: a whole count or multiplier; boolean; choice: one of "
            "`choices`; list: of `entries`; object: name -> `entries`"
        },
    )
    default = fields.Raw(
        allow_none=True,
        metadata={
            "description": "what a document that leaves it out gets; where a complete document "
            "must give it (`required`), the classic rule set's value"
        },
    )
    required = fields.Boolean(metadata={"description": "a complete document must give it"})
    nullable = fields.Boolean(metadata={"description": "null is a value it takes"})
    min = fields.Integer(
        allow_none=True,
        metadata={
            "description": "the least whole number it holds (each one of a list's or an "
            "object's); null: it holds none"
        },
    )
    max = fields.Integer(
        allow_none=True, metadata={"description": "the largest, as `min`; null: it holds none"}
    )
    variants = fields.List(
        fields.String(),
        metadata={"description": "the variants whose rules read it (`variant`'s choices)"},
    )
    description = fields.String(metadata={"description": "what it means, in one sentence"})
    choices = fields.List(fields.String(), metadata={"description": "a choice's values"})
    entries = fields.String(
        validate=validate.OneOf(("amount", "number", "key")),
        metadata={"description": "what each entry of a list or an object is; key: a key of `of`"},
    )
    of = fields.String(metadata={"description": "the parameter whose keys a list of keys names"})


@answer()
class ParameterListSchema(Schema):
    """Every parameter a rule set may give, as ``GET /api/v1/parameters`` answers it."""

    parameters = fields.List(fields.Nested(ParameterSchema))


# -- a banker's own rule set, as given when a game is created -----------------------------------


class _Strict(Schema):
    """A part of a banker's own rule set: a member it does not declare is refused."""

    class Meta:
        unknown = RAISE


class PlayersRangeInputSchema(_Strict):
    """The fewest and the most players a banker's own rule set seats, each 2 to 8."""

    min = Int(required=True, validate=validate.Range(min=2, max=8))
    max = Int(required=True, validate=validate.Range(min=2, max=8))


class DeedInputSchema(_Strict):
    """One deed of a banker's own rule set, as ``POST /api/v1/games`` takes it."""

    name = Text(required=True, validate=validate.Length(min=1, max=80))
    id = fields.String(
        validate=validate.Regexp(r"^[a-z0-9]+(-[a-z0-9]+)*$"),
        metadata={"description": "the deed's id; by default made from its name"},
    )
    position = Int(validate=validate.Range(min=0, max=1000))
    kind = fields.String(
        required=True,
        validate=validate.OneOf(("street", "railroad", "utility", "plot", "central")),
        metadata={"description": "plot and central: Millionaire Elite boards"},
    )
    group = Text(required=True, validate=validate.Length(min=1, max=64))
    price = Int(
        required=True,
        allow_none=True,
        validate=validate.Range(min=2, max=MAX_AMOUNT),
        metadata={"description": "null for a plot whose price the banker enters"},
    )
    mortgage_value = Int(
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_AMOUNT),
        metadata={
            "description": "as a rule set's answer shows it: half the price (null with a null "
            "price); any other is refused"
        },
    )
    buildable = fields.Boolean(
        metadata={
            "description": "as a rule set's answer shows it: true for a street or a plot, false "
            "for any other kind; any other is refused"
        },
    )
    rents = fields.List(
        Int(validate=validate.Range(min=0, max=MAX_AMOUNT)), validate=validate.Length(max=12)
    )
    house_price = Int(validate=validate.Range(min=0, max=MAX_AMOUNT))
    hotel_price = Int(validate=validate.Range(min=1, max=MAX_AMOUNT))


class SpaceInputSchema(_Strict):
    """One of the board's other spaces (not a deed) in a banker's own rule set, for people."""

    position = Int(required=True, validate=validate.Range(min=0, max=1000))
    kind = Text(required=True, validate=validate.Length(min=1, max=64))
    name = Text(required=True, validate=validate.Length(min=1, max=80))


class OptionInputSchema(_Strict):
    """A house rule a banker's own rule set offers: its type, default and choices."""

    type = fields.String(
        required=True, validate=validate.OneOf(("boolean", "choice", "amount", "minutes"))
    )
    default = fields.Raw(
        allow_none=True, metadata={"description": "null: a minutes option with no clock"}
    )
    choices = fields.List(fields.String(validate=validate.Length(max=64)))
    description = fields.String(validate=validate.Length(max=500))


class CurrencyInput(fields.Field):
    """A currency: one label of up to 32 characters, or a label of 1 to 32 characters for each
    language (a 2-letter code)."""

    default_error_messages = {  # noqa: RUF012 - marshmallow's own declaration style
        "invalid": "A label (a string) or an object of language -> label.",
    }

    def __init__(self, **kwargs: Any) -> None:
        metadata = {
            "oneOf": _currency_forms(),
            "description": CURRENCY_DESCRIPTION,
            **kwargs.pop("metadata", {}),
        }
        super().__init__(metadata=metadata, **kwargs)
        self.label = Text(validate=validate.Length(max=MAX_CURRENCY))
        self.by_language = fields.Dict(
            keys=fields.String(validate=validate.Regexp(LANGUAGE)),
            values=Text(validate=validate.Length(min=1, max=MAX_CURRENCY)),
            validate=validate.Length(min=1, max=MAX_LANGUAGES),
        )

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        """A label, or labels by language, each checked as its form is; anything else refused."""
        if isinstance(value, str):
            return self.label.deserialize(value)
        if isinstance(value, dict):
            return self.by_language.deserialize(value)
        raise ValidationError(self.error_messages["invalid"])


class RuleSetDocumentSchema(_Strict):
    """The rule set of the banker's own box: a whole board, or changes to a built-in one.

    Shapes here; whether the figures make a playable board is the ledger's check."""

    name = fields.String(
        required=True,
        validate=validate.Regexp(r"^[a-z0-9][a-z0-9-]{0,63}$"),
        metadata={"description": "the rule set's name, also given as the game's ruleset"},
    )
    extends = fields.String(
        validate=validate.OneOf(BUILT_IN),
        metadata={"description": "a built-in rule set whose board and figures the rest changes"},
    )
    title = Text(validate=validate.Length(max=200))
    currency = CurrencyInput()
    players = fields.Nested(PlayersRangeInputSchema)
    # Any value passes (no value field, which apispec would document as additionalProperties):
    # the ledger refuses a figure out of range with its own sentence.
    parameters = fields.Dict(
        keys=fields.String(validate=validate.Length(max=64)),
        validate=validate.Length(max=40),
        metadata=parameters_metadata(PARAMETERS_DESCRIPTION),
    )
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=64)),
        values=fields.Nested(OptionInputSchema),
        validate=validate.Length(max=20),
    )
    spaces = fields.List(fields.Nested(SpaceInputSchema), validate=validate.Length(max=200))
    deeds = fields.List(
        fields.Nested(DeedInputSchema), validate=validate.Length(min=1, max=MAX_DEEDS)
    )
    names = fields.Dict(
        keys=fields.String(validate=validate.Regexp(LANGUAGE)),
        values=fields.Dict(
            keys=fields.String(validate=validate.Regexp(DEED_ID)),
            values=Text(validate=validate.Length(min=1, max=MAX_LOCAL_NAME)),
            validate=validate.Length(max=MAX_DEEDS),
        ),
        validate=validate.Length(max=MAX_LANGUAGES),
        metadata={
            "description": NAMES_DESCRIPTION + "; with extends, merged language by language "
            "and deed by deed"
        },
    )
