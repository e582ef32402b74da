"""The state of one table and the one function that changes it: ``apply_transaction``.

The state is plain data (dicts, lists, str, int, bool) so that it snapshots as JSON and copies
cheaply. Every change a transaction makes is written down in the transaction itself, as
postings (money) and ``changes`` (everything else), each change with its ``from`` and ``to``
values; applying a transaction only sets those values, it never decides anything. The same
function applies a draft while a command is checked and a stored event when a game is loaded.

The parts of the state and the kinds of change are declared once, in ``ledger.changes``
(``PARTS``, ``CHANGES``; its docstring has the table of kinds): a new state, a copy and the
application of a change are made from there.
"""

from __future__ import annotations

from typing import Any

from ledger.changes import CHANGES, EMPTY, JAIL_DECKS, PARTS, NewTable, State

__all__ = [
    "JAIL_DECKS",
    "State",
    "apply_change",
    "apply_posting",
    "apply_transaction",
    "copy_state",
    "new_state",
]

# What the write path looks up: each part's copy, each kind's application.
_COPIED = tuple((p.name, p.copy) for p in PARTS.values() if p.copy is not None and not p.late)
_COPIED_LATE = tuple((p.name, p.copy) for p in PARTS.values() if p.copy is not None and p.late)
_APPLY = {k.kind: k.apply for k in CHANGES.values()}


def new_state(
    players: list[str],
    deeds: list[str],
    houses: int | None,
    hotels: int | None,
    share_price: int | None = None,
) -> State:
    """The table before any money moves: every deed, house and hotel with the Bank."""
    table = NewTable(players, deeds, houses, hotels, share_price)
    return {name: part.new(table) for name, part in PARTS.items()}


def copy_state(state: State) -> State:
    """A copy deep enough that applying a transaction to it leaves ``state`` untouched."""
    copy = dict(state)
    for name, copy_part in _COPIED:
        copy[name] = copy_part(state[name])
    for name, copy_part in _COPIED_LATE:
        copy[name] = copy_part(state.get(name, EMPTY))
    return copy


def apply_posting(state: State, posting: dict[str, Any]) -> None:
    """Move ``amount`` from one account to another."""
    balances = state["balances"]
    balances[posting["from"]] -= posting["amount"]
    balances[posting["to"]] += posting["amount"]


def apply_change(state: State, change: dict[str, Any]) -> None:
    """Set what one change says; the only place state other than money is written."""
    try:
        apply = _APPLY[change["kind"]]
    except KeyError:  # pragma: no cover - a programming error, never input
        raise ValueError(f"unknown change kind {change['kind']!r}") from None
    apply(state, change)


def apply_transaction(state: State, txn: dict[str, Any]) -> None:
    """Apply a recorded (or drafted) transaction's postings and changes."""
    for posting in txn["postings"]:
        apply_posting(state, posting)
    for change in txn["changes"]:
        apply_change(state, change)
    state["last_seq"] = txn["seq"]
    state["head"] = txn["hash"]
