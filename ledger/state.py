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

from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, cast

from ledger.changes import (
    CHANGES,
    EMPTY,
    JAIL_DECKS,
    PARTS,
    DisputeEntry,
    IouEntry,
    NewTable,
    PlayerEntry,
    PropertyEntry,
    Shares,
    Standing,
    State,
    Supply,
    parts_of,
    shares_of,
)

__all__ = [
    "JAIL_DECKS",
    "LAZY_PARTS",
    "DisputeEntry",
    "IouEntry",
    "Overlay",
    "PlayerEntry",
    "PropertyEntry",
    "Shares",
    "Standing",
    "State",
    "Supply",
    "apply_change",
    "apply_posting",
    "apply_transaction",
    "copy_state",
    "new_state",
    "shares_of",
]

# What the write path looks up: each part's copy, each kind's application.
_COPIED = tuple((p.name, p.copy) for p in PARTS.values() if p.copy is not None and not p.late)
_COPIED_LATE = tuple((p.name, p.copy) for p in PARTS.values() if p.copy is not None and p.late)
_APPLY = {k.kind: k.apply for k in CHANGES.values()}
LAZY_PARTS = frozenset(p.name for p in PARTS.values() if p.copy is not None and p.lazy)


def new_state(
    players: list[str],
    deeds: list[str],
    houses: int | None,
    hotels: int | None,
    share_price: int | None = None,
) -> State:
    """The table before any money moves: every deed, house and hotel with the Bank."""
    table = NewTable(players, deeds, houses, hotels, share_price)
    return cast(State, {name: part.new(table) for name, part in PARTS.items()})


def copy_state(state: State, *, share_lazy: bool = False) -> State:
    """A copy deep enough that applying a transaction to it leaves ``state`` untouched. With
    ``share_lazy`` (a draft's copy, a state checked against the log), each lazy part
    (``Part.lazy``) is an ``Overlay`` of ``state``'s instead: made at once however long the
    part has grown, read through to it, written on its own."""
    named = parts_of(state)
    copy = dict(named)
    for name, copy_part in _COPIED:
        copy[name] = (
            Overlay(named[name]) if share_lazy and name in LAZY_PARTS else copy_part(named[name])
        )
    for name, copy_part in _COPIED_LATE:
        value = named.get(name, EMPTY)
        copy[name] = Overlay(value) if share_lazy and name in LAZY_PARTS else copy_part(value)
    return cast(State, copy)


class Overlay(MutableMapping[str, Any]):
    """A mapping read through to ``base`` and written on its own, which ``base`` never sees:
    a copy of a part that grows with the game (the voids), made in constant time.

    An overlay of an overlay reads through to the first one's base, with its writes copied:
    never more than one level. ``base`` must not change while an overlay of it is in use (a
    draft's lasts one ``record``; a checked state's, the check)."""

    __slots__ = ("base", "removed", "written")

    def __init__(self, base: Mapping[str, Any]) -> None:
        if isinstance(base, Overlay):
            self.base: Mapping[str, Any] = base.base
            self.written: dict[str, Any] = dict(base.written)
            self.removed: set[str] = set(base.removed)
        else:
            self.base, self.written, self.removed = base, {}, set()

    def __getitem__(self, key: str) -> Any:
        if key in self.written:
            return self.written[key]
        if key in self.removed:
            raise KeyError(key)
        return self.base[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.written[key] = value
        self.removed.discard(key)

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self.written.pop(key, None)
        self.removed.add(key)

    def __iter__(self) -> Iterator[str]:
        for key in self.base:
            if key not in self.removed and key not in self.written:
                yield key
        yield from self.written

    def __len__(self) -> int:
        return sum(1 for _ in self)


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
