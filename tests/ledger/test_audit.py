"""Audit and safety in the ledger: corrections, retries, versions, the chain, export, replay.

Figures from docs/rules.md: Boardwalk costs 400 and rents 50 bare (one deed of the group held);
every player starts with 1500.
"""

from __future__ import annotations

import copy
import json
from uuid import UUID

import pytest
from ledger_helpers import Table

from ledger.application import TableBank
from ledger.errors import LedgerError
from ledger.exchange import verify_document


@pytest.fixture
def bank(stored_bank: TableBank) -> TableBank:
    """Corrections, retries, versions, export and import, on every store of the matrix."""
    return stored_bank


def test_void_reverses_a_payment_and_keeps_it_in_the_log(table: Table) -> None:
    paid = table.record("payment", **{"from": "p2", "to": "p1", "amount": 100})
    void = table.record("void", seq=paid["seq"], reason="recorded twice")
    assert void["postings"] == [{"from": "p1", "to": "p2", "amount": 100}]
    assert table.state()["balances"]["p2"] == 1500
    assert table.bank.transaction(table.id, paid["seq"])["voided_by"] == void["seq"]
    assert table.bank.transaction(table.id, paid["seq"])["postings"] == paid["postings"]


def test_void_of_a_purchase_gives_the_deed_back_to_the_bank(table: Table) -> None:
    bought = table.record("buy", player="p1", property="boardwalk")
    table.record("void", seq=bought["seq"], reason="wrong player")
    assert table.state()["properties"]["boardwalk"]["owner"] == "bank"
    assert table.state()["balances"]["p1"] == 1500


def test_voiding_twice_is_refused_as_already_voided(table: Table) -> None:
    paid = table.record("salary", player="p1")
    table.record("void", seq=paid["seq"], reason="no GO passed")
    assert table.refused("void", seq=paid["seq"], reason="again").code == "already_voided"


def test_void_of_a_purchase_later_rented_is_a_void_conflict(table: Table) -> None:
    bought = table.record("buy", player="p1", property="boardwalk")
    table.record("rent", payer="p2", property="boardwalk")
    err = table.refused("void", seq=bought["seq"], reason="wrong")
    assert err.code == "void_conflict"
    assert err.extra["would_be"] == "not_owned"


def test_void_of_money_later_spent_is_a_void_conflict(duel: Table) -> None:
    gift = duel.record("payment", **{"from": "p1", "to": "p2", "amount": 1000})
    duel.record("payment", **{"from": "p2", "to": "bank", "amount": 2400})  # 2500 - 2400
    err = duel.refused("void", seq=gift["seq"], reason="was a loan")
    assert err.code == "void_conflict"
    assert err.extra["would_be"] == "insufficient_funds"


def test_void_of_a_mortgaged_purchase_is_a_void_conflict(table: Table) -> None:
    bought = table.record("buy", player="p1", property="boardwalk")
    table.record("mortgage", property="boardwalk")
    assert table.refused("void", seq=bought["seq"], reason="x").code == "void_conflict"


def test_starting_cash_cannot_be_voided(table: Table) -> None:
    assert table.refused("void", seq=1, reason="x").code == "void_conflict"


def test_a_void_cannot_be_voided(table: Table) -> None:
    paid = table.record("salary", player="p1")
    void = table.record("void", seq=paid["seq"], reason="x")
    assert table.refused("void", seq=void["seq"], reason="y").code == "void_conflict"


def test_void_needs_a_reason(table: Table) -> None:
    paid = table.record("salary", player="p1")
    err = table.refused("void", seq=paid["seq"], reason=" ")
    assert err.extra["errors"].keys() == {"reason"}


def test_void_of_an_earlier_transaction_survives_a_later_void(table: Table) -> None:
    first = table.record("salary", player="p1")
    second = table.record("salary", player="p2")
    table.record("void", seq=second["seq"], reason="no GO")
    table.record("void", seq=first["seq"], reason="no GO either")
    assert table.state()["balances"] == {
        "bank": -4500,
        "pot": 0,
        "p1": 1500,
        "p2": 1500,
        "p3": 1500,
    }


def test_same_idempotency_key_and_body_returns_the_first_answer(table: Table) -> None:
    body = {"type": "salary", "player": "p1"}
    first, replayed_first = table.bank.record_request(table.id, body, key="tap-1")
    again, replayed = table.bank.record_request(table.id, dict(body), key="tap-1")
    assert (again, replayed_first, replayed) == (first, False, True)
    assert table.state()["balances"]["p1"] == 1700  # 1500 + one salary of 200


def test_same_idempotency_key_with_another_body_is_refused(table: Table) -> None:
    table.bank.record_request(table.id, {"type": "salary", "player": "p1"}, key="k")
    with pytest.raises(LedgerError) as caught:
        table.bank.record_request(table.id, {"type": "salary", "player": "p2"}, key="k")
    assert caught.value.code == "idempotency_key_reused"


def test_a_refused_request_keeps_nothing_under_its_key(table: Table) -> None:
    body = {"type": "payment", "from": "p1", "to": "p2", "amount": 2000}
    with pytest.raises(LedgerError):
        table.bank.record_request(table.id, body, key="k")
    txn, replayed = table.bank.record_request(
        table.id, {"type": "payment", "from": "p1", "to": "p2", "amount": 20}, key="k"
    )
    assert (txn["postings"][0]["amount"], replayed) == (20, False)


def test_if_match_with_an_old_version_is_a_version_conflict(table: Table) -> None:
    seen = table.state()["version"]
    table.record("salary", player="p1")
    with pytest.raises(LedgerError) as caught:
        table.bank.record_request(table.id, {"type": "salary", "player": "p2"}, if_match=seen)
    assert caught.value.code == "version_conflict"


def test_if_match_with_the_current_version_records(table: Table) -> None:
    seen = table.state()["version"]
    txn, _ = table.bank.record_request(table.id, {"type": "salary", "player": "p2"}, if_match=seen)
    assert txn["postings"] == [{"from": "bank", "to": "p2", "amount": 200}]
    assert table.state()["version"] != seen


def test_verify_recomputes_the_chain_to_the_head(table: Table) -> None:
    table.record("salary", player="p1")
    result = table.bank.verify(table.id)
    assert result == {"ok": True, "transactions": 4, "head": table.state()["head"]}


def test_statement_signs_amounts_and_runs_the_balance(table: Table) -> None:
    table.record("buy", player="p1", property="boardwalk")
    table.record("rent", payer="p2", property="boardwalk")
    items = table.bank.statement(table.id, "p1")["items"]
    assert [(i["amount"], i["counterparty"], i["balance"]) for i in items] == [
        (1500, "bank", 1500),
        (-400, "bank", 1100),
        (50, "p2", 1150),
    ]


def test_replay_gives_balances_and_net_worths_after_each_step(table: Table) -> None:
    table.record("buy", player="p1", property="boardwalk")
    steps = table.bank.replay(table.id)["steps"]
    assert [s["seq"] for s in steps] == [1, 2, 3, 4]
    assert steps[0]["balances"]["p1"] == 1500
    assert steps[0]["balances"]["p2"] == 0
    # After the purchase Ann holds 1100 cash and a deed printed at 400.
    assert (steps[3]["balances"]["p1"], steps[3]["net_worths"]["p1"]) == (1100, 1500)


def test_export_then_import_gives_the_same_table_and_head(table: Table) -> None:
    table.record("buy", player="p1", property="boardwalk")
    paid = table.record("payment", **{"from": "p2", "to": "p3", "amount": 30, "memo": "deal"})
    table.record("void", seq=paid["seq"], reason="undone")
    doc = json.loads(json.dumps(table.bank.export(table.id)))
    assert "token" not in json.dumps(doc)
    copy_ = table.bank.import_game(doc)
    assert copy_["id"] != table.id
    assert (copy_["balances"], copy_["head"]) == (table.state()["balances"], table.state()["head"])
    assert table.bank.transaction(copy_["id"], paid["seq"])["voided_by"] == 6


@pytest.mark.parametrize(
    ("seq", "path", "value"),
    [
        (4, ("postings", 0, "amount"), 1),
        (4, ("basis", "price"), 1),
        (5, ("memo",), "changed"),
        (2, ("at",), "2020-01-01T00:00:00Z"),
        (4, ("hash",), "0" * 64),
    ],
)
def test_a_tampered_export_is_refused_at_the_first_bad_seq(
    table: Table, seq: int, path: tuple[object, ...], value: object
) -> None:
    table.record("buy", player="p1", property="boardwalk")
    table.record("salary", player="p2")
    doc = copy.deepcopy(table.bank.export(table.id))
    node = doc["transactions"][seq - 1]
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    with pytest.raises(LedgerError) as caught:
        table.bank.import_game(doc)
    assert (caught.value.code, caught.value.extra["seq"]) == ("log_invalid", seq)


@pytest.mark.parametrize(
    ("path", "value"),
    [(("postings", 0, "amount"), 400.0), (("basis", "price"), 400.0), (("seq",), 4.0)],
)
def test_an_export_changed_to_a_value_equal_but_not_the_same_text_does_not_verify(
    table: Table, path: tuple[object, ...], value: object
) -> None:
    # 400.0 for Boardwalk's 400 compares equal as Python data, and the rules give the same
    # transaction again; but it is not the text the hash covers: the log was changed.
    table.record("buy", player="p1", property="boardwalk")
    doc = copy.deepcopy(table.bank.export(table.id))
    node = doc["transactions"][3]
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    with pytest.raises(LedgerError) as caught:
        table.bank.import_game(doc)
    assert caught.value.code == "log_invalid"
    assert caught.value.detail == "transaction 4 does not match its hash"
    assert verify_document(doc) == {
        "ok": False,
        "seq": 4,
        "detail": "transaction 4 does not match its hash",
    }


def test_an_export_with_rehashed_forged_amount_is_refused_by_the_rules(table: Table) -> None:
    from ledger.chain import chain_hash

    table.record("buy", player="p1", property="boardwalk")
    doc = copy.deepcopy(table.bank.export(table.id))
    forged = doc["transactions"][3]
    forged["postings"][0]["amount"] = 1  # a 400 deed for 1 ...
    forged["balances"]["p1"] = 1499
    forged["balances"]["bank"] = -4499
    previous = doc["transactions"][2]["hash"]
    forged["hash"] = chain_hash(previous, forged)  # ... with the chain recomputed
    doc["head"] = forged["hash"]
    with pytest.raises(LedgerError) as caught:
        table.bank.import_game(doc)
    assert (caught.value.code, caught.value.extra["seq"]) == ("log_invalid", 4)


def test_a_build_can_be_voided_once_the_rent_charged_on_it_is_voided(table: Table) -> None:
    table.buy("p1", "park-place", "boardwalk")
    built = table.record("build", property="boardwalk")
    rent = table.record("rent", payer="p2", property="boardwalk")  # 1 house: 200
    assert table.refused("void", seq=built["seq"], reason="wrong street").code == "void_conflict"
    table.record("void", seq=rent["seq"], reason="rent on the wrong street")
    table.record("void", seq=built["seq"], reason="wrong street")
    assert table.state()["properties"]["boardwalk"]["houses"] == 0
    assert table.state()["bank"]["houses"] == 32
    # Ann: 1500 - 350 - 400 = 750 after the purchases, everything else undone.
    assert table.state()["balances"]["p1"] == 750


def test_an_export_cut_off_during_set_up_is_refused(table: Table) -> None:
    doc = copy.deepcopy(table.bank.export(table.id))
    doc["transactions"] = doc["transactions"][:1]
    doc["head"] = doc["transactions"][0]["hash"]
    with pytest.raises(LedgerError) as caught:
        table.bank.import_game(doc)
    assert (caught.value.code, caught.value.extra["seq"]) == ("log_invalid", 2)


def test_the_creation_time_is_covered_by_the_chain(table: Table) -> None:
    doc = copy.deepcopy(table.bank.export(table.id))
    doc["game"]["created"] = "2020-01-01T00:00:00Z"
    with pytest.raises(LedgerError) as caught:
        table.bank.import_game(doc)
    assert (caught.value.code, caught.value.extra["seq"]) == ("log_invalid", 1)


def test_a_long_imported_log_is_snapshotted_every_100_transactions_and_at_its_head(
    table: Table,
) -> None:
    """An imported game is loaded, and shown as of any seq, from snapshots as a game played
    here is: one every 100 versions on the way and one at the head, and each shows the table
    as it stood then."""
    while table.state()["last_seq"] < 250:
        table.record("payment", **{"from": "p1", "to": "p2", "amount": 1})
        table.record("payment", **{"from": "p2", "to": "p1", "amount": 1})
    copy_ = table.bank.import_game(json.loads(json.dumps(table.bank.export(table.id))))
    game_id = UUID(copy_["id"])

    snapshots = list(table.bank.storage.snapshots.get(game_id))  # type: ignore[union-attr]
    versions = [s.originator_version for s in snapshots]
    head = table.bank.storage.repository.get(game_id).version
    assert versions[:-1] == [100, 200] and versions[-1] == head
    for seq in (3, 99, 150, 201, table.state()["last_seq"]):
        imported = table.bank.game(copy_["id"], seq=seq)["balances"]
        assert imported == table.bank.game(table.id, seq=seq)["balances"]
