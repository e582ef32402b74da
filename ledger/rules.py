"""Figures the rules compute from a table's state: rent, worth, liquidation, evenness.

Pure functions of a ``RuleSet`` and a state (see ``ledger.state``); no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypedDict

from ledger.ruleset import Deed, RuleSet
from ledger.state import PropertyEntry, Standing, State


def deed_of(rs: RuleSet, state: State, slug: str) -> Deed:
    """A deed with the figures the banker entered where the rule set prints none."""
    deed = rs.deeds[slug]
    entered = state["figures"].get(slug)
    if not entered:
        return deed
    building = entered.get("building_price", deed.house_price)
    return replace(
        deed,
        price=entered.get("price", deed.price),
        house_price=building,
        hotel_price=building,
    )


def shares_value(state: State, player: str) -> int:
    """What a player's shares are worth at the current price (Millionaire Elite)."""
    shares = state["shares"]
    if shares is None:
        return 0
    return int(shares["held"].get(player, 0) * shares["price"])


def round_half_up(numerator: int, denominator: int) -> int:
    """The nearest whole unit, halves up: the only rounding the ledger does."""
    quotient, remainder = divmod(numerator, denominator)
    return quotient + (1 if 2 * remainder >= denominator else 0)


def percent(amount: int, pct: int) -> int:
    """``pct`` percent of ``amount``, rounded half up."""
    return round_half_up(amount * pct, 100)


def active_players(state: State) -> list[str]:
    """Players still in the game, in seat order."""
    return [p for p, v in state["players"].items() if v["bankrupt_seq"] is None]


def seated_players(state: State, options: dict[str, Any]) -> list[str]:
    """Players still at the table: the active, and the bankrupt who play on (house rule)."""
    if options.get("keep_bankrupt_players"):
        return list(state["players"])
    return active_players(state)


def owned_by(state: State, player: str) -> list[str]:
    """The deeds a player holds."""
    return [s for s, p in state["properties"].items() if p["owner"] == player]


def holds_group(rs: RuleSet, state: State, slug: str, owner: str) -> bool:
    """Whether ``owner`` holds every deed of ``slug``'s group."""
    props = state["properties"]
    return all(props[s]["owner"] == owner for s in rs.group_of(slug))


def group_has_mortgage(rs: RuleSet, state: State, slug: str) -> bool:
    """Whether any deed of ``slug``'s group is mortgaged."""
    props = state["properties"]
    return any(props[s]["mortgaged"] for s in rs.group_of(slug))


def group_has_buildings(rs: RuleSet, state: State, slug: str) -> bool:
    """Whether any street of ``slug``'s group carries a house or a hotel."""
    props = state["properties"]
    return any(props[s]["houses"] or props[s]["hotel"] for s in rs.group_of(slug))


def building_level(rs: RuleSet, prop: PropertyEntry) -> int:
    """Houses on a street for even building; a hotel counts one more than it needs."""
    if prop["hotel"]:
        return int(rs.params["houses_before_hotel"]) + 1
    return int(prop["houses"])


def group_is_even(rs: RuleSet, state: State, slug: str) -> bool:
    """Whether the house counts of ``slug``'s group differ by at most one."""
    levels = [building_level(rs, state["properties"][s]) for s in rs.group_of(slug)]
    return max(levels) - min(levels) <= 1


def buildings_cost(rs: RuleSet, deed: Deed, prop: PropertyEntry) -> int:
    """What the buildings on a street cost: a hotel with the houses it replaced."""
    if prop["hotel"]:
        return deed.hotel_price + int(rs.params["houses_before_hotel"]) * deed.house_price
    return int(prop["houses"]) * deed.house_price


def buildings_sale_value(rs: RuleSet, deed: Deed, prop: PropertyEntry) -> int:
    """What the Bank pays for every building on a street: half their cost."""
    if prop["hotel"]:
        return round_half_up(deed.hotel_price, 2) + int(
            rs.params["houses_before_hotel"]
        ) * round_half_up(deed.house_price, 2)
    return int(prop["houses"]) * round_half_up(deed.house_price, 2)


def interest_base(rs: RuleSet, deed: Deed) -> int:
    """What the 10 % mortgage interest is taken of: the mortgage value or the price."""
    if rs.params["mortgage_interest_base"] == "price":
        return deed.price or 0
    return deed.mortgage_value or 0


def mortgage_fee(rs: RuleSet, deed: Deed) -> int:
    """The interest on a mortgage: paid when it is lifted or when the deed changes hands."""
    return percent(interest_base(rs, deed), int(rs.params["mortgage_interest_percent"]))


def houses_and_hotels(state: State, player: str) -> tuple[int, int]:
    """How many houses and hotels stand on a player's streets."""
    houses = hotels = 0
    for prop in state["properties"].values():
        if prop["owner"] == player:
            houses += prop["houses"]
            hotels += int(prop["hotel"])
    return houses, hotels


def net_worth(rs: RuleSet, state: State, player: str) -> int:
    """Cash + deeds at printed price (mortgaged at half; a plot whose price is not known, at
    the bid it was won for) + buildings at purchase price + IOUs held - IOUs owed."""
    worth = state["balances"][player] + shares_value(state, player)
    paid = state.get("paid", {})  # late: a state snapshotted before it lacks it
    for slug in owned_by(state, player):
        deed, prop = deed_of(rs, state, slug), state["properties"][slug]
        price = deed.price if deed.price is not None else paid.get(slug)
        worth += (deed.mortgage_value if prop["mortgaged"] else price) or 0
        worth += buildings_cost(rs, deed, prop)
    for iou in state["ious"].values():
        if iou["holder"] == player:
            worth += iou["outstanding"]
        if iou["debtor"] == player:
            worth -= iou["outstanding"]
    return worth


def total_worth(rs: RuleSet, state: State, player: str) -> int:
    """The income-tax base: cash + every deed at printed price (mortgaged too) + buildings."""
    worth = state["balances"][player]
    for slug in owned_by(state, player):
        deed, prop = deed_of(rs, state, slug), state["properties"][slug]
        worth += (deed.price or 0) + buildings_cost(rs, deed, prop)
    return worth


def liquidation(rs: RuleSet, state: State, player: str) -> dict[str, Any]:
    """What a player could raise: every building sold to the Bank, every deed mortgaged."""
    buildings: list[dict[str, Any]] = []
    mortgages: list[dict[str, Any]] = []
    for slug in owned_by(state, player):
        deed, prop = deed_of(rs, state, slug), state["properties"][slug]
        if prop["houses"] or prop["hotel"]:
            buildings.append(
                {
                    "property": slug,
                    "houses": prop["houses"],
                    "hotel": prop["hotel"],
                    "amount": buildings_sale_value(rs, deed, prop),
                }
            )
        if not prop["mortgaged"] and deed.mortgage_value is not None:
            mortgages.append({"property": slug, "amount": deed.mortgage_value})
    shares = shares_value(state, player)
    can_raise = sum(b["amount"] for b in buildings) + sum(m["amount"] for m in mortgages) + shares
    return {
        "player": player,
        "cash": state["balances"][player],
        "buildings": buildings,
        "mortgages": mortgages,
        "shares": shares,
        "can_raise": can_raise,
        "total": state["balances"][player] + can_raise,
    }


def can_raise(rs: RuleSet, state: State, player: str) -> int:
    """What selling every building and mortgaging every deed would bring in."""
    if player not in state["players"]:
        return 0
    return int(liquidation(rs, state, player)["can_raise"])


class StreetRent(TypedDict):
    """A street's rent before any multiplier, and what it comes from."""

    houses: int
    hotel: bool
    monopoly: bool
    base_rent: int


class RailroadRent(TypedDict):
    """A railroad's rent before any multiplier, and how many railroads its owner holds."""

    railroads_held: int
    base_rent: int


class UtilityRent(TypedDict):
    """A utility's rent: the dice times the factor for the utilities its owner holds."""

    utilities_held: int
    dice: int
    factor: int
    base_rent: int


def street_rent(rs: RuleSet, state: State, deed: Deed) -> StreetRent:
    """A street's rent by its buildings, doubled bare when its owner holds the whole group."""
    prop = state["properties"][deed.slug]
    owner = prop["owner"]
    monopoly = holds_group(rs, state, deed.slug, owner) and not group_has_mortgage(
        rs, state, deed.slug
    )
    if prop["hotel"]:
        rent = deed.rents[-1]
    elif prop["houses"]:
        rent = deed.rents[prop["houses"]]
    else:
        rent = deed.rents[0] * (2 if monopoly else 1)
    return {
        "houses": prop["houses"],
        "hotel": prop["hotel"],
        "monopoly": monopoly,
        "base_rent": rent,
    }


def railroad_rent(rs: RuleSet, state: State, deed: Deed) -> RailroadRent:
    """25, 50, 100, 200 by the railroads the owner holds (mortgaged ones count)."""
    owner = state["properties"][deed.slug]["owner"]
    held = sum(1 for s in rs.group_of(deed.slug) if state["properties"][s]["owner"] == owner)
    return {"railroads_held": held, "base_rent": rs.params["railroad_rents"][held - 1]}


def utility_rent(rs: RuleSet, state: State, deed: Deed, dice: int) -> UtilityRent:
    """4 or 10 times the dice by the utilities the owner holds."""
    owner = state["properties"][deed.slug]["owner"]
    held = sum(1 for s in rs.group_of(deed.slug) if state["properties"][s]["owner"] == owner)
    factor = rs.params["utility_multipliers"][held - 1]
    return {"utilities_held": held, "dice": dice, "factor": factor, "base_rent": factor * dice}


def standings(rs: RuleSet, state: State, options: dict[str, Any] | None = None) -> list[Standing]:
    """Players ranked best first: those at the table by net worth, then the bankrupt who
    left, last out first."""
    seated = seated_players(state, options or {})
    active = [(net_worth(rs, state, p), p) for p in seated]
    active.sort(key=lambda sp: -sp[0])
    out = sorted(
        (p for p in state["players"] if p not in seated),
        key=lambda p: -(state["players"][p]["bankrupt_seq"] or 0),
    )
    ranked: list[Standing] = []
    for score, player in active:
        rank = len(ranked) + 1
        if ranked and ranked[-1]["score"] == score and not ranked[-1]["bankrupt"]:
            rank = ranked[-1]["rank"]
        ranked.append({"player": player, "score": score, "rank": rank, "bankrupt": False})
    for player in out:
        ranked.append({"player": player, "score": 0, "rank": len(ranked) + 1, "bankrupt": True})
    return ranked
