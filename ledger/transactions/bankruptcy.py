"""Bankruptcy: everything the debtor has passes to the creditor (or the Bank), as the rule set
says; in Millionaire Elite the Bank pays the creditor the rest of the debt.

docs/rules.md: "Bankruptcy".
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ledger import rules
from ledger.draft import Body, Draft, names, whole
from ledger.errors import InvalidField, RuleViolation
from ledger.state import JAIL_DECKS, Standing, shares_of
from ledger.transactions import form as f
from ledger.transactions import offers
from ledger.transactions.declare import TransactionRecorded, transaction
from ledger.transactions.deeds import take_mortgaged
from ledger.transactions.ious import pass_ious
from ledger.transactions.turns import finish_if_over


class PlayerWentBankrupt(TransactionRecorded):
    """A bankruptcy and every transfer it causes."""


class BankruptcyBasis(TypedDict):
    """What passed to the creditor and what the Bank took; with ``bank_covers`` (Millionaire
    Elite), what the Bank paid the creditor and took back; the standings if it ended the game."""

    debtor: str
    creditor: str
    owed: int | None
    cash: int
    liquidation_total: NotRequired[int]
    buildings: NotRequired[list[dict[str, Any]]]
    deeds: NotRequired[list[str]]
    mortgaged_received: NotRequired[list[dict[str, Any]]]
    ious_received: NotRequired[list[str]]
    ious_written_off: NotRequired[list[dict[str, Any]]]
    shares_sold: NotRequired[int]
    share_price: NotRequired[int]
    policies_returned: NotRequired[list[str]]
    bank_pays_creditor: NotRequired[int]
    deeds_returned: NotRequired[list[str]]
    standings: NotRequired[list[Standing]]


@transaction(
    "bankruptcy",
    PlayerWentBankrupt,
    refusals=["not_insolvent"],
    fields=[
        f.player("debtor"),
        f.account("creditor", choices=("bank",), description="'bank' or a player"),
        f.amount("owed"),
        f.deeds(
            "unmortgage",
            description="mortgaged deeds the creditor lifts",
            offer=offers.mortgaged_deeds,
        ),
    ],
    basis=BankruptcyBasis,
)
def declare_bankruptcy(d: Draft[BankruptcyBasis], body: Body) -> None:
    """Pass the insolvent debtor's cash, deeds, cards and IOUs to the creditor and seat them out."""
    debtor = d.player(body["debtor"])
    creditor = body.get("creditor")
    if creditor != "bank":
        creditor = d.player(creditor)
        if creditor == debtor:
            raise InvalidField("creditor", "a player cannot owe himself")
    if d.rs.params["bankruptcy"] == "bank_covers":
        bank_covers(d, body, debtor, creditor)
        _seat_out(d, debtor)
        finish_if_over(d)
        return
    owed = whole(body, "owed") if body.get("owed") is not None else None
    liq = check_insolvent(d, debtor, owed)
    deeds = rules.owned_by(d.state, debtor)
    lift = _lifted(body, deeds, d, creditor)
    sold = _buildings_to_the_bank(d, debtor, creditor, deeds)
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
    ious_received, ious_cleared = pass_ious(d, debtor, creditor)
    # 4. The creditor pays the 10 % on each mortgaged deed received, lifting those it chooses.
    mortgaged = take_mortgaged(d, creditor, deeds, lift) if creditor != "bank" else []
    _seat_out(d, debtor)
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
    finish_if_over(d)


def _seat_out(d: Draft, debtor: str) -> None:
    """The bankrupt player leaves the table: out of jail, not on turn, bankrupt at this seq."""
    d.change("jail", False, player=debtor)
    if d.state["turn"] == debtor:
        d.change("turn", None)
    d.change("bankrupt", d.seq, player=debtor)


def _lifted(body: Body, deeds: list[str], d: Draft, creditor: str) -> set[str]:
    """The mortgaged deeds a player creditor lifts as it receives them (``unmortgage``)."""
    lift = set(names(body, "unmortgage"))
    for slug in lift:
        if slug not in deeds or not d.prop(slug)["mortgaged"] or creditor == "bank":
            raise InvalidField(
                "unmortgage", f"{slug} is not a mortgaged deed the creditor receives"
            )
    return lift


def _buildings_to_the_bank(
    d: Draft, debtor: str, creditor: str, deeds: list[str]
) -> list[dict[str, Any]]:
    """1. Buildings go to the Bank: sold at half price for a player creditor (the debtor
    paid), taken otherwise. (In the short game they pass to a player creditor with the
    deeds.) The lines of the basis."""
    sold: list[dict[str, Any]] = []
    if creditor != "bank" and d.rs.params["bankrupt_buildings_to_creditor"]:
        return sold
    for slug in deeds:
        prop = d.prop(slug)
        if not (prop["houses"] or prop["hotel"]):
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
    return sold


def bank_covers(d: Draft, body: Body, debtor: str, creditor: str) -> None:
    """The debtor's shares go to the Bank at the current price, policies back, all his
    money to the creditor; the Bank pays the creditor the rest of what he owed; buildings
    and plots go back to the Bank."""
    owed = body.get("owed")
    if owed is None:
        raise InvalidField("owed", "the unpaid debt: the Bank pays the creditor the rest")
    owed = whole(body, "owed")
    check_insolvent(d, debtor, owed)
    held = shares_of(d.state)["held"].get(debtor, 0)
    price = shares_of(d.state)["price"]
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


def check_insolvent(d: Draft, debtor: str, owed: int | None) -> dict[str, Any]:
    """What the debtor could raise; refuses a bankruptcy over a debt he could still pay."""
    liq = rules.liquidation(d.rs, d.before, debtor)
    if owed is not None and liq["total"] >= owed:
        raise RuleViolation(
            "not_insolvent",
            debtor=debtor,
            owed=owed,
            cash=liq["cash"],
            can_raise=liq["can_raise"],
            total=liq["total"],
        )
    return liq
