"""``GET /api/v1/games/{game}/moves``: the transaction types a game accepts now, from its rule
set's variant, its options, its status and the token (API.md v1.2, "What a game can record
now: moves"), each as the server declares it, with the game's own choices filled in."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import NewGame, Table, type_rows

from schemas.transactions import TRANSACTION_SCHEMAS

# What a classic game without house rules records: no pot to collect without the Free Parking
# rule (docs/rules.md, "House-rule options"), no IOUs without player loans ("IOUs (player
# loans)"), none of Millionaire Elite's types ("Millionaire Elite").
# Nobody holds a deed yet: no rent to pay, nothing to mortgage or lift ("Rent", "Mortgages"),
# and no IOU is open to repay, pass on or forgive.
NEEDS_A_DEED_OR_AN_IOU = {
    "rent",
    "mortgage",
    "unmortgage",
    "iou_repay",
    "iou_transfer",
    "iou_forgive",
}
# Those of v1.2, in the order of docs/api.md's table (a type added since stands among them).
CLASSIC_MOVES_OF_V1_2 = [
    "salary", "payment", "card", "tax", "buy", "auction",
    "build", "sell_buildings", "jail_fine", "jail_card", "go_to_jail", "leave_jail", "trade",
    "bankruptcy", "turn", "finish", "dispute", "dispute_resolve", "void",
]  # fmt: skip


def classic_moves() -> list[str]:
    """docs/api.md's table of types, in its order, less what the ledger records itself, the
    types of another variant or of a house rule, and those that need a deed or an IOU."""
    return [
        name
        for name, (_, fields, variants, _who, _voidable, _family) in type_rows().items()
        if variants in {"all", "classic"}
        and "recorded at creation" not in fields
        and name not in NEEDS_A_DEED_OR_AN_IOU
    ]


# Millionaire Elite (docs/rules.md, "Millionaire Elite"): round income and round tax,
# shares, insurance, the jackpot and the kitty, loans between players; no income or luxury tax
# squares and no jail cards.
ELITE_ONLY = {"shares", "share_price", "round_tax", "tax_exemption", "insurance", "jackpot"}
# "The Bank holds the 28 deeds" (docs/rules.md, "Set-up and starting cash").
THE_BOARD_OF_CLASSIC = 28


def elite_game(table: Table) -> Table:
    """A Millionaire Elite game beside ``table``'s, on the same app."""
    body = {"name": "Elite", "ruleset": "millionaire-elite", "players": ["Ann", "Bob"]}
    response = table.client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.json
    return type(table)(table.client, response.json)


def moves(table: Table, token: str | None = None) -> dict[str, dict[str, Any]]:
    response = table.get("/moves", token=token)
    assert response.status_code == 200, response.json
    return {move["type"]: move for move in response.json["moves"]}


def field(move: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [f for f in move["fields"] if f["name"] == name]
    return found


def test_a_classic_game_lists_its_types_in_the_tables_order(table: Table) -> None:
    response = table.get("/moves")

    listed = [move["type"] for move in response.json["moves"]]
    assert listed == classic_moves()
    assert [name for name in listed if name in CLASSIC_MOVES_OF_V1_2] == CLASSIC_MOVES_OF_V1_2


def test_the_card_is_listed_as_the_contract_shows_it(table: Table) -> None:
    card = moves(table)["card"]

    assert card["who"] == ["banker"]
    assert card["voidable"] is True
    assert card["fields"][:2] == [
        {"name": "player", "kind": "player", "required": True, "choices": ["p1", "p2", "p3"]},
        {
            "name": "effect",
            "kind": "choice",
            "required": True,
            "choices": ["collect", "pay", "collect_from_each", "pay_each", "repairs"],
        },
    ]
    amount = field(card, "amount")
    assert (amount["kind"], amount["required"], amount["min"]) == ("amount", False, 1)
    # A repairs card gives its figures per building instead (docs/rules.md, "Cards").
    assert amount["when"] == {"effect": ["collect", "pay", "collect_from_each", "pay_each"]}
    assert field(card, "per_house")["when"] == {"effect": ["repairs"]}


def test_accounts_deeds_and_bounds_are_the_games_own(table: Table) -> None:
    listed = moves(table)

    # No Free Parking pot in this game: nothing is paid into it (docs/rules.md, "House-rule
    # options").
    assert field(listed["payment"], "from")["choices"] == ["bank", "p1", "p2", "p3"]
    deeds = field(listed["buy"], "property")["choices"]
    assert len(deeds) == THE_BOARD_OF_CLASSIC
    assert deeds[0] == "mediterranean-avenue" and deeds[-1] == "boardwalk"
    assert field(listed["auction"], "property")["choices"] == deeds
    table.record({"type": "buy", "player": "p1", "property": "boardwalk"})
    dice = field(moves(table)["rent"], "dice")
    assert (dice["kind"], dice["min"], dice["max"]) == ("whole", 2, 12)  # two dice
    assert field(listed["bankruptcy"], "creditor")["choices"] == ["bank", "p1", "p2", "p3"]
    legs = field(listed["trade"], "legs")
    assert legs["kind"] == "list"
    assert [f["name"] for f in legs["fields"]] == ["from", "to", "cash", "properties", "jail_cards"]


def test_a_seq_field_runs_to_the_games_last_transaction(table: Table) -> None:
    table.fund("p1", 100)  # seq 4: the set-up paid the three players their starting cash

    void = moves(table)["void"]

    assert field(void, "seq") == {
        "name": "seq",
        "kind": "seq",
        "required": True,
        "min": 1,
        "max": 4,
    }


def test_a_bankrupt_player_is_no_longer_a_choice(table: Table) -> None:
    table.record({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 2000})

    assert field(moves(table)["salary"], "player")["choices"] == ["p1", "p2"]


@pytest.mark.parametrize("ruleset", ["classic", "short"])
def test_without_the_house_rule_a_payment_to_the_pot_is_refused_and_not_offered(
    table: Table, ruleset: str
) -> None:
    # docs/rules.md, "The pot without the option": p2's 30 to the pot is refused, nothing is
    # recorded, and /moves offers no pot.
    body = {"name": "No pot", "ruleset": ruleset, "players": ["Ann", "Bob", "Cy"]}
    response = table.client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.json
    game = type(table)(table.client, response.json)
    before = game.state()

    problem = game.refusal({"type": "payment", "from": "p2", "to": "pot", "amount": 30})

    assert (problem["code"], problem["params"]["reason"]) == ("option_disabled", "free_parking_pot")
    after = game.state()
    assert (after["balances"]["pot"], after["last_seq"]) == (0, before["last_seq"])
    assert game.refusal({"type": "pot_collect", "player": "p1"})["code"] == "option_disabled"
    listed = moves(game)
    assert "pot_collect" not in listed
    assert "pot" not in field(listed["payment"], "from")["choices"]
    assert "pot" not in field(listed["payment"], "to")["choices"]


def test_the_house_rules_add_the_pot_and_the_loans(new_game: NewGame) -> None:
    table = new_game(player_loans=True, free_parking_pot=True)

    listed = moves(table)

    assert "pot_collect" in listed
    assert "iou" in listed
    # The Free Parking pot takes money now (docs/rules.md, "House-rule options").
    assert field(listed["payment"], "to")["choices"] == ["bank", "pot", "p1", "p2", "p3"]
    # No IOU is open: a repayment has nothing to repay (docs/rules.md, "IOUs (player loans)").
    assert "iou_repay" not in listed
    table.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 200})
    (iou,) = table.state()["ious"]

    repay = moves(table)["iou_repay"]

    assert field(repay, "iou")["choices"] == [iou["id"]]
    assert field(moves(table)["iou_forgive"], "iou")["choices"] == [iou["id"]]


def test_a_settled_iou_is_no_longer_a_choice(new_game: NewGame) -> None:
    table = new_game(player_loans=True)
    table.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 200})
    (iou,) = table.state()["ious"]
    table.record({"type": "iou_repay", "iou": iou["id"], "amount": 200})  # repaid in full

    listed = moves(table)

    assert {"iou_repay", "iou_transfer", "iou_forgive"}.isdisjoint(listed)


def test_a_millionaire_elite_game_lists_its_own_types(table: Table) -> None:
    listed = moves(elite_game(table))

    assert set(listed) >= ELITE_ONLY
    assert set(listed) >= {"iou", "pot_collect"}  # Elite lends and has its kitty
    assert {"tax", "jail_card"}.isdisjoint(listed)
    # The policy colours are the rule set's (docs/rules.md, "Insurance policies").
    policy = field(listed["insurance"], "policy")
    assert policy["kind"] == "choice"
    assert policy["choices"] == ["blue", "green", "orange", "red"]


def test_a_players_token_lists_what_that_player_may_record(table: Table) -> None:
    table.record({"type": "buy", "player": "p1", "property": "boardwalk"})  # rent to pay now

    listed = moves(table, token=table.tokens["p2"])

    # docs/api.md's "who": the types a player records too, of a classic game's variant.
    theirs = [
        name
        for name, (_, _fields, variants, who, _voidable, _family) in type_rows().items()
        if who.startswith("banker, or") and variants in {"all", "classic"}
    ]
    assert sorted(listed) == sorted(theirs)
    assert {"dispute", "payment", "rent"} <= set(listed)  # those of v1.2
    assert listed["payment"]["who"] == ["banker", "player"]
    assert field(listed["payment"], "from")["choices"] == ["p2"]  # out of his own account
    assert field(listed["rent"], "payer")["choices"] == ["p2"]
    # Rent on somebody else's deed ("Rent"): Bob's own is not his to pay rent on.
    table.record({"type": "buy", "player": "p2", "property": "park-place"})
    assert field(moves(table, token=table.tokens["p2"])["rent"], "property")["choices"] == [
        "boardwalk"
    ]
    # He pays somebody else: a payment is a posting from one account to another
    # (docs/rules.md, "Money conservation").
    assert field(listed["payment"], "to")["choices"] == ["bank", "p1", "p3"]


def test_a_bankrupt_players_token_may_record_only_a_dispute(table: Table) -> None:
    table.record({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 2000})

    assert sorted(moves(table, token=table.tokens["p3"])) == ["dispute"]


def test_a_finished_game_lists_nothing(table: Table) -> None:
    table.record({"type": "finish"})

    response = table.get("/moves")

    assert response.status_code == 200
    assert response.json["moves"] == []


def test_the_types_never_voided_are_listed_beside_the_moves(table: Table) -> None:
    response = table.get("/moves")

    # The set-up's (docs/rules.md, "Set-up and starting cash"), the corrections and disputes,
    # and the finish: no void reverses them (docs/rules.md, "Corrections").
    assert sorted(response.json["not_voidable"]) == sorted(
        ["starting_cash", "deal", "pot_seed", "void", "finish", "dispute", "dispute_resolve"]
    )


def test_the_moves_need_a_token_of_the_game(table: Table) -> None:
    response = table.client.get(table.url + "/moves")

    assert response.status_code == 401
    assert response.mimetype == "application/problem+json"


def test_the_etag_is_the_tokens_own(table: Table) -> None:
    banker = table.get("/moves").headers["ETag"]
    player = table.get("/moves", token=table.tokens["p1"]).headers["ETag"]

    assert banker != player
    assert banker.strip('"').startswith(table.get().headers["ETag"].strip('"'))


@pytest.mark.parametrize("kind", sorted(TRANSACTION_SCHEMAS))
def test_each_types_fields_are_its_request_schemas(kind: str, new_game: NewGame) -> None:
    # Every recordable type is listed in some game (Elite's in an Elite one) with the fields
    # its request schema loads, no more, no fewer.
    schema = TRANSACTION_SCHEMAS[kind]()
    loaded = {f.data_key or name for name, f in schema.fields.items()} - {"type", "memo"}
    required = {f.data_key or name for name, f in schema.fields.items() if f.required} - {"type"}
    table = new_game(player_loans=True, free_parking_pot=True)
    # Deeds held, one of them mortgaged: rent, a mortgage and a lifted one are moves now.
    table.record({"type": "buy", "player": "p1", "property": "boardwalk"})
    table.record({"type": "buy", "player": "p1", "property": "park-place"})
    table.record({"type": "mortgage", "property": "park-place"})
    if kind.startswith("iou_"):
        table.record({"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 10})
    listed = moves(table)
    if kind not in listed:  # Elite's own
        listed = moves(elite_game(table))

    move = listed[kind]

    assert {f["name"] for f in move["fields"]} == loaded
    assert {f["name"] for f in move["fields"] if f["required"]} == required


def test_the_deeds_a_move_offers_are_those_it_can_take(table: Table) -> None:
    table.record({"type": "buy", "player": "p1", "property": "boardwalk"})
    table.record({"type": "buy", "player": "p2", "property": "park-place"})
    table.record({"type": "mortgage", "property": "park-place"})

    listed = moves(table)

    # The Bank sells what it still holds ("Buying"); an auction in the classic game is of the
    # Bank's deeds too ("Auctions").
    bank = field(listed["buy"], "property")["choices"]
    assert len(bank) == THE_BOARD_OF_CLASSIC - 2
    assert {"boardwalk", "park-place"}.isdisjoint(bank)
    assert field(listed["auction"], "property")["choices"] == bank
    # Rent is paid on a deed a player holds; the quote says when a mortgage stops it ("Rent").
    assert field(listed["rent"], "property")["choices"] == ["park-place", "boardwalk"]
    # A mortgaged deed is lifted, an unmortgaged one is mortgaged ("Mortgages").
    assert field(listed["mortgage"], "property")["choices"] == ["boardwalk"]
    assert field(listed["unmortgage"], "property")["choices"] == ["park-place"]
    assert field(listed["trade"], "unmortgage")["choices"] == ["park-place"]
    assert field(listed["bankruptcy"], "unmortgage")["choices"] == ["park-place"]


def test_the_bank_with_no_deed_left_offers_no_purchase(new_game: NewGame) -> None:
    table = new_game()
    deeds = field(moves(table)["buy"], "property")["choices"]
    for i, slug in enumerate(deeds):
        table.record({"type": "buy", "player": ["p1", "p2", "p3"][i % 3], "property": slug})
        table.fund(["p1", "p2", "p3"][i % 3], 400)

    listed = moves(table)

    assert "buy" not in listed and "auction" not in listed
    assert "unmortgage" not in listed  # nothing is mortgaged
    assert len(field(listed["rent"], "property")["choices"]) == THE_BOARD_OF_CLASSIC


def test_the_taxes_offered_are_those_the_game_charges(new_game: NewGame) -> None:
    # Income tax as the player chooses, and the luxury tax, by default ("Income tax and luxury
    # tax"); a game whose options pay the income tax one way only and set the luxury tax to 0
    # ("House-rule options") offers that way and no luxury tax.
    tax = moves(new_game())["tax"]
    assert field(tax, "tax")["choices"] == ["income", "luxury"]
    assert field(tax, "choice")["choices"] == ["flat", "percent"]

    tax = moves(new_game(income_tax="flat", luxury_tax=0))["tax"]

    assert field(tax, "tax")["choices"] == ["income"]
    assert field(tax, "choice")["choices"] == ["flat"]


def test_an_elite_auction_offers_a_players_plot_too(table: Table) -> None:
    elite = elite_game(table)
    plots = field(moves(elite)["buy"], "property")["choices"]
    elite.record({"type": "buy", "player": "p1", "property": plots[0], "price": 100})

    listed = moves(elite)

    # The AUCTION space may pick a player's plot (docs/rules.md, "Auctions of owned plots").
    assert plots[0] in field(listed["auction"], "property")["choices"]
    assert plots[0] not in field(listed["buy"], "property")["choices"]


def test_building_offers_the_streets_of_a_group_held_whole(table: Table) -> None:
    table.buy("p1", "mediterranean-avenue", "baltic-avenue")  # the brown group, whole
    table.buy("p2", "oriental-avenue", "reading-railroad")  # a light blue alone, a railroad

    listed = moves(table)

    # A house goes only on a street of a group its owner holds whole ("Complete group, no
    # mortgage"); a railroad carries none. Nothing is built yet: nothing to sell.
    brown = ["mediterranean-avenue", "baltic-avenue"]
    assert field(listed["build"], "property")["choices"] == brown
    orders = field(listed["build"], "orders")
    assert [f["choices"] for f in orders["fields"] if f["name"] == "property"] == [brown]
    assert field(listed["sell_buildings"], "property")["choices"] == []
    table.record({"type": "build", "property": "mediterranean-avenue", "houses": 1})

    listed = moves(table)

    # Sold back at half price ("Selling buildings"): the street with the house on it.
    assert field(listed["sell_buildings"], "property")["choices"] == ["mediterranean-avenue"]
    assert field(listed["build"], "property")["choices"] == brown


def test_a_bankrupt_kept_seated_is_still_a_choice(new_game: NewGame) -> None:
    # The house rule keeps a bankrupt at the table with nothing, playing on (docs/rules.md,
    # "House-rule options"): the moves name her, and her token may pay.
    table = new_game(keep_bankrupt_players=True)
    table.record({"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 2000})

    assert field(moves(table)["salary"], "player")["choices"] == ["p1", "p2", "p3"]
    assert "payment" in moves(table, token=table.tokens["p3"])
