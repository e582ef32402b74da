"""``rename_player`` over HTTP (API.md v1.3, "Players and boxes"): the banker corrects a name
mid-game; the new name is checked as the names of a new game are (``POST /api/v1/games``), with
the same code and the same words: 422 ``validation_error``, the sentence of creation under
``name``; it moves no money, is previewed by a dry run, voided like any transaction, shows in
the log, and an export keeps the names of creation while its log and the game say the new one.
"""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import Table
from flask.testing import FlaskClient

RENAME = {"type": "rename_player", "player": "p2"}


def creation_refusal(client: FlaskClient, players: list[str]) -> list[str]:
    """What ``POST /api/v1/games`` answers to a new game of these players' names."""
    body = {"name": "Friday night", "ruleset": "classic", "players": players}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422, response.json
    assert response.json["code"] == "validation_error"
    return response.json["errors"]["players"]  # type: ignore[no-any-return]


def names(table: Table) -> list[str]:
    return [p["name"] for p in table.state()["players"]]


def test_the_banker_renames_a_player_and_no_money_moves(table: Table) -> None:
    txn = table.record({**RENAME, "name": "Robert"})

    assert (txn["seq"], txn["postings"]) == (4, [])
    assert txn["changes"] == [{"kind": "name", "player": "p2", "from": "Bob", "to": "Robert"}]
    assert txn["basis"] == {"player": "p2", "old_name": "Bob", "new_name": "Robert"}
    state = table.state()
    assert names(table) == ["Ann", "Robert", "Cy"]
    # 1500 each, as created (docs/rules.md, "Set-up and starting cash").
    assert [p["cash"] for p in state["players"]] == [1500, 1500, 1500]


def test_the_name_is_kept_as_a_new_games_names_are(table: Table) -> None:
    # Trimmed and composed (NFC), as POST /api/v1/games keeps a name.
    txn = table.record({**RENAME, "name": "  Re\u0301my "})

    assert txn["request"] == {"player": "p2", "name": "R\u00e9my"}
    assert names(table)[1] == "R\u00e9my"


@pytest.mark.parametrize(
    "name",
    ["ann", "CY", "\u0410nn", "\uff21\uff4e\uff4e", "C\u0443"],
    ids=["ann", "CY", "Cyrillic A", "full-width", "Cyrillic y"],
)
def test_a_name_too_like_another_players_is_refused_as_at_creation(
    client: FlaskClient, table: Table, name: str
) -> None:
    other = "Cy" if name.casefold().startswith("c") else "Ann"
    said = creation_refusal(client, [other, name])

    assert table.invalid({**RENAME, "name": name}) == {"name": said}
    assert names(table) == ["Ann", "Bob", "Cy"]
    assert table.state()["last_seq"] == 3


@pytest.mark.parametrize(
    "name",
    ["B" * 41, "", "   ", "Bob\u202e", "Bob\u200b", "\u2800"],
    ids=["41 characters", "empty", "spaces", "U+202E", "U+200B", "U+2800"],
)
def test_a_name_a_new_game_refuses_is_refused(client: FlaskClient, table: Table, name: str) -> None:
    body = {"name": "Friday night", "ruleset": "classic", "players": ["Ann", name]}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422
    said = response.json["errors"]["players.1"]

    assert table.invalid({**RENAME, "name": name}) == {"name": said}
    assert table.state()["last_seq"] == 3


def test_a_dry_run_previews_it_and_records_nothing(table: Table) -> None:
    response = table.client.post(
        table.url + "/transactions?dry_run=true",
        json={**RENAME, "name": "Robert"},
        headers=table.auth(),
    )

    assert response.status_code == 200, response.json
    assert response.json["basis"] == {"player": "p2", "old_name": "Bob", "new_name": "Robert"}
    assert names(table) == ["Ann", "Bob", "Cy"]
    refused = table.client.post(
        table.url + "/transactions?dry_run=true",
        json={**RENAME, "name": "ANN"},
        headers=table.auth(),
    )
    assert refused.status_code == 422
    assert refused.json["errors"] == {
        "name": ['Names must differ, ignoring case: "Ann" and "ANN" do not.']
    }


def test_only_the_banker_renames(table: Table) -> None:
    response = table.post({**RENAME, "name": "Robert"}, token=table.tokens["p2"])

    assert response.status_code == 403
    moves = table.get("/moves", token=table.tokens["p2"]).json["moves"]
    assert "rename_player" not in {m["type"] for m in moves}


def test_the_moves_offer_it_with_its_fields(table: Table) -> None:
    moves = {m["type"]: m for m in table.get("/moves").json["moves"]}

    assert moves["rename_player"] == {
        "type": "rename_player",
        "who": ["banker"],
        "voidable": True,
        "fields": [
            {"name": "player", "kind": "player", "required": True, "choices": ["p1", "p2", "p3"]},
            {
                "name": "name",
                "kind": "text",
                "required": True,
                "min": 1,
                "max": 40,
                "description": "the player's new name",
            },
        ],
    }


def test_a_void_gives_the_old_name_back_and_the_log_keeps_both(table: Table) -> None:
    renamed = table.record({**RENAME, "name": "Robert"})
    table.record({"type": "void", "seq": renamed["seq"], "reason": "Bob likes Bob"})

    assert names(table) == ["Ann", "Bob", "Cy"]
    log = table.get("/transactions").json["items"]
    assert [(t["seq"], t["type"], t["voided_by"]) for t in log[-2:]] == [
        (4, "rename_player", 5),
        (5, "void", None),
    ]
    assert log[-1]["changes"][0] == {"kind": "name", "player": "p2", "from": "Robert", "to": "Bob"}


def test_an_export_names_the_players_as_created_and_imports_renamed(
    client: FlaskClient, table: Table
) -> None:
    table.record({**RENAME, "name": "Robert"})
    table.record({"type": "payment", "from": "p2", "to": "p1", "amount": 50})
    document: dict[str, Any] = table.get("/export").json

    imported = client.post("/api/v1/games/import", json=document)

    assert document["game"]["players"] == ["Ann", "Bob", "Cy"]
    assert imported.status_code == 201, imported.json
    assert [(p["name"], p["cash"]) for p in imported.json["players"]] == [
        ("Ann", 1550),
        ("Robert", 1450),
        ("Cy", 1500),
    ]
    again = Table(client, imported.json)
    replay = again.get("/replay")
    assert replay.status_code == 200, replay.json
    assert replay.json["steps"][-1]["balances"]["p2"] == 1450
