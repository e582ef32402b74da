"""The Millionaire Elite rules (RULES.md section 4): shares, round income and round tax,
insurance policies, the jackpot, auctions of owned plots, and bankruptcies the Bank covers.

Handlers here follow ``ledger.commands``: check, compute, draft; nothing is stored here.
"""

from __future__ import annotations

from ledger import rules
from ledger.draft import Body, Draft, one_of, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.ious import pass_ious
from ledger.ruleset import Deed

# Policies that end when their holder next passes START; the others end when used.
SHORT_POLICIES = ("green", "blue")


def policies(d: Draft) -> tuple[str, ...]:
    return tuple(d.rs.params["policies"])


def round_income(d: Draft, player: str) -> None:
    """Passing START: 200 + 20 % of the shares' value; short-term policies go back."""
    base = int(d.rs.params["salary"])
    value = rules.shares_value(d.state, player)
    pct = int(d.rs.params["share_income_percent"])
    income = base + rules.percent(value, pct)
    d.pay("bank", player, income)
    expired = [p for p in SHORT_POLICIES if p in d.state["policies"].get(player, [])]
    for policy in expired:
        d.change("policy", False, player=player, policy=policy)
    d.basis = {
        "player": player,
        "salary": base,
        "shares_value": value,
        "share_income_percent": pct,
        "share_income": income - base,
        "income": income,
        "policies_expired": expired,
    }


def shares(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    action = one_of(body, "action", ("buy", "sell"))
    count = whole(body, "count")
    price = d.state["shares"]["price"]
    held = d.state["shares"]["held"].get(player, 0)
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
        d.basis.update(commission_to=broker, commission=commission)


def share_price(d: Draft, body: Body) -> None:
    direction = one_of(body, "direction", ("up", "down"))
    points = whole(body, "points", 1, 6)
    step = points * int(d.rs.params["share_point"])
    old = d.state["shares"]["price"]
    new = old + step if direction == "up" else max(0, old - step)
    d.change("share_price", new)
    d.basis = {"direction": direction, "points": points, "from": old, "to": new}


def round_tax(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    if d.state["exempt"].get(player):
        d.change("exempt", False, player=player)
        d.basis = {"player": player, "waived": True, "amount": 0}
        return
    held = d.state["shares"]["held"].get(player, 0)
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


def tax_exemption(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    d.change("exempt", True, player=player)
    d.basis = {"player": player, "waives": "the next round tax"}


def insurance(d: Draft, body: Body) -> None:
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


def jackpot(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    stake = whole(body, "stake")
    payout = whole(body, "payout", 0)
    d.pay(player, "pot", stake)
    d.pay("bank", player, payout)
    d.basis = {"stake": stake, "payout": payout, "won": payout > 0}


def pot_seed(d: Draft, body: Body) -> None:
    amount = int(d.rs.params["pot_seed"])
    d.pay("bank", "pot", amount)
    d.basis = {"pot": amount}


def elite_auction_allowed(d: Draft, deed: Deed, owner: str) -> None:
    """The AUCTION space may pick a player's plot, unless mortgaged, insured or built on."""
    prop = d.prop(deed.slug)
    if prop["mortgaged"]:
        raise RuleViolation("mortgaged", reason="auction", property=deed.slug)
    if prop["houses"] or prop["hotel"]:
        raise RuleViolation("group_has_buildings", reason="auction", property=deed.slug)
    if d.state["policies"].get(owner):
        raise RuleViolation("insured", owner=owner, property=deed.slug)


def bank_covers_bankruptcy(d: Draft, body: Body, debtor: str, creditor: str) -> None:
    """The debtor's shares go to the Bank at the current price, policies back, all his
    money to the creditor; the Bank pays the creditor the rest of what he owed; buildings
    and plots go back to the Bank."""
    owed = body.get("owed")
    if owed is None:
        raise InvalidField("owed", "the unpaid debt: the Bank pays the creditor the rest")
    owed = whole(body, "owed")
    liq = rules.liquidation(d.rs, d.before, debtor)
    if liq["total"] >= owed:
        raise RuleViolation(
            "not_insolvent",
            debtor=debtor,
            owed=owed,
            cash=liq["cash"],
            can_raise=liq["can_raise"],
            total=liq["total"],
        )
    held = d.state["shares"]["held"].get(debtor, 0)
    price = d.state["shares"]["price"]
    d.pay("bank", debtor, held * price)
    d.change("shares", 0, player=debtor)
    returned = list(d.state["policies"].get(debtor, []))
    for policy in returned:
        d.change("policy", False, player=debtor, policy=policy)
    d.change("exempt", False, player=debtor)
    cash = d.state["balances"][debtor]
    d.pay(debtor, creditor, cash)
    covered = max(0, owed - cash) if creditor != "bank" else 0
    d.pay("bank", creditor, covered)
    ious_received, ious_cleared = pass_ious(d, debtor, creditor)
    deeds = rules.owned_by(d.state, debtor)
    for slug in deeds:
        d.change("houses", 0, property=slug)
        d.change("hotel", False, property=slug)
        d.change("mortgage", False, property=slug)
        d.change("deed", "bank", property=slug)
    d.basis = {
        "debtor": debtor,
        "creditor": creditor,
        "owed": owed,
        "shares_sold": held,
        "share_price": price,
        "policies_returned": returned,
        "cash": cash,
        "bank_pays_creditor": covered,
        "deeds_returned": deeds,
        "ious_received": ious_received,
        "ious_written_off": ious_cleared,
    }
