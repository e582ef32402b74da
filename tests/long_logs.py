"""Exported logs of long games for the tests, made with the ledger as a long evening would make
them (imported as ``from long_logs import long_log``: pytest puts ``tests`` on the path)."""

from __future__ import annotations

from typing import Any

from ledger.game import Game
from ledger.ruleset import built_in
from ledger.setup import setup_bodies
from ledger.views import transaction_view

CREATED = "2026-11-29T19:00:00.000Z"


def long_log(moves: int) -> dict[str, Any]:
    """An exported log of a classic game of three: its set-up, then ``moves`` payments of 1
    between Ann and Bob, each with a memo. Made with the ledger, as a long evening would."""
    rs = built_in("classic")
    assert rs is not None
    players = ["Ann", "Bob", "Cy"]
    game = Game(
        name="Long night",
        ruleset=rs.document,
        options=rs.option_defaults(),
        players=players,
        created_at=CREATED,
    )
    for body in setup_bodies(rs, list(game.state["players"]), {}):
        game.record(body, by="banker", at=CREATED)
    for n in range(moves):
        payer, payee = ("p1", "p2") if n % 2 else ("p2", "p1")
        move = {"type": "payment", "from": payer, "to": payee, "amount": 1, "memo": f"move {n}"}
        game.record(move, by="banker", at=CREATED)
    txns = [event.txn for event in game.collect_events() if hasattr(event, "txn")]
    return {
        "format": "tablebank-log/1",
        "game": {
            "name": game.name,
            "ruleset": rs.document,
            "options": game.options,
            "players": players,
            "created": CREATED,
        },
        "transactions": [transaction_view(txn) for txn in txns],
        "head": game.state["head"],
    }
