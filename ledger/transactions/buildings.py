"""Houses and hotels: bought on a complete group, evenly, from the Bank's finite supply, and
sold back at half price.

docs/rules.md: "Building", "Selling buildings".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypedDict

from ledger import rules
from ledger.draft import Body, Draft, option, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.ruleset import Deed
from ledger.transactions import form as f
from ledger.transactions import offers
from ledger.transactions.declare import TransactionRecorded, transaction

MAX_ORDERS = 20  # orders in one build or sale


def _order_fields(offer: offers.Offer, last: f.Field) -> list[f.Field]:
    """The request fields of a build or a sale: one order (a street, of those ``offer`` gives
    a game now; houses or a hotel on it; and ``last``, a build's auctioned price or a sale's
    break-down) given alone, its street then not required, or a list of such ``orders``."""
    on_the_street = (f.whole("houses", min=1, max=4), f.boolean("hotel"), last)
    return [
        f.deed(required=False, offer=offer),
        *on_the_street,
        f.listing("orders", f.deed(offer=offer), *on_the_street, required=False, max=MAX_ORDERS),
    ]


class BuildingsBought(TransactionRecorded):
    """Houses or hotels bought from the Bank."""


class BuildingsSold(TransactionRecorded):
    """Houses or hotels sold back to the Bank at half price."""


def _orders(body: Body) -> list[Body]:
    """The orders of a build or a sale: its list, or the body itself for one street."""
    if body.get("orders"):
        if body.get("property") is not None:
            raise InvalidField("orders", "give either orders or one property, not both")
        orders = body["orders"]
        if not isinstance(orders, list) or not all(isinstance(o, dict) for o in orders):
            raise InvalidField("orders", "a list of orders")
        return orders
    if body.get("property") is None:
        raise InvalidField("property", "a property or a list of orders is required")
    return [body]


def _street_of_owner(d: Draft, order: Body, owner: str | None) -> tuple[Deed, str]:
    """The street an order names and its owner, who must be ``owner`` where given; a deed
    that takes no buildings is refused."""
    deed, who = d.owned_deed(order["property"])
    if not deed.buildable:
        raise RuleViolation("not_buildable", property=deed.slug, kind=deed.kind)
    if owner is not None and who != owner:
        raise InvalidField("orders", "every order of one transaction is for one owner")
    return deed, who


def in_supply(d: Draft, what: Literal["houses", "hotels"], count: int) -> bool:
    """Whether the Bank has ``count`` houses (or hotels) left; None is no limit."""
    left = d.state["supply"][what]
    return left is None or left >= count


def _check_even(d: Draft, slugs: set[str]) -> None:
    """Refuse if the group of any of ``slugs`` is built unevenly (counts more than one apart)."""
    for slug in sorted(slugs):
        if not rules.group_is_even(d.rs, d.state, slug):
            levels = {s: rules.building_level(d.rs, d.prop(s)) for s in d.rs.group_of(slug)}
            raise RuleViolation(
                "uneven_building",
                reason="uneven",
                property=slug,
                group=d.rs.deeds[slug].group,
                levels=levels,
            )


class BuildingsBasis(TypedDict):
    """A build's or a sale's orders, one line each, and what they come to."""

    owner: str
    orders: list[dict[str, Any]]
    total: int


@transaction(
    "build",
    BuildingsBought,
    refusals=[
        "unknown_property",
        "not_owned",
        "not_buildable",
        "group_incomplete",
        "mortgaged",
        "building_limit",
        "uneven_building",
        "no_hotels_left",
        "no_houses_left",
    ],
    fields=_order_fields(
        offers.buildable_deeds,
        f.amount("price", description="per building, when the banker auctioned them"),
    ),
    basis=BuildingsBasis,
)
def buy_buildings(d: Draft[BuildingsBasis], body: Body) -> None:
    """Sell the owner houses or a hotel, evenly, on a complete group without a mortgage."""
    owner, lines, total = _orders_of_owner(d, body, _built, "cost")
    houses = sum(line.get("houses", 0) for line in lines)
    if option(d, "one_house_per_turn") and houses:
        built = d.state["built_this_turn"].get(owner, 0) + houses
        if built > 1:
            raise RuleViolation(
                "building_limit", reason="one_house_per_turn", player=owner, built=built
            )
        d.change("built_this_turn", built, player=owner)
    d.pay(owner, "bank", total)
    d.basis = {"owner": owner, "orders": lines, "total": total}


# One order of a build or a sale on the owner's street: its line of the basis.
Order = Callable[[Draft, Deed, str, Body], dict[str, Any]]


def _orders_of_owner(
    d: Draft, body: Body, line_of: Order, money: str
) -> tuple[str, list[dict[str, Any]], int]:
    """Each order of a build or a sale by ``line_of``, the streets' buildings even after
    them all: the owner, the lines, and the sum of their ``money``."""
    owner: str | None = None
    lines: list[dict[str, Any]] = []
    for order in _orders(body):
        deed, owner = _street_of_owner(d, order, owner)
        lines.append(line_of(d, deed, owner, order))
    _check_even(d, {line["property"] for line in lines})
    assert owner is not None
    return owner, lines, sum(int(line[money]) for line in lines)


def _built(d: Draft, deed: Deed, owner: str, order: Body) -> dict[str, Any]:
    """One order of a build: houses or a hotel put on the street, and what they cost."""
    d.player(owner)
    if not rules.holds_group(d.rs, d.state, deed.slug, owner):
        raise RuleViolation("group_incomplete", owner=owner, property=deed.slug, group=deed.group)
    if rules.group_has_mortgage(d.rs, d.state, deed.slug):
        mortgaged = next(s for s in d.rs.group_of(deed.slug) if d.prop(s)["mortgaged"])
        raise RuleViolation("mortgaged", reason="build", property=mortgaged, group=deed.group)
    if order.get("hotel"):
        _put_a_hotel(d, deed)
        printed, count, what = deed.hotel_price, 1, "hotel"
    else:
        count = _put_houses(d, deed, order)
        printed, what = deed.house_price, "houses"
    unit = _unit_price(d, deed, order, printed)
    return {
        "property": deed.slug,
        what: count if what == "houses" else True,
        "unit_price": unit,
        "printed_price": printed or None,
        "cost": unit * count,
    }


def _put_a_hotel(d: Draft, deed: Deed) -> None:
    """A hotel in place of the street's houses, if it has them all and the Bank a hotel."""
    prop = d.prop(deed.slug)
    per_hotel = int(d.rs.params["houses_before_hotel"])
    if prop["hotel"]:
        raise RuleViolation("building_limit", reason="hotel", property=deed.slug)
    if prop["houses"] != per_hotel:
        raise RuleViolation(
            "uneven_building",
            reason="hotel",
            property=deed.slug,
            needed=per_hotel,
            houses=prop["houses"],
        )
    if not in_supply(d, "hotels", 1):
        raise RuleViolation("no_hotels_left", property=deed.slug)
    d.change("houses", 0, property=deed.slug)
    d.change("hotel", True, property=deed.slug)


def _put_houses(d: Draft, deed: Deed, order: Body) -> int:
    """The order's houses on the street, within its limit and the Bank's; how many."""
    prop = d.prop(deed.slug)
    max_houses = int(d.rs.params["max_houses"])
    count = whole(order, "houses", 1, max_houses, default=1)
    if prop["hotel"] or prop["houses"] + count > max_houses:
        raise RuleViolation("building_limit", reason="houses", property=deed.slug, limit=max_houses)
    if not in_supply(d, "houses", count):
        raise RuleViolation(
            "no_houses_left",
            reason="build",
            property=deed.slug,
            needed=count,
            left=d.state["supply"]["houses"],
        )
    d.change("houses", prop["houses"] + count, property=deed.slug)
    return count


def _unit_price(d: Draft, deed: Deed, order: Body, printed: int) -> int:
    """What one building costs: the deed's printed price; the banker's where the rule set
    prints none (kept as the deed's figure), or an auction's, at least the printed one."""
    if not printed:
        # The box prints the building price, this rule set does not: the banker enters it.
        unit = whole(order, "price")
        d.change("figure", unit, property=deed.slug, field="building_price")
        return unit
    if not d.variant.auctioned_buildings and order.get("price") not in (None, printed):
        raise InvalidField("price", f"a building on {deed.slug} costs {printed}")
    if order.get("price") is not None:
        if whole(order, "price") < printed:
            raise InvalidField("price", f"an auctioned building starts at the printed {printed}")
        return int(order["price"])
    return printed


@transaction(
    "sell_buildings",
    BuildingsSold,
    refusals=[
        "unknown_property",
        "not_owned",
        "not_buildable",
        "no_buildings",
        "no_houses_left",
        "uneven_building",
    ],
    fields=_order_fields(
        offers.built_deeds,
        f.boolean("break_down", description="hotel only: leave the houses it replaced"),
    ),
    basis=BuildingsBasis,
)
def sell_buildings(d: Draft[BuildingsBasis], body: Body) -> None:
    """Buy back the owner's houses or hotel at half price, evenly."""
    owner, lines, total = _orders_of_owner(d, body, _sold, "amount")
    d.pay("bank", owner, total)
    d.basis = {"owner": owner, "orders": lines, "total": total}


def _sold(d: Draft, deed: Deed, owner: str, order: Body) -> dict[str, Any]:
    """One order of a sale: the street's hotel or houses back to the Bank at half price."""
    prop = d.prop(deed.slug)
    half_house = rules.round_half_up(deed.house_price, 2)
    if order.get("hotel"):
        return _sell_the_hotel(d, deed, order, half_house)
    count = whole(order, "houses", 1, default=1)
    if prop["houses"] < count:
        raise RuleViolation(
            "no_buildings", reason="houses", property=deed.slug, houses=prop["houses"], count=count
        )
    d.change("houses", prop["houses"] - count, property=deed.slug)
    return {"property": deed.slug, "houses": count, "amount": count * half_house}


def _sell_the_hotel(d: Draft, deed: Deed, order: Body, half_house: int) -> dict[str, Any]:
    """The street's hotel back to the Bank: with the houses it stood for, or broken down into
    them (which the Bank must have)."""
    per_hotel = int(d.rs.params["houses_before_hotel"])
    half_hotel = rules.round_half_up(deed.hotel_price, 2)
    if not d.prop(deed.slug)["hotel"]:
        raise RuleViolation("no_buildings", reason="hotel", property=deed.slug)
    d.change("hotel", False, property=deed.slug)
    if order.get("break_down"):
        if not in_supply(d, "houses", per_hotel):
            raise RuleViolation(
                "no_houses_left",
                reason="break_down",
                property=deed.slug,
                needed=per_hotel,
                left=d.state["supply"]["houses"],
            )
        d.change("houses", per_hotel, property=deed.slug)
        amount = half_hotel
    else:
        amount = half_hotel + per_hotel * half_house
    return {
        "property": deed.slug,
        "hotel": True,
        "break_down": bool(order.get("break_down")),
        "amount": amount,
    }
