"""Reading a game's log, and the list of games, the way clients ask for them: a page at a
time."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Any

Transaction = dict[str, Any]


def transaction_page(
    transactions: Iterable[Transaction],
    *,
    account: str | None = None,
    kind: str | None = None,
    deed: str | None = None,
    after: int | None = None,
    limit: int = 100,
) -> dict[str, Any]:
    """Up to ``limit`` transactions after seq ``after`` that pass the filters, in seq order;
    ``next`` is the cursor to pass as ``after`` for the next page, or None after the last."""
    wanted = (
        txn
        for txn in transactions
        if txn["seq"] > (after or 0)
        and (account is None or moves_money_of(txn, account))
        and (kind is None or txn["type"] == kind)
        and (deed is None or deed in deeds_of(txn))
    )
    items = list(islice(wanted, limit + 1))
    more = len(items) > limit
    items = items[:limit]
    return {"items": items, "next": str(items[-1]["seq"]) if more else None}


def game_page(games: Iterable[tuple[int, dict[str, Any]]], limit: int = 100) -> dict[str, Any]:
    """Up to ``limit`` of the ``games`` (each with its place in the list of games), in the
    order they were created; ``next`` is the cursor to pass as ``after`` for the next page,
    or None after the last.

    The cursor is a place in the whole list, whatever the filter: the list only grows at its
    end, so it stays good for later pages, even when a game's status changes meanwhile."""
    found = list(islice(games, limit + 1))
    more = len(found) > limit
    items = [game for _, game in found[:limit]]
    return {"items": items, "next": str(found[limit - 1][0] + 1) if more else None}


def moves_money_of(txn: Transaction, account: str) -> bool:
    """Whether any posting of the transaction is into or out of ``account``."""
    return any(account in (p["from"], p["to"]) for p in txn["postings"])


def deeds_of(txn: Transaction) -> set[str]:
    """The deeds a transaction is about: the one it names and every one it changed."""
    deeds = {c["property"] for c in txn.get("changes", []) if "property" in c}
    named = txn.get("request", {}).get("property")
    if isinstance(named, str):
        deeds.add(named)
    return deeds
