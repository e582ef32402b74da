"""The audit reads' fast paths give exactly what the library's own paths give (issue 13).

- ``ledger.store.select_states``: the SELECT of our own reads the same states, in the same
  order, as the recorder's ``select_events`` (every ``gt`` and ``limit`` edge), on the run's
  store; any recorder it does not know (in memory, an overridden ``select_events``) is left to
  the library (None).
- ``Reading.records`` (replay, verify, export, statements): the same records as decoding every
  event with the library's mapper, whatever ``after`` and ``limit``; a store that is not plain
  JSON (a compressor) is read through the mapper and answers the same.
- ``decode_states``: the same values as ``json.loads`` of each state; ``gc_paused`` leaves the
  collector as it found it.
- ``chain.json_encoding``/``canonical``: the same text as ``JSONEncoder.encode``/``json.dumps``,
  errors included; ``chain_hash`` the same hash as the comprehension it replaced.
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.popo import POPOApplicationRecorder

from ledger import reading
from ledger.application import TableBank
from ledger.chain import UNHASHED, canonical, chain_hash, json_encoding
from ledger.game import Game
from ledger.store import select_states
from ledger.transactions import TransactionRecorded


@pytest.fixture
def bank(stored_bank: TableBank) -> TableBank:
    """The stores' own SELECTs and what they decode, on every store of the matrix."""
    return stored_bank


FIXTURES = Path(__file__).parent / "fixtures"


def exports() -> list[dict[str, Any]]:
    """The stored fixtures' export documents: every transaction type, voids, disputes, renames."""
    return [
        json.loads(path.read_text(encoding="utf-8"))
        for version in ("v1", "v2", "v3")
        for path in sorted((FIXTURES / version / "exports").glob("*.json"))
    ]


DOCUMENTS = exports()


@pytest.fixture
def imported(bank: TableBank) -> list[uuid.UUID]:
    """Every fixture game imported into the run's store."""
    return [uuid.UUID(bank.import_game(doc)["id"]) for doc in DOCUMENTS]


def library_records(
    bank: TableBank, game_id: uuid.UUID, after: int = 0, limit: int | None = None
) -> list[dict[str, Any]]:
    """A game's records as the library reads them: every event through the mapper."""
    events = bank.storage.events.get(game_id, gt=after + Game.INITIAL_VERSION, limit=limit)
    return [ev.txn for ev in events if isinstance(ev, TransactionRecorded)]


def test_the_fixtures_hold_long_enough_games():
    assert len(DOCUMENTS) >= 5
    assert max(len(doc["transactions"]) for doc in DOCUMENTS) > 20


# -- select_states ------------------------------------------------------------------------


def edges(last: int) -> Iterator[tuple[int, int | None]]:
    for gt in (-5, 0, 1, 2, last // 2, last - 1, last, last + 1, last + 50):
        for limit in (None, 0, 1, 2, 7, last, last + 10):
            yield gt, limit


def test_select_states_reads_what_select_events_reads(bank, imported, store):
    recorder = bank.storage.recorder
    for game_id in imported:
        last = bank.storage.load_game(game_id).version
        for gt, limit in edges(last):
            library = [s.state for s in recorder.select_events(game_id, gt=gt, limit=limit)]
            ours = select_states(recorder, game_id, gt=gt, limit=limit)
            if store.name == "memory":
                assert ours is None  # the in-memory store: left to the library
                continue
            assert ours == library, (gt, limit)
            assert all(type(state) is bytes for state in ours)


def test_select_states_of_a_game_not_there_is_empty(bank, store):
    ours = select_states(bank.storage.recorder, uuid.uuid4(), gt=0)
    assert ours == ([] if store.name != "memory" else None)


def test_select_states_leaves_unknown_recorders_to_the_library(bank):
    assert select_states(POPOApplicationRecorder(), uuid.uuid4(), gt=0) is None
    overridden = type(
        "Overridden",
        (type(bank.storage.recorder),),
        {"select_events": lambda self, *a, **k: []},
    )
    recorder: Any = object.__new__(overridden)  # never used: only its class is looked at
    assert select_states(recorder, uuid.uuid4(), gt=0) is None


# -- _records, and the answers built on them ---------------------------------------------


def test_records_are_the_library_records_at_every_edge(bank, imported):
    for game_id in imported:
        last = bank.storage.load_game(game_id).last_seq
        for after in (0, 1, 2, last // 2, last - 1, last, last + 3):
            for limit in (None, 0, 1, 3, last + 1):
                expected = library_records(bank, game_id, after, limit)
                for kept in (False, True):  # decoded one at a time, or many at once
                    got = list(bank.reading.records(game_id, after=after, limit=limit, kept=kept))
                    assert got == expected, (after, limit, kept)


def test_records_decode_across_chunks(bank, imported, monkeypatch):
    monkeypatch.setattr(reading, "DECODE_CHUNK", 3)  # many chunks, the last one short
    for game_id in imported:
        assert list(bank.reading.records(game_id, kept=True)) == library_records(bank, game_id)
        assert list(bank.reading.records(game_id, after=2, limit=5, kept=True)) == library_records(
            bank, game_id, 2, 5
        )


def answers(bank: TableBank, game_id: uuid.UUID) -> dict[str, Any]:
    game = bank.storage.load_game(game_id)
    return {
        "replay": bank.replay(game_id),
        "verify": bank.verify(game_id),
        "export": bank.export(game_id),
        "transactions": list(bank.transactions(game_id)),
        "first": bank.transaction(game_id, 1),
        "last": bank.transaction(game_id, game.last_seq),
        "statements": {a: bank.statement(game_id, a) for a in game.state["balances"]},
        "fairplay": bank.fairplay(game_id),
    }


def test_answers_are_the_same_read_through_the_mapper(bank, imported):
    for game_id in imported:
        fast = answers(bank, game_id)
        bank.reading.plain_json = False  # as a store with a cipher or compressor is read
        try:
            slow = answers(bank, game_id)
        finally:
            bank.reading.plain_json = True
        assert fast == slow
        assert json.dumps(fast) == json.dumps(slow)  # the same order of keys too


def test_a_compressed_store_falls_back_to_the_mapper(tmp_path):
    env = {
        "PERSISTENCE_MODULE": "ledger.store:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(tmp_path / "z.sqlite"),
        "COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor",
    }
    with TableBank(env=env) as bank:
        assert not bank.reading.plain_json
        for doc in DOCUMENTS[:3]:
            gid = bank.import_game(doc)["id"]
            assert bank.verify(gid)["ok"]
            assert bank.export(gid)["transactions"] == doc["transactions"]
            stored = bank.storage.recorder.select_events(uuid.UUID(gid), gt=1, limit=1)
            assert not stored[0].state.startswith(b"{")  # compressed indeed


def test_an_export_imports_and_verifies_as_before(bank, imported):
    for game_id, doc in zip(imported, DOCUMENTS, strict=True):
        exported = bank.export(game_id)
        assert exported["transactions"] == doc["transactions"]
        assert exported["head"] == doc["head"]
        assert bank.verify(game_id) == {
            "ok": True,
            "transactions": len(doc["transactions"]),
            "head": doc["head"],
        }


# -- decoding and the collector -----------------------------------------------------------


def test_decode_states_decodes_each_state_as_json_loads_does():
    states = [
        json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        for value in (
            {"txn": {"memo": "caf\u00e9 \u2603", "n": -0.0, "big": 10**30, "f": 1.5e-7}},
            {"txn": None},
            {"other": [1, 2, {"a": True}]},
            {"txn": {"memo": '\\"quoted\\"', "list": [], "obj": {}}},
        )
    ]
    assert reading.decode_states(states) == [json.loads(s) for s in states]
    assert reading.decode_states([]) == []


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_paused_leaves_the_collector_as_it_found_it(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with reading.gc_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(ZeroDivisionError), reading.gc_paused():
            1 / 0  # noqa: B018
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_replay_and_verify_leave_the_collector_on(bank, imported):
    assert gc.isenabled()
    bank.replay(imported[0])
    bank.verify(imported[0])
    assert gc.isenabled()


# -- the canonical text and the hash --------------------------------------------------------

VALUES: list[Any] = [
    {"b": 1, "a": [1, 2.5, -0.0, 1e300, True, False, None], "c": {"z": "é", "y": "\u2028"}},
    {"memo": "\ud800", "seq": 3},
    {"nested": [[{"k": [{}]}], []], "": "", "\u00e9": 10**40},
    [3, "x", {"b": 2, "a": 1}],
    'a string \u00e9 "quoted"',
    42,
    1.1,
    None,
    True,
    {"nan": math.nan, "inf": math.inf, "-inf": -math.inf},
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_canonical_is_json_dumps_sorted_compact(value):
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(value) == expected


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"sort_keys": True},
        {"ensure_ascii": False, "separators": (",", ":")},
        {"check_circular": False},
        {"indent": 2, "sort_keys": True},  # left to its own encode
        {"allow_nan": False},
        {"skipkeys": True},
    ],
)
def test_json_encoding_gives_the_encoders_own_text(options):
    encoder = json.JSONEncoder(**options)
    encoding = json_encoding(encoder)
    odd_keys = {1: "int", 2.5: "float", False: "bool", None: "none", "s": "str"}
    for value in [*VALUES, odd_keys, {"set": {1}}, {(1, 2): "tuple key"}]:
        try:
            expected = encoder.encode(value)
        except (ValueError, TypeError) as err:  # allow_nan=False, mixed keys sorted, a set
            with pytest.raises(type(err)) as raised:
                encoding(value)
            assert str(raised.value) == str(err)
            continue
        assert encoding(value) == expected


def test_json_encoding_raises_what_encode_raises():
    encoding = json_encoding(json.JSONEncoder(sort_keys=True, separators=(",", ":")))
    circular: dict[str, Any] = {}
    circular["self"] = circular
    with pytest.raises(ValueError, match="Circular reference"):
        encoding(circular)
    with pytest.raises(TypeError, match="not JSON serializable"):
        encoding({"a": {1, 2}})
    # markers are new each time: a value after a failed one encodes
    assert encoding({"a": [1]}) == '{"a":[1]}'
    with pytest.raises(TypeError):
        encoding({"b": 1, 2: 3})  # keys of mixed types, sorted


def test_json_encoding_of_a_subclass_is_its_own_encode():
    class Custom(json.JSONEncoder):
        def encode(self, o: Any) -> str:
            return "custom"

    assert json_encoding(Custom())({"a": 1}) == "custom"


def old_chain_hash(previous: str, txn: dict[str, Any]) -> str:
    body = {k: v for k, v in txn.items() if k not in UNHASHED}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((previous + text).encode("utf-8", "surrogatepass")).hexdigest()


def test_chain_hash_is_the_hash_it_always_was():
    for doc in DOCUMENTS:
        for txn in doc["transactions"]:  # exported: with voided_by, which is not hashed
            assert chain_hash("0" * 64, txn) == old_chain_hash("0" * 64, txn)
        without = {k: v for k, v in doc["transactions"][-1].items() if k not in UNHASHED}
        assert chain_hash("x", without) == old_chain_hash("x", without)
        assert "hash" in doc["transactions"][-1]  # the record itself is not changed


# -- encoding events for an import ----------------------------------------------------------
