"""Title deeds: dealt at set-up, bought, auctioned, rented, mortgaged and lifted.

docs/rules.md: "Buying", "Auctions", "Rent", "Mortgages", and the short game's dealing.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ledger import rules
from ledger.draft import Body, Draft, names, option, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.ruleset import Deed
from ledger.transactions import form as f
from ledger.transactions import offers
from ledger.transactions.declare import TransactionRecorded, transaction

ENTERED_PRICE = (
    "the plot's printed price, where the rule set prints none and it was not entered before "
    "(Millionaire Elite)"
)


class DeedsDealt(TransactionRecorded):
    """Set-up of the short and timed games: deeds dealt to a player, paid at once."""


class DeedBought(TransactionRecorded):
    """A deed bought from the Bank at its price."""


class AuctionWon(TransactionRecorded):
    """A deed won at auction."""


class RentPaid(TransactionRecorded):
    """Rent paid to a deed's owner."""


class DeedMortgaged(TransactionRecorded):
    """A deed mortgaged: the Bank pays its mortgage value."""


class MortgageLifted(TransactionRecorded):
    """A mortgage lifted: the mortgage value and the interest paid to the Bank."""


class DealBasis(TypedDict):
    """The deeds dealt to a player at their printed prices, and what they came to."""

    player: str
    prices: dict[str, int]
    total: int


class BuyBasis(TypedDict):
    """The price paid; where the rule set prints none, whether the banker entered it."""

    property: str
    price: int
    printed: bool
    entered: NotRequired[bool]


class AuctionBasis(TypedDict):
    """The winning bid, who sold (the Bank, or the owner), and the deed's printed price."""

    property: str
    bid: int
    seller: str
    printed_price: int | None


class EnteredRent(TypedDict):
    """The rent the banker entered for a plot or a central plot."""

    entered_rent: int


class RentBasis(TypedDict):
    """The rent and what the rules computed it from (``rules.street_rent`` and the others), or
    the rent the banker entered for a plot or a central plot."""

    property: str
    kind: str
    owner: str
    multiplier: int
    rent: int
    base_rent: NotRequired[int]
    houses: NotRequired[int]
    hotel: NotRequired[bool]
    monopoly: NotRequired[bool]
    railroads_held: NotRequired[int]
    utilities_held: NotRequired[int]
    dice: NotRequired[int]
    factor: NotRequired[int]
    entered_rent: NotRequired[int]
    entered: NotRequired[bool]


class MortgageBasis(TypedDict):
    """The deed mortgaged, its owner, and the mortgage value the Bank paid."""

    property: str
    owner: str
    mortgage_value: int | None


class UnmortgageBasis(TypedDict):
    """The mortgage lifted: its value, the interest and what it is taken of, what the owner paid."""

    property: str
    owner: str
    mortgage_value: int | None
    interest_base: int
    interest: int
    amount: int


@transaction(
    "deal", DeedsDealt, setup=True, refusals=["unknown_property", "already_owned"], basis=DealBasis
)
def deal_deeds(d: Draft[DealBasis], body: Body) -> None:
    """Give a player the deeds dealt to them, paid at their printed prices (set-up)."""
    player = d.player(body["player"])
    deeds = [d.priced(d.deed(slug), None) for slug in names(body, "properties")]
    prices: dict[str, int] = {}
    for deed in deeds:
        assert deed.price is not None
        if d.prop(deed.slug)["owner"] != "bank":
            raise RuleViolation(
                "already_owned", property=deed.slug, owner=d.prop(deed.slug)["owner"]
            )
        d.change("deed", player, property=deed.slug)
        prices[deed.slug] = deed.price
    d.pay(player, "bank", sum(prices.values()))
    d.basis = {"player": player, "prices": prices, "total": sum(prices.values())}


def check_first_lap(d: Draft, player: str) -> None:
    """Under the house rule ``buy_after_first_lap``, deeds only after the first salary on GO."""
    if option(d, "buy_after_first_lap") and not d.state["first_lap"].get(player):
        raise RuleViolation("first_lap_not_done", player=player)


@transaction(
    "buy",
    DeedBought,
    refusals=["unknown_property", "already_owned", "first_lap_not_done"],
    fields=[
        f.player(),
        f.deed(offer=offers.bank_deeds),
        f.amount("price", description=ENTERED_PRICE),
    ],
    basis=BuyBasis,
)
def buy_deed(d: Draft[BuyBasis], body: Body) -> None:
    """Sell a deed of the Bank to a player at its printed (or entered) price."""
    player = d.player(body["player"])
    deed = d.deed(body["property"])
    if d.prop(deed.slug)["owner"] != "bank":
        raise RuleViolation("already_owned", property=deed.slug, owner=d.prop(deed.slug)["owner"])
    check_first_lap(d, player)
    printed = d.rs.deeds[deed.slug].price is not None
    deed = d.priced(deed, body.get("price"))
    assert deed.price is not None
    d.change("deed", player, property=deed.slug)
    d.pay(player, "bank", deed.price)
    d.basis = {"property": deed.slug, "price": deed.price, "printed": printed}
    if not printed:
        d.basis["entered"] = body.get("price") is not None


@transaction(
    "auction",
    AuctionWon,
    refusals=[
        "unknown_property",
        "already_owned",
        "mortgaged",
        "group_has_buildings",
        "insured",
        "first_lap_not_done",
    ],
    fields=[
        f.deed(offer=offers.auction_deeds),
        f.player("winner"),
        f.amount("bid", required=True),
    ],
    basis=AuctionBasis,
)
def win_auction(d: Draft[AuctionBasis], body: Body) -> None:
    """Give the deed to the highest bidder for the bid (an owned plot where the variant allows)."""
    winner = d.player(body["winner"])
    deed = d.deed(body["property"])
    owner = d.prop(deed.slug)["owner"]
    if owner != "bank":
        d.variant.check_auction_of_owned(d, deed, owner)
    if winner != owner:
        check_first_lap(d, winner)
    # Nobody bid even 1: the deed stays with the Bank and nothing is recorded.
    bid = whole(body, "bid")
    d.change("deed", winner, property=deed.slug)
    if winner != owner:
        d.pay(winner, owner, bid)
        if deed.price is None and d.rs.params["unpriced_plot_counts_bid"]:
            # Seed 004 counts plots at what was paid for them; with no price known, that is
            # the bid, kept as a fact of the plot for net worth (rules.net_worth).
            d.change("paid", bid, property=deed.slug)
    d.basis = {"property": deed.slug, "bid": bid, "seller": owner, "printed_price": deed.price}


@transaction(
    "rent",
    RentPaid,
    player_field="payer",
    refusals=[
        "unknown_property",
        "not_owned",
        "own_property",
        "mortgaged",
        "owner_in_jail",
        "claim_window_closed",
    ],
    fields=[
        f.player("payer"),
        f.deed(offer=offers.owned_deeds),
        f.whole("dice", min=2, max=12),
        f.whole("multiplier", min=1, max=10),
        f.amount(),
    ],
    basis=RentBasis,
)
def pay_rent(d: Draft[RentBasis], body: Body) -> None:
    """Charge the rent the rules give for the deed the payer landed on."""
    payer = d.player(body["payer"])
    deed, owner = d.owned_deed(body["property"])
    if owner == payer:
        raise RuleViolation("own_property", payer=payer, property=deed.slug)
    if d.prop(deed.slug)["mortgaged"]:
        raise RuleViolation("mortgaged", reason="rent", property=deed.slug)
    if option(d, "no_rent_in_jail") and d.state["players"][owner]["in_jail"]:
        raise RuleViolation("owner_in_jail", owner=owner, property=deed.slug)
    turn = d.state["turn"]
    if turn is not None and turn != payer:
        raise RuleViolation("claim_window_closed", turn=turn, payer=payer)
    multiplier = whole(body, "multiplier", 1, 10, default=1)
    rent, figures = _rent_before_multiplier(d, body, deed)
    amount = rent * multiplier
    d.pay(payer, owner, amount)
    d.basis = {
        "property": deed.slug,
        "kind": deed.kind,
        "owner": owner,
        **figures,
        "multiplier": multiplier,
        "rent": amount,
    }
    if "entered_rent" in figures:
        d.basis["entered"] = True


def _rent_before_multiplier(
    d: Draft, body: Body, deed: Deed
) -> tuple[int, EnteredRent | rules.StreetRent | rules.RailroadRent | rules.UtilityRent]:
    """The rent of the deed before a card's multiplier, and the figures of the basis it comes
    from: the banker's for a plot or a central plot, the rules' for the others."""
    if deed.kind in ("plot", "central"):
        # The box's RENT table is not in the rule set: the banker enters the rent, which a
        # card's multiplier multiplies as it does a computed rent.
        entered = whole(body, "amount")
        return entered, {"entered_rent": entered}
    if body.get("amount") is not None:
        raise InvalidField("amount", "this rule set computes the rent; leave it out")
    basis: rules.StreetRent | rules.RailroadRent | rules.UtilityRent
    if deed.kind == "street":
        basis = rules.street_rent(d.rs, d.state, deed)
    elif deed.kind == "railroad":
        basis = rules.railroad_rent(d.rs, d.state, deed)
    else:
        if body.get("dice") is None:
            raise InvalidField("dice", "the dice total is required for utility rent")
        basis = rules.utility_rent(d.rs, d.state, deed, whole(body, "dice", 2, 12))
    return basis["base_rent"], basis


@transaction(
    "mortgage",
    DeedMortgaged,
    refusals=["unknown_property", "not_owned", "mortgaged", "group_has_buildings"],
    fields=[
        f.deed(offer=offers.unmortgaged_deeds),
        f.amount("price", description=ENTERED_PRICE),
    ],
    basis=MortgageBasis,
)
def mortgage_deed(d: Draft[MortgageBasis], body: Body) -> None:
    """Pay the owner the deed's mortgage value from the Bank."""
    deed, owner = d.owned_deed(body["property"])
    if d.prop(deed.slug)["mortgaged"]:
        raise RuleViolation("mortgaged", reason="mortgage", property=deed.slug)
    d.variant.check_mortgage(d, deed)
    deed = d.priced(deed, body.get("price"))
    assert deed.mortgage_value is not None
    d.change("mortgage", True, property=deed.slug)
    d.pay("bank", owner, deed.mortgage_value)
    d.basis = {"property": deed.slug, "owner": owner, "mortgage_value": deed.mortgage_value}


@transaction(
    "unmortgage",
    MortgageLifted,
    refusals=["unknown_property", "not_owned", "not_mortgaged"],
    fields=[f.deed(offer=offers.mortgaged_deeds)],
    basis=UnmortgageBasis,
)
def lift_mortgage(d: Draft[UnmortgageBasis], body: Body) -> None:
    """Lift a mortgage: the owner pays the mortgage value and the interest."""
    deed, owner = d.owned_deed(body["property"])
    if not d.prop(deed.slug)["mortgaged"]:
        raise RuleViolation("not_mortgaged", property=deed.slug)
    interest = rules.mortgage_fee(d.rs, deed)
    assert deed.mortgage_value is not None  # known: it was mortgaged at that value
    d.change("mortgage", False, property=deed.slug)
    d.pay(owner, "bank", deed.mortgage_value + interest)
    d.basis = {
        "property": deed.slug,
        "owner": owner,
        "mortgage_value": deed.mortgage_value,
        "interest_base": rules.interest_base(d.rs, deed),
        "interest": interest,
        "amount": deed.mortgage_value + interest,
    }


def take_mortgaged(d: Draft, receiver: str, slugs: list[str], lift: set[str]) -> list[Body]:
    """The receiver of mortgaged deeds pays the 10 % at once, and lifts those it chooses."""
    lines = []
    for slug in slugs:
        deed = d.deed(slug)
        if not d.prop(slug)["mortgaged"] or deed.mortgage_value is None:
            continue
        fee = rules.mortgage_fee(d.rs, deed)
        line: Body = {"property": slug, "receiver": receiver, "fee": fee, "lifted": False}
        amount = fee
        if slug in lift:
            d.change("mortgage", False, property=slug)
            amount += deed.mortgage_value
            line.update(lifted=True, mortgage_value=deed.mortgage_value)
        line["amount"] = amount
        d.pay(receiver, "bank", amount)
        lines.append(line)
    return lines
