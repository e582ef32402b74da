"""The statistics of a game (API.md v1.2, "Statistics of a game")."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.answers import answer


@answer()
class PlayerStatsSchema(Schema):
    """One player's money in and out over the game, and their peak net worth."""

    player = fields.String()
    salary = fields.Integer(
        metadata={"description": "salaries received (Millionaire Elite: the round income)"}
    )
    rent_received = fields.Integer()
    rent_paid = fields.Integer()
    taxes = fields.Integer(
        metadata={"description": "income and luxury tax, jail fines and round tax paid"}
    )
    bought = fields.Integer(
        metadata={
            "description": "paid for deeds: buy, auction and the deal of a short or timed game"
        }
    )
    buildings_bought = fields.Integer(metadata={"description": "paid for houses and hotels"})
    buildings_sold = fields.Integer(metadata={"description": "got back for them from the Bank"})
    interest = fields.Integer(metadata={"description": "mortgage interest and transfer fees"})
    peak_net_worth = fields.Integer(metadata={"description": "the highest net worth reached"})
    peak_seq = fields.Integer(
        metadata={"description": "the first seq where it was reached (0: before the first)"}
    )


@answer()
class DeedStatsSchema(Schema):
    """One deed's owner, what was paid for it and the rent it collected."""

    property = fields.String()
    owner = fields.String(metadata={"description": "the deed's owner now: bank or a player"})
    price_paid = fields.Integer(
        allow_none=True,
        metadata={
            "description": "what the owner paid the Bank (or the seller at an auction) for it, "
            "or at the deal; null when it was traded, handed over or never bought"
        },
    )
    rent_collected = fields.Integer(metadata={"description": "the rent it collected in all"})
    rent_count = fields.Integer(metadata={"description": "how many times it collected rent"})


@answer()
class StatsSchema(Schema):
    """A game's statistics as ``GET .../stats`` answers them: per player and per deed."""

    seq = fields.Integer(metadata={"description": "the last transaction counted"})
    players = fields.List(fields.Nested(PlayerStatsSchema), metadata={"description": "by seat"})
    deeds = fields.List(fields.Nested(DeedStatsSchema), metadata={"description": "board order"})
