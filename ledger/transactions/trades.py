"""Trades between players: cash, deeds and jail cards in one atomic deal.

docs/rules.md: "Trades".
"""

from __future__ import annotations

from typing import Any, TypedDict

from ledger.draft import Body, Draft, names, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.state import JAIL_DECKS
from ledger.transactions import form as f
from ledger.transactions import offers
from ledger.transactions.declare import TransactionRecorded, transaction
from ledger.transactions.deeds import check_first_lap, take_mortgaged

MAX_LEGS = 20  # legs of one trade


class TradeMade(TransactionRecorded):
    """An atomic deal between players."""


class TradeBasis(TypedDict):
    """Each leg as moved, and each mortgaged deed received: its 10 %, and whether it was lifted."""

    legs: list[dict[str, Any]]
    mortgaged_received: list[dict[str, Any]]


@transaction(
    "trade",
    TradeMade,
    refusals=[
        "unknown_property",
        "not_owner",
        "mortgaged",
        "group_has_buildings",
        "no_jail_card",
        "first_lap_not_done",
    ],
    fields=[
        f.listing(
            "legs",
            f.player("from"),
            f.player("to"),
            f.amount("cash", min=0),
            f.deeds("properties"),
            f.choice("jail_cards", *JAIL_DECKS, required=False, many=True, max=len(JAIL_DECKS)),
            max=MAX_LEGS,
        ),
        f.deeds(
            "unmortgage", description="mortgaged deeds lifted at once", offer=offers.mortgaged_deeds
        ),
    ],
    basis=TradeBasis,
)
def make_trade(d: Draft[TradeBasis], body: Body) -> None:
    """Move every leg's cash, deeds and jail cards at once; mortgaged deeds cost 10 % more."""
    lift = set(names(body, "unmortgage"))
    received: dict[str, list[str]] = {}
    legs_in = body.get("legs")
    if (
        not isinstance(legs_in, list)
        or not legs_in
        or not all(isinstance(x, dict) for x in legs_in)
    ):
        raise InvalidField("legs", "a list of one or more legs")
    seen = _check_legs(d, legs_in)
    legs = []
    for leg in legs_in:
        frm, to = leg["from"], leg["to"]
        d.pay(frm, to, int(leg.get("cash") or 0))
        for slug in leg.get("properties") or []:
            d.change("deed", to, property=slug)
            received.setdefault(to, []).append(slug)
        for deck in leg.get("jail_cards") or []:
            d.change("jail_card", to, deck=deck)
        legs.append(
            {
                "from": frm,
                "to": to,
                "cash": int(leg.get("cash") or 0),
                "properties": list(leg.get("properties") or []),
                "jail_cards": list(leg.get("jail_cards") or []),
            }
        )
    for receiver in received:
        check_first_lap(d, receiver)
    for slug in lift:
        if slug not in seen or not d.before["properties"][slug]["mortgaged"]:
            raise InvalidField("unmortgage", f"{slug} is not a mortgaged deed of this trade")
    mortgaged = []
    for receiver, slugs in received.items():
        mortgaged += take_mortgaged(d, receiver, slugs, lift)
    d.basis = {"legs": legs, "mortgaged_received": mortgaged}


def _check_legs(d: Draft, legs: list[Body]) -> set[str]:
    """Refuse a leg between one player, of nothing, or of what its giver did not hold as the
    table stood before the trade (so that deeds cannot be passed along); the deeds traded."""
    seen: set[str] = set()
    moved_cards: set[str] = set()
    for i, leg in enumerate(legs):
        frm, to = d.player(leg["from"]), d.player(leg["to"])
        whole(leg, "cash", 0, default=0)
        if frm == to:
            raise InvalidField(f"legs.{i}.to", "a leg needs two different players")
        for slug in names(leg, "properties"):
            deed = d.deed(slug)
            if slug in seen:
                raise InvalidField(f"legs.{i}.properties", f"{slug} is traded twice")
            seen.add(slug)
            if d.before["properties"][slug]["owner"] != frm:
                raise RuleViolation("not_owner", player=frm, property=slug)
            if d.before["properties"][slug]["mortgaged"] and not d.rs.params["mortgaged_tradeable"]:
                raise RuleViolation("mortgaged", reason="trade", property=slug)
            d.variant.check_trade(d, deed)
        if not (leg.get("cash") or leg.get("properties") or leg.get("jail_cards")):
            raise InvalidField(f"legs.{i}", "a leg moves cash, deeds or jail cards")
        for deck in names(leg, "jail_cards"):
            if deck not in JAIL_DECKS:
                raise InvalidField(f"legs.{i}.jail_cards", f"decks are {', '.join(JAIL_DECKS)}")
            if deck in moved_cards or d.before["jail_cards"][deck] != frm:
                raise RuleViolation("no_jail_card", reason="not_held", player=frm, deck=deck)
            moved_cards.add(deck)
    return seen
