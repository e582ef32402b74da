"""An import's cost is linear in its log, voids included: checking a void replays the log from
the nearest kept state (every 100 transactions), never from the first transaction. Counted,
not timed: the transactions applied to rebuild the states a void's check starts from.

Before, a log of payment+void pairs cost the square of its length (2,000 pairs 1.1 s, 4,000
pairs 4 s, 8,000 pairs 20 s); benchmarks aside, this count is what would grow.
"""

from __future__ import annotations

from typing import Any

import pytest

import ledger.exchange
from ledger.application import TableBank


def paired_log(bank: TableBank, pairs: int) -> dict[str, Any]:
    """A classic game of ``pairs`` payments, each voided right after it."""
    game = bank.create_game(name="voids", ruleset="classic", players=["Ann", "Bob"])
    for _ in range(pairs):
        paid = bank.record(game["id"], {"type": "payment", "from": "p1", "to": "p2", "amount": 1})
        bank.record(game["id"], {"type": "void", "seq": paid["seq"], "reason": "wrong"})
    return bank.export(game["id"])


def applied_on_import(
    monkeypatch: pytest.MonkeyPatch, bank: TableBank, document: dict[str, Any]
) -> int:
    count = 0
    real = ledger.exchange.apply_transaction

    def counting(state: Any, txn: Any) -> None:
        nonlocal count
        count += 1
        real(state, txn)

    monkeypatch.setattr(ledger.exchange, "apply_transaction", counting)
    bank.import_game(document)
    monkeypatch.setattr(ledger.exchange, "apply_transaction", real)
    return count


def test_checking_voids_on_import_replays_at_most_a_hundred_transactions_each(
    monkeypatch: pytest.MonkeyPatch, store_env: dict[str, str]
) -> None:
    with TableBank(env=store_env) as bank:
        small = applied_on_import(monkeypatch, bank, paired_log(bank, 150))
        large = applied_on_import(monkeypatch, bank, paired_log(bank, 300))

    # Each of the 150 (300) voids replays fewer than 100 transactions from a kept state.
    assert small < 150 * 100
    assert large < 300 * 100
    # Twice the log, about twice the work (from seq 1 each time it was four times).
    assert large < 2.5 * small
