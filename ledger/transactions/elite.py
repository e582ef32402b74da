"""The Millionaire Elite types (docs/rules.md, "Millionaire Elite"): shares and their price,
round tax and its exemption, insurance policies, the jackpot and its kitty.

The variant's own money rules inside common types (round income, auctions of owned plots,
mortgages of bare plots) are in ``ledger.variants``.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ledger import rules
from ledger.draft import Body, Draft, one_of, whole
from ledger.errors import InsufficientFunds, InvalidField, RuleViolation
from ledger.parameters import ELITE
from ledger.state import shares_of
from ledger.transactions import form as f
from ledger.transactions.declare import TransactionRecorded, transaction


class PotSeeded(TransactionRecorded):
    """Set-up: the Bank seeds the jackpot kitty."""


class SharesTraded(TransactionRecorded):
    """Shares bought from or sold to the Bank at the current price."""


class SharePriceMoved(TransactionRecorded):
    """The EXCHANGE roll moved the share price."""


class RoundTaxPaid(TransactionRecorded):
    """The round tax, or its waiver."""


class TaxExemptionGranted(TransactionRecorded):
    """The next round tax is waived."""


class InsuranceMoved(TransactionRecorded):
    """A policy bought, used or handed back."""


class JackpotPlayed(TransactionRecorded):
    """A stake into the kitty and the Bank's payout on a win."""


class KittyBasis(TypedDict):
    """The seed the Bank put in the jackpot kitty."""

    pot: int


class SharesBasis(TypedDict):
    """Shares bought or sold at the price; a broker's commission where one was paid."""

    action: str
    count: int
    price: int
    amount: int
    commission_to: NotRequired[str]
    commission: NotRequired[int]


SharePriceBasis = TypedDict(
    "SharePriceBasis", {"direction": str, "points": int, "from": int, "to": int}
)


class RoundTaxBasis(TypedDict):
    """The tax on shares and plots, or none (waived) for an exempt player."""

    player: NotRequired[str]
    amount: int
    waived: NotRequired[bool]
    shares: NotRequired[int]
    per_share: NotRequired[int]
    plot_tax: NotRequired[int]
    plot_tax_entered: NotRequired[bool]


class ExemptionBasis(TypedDict):
    """The player whose next round tax is waived."""

    player: str
    waives: str


class InsuranceBasis(TypedDict):
    """A policy bought (its price) or used or handed back (the action)."""

    policy: str
    price: NotRequired[int]
    action: NotRequired[str]


class JackpotBasis(TypedDict):
    """The stake, the Bank's payout, whether the player won, and whether the stake came back."""

    stake: int
    payout: int
    won: bool
    stake_returned: NotRequired[bool]


def policies(d: Draft) -> tuple[str, ...]:
    """The policy colours the rule set sells."""
    return tuple(d.rs.params["policies"])


@transaction("pot_seed", PotSeeded, variants=[ELITE], setup=True, basis=KittyBasis)
def seed_kitty(d: Draft[KittyBasis], body: Body) -> None:
    """Put the rule set's seed into the jackpot kitty (set-up)."""
    amount = int(d.rs.params["pot_seed"])
    d.pay("bank", "pot", amount)
    d.basis = {"pot": amount}


@transaction(
    "shares",
    SharesTraded,
    variants=[ELITE],
    refusals=["shares_unavailable", "insufficient_shares"],
    fields=[
        f.player(),
        f.choice("action", "buy", "sell"),
        f.whole("count", min=1, max=10**6, required=True),
        f.player(
            "commission_to", required=False, description="the player on EXCHANGE who brokered it"
        ),
        f.amount("commission"),
    ],
    basis=SharesBasis,
)
def trade_shares(d: Draft[SharesBasis], body: Body) -> None:
    """Buy or sell shares at the current price, with a broker's commission if any."""
    player = d.player(body["player"])
    action = one_of(body, "action", ("buy", "sell"))
    count = whole(body, "count")
    price = shares_of(d.state)["price"]
    held = shares_of(d.state)["held"].get(player, 0)
    if action == "buy":
        if price == 0:
            raise RuleViolation("shares_unavailable")
        d.pay(player, "bank", count * price)
        d.change("shares", held + count, player=player)
    else:
        if count > held:
            raise RuleViolation("insufficient_shares", player=player, held=held, count=count)
        d.pay("bank", player, count * price)
        d.change("shares", held - count, player=player)
    d.basis = {"action": action, "count": count, "price": price, "amount": count * price}
    broker = body.get("commission_to")
    if broker is not None or body.get("commission") is not None:
        broker = d.player(broker)
        if broker == player:
            raise InvalidField("commission_to", "the broker is another player")
        commission = whole(body, "commission")
        d.pay(player, broker, commission)
        d.basis["commission_to"] = broker
        d.basis["commission"] = commission


@transaction(
    "share_price",
    SharePriceMoved,
    variants=[ELITE],
    fields=[f.choice("direction", "up", "down"), f.whole("points", min=1, max=6, required=True)],
    basis=SharePriceBasis,
)
def move_share_price(d: Draft[SharePriceBasis], body: Body) -> None:
    """Move the share price by the points rolled, never below 0."""
    direction = one_of(body, "direction", ("up", "down"))
    points = whole(body, "points", 1, 6)
    step = points * int(d.rs.params["share_point"])
    old = shares_of(d.state)["price"]
    new = old + step if direction == "up" else max(0, old - step)
    d.change("share_price", new)
    d.basis = {"direction": direction, "points": points, "from": old, "to": new}


@transaction(
    "round_tax",
    RoundTaxPaid,
    variants=[ELITE],
    fields=[f.player(), f.amount("plot_tax", min=0, description="from the box's TAX table")],
    basis=RoundTaxBasis,
)
def pay_round_tax(d: Draft[RoundTaxBasis], body: Body) -> None:
    """Charge the round tax on shares and plots, unless the player is exempt."""
    player = d.player(body["player"])
    if d.state["exempt"].get(player):
        d.change("exempt", False, player=player)
        d.basis = {"player": player, "waived": True, "amount": 0}
        return
    held = shares_of(d.state)["held"].get(player, 0)
    per_share = int(d.rs.params["share_tax"])
    # The box's TAX table is not in the rule set: the banker enters the plot tax.
    plot_tax = whole(body, "plot_tax", 0)
    amount = held * per_share + plot_tax
    d.pay(player, "bank", amount)
    d.basis = {
        "player": player,
        "shares": held,
        "per_share": per_share,
        "plot_tax": plot_tax,
        "plot_tax_entered": True,
        "amount": amount,
    }


@transaction(
    "tax_exemption",
    TaxExemptionGranted,
    variants=[ELITE],
    fields=[f.player()],
    basis=ExemptionBasis,
)
def grant_tax_exemption(d: Draft[ExemptionBasis], body: Body) -> None:
    """Waive the player's next round tax."""
    player = d.player(body["player"])
    d.change("exempt", True, player=player)
    d.basis = {"player": player, "waives": "the next round tax"}


@transaction(
    "insurance",
    InsuranceMoved,
    variants=[ELITE],
    refusals=["no_policy"],
    fields=[
        f.player(),
        f.choice("action", "buy", "use", "return"),
        f.choice("policy", source="policies", description="a policy colour of the rule set"),
    ],
    basis=InsuranceBasis,
)
def move_policy(d: Draft[InsuranceBasis], body: Body) -> None:
    """Sell a policy at the rule set's price, or take one back used or returned."""
    player = d.player(body["player"])
    action = one_of(body, "action", ("buy", "use", "return"))
    policy = one_of(body, "policy", policies(d))
    held = policy in d.state["policies"].get(player, [])
    if action == "buy":
        if held:
            raise InvalidField("policy", f"{player} holds a {policy} policy already")
        price = int(d.rs.params["policies"][policy])
        d.pay(player, "bank", price)
        d.change("policy", True, player=player, policy=policy)
        d.basis = {"policy": policy, "price": price}
        return
    if not held:
        raise RuleViolation("no_policy", player=player, policy=policy)
    d.change("policy", False, player=player, policy=policy)
    d.basis = {"policy": policy, "action": action}


@transaction(
    "jackpot",
    JackpotPlayed,
    variants=[ELITE],
    fields=[f.player(), f.amount("stake", required=True), f.amount("payout", min=0, required=True)],
    basis=JackpotBasis,
)
def play_jackpot(d: Draft[JackpotBasis], body: Body) -> None:
    """Keep a losing stake in the kitty; on a win the stake comes back with the Bank's payout."""
    player = d.player(body["player"])
    stake = whole(body, "stake")
    payout = whole(body, "payout", 0)
    if not d.rs.params["jackpot_stake_returned"]:
        # A rule set written before the parameter (games stored before it): the stake went
        # into the kitty on a win too. Kept so that those logs replay and import unchanged.
        d.pay(player, "pot", stake)
        d.pay("bank", player, payout)
        d.basis = {"stake": stake, "payout": payout, "won": payout > 0}
        return
    cash = d.state["balances"][player]
    if cash < stake:  # the stake is put in before the machine is played
        raise InsufficientFunds(
            payer=player,
            amount=stake,
            cash=cash,
            can_raise=rules.can_raise(d.rs, d.state, player),
            creditor="bank",
        )
    won = payout > 0
    # Seed 004: "Если игрок проиграл, ставка остаётся в кассе": only a lost stake stays.
    # A won stake goes into the slot and straight back, so no posting moves it.
    if not won:
        d.pay(player, "pot", stake)
    d.pay("bank", player, payout)
    d.basis = {"stake": stake, "payout": payout, "won": won, "stake_returned": won}
