"""Money in and out: starting cash, the salary, payments, cards, taxes, the Free Parking pot.

docs/rules.md: "Set-up and starting cash", "Salary", "Cards", "Income tax and luxury tax",
"House-rule options" (the pot).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ledger import rules
from ledger.draft import Body, Draft, one_of, option, pot_offered, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.parameters import CLASSIC
from ledger.transactions import form as f
from ledger.transactions import offers
from ledger.transactions.declare import TransactionRecorded, transaction

CARD_EFFECTS = ("collect", "pay", "collect_from_each", "pay_each", "repairs")
# A repairs card gives its figures per building; every other card, one amount.
FIXED_EFFECTS = tuple(e for e in CARD_EFFECTS if e != "repairs")
REPAIRS = {"effect": ("repairs",)}


class StartingCashPaid(TransactionRecorded):
    """Set-up: the Bank pays a player the starting cash."""


class SalaryPaid(TransactionRecorded):
    """The Bank pays a player passing GO (Millionaire Elite: the round income)."""


class PaymentMade(TransactionRecorded):
    """Any direct payment between two accounts."""


class CardApplied(TransactionRecorded):
    """A Chance or Community Chest card that moves money."""


class TaxPaid(TransactionRecorded):
    """Income tax or luxury tax paid."""


class PotCollected(TransactionRecorded):
    """The Free Parking pot (or the jackpot kitty) collected."""


class StartingCashBasis(TypedDict):
    """The player and the starting cash the Bank paid him."""

    player: str
    starting_cash: int


class SalaryBasis(TypedDict):
    """The salary; in Millionaire Elite, the round income with its shares' part."""

    player: str
    salary: int
    shares_value: NotRequired[int]
    share_income_percent: NotRequired[int]
    share_income: NotRequired[int]
    income: NotRequired[int]
    policies_expired: NotRequired[list[str]]


class PaymentBasis(TypedDict):
    """The amount paid."""

    amount: int


class CardBasis(TypedDict):
    """A card's amount; a repairs card's buildings and figures; from or to each, the players."""

    effect: str
    amount: int
    houses: NotRequired[int]
    hotels: NotRequired[int]
    per_house: NotRequired[int]
    per_hotel: NotRequired[int]
    players: NotRequired[list[str]]
    total: NotRequired[int]


class TaxBasis(TypedDict):
    """Luxury tax's amount; income tax's way, both figures and the worth it is a percent of."""

    tax: str
    amount: int
    choice: NotRequired[str]
    flat: NotRequired[int]
    percent: NotRequired[int]
    total_worth: NotRequired[int]
    percent_amount: NotRequired[int]


class PotBasis(TypedDict):
    """What the pot held, all of it paid to the player."""

    pot: int


@transaction("starting_cash", StartingCashPaid, setup=True, basis=StartingCashBasis)
def pay_starting_cash(d: Draft[StartingCashBasis], body: Body) -> None:
    """Pay one player the rule set's starting cash (set-up)."""
    player = d.player(body["player"])
    amount = int(d.rs.params["starting_cash"])
    d.pay("bank", player, amount)
    d.basis = {"player": player, "starting_cash": amount}


@transaction("salary", SalaryPaid, fields=[f.player()], basis=SalaryBasis)
def pay_salary(d: Draft[SalaryBasis], body: Body) -> None:
    """Pay the salary for passing GO, or the variant's round income."""
    player = d.player(body["player"])
    d.variant.pay_salary(d, player)
    if option(d, "buy_after_first_lap"):
        # The first salary opens the player's buying (house rule); recorded once, as a fact,
        # so that a replay or a void of that salary knows it without counting salaries.
        d.change("first_lap", True, player=player)


@transaction(
    "payment",
    PaymentMade,
    player_field="from",
    refusals=["option_disabled"],
    fields=[f.account("from"), f.account("to"), f.amount(required=True)],
    basis=PaymentBasis,
)
def make_payment(d: Draft[PaymentBasis], body: Body) -> None:
    """Move an amount from one account to another."""
    frm, to = d.account(body["from"]), d.account(body["to"])
    if frm == to:
        raise InvalidField("to", "a payment needs two different accounts")
    amount = whole(body, "amount")
    d.pay(frm, to, amount)
    d.basis = {"amount": amount}


@transaction(
    "card",
    CardApplied,
    fields=[
        f.player(),
        f.choice("effect", *CARD_EFFECTS),
        f.amount(when={"effect": FIXED_EFFECTS}),
        f.amount("per_house", min=0, when=REPAIRS),
        f.amount("per_hotel", min=0, when=REPAIRS),
    ],
    basis=CardBasis,
)
def apply_card(d: Draft[CardBasis], body: Body) -> None:
    """Apply a card's effect: collect, pay, from or to each player, or repairs."""
    player = d.player(body["player"])
    effect = one_of(body, "effect", CARD_EFFECTS)
    if effect == "repairs":
        per_house = whole(body, "per_house", 0)
        per_hotel = whole(body, "per_hotel", 0)
        houses, hotels = rules.houses_and_hotels(d.state, player)
        amount = per_house * houses + per_hotel * hotels
        d.pay(player, d.fines_account(), amount)
        d.basis = {
            "effect": effect,
            "houses": houses,
            "hotels": hotels,
            "per_house": per_house,
            "per_hotel": per_hotel,
            "amount": amount,
        }
        return
    amount = whole(body, "amount")
    others = [p for p in rules.seated_players(d.state, d.options) if p != player]
    if effect == "collect":
        d.pay("bank", player, amount)
    elif effect == "pay":
        d.pay(player, d.fines_account(), amount)
    elif effect == "collect_from_each":
        for other in others:
            d.pay(other, player, amount)
    elif effect == "pay_each":
        for other in others:
            d.pay(player, other, amount)
    d.basis = {"effect": effect, "amount": amount}
    if effect in ("collect_from_each", "pay_each"):
        d.basis["players"] = others
        d.basis["total"] = amount * len(others)


@transaction(
    "tax",
    TaxPaid,
    variants=[CLASSIC],
    refusals=["option_disabled"],
    fields=[
        f.player(),
        f.choice("tax", "income", "luxury", offer=offers.taxes),
        f.choice(
            "choice",
            "flat",
            "percent",
            required=False,
            when={"tax": ("income",)},
            offer=offers.income_tax_ways,
        ),
    ],
    basis=TaxBasis,
)
def pay_tax(d: Draft[TaxBasis], body: Body) -> None:
    """Charge income tax (flat or percent of total worth) or luxury tax."""
    player = d.player(body["player"])
    if one_of(body, "tax", ("income", "luxury")) == "luxury":
        chosen = option(d, "luxury_tax")
        amount = int(d.rs.params["luxury_tax"] if chosen is None else chosen)
        d.pay(player, d.fines_account(), amount)
        d.basis = {"tax": "luxury", "amount": amount}
        return
    mode = option(d, "income_tax") or "choice"
    choice = one_of(body, "choice", ("flat", "percent"), required=False)
    if mode == "choice" and choice is None:
        raise InvalidField("choice", "flat or percent: the player chooses")
    if mode != "choice":
        if choice is not None and choice != mode:
            raise RuleViolation("option_disabled", reason="income_tax", only=mode)
        choice = mode
    pct = int(d.rs.params["income_tax_percent"])
    worth = rules.total_worth(d.rs, d.state, player)
    flat = int(d.rs.params["income_tax_flat"])
    percent_amount = rules.percent(worth, pct)
    amount = flat if choice == "flat" else percent_amount
    d.pay(player, d.fines_account(), amount)
    d.basis = {
        "tax": "income",
        "choice": choice,
        "flat": flat,
        "percent": pct,
        "total_worth": worth,
        "percent_amount": percent_amount,
        "amount": amount,
    }


@transaction(
    "pot_collect",
    PotCollected,
    refusals=["option_disabled"],
    offered=pot_offered,
    fields=[f.player()],
    basis=PotBasis,
)
def collect_pot(d: Draft[PotBasis], body: Body) -> None:
    """Pay the whole Free Parking pot (or kitty) to the player."""
    player = d.player(body["player"])
    if not pot_offered(d.rs, d.options):
        raise RuleViolation("option_disabled", reason="free_parking_pot")
    amount = d.state["balances"]["pot"]
    d.pay("pot", player, amount)
    d.basis = {"pot": amount}
