"""``ledger.state.Overlay``: a draft's copy of a part that grows with the game (the voids), made
at once however long it has grown, reading through to the game's and writing on its own, so
that a write's cost does not grow with the voids before it and a refused draft leaves the
game's part as it was."""

from __future__ import annotations

import pytest

from ledger.state import LAZY_PARTS, Overlay, copy_state, new_state


def test_an_overlay_reads_through_and_writes_on_its_own() -> None:
    base = {"4": 5, "6": 7}
    over = Overlay(base)
    over["8"] = 9  # a void recorded in the draft
    over.pop("4")  # a void taken back
    assert dict(over) == {"6": 7, "8": 9}
    assert (len(over), "4" in over, over.get("4")) == (2, False, None)
    assert base == {"4": 5, "6": 7}  # the game's own, untouched
    with pytest.raises(KeyError):
        del over["4"]
    over["4"] = 11
    assert dict(over) == {"4": 11, "6": 7, "8": 9}


def test_an_overlay_of_an_overlay_is_one_level_with_the_writes_so_far() -> None:
    base = {"4": 5}
    first = Overlay(base)
    first["6"] = 7
    second = Overlay(first)
    second["8"] = 9
    assert second.base is base
    assert dict(second) == {"4": 5, "6": 7, "8": 9}
    assert dict(first) == {"4": 5, "6": 7}  # the second's writes are its own


def test_a_drafts_copy_shares_only_the_parts_that_grow_with_the_game() -> None:
    state = new_state(["p1", "p2"], ["boardwalk"], 32, 12)
    state["voided"]["4"] = 5
    assert {"voided"} == LAZY_PARTS
    draft = copy_state(state, share_lazy=True)
    assert isinstance(draft["voided"], Overlay) and dict(draft["voided"]) == {"4": 5}
    assert draft["balances"] == state["balances"] and draft["balances"] is not state["balances"]
    full = copy_state(state)
    assert type(full["voided"]) is dict and full["voided"] is not state["voided"]
