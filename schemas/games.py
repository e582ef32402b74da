"""A new game's body, the game as the API shows it, the list of games (a page at a time), a
liquidation."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from schemas.answers import answer
from schemas.disputes import DisputeEntrySchema
from schemas.fields import (
    MAX_AMOUNT,
    MAX_ID,
    MAX_SEQ,
    Name,
    after_cursor,
    ident,
    names,
    next_cursor,
    page_limit,
)
from schemas.rulesets import RuleSetDocumentSchema

MAX_PLAYERS = 8
# The values ``check_option_values`` accepts, as the OpenAPI document says them.
OPTION_VALUE_TYPES = [
    {"type": "boolean"},
    {"type": "string", "maxLength": MAX_ID},
    {"type": "integer", "minimum": -MAX_AMOUNT, "maximum": MAX_AMOUNT},
]


class NewGameSchema(Schema):
    """The body of ``POST /api/v1/games``: the game to create, its players and its rules."""

    class Meta:
        unknown = RAISE

    name = Name(required=True)
    ruleset = ident(required=True, metadata={"description": "a rule set's name, e.g. classic"})
    players = names(
        max_count=MAX_PLAYERS,
        required=True,
        metadata={
            "description": "the players' names, in seat order: p1, p2, ...; no two the same "
            "ignoring case, none like another to the eye (Unicode's confusable skeletons after "
            "NFKC)"
        },
    )
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=MAX_ID)),
        values=fields.Raw(metadata={"anyOf": OPTION_VALUE_TYPES}),
        metadata={"description": "house rules by name; see the rule set's options"},
    )
    ruleset_document = fields.Nested(
        RuleSetDocumentSchema,
        metadata={
            "description": "the rule set of the banker's own box (see docs/rulesets.md); "
            "its name is given as ruleset"
        },
    )
    dealt = fields.Dict(
        keys=ident(),
        values=fields.List(ident(), validate=validate.Length(max=40)),
        metadata={
            "description": "short and timed games: the deeds dealt to each player "
            '({"p1": ["boardwalk", "..."]}); left out, the server deals at random'
        },
    )

    @validates_schema
    def check_option_values(self, data: dict[str, Any], **kwargs: Any) -> None:
        """An option's value is a boolean, a word or an amount; which one is the rule set's say."""
        errors = {
            name: ["A boolean, a string of up to 64 characters or an integer up to 10**9."]
            for name, value in data.get("options", {}).items()
            if not (
                isinstance(value, bool)
                or (isinstance(value, int) and abs(value) <= MAX_AMOUNT)
                or (isinstance(value, str) and len(value) <= MAX_ID)
            )
        }
        if errors:
            raise ValidationError({"options": errors})


class NoQuerySchema(Schema):
    """An operation that takes no query parameter: any one is refused (422), so that a
    ``?dry_run=true`` meant for a transaction never creates a game for real."""


class AsOfQuerySchema(Schema):
    """The ``seq`` query of a game's read and its statistics: the game as it stood after it."""

    seq = fields.Integer(
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "the game as it stood right after transaction seq"},
    )


# What a game's status is: played, or ended (by finish, its clock, or its bankruptcies).
GAME_STATUSES = ("active", "finished")
# The longest idleness the list of games is asked about: a hundred years.
MAX_IDLE_DAYS = 36_500


@answer("shares", "policies", "tax_exempt")
class PlayerSchema(Schema):
    """A player as a game shows them: their money, net worth, jail and bankruptcy."""

    id = fields.String()
    name = fields.String()
    cash = fields.Integer()
    net_worth = fields.Integer()
    bankrupt = fields.Boolean()
    jail_cards = fields.List(fields.String(), metadata={"description": "decks of the cards held"})
    in_jail = fields.Boolean()
    shares = fields.Integer(metadata={"description": "Millionaire Elite: shares held"})
    policies = fields.List(
        fields.String(), metadata={"description": "Millionaire Elite: insurance policies held"}
    )
    tax_exempt = fields.Boolean(
        metadata={"description": "Millionaire Elite: the next round tax is waived"}
    )


@answer()
class PropertySchema(Schema):
    """One deed in a game: who owns it, whether it is mortgaged, and its buildings."""

    owner = fields.String(metadata={"description": "'bank' or a player"})
    mortgaged = fields.Boolean()
    houses = fields.Integer()
    hotel = fields.Boolean()


@answer()
class SupplySchema(Schema):
    """The houses and hotels the Bank holds; null where the rule set sets no limit."""

    houses = fields.Integer(allow_none=True, metadata={"description": "null: no limit"})
    hotels = fields.Integer(allow_none=True, metadata={"description": "null: no limit"})


@answer()
class IouEntrySchema(Schema):
    """An IOU between two players: who owes it, who holds it, and what is still owed."""

    id = fields.String(
        metadata={"description": "iou-<seq>: what iou_repay, iou_transfer and iou_forgive name"}
    )
    debtor = fields.String(metadata={"description": "the player who owes"})
    holder = fields.String(metadata={"description": "the player owed now (a transfer moves it)"})
    amount = fields.Integer(metadata={"description": "what the IOU was written for"})
    outstanding = fields.Integer(metadata={"description": "what is still owed"})


@answer()
class StandingSchema(Schema):
    """A player's score and rank once the game is finished."""

    player = fields.String()
    score = fields.Integer()
    rank = fields.Integer()


@answer("ends_at", "share_price", "entered_figures", "paid_at_auction", "disputes", "standings")
class GameSchema(Schema):
    """A game as ``GET /api/v1/games/{game}`` answers it, now or as of a ``seq``."""

    id = fields.String()
    name = fields.String()
    ruleset = fields.String()
    status = fields.String(validate=validate.OneOf(GAME_STATUSES))
    version = fields.String(metadata={"description": "opaque; the ETag"})
    created = fields.String(metadata={"description": "RFC 3339 UTC"})
    ends_at = fields.String(
        metadata={
            "description": "a game to a clock (timed, or options.minutes): when it ends, "
            "RFC 3339 UTC; absent otherwise"
        }
    )
    options = fields.Dict()
    balances = fields.Dict(keys=fields.String(), values=fields.Integer())
    players = fields.List(fields.Nested(PlayerSchema))
    properties = fields.Dict(keys=fields.String(), values=fields.Nested(PropertySchema))
    bank = fields.Nested(SupplySchema, metadata={"description": "buildings the Bank holds"})
    jail_cards = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "who holds each deck's card: 'deck' or a player"},
    )
    turn = fields.String(allow_none=True)
    ious = fields.List(fields.Nested(IouEntrySchema), metadata={"description": "open IOUs"})
    disputes = fields.List(
        fields.Nested(DisputeEntrySchema), metadata={"description": "once a dispute is recorded"}
    )
    last_seq = fields.Integer()
    head = fields.String(metadata={"description": "the hash of the last transaction"})
    standings = fields.List(
        fields.Nested(StandingSchema), metadata={"description": "once the game is finished"}
    )
    share_price = fields.Integer(metadata={"description": "Millionaire Elite: a share's price"})
    entered_figures = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Integer()),
        metadata={
            "description": "prices the banker entered where the rule set prints none, by deed "
            "(price, building_price); in every Millionaire Elite game ({} while none is "
            "entered), elsewhere once one is"
        },
    )
    paid_at_auction = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "Millionaire Elite: by plot, the bid it was won for at an auction "
            "while its price was not known, which its holder's net worth counts it at; while "
            "a player holds one"
        },
    )


@answer("ends_at", "share_price", "entered_figures", "paid_at_auction", "disputes", "standings")
class CreatedGameSchema(GameSchema):
    """A new game as its creation or import answers it (201): the game, its tokens shown once."""

    banker_token = fields.String(metadata={"description": "shown once"})
    tokens = fields.Dict(
        keys=fields.String(), values=fields.String(), metadata={"description": "shown once"}
    )


@answer()
class NewTokenSchema(Schema):
    """A role's new token as ``POST .../tokens/{role}`` answers it, with the page it opens."""

    role = fields.String(metadata={"description": "'banker' or the player's id"})
    token = fields.String(metadata={"description": "shown once; the role's token before it ends"})
    link = fields.String(
        metadata={"description": "the page this token opens: the player's, or the banker's console"}
    )


@answer()
class GameSummarySchema(Schema):
    """One game of the list of games: its name, status and activity; never its money."""

    id = fields.String()
    name = fields.String()
    ruleset = fields.String()
    status = fields.String(validate=validate.OneOf(GAME_STATUSES))
    created = fields.String()
    last_activity = fields.String(metadata={"description": "the time of its last transaction"})
    transactions = fields.Integer(metadata={"description": "how many transactions it has"})
    players = fields.Integer(metadata={"description": "how many players it seats"})


@answer()
class GameListSchema(Schema):
    """A page of the games as ``GET /api/v1/games`` answers it."""

    items = fields.List(fields.Nested(GameSummarySchema))
    next = next_cursor()


class GameListQuerySchema(Schema):
    """The query of ``GET /api/v1/games``: which page, and which games (status, idleness)."""

    after = after_cursor()
    limit = page_limit()
    status = fields.String(
        validate=validate.OneOf(GAME_STATUSES), metadata={"description": "only games in it"}
    )
    idle_days = fields.Integer(
        validate=validate.Range(min=0, max=MAX_IDLE_DAYS),
        metadata={"description": "only games with no transaction for so many days"},
    )


@answer()
class BuildingsValueSchema(Schema):
    """What one deed's buildings would sell to the Bank for."""

    property = fields.String()
    houses = fields.Integer()
    hotel = fields.Boolean()
    amount = fields.Integer()


@answer()
class MortgageValueSchema(Schema):
    """What mortgaging one unmortgaged deed would raise."""

    property = fields.String()
    amount = fields.Integer()


@answer()
class LiquidationSchema(Schema):
    """What a player could raise, as ``GET .../players/{player}/liquidation`` answers it."""

    player = fields.String()
    cash = fields.Integer()
    buildings = fields.List(fields.Nested(BuildingsValueSchema))
    mortgages = fields.List(fields.Nested(MortgageValueSchema))
    shares = fields.Integer(
        metadata={
            "description": "what the player's shares sell to the Bank for at the current price "
            "(Millionaire Elite; 0 elsewhere)"
        }
    )
    can_raise = fields.Integer(
        metadata={"description": "the buildings sold, the deeds mortgaged and the shares sold"}
    )
    total = fields.Integer(metadata={"description": "cash + can_raise"})
