"""The ledger's invariants under random play: a hypothesis state machine at a classic table.

The machine drives random transactions, valid and invalid, of every classic type through
``TableBank``: salary, payment, the five card effects, buy, auction, rent (streets, railroads,
utilities, multipliers), taxes, jail (fine, cards, doubles), building and selling (houses,
hotels, break-downs, orders), mortgages, trades, bankruptcies, turns and the end of the game;
with the house rules on and off (``buy_after_first_lap`` too), also the pot, IOUs, voids,
disputes (raised by the banker or a player, kept or voided), player tokens and retried writes.
The choices lean on the table as it stands, so groups are bought whole, built up to hotels,
sold off and mortgaged when a player runs short, and players go bankrupt. After every
transaction it checks:

- balances (Bank, pot, players) sum to zero; no player and not the pot below zero;
- every deed has one owner, the Bank or a player at the table; the bankrupt hold nothing
  (unless the house rule keeps them playing);
- houses on the board + the Bank's = 32, hotels 12; 0-4 houses a street, never with a hotel;
  within a group the levels differ by at most one (a hotel counts 5); no building on a group
  with a mortgaged deed or that one player does not hold whole; net worths as API.md defines;
- a refused command changed nothing; an accepted one moved ``last_seq`` by one, its postings
  are positive integers and explain the change of every balance;
- the outcome agrees with a small model of docs/rules.md written here, with the figures
  of its appendix: what the rules forbid is refused (with one of the codes they allow), what
  they allow is accepted with the amounts and transfers they give, and a shortfall reports
  what the payer could still raise;
- a dispute never moves money; a dispute voided reverses its transaction once (a second void
  is ``already_voided``), and a player disputes only a transaction that moved his money;
- a ``finish`` while a dispute is open is ``disputes_open``, with their count and the first one;
- a finished game refuses everything with ``game_finished`` (the machine then plays on at a
  new table, and the finished one never moves again);
- the live state equals the game loaded from the store (a SQLite file; a few walks on every
  store of the matrix, ``--store``) by other applications (with and without the aggregate
  cache, from snapshots too), now and as of an earlier ``seq``; at the end the log verifies,
  replays, exports and imports to the same game.

Settings: ``HYPOTHESIS_PROFILE=ci`` (the default), ``dev`` (quick) or ``fuzz`` (long):
``tests/profiles.py``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import event, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from machines import (
    DECKS,
    DEEDS,
    GROUP,
    GROUPS,
    HOTELS,
    HOUSES,
    INCOME_TAX_FLAT,
    JAIL_FINE,
    LUXURY_TAX,
    MACHINE_SETTINGS,
    PRICE,
    RAILROAD_RENTS,
    SALARY,
    STARTING_CASH,
    STREET_GROUPS,
    STREETS,
    UTILITIES,
    UTILITY_FACTORS,
    bucket,
)
from profiles import examples
from stores import Store

from ledger.application import TableBank
from ledger.errors import LedgerError
from ledger.game import Game
from ledger.store import persistence_env

OUT_OF_RANGE = (
    "payment",
    "auction",
    "card",
    "repairs",
    "build",
    "sell",
    "trade_cash",
    "trade_empty",
    "multiplier",
    "dice",
)
UNKNOWN_PLAYER = "p9"
UNKNOWN_DEED = "atlantis-avenue"


def house_price(slug: str) -> int:
    return STREETS[slug][3]


def mortgage_value(slug: str) -> int:
    return PRICE[slug] // 2


def ten_percent(amount: int) -> int:
    """10 % rounded to the nearest unit, halves up (Electric Company: 75 -> 8)."""
    return (amount + 5) // 10


def buildings_cost(slug: str, prop: dict[str, Any]) -> int:
    """Purchase price of a street's buildings; a hotel with the 4 houses it replaced."""
    if prop["hotel"]:
        return 5 * house_price(slug)
    return int(prop["houses"]) * house_price(slug) if slug in STREETS else 0


def level(prop: dict[str, Any]) -> int:
    return 5 if prop["hotel"] else int(prop["houses"])


# -- a model of the rules -------------------------------------------------------------------


class Refuse(Exception):
    """The rules refuse; ``codes`` are the refusals the ledger may give."""

    def __init__(self, *codes: str) -> None:
        super().__init__(", ".join(sorted(codes)))
        self.codes = set(codes)
        self.shortfalls: dict[str, int] = {}  # account: how much it lacks
        self.params: dict[str, Any] = {}  # the params the ledger must give (disputes_open)


Model = dict[str, Any]


def model_of(
    view: dict[str, Any], built: dict[str, int] | None = None, lapped: set[str] | None = None
) -> Model:
    """What the rules decide on, read off the state view (with what the view does not show:
    the houses each player built since the last turn, for ``one_house_per_turn``, and who has
    had his first salary, for ``buy_after_first_lap``)."""
    return {
        "status": view["status"],
        "bal": dict(view["balances"]),
        "props": {k: dict(v) for k, v in view["properties"].items()},
        "supply": dict(view["bank"]),
        "cards": dict(view["jail_cards"]),
        "players": {
            p["id"]: {"bankrupt": p["bankrupt"], "in_jail": p["in_jail"]} for p in view["players"]
        },
        "turn": view["turn"],
        # Who holds a settled IOU does not matter any more.
        "ious": {
            iou["id"]: {
                **{k: v for k, v in iou.items() if k != "id"},
                **({"holder": None} if not iou["outstanding"] else {}),
            }
            for iou in view["ious"]
        },
        "built": dict(built or {}),
        "lapped": set(lapped or ()),
        "disputes": {
            d["seq"]: {"about": d["about"], "status": d["status"], "resolved_by": d["resolved_by"]}
            for d in view.get("disputes", [])
        },
    }


def owned(m: Model, pid: str) -> list[str]:
    return [s for s, p in m["props"].items() if p["owner"] == pid]


def active(m: Model) -> list[str]:
    return [pid for pid, p in m["players"].items() if not p["bankrupt"]]


def holds_group(m: Model, slug: str, owner: str) -> bool:
    return all(m["props"][s]["owner"] == owner for s in GROUPS[GROUP[slug]])


def group_mortgaged(m: Model, slug: str) -> bool:
    return any(m["props"][s]["mortgaged"] for s in GROUPS[GROUP[slug]])


def group_built(m: Model, slug: str) -> bool:
    return any(level(m["props"][s]) for s in GROUPS[GROUP[slug]])


def group_even(m: Model, slug: str) -> bool:
    levels = [level(m["props"][s]) for s in GROUPS[GROUP[slug]]]
    return max(levels) - min(levels) <= 1


def sale_value(slug: str, prop: dict[str, Any]) -> int:
    """What the Bank pays back for a street's buildings: half their cost."""
    return buildings_cost(slug, prop) // 2


def liquidation_total(m: Model, pid: str) -> int:
    total = m["bal"][pid]
    for slug in owned(m, pid):
        prop = m["props"][slug]
        total += sale_value(slug, prop)
        if not prop["mortgaged"]:
            total += mortgage_value(slug)
    return total


def total_worth(m: Model, pid: str) -> int:
    """The income-tax base: cash + every deed at price (mortgaged too) + buildings."""
    return m["bal"][pid] + sum(PRICE[s] + buildings_cost(s, m["props"][s]) for s in owned(m, pid))


def street_rent(m: Model, slug: str) -> int:
    prop = m["props"][slug]
    rents = STREETS[slug][2]
    if prop["hotel"]:
        return rents[5]
    if prop["houses"]:
        return rents[prop["houses"]]
    monopoly = holds_group(m, slug, prop["owner"]) and not group_mortgaged(m, slug)
    return rents[0] * (2 if monopoly else 1)


def is_count(value: Any, minimum: int = 1, maximum: int | None = None) -> bool:
    """A whole number in range (the API's integers; no bools)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= minimum
        and (maximum is None or value <= maximum)
    )


class Predictor:
    """Applies one request to a copy of the model the way docs/rules.md says, or refuses it."""

    def __init__(self, m: Model, options: dict[str, Any], seq: int) -> None:
        self.m = copy.deepcopy(m)
        self.options = options
        self.seq = seq
        self.codes: set[str] = set()

    # helpers
    def refuse(self, code: str) -> None:
        self.codes.add(code)

    def player(self, pid: Any) -> bool:
        if pid not in self.m["players"]:
            self.refuse("unknown_player")
            return False
        if self.m["players"][pid]["bankrupt"] and not self.options.get("keep_bankrupt_players"):
            self.refuse("player_bankrupt")
            return False
        return True

    def account(self, acc: Any) -> bool:
        if acc == "pot" and not self.options.get("free_parking_pot"):
            # docs/rules.md, "Free Parking pot": an account only where the game collects it.
            self.refuse("option_disabled")
            return False
        return acc in ("bank", "pot") or self.player(acc)

    def deed(self, slug: Any) -> bool:
        if slug not in PRICE:
            self.refuse("unknown_property")
            return False
        return True

    def pay(self, frm: str, to: str, amount: int) -> None:
        self.m["bal"][frm] -= amount
        self.m["bal"][to] += amount

    def fines(self) -> str:
        return "pot" if self.options.get("free_parking_pot") else "bank"

    def set_houses(self, slug: str, houses: int) -> None:
        prop = self.m["props"][slug]
        self.m["supply"]["houses"] -= houses - prop["houses"]
        prop["houses"] = houses

    def set_hotel(self, slug: str, hotel: bool) -> None:
        prop = self.m["props"][slug]
        self.m["supply"]["hotels"] -= int(hotel) - int(prop["hotel"])
        prop["hotel"] = hotel

    def run(self, body: dict[str, Any]) -> Model:
        if self.m["status"] == "finished":
            raise Refuse("game_finished")
        getattr(self, "t_" + body["type"])(body)
        if self.codes:
            raise Refuse(*self.codes)
        for iou in self.m["ious"].values():
            if not iou["outstanding"]:
                iou["holder"] = None  # as model_of reads it
        short = {a: -b for a, b in self.m["bal"].items() if a != "bank" and b < 0}
        if short:
            refusal = Refuse("insufficient_funds")
            refusal.shortfalls = short
            raise refusal
        return self.m

    # one method per transaction type
    def first_lap(self, player: str) -> None:
        """House rule buy_after_first_lap: deeds only after one's first salary on GO."""
        if self.options.get("buy_after_first_lap") and player not in self.m["lapped"]:
            self.refuse("first_lap_not_done")

    def t_salary(self, b: dict[str, Any]) -> None:
        if self.player(b["player"]):
            self.pay("bank", b["player"], SALARY)
            if self.options.get("buy_after_first_lap"):
                self.m["lapped"].add(b["player"])

    def t_payment(self, b: dict[str, Any]) -> None:
        ok = self.account(b["from"]) & self.account(b["to"])
        if b["from"] == b["to"] or not is_count(b["amount"]):
            self.refuse("validation_error")
        elif ok:
            self.pay(b["from"], b["to"], b["amount"])

    def t_card(self, b: dict[str, Any]) -> None:
        pid, effect = b["player"], b["effect"]
        if not self.player(pid):
            return
        if effect == "repairs":
            if not (is_count(b["per_house"], 0) and is_count(b["per_hotel"], 0)):
                self.refuse("validation_error")
                return
            houses = sum(self.m["props"][s]["houses"] for s in owned(self.m, pid))
            hotels = sum(int(self.m["props"][s]["hotel"]) for s in owned(self.m, pid))
            self.pay(pid, self.fines(), b["per_house"] * houses + b["per_hotel"] * hotels)
            return
        amount = b["amount"]
        if not is_count(amount):
            self.refuse("validation_error")
            return
        # Bankrupt players kept at the table (house rule) pay and collect like the others.
        seated = (
            list(self.m["players"])
            if self.options.get("keep_bankrupt_players")
            else (active(self.m))
        )
        others = [p for p in seated if p != pid]
        if effect == "collect":
            self.pay("bank", pid, amount)
        elif effect == "pay":
            self.pay(pid, self.fines(), amount)
        elif effect == "collect_from_each":
            for other in others:
                self.pay(other, pid, amount)
        else:  # pay_each
            for other in others:
                self.pay(pid, other, amount)

    def t_buy(self, b: dict[str, Any]) -> None:
        ok = self.player(b["player"]) & self.deed(b["property"])
        if not ok:
            return
        slug = b["property"]
        if self.m["props"][slug]["owner"] != "bank":
            self.refuse("already_owned")
        self.first_lap(b["player"])
        if b.get("price") is not None and b["price"] != PRICE[slug]:
            self.refuse("validation_error")
        self.m["props"][slug]["owner"] = b["player"]
        self.pay(b["player"], "bank", PRICE[slug])

    def t_auction(self, b: dict[str, Any]) -> None:
        ok = self.player(b["winner"]) & self.deed(b["property"])
        if not is_count(b["bid"]):
            self.refuse("validation_error")  # API: a bid of at least 1
        slug = b["property"]
        if ok and self.m["props"][slug]["owner"] != "bank":
            self.refuse("already_owned")
        if ok:
            self.first_lap(b["winner"])
        if self.codes:
            return
        self.m["props"][slug]["owner"] = b["winner"]
        self.pay(b["winner"], "bank", b["bid"])

    def t_rent(self, b: dict[str, Any]) -> None:
        payer, slug = b["payer"], b["property"]
        ok = self.player(payer) & self.deed(slug)
        if not ok:
            return
        prop = self.m["props"][slug]
        owner = prop["owner"]
        if owner == "bank":
            self.refuse("not_owned")
            return
        if owner == payer:
            self.refuse("own_property")
        if prop["mortgaged"]:
            self.refuse("mortgaged")
        if self.options.get("no_rent_in_jail") and self.m["players"][owner]["in_jail"]:
            self.refuse("owner_in_jail")
        if self.m["turn"] is not None and self.m["turn"] != payer:
            self.refuse("claim_window_closed")
        multiplier = b.get("multiplier", 1)
        if not is_count(multiplier, 1, 10):
            self.refuse("validation_error")
        dice = b.get("dice")
        if GROUP[slug] == "utility" and (dice is None or not 2 <= dice <= 12):
            self.refuse("validation_error")
        if self.codes:
            return
        held = sum(1 for s in GROUPS[GROUP[slug]] if self.m["props"][s]["owner"] == owner)
        if slug in STREETS:
            base = street_rent(self.m, slug)
        elif GROUP[slug] == "railroad":
            base = RAILROAD_RENTS[held - 1]
        else:
            base = UTILITY_FACTORS[held - 1] * int(dice or 0)
        self.pay(payer, owner, base * multiplier)

    def t_tax(self, b: dict[str, Any]) -> None:
        pid = b["player"]
        if not self.player(pid):
            return
        if b["tax"] == "luxury":
            self.pay(pid, self.fines(), self.options.get("luxury_tax", LUXURY_TAX))
            return
        mode = self.options.get("income_tax", "choice")
        choice = b.get("choice")
        if mode == "choice" and choice is None:
            self.refuse("validation_error")
            return
        if mode != "choice":
            if choice is not None and choice != mode:
                self.refuse("option_disabled")
                return
            choice = mode
        worth = total_worth(self.m, pid)
        amount = INCOME_TAX_FLAT if choice == "flat" else ten_percent(worth)
        self.pay(pid, self.fines(), amount)

    def t_jail_fine(self, b: dict[str, Any]) -> None:
        if self.player(b["player"]):
            self.pay(b["player"], self.fines(), JAIL_FINE)
            self.m["players"][b["player"]]["in_jail"] = False

    def t_jail_card(self, b: dict[str, Any]) -> None:
        pid, deck = b["player"], b["deck"]
        if not self.player(pid):
            return
        holder = self.m["cards"][deck]
        if b["action"] == "draw":
            if holder != "deck":
                self.refuse("no_jail_card")
            self.m["cards"][deck] = pid
        else:
            if holder != pid:
                self.refuse("no_jail_card")
            self.m["cards"][deck] = "deck"
            self.m["players"][pid]["in_jail"] = False

    def t_go_to_jail(self, b: dict[str, Any]) -> None:
        if self.player(b["player"]):
            self.m["players"][b["player"]]["in_jail"] = True

    def t_leave_jail(self, b: dict[str, Any]) -> None:
        if self.player(b["player"]):
            self.m["players"][b["player"]]["in_jail"] = False

    def _orders(self, b: dict[str, Any]) -> list[dict[str, Any]]:
        if b.get("orders") is not None:
            return list(b["orders"])
        return [b]

    def _street_of(self, order: dict[str, Any], owners: set[str]) -> str | None:
        """The street an order is for, if the rules let its owner touch it."""
        slug = order["property"]
        if not self.deed(slug):
            return None
        owner = self.m["props"][slug]["owner"]
        if owner == "bank":
            self.refuse("not_owned")
            return None
        if slug not in STREETS:
            self.refuse("not_buildable")
            return None
        owners.add(owner)
        if len(owners) > 1:
            self.refuse("validation_error")
        return slug

    def t_build(self, b: dict[str, Any]) -> None:
        owners: set[str] = set()
        touched: set[str] = set()
        total = 0
        houses_built = 0
        orders = self._orders(b)
        if not orders:
            self.refuse("validation_error")
        for order in orders:
            slug = self._street_of(order, owners)
            if slug is None:
                continue
            owner = self.m["props"][slug]["owner"]
            touched.add(slug)
            if not holds_group(self.m, slug, owner):
                self.refuse("group_incomplete")
            if group_mortgaged(self.m, slug):
                self.refuse("mortgaged")
            prop = self.m["props"][slug]
            if order.get("hotel"):
                if prop["hotel"]:
                    self.refuse("building_limit")
                    continue
                if prop["houses"] != 4:
                    self.refuse("uneven_building")  # a hotel needs 4 houses first
                    continue
                if self.m["supply"]["hotels"] < 1:
                    self.refuse("no_hotels_left")
                    continue
                self.set_houses(slug, 0)
                self.set_hotel(slug, True)
                count = 1
            else:
                count = order.get("houses", 1)
                if not is_count(count, 1, 4):
                    self.refuse("validation_error")
                    continue
                houses_built += count
                if prop["hotel"] or prop["houses"] + count > 4:
                    self.refuse("building_limit")
                    continue
                if self.m["supply"]["houses"] < count:
                    self.refuse("no_houses_left")
                    continue
                self.set_houses(slug, prop["houses"] + count)
            unit = house_price(slug)
            if order.get("price") is not None:
                if not is_count(order["price"]) or order["price"] < unit:
                    self.refuse("validation_error")
                unit = order["price"]
            total += unit * count
        for slug in touched:
            if not group_even(self.m, slug):
                self.refuse("uneven_building")
        if owners and not self.codes:
            owner = owners.pop()
            if self.options.get("one_house_per_turn") and houses_built:
                built = self.m["built"].get(owner, 0) + houses_built
                if built > 1:
                    self.refuse("building_limit")  # one house a turn (house rule)
                self.m["built"][owner] = built
            self.pay(owner, "bank", total)

    def t_sell_buildings(self, b: dict[str, Any]) -> None:
        owners: set[str] = set()
        touched: set[str] = set()
        total = 0
        orders = self._orders(b)
        if not orders:
            self.refuse("validation_error")
        for order in orders:
            slug = self._street_of(order, owners)
            if slug is None:
                continue
            touched.add(slug)
            prop = self.m["props"][slug]
            half = house_price(slug) // 2
            if order.get("hotel"):
                if not prop["hotel"]:
                    self.refuse("no_buildings")
                    continue
                self.set_hotel(slug, False)
                if order.get("break_down"):
                    if self.m["supply"]["houses"] < 4:
                        self.refuse("no_houses_left")
                        continue
                    self.set_houses(slug, 4)
                    total += half
                else:
                    total += 5 * half
            else:
                count = order.get("houses", 1)
                if not is_count(count):
                    self.refuse("validation_error")
                    continue
                if prop["houses"] < count:
                    self.refuse("no_buildings")
                    continue
                self.set_houses(slug, prop["houses"] - count)
                total += count * half
        for slug in touched:
            if not group_even(self.m, slug):
                self.refuse("uneven_building")
        if owners and not self.codes:
            self.pay("bank", owners.pop(), total)

    def t_mortgage(self, b: dict[str, Any]) -> None:
        slug = b["property"]
        if not self.deed(slug):
            return
        prop = self.m["props"][slug]
        if prop["owner"] == "bank":
            self.refuse("not_owned")
            return
        if prop["mortgaged"]:
            self.refuse("mortgaged")
        if group_built(self.m, slug):
            self.refuse("group_has_buildings")
        prop["mortgaged"] = True
        self.pay("bank", prop["owner"], mortgage_value(slug))

    def t_unmortgage(self, b: dict[str, Any]) -> None:
        slug = b["property"]
        if not self.deed(slug):
            return
        prop = self.m["props"][slug]
        if prop["owner"] == "bank":
            self.refuse("not_owned")
            return
        if not prop["mortgaged"]:
            self.refuse("not_mortgaged")
        prop["mortgaged"] = False
        value = mortgage_value(slug)
        self.pay(prop["owner"], "bank", value + ten_percent(value))

    def _take_mortgaged(self, receiver: str, slugs: list[str], lift: set[str]) -> None:
        for slug in slugs:
            prop = self.m["props"][slug]
            if not prop["mortgaged"]:
                continue
            value = mortgage_value(slug)
            amount = ten_percent(value)
            if slug in lift:
                prop["mortgaged"] = False
                amount += value
            self.pay(receiver, "bank", amount)

    def t_trade(self, b: dict[str, Any]) -> None:
        before = copy.deepcopy(self.m)
        legs = b["legs"]
        if not legs:
            self.refuse("validation_error")
        seen: set[str] = set()
        cards: set[str] = set()
        for leg in legs:
            ok = self.player(leg["from"]) & self.player(leg["to"])
            if leg["from"] == leg["to"] or not is_count(leg.get("cash", 0), 0):
                self.refuse("validation_error")
            if not (leg.get("cash") or leg.get("properties") or leg.get("jail_cards")):
                self.refuse("validation_error")  # a leg that moves nothing
            for slug in leg.get("properties", []):
                if not self.deed(slug):
                    continue
                if slug in seen:
                    self.refuse("validation_error")
                seen.add(slug)
                if before["props"][slug]["owner"] != leg["from"]:
                    self.refuse("not_owner")
                if group_built(before, slug):
                    self.refuse("group_has_buildings")
            for deck in leg.get("jail_cards", []):
                if deck in cards or before["cards"][deck] != leg["from"]:
                    self.refuse("no_jail_card")
                cards.add(deck)
            if not ok:
                return
        for leg in legs:
            if leg.get("properties"):
                self.first_lap(leg["to"])
        lift = set(b.get("unmortgage", []))
        for slug in lift:
            if slug not in seen or not before["props"][slug]["mortgaged"]:
                self.refuse("validation_error")
        if self.codes:
            return
        received: dict[str, list[str]] = {}
        for leg in legs:
            self.pay(leg["from"], leg["to"], leg.get("cash", 0))
            for slug in leg.get("properties", []):
                self.m["props"][slug]["owner"] = leg["to"]
                received.setdefault(leg["to"], []).append(slug)
            for deck in leg.get("jail_cards", []):
                self.m["cards"][deck] = leg["to"]
        for receiver, slugs in received.items():
            self._take_mortgaged(receiver, slugs, lift)

    def t_bankruptcy(self, b: dict[str, Any]) -> None:
        debtor, creditor = b["debtor"], b["creditor"]
        ok = self.player(debtor)
        if creditor != "bank":
            ok = self.player(creditor) & ok
            if creditor == debtor:
                self.refuse("validation_error")
        if not ok:
            return
        owed = b.get("owed")
        if owed is not None and not is_count(owed):
            self.refuse("validation_error")
        elif owed is not None and liquidation_total(self.m, debtor) >= owed:
            self.refuse("not_insolvent")
        deeds = owned(self.m, debtor)
        lift = set(b.get("unmortgage", []))
        for slug in lift:
            if slug not in deeds or not self.m["props"][slug]["mortgaged"] or creditor == "bank":
                self.refuse("validation_error")
        if self.codes:
            return
        for slug in deeds:
            prop = self.m["props"][slug]
            if creditor != "bank":
                self.pay("bank", debtor, sale_value(slug, prop))
            self.set_houses(slug, 0)
            self.set_hotel(slug, False)
        self.pay(debtor, creditor, self.m["bal"][debtor])
        for slug in deeds:
            prop = self.m["props"][slug]
            prop["owner"] = creditor
            if creditor == "bank":
                prop["mortgaged"] = False
        for deck in DECKS:
            if self.m["cards"][deck] == debtor:
                self.m["cards"][deck] = "deck" if creditor == "bank" else creditor
        for iou in self.m["ious"].values():
            if iou["outstanding"] and iou["holder"] == debtor:
                iou["holder"] = creditor
                if iou["debtor"] == creditor:
                    iou["outstanding"] = 0  # the creditor's own debt comes back to him: gone
            if iou["outstanding"] and iou["debtor"] == debtor:
                iou["outstanding"] = 0  # written off (merged into this debt if held by creditor)
        if creditor != "bank":
            self._take_mortgaged(creditor, deeds, lift)
        self.m["players"][debtor] = {"bankrupt": True, "in_jail": False}
        if self.m["turn"] == debtor:
            self.m["turn"] = None
        if len(active(self.m)) <= 1 and not self.options.get("keep_bankrupt_players"):
            self.m["status"] = "finished"

    def t_turn(self, b: dict[str, Any]) -> None:
        if self.player(b["player"]):
            self.m["turn"] = b["player"]
            self.m["built"] = {}

    def t_pot_collect(self, b: dict[str, Any]) -> None:
        if not self.options.get("free_parking_pot"):
            self.refuse("option_disabled")
        if self.player(b["player"]) and not self.codes:
            self.pay("pot", b["player"], self.m["bal"]["pot"])

    def t_iou(self, b: dict[str, Any]) -> None:
        if not self.options.get("player_loans"):
            self.refuse("option_disabled")
        ok = self.player(b["debtor"]) & self.player(b["creditor"])
        if b["debtor"] == b["creditor"] or not is_count(b["amount"]):
            self.refuse("validation_error")
        if ok and not self.codes:
            self.m["ious"][f"iou-{self.seq}"] = {
                "debtor": b["debtor"],
                "holder": b["creditor"],
                "amount": b["amount"],
                "outstanding": b["amount"],
            }

    def _iou(self, b: dict[str, Any]) -> dict[str, Any] | None:
        iou = self.m["ious"].get(b["iou"])
        if iou is None:
            self.refuse("unknown_iou")
        elif not iou["outstanding"]:
            self.refuse("iou_settled")
        else:
            return iou  # type: ignore[no-any-return]
        return None

    def t_iou_repay(self, b: dict[str, Any]) -> None:
        iou = self._iou(b)
        if iou is None:
            return
        if not is_count(b["amount"], 1, iou["outstanding"]):
            self.refuse("validation_error")
            return
        self.pay(iou["debtor"], iou["holder"], b["amount"])
        iou["outstanding"] -= b["amount"]

    def t_iou_transfer(self, b: dict[str, Any]) -> None:
        iou = self._iou(b)
        if self.player(b["to"]) and iou is not None:
            if b["to"] in (iou["holder"], iou["debtor"]):
                self.refuse("validation_error")
            iou["holder"] = b["to"]

    def t_iou_forgive(self, b: dict[str, Any]) -> None:
        iou = self._iou(b)
        if iou is not None:
            iou["outstanding"] = 0

    def t_finish(self, b: dict[str, Any]) -> None:
        # API.md v1.2, Corrections: not while a dispute is open (it could never be settled).
        pending = sorted(d for d, v in self.m["disputes"].items() if v["status"] == "open")
        if pending:
            refusal = Refuse("disputes_open")
            refusal.params = {"count": len(pending), "seq": pending[0]}
            raise refusal
        self.m["status"] = "finished"


def predict(m: Model, options: dict[str, Any], body: dict[str, Any], seq: int) -> Model | Refuse:
    """The model after ``body`` recorded as ``seq``, or the refusal the rules give."""
    try:
        return Predictor(m, options, seq).run(body)
    except Refuse as refusal:
        return refusal


# Not voidable (API.md): set-up aside, a void, the finish, a dispute and its resolution.
UNVOIDABLE = frozenset({"void", "finish", "dispute", "dispute_resolve"})
# What a void of an earlier transaction does not run again: it is about the log, not the table.
ABOUT_THE_LOG = frozenset({"void", "dispute", "dispute_resolve"})


# -- the invariants, on a state view ------------------------------------------------------


def check_table(view: dict[str, Any]) -> None:
    """Every invariant a state view must satisfy at any time."""
    balances = view["balances"]
    assert sum(balances.values()) == 0, f"balances do not sum to zero: {balances}"
    for acc, balance in balances.items():
        assert isinstance(balance, int) and not isinstance(balance, bool), (acc, balance)
        if acc != "bank":
            assert balance >= 0, f"{acc} is below zero: {balance}"
    players = {p["id"]: p for p in view["players"]}
    assert set(balances) == {"bank", "pot", *players}
    bankrupt = {pid for pid, p in players.items() if p["bankrupt"]}
    in_game = set(players) - bankrupt
    # Under the house rule keep_bankrupt_players the bankrupt play on (and may own again).
    keep = bool(view["options"].get("keep_bankrupt_players"))
    seated = set(players) if keep else in_game

    props = view["properties"]
    assert set(props) == set(DEEDS), "the board's deeds are not the appendix's 28"
    for slug, prop in props.items():
        assert prop["owner"] == "bank" or prop["owner"] in seated, (slug, prop)
        assert 0 <= prop["houses"] <= 4, (slug, prop)
        assert not (prop["hotel"] and prop["houses"]), f"{slug} has houses and a hotel"
        if slug not in STREETS:
            assert level(prop) == 0, f"a building on {slug}"
        if prop["owner"] == "bank":
            assert not prop["mortgaged"] and level(prop) == 0, (slug, prop)
    for group in STREET_GROUPS:
        streets = [props[s] for s in GROUPS[group]]
        levels = [level(p) for p in streets]
        assert max(levels) - min(levels) <= 1, f"{group} stands uneven: {levels}"
        if max(levels):
            owners = {p["owner"] for p in streets}
            assert len(owners) == 1 and owners != {"bank"}, f"{group} built but split {owners}"
            assert not any(p["mortgaged"] for p in streets), f"{group} built and mortgaged"
    houses = sum(p["houses"] for p in props.values())
    hotels = sum(int(p["hotel"]) for p in props.values())
    assert houses + view["bank"]["houses"] == HOUSES, (houses, view["bank"])
    assert hotels + view["bank"]["hotels"] == HOTELS, (hotels, view["bank"])
    assert view["bank"]["houses"] >= 0 and view["bank"]["hotels"] >= 0, view["bank"]

    for deck, holder in view["jail_cards"].items():
        assert holder == "deck" or holder in seated, (deck, holder)
    for pid, p in players.items():
        assert p["cash"] == balances[pid]
        assert p["jail_cards"] == [d for d, h in view["jail_cards"].items() if h == pid]
        worth = balances[pid] + sum(
            (mortgage_value(s) if prop["mortgaged"] else PRICE[s]) + buildings_cost(s, prop)
            for s, prop in props.items()
            if prop["owner"] == pid
        )
        worth += sum(i["outstanding"] for i in view["ious"] if i["holder"] == pid)
        worth -= sum(i["outstanding"] for i in view["ious"] if i["debtor"] == pid)
        assert p["net_worth"] == worth, (pid, p["net_worth"], worth)
    for pid in bankrupt - seated:
        assert balances[pid] == 0 and not players[pid]["in_jail"], players[pid]
    for iou in view["ious"]:
        assert 0 <= iou["outstanding"] <= iou["amount"], iou
        assert iou["debtor"] in players, iou
        if iou["outstanding"]:
            assert iou["debtor"] != iou["holder"], f"a player owes himself: {iou}"
            assert iou["debtor"] in seated, f"a bankrupt still owes {iou}"
            assert iou["holder"] in seated or iou["holder"] == "bank", iou
    assert view["turn"] is None or view["turn"] in seated, view["turn"]
    if view["status"] == "active":
        assert keep or len(in_game) >= 2, "one player left but the game goes on"
        assert "standings" not in view
    else:
        assert view["status"] == "finished"
        ranked = [s["player"] for s in view["standings"]]
        assert sorted(ranked) == sorted(players), view["standings"]
        assert set(ranked[: len(seated)]) == seated, "one who left ranked above one at the table"
        scores = [s["score"] for s in view["standings"][: len(seated)]]
        assert scores == sorted(scores, reverse=True), view["standings"]
        for standing in view["standings"][: len(seated)]:
            assert standing["score"] == players[standing["player"]]["net_worth"], standing


# -- the machine ---------------------------------------------------------------------------


class SnapshottingTableBank(TableBank):
    """The same application, snapshotting every few transactions (loads from snapshots)."""

    snapshotting_intervals = {Game: 4}  # noqa: RUF012 - the library's own class attribute
    name = "TableBank"  # the same tables (PostgreSQL names them after the application)


class LedgerMachine(RuleBasedStateMachine):
    """One classic table, recorded by the banker, stored in a fresh database of the run's store."""

    store: Store  # the run's store (--store), set by the fixture below

    def __init__(self) -> None:
        super().__init__()
        self.db = self.store.new(durable=True)
        self.env = persistence_env(self.db)
        self.apps: list[TableBank] = []
        self.gid = ""
        self.options: dict[str, Any] = {}
        self.history: dict[int, dict[str, Any]] = {}
        self.finished: dict[str, dict[str, Any]] = {}  # game id: its final view
        self.current: dict[str, Any] = {}  # the state view after the last transaction
        self.built: dict[str, int] = {}  # houses built since the last turn, by player
        self.lapped: set[str] = set()  # who had his first salary (buy_after_first_lap)
        self.steps = 0
        self.top_level = 0

    # -- plumbing --------------------------------------------------------------------------
    def app(self, cls: type[TableBank] = TableBank, **env: str) -> TableBank:
        application = cls(env={**self.env, **env})
        self.apps.append(application)
        return application

    def view(self) -> dict[str, Any]:
        return self.bank.game(self.gid)

    @property
    def model(self) -> Model:
        return model_of(self.current)

    def predict(self, body: dict[str, Any]) -> Model | Refuse:
        """What the rules make of ``body`` at the table as it stands."""
        m = model_of(self.current, self.built, self.lapped)
        if body["type"] == "void":
            return self.predict_void(m, body)
        if body["type"] in ("dispute", "dispute_resolve"):
            return self.predict_dispute(m, body)
        return predict(m, self.options, body, self.current["last_seq"] + 1)

    def predict_dispute(self, m: Model, body: dict[str, Any]) -> Model | Refuse:
        """API.md "Disputes": a dispute of a recorded transaction that is no dispute, no
        resolution, not voided and not disputed already; a resolution of an open dispute.
        Neither moves money."""
        if m["status"] == "finished":
            return Refuse("game_finished")
        m = copy.deepcopy(m)
        new = self.current["last_seq"] + 1
        disputes = m["disputes"]
        if body["type"] == "dispute_resolve":
            dispute, note_ = body.get("dispute"), body.get("note")
            if not is_count(dispute) or not isinstance(note_, str) or not note_.strip():
                return Refuse("validation_error")
            if dispute not in disputes:
                return Refuse("unknown_dispute")
            if disputes[dispute]["status"] != "open":
                return Refuse("dispute_closed")
            disputes[dispute].update(status="upheld", resolved_by=new)
            return m
        seq, reason = body.get("seq"), body.get("reason")
        if not is_count(seq) or not isinstance(reason, str) or not reason.strip():
            return Refuse("validation_error")
        upheld = {d["resolved_by"] for d in disputes.values() if d["status"] == "upheld"}
        if seq > self.current["last_seq"] or seq in disputes or seq in upheld:
            return Refuse("validation_error")
        if seq in self.voided:
            return Refuse("already_voided")
        if any(d["about"] == seq and d["status"] == "open" for d in disputes.values()):
            return Refuse("validation_error")
        disputes[new] = {"about": seq, "status": "open", "resolved_by": None}
        return m

    def moved_money_of(self, body: dict[str, Any], player: str) -> bool:
        """Whether the transaction a dispute names has a posting from or to ``player``."""
        seq = body.get("seq")
        if not is_count(seq) or seq > self.current["last_seq"]:
            return False
        postings = self.bank.transaction(self.gid, seq)["postings"]
        return any(player in (p["from"], p["to"]) for p in postings)

    def predict_void(self, m: Model, body: dict[str, Any]) -> Model | Refuse:
        """A void stands only if every transaction after its target stands without it."""
        if m["status"] == "finished":
            return Refuse("game_finished")
        seq, reason, last = body.get("seq"), body.get("reason"), self.current["last_seq"]
        if not is_count(seq) or not isinstance(reason, str) or not reason.strip():
            return Refuse("validation_error")
        assert isinstance(seq, int)
        if seq > last:
            return Refuse("validation_error")
        if seq in self.voided:
            return Refuse("already_voided")
        if seq <= self.setup_seq or self.log[seq]["type"] in UNVOIDABLE:
            return Refuse("void_conflict")
        named = body.get("dispute")
        open_about = [
            d for d, v in m["disputes"].items() if v["about"] == seq and v["status"] == "open"
        ]
        if named is None and open_about:
            return Refuse("validation_error")  # the void must name the dispute it resolves
        if named is not None:
            if not is_count(named):
                return Refuse("validation_error")
            if named not in m["disputes"]:
                return Refuse("unknown_dispute")
            if m["disputes"][named]["status"] != "open":
                return Refuse("dispute_closed")
            if m["disputes"][named]["about"] != seq:
                return Refuse("validation_error")
        replay = copy.deepcopy(self.base)
        for s in range(self.setup_seq + 1, last + 1):
            # Voids, disputes and resolutions are about the log: they move nothing again.
            if s == seq or s in self.voided or self.log[s]["type"] in ABOUT_THE_LOG:
                continue
            again = predict(replay, self.options, self.log[s], s)
            if isinstance(again, Refuse):
                return Refuse("void_conflict")
            moved = {a: again["bal"][a] - replay["bal"][a] for a in replay["bal"]}
            if moved != self.moved[s]:
                return Refuse("void_conflict")
            replay = again
        replay["disputes"] = copy.deepcopy(m["disputes"])
        if named is not None:
            replay["disputes"][named].update(status="voided", resolved_by=last + 1)
        return replay

    def submit(
        self, body: dict[str, Any], key: str | None = None, by: str = "banker"
    ) -> dict[str, Any] | None:
        """Record one request; check what it did against the rules and the invariants."""
        kind = body["type"]
        before = self.view()
        assert before == self.current, "the table changed between transactions"
        expected = self.predict(body)
        payer_field = {"payment": "from", "rent": "payer"}.get(kind)
        if by != "banker":
            # A player records only what he pays himself, and disputes only his own money.
            allowed = (
                self.moved_money_of(body, by)
                if kind == "dispute"
                else payer_field is not None and body.get(payer_field) == by
            )
            if not allowed:
                expected = Refuse("forbidden")
        try:
            txn, replayed = self.bank.record_request(self.gid, copy.deepcopy(body), by=by, key=key)
            assert not replayed, "a fresh Idempotency-Key answered from an earlier request"
        except LedgerError as exc:
            note(f"bank.record(gid, {body!r}, by={by!r})  # refused {exc.code}: {exc.detail}")
            assert self.view() == before, f"refused ({exc.code}) but the table changed"
            if before["status"] == "finished" and exc.code != "forbidden":
                assert exc.code == "game_finished", exc.code
            if (
                kind == "void"
                and exc.code == "void_conflict"
                and body["seq"] < before["last_seq"]
                and not isinstance(expected, Refuse)
            ):
                # The ledger also wants every later transaction's changes unchanged (a later
                # turn or trip to jail would start from elsewhere): stricter than the balances.
                event("refused void: void_conflict where the balances would stand")
                return None
            assert isinstance(expected, Refuse), (
                f"refused {body} with {exc.code} ({exc.detail}); the rules allow it"
            )
            assert exc.code in expected.codes, (
                f"refused {body} with {exc.code}; expected one of {sorted(expected.codes)}"
            )
            if exc.code == "disputes_open":
                assert exc.params == expected.params, (exc.params, expected.params)
            if exc.code == "insufficient_funds":
                account = exc.extra["account"]
                assert account in expected.shortfalls, (exc.extra, expected.shortfalls)
                assert exc.extra["shortfall"] == expected.shortfalls[account], exc.extra
                model = model_of(before)
                assert exc.extra["can_raise"] == (
                    liquidation_total(model, account) - model["bal"][account]
                    if account != "pot"
                    else 0
                ), exc.extra
            event(f"refused {kind}: {exc.code}")
            return None
        note(f"bank.record(gid, {body!r}, by={by!r})  # accepted, seq {txn['seq']}")
        assert txn["by"] == by, txn["by"]
        after = self.view()
        assert before["status"] != "finished", f"a finished game accepted {body}"
        assert not isinstance(expected, Refuse), (
            f"accepted {body}; the rules refuse it ({sorted(expected.codes)})"
        )
        assert txn["seq"] == before["last_seq"] + 1 == after["last_seq"], (txn["seq"], after)
        balances = dict(before["balances"])
        for posting in txn["postings"]:
            amount = posting["amount"]
            assert isinstance(amount, int) and not isinstance(amount, bool), posting
            assert amount > 0, f"a posting of {amount}: {posting}"
            assert posting["from"] != posting["to"], posting
            balances[posting["from"]] -= amount
            balances[posting["to"]] += amount
        assert balances == after["balances"] == txn["balances"], "postings do not explain it"
        actual = model_of(after, expected["built"], expected["lapped"])
        if kind in ("dispute", "dispute_resolve"):
            assert txn["postings"] == [], f"a {kind} moved money"
        if kind == "void":
            # Nothing but the log remembers the void; last_seq moves on.
            expected = {**expected, "built": actual["built"]}
        assert actual == expected, diff(expected, actual)
        self.current = after
        self.built = expected["built"]
        self.lapped = expected["lapped"]
        seq = after["last_seq"]
        self.history[seq] = after
        self.log[seq] = copy.deepcopy(body)
        self.moved[seq] = {a: after["balances"][a] - before["balances"][a] for a in balances}
        if kind == "void":
            self.voided[body["seq"]] = seq
            event(f"voided a {self.log[body['seq']]['type']}")
            if body["seq"] == before["last_seq"]:
                # Voiding the last transaction puts the table back as it stood before it.
                assert model_of(after) == model_of(self.history[body["seq"] - 1]), (
                    "voiding the last transaction did not restore the table"
                )
        check_table(after)
        self.top_level = max([self.top_level, *(level(p) for p in after["properties"].values())])
        event(f"accepted {kind}")
        if after["status"] == "finished":
            self.next_table()
        return txn

    # -- choosing ------------------------------------------------------------------------
    def in_game(self) -> list[str]:
        return active(self.model)

    def pick_player(self, data: st.DataObject, among: list[str] | None = None) -> str:
        """Mostly a player in the game; now and then a bankrupt or unknown one."""
        players = among if among else self.in_game()
        bankrupt = [p for p, v in self.model["players"].items() if v["bankrupt"]]
        which = bucket(data, 17, 2 if bankrupt else 0, 1)
        if which == 0 and players:
            return data.draw(st.sampled_from(players))
        if which == 1:
            return data.draw(st.sampled_from(bankrupt))
        return UNKNOWN_PLAYER

    def pick_deed(self, data: st.DataObject, preferred: list[str]) -> str:
        """Mostly one of ``preferred``; else any deed, or one that does not exist."""
        which = bucket(data, 16 if preferred else 0, 3, 1)
        if which == 0:
            return data.draw(st.sampled_from(sorted(preferred)))
        if which == 1:
            return data.draw(st.sampled_from(DEEDS))
        return UNKNOWN_DEED

    def monopolies(self) -> list[tuple[str, str]]:
        """(group, owner) for each street group one player holds whole."""
        props = self.model["props"]
        out = []
        for group in STREET_GROUPS:
            owners = {props[s]["owner"] for s in GROUPS[group]}
            if len(owners) == 1 and owners != {"bank"}:
                out.append((group, owners.pop()))
        return out

    def cash(self, pid: str) -> int:
        return int(self.current["balances"][pid])

    # -- set-up ----------------------------------------------------------------------------
    @initialize(
        names=st.lists(
            st.sampled_from(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]), min_size=2, max_size=6
        ),
        pot=st.booleans(),
        jail_rule=st.booleans(),
        income=st.sampled_from(["choice", "flat", "percent"]),
        luxury=st.sampled_from([None, 100]),
        loans=st.booleans(),
        one_house=st.sampled_from([False, False, False, True]),
        keep=st.sampled_from([False, False, False, True]),
        first_lap=st.sampled_from([False, False, True]),
        snapshots=st.booleans(),
        data=st.data(),
    )
    def create(
        self,
        names: list[str],
        pot: bool,
        jail_rule: bool,
        income: str,
        luxury: int | None,
        loans: bool,
        one_house: bool,
        keep: bool,
        first_lap: bool,
        snapshots: bool,
        data: st.DataObject,
    ) -> None:
        options: dict[str, Any] = {
            "free_parking_pot": pot,
            "no_rent_in_jail": jail_rule,
            "income_tax": income,
            "player_loans": loans,
            "one_house_per_turn": one_house,
            "keep_bankrupt_players": keep,
            "buy_after_first_lap": first_lap,
        }
        if luxury is not None:
            options["luxury_tax"] = luxury
        cls = SnapshottingTableBank if snapshots else TableBank
        self.bank = self.app(cls)
        self.reader = self.app(AGGREGATE_CACHE_MAXSIZE="")
        self.seat(names, options)
        self.opening(data)

    def seat(self, names: list[str], options: dict[str, Any]) -> None:
        """A new game at the bank: every player with 1500, everything else with the Bank."""
        created = self.bank.create_game("sm", "classic", names, options)
        self.gid = created["id"]
        self.options = created["options"]
        self.current = self.view()
        self.history = {}
        self.log: dict[int, dict[str, Any]] = {}  # seq: the request accepted
        self.moved: dict[int, dict[str, int]] = {}  # seq: how it moved each balance
        self.voided: dict[int, int] = {}  # seq voided: seq of its void
        self.built = {}
        self.lapped = set()
        n = len(names)
        assert self.current["last_seq"] == n
        assert self.current["balances"] == {
            "bank": -STARTING_CASH * n,
            "pot": 0,
            **{f"p{i}": STARTING_CASH for i in range(1, n + 1)},
        }
        assert self.current["bank"] == {"houses": HOUSES, "hotels": HOTELS}
        assert all(p["owner"] == "bank" for p in self.current["properties"].values())
        self.history[n] = self.current
        self.setup_seq = n
        self.base = model_of(self.current)
        note(f"gid = bank.create_game('sm', 'classic', {names!r}, {options!r})['id']")

    def next_table(self) -> None:
        """A finished game takes nothing more; the machine plays on at a new table."""
        for body in (
            {"type": "salary", "player": "p1"},
            {"type": "payment", "from": "bank", "to": "p1", "amount": 1},
            {"type": "buy", "player": "p1", "property": "boardwalk"},
            {"type": "turn", "player": "p2"},
            {"type": "finish"},
        ):
            assert self.submit(body) is None
        self.finished[self.gid] = self.current
        names = [p["name"] for p in self.current["players"]] + ["Gus"]
        options = {
            **self.options,
            "free_parking_pot": not self.options["free_parking_pot"],
            "player_loans": not self.options["player_loans"],
        }
        self.seat(names[-6:], options)

    def opening(self, data: st.DataObject) -> None:
        """Most tables start with some colour groups bought whole, some already built on
        (under ``buy_after_first_lap`` most players first pass GO)."""
        if self.options.get("buy_after_first_lap"):
            for player in self.in_game():
                if bucket(data, 3, 1) == 0:
                    self.submit({"type": "salary", "player": player})
        for player in self.in_game():
            for _ in range(bucket(data, 2, 3, 2, 1)):
                self.buy_group(data, player)
        for _ in range(bucket(data, 2, 2, 2, 1, 1)):
            self.develop(data)

    # -- money in and out ----------------------------------------------------------------
    @rule(data=st.data())
    def salary(self, data: st.DataObject) -> None:
        self.submit({"type": "salary", "player": self.pick_player(data)})

    @rule(data=st.data())
    def payment(self, data: st.DataObject) -> None:
        accounts = ["bank", "pot", *self.in_game()]
        which = bucket(data, 8, 1, 1)
        frm = self.pick_player(data) if which == 0 else ("bank", "pot")[which - 1]
        to = data.draw(st.sampled_from([*accounts, UNKNOWN_PLAYER]))
        have = max(int(self.current["balances"].get(frm, 0)), 0)
        amount = [
            data.draw(st.integers(1, 100)),
            have,
            have + 1,
            data.draw(st.integers(1, 3000)),
        ][bucket(data, 4, 2, 2, 2)]
        self.submit({"type": "payment", "from": frm, "to": to, "amount": max(amount, 1)})

    @rule(data=st.data())
    def card(self, data: st.DataObject) -> None:
        player = self.pick_player(data)
        effect = data.draw(
            st.sampled_from(["collect", "pay", "collect_from_each", "pay_each", "repairs"])
        )
        body: dict[str, Any] = {"type": "card", "player": player, "effect": effect}
        if effect == "repairs":
            body["per_house"], body["per_hotel"] = data.draw(
                st.sampled_from([(25, 100), (40, 115)])
            )
        else:
            body["amount"] = data.draw(st.sampled_from([10, 20, 50, 100, 150, 200, 2000]))
        self.submit(body)

    @rule(data=st.data())
    def windfall(self, data: st.DataObject) -> None:
        """A generous card, so that players can afford whole groups and hotels."""
        self.submit(
            {
                "type": "card",
                "player": self.pick_player(data),
                "effect": "collect",
                "amount": data.draw(st.sampled_from([500, 1000, 2500])),
            }
        )

    @rule(data=st.data())
    def tax(self, data: st.DataObject) -> None:
        body: dict[str, Any] = {
            "type": "tax",
            "player": self.pick_player(data),
            "tax": data.draw(st.sampled_from(["income", "luxury"])),
        }
        choice = data.draw(st.sampled_from([None, "flat", "percent"]))
        if choice is not None:
            body["choice"] = choice
        self.submit(body)

    # -- deeds ---------------------------------------------------------------------------
    def wanted_deeds(self, player: str) -> list[str]:
        """Bank-held deeds of groups the player has started; else any the Bank holds."""
        props = self.model["props"]
        free = [s for s in DEEDS if props[s]["owner"] == "bank"]
        started = {GROUP[s] for s in DEEDS if props[s]["owner"] == player}
        return [s for s in free if GROUP[s] in started] or free

    @rule(data=st.data())
    def buy(self, data: st.DataObject) -> None:
        player = self.pick_player(data)
        body: dict[str, Any] = {
            "type": "buy",
            "player": player,
            "property": self.pick_deed(data, self.wanted_deeds(player)),
        }
        if bucket(data, 9, 1) and body["property"] in PRICE:
            body["price"] = PRICE[body["property"]] + data.draw(st.sampled_from([0, 10]))
        self.submit(body)

    @rule(data=st.data())
    def buy_group(self, data: st.DataObject, player: str | None = None) -> None:
        """A player buys what the Bank still holds of a group nobody else has started."""
        props = self.model["props"]
        player = player or self.pick_player(data)
        open_groups = [
            g
            for g in (STREET_GROUPS if bucket(data, 4, 1) == 0 else GROUPS)
            if {props[s]["owner"] for s in GROUPS[g]} <= {"bank", player}
            and any(props[s]["owner"] == "bank" for s in GROUPS[g])
        ]
        if not open_groups:
            return
        group = data.draw(st.sampled_from(open_groups))
        needed = sum(PRICE[s] for s in GROUPS[group])
        if player in self.in_game() and self.cash(player) < needed and bucket(data, 1, 3):
            self.submit({"type": "card", "player": player, "effect": "collect", "amount": needed})
        for slug in GROUPS[group]:
            if self.model["props"][slug]["owner"] == "bank":
                if bucket(data, 3, 1):
                    self.submit(
                        {
                            "type": "auction",
                            "property": slug,
                            "winner": player,
                            "bid": data.draw(st.integers(1, PRICE[slug])),
                        }
                    )
                else:
                    self.submit({"type": "buy", "player": player, "property": slug})

    @rule(data=st.data())
    def auction(self, data: st.DataObject) -> None:
        props = self.model["props"]
        slug = self.pick_deed(data, [s for s in DEEDS if props[s]["owner"] == "bank"])
        bid = data.draw(st.integers(1, 2 * PRICE.get(slug, 100)))
        self.submit(
            {"type": "auction", "property": slug, "winner": self.pick_player(data), "bid": bid}
        )

    @rule(data=st.data())
    def rent(self, data: st.DataObject) -> None:
        props = self.model["props"]
        held = [s for s in DEEDS if props[s]["owner"] != "bank"]
        built = [s for s in held if level(props[s])]
        slug = self.pick_deed(data, built if built and bucket(data, 1, 1) else held)
        owner = props.get(slug, {}).get("owner")
        turn = self.current["turn"]
        others = [p for p in self.in_game() if p != owner]
        if turn is not None and bucket(data, 3, 1) == 0:
            payer = turn
        else:
            payer = self.pick_player(data, others)
        body: dict[str, Any] = {"type": "rent", "payer": payer, "property": slug}
        if slug in UTILITIES and bucket(data, 9, 1) == 0:
            body["dice"] = data.draw(st.integers(2, 12))
        if bucket(data, 4, 1):
            body["multiplier"] = 2
        self.submit(body)

    @rule(data=st.data())
    def mortgage(self, data: st.DataObject) -> None:
        props = self.model["props"]
        free = [s for s in DEEDS if props[s]["owner"] != "bank" and not props[s]["mortgaged"]]
        self.submit({"type": "mortgage", "property": self.pick_deed(data, free)})

    @rule(data=st.data())
    def unmortgage(self, data: st.DataObject) -> None:
        props = self.model["props"]
        pledged = [s for s in DEEDS if props[s]["mortgaged"]]
        self.submit({"type": "unmortgage", "property": self.pick_deed(data, pledged)})

    # -- jail ------------------------------------------------------------------------------
    @rule(data=st.data())
    def jail(self, data: st.DataObject) -> None:
        player = self.pick_player(data)
        action = data.draw(
            st.sampled_from(["go_to_jail", "jail_fine", "leave_jail", "draw", "use"])
        )
        if action in ("draw", "use"):
            cards = self.current["jail_cards"]
            held = [d for d, h in cards.items() if h not in ("deck",)]
            if action == "use" and held and bucket(data, 3, 1) == 0:
                deck = data.draw(st.sampled_from(held))
                player = cards[deck] if bucket(data, 5, 1) == 0 else player
            else:
                deck = data.draw(st.sampled_from(DECKS))
            self.submit({"type": "jail_card", "player": player, "action": action, "deck": deck})
        else:
            self.submit({"type": action, "player": player})

    # -- buildings ----------------------------------------------------------------------
    @rule(data=st.data())
    def build(self, data: st.DataObject) -> None:
        props = self.model["props"]
        groups = self.monopolies()
        mode = bucket(data, 5 if groups else 0, 4 if groups else 0, 3 if groups else 0, 2)
        if mode == 3:  # anything: often refused (incomplete group, railroad, uneven, ...)
            order: dict[str, Any] = {"property": self.pick_deed(data, list(STREETS))}
            if bucket(data, 3, 1):
                order["hotel"] = True
            else:
                order["houses"] = data.draw(st.integers(1, 3))
            self.submit({"type": "build", **order})
            return
        group, owner = data.draw(st.sampled_from(groups))
        streets = GROUPS[group]
        if self.cash(owner) < 5 * house_price(streets[0]) * len(streets) and bucket(data, 1, 1):
            self.submit({"type": "card", "player": owner, "effect": "collect", "amount": 2000})
            props = self.model["props"]
        low = min(level(props[s]) for s in streets)
        if mode == 0:  # one house (or the hotel) on a lowest street: even building
            slug = data.draw(st.sampled_from([s for s in streets if level(props[s]) == low]))
            body: dict[str, Any] = {"type": "build", "property": slug}
            if low == 4:
                body["hotel"] = True
            elif bucket(data, 3, 1):
                body["houses"] = 1
        elif mode == 1:  # a whole level of the group in one transaction
            what: dict[str, Any] = {"hotel": True} if low == 4 else {"houses": 1}
            body = {
                "type": "build",
                "orders": [{"property": s, **what} for s in streets if level(props[s]) == low],
            }
            if bucket(data, 4, 1) == 1:
                body["orders"] = [
                    {**o, "price": house_price(streets[0]) + 25} for o in body["orders"]
                ]
        else:  # two houses on one street, or a hotel too early: uneven unless lucky
            slug = data.draw(st.sampled_from(streets))
            body = {
                "type": "build",
                "property": slug,
                **({"hotel": True} if bucket(data, 1, 1) else {"houses": 2}),
            }
        self.submit(body)

    @rule(data=st.data())
    def develop(self, data: st.DataObject) -> None:
        """A monopolist builds level after level, up to hotels, raising the money he needs."""
        groups = self.monopolies()
        if not groups:
            return
        group, owner = data.draw(st.sampled_from(groups))
        streets = GROUPS[group]
        for _ in range(data.draw(st.integers(1, 5))):
            props = self.model["props"]
            low = min(level(props[s]) for s in streets)
            if low == 5:
                return
            for slug in streets:
                if (
                    props[slug]["mortgaged"]
                    and self.submit({"type": "unmortgage", "property": slug}) is None
                ):
                    return
            lows = [s for s in streets if level(props[s]) == low]
            if self.cash(owner) < house_price(streets[0]) * len(lows) and bucket(data, 1, 3):
                self.submit({"type": "card", "player": owner, "effect": "collect", "amount": 2000})
            what: dict[str, Any] = {"hotel": True} if low == 4 else {"houses": 1}
            if (
                self.submit({"type": "build", "orders": [{"property": s, **what} for s in lows]})
                is None
            ):
                return

    @rule(data=st.data())
    def sell_buildings(self, data: st.DataObject) -> None:
        props = self.model["props"]
        built = [g for g in STREET_GROUPS if any(level(props[s]) for s in GROUPS[g])]
        mode = bucket(data, 5 if built else 0, 3 if built else 0, 3 if built else 0, 1)
        if mode == 3:
            order: dict[str, Any] = {"property": self.pick_deed(data, list(STREETS))}
            if bucket(data, 1, 1):
                order.update(hotel=True, break_down=data.draw(st.booleans()))
            else:
                order["houses"] = data.draw(st.integers(1, 4))
            self.submit({"type": "sell_buildings", **order})
            return
        group = data.draw(st.sampled_from(built))
        streets = GROUPS[group]
        high = max(level(props[s]) for s in streets)
        tops = [s for s in streets if level(props[s]) == high]
        if high == 5:
            breaking = data.draw(st.booleans())
            if mode == 0:
                slug = data.draw(st.sampled_from(tops))
                body: dict[str, Any] = {
                    "type": "sell_buildings",
                    "property": slug,
                    "hotel": True,
                    "break_down": breaking,
                }
            else:
                body = {
                    "type": "sell_buildings",
                    "orders": [
                        {"property": s, "hotel": True, "break_down": breaking}
                        for s in (tops if mode == 1 else streets)
                    ],
                }
        elif mode == 0:
            body = {
                "type": "sell_buildings",
                "property": data.draw(st.sampled_from(tops)),
                "houses": 1,
            }
        elif mode == 1:
            body = {
                "type": "sell_buildings",
                "orders": [{"property": s, "houses": 1} for s in tops],
            }
        else:  # two from one street: uneven unless the others are as low
            body = {
                "type": "sell_buildings",
                "property": data.draw(st.sampled_from(streets)),
                "houses": 2,
            }
        self.submit(body)

    # -- deals ---------------------------------------------------------------------------
    @rule(data=st.data())
    def trade(self, data: st.DataObject) -> None:
        props = self.model["props"]
        players = self.in_game()
        legs = []
        for _ in range(data.draw(st.integers(1, 3))):
            frm = self.pick_player(data)
            to = self.pick_player(data, [p for p in players if p != frm] or players)
            leg: dict[str, Any] = {"from": frm, "to": to}
            if bucket(data, 1, 1):
                leg["cash"] = data.draw(st.sampled_from([0, 10, 100, 500]))
            mine = [s for s in DEEDS if props[s]["owner"] == frm]
            if bucket(data, 1, 2) and (mine or bucket(data, 3, 1)):
                leg["properties"] = sorted(
                    set(data.draw(st.lists(st.sampled_from(mine or list(DEEDS)), max_size=3)))
                )
            cards = [d for d, h in self.current["jail_cards"].items() if h == frm]
            if (cards and bucket(data, 1, 1)) or bucket(data, 19, 1):
                leg["jail_cards"] = [data.draw(st.sampled_from(cards or list(DECKS)))]
            legs.append(leg)
        body: dict[str, Any] = {"type": "trade", "legs": legs}
        moving = [s for leg in legs for s in leg.get("properties", [])]
        pledged = [s for s in moving if props[s]["mortgaged"]]
        if pledged and bucket(data, 1, 1):
            body["unmortgage"] = sorted(
                set(data.draw(st.lists(st.sampled_from(pledged), min_size=1)))
            )
        self.submit(body)

    # -- the end of a player, the end of the game --------------------------------------------
    @rule(data=st.data())
    def debt_crisis(self, data: st.DataObject) -> None:
        """A big debt: the payer sells buildings and mortgages until he pays, or goes bankrupt."""
        m = self.model
        players = self.in_game()
        if len(players) < 2:
            anyone = data.draw(st.sampled_from(sorted(m["players"])))
            self.submit({"type": "salary", "player": anyone})
            return
        built = [s for s in DEEDS if level(m["props"][s]) and not m["props"][s]["mortgaged"]]
        if built and bucket(data, 1, 1) == 0:
            slug = data.draw(st.sampled_from(built))
            owner = m["props"][slug]["owner"]
            others = [p for p in players if p != owner]
            payer = data.draw(st.sampled_from(others))
            if m["turn"] not in (None, payer):
                self.submit({"type": "turn", "player": payer})
            charge: dict[str, Any] = {
                "type": "rent",
                "payer": payer,
                "property": slug,
                "multiplier": data.draw(st.sampled_from([1, 2])),
            }
            creditor = owner
        else:
            payer = data.draw(st.sampled_from(sorted(players)))
            creditor = data.draw(st.sampled_from(["bank", *[p for p in players if p != payer]]))
            amount = liquidation_total(m, payer) + data.draw(st.sampled_from([-200, -1, 0, 1, 300]))
            charge = {"type": "payment", "from": payer, "to": creditor, "amount": max(amount, 1)}
        for _ in range(40):
            if self.submit(charge) is not None:
                return
            if not self.raise_money(payer):
                break
        owed = self.predict(charge)
        owed_amount = (
            owed.shortfalls.get(payer, 0) + self.cash(payer) if isinstance(owed, Refuse) else 0
        )
        self.submit(
            {"type": "bankruptcy", "debtor": payer, "creditor": creditor, "owed": owed_amount}
        )

    def raise_money(self, player: str) -> bool:
        """One step of selling up: a level of buildings off a group, else one mortgage."""
        props = self.model["props"]
        for group in STREET_GROUPS:
            streets = GROUPS[group]
            if props[streets[0]]["owner"] != player:
                continue
            high = max(level(props[s]) for s in streets)
            if not high:
                continue
            tops = [s for s in streets if level(props[s]) == high]
            if high == 5:
                body = {
                    "type": "sell_buildings",
                    "orders": [{"property": s, "hotel": True, "break_down": True} for s in tops],
                }
                if self.submit(body) is not None:
                    return True
                # No houses to break the hotels down into: everything goes at once.
                body = {
                    "type": "sell_buildings",
                    "orders": [
                        {"property": s, "hotel": True}
                        if props[s]["hotel"]
                        else {"property": s, "houses": props[s]["houses"]}
                        for s in streets
                        if level(props[s])
                    ],
                }
            else:
                body = {
                    "type": "sell_buildings",
                    "orders": [{"property": s, "houses": 1} for s in tops],
                }
            return self.submit(body) is not None
        for slug in DEEDS:
            if props[slug]["owner"] == player and not props[slug]["mortgaged"]:
                return self.submit({"type": "mortgage", "property": slug}) is not None
        return False

    @rule(data=st.data())
    def bankruptcy(self, data: st.DataObject) -> None:
        m = self.model
        players = self.in_game()
        by_need = sorted(players, key=lambda p: liquidation_total(m, p))
        debtor = by_need[0] if bucket(data, 1, 1) == 0 and by_need else self.pick_player(data)
        others = [p for p in players if p != debtor]
        creditor = "bank" if bucket(data, 1, 2) == 0 else self.pick_player(data, others)
        body: dict[str, Any] = {"type": "bankruptcy", "debtor": debtor, "creditor": creditor}
        total = liquidation_total(m, debtor) if debtor in players else 0
        insolvent = bucket(data, 1, 19) == 0 or total < 400
        # Solvent players are only ever declared bankrupt in vain (owed within their means).
        body["owed"] = (
            total + data.draw(st.integers(1, 500))
            if insolvent
            else data.draw(st.integers(1, max(total, 1)))
        )
        if not insolvent and bucket(data, 9, 1):
            return  # keep bankruptcies rare
        pledged = (
            [s for s in owned(m, debtor) if m["props"][s]["mortgaged"]] if debtor in players else []
        )
        if pledged and creditor != "bank" and bucket(data, 1, 1):
            body["unmortgage"] = [data.draw(st.sampled_from(pledged))]
        if bucket(data, 5, 1) == 1:
            body.pop("owed")
            if not insolvent:
                return  # no owed: nothing proves him insolvent, so skip
        self.submit(body)

    @rule(data=st.data())
    def out_of_range(self, data: st.DataObject) -> None:
        """Amounts and counts below one, dice outside 2-12, a trade of nothing: all refused.

        The API takes a bid of at least 1 and posts only positive amounts; a negative count of
        houses would take buildings from nowhere.
        """
        m = self.model
        props = m["props"]
        players = self.in_game()
        p = data.draw(st.sampled_from(players))
        q = data.draw(st.sampled_from([x for x in players if x != p] or players))
        bad = data.draw(st.sampled_from([0, -1, -100]))
        free = [s for s in DEEDS if props[s]["owner"] == "bank"] or list(DEEDS)
        streets = [s for g, _ in self.monopolies() for s in GROUPS[g]] or list(STREETS)
        theirs = [s for s in DEEDS if props[s]["owner"] not in ("bank", p)] or list(DEEDS)
        kind = data.draw(st.sampled_from(OUT_OF_RANGE))
        bodies: dict[str, dict[str, Any]] = {
            "payment": {"type": "payment", "from": p, "to": q, "amount": bad},
            "auction": {
                "type": "auction",
                "property": data.draw(st.sampled_from(free)),
                "winner": p,
                "bid": bad,
            },
            "card": {
                "type": "card",
                "player": p,
                "amount": bad,
                "effect": data.draw(
                    st.sampled_from(["collect", "pay", "collect_from_each", "pay_each"])
                ),
            },
            "repairs": {
                "type": "card",
                "player": p,
                "effect": "repairs",
                "per_house": bad,
                "per_hotel": bad,
            },
            "build": {
                "type": "build",
                "property": data.draw(st.sampled_from(streets)),
                "houses": bad,
            },
            "sell": {
                "type": "sell_buildings",
                "property": data.draw(st.sampled_from(streets)),
                "houses": bad,
            },
            "trade_cash": {"type": "trade", "legs": [{"from": p, "to": q, "cash": bad}]},
            "trade_empty": {"type": "trade", "legs": []},
            "multiplier": {
                "type": "rent",
                "payer": p,
                "multiplier": bad,
                "property": data.draw(st.sampled_from(theirs)),
            },
            "dice": {
                "type": "rent",
                "payer": p,
                "property": data.draw(st.sampled_from(UTILITIES)),
                "dice": data.draw(st.sampled_from([0, 1, 13])),
            },
        }
        self.submit(bodies[kind])

    @rule(data=st.data())
    def retry(self, data: st.DataObject) -> None:
        """Writes are safe to retry: a repeat under the same Idempotency-Key records nothing
        and answers the same; another body under it, or a stale If-Match, is refused."""
        version = self.current["version"]
        key = f"retry-{self.gid}-{self.current['last_seq']}"
        body = {"type": "salary", "player": self.pick_player(data)}
        txn = self.submit(body, key=key)
        if txn is None:
            key_kept = False  # a refused request keeps nothing under its key
        else:
            key_kept = True
            again, replayed = self.bank.record_request(self.gid, copy.deepcopy(body), key=key)
            assert replayed and again == txn, "a retry was not answered from the first write"
            assert self.view() == self.current, "a retry recorded again"
        other = {"type": "card", "player": body["player"], "effect": "collect", "amount": 1}
        for kwargs, code in (
            ({"key": key}, "idempotency_key_reused" if key_kept else None),
            ({"if_match": version}, "version_conflict" if key_kept else None),
        ):
            if code is None:
                continue
            try:
                self.bank.record_request(self.gid, copy.deepcopy(other), **kwargs)
            except LedgerError as exc:
                assert exc.code == code, (exc.code, code)
            else:
                raise AssertionError(f"{other} with {kwargs} was recorded")
            assert self.view() == self.current, f"a refused {code} changed the table"
        event(f"retry: key kept {key_kept}")

    @rule(data=st.data())
    def as_player(self, data: st.DataObject) -> None:
        """A player's token records rent and payments out of his own pocket, nothing else."""
        me = self.pick_player(data)
        other = self.pick_player(data)
        props = self.model["props"]
        theirs = [s for s in DEEDS if props[s]["owner"] not in ("bank", me)]
        body = [
            {"type": "payment", "from": me, "to": other, "amount": data.draw(st.integers(1, 300))},
            {"type": "payment", "from": other, "to": me, "amount": 10},
            {"type": "rent", "payer": me, "property": self.pick_deed(data, theirs), "dice": 7},
            {"type": "salary", "player": me},
        ][bucket(data, 3, 1, 3, 1)]
        self.submit(body, by=me)  # type: ignore[arg-type]

    @rule(data=st.data())
    def pot_collect(self, data: st.DataObject) -> None:
        """Free Parking: the whole pot to the player (refused in games without the pot)."""
        self.submit({"type": "pot_collect", "player": self.pick_player(data)})

    @rule(data=st.data())
    def loans(self, data: st.DataObject) -> None:
        """IOUs (house rule ``player_loans``): issued, repaid in parts, passed on, forgiven."""
        ious = self.current["ious"]
        open_ious = [i for i in ious if i["outstanding"]]
        action = data.draw(
            st.sampled_from(["iou", "iou", "iou_repay", "iou_transfer", "iou_forgive"])
        )
        if action == "iou":
            debtor = self.pick_player(data)
            self.submit(
                {
                    "type": "iou",
                    "debtor": debtor,
                    "creditor": self.pick_player(data, [p for p in self.in_game() if p != debtor]),
                    "amount": data.draw(st.sampled_from([1, 50, 300, 1000])),
                }
            )
            return
        if open_ious and bucket(data, 5, 1) == 0:
            iou = data.draw(st.sampled_from(open_ious))
        elif ious and bucket(data, 1, 1) == 0:
            iou = data.draw(st.sampled_from(ious))
        else:
            iou = {"id": "iou-999", "outstanding": 10, "debtor": "p1", "holder": "p2"}
        if action == "iou_repay":
            amount = [iou["outstanding"], max(iou["outstanding"] // 2, 1), iou["outstanding"] + 1][
                bucket(data, 2, 2, 1)
            ]
            self.submit({"type": "iou_repay", "iou": iou["id"], "amount": amount})
        elif action == "iou_transfer":
            others = [p for p in self.in_game() if p not in (iou["holder"], iou["debtor"])]
            self.submit(
                {"type": "iou_transfer", "iou": iou["id"], "to": self.pick_player(data, others)}
            )
        else:
            self.submit({"type": "iou_forgive", "iou": iou["id"]})

    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        """A correction: the last transaction, an earlier one, one voided already, or none."""
        last = self.current["last_seq"]
        which = bucket(data, 4, 4, 1 if self.voided else 0, 1)
        if which == 0:
            seq = last
        elif which == 1:
            seq = data.draw(st.integers(1, last))
        elif which == 2:
            seq = data.draw(st.sampled_from(sorted(self.voided)))
        else:
            seq = last + data.draw(st.integers(1, 3))
        reason = "a mistake" if bucket(data, 9, 1) == 0 else " "
        self.submit({"type": "void", "seq": seq, "reason": reason})

    @rule(data=st.data())
    def dispute(self, data: st.DataObject) -> None:
        """A transaction disputed by the banker, by a player whose money it moved, or (403) by
        one whose money it did not; now and then a seq not recorded, a dispute or a resolution."""
        last = self.current["last_seq"]
        seq = [last, data.draw(st.integers(1, last)), last + 1][bucket(data, 3, 5, 1)]
        players = list(self.model["players"])
        by = "banker"
        if bucket(data, 2, 3):
            involved = []
            if seq <= last:
                postings = self.bank.transaction(self.gid, seq)["postings"]
                involved = sorted(
                    {a for p in postings for a in (p["from"], p["to"])} & set(players)
                )
            pool = involved if involved and bucket(data, 3, 1) == 0 else players
            by = data.draw(st.sampled_from(pool))
        reason = "that is not what happened" if bucket(data, 9, 1) == 0 else " "
        txn = self.submit({"type": "dispute", "seq": seq, "reason": reason}, by=by)
        if txn is not None and bucket(data, 1, 1) == 0:
            self.settle_dispute(data)  # the banker settles it at once

    @rule(data=st.data())
    def settle_dispute(self, data: st.DataObject) -> None:
        """An open dispute kept with a note, or voided: the void reverses the disputed
        transaction once, and a second void of it is ``already_voided``; also a closed or
        unknown dispute, and a void of a disputed transaction that does not name it."""
        disputes = self.current.get("disputes", [])
        open_ = [d for d in disputes if d["status"] == "open"]
        if not open_ or bucket(data, 5, 1) == 1:
            dispute = data.draw(st.sampled_from([d["seq"] for d in disputes] or [1]))
            self.submit({"type": "dispute_resolve", "dispute": dispute, "note": "it stands"})
            return
        d = data.draw(st.sampled_from(open_))
        how = bucket(data, 2, 3, 1)
        if how == 0:
            self.submit({"type": "dispute_resolve", "dispute": d["seq"], "note": "it stands"})
            return
        body = {"type": "void", "seq": d["about"], "reason": "the dispute is right"}
        if how == 2:
            self.submit(body)  # refused: the void must say which dispute it resolves
            return
        before = self.current["balances"]
        txn = self.submit({**body, "dispute": d["seq"]})
        if txn is None:
            return
        # The disputed transaction's money went back, once.
        moved = self.moved[d["about"]]
        after = self.current["balances"]
        assert {a: after[a] - before[a] for a in after} == {a: -v for a, v in moved.items()}
        assert self.submit({**body, "dispute": d["seq"]}) is None
        event("a disputed transaction voided")

    @rule(data=st.data())
    def malformed(self, data: st.DataObject) -> None:
        """A required field left out or of the wrong type (a string for a number, a list for
        a name, ...): refused with a ``LedgerError``, never another exception, and nothing
        changes. The schemas check shapes too, but ``record`` is also called by the CLI and
        the import, and a request must never crash the ledger."""
        players = self.in_game()
        p = data.draw(st.sampled_from(players))
        q = data.draw(st.sampled_from([x for x in players if x != p] or players))
        deed = data.draw(st.sampled_from(DEEDS))
        ious = [i["id"] for i in self.current["ious"]] or ["iou-1"]
        iou = data.draw(st.sampled_from(ious))
        templates: dict[str, dict[str, Any]] = {
            "salary": {"player": p},
            "payment": {"from": p, "to": q, "amount": 10},
            "card": {"player": p, "effect": "collect", "amount": 10},
            "repairs": {"player": p, "effect": "repairs", "per_house": 25, "per_hotel": 100},
            "buy": {"player": p, "property": deed},
            "auction": {"property": deed, "winner": p, "bid": 10},
            "rent": {"payer": p, "property": deed},
            "tax": {"player": p, "tax": "luxury"},
            "jail_fine": {"player": p},
            "jail_card": {"player": p, "action": "draw", "deck": "chance"},
            "go_to_jail": {"player": p},
            "leave_jail": {"player": p},
            "build": {"orders": [{"property": deed, "houses": 1}]},
            "sell_buildings": {"orders": [{"property": deed, "houses": 1}]},
            "mortgage": {"property": deed},
            "unmortgage": {"property": deed},
            "trade": {"legs": [{"from": p, "to": q, "cash": 1}]},
            "bankruptcy": {"debtor": p, "creditor": q},
            "pot_collect": {"player": p},
            "iou": {"debtor": p, "creditor": q, "amount": 5},
            "iou_repay": {"iou": iou, "amount": 1},
            "iou_transfer": {"iou": iou, "to": q},
            "iou_forgive": {"iou": iou},
            "turn": {"player": p},
            "void": {"seq": self.current["last_seq"], "reason": "a mistake"},
        }
        name = data.draw(st.sampled_from(sorted(templates)))
        body: dict[str, Any] = {
            "type": "card" if name == "repairs" else name,
            **copy.deepcopy(templates[name]),
        }
        # The field to spoil: one of the request's, or one inside its first order or leg.
        target = body
        nested = [f for f in ("orders", "legs") if f in body]
        if nested and bucket(data, 1, 1) == 0:
            target = body[nested[0]][0]
        field = data.draw(st.sampled_from(sorted(target)))
        optional = field == "houses"  # one house when left out
        if bucket(data, 1, 2) == 0 and not optional:
            del target[field]
        else:
            value = target[field]
            wrong: list[Any] = (
                ["5", 1.5, [], True] if isinstance(value, int) else [5, [], {}, 1.5]
            ) + ([] if optional else [None])
            target[field] = data.draw(st.sampled_from(wrong))
        before = self.view()
        note(f"bank.record(gid, {body!r})  # malformed")
        try:
            self.bank.record(self.gid, copy.deepcopy(body))
        except LedgerError as exc:
            assert self.view() == before, f"refused ({exc.code}) but the table changed"
            event(f"malformed {body.get('type')!r}: {exc.code}")
        else:
            raise AssertionError(f"accepted the malformed {body}")

    @rule(data=st.data())
    def turn(self, data: st.DataObject) -> None:
        self.submit({"type": "turn", "player": self.pick_player(data)})

    @rule(data=st.data())
    def finish(self, data: st.DataObject) -> None:
        """Now and then, late in a game: then every later request gets ``game_finished``.
        While a dispute is open it is refused (``disputes_open``); the banker may then keep
        every open dispute and finish."""
        if self.steps >= 25 and bucket(data, 3, 1) == 0:
            if self.submit({"type": "finish"}) is not None:
                return
            open_ = [d["seq"] for d in self.current.get("disputes", []) if d["status"] == "open"]
            if open_ and self.current["status"] == "active" and bucket(data, 1, 1) == 0:
                for seq in open_:
                    self.submit({"type": "dispute_resolve", "dispute": seq, "note": "it stands"})
                assert self.submit({"type": "finish"}) is not None, "refused once none was open"
                event("finished after keeping every open dispute")

    # -- after every step ----------------------------------------------------------------
    @invariant()
    def table_holds(self) -> None:
        self.steps += 1
        if not self.gid:
            return
        view = self.view()
        assert view == self.current
        check_table(view)
        assert self.reader.game(self.gid) == view, "an uncached load differs from live"
        if self.steps % 10 == 0:
            self.check_reload()

    def check_reload(self) -> None:
        """A brand-new application on the same file sees the same game, now and before."""
        fresh = self.app()
        try:
            assert fresh.game(self.gid) == self.current, "a reload differs from the live state"
            for gid, final in self.finished.items():
                assert fresh.game(gid) == final == self.bank.game(gid), "a finished game moved"
            for seq in sorted(self.history)[:: max(1, len(self.history) // 4)]:
                assert fresh.game(self.gid, seq=seq) == self.history[seq], f"seq {seq} differs"
                assert self.bank.game(self.gid, seq=seq) == self.history[seq]
        finally:
            fresh.close()
            self.apps.remove(fresh)

    def teardown(self) -> None:
        try:
            if self.gid:
                txns = list(self.bank.transactions(self.gid))
                event(f"run: {len(txns) // 10 * 10}+ transactions")
                event(f"run: highest level {self.top_level}")
                event(f"run: bankruptcies {sum(p['bankrupt'] for p in self.current['players'])}")
                self.check_reload()
                self.check_log()
        finally:
            for application in self.apps:
                application.close()
            self.store.drop(self.db)

    def check_log(self) -> None:
        """The log is seq 1..n, its postings add up to the balances of every step, it marks
        what was voided, verifies, replays, and exports to an import that is the same game."""
        balances = dict.fromkeys(self.current["balances"], 0)
        txns = list(self.bank.transactions(self.gid))
        assert [t["seq"] for t in txns] == list(range(1, len(txns) + 1))
        assert {t["seq"]: t["voided_by"] for t in txns if t["voided_by"]} == self.voided
        verified = self.bank.verify(self.gid)
        assert verified["ok"] and verified["transactions"] == len(txns), verified
        assert verified["head"] == self.current["head"], verified
        steps = self.bank.replay(self.gid)["steps"]
        assert [step["seq"] for step in steps] == [t["seq"] for t in txns]
        assert steps[-1]["balances"] == self.current["balances"]
        for seq, view in self.history.items():
            assert steps[seq - 1]["balances"] == view["balances"], seq
            assert steps[seq - 1]["net_worths"] == {
                p["id"]: p["net_worth"] for p in view["players"]
            }, seq
        for account, balance in self.current["balances"].items():
            assert self.bank.statement(self.gid, account)["balance"] == balance, account
        model = self.model
        for pid in model["players"]:
            liquidation = self.bank.liquidation(self.gid, pid)
            assert liquidation["total"] == liquidation_total(model, pid), (pid, liquidation)
        imported = self.bank.import_game(self.bank.export(self.gid))
        again = self.bank.game(imported["id"])
        assert {**again, "id": self.gid} == self.current, "the imported game differs"
        for txn in txns:
            for posting in txn["postings"]:
                balances[posting["from"]] -= posting["amount"]
                balances[posting["to"]] += posting["amount"]
            assert balances == txn["balances"], txn["seq"]
            if txn["seq"] in self.history:
                assert self.history[txn["seq"]]["balances"] == balances
        assert balances == self.current["balances"]


def diff(expected: Model, actual: Model) -> str:
    """The fields where the ledger's table differs from the rules' model."""
    lines = []
    for key in expected:
        if expected[key] == actual[key]:
            continue
        if isinstance(expected[key], dict):
            for sub in sorted(set(expected[key]) | set(actual[key]), key=str):
                if expected[key].get(sub) != actual[key].get(sub):
                    lines.append(
                        f"{key}[{sub}]: rules {expected[key].get(sub)!r}, "
                        f"ledger {actual[key].get(sub)!r}"
                    )
        else:
            lines.append(f"{key}: rules {expected[key]!r}, ledger {actual[key]!r}")
    return "the ledger differs from the rules: " + "; ".join(lines)


@pytest.fixture(autouse=True)
def _machine_store(local_store: Store) -> None:
    """The rules' walks keep their tables in SQLite files, the embedded default: they run once."""
    LedgerMachine.store = local_store


LedgerMachine.TestCase.settings = MACHINE_SETTINGS

TestLedgerStateMachine = LedgerMachine.TestCase


def test_the_machine_on_each_store(store: Store) -> None:
    """A few walks on every store of the matrix, for what a store can break: reloads by other
    applications (with and without the cache, from snapshots), a finished game that never
    moves, and the log that verifies, replays, exports and imports at the end."""

    class OnStore(LedgerMachine):
        pass

    OnStore.store = store
    run_state_machine_as_test(
        OnStore, settings=settings(MACHINE_SETTINGS, max_examples=examples(4))
    )
