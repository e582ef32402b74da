"""Reads of whole logs in process (API.md v1.2, "Reads never stall the table"): their answers
are the documented shapes exactly, computed once per version of the game, and every answer
about a game answers ``If-None-Match`` with 304, a ``?seq=N`` one with a tag that later writes
do not change. tests/e2e/test_heavy_reads.py runs them off the loop of a real server."""

from __future__ import annotations

import gevent
import pytest
from flask import Flask

from api.heavy import HEAVY, HeavyReads
from api.offload import Busy
from schemas.audit import ExportSchema, ReplaySchema, StatementSchema, VerificationSchema
from schemas.fairplay import FairPlaySchema
from schemas.stats import StatsSchema
from schemas.transactions import TransactionPageSchema

READS = {
    "/replay": ReplaySchema,
    "/export": ExportSchema,
    "/verify": VerificationSchema,
    "/fairplay": FairPlaySchema,
    "/stats": StatsSchema,
    "/accounts/p1/statement": StatementSchema,
    "/transactions?account=p2": TransactionPageSchema,
    "/transactions?type=rent&limit=2": TransactionPageSchema,
}


@pytest.fixture
def evening(table):
    """Seq 4-5: Ann buys Boardwalk and Park Place; 6: Bob pays Boardwalk's rent; 7: Ann builds
    a house on each; 8: Cy pays 15 on a card; 9: Bob pays Cy 20, voided by 10; 11: Bob buys
    Reading Railroad and 12 mortgages it."""
    table.buy("p1", "boardwalk", "park-place")
    table.record({"type": "rent", "payer": "p2", "property": "boardwalk", "memo": "landed"})
    table.record(
        {
            "type": "build",
            "orders": [
                {"property": "boardwalk", "houses": 1},
                {"property": "park-place", "houses": 1},
            ],
        }
    )
    table.record(
        {"type": "card", "player": "p3", "effect": "pay", "amount": 15, "memo": "Poor tax"}
    )
    paid = table.record({"type": "payment", "from": "p2", "to": "p3", "amount": 20})
    table.record({"type": "void", "seq": paid["seq"], "reason": "wrong player"})
    table.buy("p2", "reading-railroad")
    table.record({"type": "mortgage", "property": "reading-railroad"})
    return table


@pytest.mark.parametrize("path", list(READS))
def test_each_long_read_answers_what_its_schema_would_dump(evening, path):
    # The answer is encoded straight from the ledger's result, without the schema's dump:
    # the two must never differ (a field the ledger adds, one the schema renames).
    response = evening.get(path)

    assert response.status_code == 200, response.json
    assert response.mimetype == "application/json"
    assert response.json == READS[path]().dump(response.json)
    assert response.headers["ETag"] == f'"{evening.state()["version"]}"'


def test_the_same_read_of_the_same_version_is_computed_once(app: Flask, evening):
    reads: HeavyReads = app.extensions[HEAVY]
    before = reads.computed
    first = evening.get("/replay")
    again = evening.get("/replay")
    assert reads.computed == before + 1
    assert again.get_data() == first.get_data()

    evening.record({"type": "payment", "from": "bank", "to": "p1", "amount": 200, "memo": "Go"})
    after_a_write = evening.get("/replay")
    assert reads.computed == before + 2
    assert len(after_a_write.json["steps"]) == len(first.json["steps"]) + 1


def test_if_none_match_with_the_games_version_answers_304_and_computes_nothing(app: Flask, evening):
    reads: HeavyReads = app.extensions[HEAVY]
    first = evening.get("/export")
    tag = first.headers["ETag"]
    before = reads.computed

    again = evening.client.get(
        evening.url + "/export", headers={**evening.auth(), "If-None-Match": tag}
    )
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == tag
    assert reads.computed == before

    evening.record({"type": "payment", "from": "bank", "to": "p1", "amount": 200, "memo": "Go"})
    moved = evening.client.get(
        evening.url + "/export", headers={**evening.auth(), "If-None-Match": tag}
    )
    assert moved.status_code == 200
    assert moved.headers["ETag"] != tag


def test_a_game_as_of_a_seq_keeps_its_tag_whatever_comes_later(evening):
    at_five = evening.get("?seq=5")
    tag = at_five.headers["ETag"]
    assert tag == f'"{at_five.json["version"]}"'
    evening.record({"type": "payment", "from": "bank", "to": "p1", "amount": 200, "memo": "Go"})

    later = evening.client.get(
        evening.url + "?seq=5", headers={**evening.auth(), "If-None-Match": tag}
    )
    assert later.status_code == 304
    assert later.headers["ETag"] == tag
    # The game now is another version: the same tag does not stand for it.
    now = evening.client.get(evening.url, headers={**evening.auth(), "If-None-Match": tag})
    assert now.status_code == 200


def test_if_none_match_on_a_seq_the_game_does_not_have_is_refused_as_without_it(evening):
    response = evening.client.get(
        evening.url + "?seq=999", headers={**evening.auth(), "If-None-Match": '"x"'}
    )
    assert response.status_code == 404


@pytest.mark.parametrize(
    "query", ["/transactions?limit=0", "/transactions?type=", "/transactions?after=x", "?seq=x"]
)
@pytest.mark.parametrize("tag", ["*", "current"])
def test_if_none_match_on_a_query_the_read_refuses_is_refused_as_without_it(evening, query, tag):
    # A request refused without its conditions is refused with them (RFC 9110, 13.2.1): never
    # a 304 standing in for the 422.
    current = evening.get("/transactions").headers["ETag"]
    response = evening.client.get(
        evening.url + query,
        headers={**evening.auth(), "If-None-Match": current if tag == "current" else tag},
    )
    assert response.status_code == 422
    assert response.json["code"] == "validation_error"


def test_a_read_that_finds_every_slot_taken_past_its_wait_is_refused_busy():
    # Two greenlets of one worker: the first holds the only slot for 0.5 s, the second waits
    # 0.1 s for it and is refused; then the slot is free again.
    reads = HeavyReads(slots=1, wait=0.1, cache_bytes=0)

    def holder():
        child = reads.take_slot()
        gevent.sleep(0.5)
        reads.give_back(child)

    def waiter():
        gevent.sleep(0.01)  # after the holder has taken the slot
        with pytest.raises(Busy) as refused:
            reads.take_slot()
        return refused.value

    held, waited = gevent.spawn(holder), gevent.spawn(waiter)
    gevent.joinall([held, waited], raise_error=True)
    busy = waited.value
    assert (busy.code, busy.problem_code) == (503, "busy")
    assert busy.retry_after == 1
    reads.give_back(reads.take_slot())  # free again: taken at once


def test_a_read_waiting_for_a_slot_is_counted_while_it_waits():
    # What /metrics shows as tablebank_heavy_reads_waiting: the holder sees the other read
    # waiting; once it has the slot, and once a third is refused, nobody is counted.
    told: list[int] = []
    reads = HeavyReads(slots=1, wait=0.2, cache_bytes=0, waiting=told.append)
    seen = []

    def holder():
        child = reads.take_slot()
        gevent.sleep(0.1)
        seen.append(sum(told))
        reads.give_back(child)

    def waiter():
        gevent.sleep(0.01)
        reads.give_back(reads.take_slot())

    gevent.joinall([gevent.spawn(holder), gevent.spawn(waiter)], raise_error=True)
    assert (seen, sum(told)) == ([1], 0)
    child = reads.take_slot()
    with pytest.raises(Busy):
        reads.take_slot()
    reads.give_back(child)
    assert sum(told) == 0


@pytest.mark.parametrize("query", ["?after=99", "?after=99&type=rent"])
def test_a_page_after_the_last_seq_is_empty(evening, query):
    response = evening.get("/transactions" + query)
    assert response.status_code == 200
    assert response.json == {"items": [], "next": None}
