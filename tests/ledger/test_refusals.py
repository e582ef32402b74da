"""The registry of refusal codes (ledger/refusals.py) is complete, and a refusal is its code
plus params, with the English detail built from them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.errors import DisputesOpen, InsufficientFunds, RuleViolation
from ledger.refusals import REASON, REFUSALS

LEDGER = Path(__file__).parents[2] / "ledger"

# The codes of API.md ("Errors" and v1.1): a promise to clients, never renamed.
PROMISED = {
    "insufficient_funds",
    "not_owner",
    "already_owned",
    "mortgaged",
    "not_mortgaged",
    "group_incomplete",
    "group_has_buildings",
    "uneven_building",
    "building_limit",
    "no_houses_left",
    "no_hotels_left",
    "player_bankrupt",
    "game_finished",
    "option_disabled",
    "unknown_player",
    "unknown_property",
    "unknown_iou",
    "already_voided",
    "not_owned",
    "own_property",
    "not_buildable",
    "no_buildings",
    "no_jail_card",
    "void_conflict",
    "iou_settled",
    "shares_unavailable",
    "insufficient_shares",
    "not_insolvent",
    "claim_window_closed",
    "owner_in_jail",
    "unknown_dispute",
    "dispute_closed",
    "disputes_open",  # API.md v1.2, Corrections
}


def raise_sites() -> Iterator[tuple[str, ast.Call]]:
    """Every ``RuleViolation(...)`` call in the ledger's source, with where it is."""
    for path in sorted(LEDGER.glob("**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleViolation":
                yield f"{path.relative_to(LEDGER)}:{node.lineno}", node


def raised() -> dict[tuple[str, str | None], list[tuple[str, set[str]]]]:
    """(code, reason) -> where it is raised and with which params."""
    out: dict[tuple[str, str | None], list[tuple[str, set[str]]]] = {}
    for where, call in raise_sites():
        code = call.args[0]
        assert isinstance(code, ast.Constant) and isinstance(code.value, str), where
        assert len(call.args) == 1, f"{where}: params are named"
        names = {k.arg for k in call.keywords}
        assert None not in names, f"{where}: params are named, not unpacked"
        given = next((k.value for k in call.keywords if k.arg == REASON), None)
        reason = None
        if given is not None:
            assert isinstance(given, ast.Constant), f"{where}: a reason is written out"
            reason = str(given.value)
        out.setdefault((code.value, reason), []).append((where, {str(n) for n in names} - {REASON}))
    return out


def test_every_code_raised_in_the_ledger_is_registered_with_its_reasons():
    for (code, reason), sites in raised().items():
        assert code in REFUSALS, (code, sites)
        assert reason in REFUSALS[code].cases, (code, reason, sites)


def test_every_raise_site_gives_exactly_the_params_of_its_case():
    for (code, reason), sites in raised().items():
        case = REFUSALS[code].cases[reason]
        for where, names in sites:
            assert set(case.params) <= names <= set(case.params) | set(case.optional), where


def test_every_registered_code_and_reason_is_raised_somewhere_or_reserved():
    seen = set(raised())
    # Raised through a class of its own, which works its params out (ledger/errors.py).
    own_class = {("insufficient_funds", None), ("disputes_open", None)}
    assert "InsufficientFunds(" in (LEDGER / "draft.py").read_text()
    assert "DisputesOpen(" in (LEDGER / "transactions" / "turns.py").read_text()

    for code, refusal in REFUSALS.items():
        for reason in refusal.cases:
            assert refusal.reserved or (code, reason) in seen | own_class, (code, reason)


def test_reserved_codes_are_raised_nowhere():
    reserved = {code for code, r in REFUSALS.items() if r.reserved}

    assert reserved == set()  # the disputes' codes, reserved until issue 14, are raised now
    assert not {code for code, _ in raised()} & reserved


def test_the_codes_promised_to_clients_are_all_registered():
    assert set(REFUSALS) >= PROMISED


def test_every_code_declares_its_params_and_means_one_thing_per_reason():
    for code, refusal in REFUSALS.items():
        assert refusal.description, code
        if refusal.reasons:
            assert len(refusal.reasons) == len(refusal.cases) > 1, code
            assert all(c.description for c in refusal.cases.values()), code


# -- a refusal is built from its params ------------------------------------------------------


def test_detail_is_built_from_the_params():
    err = RuleViolation("mortgaged", reason="rent", property="boardwalk")

    assert err.code == "mortgaged"
    assert err.params == {"reason": "rent", "property": "boardwalk"}
    assert err.detail == "boardwalk is mortgaged: no rent"


def test_params_keep_the_order_the_registry_declares():
    err = RuleViolation("already_owned", owner="p1", property="boardwalk")

    assert list(err.params) == ["property", "owner"]


def test_insufficient_funds_works_out_the_shortfall_and_keeps_the_v1_members():
    err = InsufficientFunds(payer="p1", amount=5000, cash=1500, can_raise=0, creditor="p2")

    assert err.params == {
        "payer": "p1",
        "amount": 5000,
        "cash": 1500,
        "shortfall": 3500,
        "can_raise": 0,
        "creditor": "p2",
    }
    assert err.extra == {"account": "p1", "amount": 5000, "shortfall": 3500, "can_raise": 0}
    assert err.detail == (
        "p1 must pay 5000 but holds 1500 (short by 3500; could raise 0 more by selling "
        "buildings and mortgaging)"
    )


def test_insufficient_funds_owed_to_several_names_no_creditor():
    err = InsufficientFunds(payer="p1", amount=300, cash=100, can_raise=50)

    assert "creditor" not in err.params


def test_disputes_open_counts_them_and_names_the_first_whatever_their_order():
    err = DisputesOpen([17, 9, 12])

    assert (err.code, err.params) == ("disputes_open", {"count": 3, "seq": 9})
    assert isinstance(err, RuleViolation)


def test_an_unknown_code_is_a_programming_error():
    with pytest.raises(LookupError):
        RuleViolation("no_such_code")


def test_a_missing_param_is_a_programming_error():
    with pytest.raises(TypeError, match="missing params"):
        RuleViolation("already_owned", property="boardwalk")


def test_an_extra_param_is_a_programming_error():
    with pytest.raises(TypeError, match="unexpected"):
        RuleViolation("not_mortgaged", property="boardwalk", owner="p1")


def test_a_reason_the_code_lacks_is_a_programming_error():
    with pytest.raises(TypeError, match="reason"):
        RuleViolation("mortgaged", reason="because", property="boardwalk")


def test_a_code_with_reasons_needs_one():
    with pytest.raises(TypeError, match="reason"):
        RuleViolation("mortgaged", property="boardwalk")


@pytest.mark.parametrize(
    "params",
    [
        {"property": "boardwalk", "owner": 1},  # an id is a string
        {"property": "boardwalk", "owner": None},
    ],
)
def test_an_id_param_that_is_not_a_string_is_a_programming_error(params):
    with pytest.raises(TypeError, match="not"):
        RuleViolation("already_owned", **params)


def test_a_number_param_that_is_not_a_whole_number_is_a_programming_error():
    with pytest.raises(TypeError, match="money"):
        InsufficientFunds(payer="p1", amount=True, cash=0, can_raise=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="money"):
        InsufficientFunds(payer="p1", amount=10, cash=0, can_raise="0")  # type: ignore[arg-type]
