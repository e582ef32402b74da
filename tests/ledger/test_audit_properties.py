"""Audit invariants under random classic games: replay, export/import, tamper evidence, verify.

Each example plays one random classic game (2-4 players, random options) through
``TableBank.record``: salaries, payments, purchases, auctions, rent, taxes, cards, buildings on
complete groups, mortgages, trades, voids of earlier transactions, jail, now and then a
bankruptcy or the end of the game. The moves are drawn from the table as it stands, so most of
them are accepted; a refusal (``LedgerError``) is part of play, any other exception is a bug.

Then, for the game played:

- the replay of its log equals the live state as of every ``seq`` (balances, net worths);
- export -> import gives the same game (every field but its id) and the same export;
- changing any one field of any exported transaction is refused with ``log_invalid`` at that
  transaction's seq, except ``voided_by``, which is not hashed and which import ignores;
- a forger who recomputes every hash is still caught by the rules at the changed seq;
- ``verify`` is ok and ends at the state's ``head``.

Figures from docs/rules.md: 1500 starting cash; a 2-player game's set-up is transactions 1-2.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from profiles import examples
from stores import Store

from ledger.application import TableBank
from ledger.chain import chain_hash
from ledger.errors import LedgerError, LogInvalid
from ledger.exchange import verify_document
from ledger.ruleset import built_in
from ledger.store import persistence_env

SETTINGS = settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CLASSIC = built_in("classic")
assert CLASSIC is not None
DEEDS = {slug: deed for slug, deed in CLASSIC.deeds.items()}
GROUPS: dict[str, list[str]] = {}
for _slug, _deed in DEEDS.items():
    GROUPS.setdefault(_deed.group, []).append(_slug)
STREET_GROUPS = sorted(g for g, slugs in GROUPS.items() if DEEDS[slugs[0]].kind == "street")
DECKS = ("chance", "community_chest")
PLAYER_NAMES = ("Ann", "Bob", "Cy", "Dee")

Draw = Callable[[st.SearchStrategy[Any]], Any]
View = dict[str, Any]


@pytest.fixture(scope="module")
def app(local_store: Store) -> Iterator[TableBank]:
    """One bank for the module, every example playing its own game in it: on a SQLite file, so
    that replay and verify read through a store's own SELECT (test_fast_reads.py holds that
    SELECT to the library's reading on every store of the matrix). The properties run once."""
    db = local_store.new()
    bank = TableBank(env=persistence_env(db))
    yield bank
    bank.close()
    local_store.drop(db)


# -- drawing plausible transactions from the table as it stands ------------------------------


def active(view: View) -> list[str]:
    """Players who may still act: the bankrupt too where they play on (house rule)."""
    keep = view["options"]["keep_bankrupt_players"]
    return [p["id"] for p in view["players"] if keep or not p["bankrupt"]]


def owned(view: View, owner: str | None = None) -> list[str]:
    """Deeds some player (or ``owner``) holds."""
    return [
        s
        for s, p in view["properties"].items()
        if p["owner"] != "bank" and (owner is None or p["owner"] == owner)
    ]


def level(prop: dict[str, Any]) -> int:
    return 5 if prop["hotel"] else int(prop["houses"])


def two_players(draw: Draw, view: View) -> tuple[str, str]:
    players = active(view)
    if len(players) < 2:  # one left in the game: the rules refuse the others
        players = [p["id"] for p in view["players"]]
    frm = draw(st.sampled_from(players))
    to = draw(st.sampled_from([p for p in players if p != frm]))
    return frm, to


def salary(draw: Draw, view: View) -> dict[str, Any]:
    return {"type": "salary", "player": draw(st.sampled_from(active(view)))}


def payment(draw: Draw, view: View) -> dict[str, Any]:
    accounts = ["bank", "pot", *active(view)]
    frm = draw(st.sampled_from(accounts))
    to = draw(st.sampled_from([a for a in accounts if a != frm]))
    amount = draw(st.integers(1, 300))
    return {"type": "payment", "from": frm, "to": to, "amount": amount}


def card(draw: Draw, view: View) -> dict[str, Any]:
    player = draw(st.sampled_from(active(view)))
    effect = draw(st.sampled_from(["collect", "pay", "collect_from_each", "pay_each", "repairs"]))
    body = {"type": "card", "player": player, "effect": effect}
    if effect == "repairs":
        per_house, per_hotel = draw(st.sampled_from([(25, 100), (40, 115)]))
        body.update(per_house=per_house, per_hotel=per_hotel)
    else:
        body["amount"] = draw(st.sampled_from([10, 50, 100, 150, 200, 500]))
    return body


def buy(draw: Draw, view: View) -> dict[str, Any]:
    player = draw(st.sampled_from(active(view)))
    free = [s for s, p in view["properties"].items() if p["owner"] == "bank"]
    # Prefer a deed that brings the buyer closer to a whole group.
    mine = {DEEDS[s].group for s in owned(view, player)}
    closer = [s for s in free if DEEDS[s].group in mine]
    pool = closer if closer and draw(st.booleans()) else free or list(DEEDS)
    return {"type": "buy", "player": player, "property": draw(st.sampled_from(pool))}


def auction(draw: Draw, view: View) -> dict[str, Any]:
    free = [s for s, p in view["properties"].items() if p["owner"] == "bank"] or list(DEEDS)
    return {
        "type": "auction",
        "property": draw(st.sampled_from(free)),
        "winner": draw(st.sampled_from(active(view))),
        "bid": draw(st.integers(1, 400)),
    }


def rent(draw: Draw, view: View) -> dict[str, Any]:
    deeds = owned(view) or list(DEEDS)
    slug = draw(st.sampled_from(deeds))
    owner = view["properties"][slug]["owner"]
    payers = [p for p in active(view) if p != owner] or active(view)
    payer = view["turn"] if view["turn"] in payers else draw(st.sampled_from(payers))
    body: dict[str, Any] = {"type": "rent", "payer": payer, "property": slug}
    if DEEDS[slug].kind == "utility":
        body["dice"] = draw(st.integers(2, 12))
    if draw(st.integers(0, 4)) == 0:
        body["multiplier"] = 2
    return body


def tax(draw: Draw, view: View) -> dict[str, Any]:
    body = {"type": "tax", "player": draw(st.sampled_from(active(view)))}
    body["tax"] = draw(st.sampled_from(["income", "luxury"]))
    if body["tax"] == "income":
        mode = view["options"]["income_tax"]
        if mode == "choice" or draw(st.booleans()):
            body["choice"] = draw(st.sampled_from(["flat", "percent"]))
    return body


def whole_groups(view: View) -> list[str]:
    """Colour groups that one player holds whole."""
    props = view["properties"]
    return [
        g
        for g in STREET_GROUPS
        if len({props[s]["owner"] for s in GROUPS[g]}) == 1
        and props[GROUPS[g][0]]["owner"] != "bank"
    ]


def build(draw: Draw, view: View) -> dict[str, Any]:
    """Build a round on a whole group; with no whole group, take a step towards one."""
    props = view["properties"]
    whole = whole_groups(view)
    if not whole:
        group = draw(st.sampled_from(STREET_GROUPS))
        player = draw(st.sampled_from(active(view)))
        for slug in GROUPS[group]:
            holder = props[slug]["owner"]
            if holder == "bank":
                return {"type": "buy", "player": player, "property": slug}
            if holder != player:
                cash = DEEDS[slug].price
                return {
                    "type": "trade",
                    "legs": [
                        {"from": holder, "to": player, "properties": [slug]},
                        {"from": player, "to": holder, "cash": cash},
                    ],
                }
        return salary(draw, view)
    group = draw(st.sampled_from(whole))
    owner = props[GROUPS[group][0]]["owner"]
    mortgaged = [s for s in GROUPS[group] if props[s]["mortgaged"]]
    if mortgaged:
        return {"type": "unmortgage", "property": mortgaged[0]}
    if view["balances"][owner] < 4 * DEEDS[GROUPS[group][0]].house_price:
        return {"type": "card", "player": owner, "effect": "collect", "amount": 500}
    low = min(level(props[s]) for s in GROUPS[group])
    if view["options"]["one_house_per_turn"] and low < 4:
        # One house a turn (house rule): a new turn, or one house on a lowest street.
        if draw(st.booleans()):
            return {"type": "turn", "player": owner}
        slug = draw(st.sampled_from([s for s in GROUPS[group] if level(props[s]) == low]))
        return {"type": "build", "property": slug}
    if draw(st.integers(0, 5)) == 0:  # one street alone: maybe uneven, maybe not
        slug = draw(st.sampled_from(GROUPS[group]))
        return {"type": "build", "property": slug, "hotel": props[slug]["houses"] == 4}
    orders = []
    for slug in GROUPS[group]:
        if level(props[slug]) == low < 5:
            orders.append({"property": slug, "hotel": True} if low == 4 else {"property": slug})
    if not orders:
        return sell_buildings(draw, view)
    return {"type": "build", "orders": orders}


def sell_buildings(draw: Draw, view: View) -> dict[str, Any]:
    props = view["properties"]
    built = [s for s, p in props.items() if level(p) > 0]
    if not built:
        return build(draw, view) if draw(st.booleans()) else salary(draw, view)
    draw_any = draw(st.integers(0, 5)) == 0
    group = GROUPS[DEEDS[draw(st.sampled_from(built))].group]
    top = max(level(props[s]) for s in group)
    # From the highest street of the group (evenly), or now and then from any.
    slug = draw(st.sampled_from([s for s in group if level(props[s]) == top or draw_any]))
    if props[slug]["hotel"]:
        return {
            "type": "sell_buildings",
            "property": slug,
            "hotel": True,
            "break_down": draw(st.booleans()),
        }
    return {"type": "sell_buildings", "property": slug, "houses": 1}


def mortgage(draw: Draw, view: View) -> dict[str, Any]:
    props = view["properties"]
    free = [s for s in owned(view) if not props[s]["mortgaged"]] or owned(view) or list(DEEDS)
    return {"type": "mortgage", "property": draw(st.sampled_from(free))}


def unmortgage(draw: Draw, view: View) -> dict[str, Any]:
    props = view["properties"]
    held = [s for s in owned(view) if props[s]["mortgaged"]]
    if not held:
        return mortgage(draw, view)
    return {"type": "unmortgage", "property": draw(st.sampled_from(held))}


def trade(draw: Draw, view: View) -> dict[str, Any]:
    frm, to = two_players(draw, view)
    mine = owned(view, frm)
    deeds = draw(st.lists(st.sampled_from(mine), max_size=2, unique=True)) if mine else []
    cards = [d for d in DECKS if view["jail_cards"][d] == frm]
    leg: dict[str, Any] = {"from": frm, "to": to, "properties": deeds}
    if cards and draw(st.booleans()):
        leg["jail_cards"] = cards[:1]
    if (not deeds and "jail_cards" not in leg) or draw(st.booleans()):
        leg["cash"] = draw(st.integers(1, 200))
    legs = [leg]
    if draw(st.booleans()):
        legs.append({"from": to, "to": frm, "cash": draw(st.integers(1, 200))})
    body: dict[str, Any] = {"type": "trade", "legs": legs}
    lifted = [s for s in deeds if view["properties"][s]["mortgaged"]]
    if lifted and draw(st.booleans()):
        body["unmortgage"] = lifted
    return body


def void(draw: Draw, view: View) -> dict[str, Any]:
    last = view["last_seq"]
    if draw(st.booleans()):
        seq = last - draw(st.integers(0, min(4, last - 1)))
    else:
        seq = draw(st.integers(1, last))
    return {"type": "void", "seq": seq, "reason": "recorded in error"}


def jail(draw: Draw, view: View) -> dict[str, Any]:
    player = draw(st.sampled_from(active(view)))
    kind = draw(st.sampled_from(["go_to_jail", "jail_fine", "leave_jail", "jail_card"]))
    if kind != "jail_card":
        return {"type": kind, "player": player}
    deck = draw(st.sampled_from(DECKS))
    holder = view["jail_cards"][deck]
    if holder not in ("deck", player) and holder in active(view):
        player = holder
    action = "draw" if holder == "deck" else "use"
    return {"type": "jail_card", "player": player, "action": action, "deck": deck}


def turn(draw: Draw, view: View) -> dict[str, Any]:
    return {"type": "turn", "player": draw(st.sampled_from(active(view)))}


def pot_collect(draw: Draw, view: View) -> dict[str, Any]:
    return {"type": "pot_collect", "player": draw(st.sampled_from(active(view)))}


def bankruptcy(draw: Draw, view: View) -> dict[str, Any]:
    debtor = draw(st.sampled_from(active(view)))
    creditor = draw(st.sampled_from(["bank", *[p for p in active(view) if p != debtor]]))
    body: dict[str, Any] = {"type": "bankruptcy", "debtor": debtor, "creditor": creditor}
    if draw(st.booleans()):
        body["owed"] = draw(st.sampled_from([50, 5000, 50000]))
    return body


def iou(draw: Draw, view: View) -> dict[str, Any]:
    """Issue an IOU (refused without the player_loans house rule), or repay, pass or forgive one."""
    open_ious = [i for i in view["ious"] if i["outstanding"] > 0]
    if not open_ious or draw(st.integers(0, 2)) == 0:
        debtor, creditor = two_players(draw, view)
        amount = draw(st.integers(1, 300))
        return {"type": "iou", "debtor": debtor, "creditor": creditor, "amount": amount}
    held = draw(st.sampled_from(open_ious))
    action = draw(st.sampled_from(["iou_repay", "iou_transfer", "iou_forgive"]))
    body: dict[str, Any] = {"type": action, "iou": held["id"]}
    if action == "iou_repay":
        body["amount"] = draw(st.integers(1, held["outstanding"]))
    elif action == "iou_transfer":
        body["to"] = draw(st.sampled_from(active(view)))
    return body


def finish(draw: Draw, view: View) -> dict[str, Any]:
    return {"type": "finish"}


# Weights: how many times each move appears in the list drawn from.
MOVES: list[Callable[[Draw, View], dict[str, Any]]] = [
    *[salary] * 3,
    *[payment] * 3,
    *[card] * 2,
    *[buy] * 5,
    *[auction] * 1,
    *[rent] * 4,
    *[tax] * 2,
    *[build] * 5,
    *[sell_buildings] * 2,
    *[mortgage] * 2,
    *[unmortgage] * 2,
    *[trade] * 2,
    *[void] * 3,
    *[jail] * 2,
    *[turn] * 1,
    *[pot_collect] * 1,
    *[iou] * 2,
    bankruptcy,
    finish,
]
RARE = (bankruptcy, finish)


def play(bank: TableBank, draw: Draw) -> str:
    """Create a random classic game and record a random run of transactions in it."""
    players = list(PLAYER_NAMES[: draw(st.integers(2, 4))])
    options = {
        "free_parking_pot": draw(st.booleans()),
        "no_rent_in_jail": draw(st.booleans()),
        "player_loans": draw(st.booleans()),
        "keep_bankrupt_players": draw(st.booleans()),
        "one_house_per_turn": draw(st.integers(0, 3)) == 0,
        "income_tax": draw(st.sampled_from(["choice", "flat", "percent"])),
        "luxury_tax": draw(st.sampled_from([75, 100])),
    }
    gid = str(bank.create_game("audit", "classic", players, options)["id"])
    note(f"game of {players} with {options}")
    # Past 100 transactions a game is loaded from a snapshot: one game in six goes that far.
    long_game = draw(st.integers(0, 5)) == 0
    for _ in range(draw(st.integers(101, 115) if long_game else st.integers(5, 60))):
        view = bank.game(gid)
        if view["status"] == "finished":
            break
        move = draw(st.sampled_from(MOVES))
        if move in RARE and draw(st.integers(0, 3)) != 0:
            move = salary
        elif whole_groups(view) and draw(st.integers(0, 2)) == 0:
            move = build
        body = move(draw, view)
        memo = draw(st.one_of(st.none(), st.none(), st.text(max_size=8)))
        if memo is not None:
            body["memo"] = memo
        try:
            txn = bank.record(gid, body)
        except LedgerError as err:
            note(f"refused {body}: {err.code}")
        else:
            note(f"#{txn['seq']} {body}")
    return gid


def exported(bank: TableBank, gid: str) -> dict[str, Any]:
    """The game's export as a client would read it back from a file."""
    return json.loads(json.dumps(bank.export(gid)))


# -- the JSON walk used to tamper with one field ---------------------------------------------

Path = tuple[str | int, ...]


def leaves(value: Any, path: Path = ()) -> Iterator[Path]:
    """The path of every leaf (scalar, empty list or empty object) under ``value``."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path


def changed(value: Any) -> Any:
    """Another value of the same JSON leaf: numbers +1, strings changed, booleans negated."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 0
    if value == []:
        return [0]
    if value == {}:
        return {"x": 0}
    raise AssertionError(f"not a JSON leaf: {value!r}")  # pragma: no cover


def tamper(document: dict[str, Any], path: Path) -> None:
    """Change the leaf at ``path`` in place."""
    parent: Any = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = changed(parent[path[-1]])


def refused_at(document: dict[str, Any], bank: TableBank) -> int:
    """Import a document the ledger must refuse; the seq it names."""
    with pytest.raises(LogInvalid) as caught:
        bank.import_game(document)
    assert caught.value.code == "log_invalid"
    return int(caught.value.extra["seq"])


# -- the properties ---------------------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_replay_equals_the_live_state_at_every_seq(app: TableBank, data: st.DataObject) -> None:
    gid = play(app, data.draw)
    live = app.game(gid)
    steps = app.replay(gid)["steps"]
    assert [s["seq"] for s in steps] == list(range(1, live["last_seq"] + 1))
    for n, step in enumerate(steps, start=1):
        then = app.game(gid, seq=n)
        assert step["balances"] == then["balances"], n
        assert step["net_worths"] == {p["id"]: p["net_worth"] for p in then["players"]}, n
        assert step["transaction"]["balances"] == then["balances"], n
    # The last step is the live game, as cached and as loaded from the store.
    assert app.game(gid, seq=live["last_seq"]) == live
    assert [s["transaction"] for s in steps] == list(app.transactions(gid))


@SETTINGS
@given(st.data())
def test_export_then_import_gives_the_same_game_and_the_same_export(
    app: TableBank, data: st.DataObject
) -> None:
    gid = play(app, data.draw)
    document = exported(app, gid)
    imported = app.import_game(copy.deepcopy(document))
    original, again = app.game(gid), app.game(imported["id"])
    assert again["id"] != original["id"]
    for field in ("balances", "properties", "bank", "last_seq", "head", "status", "jail_cards"):
        assert again[field] == original[field], field
    assert again["players"] == original["players"]  # cash, net_worth, jail_cards, in_jail...
    assert {**again, "id": gid} == original
    assert exported(app, imported["id"]) == document


@SETTINGS
@given(st.data())
def test_changing_any_field_of_any_transaction_is_refused_at_its_seq(
    app: TableBank, data: st.DataObject
) -> None:
    gid = play(app, data.draw)
    document = exported(app, gid)
    txn = data.draw(st.sampled_from(document["transactions"]))
    paths = [p for p in leaves(txn) if p[0] != "voided_by"]
    path = data.draw(st.sampled_from(paths))
    seq = txn["seq"]
    note(f"changing {path} of transaction {seq}: {txn}")
    tamper(txn, path)
    assert refused_at(document, app) == seq
    assert verify_document(document)["seq"] == seq


@SETTINGS
@given(st.data())
def test_voided_by_is_not_hashed_and_import_ignores_it(app: TableBank, data: st.DataObject) -> None:
    gid = play(app, data.draw)
    document = exported(app, gid)
    forged = copy.deepcopy(document)
    txn = data.draw(st.sampled_from(forged["transactions"]))
    tamper(txn, ("voided_by",))
    imported = app.import_game(forged)
    # The imported game says which transactions were voided from its own log, not the file's.
    assert exported(app, imported["id"]) == document


@SETTINGS
@given(st.data())
def test_a_forger_who_recomputes_every_hash_is_caught_by_the_rules_at_that_seq(
    app: TableBank, data: st.DataObject
) -> None:
    gid = play(app, data.draw)
    document = exported(app, gid)
    txns = document["transactions"]
    txn = data.draw(st.sampled_from(txns))
    facts = [p for p in leaves(txn) if p[0] in ("postings", "changes", "basis", "balances")]
    path = data.draw(st.sampled_from(facts))
    seq = txn["seq"]
    note(f"changing {path} of transaction {seq}, then every hash from it on")
    tamper(txn, path)
    head = txns[seq - 2]["hash"] if seq > 1 else app.game(gid, seq=0)["head"]  # the genesis
    for later in txns[seq - 1 :]:
        later["hash"] = head = chain_hash(head, later)
    document["head"] = head
    assert refused_at(document, app) == seq


@SETTINGS
@given(st.data())
def test_verify_is_ok_and_ends_at_the_states_head(app: TableBank, data: st.DataObject) -> None:
    gid = play(app, data.draw)
    state = app.game(gid)
    assert app.verify(gid) == {"ok": True, "transactions": state["last_seq"], "head": state["head"]}
    assert verify_document(exported(app, gid)) == {
        "ok": True,
        "transactions": state["last_seq"],
        "head": state["head"],
    }


# -- the header ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_game(app: TableBank) -> dict[str, Any]:
    """Ann and Bob (set-up is transactions 1-2), then a salary and a purchase."""
    gid = app.create_game("Friday night", "classic", ["Ann", "Bob"])["id"]
    app.record(gid, {"type": "salary", "player": "p1"})
    app.record(gid, {"type": "buy", "player": "p2", "property": "boardwalk"})
    return exported(app, gid)


def _set(path: Path, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        parent: Any = document
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = value

    return change


def _drop_option(document: dict[str, Any]) -> None:
    del document["game"]["options"]["free_parking_pot"]


def _add_player(document: dict[str, Any]) -> None:
    document["game"]["players"].append("Cy")


def _change_deed_price(document: dict[str, Any]) -> None:
    document["game"]["ruleset"]["deeds"][0]["price"] += 2  # prices are even


# A changed header the chain covers (name, players, options, rule set, created) that is still a
# valid header: the genesis hash differs, so transaction 1 no longer matches its hash. A header
# that is not valid at all (an option out of range, of the wrong type, missing or unknown; another
# format): refused before any transaction, seq 0. A changed head: one past the last transaction.
HEADER_CHANGES = {
    "game name": (_set(("game", "name"), "Friday nightx"), 1),
    "a player's name": (_set(("game", "players", 1), "Bobx"), 1),
    "an extra player": (_add_player, 1),
    "a boolean option": (_set(("game", "options", "free_parking_pot"), True), 1),
    "an amount option": (_set(("game", "options", "luxury_tax"), 76), 1),
    "a choice option": (_set(("game", "options", "income_tax"), "flat"), 1),
    "a deed's printed price": (_change_deed_price, 1),
    "an option out of its choices": (_set(("game", "options", "income_tax"), "choicex"), 0),
    "an option of the wrong type": (_set(("game", "options", "player_loans"), "yes"), 0),
    "a missing option": (_drop_option, 0),
    "an unknown option": (_set(("game", "options", "x"), 0), 0),
    "the format": (_set(("format",), "tablebank-log/2"), 0),
    "the head": (_set(("head",), "0" * 64), 5),
    "the creation time": (_set(("game", "created"), "2000-01-01T00:00:00.000Z"), 1),
}


@pytest.mark.parametrize("what", list(HEADER_CHANGES))
def test_a_changed_header_is_refused_with_its_seq(
    app: TableBank, short_game: dict[str, Any], what: str
) -> None:
    change, seq = HEADER_CHANGES[what]
    document = copy.deepcopy(short_game)
    change(document)
    assert refused_at(document, app) == seq


def test_the_unchanged_header_imports(app: TableBank, short_game: dict[str, Any]) -> None:
    imported = app.import_game(copy.deepcopy(short_game))
    assert exported(app, imported["id"]) == short_game
