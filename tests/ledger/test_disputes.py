"""Disputes (API.md v1.1, "Disputes"): a transaction disputed in the log, then kept with a note
(``dispute_resolve``) or reversed once by a ``void`` that names the dispute. Neither moves
money; the game's ``disputes`` say how each one stands."""

from __future__ import annotations

import json

import pytest
from ledger_helpers import Table

from ledger.application import TableBank
from ledger.errors import DisputesOpen, Forbidden, InvalidField


@pytest.fixture
def rent_paid(table: Table) -> Table:
    """Ann buys Boardwalk (seq 4, 400) and Bob pays her the bare rent, 50 (seq 5)."""
    table.record("buy", player="p1", property="boardwalk")
    table.record("rent", payer="p2", property="boardwalk")
    return table


@pytest.fixture
def disputed(rent_paid: Table) -> Table:
    """Bob disputes the rent (seq 6)."""
    rent_paid.bank.record(
        rent_paid.id, {"type": "dispute", "seq": 5, "reason": "I landed on Park Place"}, by="p2"
    )
    return rent_paid


def dispute(table: Table, seq: int, by: str, reason: str = "not so") -> dict[str, object]:
    return table.bank.record(table.id, {"type": "dispute", "seq": seq, "reason": reason}, by=by)


# -- a dispute ---------------------------------------------------------------------------------


def test_a_dispute_moves_no_money_and_is_open(rent_paid: Table) -> None:
    before = rent_paid.state()["balances"]
    txn = dispute(rent_paid, 5, "p2", "I landed on Park Place")
    assert (txn["seq"], txn["by"], txn["postings"]) == (6, "p2", [])
    assert txn["basis"] == {"dispute": 6, "about": 5, "by": "p2"}
    state = rent_paid.state()
    assert state["balances"] == before
    assert state["disputes"] == [
        {
            "seq": 6,
            "about": 5,
            "by": "p2",
            "reason": "I landed on Park Place",
            "status": "open",
            "resolved_by": None,
            "note": None,
        }
    ]


def test_a_game_without_disputes_shows_none(rent_paid: Table) -> None:
    assert "disputes" not in rent_paid.state()


def test_the_receiver_of_the_money_may_dispute_it_too(rent_paid: Table) -> None:
    assert dispute(rent_paid, 5, "p1")["by"] == "p1"


def test_a_player_whose_money_it_did_not_move_may_not_dispute_it(rent_paid: Table) -> None:
    with pytest.raises(Forbidden) as caught:
        dispute(rent_paid, 5, "p3")
    assert "dispute only a transaction that moved money of his own (p3)" in caught.value.detail
    assert "disputes" not in rent_paid.state()


def test_a_player_may_not_dispute_a_transaction_that_is_not_there(rent_paid: Table) -> None:
    with pytest.raises(Forbidden):
        dispute(rent_paid, 99, "p2")


def test_the_banker_may_dispute_any_transaction(rent_paid: Table) -> None:
    assert dispute(rent_paid, 4, "banker")["by"] == "banker"


def test_a_dispute_of_a_seq_not_yet_recorded_is_refused(rent_paid: Table) -> None:
    error = rent_paid.refused("dispute", seq=6, reason="later")
    assert isinstance(error, InvalidField) and "seq" in error.extra["errors"]


def test_a_dispute_needs_a_reason(rent_paid: Table) -> None:
    error = rent_paid.refused("dispute", seq=5, reason="   ")
    assert isinstance(error, InvalidField) and "reason" in error.extra["errors"]


def test_a_transaction_disputed_and_open_is_not_disputed_twice(disputed: Table) -> None:
    error = disputed.refused("dispute", seq=5, reason="me too")
    assert isinstance(error, InvalidField) and "seq" in error.extra["errors"]


def test_a_dispute_is_not_disputed(disputed: Table) -> None:
    error = disputed.refused("dispute", seq=6, reason="no dispute")
    assert isinstance(error, InvalidField) and "seq" in error.extra["errors"]


def test_a_voided_transaction_is_not_disputed(rent_paid: Table) -> None:
    rent_paid.record("void", seq=5, reason="wrong deed")
    error = rent_paid.refused("dispute", seq=5, reason="too late")
    assert (error.code, error.params) == ("already_voided", {"seq": 5, "voided_by": 6})


# -- kept with a note ----------------------------------------------------------------------------


def test_a_dispute_resolved_keeps_the_transaction_and_says_why(disputed: Table) -> None:
    before = disputed.state()["balances"]
    txn = disputed.record("dispute_resolve", dispute=6, note="Bob was on Boardwalk")
    assert (txn["seq"], txn["postings"]) == (7, [])
    assert txn["basis"] == {"dispute": 6, "about": 5, "status": "upheld"}
    state = disputed.state()
    assert state["balances"] == before
    assert state["disputes"][0] == {
        "seq": 6,
        "about": 5,
        "by": "p2",
        "reason": "I landed on Park Place",
        "status": "upheld",
        "resolved_by": 7,
        "note": "Bob was on Boardwalk",
    }
    assert disputed.bank.transaction(disputed.id, 5)["voided_by"] is None


def test_a_closed_dispute_is_not_resolved_again(disputed: Table) -> None:
    disputed.record("dispute_resolve", dispute=6, note="it stands")
    error = disputed.refused("dispute_resolve", dispute=6, note="again")
    assert (error.code, error.params) == ("dispute_closed", {"dispute": 6, "resolved_by": 7})


def test_resolving_a_seq_that_is_no_dispute_is_refused(disputed: Table) -> None:
    error = disputed.refused("dispute_resolve", dispute=5, note="?")
    assert (error.code, error.params) == ("unknown_dispute", {"dispute": 5})


def test_a_player_may_not_resolve_a_dispute(disputed: Table) -> None:
    with pytest.raises(Forbidden):
        disputed.bank.record(
            disputed.id, {"type": "dispute_resolve", "dispute": 6, "note": "mine"}, by="p2"
        )


def test_a_kept_transaction_may_be_disputed_again(disputed: Table) -> None:
    disputed.record("dispute_resolve", dispute=6, note="it stands")
    assert dispute(disputed, 5, "p2", "new evidence")["seq"] == 8
    assert [d["status"] for d in disputed.state()["disputes"]] == ["upheld", "open"]


# -- reversed by a void --------------------------------------------------------------------------


def test_a_void_naming_the_dispute_reverses_the_transaction_once(disputed: Table) -> None:
    txn = disputed.record("void", seq=5, reason="Bob was on Park Place", dispute=6)
    # The 50 of rent goes back to Bob, once.
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 50}]
    assert txn["basis"]["dispute"] == 6
    state = disputed.state()
    assert (state["balances"]["p1"], state["balances"]["p2"]) == (1100, 1500)
    assert state["disputes"][0]["status"] == "voided"
    assert (state["disputes"][0]["resolved_by"], state["disputes"][0]["note"]) == (
        7,
        "Bob was on Park Place",
    )
    again = disputed.refused("void", seq=5, reason="twice", dispute=6)
    assert again.code == "already_voided"


def test_a_void_of_a_disputed_transaction_must_name_the_dispute(disputed: Table) -> None:
    error = disputed.refused("void", seq=5, reason="Bob was on Park Place")
    assert isinstance(error, InvalidField) and "dispute" in error.extra["errors"]


def test_a_void_naming_a_dispute_about_another_transaction_is_refused(disputed: Table) -> None:
    error = disputed.refused("void", seq=4, reason="no sale", dispute=6)
    assert isinstance(error, InvalidField) and "dispute" in error.extra["errors"]


def test_a_void_naming_a_closed_dispute_is_refused(disputed: Table) -> None:
    disputed.record("dispute_resolve", dispute=6, note="it stands")
    error = disputed.refused("void", seq=5, reason="changed my mind", dispute=6)
    assert (error.code, error.params) == ("dispute_closed", {"dispute": 6, "resolved_by": 7})


def test_a_void_naming_no_dispute_at_all_is_refused(rent_paid: Table) -> None:
    error = rent_paid.refused("void", seq=5, reason="wrong", dispute=4)
    assert (error.code, error.params) == ("unknown_dispute", {"dispute": 4})


def test_a_void_that_would_break_a_later_transaction_leaves_the_dispute_open(
    disputed: Table,
) -> None:
    # Ann pays Cy all she holds, 1100 + the 50 of rent: without the rent it would be refused.
    disputed.record("payment", **{"from": "p1", "to": "p3", "amount": 1150})
    error = disputed.refused("void", seq=5, reason="Bob was on Park Place", dispute=6)
    assert error.code == "void_conflict"
    assert disputed.state()["disputes"][0]["status"] == "open"


@pytest.mark.parametrize("seq", [6, 7])
def test_a_dispute_and_its_resolution_cannot_be_voided(disputed: Table, seq: int) -> None:
    disputed.record("dispute_resolve", dispute=6, note="it stands")
    error = disputed.refused("void", seq=seq, reason="undo")
    assert error.code == "void_conflict" and error.params["reason"] == "not_voidable"


def test_a_void_of_an_earlier_transaction_keeps_later_disputes_as_they_stand(
    rent_paid: Table,
) -> None:
    rent_paid.record("salary", player="p3")  # seq 6, the one voided below
    dispute(rent_paid, 5, "p2")  # seq 7
    rent_paid.record("dispute_resolve", dispute=7, note="it stands")  # seq 8
    txn = rent_paid.record("void", seq=6, reason="Cy was not on GO")
    assert txn["basis"]["later_transactions_checked"] == 2
    assert rent_paid.state()["disputes"][0]["status"] == "upheld"


# -- the log ---------------------------------------------------------------------------------------


def test_disputes_leave_the_statement_to_postings(disputed: Table) -> None:
    disputed.record("void", seq=5, reason="Bob was on Park Place", dispute=6)
    items = disputed.bank.statement(disputed.id, "p2")["items"]
    assert [(i["seq"], i["type"], i["amount"]) for i in items] == [
        (2, "starting_cash", 1500),
        (5, "rent", -50),
        (7, "void", 50),
    ]


def test_disputes_are_in_the_replay_and_the_game_as_it_stood(disputed: Table) -> None:
    disputed.record("dispute_resolve", dispute=6, note="it stands")
    steps = disputed.bank.replay(disputed.id)["steps"]
    assert [s["transaction"]["type"] for s in steps[-2:]] == ["dispute", "dispute_resolve"]
    assert steps[-1]["balances"] == steps[-3]["balances"]
    then = disputed.bank.game(disputed.id, seq=6)
    assert [d["status"] for d in then["disputes"]] == ["open"]
    assert "disputes" not in disputed.bank.game(disputed.id, seq=5)


def test_disputes_survive_export_and_import(disputed: Table) -> None:
    disputed.record("void", seq=5, reason="Bob was on Park Place", dispute=6)
    dispute(disputed, 4, "p1", "the price")
    disputed.record("dispute_resolve", dispute=8, note="printed price")
    original = disputed.state()
    assert disputed.bank.verify(disputed.id)["ok"]
    document = json.loads(json.dumps(disputed.bank.export(disputed.id)))
    copy = disputed.bank.game(disputed.bank.import_game(document)["id"])
    assert copy["disputes"] == original["disputes"]
    assert copy["head"] == original["head"]


def test_a_player_dry_runs_his_dispute(bank: TableBank, rent_paid: Table) -> None:
    body = {"type": "dispute", "seq": 5, "reason": "I landed on Park Place"}
    preview = bank.record(rent_paid.id, body, by="p2", dry_run=True)
    assert (preview["seq"], preview["postings"]) == (6, [])
    assert "disputes" not in rent_paid.state()
    with pytest.raises(Forbidden):
        bank.record(rent_paid.id, body, by="p3", dry_run=True)


# -- the end of the game (API.md v1.2, Corrections) ----------------------------------------------


def test_a_finish_while_disputes_are_open_is_refused_with_their_count_and_the_first(
    disputed: Table,
) -> None:
    dispute(disputed, 4, "banker", "the price")  # seq 7, a second one open
    error = disputed.refused("finish")
    assert error.code == "disputes_open"
    assert error.params == {"count": 2, "seq": 6}
    assert error.detail == (
        "open disputes: 2 (the first is transaction 6); uphold or void each before the game ends"
    )
    assert disputed.state()["status"] == "active"


def test_a_finish_counts_only_the_disputes_still_open(disputed: Table) -> None:
    dispute(disputed, 4, "banker", "the price")  # seq 7
    disputed.record("dispute_resolve", dispute=6, note="it stands")  # seq 8
    error = disputed.refused("finish")
    assert error.params == {"count": 1, "seq": 7}


def test_a_finish_is_recorded_once_every_dispute_is_upheld_or_voided(disputed: Table) -> None:
    dispute(disputed, 4, "banker", "the price")  # seq 7
    disputed.record("dispute_resolve", dispute=7, note="printed price")  # seq 8
    disputed.record("void", seq=5, reason="Bob was on Park Place", dispute=6)  # seq 9
    txn = disputed.record("finish")
    assert txn["seq"] == 10
    state = disputed.state()
    assert state["status"] == "finished"
    assert [d["status"] for d in state["disputes"]] == ["voided", "upheld"]


def test_a_dry_run_of_a_finish_while_a_dispute_is_open_is_refused_the_same_way(
    bank: TableBank, disputed: Table
) -> None:
    with pytest.raises(DisputesOpen) as caught:
        bank.record(disputed.id, {"type": "finish"}, dry_run=True)
    assert (caught.value.code, caught.value.params) == ("disputes_open", {"count": 1, "seq": 6})
    assert disputed.state()["last_seq"] == 6
