"""`tablebank serve` on a free loopback port and the run's store, and a short classic game over
real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server import Server

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path: Path, db_url: str) -> Iterator[Server]:
    with Server(db_url, tmp_path / "server.log") as running:
        yield running


def test_short_classic_game_over_http(server: Server) -> None:
    created = server.call(
        "POST", "/api/v1/games", {"name": "e2e", "ruleset": "classic", "players": ["Ann", "Bob"]}
    )
    assert created.status == 201
    game = created.body
    gid, banker = game["id"], game["banker_token"]
    assert game["balances"] == {"bank": -3000, "pot": 0, "p1": 1500, "p2": 1500}

    def post(body: dict[str, Any], token: str = banker) -> tuple[int, Any]:
        answer = server.call("POST", f"/api/v1/games/{gid}/transactions", body, token)
        return answer.status, answer.body

    # Ann buys both dark-blue deeds: 400 + 350 (docs/rules.md appendix).
    assert post({"type": "buy", "player": "p1", "property": "boardwalk"})[0] == 201
    assert post({"type": "buy", "player": "p1", "property": "park-place"})[0] == 201
    # Bob lands on bare Boardwalk of a complete group: 50 doubled = 100, recorded by Bob himself.
    status, rent = post(
        {"type": "rent", "payer": "p2", "property": "boardwalk"}, game["tokens"]["p2"]
    )
    assert status == 201
    assert rent["postings"] == [{"from": "p2", "to": "p1", "amount": 100}]
    # One house each (200 apiece): Boardwalk with 1 house rents 200.
    status, _ = post(
        {"type": "build", "orders": [{"property": "boardwalk"}, {"property": "park-place"}]}
    )
    assert status == 201
    status, rent = post({"type": "rent", "payer": "p2", "property": "boardwalk"})
    assert rent["postings"] == [{"from": "p2", "to": "p1", "amount": 200}]
    # Bob cannot pay 5000: refused, with the shortfall (1500 - 100 - 200 = 1200 held).
    status, problem = post({"type": "payment", "from": "p2", "to": "p1", "amount": 5000})
    assert status == 409
    assert problem["code"] == "insufficient_funds"
    assert problem["shortfall"] == 3800
    # Bob goes bankrupt to Ann: the game is over.
    status, _ = post({"type": "bankruptcy", "debtor": "p2", "creditor": "p1"})
    assert status == 201
    state = server.call("GET", f"/api/v1/games/{gid}", token=banker).body
    assert state["status"] == "finished"
    assert state["balances"]["p2"] == 0
    # Ann: 1500 - 750 + 100 - 400 + 200 + Bob's 1200 = 1850 cash.
    assert state["balances"]["p1"] == 1850
    assert sum(state["balances"].values()) == 0
    assert post({"type": "salary", "player": "p1"})[1]["code"] == "game_finished"

    text = server.log_text()
    for token in [banker, *game["tokens"].values()]:
        assert token not in text
