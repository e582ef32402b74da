"""What every 409 refusal answers: the params its code declares, the detail built from them."""

from __future__ import annotations

from typing import Any

from ledger.refusals import REFUSALS


def checked(problem: dict[str, Any]) -> dict[str, Any]:
    """``problem``, once its ``params`` are those of its code and its ``detail`` theirs."""
    refusal = REFUSALS[problem["code"]]
    assert refusal.params_of(problem["params"]) == problem["params"], problem
    assert refusal.detail(problem["params"]) == problem["detail"], problem
    return problem
