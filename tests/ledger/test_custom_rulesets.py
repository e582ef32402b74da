"""A banker's own rule set (docs/rules.md with the figures of another box).

The documents below are this test's own boxes: a Moscow board counted in thousands of rubles
that ``extends`` classic, and a small complete board with groups of its own. Every expected
figure is worked out here from those documents with the mechanics of docs/rules.md (monopoly
doubling, mortgage value = price / 2, 10 % interest rounded half up), never taken from the code
under test.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from profiles import examples

from ledger.application import TableBank
from ledger.errors import LedgerError
from ledger.ruleset import BUILT_IN, RuleSet, RuleSetInvalid, parse_ruleset, resolve_extends

Doc = dict[str, Any]

# -- the boxes ---------------------------------------------------------------------------------

# A Moscow board in thousands of rubles: classic's mechanics, seven deeds of its own.
MOSCOW: Doc = {
    "name": "moscow-mini",
    "extends": "classic",
    "title": "A small Moscow board (figures in thousands of rubles)",
    "currency": "thousand rubles",
    "players": {"min": 2, "max": 4},
    "parameters": {
        "starting_cash": 15000,
        "salary": 2000,
        "jail_fine": 500,
        "luxury_tax": 1000,
        "income_tax_flat": 2000,
        "houses": 16,
        "hotels": 4,
        "railroad_rents": [250, 500],
        "utility_multipliers": [40],
    },
    "deeds": [
        {
            "name": "Zhitnaya Street",
            "position": 1,
            "kind": "street",
            "group": "brown",
            "price": 600,
            "rents": [20, 100, 300, 900, 1600, 2500],
            "house_price": 500,
        },
        {
            "name": "Nagatinskaya Street",
            "position": 2,
            "kind": "street",
            "group": "brown",
            "price": 600,
            "rents": [40, 200, 600, 1800, 3200, 4500],
            "house_price": 500,
        },
        {
            "name": "Rizhsky Railway",
            "position": 3,
            "kind": "railroad",
            "group": "railways",
            "price": 2000,
        },
        {
            "name": "Power Station",
            "position": 5,
            "kind": "utility",
            "group": "utilities",
            "price": 1250,
        },
        {
            "name": "Malaya Bronnaya",
            "position": 6,
            "kind": "street",
            "group": "dark-blue",
            "price": 3500,
            "rents": [350, 1750, 5000, 11000, 13000, 15000],
            "house_price": 2000,
            "hotel_price": 2000,
        },
        {
            "name": "Kursky Railway",
            "position": 7,
            "kind": "railroad",
            "group": "railways",
            "price": 2000,
        },
        {
            "name": "Arbat Street",
            "position": 9,
            "kind": "street",
            "group": "dark-blue",
            "price": 4000,
            "rents": [500, 2000, 6000, 14000, 17000, 20000],
            "house_price": 2000,
            "hotel_price": 2000,
        },
    ],
}
MOSCOW_SLUGS = [
    "zhitnaya-street",
    "nagatinskaya-street",
    "rizhsky-railway",
    "power-station",
    "malaya-bronnaya",
    "kursky-railway",
    "arbat-street",
]

# Only the money of a box in thousands: classic's 28 deeds stay, at their classic prices.
THOUSANDS: Doc = {
    "name": "moscow-thousands",
    "extends": "classic",
    "parameters": {
        "starting_cash": 15000,
        "salary": 2000,
        "jail_fine": 500,
        "luxury_tax": 1000,
        "railroad_rents": [250, 500, 1000, 2000],
    },
}


def _street(name: str, group: str, price: int, rents: list[int], house: int, hotel: int) -> Doc:
    return {
        "name": name,
        "kind": "street",
        "group": group,
        "price": price,
        "rents": rents,
        "house_price": house,
        "hotel_price": hotel,
    }


# A complete board of its own (no extends): 3 houses a street at most, a hotel on 3 houses.
VILLAGE: Doc = {
    "name": "village",
    "title": "Village board",
    "currency": "coins",
    "players": {"min": 2, "max": 4},
    "parameters": {
        "starting_cash": 1000,
        "salary": 100,
        "jail_fine": 30,
        "luxury_tax": 50,
        "income_tax_flat": 100,
        "income_tax_percent": 10,
        "houses": 12,
        "hotels": 4,
        "max_houses": 3,
        "houses_before_hotel": 3,
        "mortgage_interest_percent": 10,
        "mortgage_interest_base": "mortgage_value",
        "railroad_rents": [25, 50],
        "utility_multipliers": [6],
        "rounding": "half_up",
    },
    "options": {
        "free_parking_pot": {"type": "boolean", "default": False},
        "luxury_tax": {"type": "amount"},
    },
    "spaces": [{"position": 0, "kind": "go", "name": "GO"}],
    "deeds": [
        _street("Sunrise Lane", "sun", 100, [6, 30, 90, 270, 400], 50, 60),
        _street("Sunset Lane", "sun", 120, [8, 40, 100, 300, 450], 50, 60),
        _street("Crescent Row", "moon", 200, [16, 80, 220, 600, 1000], 100, 100),
        _street("Full Moon Row", "moon", 220, [18, 90, 250, 700, 1050], 100, 100),
        {"name": "North Ferry", "kind": "railroad", "group": "ferries", "price": 200},
        {"name": "South Ferry", "kind": "railroad", "group": "ferries", "price": 200},
        {"name": "The Well", "kind": "utility", "group": "water", "price": 150},
    ],
}


def changed(document: Doc, change: Callable[[Doc], Any]) -> Doc:
    """A deep copy of ``document`` with ``change`` applied to it."""
    doc = copy.deepcopy(document)
    change(doc)
    return doc


# -- playing a custom box ----------------------------------------------------------------------


class Box:
    """A game of a custom rule set, recorded by the banker."""

    def __init__(
        self,
        bank: TableBank,
        document: Doc,
        players: tuple[str, ...] = ("Anya", "Boris", "Vera"),
        **kwargs: Any,
    ) -> None:
        self.bank = bank
        self.created = bank.create_game(
            "Kitchen table",
            document["name"],
            list(players),
            ruleset_document=copy.deepcopy(document),
            **kwargs,
        )
        self.id = self.created["id"]

    def record(self, kind: str, **fields: Any) -> dict[str, Any]:
        txn = self.bank.record(self.id, {"type": kind, **fields})
        assert sum(txn["balances"].values()) == 0, txn["balances"]
        return txn

    def refused(self, kind: str, **fields: Any) -> LedgerError:
        before = self.state()
        with pytest.raises(LedgerError) as caught:
            self.bank.record(self.id, {"type": kind, **fields})
        assert self.state() == before
        return caught.value

    def paid(self, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """The postings of one recorded transaction."""
        return self.record(kind, **fields)["postings"]  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        return self.bank.game(self.id)

    def cash(self, account: str) -> int:
        return int(self.state()["balances"][account])

    def buy(self, player: str, *deeds: str) -> None:
        for deed in deeds:
            self.record("buy", player=player, property=deed)


@pytest.fixture
def moscow(bank: TableBank) -> Box:
    """Anya (p1), Boris (p2) and Vera (p3) on the Moscow board, 15000 each."""
    return Box(bank, MOSCOW)


@pytest.fixture
def village(bank: TableBank) -> Box:
    """Anya (p1), Boris (p2) and Vera (p3) on the village board, 1000 each."""
    return Box(bank, VILLAGE)


def test_each_player_starts_with_the_box_s_starting_cash(moscow: Box) -> None:
    balances = moscow.state()["balances"]
    assert balances == {"bank": -45000, "pot": 0, "p1": 15000, "p2": 15000, "p3": 15000}
    starting = list(moscow.bank.transactions(moscow.id))
    assert [t["postings"] for t in starting] == [
        [{"from": "bank", "to": p, "amount": 15000}] for p in ("p1", "p2", "p3")
    ]


def test_the_game_holds_the_custom_board_and_building_supply(moscow: Box) -> None:
    state = moscow.state()
    assert state["ruleset"] == "moscow-mini"
    assert list(state["properties"]) == MOSCOW_SLUGS
    assert {p["owner"] for p in state["properties"].values()} == {"bank"}
    assert state["bank"] == {"houses": 16, "hotels": 4}


def test_salary_is_the_box_s_salary(moscow: Box) -> None:
    assert moscow.paid("salary", player="p1") == [{"from": "bank", "to": "p1", "amount": 2000}]


def test_jail_fine_and_luxury_tax_are_the_box_s_figures(moscow: Box) -> None:
    assert moscow.created["options"]["luxury_tax"] == 1000
    assert moscow.paid("jail_fine", player="p1") == [{"from": "p1", "to": "bank", "amount": 500}]
    assert moscow.paid("tax", player="p2", tax="luxury") == [
        {"from": "p2", "to": "bank", "amount": 1000}
    ]


def test_income_tax_is_the_flat_figure_or_10_percent_rounded_half_up(moscow: Box) -> None:
    moscow.record("payment", **{"from": "p1", "to": "p2", "amount": 15})
    # Total worth 14985: 10 % is 1498.5, which rounds up to 1499.
    percent = moscow.record("tax", player="p1", tax="income", choice="percent")
    flat = moscow.record("tax", player="p2", tax="income", choice="flat")
    assert percent["postings"] == [{"from": "p1", "to": "bank", "amount": 1499}]
    assert flat["postings"] == [{"from": "p2", "to": "bank", "amount": 2000}]


def test_deeds_sell_at_their_custom_printed_price(moscow: Box) -> None:
    assert moscow.paid("buy", player="p1", property="arbat-street") == [
        {"from": "p1", "to": "bank", "amount": 4000}
    ]
    player = moscow.state()["players"][0]
    assert (player["cash"], player["net_worth"]) == (11000, 15000)


def test_a_lone_street_pays_its_bare_rent_and_a_whole_group_doubles_it(moscow: Box) -> None:
    moscow.buy("p1", "nagatinskaya-street")
    alone = moscow.record("rent", payer="p2", property="nagatinskaya-street")
    moscow.buy("p1", "zhitnaya-street")
    whole = moscow.record("rent", payer="p2", property="nagatinskaya-street")
    assert alone["postings"] == [{"from": "p2", "to": "p1", "amount": 40}]
    assert (alone["basis"]["monopoly"], whole["basis"]["monopoly"]) == (False, True)
    assert whole["postings"] == [{"from": "p2", "to": "p1", "amount": 80}]


def test_houses_cost_the_custom_house_price_and_raise_the_rent(moscow: Box) -> None:
    moscow.buy("p1", "zhitnaya-street", "nagatinskaya-street")
    build = moscow.record(
        "build",
        orders=[
            {"property": "zhitnaya-street", "houses": 1},
            {"property": "nagatinskaya-street", "houses": 1},
        ],
    )
    assert build["postings"] == [{"from": "p1", "to": "bank", "amount": 1000}]
    assert moscow.state()["bank"] == {"houses": 14, "hotels": 4}
    assert moscow.paid("rent", payer="p3", property="nagatinskaya-street") == [
        {"from": "p3", "to": "p1", "amount": 200}
    ]


def test_railroad_rent_follows_the_box_s_railroad_rents(moscow: Box) -> None:
    moscow.buy("p1", "rizhsky-railway")
    one = moscow.record("rent", payer="p2", property="rizhsky-railway")
    moscow.buy("p1", "kursky-railway")
    two = moscow.record("rent", payer="p2", property="rizhsky-railway")
    assert one["postings"] == [{"from": "p2", "to": "p1", "amount": 250}]
    assert two["postings"] == [{"from": "p2", "to": "p1", "amount": 500}]
    assert two["basis"]["railroads_held"] == 2


def test_utility_rent_is_the_box_s_multiplier_times_the_dice(moscow: Box) -> None:
    moscow.buy("p1", "power-station")
    rent = moscow.record("rent", payer="p2", property="power-station", dice=7)
    assert rent["postings"] == [{"from": "p2", "to": "p1", "amount": 280}]
    assert (rent["basis"]["factor"], rent["basis"]["utilities_held"]) == (40, 1)


def test_mortgage_value_is_half_the_custom_price_and_lifting_adds_10_percent(moscow: Box) -> None:
    moscow.buy("p1", "power-station")
    # Price 1250: mortgage value 625; 10 % of it is 62.5, rounded half up to 63.
    assert moscow.paid("mortgage", property="power-station") == [
        {"from": "bank", "to": "p1", "amount": 625}
    ]
    lifted = moscow.record("unmortgage", property="power-station")
    assert lifted["postings"] == [{"from": "p1", "to": "bank", "amount": 688}]
    assert lifted["basis"]["interest"] == 63


def test_liquidation_counts_the_custom_mortgage_values(moscow: Box) -> None:
    moscow.buy("p1", "arbat-street", "power-station")
    liquidation = moscow.bank.liquidation(moscow.id, "p1")
    assert liquidation["mortgages"] == [
        {"property": "power-station", "amount": 625},
        {"property": "arbat-street", "amount": 2000},
    ]
    assert liquidation["can_raise"] == 2625


def test_interest_on_the_price_when_the_box_says_so(bank: TableBank) -> None:
    document = changed(MOSCOW, lambda d: d["parameters"].update(mortgage_interest_base="price"))
    box = Box(bank, document)
    box.buy("p1", "zhitnaya-street")
    box.record("mortgage", property="zhitnaya-street")
    # Price 600: mortgage value 300, interest 10 % of 600 = 60.
    assert box.paid("unmortgage", property="zhitnaya-street") == [
        {"from": "p1", "to": "bank", "amount": 360}
    ]


def test_a_document_changing_only_parameters_keeps_the_classic_board(bank: TableBank) -> None:
    box = Box(bank, THOUSANDS, players=("Anya", "Boris"))
    state = box.state()
    assert state["balances"] == {"bank": -30000, "pot": 0, "p1": 15000, "p2": 15000}
    assert len(state["properties"]) == 28
    assert box.paid("buy", player="p1", property="reading-railroad") == [
        {"from": "p1", "to": "bank", "amount": 200}
    ]
    assert box.paid("rent", payer="p2", property="reading-railroad") == [
        {"from": "p2", "to": "p1", "amount": 250}
    ]
    assert box.paid("salary", player="p2") == [{"from": "bank", "to": "p2", "amount": 2000}]


def test_a_custom_box_that_deals_deeds_deals_from_its_own_board(bank: TableBank) -> None:
    document = changed(MOSCOW, lambda d: d["parameters"].update(deal_deeds=1))
    box = Box(
        bank,
        document,
        players=("Anya", "Boris"),
        dealt={"p1": ["arbat-street"], "p2": ["power-station"]},
    )
    state = box.state()
    assert state["balances"] == {"bank": -24750, "pot": 0, "p1": 11000, "p2": 13750}
    assert state["properties"]["arbat-street"]["owner"] == "p1"
    assert state["properties"]["power-station"]["owner"] == "p2"


# -- a complete board of its own ---------------------------------------------------------------


def test_monopoly_doubling_works_on_a_custom_group(village: Box) -> None:
    village.buy("p1", "sunrise-lane")
    alone = village.record("rent", payer="p2", property="sunrise-lane")
    village.buy("p1", "sunset-lane")
    both = village.record("rent", payer="p2", property="sunrise-lane")
    assert alone["postings"] == [{"from": "p2", "to": "p1", "amount": 6}]
    assert both["postings"] == [{"from": "p2", "to": "p1", "amount": 12}]
    assert both["basis"]["monopoly"] is True


def test_a_mortgaged_street_stops_the_doubling_of_its_custom_group(village: Box) -> None:
    village.buy("p1", "sunrise-lane", "sunset-lane")
    assert village.paid("mortgage", property="sunset-lane") == [
        {"from": "bank", "to": "p1", "amount": 60}
    ]
    assert village.paid("rent", payer="p2", property="sunrise-lane") == [
        {"from": "p2", "to": "p1", "amount": 6}
    ]


def test_half_a_custom_group_does_not_double_and_cannot_build(village: Box) -> None:
    village.buy("p2", "crescent-row")
    rent = village.record("rent", payer="p3", property="crescent-row")
    assert rent["postings"] == [{"from": "p3", "to": "p2", "amount": 16}]
    assert village.refused("build", property="crescent-row").code == "group_incomplete"


def test_a_hotel_on_a_three_house_board_needs_three_houses_and_pays_the_last_rent(
    village: Box,
) -> None:
    village.buy("p1", "sunrise-lane", "sunset-lane")
    village.record(
        "build",
        orders=[
            {"property": "sunrise-lane", "houses": 3},
            {"property": "sunset-lane", "houses": 3},
        ],
    )
    assert village.refused("build", property="sunset-lane").code == "building_limit"
    assert village.paid("rent", payer="p2", property="sunset-lane") == [
        {"from": "p2", "to": "p1", "amount": 300}
    ]
    assert village.paid("build", property="sunrise-lane", hotel=True) == [
        {"from": "p1", "to": "bank", "amount": 60}
    ]
    # 12 houses - 6 built + the 3 the hotel replaced; one of the 4 hotels used.
    assert village.state()["bank"] == {"houses": 9, "hotels": 3}
    assert village.paid("rent", payer="p3", property="sunrise-lane") == [
        {"from": "p3", "to": "p1", "amount": 400}
    ]


def test_a_complete_board_s_amount_option_defaults_to_its_parameter(village: Box) -> None:
    assert village.created["options"] == {"free_parking_pot": False, "luxury_tax": 50}
    assert village.paid("tax", player="p1", tax="luxury") == [
        {"from": "p1", "to": "bank", "amount": 50}
    ]


def test_a_complete_board_without_options_charges_its_luxury_tax_parameter(
    bank: TableBank,
) -> None:
    """docs/rules.md: the luxury tax is a rule-set parameter; leaving out the (optional)
    options section must not leave the ledger without the amount."""
    document = changed(VILLAGE, lambda d: d.pop("options"))
    box = Box(bank, document)
    assert box.paid("tax", player="p1", tax="luxury") == [
        {"from": "p1", "to": "bank", "amount": 50}
    ]


@pytest.mark.parametrize("supply", ["houses", "hotels"])
def test_a_complete_board_leaving_out_a_building_supply_never_crashes(
    bank: TableBank, supply: str
) -> None:
    """Left out, the supply is either unlimited (as null says) or a listed problem; it must
    not pass validation and then fail the game's creation (a 500 over HTTP)."""
    document = changed(VILLAGE, lambda d: d["parameters"].pop(supply))
    try:
        box = Box(bank, document)
    except LedgerError as err:
        assert err.code == "validation_error"
        assert [p for p in err.extra["errors"]["ruleset_document"] if supply in p]
    else:
        assert box.state()["bank"][supply] is None


# -- what is stored ----------------------------------------------------------------------------


def _play_a_little(box: Box) -> None:
    box.record("salary", player="p1")
    box.buy("p1", "zhitnaya-street", "nagatinskaya-street", "power-station")
    box.record("rent", payer="p2", property="zhitnaya-street")
    box.record("mortgage", property="power-station")
    box.record("unmortgage", property="power-station")
    box.record("build", property="zhitnaya-street")


def test_the_log_keeps_the_whole_resolved_document(moscow: Box) -> None:
    _play_a_little(moscow)
    exported = moscow.bank.export(moscow.id)
    stored = exported["game"]["ruleset"]
    assert stored == resolve_extends(copy.deepcopy(MOSCOW))
    assert "extends" not in stored
    assert stored["parameters"]["starting_cash"] == 15000
    assert stored["parameters"]["mortgage_interest_percent"] == 10  # classic's, written out
    assert [d["name"] for d in stored["deeds"]] == [d["name"] for d in MOSCOW["deeds"]]


def test_export_then_import_of_a_custom_game_round_trips(moscow: Box) -> None:
    _play_a_little(moscow)
    exported = moscow.bank.export(moscow.id)
    imported = moscow.bank.import_game(json.loads(json.dumps(exported)))
    original = moscow.state()
    assert imported["head"] == original["head"] == exported["head"]
    assert imported["ruleset"] == "moscow-mini"
    assert imported["balances"] == original["balances"]
    assert imported["properties"] == original["properties"]
    assert imported["bank"] == original["bank"]


# -- invalid documents -------------------------------------------------------------------------


def refusal(
    bank: TableBank, document: Any, ruleset: str = "moscow-mini", **kwargs: Any
) -> dict[str, list[str]]:
    """Create a game with a document the ledger must refuse; the errors by field."""
    with pytest.raises(LedgerError) as caught:
        bank.create_game(
            "Kitchen table", ruleset, ["Anya", "Boris"], ruleset_document=document, **kwargs
        )
    assert caught.value.code == "validation_error"
    assert bank.list_games() == []
    return caught.value.extra["errors"]  # type: ignore[no-any-return]


def _add_deed(deed: Doc) -> Callable[[Doc], None]:
    return lambda d: d["deeds"].append(deed)


INVALID: list[tuple[str, Callable[[Doc], Any], str]] = [
    (
        "odd price",
        lambda d: d["deeds"][0].update(price=601),
        "deeds[0].price: a positive even whole number",
    ),
    (
        "missing rents",
        lambda d: d["deeds"][1].pop("rents"),
        "deeds[1].rents: bare, 1 to 4 houses, and hotel (6 whole numbers)",
    ),
    (
        "too few rents",
        lambda d: d["deeds"][1].update(rents=[40, 200, 600, 1800, 3200]),
        "deeds[1].rents: bare, 1 to 4 houses, and hotel (6 whole numbers)",
    ),
    (
        "street without house price",
        lambda d: d["deeds"][0].pop("house_price"),
        "deeds[0]: a street needs a house_price (and hotel_price)",
    ),
    (
        "unknown parameter",
        lambda d: d["parameters"].update(double_salary_on_go=4000),
        "parameters: unknown double_salary_on_go",
    ),
    (
        "unknown option",
        lambda d: d.update(options={"double_salary_on_go": {"type": "boolean", "default": True}}),
        "options.double_salary_on_go: not a house rule this ledger knows",
    ),
    (
        "option of another type",
        lambda d: d.update(options={"free_parking_pot": {"type": "amount", "default": 5}}),
        "options.free_parking_pot.type: boolean",
    ),
    (
        "group mixing kinds",
        lambda d: d["deeds"][2].update(group="brown"),
        "group 'brown' mixes kinds ['railroad', 'street']",
    ),
    (
        "more railroads than railroad rents",
        lambda d: d["parameters"].update(railroad_rents=[250]),
        "group 'railways': a railroad rent for each railroad held is needed",
    ),
    (
        "more utilities than multipliers",
        _add_deed({"name": "Water Pump", "kind": "utility", "group": "utilities", "price": 1500}),
        "group 'utilities': a multiplier for each utility held is needed",
    ),
    (
        "houses before hotel above max houses",
        lambda d: d["parameters"].update(max_houses=3, houses_before_hotel=4),
        "parameters.houses_before_hotel: from 1 to max_houses",
    ),
    (
        "more deeds dealt than the board holds",
        lambda d: d["parameters"].update(deal_deeds=2),  # 2 x 4 players > 7 deeds
        "parameters.deal_deeds: more deeds dealt than the board holds",
    ),
    (
        "one slug twice",
        _add_deed({"name": "ARBAT street!", "kind": "railroad", "group": "x", "price": 2}),
        "deeds[7].name: 'arbat-street' twice",
    ),
    (
        "players out of order",
        lambda d: d.update(players={"min": 5, "max": 4}),
        "players: {min, max} with 2 <= min <= max <= 8",
    ),
    (
        "no starting cash",
        lambda d: d["parameters"].update(starting_cash=0),
        "parameters.starting_cash: a whole number from 1 to 1000000000",
    ),
    (
        "another interest base",
        lambda d: d["parameters"].update(mortgage_interest_base="loan"),
        "parameters.mortgage_interest_base: 'mortgage_value' or 'price'",
    ),
    (
        "another rounding",
        lambda d: d["parameters"].update(rounding="down"),
        "parameters.rounding: only 'half_up' is supported",
    ),
    (
        "an unknown base",
        lambda d: d.update(extends="monopoly-deal"),
        "extends: no rule set 'monopoly-deal'",
    ),
    (
        "no deeds",
        lambda d: d.update(deeds=[]),
        "deeds: a list of 1 to 60 deeds",
    ),
    (
        "parameters that are not an object over a base",
        lambda d: d.update(extends="classic", parameters=[]),
        "parameters: an object",
    ),
    (
        "a negative house supply",
        lambda d: d["parameters"].update(houses=-1),
        "parameters.houses: null (no limit) or a whole number to 1000000",
    ),
    (
        "more deeds dealt than ten",
        lambda d: d["parameters"].update(deal_deeds=11),
        "parameters.deal_deeds: a whole number from 0 to 10",
    ),
    (
        "a game ended by no bankruptcy",
        lambda d: d["parameters"].update(ends_after_bankruptcies=0),
        "parameters.ends_after_bankruptcies: null or a whole number from 1 to 7",
    ),
    (
        # Zhitnaya Street: price 600, mortgage value 300 (docs/rules.md, "Mortgages": half).
        "a mortgage value other than half the price",
        lambda d: d["deeds"][0].update(mortgage_value=250),
        "deeds[0].mortgage_value: half the price (300)",
    ),
    (
        # Zhitnaya Street is a street: it carries buildings (docs/rules.md, "Building").
        "a street said to carry no buildings",
        lambda d: d["deeds"][0].update(buildable=False),
        "deeds[0].buildable: true for a street (streets and plots carry buildings)",
    ),
]


@pytest.mark.parametrize(
    ("change", "message"), [(c, m) for _, c, m in INVALID], ids=[i for i, _, _ in INVALID]
)
def test_an_invalid_document_is_refused_naming_its_problem(
    bank: TableBank, change: Callable[[Doc], Any], message: str
) -> None:
    errors = refusal(bank, changed(MOSCOW, change))
    assert list(errors) == ["ruleset_document"]
    assert message in errors["ruleset_document"]


def test_a_deeds_mortgage_value_given_as_half_its_price_is_taken(bank: TableBank) -> None:
    # A rule set's answer shows it; sent back, the deed plays as it did (Zhitnaya: 600, 300).
    box = Box(bank, changed(MOSCOW, lambda d: d["deeds"][0].update(mortgage_value=300)))
    box.buy("p1", "zhitnaya-street")

    assert box.paid("mortgage", property="zhitnaya-street") == [
        {"from": "bank", "to": "p1", "amount": 300}
    ]


def test_every_problem_of_a_document_is_listed_at_once(bank: TableBank) -> None:
    def break_everything(d: Doc) -> None:
        d["parameters"].update(
            max_houses=3, houses_before_hotel=4, railroad_rents=[250], double_salary_on_go=1
        )
        d["options"] = {"double_salary_on_go": {"type": "boolean", "default": True}}
        d["deeds"][0]["price"] = 601
        d["deeds"][1]["rents"] = [40, 200, 600]
        d["deeds"][4]["group"] = "utilities"

    errors = refusal(bank, changed(MOSCOW, break_everything))["ruleset_document"]
    assert set(errors) >= {
        "parameters.houses_before_hotel: from 1 to max_houses",
        "parameters: unknown double_salary_on_go",
        "options.double_salary_on_go: not a house rule this ledger knows",
        "deeds[0].price: a positive even whole number",
        "deeds[1].rents: bare, 1 to 3 houses, and hotel (5 whole numbers)",
        "group 'utilities' mixes kinds ['street', 'utility']",
        "group 'railways': a railroad rent for each railroad held is needed",
    }


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_built_in_name_cannot_be_reused(bank: TableBank, name: str) -> None:
    document = changed(MOSCOW, lambda d: d.update(name=name))
    errors = refusal(bank, document, ruleset=name)
    assert list(errors) == ["ruleset"]
    assert errors["ruleset"] == [f"{name!r} is built in: give your own rule set a new name"]


def test_the_document_must_carry_the_game_s_rule_set_name(bank: TableBank) -> None:
    document = changed(MOSCOW, lambda d: d.update(name="moscow"))
    errors = refusal(bank, document, ruleset="moscow-mini")
    assert errors == {"ruleset_document": ["the document's name must be 'moscow-mini'"]}


def test_a_deed_name_without_latin_letters_or_digits_needs_an_id(bank: TableBank) -> None:
    """Slugs keep a-z and 0-9 only: a Cyrillic-only name needs an explicit id."""
    document = changed(MOSCOW, lambda d: d["deeds"][6].update(name="Арбат"))
    problems = refusal(bank, document)["ruleset_document"]
    assert [p for p in problems if p.startswith("deeds[6].id")], problems


def test_a_deed_with_an_explicit_id_is_played_by_that_id(bank: TableBank) -> None:
    document = changed(MOSCOW, lambda d: d["deeds"][6].update(name="Арбат", id="arbat"))
    game = bank.create_game("t", "moscow-mini", ["Ann", "Bob"], ruleset_document=document)
    assert "arbat" in game["properties"]


@pytest.mark.parametrize(
    ("parameter", "value"),
    [
        ("railroad_rents", 250),
        ("railroad_rents", "250"),
        ("utility_multipliers", True),
        ("utility_multipliers", 40),
    ],
    ids=["rents-int", "rents-str", "multipliers-bool", "multipliers-int"],
)
def test_a_figure_list_given_as_one_value_is_a_listed_problem(
    bank: TableBank, parameter: str, value: Any
) -> None:
    """Not an exception from deep in the ledger (a 500 over HTTP): a listed problem."""
    document = changed(MOSCOW, lambda d: d["parameters"].update({parameter: value}))
    problems = refusal(bank, document)["ruleset_document"]
    assert f"parameters.{parameter}: a list of whole numbers" in problems


def test_an_income_tax_choice_the_ledger_does_not_know_is_refused(bank: TableBank) -> None:
    """docs/rules.md: income tax is `choice`, `flat` or `percent`; any other value would be
    charged as something the box never said."""
    option = {"type": "choice", "choices": ["never"], "default": "never"}
    document = changed(MOSCOW, lambda d: d.update(options={"income_tax": option}))
    problems = refusal(bank, document)["ruleset_document"]
    assert [p for p in problems if p.startswith("options.income_tax")], problems


# -- parse_ruleset on junk ---------------------------------------------------------------------

CLASSIC: Doc = json.loads(
    resources.files("ledger.rulesets").joinpath("classic.json").read_text("utf-8")
)
KEYS = sorted(
    {
        *CLASSIC,
        *CLASSIC["parameters"],
        *CLASSIC["options"],
        *CLASSIC["deeds"][0],
        "extends",
        "min",
        "max",
        "type",
        "default",
        "choices",
        "deal_deeds",
        "ends_after_bankruptcies",
        "bankrupt_buildings_to_creditor",
    }
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.text(max_size=12)
    | st.sampled_from(
        [0, 1, 2, 4, -1, "", "classic", "street", "railroad", "utility", "half_up", "price"]
    )
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=25,
)


def _check(document: Any) -> RuleSet | None:
    """Parse; a refusal must be a RuleSetInvalid listing its problems as sentences."""
    try:
        return parse_ruleset(document)
    except RuleSetInvalid as err:
        assert err.problems
        assert all(isinstance(p, str) and p for p in err.problems)
        return None


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON)
def test_parse_ruleset_refuses_any_json_value_with_rule_set_invalid(document: Any) -> None:
    _check(document)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(KEYS), JSON, max_size=8))
def test_parse_ruleset_refuses_any_object_of_known_sections_with_rule_set_invalid(
    document: Doc,
) -> None:
    _check(document)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


DELETE = object()
PATHS = _paths(CLASSIC)
# Shallow places weigh as much as the many deed figures: every section and every parameter.
SHALLOW = sorted(
    {p for p in PATHS if len(p) <= 2}
    | {("parameters", k) for k in KEYS}
    | {("options", k) for k in CLASSIC["options"]},
    key=repr,
)
MUTATION = st.tuples(st.sampled_from(PATHS) | st.sampled_from(SHALLOW), JSON | st.just(DELETE))


def _mutate(document: Doc, path: tuple[Any, ...], value: Any) -> None:
    node: Any = document
    for key in path[:-1]:
        if not isinstance(node, dict | list):
            return
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    last = path[-1]
    if isinstance(node, dict):
        if value is DELETE:
            node.pop(last, None)
        else:
            node[last] = value
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        if value is DELETE:
            del node[last]
        else:
            node[last] = value


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MUTATION, min_size=1, max_size=4), st.booleans())
@example([(("parameters", "railroad_rents"), 250)], False)
@example([(("parameters", "utility_multipliers"), True)], True)
def test_a_mutated_classic_document_parses_or_is_refused_with_rule_set_invalid(
    mutations: list[tuple[tuple[Any, ...], Any]], as_changes: bool
) -> None:
    document = copy.deepcopy(CLASSIC)
    document["name"] = "mutant"
    for path, value in mutations:
        _mutate(document, path, value)
    if as_changes:
        # The same changes given as an extension of classic: parameters and options merged.
        document = {
            "name": "mutant",
            "extends": "classic",
            **{k: v for k, v in document.items() if k in ("parameters", "options")},
        }
        try:
            document = resolve_extends(document)
        except RuleSetInvalid:
            return
    _check(document)


# -- create_game on mutated complete documents ------------------------------------------------

COMPLETE_VILLAGE_PATHS = sorted(
    {p for p in _paths(VILLAGE) if len(p) <= 2}
    | {("parameters", k) for k in KEYS}
    | {("options", k) for k in CLASSIC["options"]},
    key=repr,
)
PLAY: list[dict[str, Any]] = [
    {"type": "salary", "player": "p1"},
    {"type": "tax", "player": "p1", "tax": "luxury"},
    {"type": "tax", "player": "p2", "tax": "income", "choice": "percent"},
    {"type": "jail_fine", "player": "p2"},
    {"type": "buy", "player": "p1", "property": "sunrise-lane"},
    {"type": "buy", "player": "p1", "property": "sunset-lane"},
    {"type": "rent", "payer": "p2", "property": "sunrise-lane"},
    {"type": "build", "property": "sunrise-lane"},
    {"type": "buy", "player": "p2", "property": "north-ferry"},
    {"type": "rent", "payer": "p1", "property": "north-ferry"},
    {"type": "buy", "player": "p2", "property": "the-well"},
    {"type": "rent", "payer": "p1", "property": "the-well", "dice": 7},
    {"type": "mortgage", "property": "the-well"},
    {"type": "unmortgage", "property": "the-well"},
]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(st.tuples(st.sampled_from(COMPLETE_VILLAGE_PATHS), JSON | st.just(DELETE)), max_size=2)
)
@example([(("parameters", "houses"), DELETE)])
@example([(("options",), DELETE)])
def test_a_game_of_a_mutated_complete_board_is_created_and_played_or_refused(
    bank: TableBank, mutations: list[tuple[tuple[Any, ...], Any]]
) -> None:
    """Whatever the document, creating and playing a game gives an answer or a LedgerError
    (a refusal over HTTP), never another exception (a 500)."""
    document = copy.deepcopy(VILLAGE)
    for path, value in mutations:
        _mutate(document, path, value)
    try:
        created = bank.create_game("t", "village", ["Anya", "Boris"], ruleset_document=document)
    except LedgerError as err:
        assert err.code == "validation_error"
        return
    for body in PLAY:
        with contextlib.suppress(LedgerError):
            bank.record(created["id"], body)
    exported = bank.export(created["id"])
    assert bank.import_game(exported)["head"] == exported["head"]
