"""The fair-play audit: the transactions that look like the economic offences of the Monopoly
One rules (seed 002, its section on violations, 1.1 and 1.3), for the table to judge; flags
change nothing. docs/audit.md, "Fair play", says how each condition of the seed is read.

A handover is what one player gave another in one transaction with less coming back:

- a ``trade``, judged pair by pair: what each of the two handed the other (cash, deeds at
  their printed or entered price, mortgaged ones at half, with the buildings on them at cost,
  jail cards at the jail fine they spare);
- a ``payment`` from one player to another, with nothing back, unless the transaction just
  before or just after it gave the payer an IOU of the payee (issued or passed to him): that
  is a loan, or an IOU bought, and the IOU is what came back (the console records a loan's
  cash first and its IOU right after: ``loan_pair``);
- an ``iou_forgive``: what the debtor no longer owes.

A handover made to the creditor of the giver's bankruptcy recorded right after it is that
bankruptcy's own transfer, not judged. A handover whose return is "far below" what was given
(under ``fairplay_dumping_percent`` of it) is flagged ``propping_up`` when its receiver was
about to go bankrupt (could raise less than ``fairplay_distress_percent`` of the starting cash,
or paid out, in the next transaction, more than he could have raised without it), else
``asset_dumping`` when the net value moved is at least ``fairplay_shift_percent`` of the
receiver's net worth (it shifts the balance of power). Either is ``exempt: "debt_payment"``
when the seed's exception holds (``debt_paid``).

Pure: the rule set, the state before the first transaction, and the records in order; the
states between are rebuilt here with ``apply_transaction``, as a replay does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ledger import rules
from ledger.ruleset import RuleSet
from ledger.state import State, apply_transaction, copy_state

Txn = dict[str, Any]

ASSET_DUMPING = "asset_dumping"  # seed 002, 1.1 "Слив активов"
PROPPING_UP = "propping_up"  # seed 002, 1.3 "Поддержка другого игрока своими ресурсами"
DEBT_PAYMENT = "debt_payment"  # 1.1, "Важное уточнение": a kind of payment of a debt
JUDGED = frozenset({"trade", "payment", "iou_forgive"})
DEBTS = frozenset({"rent", "payment"})  # what a debt paid right after a trade is recorded as


@dataclass
class Side:
    """What one player handed the other in a transaction, each item at its value."""

    cash: int = 0
    deeds: dict[str, int] = field(default_factory=dict)
    jail_cards: dict[str, int] = field(default_factory=dict)
    ious: dict[str, int] = field(default_factory=dict)

    @property
    def value(self) -> int:
        """What every item handed over is worth, cash included."""
        return (
            self.cash
            + sum(self.deeds.values())
            + sum(self.jail_cards.values())
            + sum(self.ious.values())
        )

    def shown(self) -> dict[str, Any]:
        """The items, for the flag's basis."""
        return {
            "cash": self.cash,
            "deeds": dict(self.deeds),
            "jail_cards": dict(self.jail_cards),
            "ious": dict(self.ious),
            "value": self.value,
        }


@dataclass
class Handover:
    """One player's handover to another in one transaction, and what came back."""

    giver: str
    receiver: str
    given: Side
    received: Side


def deed_value(rs: RuleSet, state: State, slug: str) -> int:
    """A deed at its price (mortgaged at half) with the buildings on it at their cost."""
    deed, prop = rules.deed_of(rs, state, slug), state["properties"][slug]
    value = (deed.mortgage_value if prop["mortgaged"] else deed.price) or 0
    return value + rules.buildings_cost(rs, deed, prop)


def handovers(rs: RuleSet, txn: Txn, before: State, previous: Txn | None) -> list[Handover]:
    """The handovers between two players in ``txn``, valued on the table ``before`` it."""
    kind = txn["type"]
    players = before["players"]
    if kind == "trade":
        return _trade_handovers(rs, txn, before)
    if kind == "payment":
        frm, to = txn["request"]["from"], txn["request"]["to"]
        if frm not in players or to not in players:
            return []
        received = Side(ious=_iou_bought(previous, frm, to))
        return [Handover(frm, to, Side(cash=txn["request"]["amount"]), received)]
    if kind == "iou_forgive":
        iou = before["ious"][txn["basis"]["iou"]]
        forgiven = {iou["id"]: txn["basis"]["forgiven"]}
        return [Handover(iou["holder"], iou["debtor"], Side(ious=forgiven), Side())]
    return []


def _iou_bought(other: Txn | None, payer: str, payee: str) -> dict[str, int]:
    """The IOU the transaction next to a payment (just before or just after it) gave the payer
    from the payee: issued by the payee to him (a loan), or passed by the payee to him (an IOU
    sold)."""
    if other is None:
        return {}
    basis = other["basis"]
    if other["type"] == "iou" and (basis["debtor"], basis["creditor"]) == (payee, payer):
        return {basis["iou"]: basis["amount"]}
    if other["type"] == "iou_transfer" and (basis["from"], basis["to"]) == (payee, payer):
        return {basis["iou"]: basis["outstanding"]}
    return {}


def loan_pair(first: Txn, second: Txn) -> bool:
    """Whether two transactions in a row are one loan or one IOU bought: a payment and the IOU
    of its payee that the other gives its payer, in either order. Each alone moves value one
    way; the pair does not (``ledger.stats`` takes no peak between them)."""
    if first["type"] == "payment":
        payment, other = first, second
    elif second["type"] == "payment":
        payment, other = second, first
    else:
        return False
    request = payment["request"]
    return bool(_iou_bought(other, request.get("from"), request.get("to")))


def _trade_handovers(rs: RuleSet, txn: Txn, before: State) -> list[Handover]:
    """Each pair of a trade: the one who handed over more is the giver."""
    sides: dict[tuple[str, str], Side] = {}
    card_value = int(rs.params["jail_fine"])
    for leg in txn["basis"]["legs"]:
        side = sides.setdefault((leg["from"], leg["to"]), Side())
        side.cash += leg["cash"]
        for slug in leg["properties"]:
            side.deeds[slug] = deed_value(rs, before, slug)
        for deck in leg["jail_cards"]:
            side.jail_cards[deck] = card_value
    out = []
    for a, b in sorted({tuple(sorted(pair)) for pair in sides}):
        ab, ba = sides.get((a, b), Side()), sides.get((b, a), Side())
        if ab.value > ba.value:
            out.append(Handover(a, b, ab, ba))
        elif ba.value > ab.value:
            out.append(Handover(b, a, ba, ab))
    return out


def _paid_before_bankruptcy(following: Txn | None, giver: str, receiver: str) -> bool:
    """Whether the giver goes bankrupt to the receiver right after: what he handed over is
    his creditor's by the rules (docs/rules.md: the bankrupt's cash goes to his creditor)."""
    if following is None or following["type"] != "bankruptcy":
        return False
    request = following["request"]
    return bool(request.get("debtor") == giver and request.get("creditor") == receiver)


def paid_out(txn: Txn | None, player: str) -> int:
    """What a transaction took out of a player's account."""
    if txn is None:
        return 0
    return sum(p["amount"] for p in txn["postings"] if p["from"] == player)


def plays_on(rs: RuleSet, state: State, player: str) -> list[str]:
    """The groups that keep a player in the fight: a buildable group he holds a deed of and
    could still hold whole (every deed of it his or the Bank's): a monopoly, or a chance at
    one. Empty if none (or he is bankrupt)."""
    if state["players"][player]["bankrupt_seq"] is not None:
        return []
    props = state["properties"]
    groups = []
    for group, slugs in rs.groups.items():
        if not rs.deeds[slugs[0]].buildable:
            continue
        owners = {props[s]["owner"] for s in slugs}
        if player in owners and owners <= {player, "bank"}:
            groups.append(group)
    return groups


def debt_paid(
    rs: RuleSet,
    handover: Handover,
    before: State,
    following: Txn | None,
    after_following: State | None,
) -> dict[str, Any] | None:
    """The seed's exception (1.1, "Важное уточнение"), where all three conditions hold; the
    figures it rests on, or None. The debt is seen in the log as the transaction right after
    the trade: the giver pays the receiver rent (or a payment) that he could not have paid
    from his cash before the trade. 1: he owed more than he had; 2: what came back for the
    deeds is no more than he lacked; 3: he still holds a group he can fight with."""
    giver, receiver = handover.giver, handover.receiver
    if not handover.given.deeds or following is None or after_following is None:
        return None
    if following["type"] not in DEBTS:
        return None
    debt = sum(
        p["amount"] for p in following["postings"] if (p["from"], p["to"]) == (giver, receiver)
    )
    cash = before["balances"][giver]
    shortfall = debt - cash
    groups = plays_on(rs, after_following, giver)
    if shortfall <= 0 or handover.received.value > shortfall or not groups:
        return None
    return {
        "seq": following["seq"],
        "type": following["type"],
        "debt": debt,
        "cash_before": cash,
        "shortfall": shortfall,
        "groups_kept": groups,
    }


@dataclass(frozen=True)
class Thresholds:
    """The rule set's fair-play parameters, and the figures they give at a table."""

    dumping_percent: int
    shift_percent: int
    distress_percent: int
    distress_limit: int  # what a player about to go bankrupt could raise less than

    @classmethod
    def of(cls, rs: RuleSet) -> Thresholds:
        """The thresholds of rule set ``rs``, the distress limit a percent of the starting cash."""
        distress = int(rs.params["fairplay_distress_percent"])
        return cls(
            dumping_percent=int(rs.params["fairplay_dumping_percent"]),
            shift_percent=int(rs.params["fairplay_shift_percent"]),
            distress_percent=distress,
            distress_limit=rules.percent(int(rs.params["starting_cash"]), distress),
        )


def judge(
    rs: RuleSet,
    txn: Txn,
    handover: Handover,
    before: State,
    following: Txn | None,
    after_following: State | None,
    limits: Thresholds,
) -> dict[str, Any] | None:
    """The flag a handover raises, or None."""
    given, received = handover.given.value, handover.received.value
    if given <= 0 or received * 100 >= limits.dumping_percent * given:
        return None  # what came back is not far below what was handed over
    giver, receiver = handover.giver, handover.receiver
    if _paid_before_bankruptcy(following, giver, receiver):
        return None
    net = given - received
    liquid = rules.liquidation(rs, before, receiver)["total"]
    worth = rules.net_worth(rs, before, receiver)
    next_paid = paid_out(following, receiver)
    basis: dict[str, Any] = {
        "type": txn["type"],
        "given": handover.given.shown(),
        "received": handover.received.shown(),
        "received_percent": received * 100 // given,
        "dumping_percent": limits.dumping_percent,
        "net": net,
        "giver_worth_before": rules.net_worth(rs, before, giver),
        "receiver_worth_before": worth,
        "shift_percent": limits.shift_percent,
        "receiver_could_raise": liquid,
        "distress_limit": limits.distress_limit,
        "receiver_paid_next": next_paid,
    }
    if liquid < limits.distress_limit or next_paid > liquid:
        rule = PROPPING_UP
    elif worth <= 0 or net * 100 >= limits.shift_percent * worth:
        rule = ASSET_DUMPING
    else:
        return None
    exempt = debt_paid(rs, handover, before, following, after_following)
    if exempt is not None:
        basis["debt_payment"] = exempt
    return {
        "seq": txn["seq"],
        "rule": rule,
        "players": [giver, receiver],
        "given": given,
        "received": received,
        "basis": basis,
        "exempt": DEBT_PAYMENT if exempt is not None else None,
    }


def fairplay_flags(
    rs: RuleSet, initial: State, txns: Iterable[Txn], voided: dict[str, int]
) -> list[dict[str, Any]]:
    """Every flag of a game's log, in seq order. Voided transactions (and voids) are not
    judged, and a voided transaction is never the debt paid after a trade."""
    limits = Thresholds.of(rs)
    state = copy_state(initial)
    flags: list[dict[str, Any]] = []
    # A handover waits for the transaction after it (the debt it paid, the bankruptcy it
    # spared): (its transaction, the handovers, the state before it, the state after it).
    waiting: tuple[Txn, list[Handover], State] | None = None
    previous: Txn | None = None
    for txn in txns:
        live = str(txn["seq"]) not in voided
        judged = live and txn["type"] in JUDGED
        before = copy_state(state) if judged else None
        apply_transaction(state, txn)
        if waiting is not None:
            flags += _judged(rs, waiting, txn if live else None, state, limits)
            waiting = None
        if before is not None:
            found = handovers(rs, txn, before, previous)
            if found:
                waiting = (txn, found, before)
        previous = txn if live else None
    if waiting is not None:
        flags += _judged(rs, waiting, None, None, limits)
    return flags


def _judged(
    rs: RuleSet,
    waiting: tuple[Txn, list[Handover], State],
    following: Txn | None,
    after_following: State | None,
    limits: Thresholds,
) -> list[dict[str, Any]]:
    """The flags of the handovers of a transaction that waited for the next one, ``following``."""
    txn, found, before = waiting
    if txn["type"] == "payment" and following is not None:
        # The IOU the payee gives the payer right after (a loan's cash handed over first) came
        # back for the cash, as one given just before does.
        for handover in found:
            handover.received.ious.update(_iou_bought(following, handover.giver, handover.receiver))
    flags = []
    for handover in found:
        flag = judge(rs, txn, handover, before, following, after_following, limits)
        if flag is not None:
            flags.append(flag)
    return flags
