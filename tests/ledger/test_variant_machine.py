"""The ledger's invariants under random play at tables of every other rule set (issue 4).

``test_state_machine.py`` plays the classic game against a full model of docs/rules.md.
This machine plays the other rule sets: ``short`` and ``timed`` (docs/rules.md, short/timed game), a
banker's own
box (a Russian-edition style document below that ``extends`` classic, in thousands of rubles,
with other names, five houses a street before the hotel, a small supply of buildings, the
interest taken of the price, one deed dealt each) and ``millionaire-elite`` (docs/rules.md,
Millionaire Elite). The
rule set, the players and the house-rule options the rule set offers are drawn per table; a
finished table is followed by a new one of another draw.

It records random transactions, valid and invalid, through ``TableBank``: for the classic
family every classic type (salary, payments, cards, buying, auctions, rent of streets,
railroads and utilities, taxes, jail, building up to hotels and selling back, mortgages,
trades, IOUs, the pot, bankruptcies, turns, voids, ``finish``), set-up deals given or dealt
at random, the short game's end at its second bankruptcy; for Millionaire Elite round income
and round tax (with the exemption), shares bought and sold (from the Bank and brokered), the
exchange moving the price, insurance policies (bought, used, returned, expired), jackpot
stakes, plots whose prices the banker enters, central plots, branches and enterprises,
mortgages, auctions of owned plots, and bankruptcies the Bank covers; at every table disputes
raised and settled, and under ``buy_after_first_lap`` deeds only after a first salary. After
every step:

- balances (Bank, pot, players) sum to zero; no player and not the pot below zero;
- every deed has one owner, the Bank or a player at the table; what the Bank holds is bare
  and unmortgaged; buildings only on buildable deeds, at most ``max_houses``, never houses
  with a hotel; levels within a group differ by at most one (a hotel counts one more than
  the houses it needs); houses and hotels on the board plus the Bank's = the box's supply
  where it is limited;
- shares: the price is never below 0, no holding is negative, shares x price >= 0;
- every IOU's outstanding is between 0 and its amount;
- net worths are API.md's sum, and a finished game's standings are docs/rules.md's short/timed
scores;
- a dispute moves no money; a void that resolves one reverses the disputed transaction once;
  a ``finish`` while one is open is ``disputes_open``;
- a refused command changed nothing; an accepted one moved ``last_seq`` by one and its
  postings explain every balance change, with the amounts docs/rules.md gives where the figure
  is cheap to predict (written out below);
- the live state equals the game loaded by a fresh ``TableBank`` on the same store, now and
  as of an earlier ``seq``; at teardown the log verifies, replays, and exports to an import
  that is the same game.

Settings: ``HYPOTHESIS_PROFILE=ci`` (the default), ``dev`` (quick) or ``fuzz`` (long):
``tests/profiles.py``.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
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
from machines import MACHINE_SETTINGS, PRICE, RAILROADS, STREETS, UTILITIES, bucket
from profiles import examples
from stores import Store

from ledger.application import TableBank
from ledger.errors import LedgerError
from ledger.store import persistence_env

# -- the boards and their figures ------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One deed as the rules price it."""

    kind: str  # street | railroad | utility | plot | central
    group: str
    price: int | None  # None: the banker enters it (Millionaire Elite plots)
    rents: tuple[int, ...] = ()
    house: int = 0  # 0 with a plot: the banker enters the building price
    hotel: int = 0


@dataclass(frozen=True)
class Board:
    """The figures of one rule set, copied from docs/rules.md (or from the document below)."""

    name: str
    deeds: dict[str, Spec]
    starting_cash: int
    salary: int
    jail_fine: int = 50
    luxury_tax: int = 75
    income_tax_flat: int = 200
    income_tax_percent: int = 10
    houses: int | None = 32
    hotels: int | None = 12
    max_houses: int = 4
    houses_before_hotel: int = 4
    interest_base: str = "mortgage_value"
    railroad_rents: tuple[int, ...] = (25, 50, 100, 200)
    utility_factors: tuple[int, ...] = (4, 10)
    deal: int = 0
    ends_after: int | None = None
    buildings_to_creditor: bool = False
    elite: bool = False
    pot_seed: int = 0
    players: tuple[int, int] = (2, 8)
    document: dict[str, Any] | None = None
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for slug, spec in self.deeds.items():
            self.groups.setdefault(spec.group, ())
            self.groups[spec.group] += (slug,)  # type: ignore[index]

    def buildable(self, slug: str) -> bool:
        return self.deeds[slug].kind in ("street", "plot")


def _classic_deeds() -> dict[str, Spec]:
    """The appendix of docs/rules.md (copied into test_state_machine.py)."""
    deeds = {
        slug: Spec("street", group, price, rents, house, house)
        for slug, (group, price, rents, house) in STREETS.items()
    }
    deeds.update({s: Spec("railroad", "railroad", PRICE[s]) for s in RAILROADS})
    deeds.update({s: Spec("utility", "utility", PRICE[s]) for s in UTILITIES})
    return deeds


# docs/rules.md, short/timed game: the short game deals two deeds, builds at most 3 houses, a hotel
# after 3, and
# ends at the second bankruptcy with the bankrupt's buildings handed to a player creditor.
SHORT = Board(
    "short",
    _classic_deeds(),
    starting_cash=1500,
    salary=200,
    max_houses=3,
    houses_before_hotel=3,
    deal=2,
    ends_after=2,
    buildings_to_creditor=True,
)
# docs/rules.md, short/timed game: the timed game deals two deeds and is otherwise the classic game.
TIMED = Board("timed", _classic_deeds(), starting_cash=1500, salary=200, deal=2)

# A banker's own box: a Russian edition counted in thousands of rubles that extends classic.
KREMLIN_DOC: dict[str, Any] = {
    "name": "kremlin-thousands",
    "extends": "classic",
    "title": "Moscow in thousands of rubles: five houses before the hotel",
    "currency": "thousand rubles",
    "players": {"min": 2, "max": 5},
    "parameters": {
        "starting_cash": 15000,
        "salary": 2000,
        "jail_fine": 500,
        "luxury_tax": 1000,
        "income_tax_flat": 2000,
        "houses": 16,
        "hotels": 3,
        "max_houses": 5,
        "houses_before_hotel": 5,
        "mortgage_interest_base": "price",
        "railroad_rents": [250, 500],
        "utility_multipliers": [40, 100],
        "deal_deeds": 1,
    },
    "options": {"player_loans": {"type": "boolean", "default": True}},
    "deeds": [
        {
            "name": "Житная улица",
            "id": "zhitnaya",
            "kind": "street",
            "group": "brown",
            "price": 600,
            "rents": [20, 100, 300, 900, 1600, 2000, 2500],
            "house_price": 500,
        },
        {
            "name": "Nagatinskaya Street",
            "kind": "street",
            "group": "brown",
            "price": 600,
            "rents": [40, 200, 600, 1800, 3200, 4000, 4500],
            "house_price": 500,
        },
        {"name": "Rizhsky Railway", "kind": "railroad", "group": "railways", "price": 2000},
        {
            "name": "Tverskaya Street",
            "kind": "street",
            "group": "red",
            "price": 2200,
            "rents": [180, 900, 2500, 7000, 8750, 9500, 10500],
            "house_price": 1500,
        },
        {
            "name": "Pushkinskaya Street",
            "kind": "street",
            "group": "red",
            "price": 2200,
            "rents": [180, 900, 2500, 7000, 8750, 9500, 10500],
            "house_price": 1500,
        },
        {
            "name": "Mayakovsky Square",
            "kind": "street",
            "group": "red",
            "price": 2400,
            "rents": [200, 1000, 3000, 7500, 9250, 10000, 11000],
            "house_price": 1500,
        },
        {"name": "Power Station", "kind": "utility", "group": "utilities", "price": 1500},
        {"name": "Kursky Railway", "kind": "railroad", "group": "railways", "price": 2000},
        {"name": "Vodokanal", "kind": "utility", "group": "utilities", "price": 1500},
        {
            "name": "Malaya Bronnaya",
            "kind": "street",
            "group": "dark-blue",
            "price": 3500,
            "rents": [350, 1750, 5000, 11000, 13000, 14000, 15000],
            "house_price": 2000,
        },
        {
            "name": "Арбат",
            "id": "arbat",
            "kind": "street",
            "group": "dark-blue",
            "price": 4000,
            "rents": [500, 2000, 6000, 14000, 17000, 18500, 20000],
            "house_price": 2000,
            "hotel_price": 2500,
        },
    ],
}
KREMLIN = Board(
    "kremlin-thousands",
    {
        "zhitnaya": Spec("street", "brown", 600, (20, 100, 300, 900, 1600, 2000, 2500), 500, 500),
        "nagatinskaya-street": Spec(
            "street", "brown", 600, (40, 200, 600, 1800, 3200, 4000, 4500), 500, 500
        ),
        "rizhsky-railway": Spec("railroad", "railways", 2000),
        "tverskaya-street": Spec(
            "street", "red", 2200, (180, 900, 2500, 7000, 8750, 9500, 10500), 1500, 1500
        ),
        "pushkinskaya-street": Spec(
            "street", "red", 2200, (180, 900, 2500, 7000, 8750, 9500, 10500), 1500, 1500
        ),
        "mayakovsky-square": Spec(
            "street", "red", 2400, (200, 1000, 3000, 7500, 9250, 10000, 11000), 1500, 1500
        ),
        "power-station": Spec("utility", "utilities", 1500),
        "kursky-railway": Spec("railroad", "railways", 2000),
        "vodokanal": Spec("utility", "utilities", 1500),
        "malaya-bronnaya": Spec(
            "street", "dark-blue", 3500, (350, 1750, 5000, 11000, 13000, 14000, 15000), 2000, 2000
        ),
        "arbat": Spec(
            "street", "dark-blue", 4000, (500, 2000, 6000, 14000, 17000, 18500, 20000), 2000, 2500
        ),
    },
    starting_cash=15000,
    salary=2000,
    jail_fine=500,
    luxury_tax=1000,
    income_tax_flat=2000,
    houses=16,
    hotels=3,
    max_houses=5,
    houses_before_hotel=5,
    interest_base="price",
    railroad_rents=(250, 500),
    utility_factors=(40, 100),
    deal=1,
    players=(2, 5),
    document=KREMLIN_DOC,
)


def _elite_deeds() -> dict[str, Spec]:
    """docs/rules.md, Millionaire Elite: branches b1 and b8 of two plots, b2-b7 of three, no figures
    printed;
    four central plots at 500, never built on."""
    deeds: dict[str, Spec] = {}
    for b in range(1, 9):
        for i in range(1, (2 if b in (1, 8) else 3) + 1):
            deeds[f"b{b}-{i}"] = Spec("plot", f"b{b}", None)
    deeds.update({f"central-{i}": Spec("central", "central", 500) for i in range(1, 5)})
    return deeds


# docs/rules.md, Millionaire Elite: 2000 each, a 200 kitty, round income 200 + 20 % of the shares'
# value, round
# tax 10 a share, shares at 100 moving 10 a point, policies 100/200/300/500, 3 branches then
# an enterprise, no limit on buildings, interest 10 % of the full value.
ELITE = Board(
    "millionaire-elite",
    _elite_deeds(),
    starting_cash=2000,
    salary=200,
    houses=None,
    hotels=None,
    max_houses=3,
    houses_before_hotel=3,
    interest_base="price",
    railroad_rents=(),
    utility_factors=(),
    elite=True,
    pot_seed=200,
    players=(2, 6),
)
SHARE_START, SHARE_INCOME_PERCENT, SHARE_TAX, SHARE_POINT = 100, 20, 10, 10
POLICIES = {"green": 100, "blue": 200, "orange": 300, "red": 500}
UNTIL_START = ("green", "blue")  # the others last until used
# The figures the banker enters at this machine's tables (the box prints them, the rule set
# does not): a plot's price and its building price, by plot.
ENTERED_PRICE = {s: 120 + 20 * n for n, s in enumerate(ELITE.deeds) if s.startswith("b")}
ENTERED_BUILDING = {s: 50 + 50 * (int(s[1]) % 4) for s in ENTERED_PRICE}  # 50 to 200

BOARDS = {b.name: b for b in (SHORT, TIMED, KREMLIN, ELITE)}
UNKNOWN_PLAYER = "p9"
UNKNOWN_DEED = "atlantis-avenue"
DECKS = ("chance", "community_chest")
NAMES = ["Anya", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ilya"]


def half_up(numerator: int, denominator: int) -> int:
    """The nearest whole unit, halves up (docs/rules.md preamble)."""
    return (2 * numerator + denominator) // (2 * denominator)


# -- figures read off a state view ------------------------------------------------------------


def price_of(board: Board, view: dict[str, Any], slug: str) -> int | None:
    """The deed's price: printed, or entered at the table."""
    spec = board.deeds[slug]
    if spec.price is not None:
        return spec.price
    return view.get("entered_figures", {}).get(slug, {}).get("price")


def unit_prices(board: Board, view: dict[str, Any], slug: str) -> tuple[int, int]:
    """(house, hotel) price: printed, or the building price entered at the table."""
    spec = board.deeds[slug]
    if spec.house:
        return spec.house, spec.hotel
    entered = view.get("entered_figures", {}).get(slug, {}).get("building_price", 0)
    return entered, entered


def level(board: Board, prop: dict[str, Any]) -> int:
    return board.houses_before_hotel + 1 if prop["hotel"] else int(prop["houses"])


def buildings_cost(board: Board, view: dict[str, Any], slug: str) -> int:
    """What a street's buildings cost: a hotel with the houses it replaced (docs/rules.md,
    short/timed game)."""
    prop = view["properties"][slug]
    house, hotel = unit_prices(board, view, slug)
    if prop["hotel"]:
        return hotel + board.houses_before_hotel * house
    return int(prop["houses"]) * house


def sale_value(board: Board, view: dict[str, Any], slug: str) -> int:
    """Half of what the buildings cost, each half rounded up (docs/rules.md and 2)."""
    prop = view["properties"][slug]
    house, hotel = unit_prices(board, view, slug)
    if prop["hotel"]:
        return half_up(hotel, 2) + board.houses_before_hotel * half_up(house, 2)
    return int(prop["houses"]) * half_up(house, 2)


def mortgage_fee(board: Board, view: dict[str, Any], slug: str) -> int:
    """10 % of the mortgage value (classic) or of the price (seed 003, Elite, the box)."""
    price = price_of(board, view, slug) or 0
    base = price if board.interest_base == "price" else price // 2
    return half_up(base * 10, 100)


def shares_of(view: dict[str, Any], pid: str) -> int:
    return int(next(p for p in view["players"] if p["id"] == pid).get("shares", 0))


def worth(board: Board, view: dict[str, Any], pid: str) -> int:
    """API.md's net worth: cash + deeds at price (mortgaged at half) + buildings at cost +
    shares at the current price + IOUs held - IOUs owed. docs/rules.md, short/timed game scores a
    finished game by
    it (hotels with their three houses in the short game, four in the timed one)."""
    total = view["balances"][pid] + shares_of(view, pid) * view.get("share_price", 0)
    for slug, prop in view["properties"].items():
        if prop["owner"] != pid:
            continue
        price = price_of(board, view, slug)
        if price is None:
            # docs/rules.md, "Net worth of a plot won at auction": at the bid it was won for.
            price = view.get("paid_at_auction", {}).get(slug)
        price = price or 0
        total += price // 2 if prop["mortgaged"] else price
        total += buildings_cost(board, view, slug)
    for iou in view["ious"]:
        total += iou["outstanding"] * ((iou["holder"] == pid) - (iou["debtor"] == pid))
    return total


def liquidation_total(board: Board, view: dict[str, Any], pid: str) -> int:
    """Cash + every building sold + every unmortgaged deed mortgaged + shares sold."""
    total = view["balances"][pid] + shares_of(view, pid) * view.get("share_price", 0)
    for slug, prop in view["properties"].items():
        if prop["owner"] == pid:
            total += sale_value(board, view, slug)
            price = price_of(board, view, slug)
            if not prop["mortgaged"] and price is not None:
                total += price // 2
    return total


def check_table(board: Board, view: dict[str, Any]) -> None:
    """Every invariant a state view of ``board`` must satisfy at any time."""
    balances = view["balances"]
    assert sum(balances.values()) == 0, f"balances do not sum to zero: {balances}"
    for acc, balance in balances.items():
        assert isinstance(balance, int) and not isinstance(balance, bool), (acc, balance)
        if acc != "bank":
            assert balance >= 0, f"{acc} is below zero: {balance}"
    players = {p["id"]: p for p in view["players"]}
    keep = bool(view["options"].get("keep_bankrupt_players"))
    bankrupt = {pid for pid, p in players.items() if p["bankrupt"]}
    seated = set(players) if keep else set(players) - bankrupt

    props = view["properties"]
    assert set(props) == set(board.deeds)
    for slug, prop in props.items():
        assert prop["owner"] == "bank" or prop["owner"] in seated, (slug, prop)
        assert 0 <= prop["houses"] <= board.max_houses, (slug, prop)
        assert not (prop["hotel"] and prop["houses"]), f"{slug} has houses and a hotel"
        if not board.buildable(slug):
            assert level(board, prop) == 0, f"a building on {slug}"
        if prop["owner"] == "bank":
            assert not prop["mortgaged"] and level(board, prop) == 0, (slug, prop)
    for group, slugs in board.groups.items():
        levels = [level(board, props[s]) for s in slugs]
        assert max(levels) - min(levels) <= 1, f"{group} stands uneven: {levels}"
        if max(levels):
            # (An Elite plot is mortgaged once its own buildings are sold, docs/rules.md,
            # Millionaire Elite.)
            mortgaged = [s for s in slugs if props[s]["mortgaged"]]
            assert (
                not any(level(board, props[s]) for s in mortgaged)
                if board.elite
                else (not mortgaged)
            ), f"{group} built, mortgaged"
            if not board.elite:
                # (An Elite plot that stands bare may be auctioned out of a built branch.)
                owners = {props[s]["owner"] for s in slugs}
                assert len(owners) == 1, f"{group} built but split {owners}"
    houses = sum(p["houses"] for p in props.values())
    hotels = sum(int(p["hotel"]) for p in props.values())
    if board.houses is None:
        assert view["bank"] == {"houses": None, "hotels": None}, view["bank"]
    else:
        assert houses + view["bank"]["houses"] == board.houses, (houses, view["bank"])
        assert hotels + view["bank"]["hotels"] == board.hotels, (hotels, view["bank"])
        assert view["bank"]["houses"] >= 0 and view["bank"]["hotels"] >= 0, view["bank"]

    if board.elite:
        price = view["share_price"]
        assert isinstance(price, int) and price >= 0, f"share price {price}"
        assert price % SHARE_POINT == 0, f"share price {price} off the 10-point grid"
        for pid, p in players.items():
            assert p["shares"] >= 0 and p["shares"] * price >= 0, p
            assert set(p["policies"]) <= set(POLICIES), p
            if pid not in seated:
                assert not p["shares"] and not p["policies"] and not p["tax_exempt"], p
    else:
        assert "share_price" not in view
    for iou in view["ious"]:
        assert 0 <= iou["outstanding"] <= iou["amount"], iou
        if iou["outstanding"]:
            assert iou["debtor"] in seated and iou["debtor"] != iou["holder"], iou
            assert iou["holder"] in seated or iou["holder"] == "bank", iou
    for pid, p in players.items():
        assert p["cash"] == balances[pid]
        assert p["net_worth"] == worth(board, view, pid), (pid, p["net_worth"])
    for pid in bankrupt - seated:
        assert balances[pid] == 0, players[pid]
    assert view["turn"] is None or view["turn"] in seated, view["turn"]
    if view["status"] == "active":
        assert "standings" not in view
        assert keep or len(set(players) - bankrupt) >= 2, "one player left, the game goes on"
        if board.ends_after is not None:
            assert len(bankrupt) < board.ends_after, "the short game outlived its bankruptcies"
    else:
        assert view["status"] == "finished"
        ranked = [s["player"] for s in view["standings"]]
        assert sorted(ranked) == sorted(players), view["standings"]
        at_table = view["standings"][: len(seated)]
        assert {s["player"] for s in at_table} == seated, view["standings"]
        for s in at_table:
            assert s["score"] == worth(board, view, s["player"]), s
        scores = [s["score"] for s in at_table]
        assert scores == sorted(scores, reverse=True), view["standings"]


# -- the machine -----------------------------------------------------------------------------


def playing(step: Any) -> Any:
    """A rule played at an active table: a finished one (which took nothing more, checked in
    ``submit``) has its log checked and is followed by a new table first."""

    @functools.wraps(step)
    def at_a_table(machine: Any, data: st.DataObject) -> None:
        if machine.current["status"] == "finished":
            machine.next_table(data)
        step(machine, data)

    return at_a_table


class Refusal:
    """What a request must be refused with: one of ``codes``."""

    def __init__(self, *codes: str) -> None:
        self.codes = set(codes)


class VariantMachine(RuleBasedStateMachine):
    """Tables of the short, timed, custom and Millionaire Elite rule sets, one after another,
    recorded by the banker in a fresh database (a SQLite file; a few walks on every store of the
    matrix)."""

    store: Store  # the run's store (--store), set by the fixture below

    def __init__(self) -> None:
        super().__init__()
        self.db = self.store.new(durable=True)
        self.env = persistence_env(self.db)
        self.apps: list[TableBank] = []
        self.gid = ""
        self.board = SHORT
        self.options: dict[str, Any] = {}
        self.current: dict[str, Any] = {}
        self.history: dict[int, dict[str, Any]] = {}
        self.finished: dict[str, dict[str, Any]] = {}
        self.steps = 0
        self.tables = 0

    # -- plumbing ------------------------------------------------------------------------------
    def app(self, **env: str) -> TableBank:
        application = TableBank(env={**self.env, **env})
        self.apps.append(application)
        return application

    def view(self) -> dict[str, Any]:
        return self.bank.game(self.gid)

    def submit(
        self,
        body: dict[str, Any],
        expect: Refusal | None = None,
        must: bool = False,
        by: str = "banker",
    ) -> dict[str, Any] | None:
        """Record one request. A refusal changes nothing (and, with ``expect``, gives one of
        its codes); an acceptance moves ``last_seq`` by one and its postings explain every
        balance. ``must``: the rules allow it, so it is accepted."""
        kind = body["type"]
        before = self.current  # the live view after the last transaction (checked then)
        if before["status"] == "finished":
            expect, must = Refusal("game_finished"), False
        try:
            txn = self.bank.record(self.gid, copy.deepcopy(body), by=by)
        except LedgerError as exc:
            note(f"bank.record(gid, {body!r}, by={by!r})  # refused {exc.code}: {exc.detail}")
            assert self.view() == before, f"refused ({exc.code}) but the table changed"
            if before["status"] == "finished":
                assert exc.code == "game_finished", exc.code
            assert not must, f"refused {body} with {exc.code} ({exc.detail}); the rules allow it"
            if expect is not None:
                assert exc.code in expect.codes, (body, exc.code, sorted(expect.codes))
            if exc.code == "insufficient_funds" and exc.extra["account"] != "pot":
                account = exc.extra["account"]
                assert exc.extra["can_raise"] == (
                    liquidation_total(self.board, before, account) - before["balances"][account]
                ), exc.extra
            event(f"{self.board.name}: refused {kind}: {exc.code}")
            return None
        note(f"bank.record(gid, {body!r}, by={by!r})  # accepted, seq {txn['seq']}")
        assert before["status"] != "finished", f"a finished game accepted {body}"
        assert expect is None, f"accepted {body}; the rules refuse it ({sorted(expect.codes)})"
        after = self.view()
        assert txn["seq"] == before["last_seq"] + 1 == after["last_seq"], (txn["seq"], after)
        balances = dict(before["balances"])
        for posting in txn["postings"]:
            amount = posting["amount"]
            assert isinstance(amount, int) and not isinstance(amount, bool) and amount > 0, posting
            assert posting["from"] != posting["to"], posting
            balances[posting["from"]] -= amount
            balances[posting["to"]] += amount
        assert balances == after["balances"] == txn["balances"], "postings do not explain it"
        check_table(self.board, after)
        self.current = after
        self.history[after["last_seq"]] = after
        self.prev = before
        event(f"{self.board.name}: accepted {kind}")
        if any(p["hotel"] for p in after["properties"].values()):
            event(f"{self.board.name}: a hotel (enterprise) stands")
        if kind == "rent" and body.get("multiplier", 1) > 1:
            event(f"{self.board.name}: rent multiplied on a {txn['basis']['kind']}")
        if after["status"] == "finished":
            self.finished[self.gid] = after
            assert self.submit({"type": "salary", "player": "p1"}) is None
            assert self.submit({"type": "finish"}) is None
        return txn

    def accepted(self, txn: dict[str, Any] | None) -> dict[str, Any]:
        """The transaction a ``must`` submit returned (it was accepted)."""
        assert txn is not None
        return txn

    def moved(self) -> dict[str, int]:
        """How the last accepted transaction moved each balance."""
        return {
            a: self.current["balances"][a] - self.prev["balances"][a]
            for a in self.current["balances"]
            if self.current["balances"][a] != self.prev["balances"][a]
        }

    # -- choosing ------------------------------------------------------------------------------
    @property
    def elite(self) -> bool:
        return self.board.elite

    @property
    def props(self) -> dict[str, dict[str, Any]]:
        return self.current["properties"]  # type: ignore[no-any-return]

    def in_game(self) -> list[str]:
        return [p["id"] for p in self.current["players"] if not p["bankrupt"]]

    def seated(self) -> list[str]:
        if self.options.get("keep_bankrupt_players"):
            return [p["id"] for p in self.current["players"]]
        return self.in_game()

    def pick_player(self, data: st.DataObject, among: list[str] | None = None) -> str:
        """Mostly a player at the table; now and then a bankrupt or unknown one."""
        players = among if among is not None else self.in_game()
        bankrupt = [p["id"] for p in self.current["players"] if p["bankrupt"]]
        which = bucket(data, 17 if players else 0, 2 if bankrupt else 0, 1)
        if which == 0:
            return data.draw(st.sampled_from(players))
        if which == 1:
            return data.draw(st.sampled_from(bankrupt))
        return UNKNOWN_PLAYER

    def pick_deed(self, data: st.DataObject, preferred: list[str]) -> str:
        which = bucket(data, 16 if preferred else 0, 3, 1)
        if which == 0:
            return data.draw(st.sampled_from(sorted(preferred)))
        if which == 1:
            return data.draw(st.sampled_from(sorted(self.board.deeds)))
        return UNKNOWN_DEED

    def cash(self, pid: str) -> int:
        return int(self.current["balances"].get(pid, 0))

    def may_buy(self, pid: str) -> bool:
        """House rule buy_after_first_lap: whether the player had a salary (not voided). A
        first salary cannot be voided while a later one of his stands, so that is the rule."""
        if not self.options.get("buy_after_first_lap"):
            return True
        return any(
            t["type"] == "salary" and t["request"]["player"] == pid and t["voided_by"] is None
            for t in self.bank.transactions(self.gid)
        )

    def active(self, pid: str) -> bool:
        return pid in self.seated()

    def fines(self) -> str:
        return "pot" if self.options.get("free_parking_pot") else "bank"

    def known_price(self, slug: str) -> int | None:
        return price_of(self.board, self.current, slug)

    def monopolies(self) -> list[tuple[str, str]]:
        """(group, owner) for each buildable group one seated player holds whole."""
        out = []
        for group, slugs in self.board.groups.items():
            if not self.board.buildable(slugs[0]):
                continue
            owners = {self.props[s]["owner"] for s in slugs}
            if len(owners) == 1 and owners <= set(self.seated()):
                out.append((group, owners.pop()))
        return out

    # -- set-up --------------------------------------------------------------------------------
    @initialize(data=st.data())
    def create(self, data: st.DataObject) -> None:
        self.bank = self.app()
        self.reader = self.app(AGGREGATE_CACHE_MAXSIZE="")
        self.seat(data)

    def seat(self, data: st.DataObject) -> None:
        """A new table of a drawn rule set, players and options, with its set-up checked."""
        board = BOARDS[data.draw(st.sampled_from(sorted(BOARDS)), label="ruleset")]
        low, high = board.players
        names = data.draw(st.lists(st.sampled_from(NAMES), min_size=low, max_size=min(high, 5)))
        options: dict[str, Any] = {}
        if not board.elite:  # Millionaire Elite offers no house rules (its loans are always on)
            options = {
                "free_parking_pot": data.draw(st.booleans()),
                "player_loans": data.draw(st.booleans()),
                "no_rent_in_jail": data.draw(st.booleans()),
                "keep_bankrupt_players": data.draw(st.sampled_from([False, False, False, True])),
                "one_house_per_turn": data.draw(st.sampled_from([False, False, False, True])),
                "buy_after_first_lap": data.draw(st.sampled_from([False, False, True])),
                "income_tax": data.draw(st.sampled_from(["choice", "flat", "percent"])),
            }
            luxury = data.draw(st.sampled_from([None, 0, 100, 2 * board.luxury_tax]))
            if luxury is not None:
                options["luxury_tax"] = luxury
            options = {k: v for k, v in options.items() if data.draw(st.booleans()) or v}
        dealt = None
        if board.deal:
            if data.draw(st.booleans(), label="a table dealt at random too"):
                self.random_deal(board, names, options)
            # The machine plays at a table the banker dealt: a random deal would make the
            # draws that follow depend on something hypothesis does not choose.
            deck = data.draw(st.permutations(sorted(board.deeds)))
            dealt = {
                f"p{i + 1}": list(deck[i * board.deal : (i + 1) * board.deal])
                for i in range(len(names))
            }
        created = self.bank.create_game(
            "vm",
            board.name,
            names,
            options,
            dealt=dealt,
            ruleset_document=copy.deepcopy(board.document) if board.document else None,
        )
        note(f"create_game('vm', {board.name!r}, {names!r}, {options!r}, dealt={dealt!r})")
        self.board = board
        self.gid = created["id"]
        self.options = created["options"]
        self.tables += 1
        self.current = self.view()
        self.history = {}
        self.log_start = 0
        event(f"table: {board.name}")
        self.check_setup(board, self.current, names, options, dealt)
        self.history[self.current["last_seq"]] = self.current
        self.setup_seq = self.current["last_seq"]
        self.opening(data)

    def opening(self, data: st.DataObject) -> None:
        """Most tables start with groups bought whole, some built on, and (Elite) shares; under
        ``buy_after_first_lap`` most players first pass GO."""
        if self.options.get("buy_after_first_lap"):
            for pid in self.in_game():
                if bucket(data, 3, 1) == 0:
                    self.submit({"type": "salary", "player": pid}, must=True)
        for pid in self.in_game():
            for _ in range(bucket(data, 2, 3, 2)):
                self.buy_whole_group(data, pid)
            if self.elite and bucket(data, 1, 2):
                count = data.draw(st.integers(1, 6))
                self.submit({"type": "shares", "player": pid, "action": "buy", "count": count})
        for _ in range(bucket(data, 2, 2, 2, 1)):
            self.build_up(data, refused=False)

    def random_deal(self, board: Board, names: list[str], options: dict[str, Any]) -> None:
        """A table the server deals at random: each player holds ``deal`` distinct deeds paid
        at their printed prices; it finishes with standings, verifies and round-trips."""
        document = copy.deepcopy(board.document) if board.document else None
        gid = self.bank.create_game(
            "vm-random", board.name, names, options, ruleset_document=document
        )["id"]
        self.check_setup(board, self.bank.game(gid), names, options, None, gid=gid)
        self.bank.record(gid, {"type": "finish"})
        final = self.bank.game(gid)
        check_table(board, final)
        assert self.bank.verify(gid)["ok"]
        again = self.bank.game(self.bank.import_game(self.bank.export(gid))["id"])
        assert {**again, "id": gid} == final, "the imported random deal differs"
        self.finished[gid] = final
        event(f"{board.name}: dealt at random")

    def check_setup(
        self,
        board: Board,
        view: dict[str, Any],
        names: list[str],
        options: dict[str, Any],
        dealt: dict[str, list[str]] | None,
        gid: str = "",
    ) -> None:
        """Starting cash for each, the deal paid at printed prices, the kitty seeded."""
        n = len(names)
        chosen = view["options"]
        pids = [f"p{i}" for i in range(1, n + 1)]
        for opt, value in options.items():
            assert chosen[opt] == value, (opt, chosen)
        if board.document:  # the box's own default: loans on unless the banker says
            assert chosen["player_loans"] is options.get("player_loans", True)
        held = {
            pid: sorted(s for s, p in view["properties"].items() if p["owner"] == pid)
            for pid in pids
        }
        if dealt is not None:
            assert held == {pid: sorted(dealt[pid]) for pid in pids}, held
        for pid in pids:
            assert len(held[pid]) == board.deal, held
            paid = sum(board.deeds[s].price or 0 for s in held[pid])
            assert view["balances"][pid] == board.starting_cash - paid, (pid, view["balances"])
        assert len({s for deeds in held.values() for s in deeds}) == n * board.deal
        assert view["balances"]["pot"] == board.pot_seed
        assert view["last_seq"] == n * (2 if board.deal else 1) + (1 if board.pot_seed else 0)
        txns = list(self.bank.transactions(gid or self.gid))
        assert [t["type"] for t in txns] == (
            ["starting_cash"] * n
            + (["deal"] * n if board.deal else [])
            + (["pot_seed"] if board.pot_seed else [])
        )
        if board.elite:
            assert view["share_price"] == SHARE_START
        assert all(not p["mortgaged"] and not level(board, p) for p in view["properties"].values())
        check_table(board, view)

    # -- money in and out ----------------------------------------------------------------------
    @rule(data=st.data())
    @playing
    def salary(self, data: st.DataObject) -> None:
        """GO pays the salary; Millionaire Elite's START pays 200 + 20 % of the shares' value
        and ends the green and blue policies."""
        pid = self.pick_player(data)
        if not self.active(pid):
            self.submit({"type": "salary", "player": pid})
            return
        value = shares_of(self.current, pid) * self.current.get("share_price", 0)
        policies = next(p for p in self.current["players"] if p["id"] == pid).get("policies", [])
        txn = self.submit({"type": "salary", "player": pid}, must=True)
        assert txn is not None
        if self.elite:
            # e.g. 3 shares at 110: 200 + 20 % of 330 = 266.
            assert self.moved() == {
                "bank": -(200 + half_up(value * 20, 100)),
                pid: 200 + half_up(value * 20, 100),
            }
            after = next(p for p in self.current["players"] if p["id"] == pid)["policies"]
            assert after == [p for p in policies if p not in UNTIL_START], (policies, after)
        else:
            assert self.moved() == {"bank": -self.board.salary, pid: self.board.salary}

    @rule(data=st.data())
    @playing
    def windfall(self, data: st.DataObject) -> None:
        """A card paid by the Bank, so that players can afford whole groups and buildings."""
        amount = data.draw(st.sampled_from([1, 3, 10])) * self.board.starting_cash // 2
        pid = self.pick_player(data)
        self.submit({"type": "card", "player": pid, "effect": "collect", "amount": amount})

    @rule(data=st.data())
    @playing
    def payment(self, data: st.DataObject) -> None:
        frm = self.pick_player(data) if bucket(data, 8, 1) == 0 else "pot"
        to = data.draw(st.sampled_from(["bank", "pot", *self.in_game(), UNKNOWN_PLAYER]))
        have = max(self.cash(frm), 0)
        amount = [data.draw(st.integers(1, 300)), have, have + 1][bucket(data, 4, 2, 1)]
        body = {"type": "payment", "from": frm, "to": to, "amount": max(amount, 1)}
        # The pot is an account only where the game collects it (docs/rules.md, "Free Parking
        # pot"): the kitty, or the house rule; elsewhere option_disabled.
        pot = self.elite or bool(self.options.get("free_parking_pot"))
        ok = self.active(frm) or (frm == "pot" and pot)
        ok = ok and (to == "bank" or (to == "pot" and pot) or self.active(to)) and frm != to
        if ok and amount <= have and amount >= 1:
            self.submit(body, must=True)
            assert self.moved() == {frm: -amount, to: amount}
        else:
            self.submit(
                body,
                expect=Refusal(
                    "insufficient_funds",
                    "unknown_player",
                    "player_bankrupt",
                    "validation_error",
                    "option_disabled",
                ),
            )

    @rule(data=st.data())
    @playing
    def card(self, data: st.DataObject) -> None:
        pid = self.pick_player(data)
        effect = data.draw(
            st.sampled_from(["collect", "pay", "collect_from_each", "pay_each", "repairs"])
        )
        body: dict[str, Any] = {"type": "card", "player": pid, "effect": effect}
        if effect == "repairs":
            body.update(per_house=25, per_hotel=100)
        else:
            body["amount"] = data.draw(st.sampled_from([10, 50, 150]))
        if self.submit(body) is None or effect != "repairs":
            return
        houses = sum(p["houses"] for p in self.props.values() if p["owner"] == pid)
        hotels = sum(int(p["hotel"]) for p in self.props.values() if p["owner"] == pid)
        due = 25 * houses + 100 * hotels
        assert self.moved() == ({pid: -due, self.fines(): due} if due else {})

    @rule(data=st.data())
    @playing
    def tax(self, data: st.DataObject) -> None:
        """Income tax (flat, or 10 % of the total worth, as the option says) and luxury tax;
        Millionaire Elite has no such taxes."""
        pid = self.pick_player(data)
        kind = data.draw(st.sampled_from(["income", "luxury"]))
        body: dict[str, Any] = {"type": "tax", "player": pid, "tax": kind}
        choice = data.draw(st.sampled_from([None, "flat", "percent"]))
        if choice is not None:
            body["choice"] = choice
        if self.elite:
            self.submit(body, expect=Refusal("validation_error"))
            return
        total = self.cash(pid) + sum(
            (self.known_price(s) or 0) + buildings_cost(self.board, self.current, s)
            for s, p in self.props.items()
            if p["owner"] == pid
        )
        if self.submit(body) is None:
            return
        mode = self.options.get("income_tax", "choice")
        if kind == "luxury":
            due = self.options.get("luxury_tax", self.board.luxury_tax)
        else:
            chosen = choice if mode == "choice" else mode
            due = self.board.income_tax_flat if chosen == "flat" else half_up(10 * total, 100)
        assert self.moved() == ({pid: -due, self.fines(): due} if due else {}), (body, due)

    # -- deeds ---------------------------------------------------------------------------------
    def wanted(self, pid: str) -> list[str]:
        free = [s for s, p in self.props.items() if p["owner"] == "bank"]
        started = {self.board.deeds[s].group for s, p in self.props.items() if p["owner"] == pid}
        return [s for s in free if self.board.deeds[s].group in started] or free

    def buy_body(self, pid: str, slug: str, data: st.DataObject) -> dict[str, Any]:
        body: dict[str, Any] = {"type": "buy", "player": pid, "property": slug}
        unpriced = slug in self.board.deeds and self.board.deeds[slug].price is None
        if unpriced and (self.known_price(slug) is None or bucket(data, 3, 1)):
            body["price"] = ENTERED_PRICE[slug]  # the banker enters it (again: the same)
        return body

    @rule(data=st.data())
    @playing
    def buy(self, data: st.DataObject) -> None:
        pid = self.pick_player(data)
        slug = self.pick_deed(data, self.wanted(pid) if pid in self.current["balances"] else [])
        body = self.buy_body(pid, slug, data)
        if self.submit(body) is not None:
            # The printed price (an Elite central plot: 500), or the one the banker entered.
            spec = self.board.deeds[slug]
            price = spec.price if spec.price is not None else ENTERED_PRICE[slug]
            assert self.known_price(slug) == price
            assert self.moved() == {pid: -price, "bank": price}
            assert self.props[slug]["owner"] == pid
            assert self.may_buy(pid), "a deed bought before the first lap"

    @rule(data=st.data())
    @playing
    def buy_group(self, data: st.DataObject) -> None:
        self.buy_whole_group(data, data.draw(st.sampled_from(self.in_game())))

    def buy_whole_group(self, data: st.DataObject, pid: str) -> None:
        """A player buys what the Bank still holds of a group nobody else has started."""
        groups = [
            g
            for g, slugs in self.board.groups.items()
            if {self.props[s]["owner"] for s in slugs} <= {"bank", pid}
            and any(self.props[s]["owner"] == "bank" for s in slugs)
        ]
        if not groups:
            return
        group = data.draw(st.sampled_from(sorted(groups)))
        for slug in self.board.groups[group]:
            if self.props[slug]["owner"] != "bank":
                continue
            price = self.known_price(slug) or ENTERED_PRICE.get(slug, 0)
            if self.cash(pid) < price:
                self.submit({"type": "card", "player": pid, "effect": "collect", "amount": price})
            if bucket(data, 3, 1):
                self.submit(
                    {"type": "auction", "property": slug, "winner": pid, "bid": max(price // 2, 1)}
                )
            else:
                self.submit(self.buy_body(pid, slug, data))

    @rule(data=st.data())
    @playing
    def auction(self, data: st.DataObject) -> None:
        """A deed the Bank holds goes to the highest bid. In Millionaire Elite the AUCTION space
        may take a player's plot too (the bid to its owner), unless mortgaged, insured or built."""
        held = [s for s, p in self.props.items() if p["owner"] != "bank"]
        free = [s for s, p in self.props.items() if p["owner"] == "bank"]
        pool = held if self.elite and held and bucket(data, 1, 1) else free
        slug = self.pick_deed(data, pool)
        winner = self.pick_player(data)
        bid = data.draw(st.integers(1, 600))
        body = {"type": "auction", "property": slug, "winner": winner, "bid": bid}
        if slug not in self.board.deeds or not self.active(winner):
            self.submit(
                body, expect=Refusal("unknown_property", "unknown_player", "player_bankrupt")
            )
            return
        prop = self.props[slug]
        owner = prop["owner"]
        if owner != "bank" and not self.elite:
            self.submit(body, expect=Refusal("already_owned"))
            return
        if owner != "bank":
            insured = next(p for p in self.current["players"] if p["id"] == owner)["policies"]
            if prop["mortgaged"] or level(self.board, prop) or insured:
                self.submit(body, expect=Refusal("mortgaged", "group_has_buildings", "insured"))
                return
        paid = 0 if owner == winner else bid
        if owner != winner and not self.may_buy(winner):
            self.submit(body, expect=Refusal("first_lap_not_done"))
            return
        if self.cash(winner) < paid:
            self.submit(body, expect=Refusal("insufficient_funds"))
            return
        unpriced = price_of(self.board, self.current, slug) is None
        self.submit(body, must=True)
        assert self.props[slug]["owner"] == winner
        assert self.moved() == ({winner: -bid, owner: bid} if paid else {})
        if unpriced and paid:
            # docs/rules.md, "Net worth of a plot won at auction": its bid is what it counts.
            assert self.current["paid_at_auction"][slug] == bid

    @rule(data=st.data())
    @playing
    def rent(self, data: st.DataObject) -> None:
        held = [s for s, p in self.props.items() if p["owner"] != "bank"]
        built = [s for s in held if level(self.board, self.props[s])]
        slug = self.pick_deed(data, built if built and bucket(data, 1, 1) else held)
        owner = self.props.get(slug, {}).get("owner")
        turn = self.current["turn"]
        if turn is not None and bucket(data, 3, 1) == 0:
            payer = turn
        else:
            payer = self.pick_player(data, [p for p in self.in_game() if p != owner])
        body: dict[str, Any] = {"type": "rent", "payer": payer, "property": slug}
        spec = self.board.deeds.get(slug)
        if spec is not None and spec.kind in ("plot", "central"):
            body["amount"] = data.draw(st.sampled_from([10, 80, 400]))  # from the box's table
        if spec is not None and spec.kind == "utility" and bucket(data, 9, 1) == 0:
            body["dice"] = data.draw(st.integers(2, 12))
        multiplier = 2 if spec is not None and spec.kind != "street" and bucket(data, 4, 1) else 1
        if multiplier > 1:
            body["multiplier"] = multiplier
        due = self.rent_due(slug, body) * multiplier if spec is not None and owner != "bank" else 0
        if self.submit(body) is None:
            return
        assert self.moved() == ({payer: -due, owner: due} if due else {}), (body, due)

    def rent_due(self, slug: str, body: dict[str, Any]) -> int:
        """docs/rules.md (with the box's figures): the street's column, doubled bare for a whole
        unmortgaged group; railroads and utilities by how many of the group the owner holds;
        Millionaire Elite: the amount read from the box's RENT table."""
        spec, prop = self.board.deeds[slug], self.props[slug]
        if "amount" in body:
            return int(body["amount"])
        group = self.board.groups[spec.group]
        held = sum(1 for s in group if self.props[s]["owner"] == prop["owner"])
        if spec.kind == "railroad":
            return self.board.railroad_rents[held - 1]
        if spec.kind == "utility":
            return self.board.utility_factors[held - 1] * int(body.get("dice", 0))
        if prop["hotel"]:
            return spec.rents[-1]
        if prop["houses"]:
            return spec.rents[prop["houses"]]
        whole = held == len(group) and not any(self.props[s]["mortgaged"] for s in group)
        return spec.rents[0] * (2 if whole else 1)

    @rule(data=st.data())
    @playing
    def mortgage(self, data: st.DataObject) -> None:
        free = [s for s, p in self.props.items() if p["owner"] != "bank" and not p["mortgaged"]]
        slug = self.pick_deed(data, free)
        body: dict[str, Any] = {"type": "mortgage", "property": slug}
        if slug in ENTERED_PRICE and self.elite and self.known_price(slug) is None:
            body["price"] = ENTERED_PRICE[slug]  # a plot won at auction: its value entered now
        if self.submit(body) is not None:
            # Half the price (a plot: half the value entered for it).
            value = (self.known_price(slug) or 0) // 2
            assert self.moved() == {"bank": -value, self.props[slug]["owner"]: value}

    @rule(data=st.data())
    @playing
    def unmortgage(self, data: st.DataObject) -> None:
        pledged = [s for s, p in self.props.items() if p["mortgaged"]]
        slug = self.pick_deed(data, pledged)
        owner = self.props.get(slug, {}).get("owner")
        if self.submit({"type": "unmortgage", "property": slug}) is not None:
            # Classic: 10 % of the mortgage value (Electric Company 75 + 8); Elite and the
            # box: 10 % of the full price (a 600 street: 300 + 60).
            price = self.known_price(slug) or 0
            due = price // 2 + mortgage_fee(self.board, self.current, slug)
            assert self.moved() == {owner: -due, "bank": due}

    # -- jail ----------------------------------------------------------------------------------
    @rule(data=st.data())
    @playing
    def jail(self, data: st.DataObject) -> None:
        pid = self.pick_player(data)
        action = data.draw(st.sampled_from(["go_to_jail", "jail_fine", "leave_jail", "jail_card"]))
        if action == "jail_card":
            body = {
                "type": "jail_card",
                "player": pid,
                "action": data.draw(st.sampled_from(["draw", "use"])),
                "deck": data.draw(st.sampled_from(DECKS)),
            }
            expect = Refusal("validation_error") if self.elite else None
            self.submit(body, expect=expect)
            return
        if self.submit({"type": action, "player": pid}) is not None and action == "jail_fine":
            # 50 classic and Elite (leaving TAX INSPECTION), the box's 500.
            fine = self.board.jail_fine
            assert self.moved() == {pid: -fine, self.fines(): fine}

    # -- buildings -----------------------------------------------------------------------------
    def order(self, slug: str, **what: Any) -> dict[str, Any]:
        """A building order; on an Elite plot with the building price the banker enters."""
        out = {"property": slug, **what}
        if self.elite and slug in ENTERED_BUILDING:
            out["price"] = ENTERED_BUILDING[slug]
        return out

    @rule(data=st.data())
    @playing
    def develop(self, data: st.DataObject) -> None:
        self.build_up(data)

    def build_up(self, data: st.DataObject, *, refused: bool = True) -> None:
        """A monopolist builds a level of a group at a time (evenly), up to hotels; or a
        request the rules refuse (an incomplete group, too many houses, a hotel too early)."""
        groups = self.monopolies()
        if not groups or (refused and bucket(data, 5, 1)):
            slug = self.pick_deed(data, list(self.board.deeds))
            wish = (
                {"hotel": True} if bucket(data, 1, 1) else {"houses": data.draw(st.integers(1, 3))}
            )
            self.submit({"type": "build", **self.order(slug, **wish)})
            return
        group, owner = data.draw(st.sampled_from(sorted(groups)))
        slugs = self.board.groups[group]
        for _ in range(data.draw(st.integers(1, 3))):
            low = min(level(self.board, self.props[s]) for s in slugs)
            if low > self.board.houses_before_hotel:
                return
            lows = [s for s in slugs if level(self.board, self.props[s]) == low]
            hotel = low == self.board.houses_before_hotel
            if self.options.get("one_house_per_turn") and not hotel:
                lows = lows[:1]  # one house a turn (house rule): a new turn first
                self.submit({"type": "turn", "player": owner})
            cost = sum(self.unit_cost(s, hotel) for s in lows)
            if self.cash(owner) < cost:
                self.submit({"type": "card", "player": owner, "effect": "collect", "amount": cost})
            what: dict[str, Any] = {"hotel": True} if hotel else {"houses": 1}
            if (
                self.submit({"type": "build", "orders": [self.order(s, **what) for s in lows]})
                is None
            ):
                return
            assert self.moved() == {owner: -cost, "bank": cost}, (lows, cost)

    def unit_cost(self, slug: str, hotel: bool) -> int:
        """A house or hotel at the printed price (the box's Arbat hotel 2500, a short-game
        hotel at the house price); an Elite branch or enterprise at the price entered."""
        if self.elite:
            return ENTERED_BUILDING[slug]
        house, hotel_price = unit_prices(self.board, self.current, slug)
        return hotel_price if hotel else house

    @rule(data=st.data())
    @playing
    def sell(self, data: st.DataObject) -> None:
        """Buildings back to the Bank at half price, evenly: a hotel sold outright returns
        half the hotel and its houses (the short game's boardwalk: 100 + 3 x 100 = 400), a
        hotel broken down half the hotel and needs the houses in the Bank."""
        built = [s for s, p in self.props.items() if level(self.board, p)]
        if not built:
            return
        slug = data.draw(st.sampled_from(sorted(built)))
        group = self.board.groups[self.board.deeds[slug].group]
        top = max(level(self.board, self.props[s]) for s in group)
        tops = [s for s in group if level(self.board, self.props[s]) == top]
        owner = self.props[slug]["owner"]
        house, hotel = unit_prices(self.board, self.current, slug)
        prop = self.props[slug]
        if prop["hotel"]:
            down = bool(bucket(data, 1, 1))
            body = {"type": "sell_buildings", "property": slug, "hotel": True, "break_down": down}
            hbh = self.board.houses_before_hotel
            due = half_up(hotel, 2) + (0 if down else hbh * half_up(house, 2))
            txn = self.submit(body)
            if txn is not None and self.board.name == "short" and slug == "boardwalk" and not down:
                # docs/rules.md, short/timed game: half of the 200 hotel and of its 3 houses at 200.
                assert self.moved() == {owner: 400, "bank": -400}
        else:
            target = tops if bucket(data, 3, 1) == 0 else [slug]
            body = {
                "type": "sell_buildings",
                "orders": [{"property": s, "houses": 1} for s in target],
            }
            due = sum(half_up(unit_prices(self.board, self.current, s)[0], 2) for s in target)
            txn = self.submit(body)
        if txn is not None:
            assert self.moved() == ({owner: due, "bank": -due} if due else {}), (body, due)

    # -- trades, IOUs, the pot -----------------------------------------------------------------
    @rule(data=st.data())
    @playing
    def trade(self, data: st.DataObject) -> None:
        players = self.in_game()
        if len(players) < 2:
            return
        a, b = data.draw(st.permutations(players))[:2]
        mine = [s for s, p in self.props.items() if p["owner"] == a]
        deeds = data.draw(st.lists(st.sampled_from(mine), max_size=2, unique=True)) if mine else []
        cash = data.draw(st.sampled_from([0, 10, 500]))
        legs: list[dict[str, Any]] = [{"from": a, "to": b, "properties": deeds}] if deeds else []
        if cash:
            legs.append({"from": b, "to": a, "cash": cash})
        given = 0 if legs else 1
        legs = legs or [{"from": a, "to": b, "cash": 1}]
        lapped = self.may_buy(b)
        txn = self.submit({"type": "trade", "legs": legs})
        if txn is not None:
            assert lapped or not deeds, "deeds went to a player before his first lap"
            for slug in deeds:
                # Classic: no deed of a group with a building; Elite: no plot with one (seed 004).
                was = self.prev["properties"]
                built = (
                    self.board.groups[self.board.deeds[slug].group] if not self.elite else [slug]
                )
                assert not any(level(self.board, was[s]) for s in built), (slug, "built")
                assert self.props[slug]["owner"] == b
                assert not (self.elite and self.prev["properties"][slug]["mortgaged"]), (
                    "an Elite plot changed hands mortgaged"
                )
            fees = sum(
                mortgage_fee(self.board, self.prev, s)
                for s in deeds
                if self.prev["properties"][s]["mortgaged"]
            )
            moved = self.moved()
            assert moved.get(a, 0) == cash - given, moved
            assert moved.get(b, 0) == -cash - fees + given, moved

    @rule(data=st.data())
    @playing
    def loans(self, data: st.DataObject) -> None:
        """IOUs: always allowed in Millionaire Elite, by the option elsewhere."""
        ious = self.current["ious"]
        action = data.draw(
            st.sampled_from(["iou", "iou", "iou_repay", "iou_transfer", "iou_forgive"])
        )
        allowed = self.elite or self.options.get("player_loans")
        if action == "iou":
            debtor = self.pick_player(data)
            creditor = self.pick_player(data, [p for p in self.in_game() if p != debtor])
            amount = data.draw(st.sampled_from([1, 50, 300, 2000]))
            body = {"type": "iou", "debtor": debtor, "creditor": creditor, "amount": amount}
            if not allowed:
                self.submit(
                    body,
                    expect=Refusal(
                        "option_disabled", "unknown_player", "player_bankrupt", "validation_error"
                    ),
                )
            elif self.active(debtor) and self.active(creditor) and debtor != creditor:
                self.submit(body, must=True)
                assert self.moved() == {}
                assert self.current["ious"][-1]["outstanding"] == amount
            else:
                self.submit(body)
            return
        open_ious = [i for i in ious if i["outstanding"]]
        if open_ious and bucket(data, 5, 1) == 0:
            iou = data.draw(st.sampled_from(open_ious))
        elif ious:
            iou = data.draw(st.sampled_from(ious))
        else:
            iou = {"id": "iou-999", "outstanding": 10, "debtor": "p1", "holder": "p2"}
        if action == "iou_repay":
            amount = [iou["outstanding"], max(iou["outstanding"] // 2, 1), iou["outstanding"] + 1][
                bucket(data, 2, 2, 1)
            ]
            txn = self.submit({"type": "iou_repay", "iou": iou["id"], "amount": amount})
            if txn is not None:
                assert self.moved() == {iou["debtor"]: -amount, iou["holder"]: amount}
        elif action == "iou_transfer":
            others = [p for p in self.in_game() if p not in (iou["holder"], iou["debtor"])]
            self.submit(
                {"type": "iou_transfer", "iou": iou["id"], "to": self.pick_player(data, others)}
            )
        else:
            self.submit({"type": "iou_forgive", "iou": iou["id"]})

    @rule(data=st.data())
    @playing
    def pot_collect(self, data: st.DataObject) -> None:
        """The Free Parking pot (house rule) or the Jackpot kitty: the whole of it."""
        pid = self.pick_player(data)
        pot = self.current["balances"]["pot"]
        if not (self.elite or self.options.get("free_parking_pot")):
            self.submit(
                {"type": "pot_collect", "player": pid},
                expect=Refusal("option_disabled", "unknown_player", "player_bankrupt"),
            )
            return
        if self.submit({"type": "pot_collect", "player": pid}) is not None:
            assert self.moved() == ({"pot": -pot, pid: pot} if pot else {})

    # -- Millionaire Elite -----------------------------------------------------------------------
    @rule(data=st.data())
    @playing
    def shares(self, data: st.DataObject) -> None:
        """Shares bought from or sold to the Bank at the current price, now and then brokered
        on the EXCHANGE for a commission; the Bank sells none at price 0."""
        pid = self.pick_player(data)
        action = data.draw(st.sampled_from(["buy", "buy", "sell"]))
        held = shares_of(self.current, pid) if pid in self.current["balances"] else 0
        count = [data.draw(st.integers(1, 8)), held, held + 1][
            bucket(data, 4, 2, 1) if action == "sell" else 0
        ]
        body: dict[str, Any] = {
            "type": "shares",
            "player": pid,
            "action": action,
            "count": max(count, 1),
        }
        count = body["count"]
        broker = None
        if bucket(data, 3, 1):
            broker = data.draw(st.sampled_from([p for p in self.in_game() if p != pid] or [pid]))
            body.update(commission_to=broker, commission=data.draw(st.sampled_from([5, 20])))
        if not self.elite:
            self.submit(body, expect=Refusal("validation_error"))
            return
        price = self.current["share_price"]
        expect = None
        if not self.active(pid):
            expect = Refusal("unknown_player", "player_bankrupt")
        elif broker == pid:
            expect = Refusal("validation_error", "shares_unavailable", "insufficient_shares")
        elif action == "buy" and price == 0:
            expect = Refusal("shares_unavailable", "validation_error")
        elif action == "sell" and count > held:
            expect = Refusal("insufficient_shares", "validation_error")
        commission = body.get("commission", 0)
        sign = -1 if action == "buy" else 1
        funded = self.cash(pid) + sign * count * price >= commission
        if expect is None and not funded:
            expect = Refusal("insufficient_funds")
        txn = self.submit(body, expect=expect, must=expect is None)
        if txn is None:
            return
        amount = count * price
        moved: dict[str, int] = {}
        if amount:
            moved = {pid: sign * amount, "bank": -sign * amount}
        if broker is not None:
            moved[pid] = moved.get(pid, 0) - body["commission"]
            moved[broker] = moved.get(broker, 0) + body["commission"]
        assert self.moved() == {k: v for k, v in moved.items() if v}, (body, price)
        assert shares_of(self.current, pid) == held + (count if action == "buy" else -count)

    @rule(data=st.data())
    @playing
    def share_price(self, data: st.DataObject) -> None:
        """The EXCHANGE roll: 10 a point up or down, never below 0 (down from 30 by 5: 0)."""
        direction = data.draw(st.sampled_from(["up", "down", "down"]))
        points = data.draw(st.integers(1, 6)) if bucket(data, 9, 1) == 0 else 7
        body = {"type": "share_price", "direction": direction, "points": points}
        if not self.elite or points == 7:
            self.submit(body, expect=Refusal("validation_error"))
            return
        old = self.current["share_price"]
        self.submit(body, must=True)
        new = old + 10 * points if direction == "up" else max(0, old - 10 * points)
        if not new:
            event("elite: share price at 0")
        assert self.current["share_price"] == new and self.moved() == {}

    @rule(data=st.data())
    @playing
    def round_tax(self, data: st.DataObject) -> None:
        """TAX INSPECTION: 10 a share plus the plot tax from the box's TAX table, unless the
        player holds an exemption, which this waives and uses up (5 shares + 40: 90)."""
        pid = self.pick_player(data)
        if self.elite and self.active(pid) and bucket(data, 3, 1):
            self.submit({"type": "tax_exemption", "player": pid}, must=True)
            assert self.moved() == {}
        plot_tax = data.draw(st.sampled_from([0, 40, 150]))
        body = {"type": "round_tax", "player": pid, "plot_tax": plot_tax}
        if not self.elite:
            self.submit(body, expect=Refusal("validation_error"))
            return
        if not self.active(pid):
            self.submit(body, expect=Refusal("unknown_player", "player_bankrupt"))
            return
        me = next(p for p in self.current["players"] if p["id"] == pid)
        due = 0 if me["tax_exempt"] else 10 * me["shares"] + plot_tax
        if self.cash(pid) < due:
            self.submit(body, expect=Refusal("insufficient_funds"))
            return
        self.submit(body, must=True)
        assert self.moved() == ({pid: -due, "bank": due} if due else {}), (me, plot_tax)
        assert not next(p for p in self.current["players"] if p["id"] == pid)["tax_exempt"]

    @rule(data=st.data())
    @playing
    def insurance(self, data: st.DataObject) -> None:
        """Policies from the Bank: green 100, blue 200, orange 300, red 500; used or handed
        back, a policy goes back to the Bank (no money moves)."""
        pid = self.pick_player(data)
        policy = data.draw(st.sampled_from(sorted(POLICIES)))
        action = data.draw(st.sampled_from(["buy", "buy", "use", "return"]))
        body = {"type": "insurance", "player": pid, "action": action, "policy": policy}
        if not self.elite:
            self.submit(body, expect=Refusal("validation_error"))
            return
        if not self.active(pid):
            self.submit(body, expect=Refusal("unknown_player", "player_bankrupt"))
            return
        held = policy in next(p for p in self.current["players"] if p["id"] == pid)["policies"]
        if action == "buy" and held:
            self.submit(body, expect=Refusal("validation_error"))
        elif action != "buy" and not held:
            self.submit(body, expect=Refusal("no_policy"))
        elif action == "buy" and self.cash(pid) < POLICIES[policy]:
            self.submit(body, expect=Refusal("insufficient_funds"))
        else:
            self.submit(body, must=True)
            price = POLICIES[policy]
            assert self.moved() == ({pid: -price, "bank": price} if action == "buy" else {})
            now = policy in next(p for p in self.current["players"] if p["id"] == pid)["policies"]
            assert now is (action == "buy")

    @rule(data=st.data())
    @playing
    def jackpot(self, data: st.DataObject) -> None:
        """A lost stake stays in the kitty; a win is paid by the Bank and the stake comes back
        (seed 004): a kitty of 250 stays 250 on a win of 300 (the player +300), and is 300
        after a lost stake of 50. The stake must be in hand either way."""
        pid = self.pick_player(data)
        stake = data.draw(st.sampled_from([10, 50, 100]))
        payout = data.draw(st.sampled_from([0, 0, 300]))
        body = {"type": "jackpot", "player": pid, "stake": stake, "payout": payout}
        if not self.elite:
            self.submit(body, expect=Refusal("validation_error"))
            return
        if not self.active(pid):
            self.submit(body, expect=Refusal("unknown_player", "player_bankrupt"))
            return
        if self.cash(pid) < stake:
            self.submit(body, expect=Refusal("insufficient_funds"))
            return
        kitty = self.cash("pot")
        txn = self.accepted(self.submit(body, must=True))
        if payout:
            assert self.moved() == {pid: payout, "bank": -payout}
            assert self.cash("pot") == kitty and txn["basis"]["stake_returned"] is True
        else:
            assert self.moved() == {pid: -stake, "pot": stake}
            assert self.cash("pot") == kitty + stake

    # -- the end of a player and of the game ------------------------------------------------
    @rule(data=st.data())
    @playing
    def bankruptcy(self, data: st.DataObject) -> None:
        """A player who cannot pay leaves. Classic family: everything to the creditor (the
        short game's buildings too); Millionaire Elite: shares sold to the Bank, all money
        to the creditor, the Bank pays him the rest of ``owed``, plots back to the Bank."""
        players = self.in_game()
        if len(players) < 2 or (self.steps < 8 and bucket(data, 1, 3)):
            return
        debtor = data.draw(st.sampled_from(players))
        creditor = data.draw(st.sampled_from(["bank", *[p for p in players if p != debtor]]))
        raise_ = liquidation_total(self.board, self.current, debtor)
        owed = (
            raise_ + data.draw(st.sampled_from([1, 1, 250]))
            if bucket(data, 5, 1) == 0
            else max(raise_, 1)
        )
        body: dict[str, Any] = {"type": "bankruptcy", "debtor": debtor, "creditor": creditor}
        if self.elite or bucket(data, 1, 1):
            body["owed"] = owed
        if "owed" in body and owed <= raise_:
            self.submit(body, expect=Refusal("not_insolvent"))
            return
        before = self.current
        deeds = [s for s, p in before["properties"].items() if p["owner"] == debtor]
        cash = before["balances"][debtor]
        sold_shares = shares_of(before, debtor) * before.get("share_price", 0)
        fees = sum(
            mortgage_fee(self.board, before, s)
            for s in deeds
            if before["properties"][s]["mortgaged"]
        )
        sales = sum(sale_value(self.board, before, s) for s in deeds)
        if self.board.buildings_to_creditor or self.elite:
            sales = 0
        if creditor != "bank" and not self.elite and cash + sales + self.cash(creditor) < fees:
            # The creditor cannot pay the 10 % on the mortgaged deeds he receives.
            self.submit(body, expect=Refusal("insufficient_funds"))
            return
        self.accepted(self.submit(body, must=True))
        after = self.current
        me = next(p for p in after["players"] if p["id"] == debtor)
        assert me["bankrupt"] and after["balances"][debtor] == 0
        keep = bool(self.options.get("keep_bankrupt_players"))
        out = sum(p["bankrupt"] for p in after["players"])
        ends = (self.board.ends_after is not None and out >= self.board.ends_after) or (
            len(players) == 2 and not keep
        )
        assert (after["status"] == "finished") is ends, (out, after["status"])
        if ends and out >= 2 and self.board.ends_after:
            event("short: ended at the second bankruptcy")
        if creditor == "bank":
            # Everything to the Bank: the cash (with the shares sold), the deeds bare.
            expected = {debtor: -cash, "bank": cash}
        elif self.elite:
            # e.g. 900 cash + 11 shares at 110 owing 2500: 2110 from him, 390 from the Bank.
            money = cash + sold_shares
            covered = max(0, owed - money)
            event(f"elite: the Bank covered a debt: {covered > 0}")
            expected = {debtor: -cash, creditor: money + covered, "bank": -sold_shares - covered}
        else:
            expected = {debtor: -cash, creditor: cash + sales - fees, "bank": fees - sales}
        assert self.moved() == {k: v for k, v in expected.items() if v}, (self.moved(), expected)
        for slug in deeds:
            prop, was = after["properties"][slug], before["properties"][slug]
            if creditor == "bank" or self.elite:
                assert prop == {"owner": "bank", "mortgaged": False, "houses": 0, "hotel": False}
            elif self.board.buildings_to_creditor:
                # docs/rules.md, short/timed game: the short game hands the buildings over with the
                # deeds.
                assert prop == {**was, "owner": creditor}, (slug, prop)
            else:
                assert prop == {**was, "owner": creditor, "houses": 0, "hotel": False}
        if self.elite:
            assert me["shares"] == 0 and me["policies"] == [] and not me["tax_exempt"]

    @rule(data=st.data())
    @playing
    def turn(self, data: st.DataObject) -> None:
        self.submit({"type": "turn", "player": self.pick_player(data)})

    @rule(data=st.data())
    @playing
    def dispute(self, data: st.DataObject) -> None:
        """A transaction disputed by the banker or by a player whose money it moved (403 for
        one whose money it did not); no money moves, and the dispute stands open."""
        last = self.current["last_seq"]
        seq = last if bucket(data, 1, 2) == 0 else data.draw(st.integers(1, last))
        record = self.bank.transaction(self.gid, seq)
        involved = sorted(
            {a for p in record["postings"] for a in (p["from"], p["to"])}
            & {p["id"] for p in self.current["players"]}
        )
        players = [p["id"] for p in self.current["players"]]
        by = "banker"
        if bucket(data, 1, 2):
            by = data.draw(
                st.sampled_from(involved if involved and bucket(data, 3, 1) == 0 else players)
            )
        body = {"type": "dispute", "seq": seq, "reason": "not what happened"}
        disputes = self.current.get("disputes", [])
        if by != "banker" and by not in involved:
            self.submit(body, expect=Refusal("forbidden"), by=by)
            return
        closed = {d["resolved_by"] for d in disputes if d["status"] == "upheld"}
        if (
            record["voided_by"] is not None
            or any(
                d["seq"] == seq or (d["about"] == seq and d["status"] == "open") for d in disputes
            )
            or seq in closed
        ):
            self.submit(body, expect=Refusal("already_voided", "validation_error"), by=by)
            return
        txn = self.accepted(self.submit(body, must=True, by=by))
        assert self.moved() == {} and txn["postings"] == []
        mine = self.current["disputes"][-1]
        assert (mine["seq"], mine["about"], mine["by"], mine["status"]) == (
            txn["seq"],
            seq,
            by,
            "open",
        )
        if bucket(data, 1, 1) == 0:
            self.settle_dispute(data)

    @rule(data=st.data())
    @playing
    def settle_dispute(self, data: st.DataObject) -> None:
        """An open dispute kept (no money moves) or voided: the void reverses the disputed
        transaction once, and voiding it again is ``already_voided``."""
        open_ = [d for d in self.current.get("disputes", []) if d["status"] == "open"]
        if not open_:
            return
        d = data.draw(st.sampled_from(open_))
        if bucket(data, 1, 1) == 0:
            body = {"type": "dispute_resolve", "dispute": d["seq"], "note": "kept"}
            txn = self.accepted(self.submit(body, must=True))
            assert self.moved() == {}
            assert self.dispute_of(d["seq"])["resolved_by"] == txn["seq"]
            self.submit({**body, "note": "again"}, expect=Refusal("dispute_closed"))
            return
        body = {
            "type": "void",
            "seq": d["about"],
            "reason": "the dispute is right",
            "dispute": d["seq"],
        }
        setup = Refusal("void_conflict") if d["about"] <= self.setup_seq else None
        target = self.bank.transaction(self.gid, d["about"])
        if self.submit(body, expect=setup) is None:
            return
        back: dict[str, int] = {}
        for p in target["postings"]:
            back[p["from"]] = back.get(p["from"], 0) + p["amount"]
            back[p["to"]] = back.get(p["to"], 0) - p["amount"]
        assert self.moved() == {a: v for a, v in back.items() if v}, "not reversed once"
        assert self.dispute_of(d["seq"])["status"] == "voided"
        self.submit(body, expect=Refusal("already_voided"))
        event(f"{self.board.name}: a disputed {target['type']} voided")

    def dispute_of(self, seq: int) -> dict[str, Any]:
        """The game's dispute recorded at ``seq``."""
        return next(d for d in self.current["disputes"] if d["seq"] == seq)

    @rule(data=st.data())
    @playing
    def void(self, data: st.DataObject) -> None:
        """A correction of the last transaction (or an earlier one, or set-up: refused)."""
        last = self.current["last_seq"]
        seq = last if bucket(data, 3, 1) == 0 else data.draw(st.integers(1, last))
        body = {"type": "void", "seq": seq, "reason": "a slip of the banker"}
        # API.md: set-up (starting cash, deals, the kitty's seed) cannot be voided.
        setup = Refusal("void_conflict") if seq <= self.setup_seq else None
        txn = self.submit(body, expect=setup)
        if txn is not None and seq == last and seq - 1 in self.history:
            # Voiding the last transaction puts the table back as it stood before it.
            ignore = ("last_seq", "head", "version")
            was = {k: v for k, v in self.history[seq - 1].items() if k not in ignore}
            now = {k: v for k, v in self.current.items() if k not in ignore}
            assert now == was, "voiding the last transaction did not restore the table"

    @rule(data=st.data())
    @playing
    def finish(self, data: st.DataObject) -> None:
        """Late in a game: the standings score cash + deeds at price (mortgaged at half) +
        buildings at cost (a hotel with its three houses short, four timed) + shares."""
        if self.steps >= 20 and bucket(data, 3, 1) == 0:
            open_ = [d["seq"] for d in self.current.get("disputes", []) if d["status"] == "open"]
            if open_:
                # API.md v1.2, Corrections: not while a dispute is open; keep them, then finish.
                assert self.submit({"type": "finish"}, expect=Refusal("disputes_open")) is None
                for seq in open_:
                    body = {"type": "dispute_resolve", "dispute": seq, "note": "kept"}
                    self.accepted(self.submit(body, must=True))
            self.accepted(self.submit({"type": "finish"}, must=True))

    @rule(data=st.data())
    @playing
    def malformed(self, data: st.DataObject) -> None:
        """A Millionaire Elite request with a field left out or of the wrong type: a
        ``LedgerError``, never another exception, and nothing changes."""
        p = data.draw(st.sampled_from(self.in_game()))
        templates: dict[str, dict[str, Any]] = {
            "shares": {"player": p, "action": "buy", "count": 1},
            "share_price": {"direction": "up", "points": 1},
            "round_tax": {"player": p, "plot_tax": 10},
            "tax_exemption": {"player": p},
            "insurance": {"player": p, "action": "buy", "policy": "green"},
            "jackpot": {"player": p, "stake": 10, "payout": 0},
            "buy": {"player": p, "property": "b2-1", "price": 200},
            "rent": {"payer": p, "property": "central-1", "amount": 10},
        }
        name = data.draw(st.sampled_from(sorted(templates)))
        body = {"type": name, **templates[name]}
        spoilt = data.draw(st.sampled_from(sorted(templates[name])))
        if bucket(data, 1, 1):
            del body[spoilt]
        else:
            body[spoilt] = data.draw(st.sampled_from(["5", 1.5, [], {}, True, -3]))
        deleted = spoilt not in body
        if deleted and (name, spoilt) in (("jackpot", "payout"), ("buy", "price")):
            self.submit(body)  # a lost stake (payout 0), or a plot whose price is known
            return
        before = self.current
        note(f"bank.record(gid, {body!r})  # malformed")
        try:
            self.bank.record(self.gid, copy.deepcopy(body))
        except LedgerError as exc:
            assert self.view() == before, f"refused ({exc.code}) but the table changed"
            event(f"malformed {name}: {exc.code}")
        else:
            raise AssertionError(f"accepted the malformed {body}")

    # -- after every step --------------------------------------------------------------------
    @invariant()
    def table_holds(self) -> None:
        self.steps += 1
        if not self.gid:
            return
        view = self.current  # each transaction compared the live view with it
        check_table(self.board, view)
        # A load from the store, without the cache, costs the most: every few steps.
        if self.steps % 5 == 0:
            assert self.reader.game(self.gid) == view, "an uncached load differs from live"
        if self.steps % 20 == 0:
            seqs = sorted(self.history)
            for seq in seqs[:: max(1, len(seqs) // 3)]:
                assert self.reader.game(self.gid, seq=seq) == self.history[seq], seq

    def next_table(self, data: st.DataObject) -> None:
        """The machine plays on at a new table once its log is checked."""
        self.check_log()
        self.seat(data)

    def check_reload(self) -> None:
        """A brand-new application on the same store sees the same games, now and before."""
        fresh = self.app()
        try:
            assert fresh.game(self.gid) == self.current, "a reload differs from the live state"
            for gid, final in self.finished.items():
                assert fresh.game(gid) == final, "a finished game moved"
            seqs = sorted(self.history)
            for seq in seqs[:: max(1, len(seqs) // 3)]:
                assert fresh.game(self.gid, seq=seq) == self.history[seq], f"seq {seq} differs"
        finally:
            fresh.close()
            self.apps.remove(fresh)

    def check_log(self) -> None:
        """The log verifies, replays to the same balances and net worths, and exports to an
        import that is the same game."""
        txns = list(self.bank.transactions(self.gid))
        assert [t["seq"] for t in txns] == list(range(1, len(txns) + 1))
        verified = self.bank.verify(self.gid)
        assert verified["ok"] and verified["transactions"] == len(txns), verified
        assert verified["head"] == self.current["head"]
        steps = self.bank.replay(self.gid)["steps"]
        for seq, view in self.history.items():
            assert steps[seq - 1]["balances"] == view["balances"], seq
            assert steps[seq - 1]["net_worths"] == {
                p["id"]: p["net_worth"] for p in view["players"]
            }, seq
        for pid in self.current["balances"]:
            if pid not in ("bank", "pot"):
                liquidation = self.bank.liquidation(self.gid, pid)
                assert liquidation["total"] == liquidation_total(self.board, self.current, pid)
        imported = self.bank.import_game(self.bank.export(self.gid))
        again = self.bank.game(imported["id"])
        assert {**again, "id": self.gid} == self.current, "the imported game differs"

    def teardown(self) -> None:
        try:
            if self.gid:
                event(f"run: {self.tables} tables")
                self.check_reload()
                self.check_log()
        finally:
            for application in self.apps:
                application.close()
            self.store.drop(self.db)


@pytest.fixture(autouse=True)
def _variant_store(local_store: Store) -> None:
    """The rules' walks keep their tables in SQLite files, the embedded default: they run once."""
    VariantMachine.store = local_store


VariantMachine.TestCase.settings = MACHINE_SETTINGS  # the classic machine's settings

TestVariantStateMachine = VariantMachine.TestCase


def test_the_variant_machine_on_each_store(store: Store) -> None:
    """A few walks on every store of the matrix: reloads by a fresh application, and the log
    that verifies, replays, exports and imports at each table's end."""

    class OnStore(VariantMachine):
        pass

    OnStore.store = store
    run_state_machine_as_test(
        OnStore, settings=settings(MACHINE_SETTINGS, max_examples=examples(4))
    )
