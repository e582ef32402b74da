"""The registry of the state's parts and change kinds (ledger/changes.py): every kind a handler
writes or a stored game holds is declared, each is applied, copied and read back consistently,
and a kind nobody declared is refused where it is declared or written."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any, TypedDict, get_type_hints

import pytest

import ledger
from ledger import changes
from ledger.changes import (
    CHANGES,
    PARTS,
    ChangeKind,
    Part,
    State,
    change_kind,
    check_registry,
    kinds,
)
from ledger.draft import Draft
from ledger.ruleset import RuleSet, built_in
from ledger.state import apply_change, copy_state, new_state

LEDGER = Path(ledger.__file__).parent
FIXTURES = Path(__file__).parent / "fixtures"


def written_kinds() -> dict[str, list[str]]:
    """Each kind the ledger's code writes with ``Draft.change``, with where it does."""
    found: dict[str, list[str]] = {}
    for path in sorted(LEDGER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "change"
            ):
                where = f"{path.relative_to(LEDGER)}:{node.lineno}"
                first = node.args[0] if node.args else None
                # A kind computed at run time could not be checked here: none is.
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), where
                found.setdefault(first.value, []).append(where)
    return found


def test_every_kind_a_handler_writes_is_registered() -> None:
    written = written_kinds()
    assert set(written) - set(CHANGES) == set()
    assert len(written) == 24  # the state's change kinds, each written somewhere


def test_every_registered_kind_is_written_by_a_handler() -> None:
    assert set(CHANGES) - set(written_kinds()) == set()


def test_every_kind_in_the_stored_games_is_registered() -> None:
    stored = {
        change["kind"]
        for export in sorted(FIXTURES.glob("v*/exports/*.json"))
        for txn in json.loads(export.read_text(encoding="utf-8"))["transactions"]
        for change in txn["changes"]
    }
    assert stored - set(CHANGES) == set()
    assert len(stored) == 23  # all but built_this_turn (one_house_per_turn is off in them)


def elite_rules() -> RuleSet:
    rs = built_in("millionaire-elite")
    assert rs is not None
    return rs


def test_an_unregistered_kind_is_refused_when_a_handler_writes_it() -> None:
    rs = elite_rules()
    state = new_state(["Ann", "Bob"], list(rs.deeds), None, None, share_price=100)
    draft = Draft(rs, state, {})

    with pytest.raises(LookupError, match="'promotion' is not a registered change kind"):
        draft.change("promotion", True, player="p1")
    assert draft.changes == []


def test_an_unregistered_kind_is_refused_when_it_is_applied() -> None:
    state = new_state(["Ann", "Bob"], ["boardwalk"], 32, 12)

    with pytest.raises(ValueError, match="unknown change kind 'promotion'"):
        apply_change(state, {"kind": "promotion", "player": "p1", "from": False, "to": True})


def test_a_kind_is_declared_once() -> None:
    deed = CHANGES["deed"]
    with pytest.raises(TypeError, match="change kind deed is declared twice"):
        kinds(deed, deed)


def test_a_kind_writing_a_part_nobody_declared_is_refused() -> None:
    stray = ChangeKind("promotion", "ranks[player]", ("player",), "bool", print, print)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"change kind promotion: undeclared parts \['ranks'\]"):
        check_registry(PARTS, {**CHANGES, "promotion": stray})


def test_a_late_part_is_copied() -> None:
    late = Part("ranks", lambda t: {}, None, "by player: a rank", late=True)
    with pytest.raises(TypeError, match="part ranks: a late part is copied"):
        check_registry({**PARTS, "ranks": late}, CHANGES)


def test_the_state_type_declares_each_part_in_order_the_late_ones_not_required() -> None:
    class Missing(TypedDict):  # "head" left out
        status: str

    with pytest.raises(TypeError, match="Missing declares"):
        check_registry(PARTS, CHANGES, Missing)
    every = dict(get_type_hints(State, include_extras=True))
    every["paid"] = dict[str, int]  # a late part declared as if every state had it
    with pytest.raises(TypeError, match="NotRequired are"):
        check_registry(PARTS, CHANGES, TypedDict("Late", every))
    check_registry()  # the project's own, as at import


def rows_of(section: str) -> list[str]:
    """The rows of one of the module docstring's tables: the lines under its title."""
    doc = changes.__doc__ or ""
    table = doc.split(section, 1)[1].split("::\n\n", 1)[1].split("\n\n", 1)[0]
    return table.splitlines()[2:]  # below the heading and its rule


def test_the_docstring_lists_every_part_and_every_kind_once() -> None:
    parts = rows_of("Parts of the state")
    assert [row.split()[0] for row in parts] == list(PARTS)
    kinds = rows_of("Change kinds")
    assert [row.split()[0] for row in kinds] == list(CHANGES)
    for row, declared in zip(kinds, CHANGES.values(), strict=True):
        assert declared.where in row and declared.value in row


def test_a_new_state_holds_every_part() -> None:
    state = new_state(["Ann", "Bob"], ["boardwalk"], 32, 12)

    assert list(state) == list(PARTS)
    assert state["balances"] == {"bank": 0, "pot": 0, "p1": 0, "p2": 0}
    assert state["properties"] == {
        "boardwalk": {"owner": "bank", "mortgaged": False, "houses": 0, "hotel": False}
    }
    assert (state["supply"], state["shares"]) == ({"houses": 32, "hotels": 12}, None)


def test_a_state_snapshotted_before_the_late_parts_is_copied_with_them_empty() -> None:
    state = new_state(["Ann", "Bob"], ["boardwalk"], 32, 12)
    del state["first_lap"], state["disputes"], state["first_names"], state["paid"]

    copied = copy_state(state)

    assert (
        copied["first_lap"],
        copied["disputes"],
        copied["first_names"],
        copied["paid"],
    ) == ({}, {}, {}, {})
    apply_change(state, {"kind": "first_lap", "player": "p1", "from": False, "to": True})
    assert state["first_lap"] == {"p1": True}
    apply_change(state, {"kind": "paid", "property": "b1-1", "from": None, "to": 100})
    assert state["paid"] == {"b1-1": 100}


# One change of each kind, in an order a new table allows (an IOU before what is still owed on
# it, a dispute before its status): the target fields and the value it sets.
SAMPLES: list[tuple[str, dict[str, Any], Any]] = [
    ("deed", {"property": "b1-1"}, "p1"),
    ("mortgage", {"property": "b1-1"}, True),
    ("houses", {"property": "b1-2"}, 2),
    ("hotel", {"property": "b1-2"}, True),
    ("jail_card", {"deck": "chance"}, "p2"),
    ("jail", {"player": "p2"}, True),
    ("bankrupt", {"player": "p2"}, 7),
    ("turn", {}, "p1"),
    ("void", {"seq": 3}, 8),
    ("iou", {"iou": "iou-4"}, {"debtor": "p2", "holder": "p1", "amount": 50, "outstanding": 50}),
    ("iou_outstanding", {"iou": "iou-4"}, 20),
    ("iou_holder", {"iou": "iou-4"}, "p3"),
    ("built_this_turn", {"player": "p1"}, 2),
    ("figure", {"property": "b1-1", "field": "price"}, 200),
    ("paid", {"property": "b1-2"}, 100),
    ("share_price", {}, 130),
    ("shares", {"player": "p1"}, 5),
    ("policy", {"player": "p1", "policy": "green"}, True),
    ("exempt", {"player": "p1"}, True),
    ("first_lap", {"player": "p1"}, True),
    ("name", {"player": "p1"}, "Anna"),
    (
        "dispute",
        {"dispute": 9},
        {"seq": 9, "about": 3, "by": "p2", "reason": "r", "status": "open"}
        | {"resolved_by": None, "note": None},
    ),
    ("dispute_status", {"dispute": 9}, {"status": "upheld", "resolved_by": 10, "note": "ok"}),
    ("status", {}, "finished"),
]


def test_every_kind_has_a_sample() -> None:
    assert sorted(kind for kind, _, _ in SAMPLES) == sorted(CHANGES)


def test_each_kind_applied_to_a_copy_leaves_the_state_and_is_undone_by_its_reverse() -> None:
    # A draft writes a change's `from` as the kind reads it now, applies it to its copy, and a
    # void applies it with `from` and `to` swapped: both must give the table back as it was.
    rs = elite_rules()
    state = new_state(["Ann", "Bob", "Cy"], list(rs.deeds), 32, 12, share_price=100)
    for kind, target, to in SAMPLES:
        declared = change_kind(kind)
        before = copy.deepcopy(state)
        change = {"kind": kind, **target, "from": declared.current(state, target), "to": to}
        if kind == "status":
            change["standings"] = [{"player": "p1", "score": 2000, "rank": 1}]

        after = copy_state(state)
        apply_change(after, change)

        assert state == before, kind  # the copy was deep enough
        assert declared.current(after, target) == to, kind
        undone = copy_state(after)
        apply_change(undone, {**change, "from": to, "to": change["from"]})
        assert undone == before, kind
        state = after

    assert state["supply"] == {"houses": 30, "hotels": 11}  # 2 houses out, then a hotel out
    assert state["standings"] == [{"player": "p1", "score": 2000, "rank": 1}]
