"""Reads and a write of one game at once, on one gevent worker of a real `tablebank serve`.

A live console makes this the common case: each transaction reaches every page's stream, and
every page then reads the game, while the next move is being recorded. eventsourcing's locks
were bound before gunicorn's gevent worker patched ``threading``, so a request waiting on the
repository's fast-forward lock stopped the whole worker and the one holding it never ran again:
every request hung until gunicorn killed the worker (api/cli/serving.py
``cooperative_eventsourcing``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from server import TRANSPORT_ERRORS, Server, Servers
from stores import Store

pytestmark = pytest.mark.e2e

ROUNDS = 20
READERS = 3
ANSWER_WITHIN = 5.0  # seconds: a request takes milliseconds; a hung worker never answers


@pytest.fixture(scope="module")
def server(servers: Servers, store: Store) -> Server:
    """The session's server of one gevent worker on a store of the matrix."""
    return servers.get(store)


def test_reads_and_a_write_of_one_game_at_once_are_all_answered(server: Server) -> None:
    created = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": ["A", "B"]}
    )
    assert created.status == 201, created
    game, token = created.body["id"], created.body["banker_token"]

    def call(method: str, path: str, body: object = None) -> int | str:
        try:
            return server.client.call(method, path, body, token, timeout=ANSWER_WITHIN).status
        except TRANSPORT_ERRORS as error:
            return repr(error)

    with ThreadPoolExecutor(READERS + 1) as pool:
        for _ in range(ROUNDS):
            write = pool.submit(
                call,
                "POST",
                f"/api/v1/games/{game}/transactions",
                {"type": "salary", "player": "p1"},
            )
            reads = [pool.submit(call, "GET", f"/api/v1/games/{game}") for _ in range(READERS)]
            assert [write.result(), *(r.result() for r in reads)] == [201] + [200] * READERS
