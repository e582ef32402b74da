"""One handler per transaction type: check the rules, compute every amount, draft the facts.

A handler receives a ``Draft`` (a copy of the table's state plus the transaction being
written) and the request's fields. It raises a ``LedgerError`` to refuse, or writes postings,
changes and ``basis`` into the draft. Each posting and change is applied to the draft's state
at once, so later checks (even building, who may still pay) see the table as it will be.
Nothing here is stored: ``Game.record`` turns a finished draft into exactly one event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger import elite, ious, rules
from ledger.draft import Body, Draft, names, one_of, option, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.ruleset import Deed
from ledger.state import JAIL_DECKS

# -- money in and out ----------------------------------------------------------------------


def starting_cash(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    amount = int(d.rs.params["starting_cash"])
    d.pay("bank", player, amount)
    d.basis = {"player": player, "starting_cash": amount}


def deal(d: Draft, body: Body) -> None:
    """Set-up of the short and timed games: deeds dealt to a player, paid at once."""
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


def salary(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    if d.elite:
        elite.round_income(d, player)
        return
    amount = int(d.rs.params["salary"])
    d.pay("bank", player, amount)
    d.basis = {"player": player, "salary": amount}


def payment(d: Draft, body: Body) -> None:
    frm, to = d.account(body["from"]), d.account(body["to"])
    if frm == to:
        raise InvalidField("to", "a payment needs two different accounts")
    amount = whole(body, "amount")
    d.pay(frm, to, amount)
    d.basis = {"amount": amount}


def card(d: Draft, body: Body) -> None:
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
        d.basis.update(players=others, total=amount * len(others))


def buy(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    deed = d.deed(body["property"])
    if d.prop(deed.slug)["owner"] != "bank":
        raise RuleViolation("already_owned", property=deed.slug, owner=d.prop(deed.slug)["owner"])
    printed = d.rs.deeds[deed.slug].price is not None
    deed = d.priced(deed, body.get("price"))
    assert deed.price is not None
    d.change("deed", player, property=deed.slug)
    d.pay(player, "bank", deed.price)
    d.basis = {"property": deed.slug, "price": deed.price, "printed": printed}
    if not printed:
        d.basis["entered"] = body.get("price") is not None


def auction(d: Draft, body: Body) -> None:
    winner = d.player(body["winner"])
    deed = d.deed(body["property"])
    owner = d.prop(deed.slug)["owner"]
    if owner != "bank":
        if not d.elite:
            raise RuleViolation("already_owned", property=deed.slug, owner=owner)
        elite.elite_auction_allowed(d, deed, owner)
    # Nobody bid even 1: the deed stays with the Bank and nothing is recorded.
    bid = whole(body, "bid")
    d.change("deed", winner, property=deed.slug)
    if winner != owner:
        d.pay(winner, owner, bid)
    d.basis = {"property": deed.slug, "bid": bid, "seller": owner, "printed_price": deed.price}


def rent(d: Draft, body: Body) -> None:
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
    if deed.kind in ("plot", "central"):
        # The box's RENT table is not in the rule set: the banker enters the rent, which a
        # card's multiplier multiplies as it does a computed rent.
        entered = whole(body, "amount")
        amount = entered * multiplier
        d.pay(payer, owner, amount)
        d.basis = {
            "property": deed.slug,
            "kind": deed.kind,
            "owner": owner,
            "entered_rent": entered,
            "multiplier": multiplier,
            "rent": amount,
            "entered": True,
        }
        return
    if body.get("amount") is not None:
        raise InvalidField("amount", "this rule set computes the rent; leave it out")
    if deed.kind == "street":
        basis = rules.street_rent(d.rs, d.state, deed)
    elif deed.kind == "railroad":
        basis = rules.railroad_rent(d.rs, d.state, deed)
    else:
        if body.get("dice") is None:
            raise InvalidField("dice", "the dice total is required for utility rent")
        basis = rules.utility_rent(d.rs, d.state, deed, whole(body, "dice", 2, 12))
    amount = basis["base_rent"] * multiplier
    d.pay(payer, owner, amount)
    d.basis = {
        "property": deed.slug,
        "kind": deed.kind,
        "owner": owner,
        **basis,
        "multiplier": multiplier,
        "rent": amount,
    }


def tax(d: Draft, body: Body) -> None:
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


# -- jail ----------------------------------------------------------------------------------


def jail_fine(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    fine = int(d.rs.params["jail_fine"])
    d.pay(player, d.fines_account(), fine)
    d.change("jail", False, player=player)
    d.basis = {"fine": fine}


def jail_card(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    deck = one_of(body, "deck", JAIL_DECKS)
    action = one_of(body, "action", ("draw", "use"))
    holder = d.state["jail_cards"][deck]
    if action == "draw":
        if holder != "deck":
            raise RuleViolation("no_jail_card", reason="held", deck=deck, holder=holder)
        d.change("jail_card", player, deck=deck)
    else:
        if holder != player:
            raise RuleViolation("no_jail_card", reason="not_held", player=player, deck=deck)
        d.change("jail_card", "deck", deck=deck)
        d.change("jail", False, player=player)
    d.basis = {"deck": deck, "action": action}


def go_to_jail(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    d.change("jail", True, player=player)
    d.basis = {"salary": 0}


def leave_jail(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    d.change("jail", False, player=player)
    d.basis = {"doubles": True}


# -- buildings -----------------------------------------------------------------------------


def _orders(body: Body) -> list[Body]:
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
    deed, who = d.owned_deed(order["property"])
    if not deed.buildable:
        raise RuleViolation("not_buildable", property=deed.slug, kind=deed.kind)
    if owner is not None and who != owner:
        raise InvalidField("orders", "every order of one transaction is for one owner")
    return deed, who


def in_supply(d: Draft, what: str, count: int) -> bool:
    """Whether the Bank has ``count`` houses (or hotels) left; None is no limit."""
    left = d.state["supply"][what]
    return left is None or left >= count


def _check_even(d: Draft, slugs: set[str]) -> None:
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


def build(d: Draft, body: Body) -> None:
    owner: str | None = None
    lines: list[dict[str, Any]] = []
    total = 0
    per_hotel = int(d.rs.params["houses_before_hotel"])
    max_houses = int(d.rs.params["max_houses"])
    for order in _orders(body):
        deed, owner = _street_of_owner(d, order, owner)
        d.player(owner)
        if not rules.holds_group(d.rs, d.state, deed.slug, owner):
            raise RuleViolation(
                "group_incomplete", owner=owner, property=deed.slug, group=deed.group
            )
        if rules.group_has_mortgage(d.rs, d.state, deed.slug):
            mortgaged = next(s for s in d.rs.group_of(deed.slug) if d.prop(s)["mortgaged"])
            raise RuleViolation("mortgaged", reason="build", property=mortgaged, group=deed.group)
        prop = d.prop(deed.slug)
        if order.get("hotel"):
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
            unit, count, what = deed.hotel_price, 1, "hotel"
            d.change("houses", 0, property=deed.slug)
            d.change("hotel", True, property=deed.slug)
        else:
            count = whole(order, "houses", 1, max_houses, default=1)
            if prop["hotel"] or prop["houses"] + count > max_houses:
                raise RuleViolation(
                    "building_limit", reason="houses", property=deed.slug, limit=max_houses
                )
            if not in_supply(d, "houses", count):
                raise RuleViolation(
                    "no_houses_left",
                    reason="build",
                    property=deed.slug,
                    needed=count,
                    left=d.state["supply"]["houses"],
                )
            unit, what = deed.house_price, "houses"
            d.change("houses", prop["houses"] + count, property=deed.slug)
        printed = unit
        if not printed:
            # The box prints the building price, this rule set does not: the banker enters it.
            unit = whole(order, "price")
            d.change("figure", unit, property=deed.slug, field="building_price")
        elif d.elite and order.get("price") is not None and order["price"] != printed:
            raise InvalidField("price", f"a building on {deed.slug} costs {printed}")
        elif order.get("price") is not None:
            if whole(order, "price") < printed:
                raise InvalidField(
                    "price", f"an auctioned building starts at the printed {printed}"
                )
            unit = int(order["price"])
        cost = unit * count
        total += cost
        lines.append(
            {
                "property": deed.slug,
                what: count if what == "houses" else True,
                "unit_price": unit,
                "printed_price": printed or None,
                "cost": cost,
            }
        )
    _check_even(d, {line["property"] for line in lines})
    assert owner is not None
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


def sell_buildings(d: Draft, body: Body) -> None:
    owner: str | None = None
    lines: list[dict[str, Any]] = []
    total = 0
    per_hotel = int(d.rs.params["houses_before_hotel"])
    for order in _orders(body):
        deed, owner = _street_of_owner(d, order, owner)
        prop = d.prop(deed.slug)
        half_house = rules.round_half_up(deed.house_price, 2)
        half_hotel = rules.round_half_up(deed.hotel_price, 2)
        if order.get("hotel"):
            if not prop["hotel"]:
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
            lines.append(
                {
                    "property": deed.slug,
                    "hotel": True,
                    "break_down": bool(order.get("break_down")),
                    "amount": amount,
                }
            )
        else:
            count = whole(order, "houses", 1, default=1)
            if prop["houses"] < count:
                raise RuleViolation(
                    "no_buildings",
                    reason="houses",
                    property=deed.slug,
                    houses=prop["houses"],
                    count=count,
                )
            d.change("houses", prop["houses"] - count, property=deed.slug)
            amount = count * half_house
            lines.append({"property": deed.slug, "houses": count, "amount": amount})
        total += amount
    _check_even(d, {line["property"] for line in lines})
    assert owner is not None
    d.pay("bank", owner, total)
    d.basis = {"owner": owner, "orders": lines, "total": total}


# -- mortgages -----------------------------------------------------------------------------


def mortgage(d: Draft, body: Body) -> None:
    deed, owner = d.owned_deed(body["property"])
    if d.prop(deed.slug)["mortgaged"]:
        raise RuleViolation("mortgaged", reason="mortgage", property=deed.slug)
    if d.elite:
        # Millionaire Elite: the plot's own buildings are sold first (RULES.md 4); a bare
        # plot of a built branch may be mortgaged, and then the branch stops building.
        built = d.prop(deed.slug)
        if built["houses"] or built["hotel"]:
            raise RuleViolation("group_has_buildings", reason="plot", property=deed.slug)
    elif rules.group_has_buildings(d.rs, d.state, deed.slug):
        raise RuleViolation(
            "group_has_buildings", reason="group", property=deed.slug, group=deed.group
        )
    deed = d.priced(deed, body.get("price"))
    assert deed.mortgage_value is not None
    d.change("mortgage", True, property=deed.slug)
    d.pay("bank", owner, deed.mortgage_value)
    d.basis = {"property": deed.slug, "owner": owner, "mortgage_value": deed.mortgage_value}


def unmortgage(d: Draft, body: Body) -> None:
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


def _take_mortgaged(d: Draft, receiver: str, slugs: list[str], lift: set[str]) -> list[Body]:
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


def trade(d: Draft, body: Body) -> None:
    lift = set(names(body, "unmortgage"))
    received: dict[str, list[str]] = {}
    seen: set[str] = set()
    moved_cards: set[str] = set()
    legs = []
    # Check ownership against the table as it stood, so deeds cannot be passed along.
    legs_in = body.get("legs")
    if (
        not isinstance(legs_in, list)
        or not legs_in
        or not all(isinstance(x, dict) for x in legs_in)
    ):
        raise InvalidField("legs", "a list of one or more legs")
    for i, leg in enumerate(legs_in):
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
            if rules.group_has_buildings(d.rs, d.before, slug):
                raise RuleViolation(
                    "group_has_buildings", reason="trade", property=slug, group=deed.group
                )
        if not (leg.get("cash") or leg.get("properties") or leg.get("jail_cards")):
            raise InvalidField(f"legs.{i}", "a leg moves cash, deeds or jail cards")
        for deck in names(leg, "jail_cards"):
            if deck not in JAIL_DECKS:
                raise InvalidField(f"legs.{i}.jail_cards", f"decks are {', '.join(JAIL_DECKS)}")
            if deck in moved_cards or d.before["jail_cards"][deck] != frm:
                raise RuleViolation("no_jail_card", reason="not_held", player=frm, deck=deck)
            moved_cards.add(deck)
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
    for slug in lift:
        if slug not in seen or not d.before["properties"][slug]["mortgaged"]:
            raise InvalidField("unmortgage", f"{slug} is not a mortgaged deed of this trade")
    mortgaged = []
    for receiver, slugs in received.items():
        mortgaged += _take_mortgaged(d, receiver, slugs, lift)
    d.basis = {"legs": legs, "mortgaged_received": mortgaged}


# -- the end of a player, the end of the game ------------------------------------------------


def bankruptcy(d: Draft, body: Body) -> None:
    debtor = d.player(body["debtor"])
    creditor = body.get("creditor")
    if creditor != "bank":
        creditor = d.player(creditor)
        if creditor == debtor:
            raise InvalidField("creditor", "a player cannot owe himself")
    if d.rs.params["bankruptcy"] == "bank_covers":
        elite.bank_covers_bankruptcy(d, body, debtor, creditor)
        d.change("jail", False, player=debtor)
        if d.state["turn"] == debtor:
            d.change("turn", None)
        d.change("bankrupt", d.seq, player=debtor)
        _finish_if_over(d)
        return
    liq = rules.liquidation(d.rs, d.before, debtor)
    owed = whole(body, "owed") if body.get("owed") is not None else None
    if owed is not None and liq["total"] >= owed:
        raise RuleViolation(
            "not_insolvent",
            debtor=debtor,
            owed=owed,
            cash=liq["cash"],
            can_raise=liq["can_raise"],
            total=liq["total"],
        )
    lift = set(names(body, "unmortgage"))
    deeds = rules.owned_by(d.state, debtor)
    for slug in lift:
        if slug not in deeds or not d.prop(slug)["mortgaged"] or creditor == "bank":
            raise InvalidField(
                "unmortgage", f"{slug} is not a mortgaged deed the creditor receives"
            )
    sold = []
    # 1. Buildings go to the Bank: sold at half price for a player creditor, taken otherwise.
    # (In the short game they pass to a player creditor with the deeds.)
    keep_buildings = creditor != "bank" and d.rs.params["bankrupt_buildings_to_creditor"]
    for slug in deeds:
        prop = d.prop(slug)
        if keep_buildings or not (prop["houses"] or prop["hotel"]):
            continue
        value = rules.buildings_sale_value(d.rs, d.deed(slug), prop)
        sold.append(
            {
                "property": slug,
                "houses": prop["houses"],
                "hotel": prop["hotel"],
                "amount": value if creditor != "bank" else 0,
            }
        )
        d.change("houses", 0, property=slug)
        d.change("hotel", False, property=slug)
        if creditor != "bank":
            d.pay("bank", debtor, value)
    # 2. All cash, with the sale proceeds, to the creditor.
    cash = d.state["balances"][debtor]
    d.pay(debtor, creditor, cash)
    # 3. Deeds and jail cards.
    for slug in deeds:
        if creditor == "bank":
            d.change("mortgage", False, property=slug)
        d.change("deed", creditor, property=slug)
    for deck in JAIL_DECKS:
        if d.state["jail_cards"][deck] == debtor:
            d.change("jail_card", "deck" if creditor == "bank" else creditor, deck=deck)
    ious_received, ious_cleared = ious.pass_ious(d, debtor, creditor)
    # 4. The creditor pays the 10 % on each mortgaged deed received, lifting those it chooses.
    mortgaged = _take_mortgaged(d, creditor, deeds, lift) if creditor != "bank" else []
    d.change("jail", False, player=debtor)
    if d.state["turn"] == debtor:
        d.change("turn", None)
    d.change("bankrupt", d.seq, player=debtor)
    d.basis = {
        "debtor": debtor,
        "creditor": creditor,
        "owed": owed,
        "liquidation_total": liq["total"],
        "buildings": sold,
        "cash": cash,
        "deeds": deeds,
        "mortgaged_received": mortgaged,
        "ious_received": ious_received,
        "ious_written_off": ious_cleared,
    }
    _finish_if_over(d)


def _finish_if_over(d: Draft) -> None:
    """A game ends by its own rules: at the short game's second bankruptcy, or when one
    player is left (unless bankrupt players stay at the table, house rule)."""
    bankrupt = sum(1 for p in d.state["players"].values() if p["bankrupt_seq"] is not None)
    limit = d.rs.params["ends_after_bankruptcies"]
    ended = limit is not None and bankrupt >= limit
    last_one = len(rules.active_players(d.state)) <= 1  # bankrupt seats kept don't count
    if ended or (last_one and not option(d, "keep_bankrupt_players")):
        _finish(d)


def turn(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    d.basis = {"previous": d.state["turn"], "player": player}
    d.change("turn", player)
    for builder in sorted(d.state["built_this_turn"]):
        d.change("built_this_turn", 0, player=builder)


def _finish(d: Draft) -> None:
    ranked = rules.standings(d.rs, d.state, d.options)
    d.change("status", "finished", standings=ranked)
    d.basis["standings"] = ranked


def finish(d: Draft, body: Body) -> None:
    d.basis = {"scoring": "cash + deeds at price (mortgaged at half) + buildings at cost"}
    _finish(d)


def pot_collect(d: Draft, body: Body) -> None:
    player = d.player(body["player"])
    if not (option(d, "free_parking_pot") or d.elite):
        raise RuleViolation("option_disabled", reason="free_parking_pot")
    amount = d.state["balances"]["pot"]
    d.pay("pot", player, amount)
    d.basis = {"pot": amount}


CARD_EFFECTS = ("collect", "pay", "collect_from_each", "pay_each", "repairs")

Handler = Callable[[Draft, Body], None]

# type -> (handler, event class name). Set-up types are recorded by the ledger itself.
HANDLERS: dict[str, tuple[Handler, str]] = {
    "starting_cash": (starting_cash, "StartingCashPaid"),
    "deal": (deal, "DeedsDealt"),
    "salary": (salary, "SalaryPaid"),
    "payment": (payment, "PaymentMade"),
    "card": (card, "CardApplied"),
    "buy": (buy, "DeedBought"),
    "auction": (auction, "AuctionWon"),
    "rent": (rent, "RentPaid"),
    "tax": (tax, "TaxPaid"),
    "jail_fine": (jail_fine, "JailFinePaid"),
    "jail_card": (jail_card, "JailCardMoved"),
    "go_to_jail": (go_to_jail, "SentToJail"),
    "leave_jail": (leave_jail, "LeftJail"),
    "build": (build, "BuildingsBought"),
    "sell_buildings": (sell_buildings, "BuildingsSold"),
    "mortgage": (mortgage, "DeedMortgaged"),
    "unmortgage": (unmortgage, "MortgageLifted"),
    "trade": (trade, "TradeMade"),
    "bankruptcy": (bankruptcy, "PlayerWentBankrupt"),
    "pot_collect": (pot_collect, "PotCollected"),
    "iou": (ious.iou, "IouIssued"),
    "iou_repay": (ious.iou_repay, "IouRepaid"),
    "iou_transfer": (ious.iou_transfer, "IouTransferred"),
    "iou_forgive": (ious.iou_forgive, "IouForgiven"),
    "turn": (turn, "TurnStarted"),
    "pot_seed": (elite.pot_seed, "PotSeeded"),
    "shares": (elite.shares, "SharesTraded"),
    "share_price": (elite.share_price, "SharePriceMoved"),
    "round_tax": (elite.round_tax, "RoundTaxPaid"),
    "tax_exemption": (elite.tax_exemption, "TaxExemptionGranted"),
    "insurance": (elite.insurance, "InsuranceMoved"),
    "jackpot": (elite.jackpot, "JackpotPlayed"),
    "finish": (finish, "GameFinished"),
}

SETUP_TYPES = frozenset({"starting_cash", "deal", "pot_seed"})

# Types that belong to one variant only; the others are common to every rule set.
ELITE_ONLY = frozenset(
    {"shares", "share_price", "round_tax", "tax_exemption", "insurance", "jackpot", "pot_seed"}
)
CLASSIC_ONLY = frozenset({"tax", "jail_card"})


def check_variant(variant: str, kind: str) -> None:
    """Refuse a transaction type that the game's rule set does not have."""
    if kind in (CLASSIC_ONLY if variant == "millionaire-elite" else ELITE_ONLY):
        raise InvalidField("type", f"a {variant} game has no {kind} transactions")
