"""What event streams may cost a real ``tablebank serve`` (one worker, its defaults), against
API.md v1.2, "Event streams are bounded": a token's 11th open stream and an address's 51st are
refused with 429 ``too_many_streams`` and ``Retry-After``; ten HEADs of the stream leave the
worker's memory flat; ten streams from seq 0 of a 3,000-transaction game that never read add
less than 60 MiB, and the game is written meanwhile.

Before these bounds (v1.1, measured on a 10,000-transaction game): each HEAD kept a stream's
registration and backlog for good (+35 MiB each), ten streams from seq 0 that never read held
+293 MiB, and a writer waited 6 to 15 s beside them.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from long_logs import long_log
from server import HOST, Server, Servers
from sse import EventStream
from stores import Store

pytestmark = pytest.mark.e2e

LONG_GAME = 3_000  # payments in the long game (API.md v1.2: "a 3,000-transaction game")
STREAMS_HELD = 10  # streams from seq 0 that never read
HELD_BOUND_MIB = 60.0  # what those may add to the worker's memory at most
HEADS = 10
HEAD_BOUND_MIB = 5.0  # what ten HEADs may add: nothing is held, this is the allocator's noise
DEADLINE = 10.0


@pytest.fixture(scope="module")
def server(servers: Servers, store: Store) -> Server:
    """The session's ``serve`` with its defaults (one worker) on a store of the matrix."""
    return servers.get(store)


@pytest.fixture(scope="module")
def long_game(server: Server) -> dict:
    """A game of 3,000 payments and more, imported."""
    answer = server.call("POST", "/api/v1/games/import", long_log(LONG_GAME))
    assert answer.status == 201, answer
    return answer.body


def new_game(server: Server, players: int = 2) -> dict:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][:players]
    answer = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": names}
    )
    assert answer.status == 201, answer
    return answer.body


def open_streams(server: Server, game: dict, token: str, n: int) -> list[EventStream]:
    streams = [EventStream(HOST, server.port, game["id"], token) for _ in range(n)]
    assert [s.status for s in streams] == [200] * n
    return streams


def refused(server: Server, game: dict, token: str) -> None:
    """One stream more is refused: 429 too_many_streams, with Retry-After."""
    extra = server.call("GET", f"/api/v1/games/{game['id']}/events", token=token)
    assert extra.status == 429, extra
    assert extra.headers["content-type"] == "application/problem+json"
    assert int(extra.headers["retry-after"]) >= 1
    assert extra.body["code"] == "too_many_streams"


@pytest.fixture
def held() -> Iterator[list[EventStream]]:
    """Streams a test opens, closed after it however it ends."""
    streams: list[EventStream] = []
    yield streams
    for stream in streams:
        stream.close()


def test_the_eleventh_stream_of_a_token_is_refused(server: Server, held: list[EventStream]) -> None:
    game = new_game(server)
    held += open_streams(server, game, game["banker_token"], 10)
    refused(server, game, game["banker_token"])
    # Another token of the same game still has its own ten.
    held += open_streams(server, game, game["tokens"]["p1"], 1)


def test_the_fifty_first_stream_of_an_address_is_refused(
    server: Server, held: list[EventStream]
) -> None:
    game = new_game(server, players=5)  # six tokens: five hold ten streams each
    tokens = [game["banker_token"], *game["tokens"].values()]
    for token in tokens[:5]:
        held += open_streams(server, game, token, 10)
    refused(server, game, tokens[5])


def test_ten_heads_leave_the_workers_memory_flat(server: Server, long_game: dict) -> None:
    def head() -> None:
        answer = server.call(
            "HEAD",
            f"/api/v1/games/{long_game['id']}/events",
            token=long_game["banker_token"],
            headers={"Last-Event-ID": "0"},
        )
        assert answer.status == 200
        assert answer.headers["content-type"].startswith("text/event-stream")

    head()  # the first loads the game: what it caches is not what HEADs hold
    before = server.workers_rss_mib()
    for _ in range(HEADS):
        head()
    grown = server.workers_rss_mib() - before
    print(f"{HEADS} HEADs of a {LONG_GAME:,}-transaction game: {grown:+.1f} MiB")
    assert grown < HEAD_BOUND_MIB


def test_ten_streams_that_never_read_hold_a_page_each(
    server: Server, long_game: dict, held: list[EventStream]
) -> None:
    game_id, token = long_game["id"], long_game["banker_token"]
    server.call("GET", f"/api/v1/games/{game_id}/transactions/1", token=token)  # the game loaded
    before = server.workers_rss_mib()
    for _ in range(STREAMS_HELD):
        stream = EventStream(HOST, server.port, game_id, token, last_event_id=0)
        assert stream.status == 200
        # Read nothing more: the kernel's buffers fill, and the server's writes wait.
        stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        held.append(stream)
    slowest = 0.0
    for n in range(20):
        began = time.monotonic()
        answer = server.call(
            "POST",
            f"/api/v1/games/{game_id}/transactions",
            {"type": "payment", "from": "p1", "to": "p2", "amount": 1, "memo": f"late {n}"},
            token,
        )
        assert answer.status == 201, answer
        slowest = max(slowest, time.monotonic() - began)
    grown = server.workers_rss_mib() - before
    print(
        f"{STREAMS_HELD} streams from seq 0 of {LONG_GAME:,} transactions, unread: "
        f"{grown:+.1f} MiB; slowest of 20 writes beside them {slowest * 1000:.0f} ms"
    )
    assert grown < HELD_BOUND_MIB
    assert slowest < 1.0
    # A reader that does read (a player: the banker's token holds its ten) gets the backlog
    # page after page and then the live writes, each once and in order.
    reader = EventStream(HOST, server.port, game_id, long_game["tokens"]["p1"], last_event_id=0)
    held.append(reader)
    assert reader.status == 200
    last = LONG_GAME + 20 + 3  # the payments, the late ones and the starting cash of three
    got = [event.id for event in reader.events(last, time.monotonic() + DEADLINE)]
    assert got == list(range(1, last + 1))
