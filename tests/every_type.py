"""Games that record every transaction type, each in the forms that give its basis its keys:
a classic game with the house rules that add types (player loans, the Free Parking pot) and a
Millionaire Elite game for its own. The API tests read the basis keys the ledger emits off
them (tests/api/test_basis_labels.py), the browser tests every history row, preview and toast
in each language (tests/e2e/test_console_words.py).

``play(steps, record, state)`` records them through any client: ``record(body)`` answers the
transaction recorded, ``state()`` the game's state; a step is a request body, or a callable
that makes one of the state and the transactions recorded so far by type.

Imported as ``from every_type import ...`` (pytest puts ``tests`` on the path).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Body = dict[str, Any]
Txn = dict[str, Any]
Step = Body | Callable[[dict[str, Any], dict[str, Txn]], Body]

# Ann p1, Bob p2, Cy p3, Dan p4 (docs/rules.md, "Set-up and starting cash": 1500 each).
CLASSIC_PLAYERS = ["Ann", "Bob", "Cy", "Dan"]
CLASSIC_OPTIONS = {"player_loans": True, "free_parking_pot": True}


# A player's short name and the full one a rename gives (the console's tests name the players
# in the reader's language: tests/e2e/every_move.py).
FULL_NAMES = {"Dan": "Daniel", "Дима": "Дмитрий", "Darek": "Dariusz"}


def full_name(state: dict[str, Any], player: str) -> str:
    """The full name of a player the game calls by a short one (``FULL_NAMES``)."""
    return FULL_NAMES[next(p["name"] for p in state["players"] if p["id"] == player)]


def _iou(state: dict[str, Any], _: dict[str, Txn]) -> str:
    return next(i["id"] for i in state["ious"] if i["outstanding"] > 0)  # type: ignore[no-any-return]


def _open_dispute(state: dict[str, Any], _: dict[str, Txn]) -> int:
    return next(d["seq"] for d in state["disputes"] if d["status"] == "open")  # type: ignore[no-any-return]


CLASSIC: list[Step] = [
    {"type": "salary", "player": "p1"},
    {"type": "payment", "from": "p1", "to": "pot", "amount": 10},
    {"type": "payment", "from": "p2", "to": "p1", "amount": 25},
    {"type": "card", "player": "p1", "effect": "collect", "amount": 20},
    {"type": "card", "player": "p2", "effect": "pay", "amount": 15},
    {"type": "card", "player": "p1", "effect": "collect_from_each", "amount": 10},
    {"type": "card", "player": "p2", "effect": "pay_each", "amount": 10},
    {"type": "tax", "player": "p1", "tax": "luxury"},
    {"type": "tax", "player": "p2", "tax": "income", "choice": "flat"},
    {"type": "tax", "player": "p3", "tax": "income", "choice": "percent"},
    {"type": "pot_collect", "player": "p2"},
    {"type": "buy", "player": "p1", "property": "mediterranean-avenue"},
    {"type": "buy", "player": "p1", "property": "baltic-avenue"},
    {"type": "buy", "player": "p2", "property": "reading-railroad"},
    {"type": "buy", "player": "p3", "property": "electric-company"},
    {"type": "buy", "player": "p3", "property": "oriental-avenue"},
    {"type": "buy", "player": "p4", "property": "states-avenue"},
    {"type": "auction", "property": "connecticut-avenue", "winner": "p2", "bid": 50},
    {"type": "rent", "payer": "p1", "property": "reading-railroad"},
    {"type": "rent", "payer": "p1", "property": "electric-company", "dice": 7},
    {"type": "rent", "payer": "p2", "property": "mediterranean-avenue", "multiplier": 2},
    {"type": "mortgage", "property": "oriental-avenue"},
    {"type": "unmortgage", "property": "oriental-avenue"},
    {"type": "mortgage", "property": "states-avenue"},
    {"type": "build", "property": "mediterranean-avenue", "houses": 1},
    {"type": "build", "orders": [{"property": "baltic-avenue", "houses": 1}]},
    {"type": "card", "player": "p1", "effect": "repairs", "per_house": 25, "per_hotel": 100},
    {"type": "sell_buildings", "property": "mediterranean-avenue", "houses": 1},
    {"type": "jail_card", "player": "p2", "action": "draw", "deck": "chance"},
    {"type": "go_to_jail", "player": "p2"},
    {"type": "jail_card", "player": "p2", "action": "use", "deck": "chance"},
    {"type": "go_to_jail", "player": "p3"},
    {"type": "leave_jail", "player": "p3"},
    {"type": "go_to_jail", "player": "p3"},
    {"type": "jail_fine", "player": "p3"},
    {"type": "jail_card", "player": "p3", "action": "draw", "deck": "community_chest"},
    {
        "type": "trade",
        "legs": [
            {"from": "p2", "to": "p3", "properties": ["connecticut-avenue"], "cash": 20},
            {"from": "p3", "to": "p2", "jail_cards": ["community_chest"]},
        ],
    },
    {"type": "iou", "debtor": "p1", "creditor": "p2", "amount": 30},
    lambda s, _: {"type": "iou_repay", "iou": _iou(s, _), "amount": 10},
    lambda s, _: {"type": "iou_transfer", "iou": _iou(s, _), "to": "p3"},
    lambda s, _: {"type": "iou_forgive", "iou": _iou(s, _)},
    lambda s, _: {"type": "rename_player", "player": "p4", "name": full_name(s, "p4")},
    {"type": "turn", "player": "p1"},
    {"type": "turn", "player": "p2"},
    lambda _, by: {"type": "void", "seq": by["turn"]["seq"], "reason": "?"},
    lambda _, by: {"type": "dispute", "seq": by["card"]["seq"], "reason": "?"},
    lambda s, _: {"type": "dispute_resolve", "dispute": _open_dispute(s, _), "note": "!"},
    lambda _, by: {"type": "dispute", "seq": by["salary"]["seq"], "reason": "?"},
    lambda s, by: {
        "type": "void",
        "seq": by["salary"]["seq"],
        "reason": "!",
        "dispute": _open_dispute(s, by),
    },
    # Dan owes Cy more than he could ever raise (docs/rules.md, "Bankruptcy"): Cy takes his
    # mortgaged States Avenue, lifting it at once.
    {
        "type": "bankruptcy",
        "debtor": "p4",
        "creditor": "p3",
        "owed": 100000,
        "unmortgage": ["states-avenue"],
    },
    {"type": "bankruptcy", "debtor": "p3", "creditor": "bank", "owed": 100000},
    {"type": "finish"},
]

ELITE_PLAYERS = ["Ann", "Bob", "Cy"]

ELITE: list[Step] = [
    {"type": "buy", "player": "p1", "property": "b1-1", "price": 200},
    {"type": "buy", "player": "p1", "property": "b1-2", "price": 240},
    {
        "type": "build",
        "orders": [{"property": "b1-1", "price": 100}, {"property": "b1-2", "price": 100}],
    },
    {"type": "build", "orders": [{"property": "b1-1"}, {"property": "b1-2"}]},
    {"type": "build", "orders": [{"property": "b1-1"}, {"property": "b1-2"}]},
    {"type": "build", "property": "b1-1", "hotel": True},
    {"type": "sell_buildings", "property": "b1-1", "hotel": True, "break_down": True},
    {"type": "shares", "player": "p2", "action": "buy", "count": 5},
    {"type": "share_price", "direction": "up", "points": 3},
    {"type": "shares", "player": "p2", "action": "sell", "count": 2},
    {
        "type": "shares",
        "player": "p3",
        "action": "buy",
        "count": 2,
        "commission_to": "p1",
        "commission": 15,
    },
    {"type": "salary", "player": "p2"},
    {"type": "insurance", "player": "p3", "action": "buy", "policy": "green"},
    {"type": "insurance", "player": "p3", "action": "buy", "policy": "red"},
    {"type": "insurance", "player": "p3", "action": "use", "policy": "red"},
    {"type": "salary", "player": "p3"},
    {"type": "tax_exemption", "player": "p2"},
    {"type": "round_tax", "player": "p2", "plot_tax": 0},
    {"type": "round_tax", "player": "p3", "plot_tax": 40},
    {"type": "jackpot", "player": "p1", "stake": 50, "payout": 0},
    {"type": "jackpot", "player": "p2", "stake": 50, "payout": 300},
    {"type": "pot_collect", "player": "p3"},
    {"type": "rent", "payer": "p2", "property": "b1-1", "amount": 75},
    {"type": "buy", "player": "p3", "property": "central-1"},
    {"type": "rent", "payer": "p1", "property": "central-1", "amount": 60, "multiplier": 2},
    {"type": "buy", "player": "p1", "property": "b2-1", "price": 100},
    {"type": "auction", "property": "b2-1", "winner": "p2", "bid": 150},
    {"type": "mortgage", "property": "b2-1"},
    {"type": "unmortgage", "property": "b2-1"},
    {
        "type": "trade",
        "legs": [
            {"from": "p2", "to": "p3", "properties": ["b2-1"]},
            {"from": "p3", "to": "p2", "cash": 120},
        ],
    },
    {"type": "iou", "debtor": "p3", "creditor": "p1", "amount": 100},
    {"type": "go_to_jail", "player": "p2"},
    {"type": "jail_fine", "player": "p2"},
    {"type": "bankruptcy", "debtor": "p3", "creditor": "p2", "owed": 5000},
    {"type": "finish"},
]


def play(
    steps: list[Step],
    record: Callable[[Body], Txn],
    state: Callable[[], dict[str, Any]],
) -> list[Txn]:
    """Records the steps in order; the transactions recorded."""
    done: list[Txn] = []
    by_type: dict[str, Txn] = {}
    for step in steps:
        body = step(state(), by_type) if callable(step) else step
        txn = record(body)
        done.append(txn)
        by_type[txn["type"]] = txn
    return done


# The kinds of field a request can be made of from the game's own listing of its moves alone: a
# type whose required fields are all of them needs no step written here (``plain_steps``).
PLAIN_KINDS = {"player", "account", "choice", "amount", "whole", "boolean"}


def plain_body(move: dict[str, Any]) -> Body | None:
    """A request for a move of ``/moves`` made of its fields alone: each required field its
    first choice, or its least amount or number; None where a required field is of another
    kind (such a type has a step of its own above)."""
    body: Body = {"type": move["type"]}
    for field in move["fields"]:
        if not field["required"] or "when" in field:
            continue
        kind, choices = field["kind"], field.get("choices")
        if kind not in PLAIN_KINDS or (kind in {"player", "account", "choice"} and not choices):
            return None
        if kind == "boolean":
            body[field["name"]] = False
        elif kind in {"amount", "whole"}:
            body[field["name"]] = field.get("min", 1)
        else:
            body[field["name"]] = choices[0]
    return body


def plain_steps(recorded: set[str], moves: list[dict[str, Any]]) -> list[Body]:
    """A request for each move of a fresh game's ``/moves`` that no game above ``recorded``
    and that ``plain_body`` can make: a new type with plain fields is recorded with no step
    written for it."""
    wanted = (plain_body(move) for move in moves if move["type"] not in recorded)
    return [body for body in wanted if body is not None]
