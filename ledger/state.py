"""The state of one table and the one function that changes it: ``apply_transaction``.

The state is plain data (dicts, lists, str, int, bool) so that it snapshots as JSON and copies
cheaply. Every change a transaction makes is written down in the transaction itself, as
postings (money) and ``changes`` (everything else), each change with its ``from`` and ``to``
values; applying a transaction only sets those values, it never decides anything. The same
function applies a draft while a command is checked and a stored event when a game is loaded.

Change kinds (every one has ``kind``, ``from`` and ``to``)::

    deed       property   owner: "bank" or a player id
    mortgage   property   mortgaged: bool
    houses     property   house count on the street (the Bank's supply moves the other way)
    hotel      property   bool (the Bank's hotel supply moves the other way)
    jail_card  deck       holder: "deck" or a player id
    jail       player     in jail: bool
    bankrupt   player     None, then the seq of the bankruptcy
    turn       -          the player whose turn it is, or None
    status     -          "active" or "finished" (with ``standings`` when finished)
    void       seq        None, then the seq of the void that reversed transaction ``seq``
    iou        iou        None, then the IOU's record (debtor, holder, amount, outstanding)
    iou_outstanding iou   what the debtor still owes on it
    iou_holder iou        who holds it
    built_this_turn player houses a player has built since the last recorded turn
    figure     property   a figure the banker entered where the rule set prints none:
                          {"field": "price" or "building_price"}
    share_price -         the price of a share (Millionaire Elite)
    shares     player     shares a player holds
    policy     player     {"policy": colour}: held (True) or not (False)
    exempt     player     the next round tax is waived (True) or not (False)
    first_lap  player     the player's first salary on GO is recorded (True) or not (False);
                          recorded only under the house rule buy_after_first_lap
    dispute    dispute    None, then the dispute's record (seq, about, by, reason, status
                          "open", resolved_by None, note None)
    dispute_status dispute {"status", "resolved_by", "note"}: open, then upheld (by a
                          dispute_resolve) or voided (by the void that reversed ``about``)

The Bank's supply of houses or hotels may be None: no limit (Millionaire Elite).

``first_lap`` and ``disputes`` came after the first stored games: a state snapshotted before
them lacks them, so they are read with ``.get`` and set with ``setdefault``.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]

JAIL_DECKS = ("chance", "community_chest")


def new_state(
    players: list[str],
    deeds: list[str],
    houses: int | None,
    hotels: int | None,
    share_price: int | None = None,
) -> State:
    """The table before any money moves: every deed, house and hotel with the Bank."""
    return {
        "status": "active",
        "players": {
            f"p{i}": {"name": name, "bankrupt_seq": None, "in_jail": False}
            for i, name in enumerate(players, start=1)
        },
        "balances": {
            "bank": 0,
            "pot": 0,
            **{f"p{i}": 0 for i in range(1, len(players) + 1)},
        },
        "properties": {
            slug: {"owner": "bank", "mortgaged": False, "houses": 0, "hotel": False}
            for slug in deeds
        },
        "supply": {"houses": houses, "hotels": hotels},
        "jail_cards": {deck: "deck" for deck in JAIL_DECKS},
        "turn": None,
        "standings": None,
        "voided": {},
        "ious": {},
        "built_this_turn": {},
        "figures": {},
        "shares": None if share_price is None else {"price": share_price, "held": {}},
        "policies": {},
        "exempt": {},
        "first_lap": {},
        "disputes": {},
        "last_seq": 0,
        "head": "",
    }


def copy_state(state: State) -> State:
    """A copy deep enough that applying a transaction to it leaves ``state`` untouched."""
    return {
        **state,
        "players": {k: dict(v) for k, v in state["players"].items()},
        "balances": dict(state["balances"]),
        "properties": {k: dict(v) for k, v in state["properties"].items()},
        "supply": dict(state["supply"]),
        "jail_cards": dict(state["jail_cards"]),
        "voided": dict(state["voided"]),
        "ious": {k: dict(v) for k, v in state["ious"].items()},
        "built_this_turn": dict(state["built_this_turn"]),
        "figures": {k: dict(v) for k, v in state["figures"].items()},
        "shares": None
        if state["shares"] is None
        else {"price": state["shares"]["price"], "held": dict(state["shares"]["held"])},
        "policies": {k: list(v) for k, v in state["policies"].items()},
        "exempt": dict(state["exempt"]),
        "first_lap": dict(state.get("first_lap", {})),
        "disputes": {k: dict(v) for k, v in state.get("disputes", {}).items()},
    }


def apply_posting(state: State, posting: dict[str, Any]) -> None:
    """Move ``amount`` from one account to another."""
    balances = state["balances"]
    balances[posting["from"]] -= posting["amount"]
    balances[posting["to"]] += posting["amount"]


def apply_change(state: State, change: dict[str, Any]) -> None:
    """Set what one change says; the only place state other than money is written."""
    kind, to = change["kind"], change["to"]
    if kind == "deed":
        state["properties"][change["property"]]["owner"] = to
    elif kind == "mortgage":
        state["properties"][change["property"]]["mortgaged"] = to
    elif kind == "houses":
        state["properties"][change["property"]]["houses"] = to
        if state["supply"]["houses"] is not None:
            state["supply"]["houses"] -= to - change["from"]
    elif kind == "hotel":
        state["properties"][change["property"]]["hotel"] = to
        if state["supply"]["hotels"] is not None:
            state["supply"]["hotels"] -= int(to) - int(change["from"])
    elif kind == "jail_card":
        state["jail_cards"][change["deck"]] = to
    elif kind == "jail":
        state["players"][change["player"]]["in_jail"] = to
    elif kind == "bankrupt":
        state["players"][change["player"]]["bankrupt_seq"] = to
    elif kind == "turn":
        state["turn"] = to
    elif kind == "void":
        if to is None:
            state["voided"].pop(str(change["seq"]), None)
        else:
            state["voided"][str(change["seq"])] = to
    elif kind == "iou":
        if to is None:
            del state["ious"][change["iou"]]
        else:
            state["ious"][change["iou"]] = dict(to)
    elif kind == "iou_outstanding":
        state["ious"][change["iou"]]["outstanding"] = to
    elif kind == "iou_holder":
        state["ious"][change["iou"]]["holder"] = to
    elif kind == "built_this_turn":
        if to:
            state["built_this_turn"][change["player"]] = to
        else:
            state["built_this_turn"].pop(change["player"], None)
    elif kind == "figure":
        figures = state["figures"].setdefault(change["property"], {})
        if to is None:
            figures.pop(change["field"], None)
        else:
            figures[change["field"]] = to
        if not figures:
            del state["figures"][change["property"]]
    elif kind == "share_price":
        state["shares"]["price"] = to
    elif kind == "shares":
        if to:
            state["shares"]["held"][change["player"]] = to
        else:
            state["shares"]["held"].pop(change["player"], None)
    elif kind == "policy":
        held = state["policies"].setdefault(change["player"], [])
        if to:
            held.append(change["policy"])
        else:
            held.remove(change["policy"])
        if not held:
            del state["policies"][change["player"]]
    elif kind == "exempt":
        if to:
            state["exempt"][change["player"]] = True
        else:
            state["exempt"].pop(change["player"], None)
    elif kind == "first_lap":
        laps = state.setdefault("first_lap", {})
        if to:
            laps[change["player"]] = True
        else:
            laps.pop(change["player"], None)
    elif kind == "dispute":
        disputes = state.setdefault("disputes", {})
        if to is None:
            disputes.pop(str(change["dispute"]), None)
        else:
            disputes[str(change["dispute"])] = dict(to)
    elif kind == "dispute_status":
        state["disputes"][str(change["dispute"])].update(to)
    elif kind == "status":
        state["status"] = to
        state["standings"] = change.get("standings") if to == "finished" else None
    else:  # pragma: no cover - a programming error, never input
        raise ValueError(f"unknown change kind {kind!r}")


def apply_transaction(state: State, txn: dict[str, Any]) -> None:
    """Apply a recorded (or drafted) transaction's postings and changes."""
    for posting in txn["postings"]:
        apply_posting(state, posting)
    for change in txn["changes"]:
        apply_change(state, change)
    state["last_seq"] = txn["seq"]
    state["head"] = txn["hash"]
