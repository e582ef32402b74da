"""IOUs between players (docs/rules.md, IOUs, under the `player_loans` option): issued without cash,
repaid in whole or in parts, passed on, forgiven, and settled in a bankruptcy."""

from __future__ import annotations

import pytest
from ledger_helpers import Table

from ledger.application import TableBank
from ledger.errors import InvalidField


@pytest.fixture
def loans(bank: TableBank) -> Table:
    """Ann (p1), Bob (p2) and Cy (p3), 1500 each, with player loans allowed."""
    return Table(bank, options={"player_loans": True})


@pytest.fixture
def lent(loans: Table) -> tuple[Table, str]:
    """Ann owes Bob 300 on an IOU; its id."""
    txn = loans.record("iou", debtor="p1", creditor="p2", amount=300)
    return loans, txn["basis"]["iou"]


def iou_of(table: Table, iou_id: str) -> dict[str, object]:
    """The IOU as the state shows it."""
    return next(i for i in table.state()["ious"] if i["id"] == iou_id)


def net_worths(table: Table) -> list[int]:
    return [p["net_worth"] for p in table.state()["players"]]


# -- issue -------------------------------------------------------------------------------------


def test_issuing_an_iou_moves_no_cash(loans: Table) -> None:
    txn = loans.record("iou", debtor="p1", creditor="p2", amount=300)
    assert txn["postings"] == []
    assert [loans.cash(p) for p in ("p1", "p2", "p3")] == [1500, 1500, 1500]


def test_an_issued_iou_has_its_id_in_the_basis(loans: Table) -> None:
    txn = loans.record("iou", debtor="p1", creditor="p2", amount=300)
    assert isinstance(txn["basis"]["iou"], str)
    assert txn["basis"]["iou"]


def test_an_issued_iou_is_in_the_state_with_its_whole_amount_outstanding(
    lent: tuple[Table, str],
) -> None:
    table, iou_id = lent
    assert table.state()["ious"] == [
        {"id": iou_id, "debtor": "p1", "holder": "p2", "amount": 300, "outstanding": 300}
    ]


def test_an_iou_lowers_the_debtors_net_worth_and_raises_the_holders(
    lent: tuple[Table, str],
) -> None:
    table, _ = lent
    assert net_worths(table) == [1200, 1800, 1500]


def test_an_iou_may_carry_a_memo(loans: Table) -> None:
    txn = loans.record("iou", debtor="p1", creditor="p2", amount=300, memo="for Boardwalk")
    assert txn["memo"] == "for Boardwalk"


def test_two_ious_have_two_ids(loans: Table) -> None:
    first = loans.record("iou", debtor="p1", creditor="p2", amount=300)
    second = loans.record("iou", debtor="p1", creditor="p2", amount=300)
    assert first["basis"]["iou"] != second["basis"]["iou"]
    assert net_worths(loans) == [900, 2100, 1500]


def test_an_iou_to_oneself_is_refused(loans: Table) -> None:
    error = loans.refused("iou", debtor="p1", creditor="p1", amount=300)
    assert isinstance(error, InvalidField)


def test_an_iou_of_nothing_is_refused(loans: Table) -> None:
    error = loans.refused("iou", debtor="p1", creditor="p2", amount=0)
    assert isinstance(error, InvalidField)
    assert "amount" in error.extra["errors"]


def test_an_iou_to_a_stranger_is_refused(loans: Table) -> None:
    assert loans.refused("iou", debtor="p1", creditor="p9", amount=300).code == "unknown_player"


# -- repay ---------------------------------------------------------------------------------


def test_repaying_in_part_moves_cash_from_debtor_to_holder(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    txn = table.record("iou_repay", iou=iou_id, amount=100)
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 100}]


def test_repaying_in_part_lowers_what_is_outstanding(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=100)
    assert iou_of(table, iou_id) == {
        "id": iou_id,
        "debtor": "p1",
        "holder": "p2",
        "amount": 300,
        "outstanding": 200,
    }


def test_repaying_leaves_both_net_worths_unchanged(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=100)
    assert net_worths(table) == [1200, 1800, 1500]


def test_repaying_reports_the_amount_and_what_is_left_in_the_basis(
    lent: tuple[Table, str],
) -> None:
    table, iou_id = lent
    txn = table.record("iou_repay", iou=iou_id, amount=100)
    assert txn["basis"] == {"iou": iou_id, "repaid": 100, "outstanding": 200}


def test_repaying_in_parts_up_to_the_whole_settles_the_iou(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=100)
    table.record("iou_repay", iou=iou_id, amount=200)
    assert iou_of(table, iou_id)["outstanding"] == 0
    assert [table.cash(p) for p in ("p1", "p2")] == [1200, 1800]


def test_repaying_in_whole_settles_the_iou(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    txn = table.record("iou_repay", iou=iou_id, amount=300)
    assert txn["postings"] == [{"from": "p1", "to": "p2", "amount": 300}]
    assert iou_of(table, iou_id)["outstanding"] == 0


def test_repaying_more_than_is_outstanding_is_refused(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=100)
    error = table.refused("iou_repay", iou=iou_id, amount=201)
    assert isinstance(error, InvalidField)
    assert "amount" in error.extra["errors"]


def test_repaying_more_than_the_debtors_cash_is_refused(loans: Table) -> None:
    iou_id = loans.record("iou", debtor="p1", creditor="p2", amount=2000)["basis"]["iou"]
    error = loans.refused("iou_repay", iou=iou_id, amount=1600)
    assert (error.code, error.extra["shortfall"]) == ("insufficient_funds", 100)


def test_repaying_a_settled_iou_is_refused(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=300)
    assert table.refused("iou_repay", iou=iou_id, amount=1).code == "iou_settled"


def test_repaying_an_unknown_iou_is_refused(loans: Table) -> None:
    assert loans.refused("iou_repay", iou="iou-99", amount=100).code == "unknown_iou"


# -- transfer ------------------------------------------------------------------------------


def test_transferring_moves_no_cash_and_changes_the_holder(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    txn = table.record("iou_transfer", iou=iou_id, to="p3")
    assert txn["postings"] == []
    assert iou_of(table, iou_id)["holder"] == "p3"


def test_transferring_moves_the_iou_between_the_holders_net_worths(
    lent: tuple[Table, str],
) -> None:
    table, iou_id = lent
    table.record("iou_transfer", iou=iou_id, to="p3")
    assert net_worths(table) == [1200, 1500, 1800]


def test_transferring_reports_both_holders_in_the_basis(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    txn = table.record("iou_transfer", iou=iou_id, to="p3")
    assert txn["basis"] == {"iou": iou_id, "from": "p2", "to": "p3", "outstanding": 300}


def test_the_new_holder_is_repaid(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_transfer", iou=iou_id, to="p3")
    txn = table.record("iou_repay", iou=iou_id, amount=100)
    assert txn["postings"] == [{"from": "p1", "to": "p3", "amount": 100}]


def test_transferring_to_the_debtor_is_refused(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    assert isinstance(table.refused("iou_transfer", iou=iou_id, to="p1"), InvalidField)


def test_transferring_an_unknown_iou_is_refused(loans: Table) -> None:
    assert loans.refused("iou_transfer", iou="iou-99", to="p3").code == "unknown_iou"


# -- forgive -------------------------------------------------------------------------------


def test_forgiving_moves_no_cash_and_leaves_nothing_outstanding(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    txn = table.record("iou_forgive", iou=iou_id)
    assert txn["postings"] == []
    assert iou_of(table, iou_id) == {
        "id": iou_id,
        "debtor": "p1",
        "holder": "p2",
        "amount": 300,
        "outstanding": 0,
    }


def test_forgiving_restores_both_net_worths(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_forgive", iou=iou_id)
    assert net_worths(table) == [1500, 1500, 1500]


def test_forgiving_what_is_left_after_a_part_repayment(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=100)
    table.record("iou_forgive", iou=iou_id)
    assert net_worths(table) == [1400, 1600, 1500]


def test_forgiving_reports_what_was_forgiven_in_the_basis(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_repay", iou=iou_id, amount=100)
    txn = table.record("iou_forgive", iou=iou_id)
    assert txn["basis"] == {"iou": iou_id, "holder": "p2", "forgiven": 200}


def test_repaying_a_forgiven_iou_is_refused(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_forgive", iou=iou_id)
    assert table.refused("iou_repay", iou=iou_id, amount=100).code == "iou_settled"


def test_transferring_a_forgiven_iou_is_refused(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_forgive", iou=iou_id)
    assert table.refused("iou_transfer", iou=iou_id, to="p3").code == "iou_settled"


def test_forgiving_a_forgiven_iou_is_refused(lent: tuple[Table, str]) -> None:
    table, iou_id = lent
    table.record("iou_forgive", iou=iou_id)
    assert table.refused("iou_forgive", iou=iou_id).code == "iou_settled"


def test_forgiving_an_unknown_iou_is_refused(loans: Table) -> None:
    assert loans.refused("iou_forgive", iou="iou-99").code == "unknown_iou"


# -- bankruptcy ----------------------------------------------------------------------------


@pytest.fixture
def holder_goes_bankrupt(loans: Table) -> tuple[Table, str, dict[str, object]]:
    """Cy owes Ann 300; Ann goes bankrupt to Bob. The IOU's id and the bankruptcy."""
    iou_id = loans.record("iou", debtor="p3", creditor="p1", amount=300)["basis"]["iou"]
    txn = loans.record("bankruptcy", debtor="p1", creditor="p2")
    return loans, iou_id, txn


def test_ious_held_by_the_bankrupt_pass_to_the_creditor(
    holder_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    table, iou_id, _ = holder_goes_bankrupt
    assert iou_of(table, iou_id) == {
        "id": iou_id,
        "debtor": "p3",
        "holder": "p2",
        "amount": 300,
        "outstanding": 300,
    }


def test_ious_passed_in_a_bankruptcy_are_in_its_basis(
    holder_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    _, iou_id, txn = holder_goes_bankrupt
    assert txn["basis"]["ious_received"] == [iou_id]  # type: ignore[index]


def test_the_creditor_is_repaid_on_an_iou_received_in_a_bankruptcy(
    holder_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    table, iou_id, _ = holder_goes_bankrupt
    txn = table.record("iou_repay", iou=iou_id, amount=300)
    assert txn["postings"] == [{"from": "p3", "to": "p2", "amount": 300}]


def test_the_creditors_net_worth_counts_an_iou_received_in_a_bankruptcy(
    holder_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    table, _, _ = holder_goes_bankrupt
    # Bob: 1500 + Ann's 1500 cash + Cy's 300 IOU. Cy: 1500 - 300.
    assert net_worths(table) == [0, 3300, 1200]


def test_ious_held_by_a_player_bankrupt_to_the_bank_pass_to_the_bank(loans: Table) -> None:
    # Reading: "pass to the creditor", and the creditor is the Bank.
    iou_id = loans.record("iou", debtor="p3", creditor="p1", amount=300)["basis"]["iou"]
    loans.record("bankruptcy", debtor="p1", creditor="bank")
    assert iou_of(loans, iou_id)["holder"] == "bank"


@pytest.fixture
def debtor_goes_bankrupt(loans: Table) -> tuple[Table, str, dict[str, object]]:
    """Ann owes Cy 300; Ann goes bankrupt to Bob. The IOU's id and the bankruptcy."""
    iou_id = loans.record("iou", debtor="p1", creditor="p3", amount=300)["basis"]["iou"]
    txn = loans.record("bankruptcy", debtor="p1", creditor="p2")
    return loans, iou_id, txn


def test_ious_owed_by_the_bankrupt_are_written_off(
    debtor_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    table, iou_id, _ = debtor_goes_bankrupt
    assert iou_of(table, iou_id) == {
        "id": iou_id,
        "debtor": "p1",
        "holder": "p3",
        "amount": 300,
        "outstanding": 0,
    }


def test_an_iou_written_off_no_longer_counts_in_the_holders_net_worth(
    debtor_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    table, _, _ = debtor_goes_bankrupt
    assert net_worths(table) == [0, 3000, 1500]


def test_ious_written_off_in_a_bankruptcy_are_in_its_basis(
    debtor_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    _, iou_id, txn = debtor_goes_bankrupt
    assert txn["basis"]["ious_written_off"] == [  # type: ignore[index]
        {"iou": iou_id, "outstanding": 300, "merged": False}
    ]


def test_an_iou_the_creditor_holds_merges_into_the_debt(loans: Table) -> None:
    iou_id = loans.record("iou", debtor="p1", creditor="p2", amount=300)["basis"]["iou"]
    txn = loans.record("bankruptcy", debtor="p1", creditor="p2")
    assert txn["basis"]["ious_written_off"] == [{"iou": iou_id, "outstanding": 300, "merged": True}]
    assert iou_of(loans, iou_id)["outstanding"] == 0


def test_repaying_an_iou_written_off_is_refused(
    debtor_goes_bankrupt: tuple[Table, str, dict[str, object]],
) -> None:
    table, iou_id, _ = debtor_goes_bankrupt
    assert table.refused("iou_repay", iou=iou_id, amount=100).code == "iou_settled"


def test_an_iou_partly_repaid_is_written_off_for_what_is_left(loans: Table) -> None:
    iou_id = loans.record("iou", debtor="p1", creditor="p3", amount=300)["basis"]["iou"]
    loans.record("iou_repay", iou=iou_id, amount=100)
    txn = loans.record("bankruptcy", debtor="p1", creditor="p2")
    assert txn["basis"]["ious_written_off"] == [
        {"iou": iou_id, "outstanding": 200, "merged": False}
    ]


def test_an_iou_the_creditor_owes_the_bankrupt_is_settled_when_it_passes_to_him(
    loans: Table,
) -> None:
    # Reading: the IOU would pass to its own debtor; a debt owed to oneself is extinguished.
    iou_id = loans.record("iou", debtor="p2", creditor="p1", amount=300)["basis"]["iou"]
    loans.record("bankruptcy", debtor="p1", creditor="p2")
    assert iou_of(loans, iou_id)["outstanding"] == 0
    assert loans.refused("iou_repay", iou=iou_id, amount=300).code == "iou_settled"


def test_a_voided_iou_is_gone_from_the_state_and_the_net_worths(
    lent: tuple[Table, str],
) -> None:
    # docs/rules.md, Corrections: a void undoes what its transaction did; an IOU issued moved
    # no cash, so voiding it leaves each player's 1500 and no IOU at all.
    table, iou_id = lent
    issued = next(t for t in table.bank.transactions(table.id) if t["type"] == "iou")
    void = table.record("void", seq=issued["seq"], reason="never lent")
    assert void["postings"] == []
    assert iou_id not in [i["id"] for i in table.state()["ious"]]
    assert table.state()["ious"] == []
    assert net_worths(table) == [1500, 1500, 1500]
