"""Disputes over HTTP (API.md v1.1, "Disputes"): a player disputes a payment of his with his
own token, the banker keeps it or voids it naming the dispute, and the game's state says how
each one stands; a player disputing money that was not his gets 403 ``forbidden``."""

from __future__ import annotations

from api_helpers import Table


def paid(table: Table) -> Table:
    """Bob pays Ann 50 (seq 4)."""
    table.record({"type": "payment", "from": "p2", "to": "p1", "amount": 50})
    return table


def test_a_player_disputes_his_own_payment_with_his_token(table: Table) -> None:
    paid(table)
    body = {"type": "dispute", "seq": 4, "reason": "that was Cy's"}
    txn = table.record(body, token=table.tokens["p2"])
    assert (txn["seq"], txn["type"], txn["by"], txn["postings"]) == (5, "dispute", "p2", [])
    assert table.state()["disputes"] == [
        {
            "seq": 5,
            "about": 4,
            "by": "p2",
            "reason": "that was Cy's",
            "status": "open",
            "resolved_by": None,
            "note": None,
        }
    ]


def test_a_player_disputing_money_that_was_not_his_is_forbidden(table: Table) -> None:
    paid(table)
    response = table.post(
        {"type": "dispute", "seq": 4, "reason": "not mine"}, token=table.tokens["p3"]
    )
    assert response.status_code == 403
    assert response.json["code"] == "forbidden"
    assert "disputes" not in table.state()


def test_a_player_may_not_resolve_a_dispute(table: Table) -> None:
    paid(table)
    table.record({"type": "dispute", "seq": 4, "reason": "no"}, token=table.tokens["p2"])
    response = table.post(
        {"type": "dispute_resolve", "dispute": 5, "note": "mine"}, token=table.tokens["p2"]
    )
    assert response.status_code == 403


def test_the_banker_keeps_the_transaction_with_a_note(table: Table) -> None:
    paid(table)
    table.record({"type": "dispute", "seq": 4, "reason": "no"}, token=table.tokens["p2"])
    txn = table.record({"type": "dispute_resolve", "dispute": 5, "note": "Bob owed it"})
    assert txn["basis"] == {"dispute": 5, "about": 4, "status": "upheld"}
    [dispute] = table.state()["disputes"]
    assert (dispute["status"], dispute["resolved_by"], dispute["note"]) == (
        "upheld",
        6,
        "Bob owed it",
    )
    problem = table.refusal({"type": "dispute_resolve", "dispute": 5, "note": "again"})
    assert (problem["code"], problem["params"]) == (
        "dispute_closed",
        {"dispute": 5, "resolved_by": 6},
    )


def test_the_banker_voids_the_transaction_naming_the_dispute(table: Table) -> None:
    paid(table)
    table.record({"type": "dispute", "seq": 4, "reason": "no"}, token=table.tokens["p2"])
    txn = table.record({"type": "void", "seq": 4, "reason": "it was Cy's", "dispute": 5})
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 50}]
    state = table.state()
    assert (state["balances"]["p1"], state["balances"]["p2"]) == (1500, 1500)
    assert state["disputes"][0]["status"] == "voided"


def test_an_unknown_dispute_is_refused_with_its_code(table: Table) -> None:
    paid(table)
    problem = table.refusal({"type": "dispute_resolve", "dispute": 4, "note": "?"})
    assert (problem["code"], problem["params"]) == ("unknown_dispute", {"dispute": 4})


def test_a_dispute_needs_its_seq_and_reason(table: Table) -> None:
    assert set(table.invalid({"type": "dispute"})) == {"seq", "reason"}
    assert set(table.invalid({"type": "dispute_resolve"})) == {"dispute", "note"}
    assert set(table.invalid({"type": "void", "seq": 1, "reason": "x", "dispute": 0})) == {
        "dispute"
    }
