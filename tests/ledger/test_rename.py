"""A player renamed mid-game (API.md v1.3, "Players and boxes"): ``rename_player`` (banker) gives
a player a new name, held to the rules of the names a game is created with (1 to 40 characters;
none the same ignoring case or alike to the eye as another player's, refused with creation's
very words); it moves no money, shows in the log with the old and the new name, is voided by
the void of the corrections, and an export keeps the names the game was created with in its
header (its hash chain starts from them) while the log and the table after an import say the
new one."""

from __future__ import annotations

from ledger_helpers import Table

from ledger.application import TableBank
from ledger.errors import InvalidField, RuleViolation
from ledger.exchange import replay_document, verify_document
from ledger.store import persistence_env


def names(table: Table) -> list[str]:
    return [p["name"] for p in table.state()["players"]]


def refused_name(table: Table, player: str, name: str) -> dict[str, list[str]]:
    """A rename refused as a field: what the 422 says of ``name``, the game left as it was."""
    err = table.refused("rename_player", player=player, name=name)
    assert isinstance(err, InvalidField)
    assert err.code == "validation_error"
    return err.extra["errors"]  # type: ignore[no-any-return]


# -- a rename ----------------------------------------------------------------------------------


def test_a_rename_moves_no_money_and_the_table_says_the_new_name(table: Table) -> None:
    # Ann (p1), Bob (p2), Cy (p3): 1500 each (docs/rules.md, "Set-up and starting cash").
    txn = table.record("rename_player", player="p2", name="Robert")

    assert (txn["seq"], txn["type"], txn["postings"]) == (4, "rename_player", [])
    assert txn["changes"] == [{"kind": "name", "player": "p2", "from": "Bob", "to": "Robert"}]
    assert txn["basis"] == {"player": "p2", "old_name": "Bob", "new_name": "Robert"}
    assert names(table) == ["Ann", "Robert", "Cy"]
    assert table.state()["balances"] == {
        "bank": -4500,
        "pot": 0,
        "p1": 1500,
        "p2": 1500,
        "p3": 1500,
    }


def test_the_log_keeps_both_names_and_the_table_before_it_the_old_one(table: Table) -> None:
    table.record("rename_player", player="p2", name="Robert")
    table.record("salary", player="p2")  # 200 (docs/rules.md, "Salary")

    logged = table.bank.transaction(table.id, 4)
    assert logged["request"] == {"player": "p2", "name": "Robert"}
    assert logged["changes"] == [{"kind": "name", "player": "p2", "from": "Bob", "to": "Robert"}]
    before = table.bank.game(table.id, seq=3)
    assert [p["name"] for p in before["players"]] == ["Ann", "Bob", "Cy"]
    assert (table.player("p2")["name"], table.cash("p2")) == ("Robert", 1700)


def test_a_name_only_in_other_case_of_the_players_own_is_a_correction(table: Table) -> None:
    table.record("rename_player", player="p1", name="ANN")
    table.record("rename_player", player="p1", name="Anne")

    assert names(table) == ["Anne", "Bob", "Cy"]


def test_a_name_of_forty_characters_is_taken(table: Table) -> None:
    name = "Bartholomew " * 3 + "Jones"  # 41 characters: one too many
    assert len(name) == 41
    table.record("rename_player", player="p2", name=name[:40])

    assert table.player("p2")["name"] == "Bartholomew Bartholomew Bartholomew Jone"


# -- refused as at creation --------------------------------------------------------------------


def test_another_players_name_in_other_case_is_refused_in_creations_words(table: Table) -> None:
    assert refused_name(table, "p2", "ann") == {
        "name": ['Names must differ, ignoring case: "Ann" and "ann" do not.']
    }
    assert refused_name(table, "p3", "Bob") == {
        "name": ['Names must differ, ignoring case: "Bob" and "Bob" do not.']
    }


def test_a_name_like_another_to_the_eye_is_refused_in_creations_words(table: Table) -> None:
    # "Ann" with a Cyrillic A (U+0410), and in full-width letters (U+FF21, U+FF4E).
    assert refused_name(table, "p2", "\u0410nn") == {
        "name": ['Names must not look alike: "Ann" and "\u0410nn" do (U+0410).']
    }
    assert refused_name(table, "p3", "\uff21\uff4e\uff4e") == {
        "name": ['Names must not look alike: "Ann" and "\uff21\uff4e\uff4e" do (U+FF21, U+FF4E).']
    }


def test_a_name_too_long_or_empty_is_refused(table: Table) -> None:
    assert refused_name(table, "p2", "B" * 41) == {"name": ["Length must be between 1 and 40."]}
    assert refused_name(table, "p2", "") == {"name": ["Length must be between 1 and 40."]}


def test_a_name_not_as_a_server_keeps_one_is_refused(table: Table) -> None:
    # The API trims and composes a name (NFC); the ledger takes only a name in that form.
    for name in (" Robert", "Zoe\u0301"):
        assert refused_name(table, "p2", name) == {
            "name": ["Must be as a server keeps a name: NFC, with no spaces around it."]
        }


def test_the_players_own_name_again_is_refused(table: Table) -> None:
    assert refused_name(table, "p2", "Bob") == {
        "name": ['Must differ from the name p2 has: "Bob".']
    }


def test_a_stranger_or_a_bankrupt_player_is_not_renamed(table: Table) -> None:
    err = table.refused("rename_player", player="p7", name="Zed")
    assert isinstance(err, RuleViolation) and err.code == "unknown_player"
    table.record("bankruptcy", debtor="p3", creditor="bank", owed=100000)

    err = table.refused("rename_player", player="p3", name="Zed")

    assert isinstance(err, RuleViolation) and err.code == "player_bankrupt"


# -- a void --------------------------------------------------------------------------------------


def test_a_void_gives_the_old_name_back(table: Table) -> None:
    before = table.state()
    txn = table.record("rename_player", player="p2", name="Robert")

    void = table.record("void", seq=txn["seq"], reason="Bob likes Bob")

    assert void["changes"][0] == {"kind": "name", "player": "p2", "from": "Robert", "to": "Bob"}
    assert names(table) == ["Ann", "Bob", "Cy"]
    after = table.state()
    assert {k: v for k, v in after.items() if k not in ("version", "last_seq", "head")} == {
        k: v for k, v in before.items() if k not in ("version", "last_seq", "head")
    }


def test_a_rename_that_a_later_one_depends_on_is_not_voided(table: Table) -> None:
    # Bob becomes Robert, then Cy takes the name Bob: without the first, the second would be
    # refused (two players named Bob), so the first stands.
    first = table.record("rename_player", player="p2", name="Robert")
    table.record("rename_player", player="p3", name="Bob")

    err = table.refused("void", seq=first["seq"], reason="?")

    assert isinstance(err, RuleViolation) and err.code == "void_conflict"
    assert err.params == {
        "reason": "refused",
        "seq": 5,
        "type": "rename_player",
        "depends_on": 4,
        "would_be": "validation_error",
    }


# -- export, import and replay -------------------------------------------------------------------


def test_an_export_keeps_the_names_of_creation_and_the_log_the_renames(table: Table) -> None:
    table.record("rename_player", player="p2", name="Robert")
    table.record("rename_player", player="p2", name="Rob")
    table.record("payment", **{"from": "p2", "to": "p1", "amount": 50})

    document = table.bank.export(table.id)

    assert document["game"]["players"] == ["Ann", "Bob", "Cy"]
    renames = [t["changes"] for t in document["transactions"] if t["type"] == "rename_player"]
    assert renames == [
        [{"kind": "name", "player": "p2", "from": "Bob", "to": "Robert"}],
        [{"kind": "name", "player": "p2", "from": "Robert", "to": "Rob"}],
    ]
    assert verify_document(document) == {"ok": True, "transactions": 6, "head": document["head"]}
    imported = table.bank.import_game(document)
    assert [p["name"] for p in imported["players"]] == ["Ann", "Rob", "Cy"]
    # Bob's 1500, less 50 to Ann (docs/rules.md, "Set-up and starting cash").
    steps = list(replay_document(document))
    assert [s["balances"]["p2"] for s in steps[-3:]] == [1500, 1500, 1450]


def test_a_renamed_back_game_exports_its_first_names(table: Table) -> None:
    table.record("rename_player", player="p1", name="Anna")
    table.record("rename_player", player="p1", name="Ann")
    table.record("rename_player", player="p1", name="Annie")
    last = table.record("rename_player", player="p3", name="Cyrus")
    table.record("void", seq=last["seq"], reason="?")

    document = table.bank.export(table.id)

    assert document["game"]["players"] == ["Ann", "Bob", "Cy"]
    assert [p["name"] for p in table.bank.import_game(document)["players"]] == [
        "Annie",
        "Bob",
        "Cy",
    ]


def test_an_import_with_a_rename_to_a_taken_name_is_refused(table: Table) -> None:
    table.record("rename_player", player="p2", name="Robert")
    document = table.bank.export(table.id)
    document["transactions"][-1]["request"]["name"] = "ANN"

    result = verify_document(document)

    assert result["ok"] is False and result["seq"] == 4


def test_a_renamed_game_reloaded_from_its_store_and_snapshot_exports_as_created(
    db_url: str,
) -> None:
    # Past 100 transactions a game is loaded from its snapshot (ledger/storage.py).
    with TableBank(env=persistence_env(db_url)) as bank:
        table = Table(bank)
        table.record("rename_player", player="p2", name="Robert")
        for _ in range(100):
            table.record("turn", player="p1")
        game_id = table.id
    with TableBank(env=persistence_env(db_url)) as again:
        document = again.export(game_id)
        state = again.game(game_id)
        assert document["game"]["players"] == ["Ann", "Bob", "Cy"]
        assert [p["name"] for p in state["players"]] == ["Ann", "Robert", "Cy"]
        assert again.import_game(document)["players"][1]["name"] == "Robert"
