"""An import obeys every limit creation does (API.md, "Server limits"; issue 12).

Each log refused here is one a forger could make: built with the ledger's own code (``forged``)
or exported and changed, its hash chain recomputed from the header on (``rechained``), so that
the chain holds and only the limit under test is broken. Before these checks every one of them
was imported (201). A refused import records nothing.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from api.cli import main
from ledger.application import TableBank
from ledger.chain import chain_hash, genesis
from ledger.game import Game
from ledger.ruleset import built_in
from ledger.setup import setup_bodies
from ledger.store import persistence_env
from ledger.views import transaction_view

IMPORT_URL = "/api/v1/games/import"
CREATED = "2026-11-29T19:00:00.000Z"
NOT_A_TIME = ["Not an RFC 3339 UTC time, such as 2026-11-29T20:15:03.120Z."]


def forged(
    *,
    name: str = "Friday night",
    players: tuple[str, ...] = ("Ann", "Bob"),
    created: str = CREATED,
    ruleset: dict[str, Any] | None = None,
    moves: tuple[tuple[dict[str, Any], str], ...] = (),
) -> dict[str, Any]:
    """An exported log made with the ledger's own code and no API in front of it: the set-up
    of a classic game (or of ``ruleset``), then each move recorded by the one named with it."""
    document = ruleset or built_in("classic").document  # type: ignore[union-attr]
    game = Game(
        name=name,
        ruleset=document,
        options=built_in("classic").option_defaults(),  # type: ignore[union-attr]
        players=list(players),
        created_at=created,
    )
    for body in setup_bodies(game.ruleset, list(game.state["players"]), {}):
        game.record(body, by="banker", at=created)
    for body, by in moves:
        game.record(body, by=by, at=created)
    txns = [event.txn for event in game.collect_events() if hasattr(event, "txn")]
    return {
        "format": "tablebank-log/1",
        "game": {
            "name": name,
            "ruleset": document,
            "options": game.options,
            "players": list(players),
            "created": created,
        },
        "transactions": [transaction_view(txn) for txn in txns],
        "head": game.state["head"],
    }


def rechained(document: dict[str, Any]) -> dict[str, Any]:
    """The log with every hash recomputed from its header on, as a forger would."""
    head = genesis(document["game"])
    for txn in document["transactions"]:
        txn["hash"] = head = chain_hash(head, txn)
    document["head"] = head
    return document


def refused(client: Any, document: dict[str, Any]) -> dict[str, Any]:
    """Import a log that must be refused with 422; the problem. No game may be added."""
    before = client.get("/api/v1/games").json["items"]
    response = client.post(IMPORT_URL, json=document)
    assert response.status_code == 422, response.json
    assert response.mimetype == "application/problem+json"
    assert client.get("/api/v1/games").json["items"] == before
    return response.json  # type: ignore[no-any-return]


def invalid(client: Any, document: dict[str, Any]) -> dict[str, list[str]]:
    """Import a log that must be refused as malformed; its errors by field."""
    problem = refused(client, document)
    assert problem["code"] == "validation_error"
    return problem["errors"]  # type: ignore[no-any-return]


@pytest.fixture
def exported(table):
    """Seq 4: Bob (p2) pays Ann 50 with his own token; 5: the banker pays Cy's salary."""
    table.record(
        {"type": "payment", "from": "p2", "to": "p1", "amount": 50}, token=table.tokens["p2"]
    )
    table.record({"type": "salary", "player": "p3"})
    response = table.get("/export")
    assert response.status_code == 200, response.json
    return response.json


# -- the forger's tools make logs that pass ----------------------------------------------------


def test_a_log_forged_within_every_limit_is_imported(client):
    response = client.post(IMPORT_URL, json=forged())

    assert response.status_code == 201, response.json
    assert [p["name"] for p in response.json["players"]] == ["Ann", "Bob"]


def test_an_exported_log_with_moves_a_player_recorded_is_imported(client, exported):
    response = client.post(IMPORT_URL, json=exported)

    assert response.status_code == 201, response.json
    assert response.json["balances"]["p2"] == 1450


def test_a_dispute_a_player_recorded_of_his_own_payment_is_imported(client, table):
    payer = table.tokens["p2"]
    table.record({"type": "payment", "from": "p2", "to": "p1", "amount": 50}, token=payer)
    table.record({"type": "dispute", "seq": 4, "reason": "I owed 5"}, token=payer)
    document = table.get("/export").json

    response = client.post(IMPORT_URL, json=document)

    assert response.status_code == 201, response.json
    assert response.json["disputes"][0]["by"] == "p2"


# -- players: how many ---------------------------------------------------------------------------


def test_an_import_of_one_player_is_refused(client):
    errors = invalid(client, forged(players=("Ann",)))

    assert errors == {"game.players": ["classic is played by 2 to 8"]}


def test_an_import_of_fifty_players_is_refused(client):
    errors = invalid(client, forged(players=tuple(f"Player {n}" for n in range(1, 51))))

    assert errors == {"game.players": ["Length must be between 1 and 8."]}


def test_an_import_of_nine_players_is_refused_as_creation_refuses_them(client):
    errors = invalid(client, forged(players=tuple(f"P{n}" for n in range(1, 10))))

    assert errors == {"game.players": ["Length must be between 1 and 8."]}


# -- names --------------------------------------------------------------------------------------


def test_an_import_whose_game_name_is_100_kb_long_is_refused(client):
    errors = invalid(client, forged(name="x" * 100_000))

    assert errors == {"game.name": ["Length must be between 1 and 40."]}


def test_an_import_with_an_empty_game_name_is_refused(client):
    errors = invalid(client, forged(name=""))

    assert errors == {"game.name": ["Length must be between 1 and 40."]}


def test_an_import_with_a_nul_in_a_players_name_is_refused(client):
    errors = invalid(client, forged(players=("Ann", "B\x00b")))

    assert errors == {"game.players.1": ["Must not contain control or format characters (U+0000)."]}


def test_an_import_with_a_bidirectional_override_in_the_game_name_is_refused(client):
    errors = invalid(client, forged(name="Friday \u202enight"))

    assert errors == {"game.name": ["Must not contain control or format characters (U+202E)."]}


def test_an_import_with_two_players_named_alike_but_for_case_is_refused(client):
    errors = invalid(client, forged(players=("Ann", "ANN")))

    assert errors == {"game.players": ['Names must differ, ignoring case: "Ann" and "ANN" do not.']}


def test_an_import_with_two_players_named_alike_to_the_eye_is_refused(client):
    errors = invalid(client, forged(players=("Ann", "\u0410nn")))  # a Cyrillic A

    assert errors == {
        "game.players": ['Names must not look alike: "Ann" and "\u0410nn" do (U+0410).']
    }


def test_an_import_with_an_invisible_character_in_a_players_name_is_refused(client):
    errors = invalid(client, forged(players=("Ann", "Ann\u2800")))

    assert errors == {"game.players.1": ["Must not contain invisible characters (U+2800)."]}


def test_an_import_with_a_name_not_as_a_server_keeps_it_is_refused(client):
    # "e" + COMBINING ACUTE ACCENT: creation would have kept it as U+00E9, and the header's
    # hash covers the name as it is, so it cannot be normalised on the way in.
    errors = invalid(client, forged(players=("Ann", "Re\u0301my")))

    assert errors == {
        "game.players.1": ["Must be as a server keeps a name: NFC, with no spaces around it."]
    }


def test_an_import_with_a_lone_surrogate_in_a_players_name_is_refused(client):
    errors = invalid(client, forged(players=("Ann", "B\ud800b")))

    assert errors == {"game.players.1": ["Must not contain a lone surrogate (U+D800)."]}


# -- who recorded each transaction -------------------------------------------------------------


def test_an_import_where_a_player_recorded_what_only_the_banker_may_is_refused(client):
    # Bob's token records a salary for himself: only the banker records salaries.
    document = forged(moves=(({"type": "salary", "player": "p2"}, "p2"),))

    problem = refused(client, document)

    assert problem["code"] == "log_invalid"
    assert (problem["seq"], problem["field"]) == (3, "by")


def test_an_import_where_a_player_paid_out_of_another_players_account_is_refused(client):
    document = forged(moves=(({"type": "payment", "from": "p1", "to": "p2", "amount": 200}, "p2"),))

    problem = refused(client, document)

    assert problem["code"] == "log_invalid"
    assert (problem["seq"], problem["field"]) == (3, "by")


def test_an_import_where_a_player_recorded_the_set_up_is_refused(client, exported):
    exported["transactions"][0]["by"] = "p1"  # Ann's starting cash, by Ann

    problem = refused(client, rechained(exported))

    assert problem["code"] == "log_invalid"
    assert (problem["seq"], problem["field"]) == (1, "by")


def test_an_import_of_a_transaction_recorded_by_someone_not_at_the_table_is_refused(
    client, exported
):
    exported["transactions"][3]["by"] = "p9"  # Bob's payment, by a seat the game has not

    problem = refused(client, rechained(exported))

    assert problem["code"] == "log_invalid"
    assert (problem["seq"], problem["field"]) == (4, "by")


def test_an_import_of_a_transaction_by_a_blank_recorder_is_refused(client, exported):
    exported["transactions"][4]["by"] = ""

    errors = invalid(client, rechained(exported))

    assert errors == {"transactions.4.by": ["Length must be between 1 and 64."]}


# -- times ----------------------------------------------------------------------------------------


def test_an_import_created_not_a_date_is_refused(client):
    errors = invalid(client, forged(created="not a date"))

    assert errors == {"game.created": NOT_A_TIME}


@pytest.mark.parametrize(
    "created",
    [
        "2026-11-29 19:00:00Z",  # a space for the T
        "2026-11-29T19:00:00",  # no offset
        "2026-11-29T19:00:00+01:00",  # not UTC
        "2026-02-30T19:00:00Z",  # no 30 February
        "2026-11-29T25:00:00Z",  # no 25 o'clock
        "1764442800",  # seconds since 1970
    ],
)
def test_an_import_created_at_a_time_not_rfc_3339_utc_is_refused(client, created):
    errors = invalid(client, forged(created=created))

    assert errors == {"game.created": NOT_A_TIME}


def test_an_import_created_at_an_rfc_3339_utc_time_with_its_offset_written_out_passes(client):
    response = client.post(IMPORT_URL, json=forged(created="2026-11-29T19:00:00.5+00:00"))

    assert response.status_code == 201, response.json


def test_an_import_of_a_transaction_at_a_time_not_rfc_3339_is_refused(client, exported):
    exported["transactions"][3]["at"] = "29/11/2026 20:15"

    errors = invalid(client, rechained(exported))

    assert errors == {"transactions.3.at": NOT_A_TIME}


def test_an_import_of_a_transaction_without_a_time_is_refused(client, exported):
    del exported["transactions"][4]["at"]

    errors = invalid(client, rechained(exported))

    assert errors == {"transactions.4.at": ["Missing data for required field."]}


# -- what each transaction carries, as POST .../transactions took it ----------------------------


def test_an_import_of_a_memo_with_a_control_character_is_refused(client):
    memo = "GO \x1b[2J"  # an escape that clears a terminal
    document = forged(moves=(({"type": "salary", "player": "p1", "memo": memo}, "banker"),))

    errors = invalid(client, document)

    assert errors == {
        "transactions.2.memo": ["Must not contain control characters other than newline (U+001B)."]
    }


def test_an_import_of_a_lone_surrogate_in_a_memo_is_refused(client):
    memo = "GO \ud800"
    document = forged(moves=(({"type": "salary", "player": "p1", "memo": memo}, "banker"),))

    errors = invalid(client, document)

    assert errors == {"transactions.2.memo": ["Must not contain a lone surrogate (U+D800)."]}


def test_an_import_of_a_payment_larger_than_any_request_may_ask_is_refused(client):
    # The Bank may pay anything, but no request may ask more than 10**9.
    big = {"type": "payment", "from": "bank", "to": "p1", "amount": 10**12}
    errors = invalid(client, forged(moves=((big, "banker"),)))

    assert errors == {
        "transactions.2.request.amount": [
            "Must be greater than or equal to 1 and less than or equal to 1000000000."
        ]
    }


def test_an_import_of_a_request_with_a_field_no_request_has_is_refused(client, exported):
    exported["transactions"][4]["request"]["bonus"] = 200

    errors = invalid(client, rechained(exported))

    assert errors == {"transactions.4.request.bonus": ["Unknown field."]}


# -- the rule set ---------------------------------------------------------------------------------


def test_an_import_with_a_rule_set_label_holding_a_control_character_is_refused(client):
    box = copy.deepcopy(built_in("classic").document)  # type: ignore[union-attr]
    box["title"] = "Classic \x1b[31m"

    errors = invalid(client, forged(ruleset=box))

    assert errors == {
        "game.ruleset.title": ["Must not contain control characters other than newline (U+001B)."]
    }


def test_an_import_with_a_rule_set_far_larger_than_creation_makes_is_refused(client):
    box = copy.deepcopy(built_in("classic").document)  # type: ignore[union-attr]
    box["title"] = "x" * 300_000  # a rule set made here is a 64 KiB body at most

    errors = invalid(client, forged(ruleset=box))

    assert errors == {
        "game.ruleset": ["a rule set's document is at most 262144 characters of JSON"]
    }


# -- the command line holds an import to the same limits ----------------------------------------


@pytest.mark.parametrize(
    ("document", "field"),
    [
        (forged(players=("Ann", "B\ud800b")), "game.players.1"),
        (
            forged(moves=(({"type": "salary", "player": "p1", "memo": "\ud800"}, "banker"),)),
            "transactions.2.memo",
        ),
        (forged(players=("Ann", "ANN")), "game.players"),
        (forged(created="not a date"), "game.created"),
    ],
)
def test_tablebank_import_refuses_what_the_api_refuses_and_records_nothing(
    tmp_path, db_url, capsys, document, field
):
    log = tmp_path / "log.json"
    log.write_text(json.dumps(document))  # a lone surrogate as its JSON escape

    status = main(["import", str(log), "--db", db_url])

    assert status == 1
    assert f"cannot be imported: {field}: " in capsys.readouterr().err
    with TableBank(env=persistence_env(db_url)) as bank:
        assert bank.list_games() == []
