"""The game's event stream against a real ``tablebank serve --workers 2`` (API.md, "Live: the
game's event stream"): a write recorded by another process (a second server on the same
database, so that it is another process whichever worker serves the stream) reaches every
stream, and so does one recorded by the server's own workers; a reader
that resumes with ``Last-Event-ID`` loses and repeats nothing, and 200 open streams leave the
server free to record. Loopback only; every wait has a deadline.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import pytest
from server import HOST, Server, Servers
from sse import EventStream
from stores import Store

pytestmark = pytest.mark.e2e

DEADLINE = 10.0  # generous: delivery is asserted, its speed is measured and printed
# Streams held open at once from this one address (loopback): past the default cap of 50 an
# address (`--streams-per-address`), within a token's cap of 10 and a game's of 200.
STREAMS = 200


@pytest.fixture(scope="module")
def server(servers: Servers, store: Store) -> Server:
    """The session's ``serve --workers 2`` on a store of the matrix."""
    return servers.get(store, "--workers", "2", "--streams-per-address", str(STREAMS))


def new_game(server: Server, players: tuple[str, ...] = ("A", "B")) -> dict:
    answer = server.call(
        "POST", "/api/v1/games", {"name": "t", "ruleset": "classic", "players": list(players)}
    )
    assert answer.status == 201, answer
    return answer.body


def pay(server: Server, game: dict, amount: int = 1) -> dict:
    answer = server.call(
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "payment", "from": "bank", "to": "p1", "amount": amount},
        game["banker_token"],
    )
    assert answer.status == 201, answer
    return answer.body


def open_stream(server: Server, game: dict, **kwargs) -> tuple[EventStream, str]:
    """A stream and the process serving it (its first comment names it)."""
    stream = EventStream(HOST, server.port, game["id"], game["banker_token"], **kwargs)
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    (hello,) = [c for c in stream.opening(time.monotonic() + DEADLINE) if c.startswith("following")]
    return stream, hello.rsplit(" ", 1)[-1]


@pytest.fixture(scope="module")
def other(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second server on the same database: a write there is recorded by another process
    than any stream of ``server``, whichever of its two workers serves the stream."""
    log = tmp_path_factory.mktemp("events-other") / "server.log"
    with Server(server.db, log) as running:
        yield running


def test_each_write_reaches_streams_served_by_other_processes(
    server: Server, other: Server
) -> None:
    game = new_game(server)
    streams = [open_stream(server, game)[0] for _ in range(4)]
    across: list[float] = []  # writes recorded by the other server's process
    try:
        for n in range(100):
            writer = other if n % 2 == 0 else server
            sent = time.monotonic()
            txn = pay(writer, game, n + 1)
            for stream in streams:
                event = stream.next_event(time.monotonic() + DEADLINE)
                assert event is not None, f"seq {txn['seq']} never reached a stream"
                if writer is other:
                    across.append(time.monotonic() - sent)
                assert (event.id, event.kind) == (txn["seq"], "transaction")
                assert event.data == {**txn, "voided_by": None}
    finally:
        for stream in streams:
            stream.close()
    cuts = statistics.quantiles(across, n=20)
    print(
        f"stream delivery from another process: p50 {cuts[9] * 1000:.0f} ms, "
        f"p95 {cuts[18] * 1000:.0f} ms"
    )


def test_resuming_with_last_event_id_loses_and_repeats_nothing(server: Server) -> None:
    game = new_game(server)  # seq 1, 2: starting cash
    stream, _ = open_stream(server, game, query="?after=0")
    first = stream.events(2, time.monotonic() + DEADLINE)
    assert [e.id for e in first] == [1, 2]
    pay(server, game)  # seq 3
    assert stream.next_event(time.monotonic() + DEADLINE).id == 3
    stream.close()

    pay(server, game)  # seq 4 and 5, while nobody follows
    pay(server, game)
    resumed, _ = open_stream(server, game, last_event_id=3)
    pay(server, game)  # seq 6, live
    got = resumed.events(3, time.monotonic() + DEADLINE)
    assert [e.id for e in got] == [4, 5, 6]
    # Nothing more: no repeat of 3..6 follows.
    assert resumed.next_event(time.monotonic() + 0.5) is None
    resumed.close()


def test_a_stream_without_a_position_starts_from_now(server: Server) -> None:
    game = new_game(server)
    pay(server, game)  # seq 3, before the reader came
    stream, _ = open_stream(server, game)
    pay(server, game)  # seq 4
    assert stream.next_event(time.monotonic() + DEADLINE).id == 4
    stream.close()


def test_two_hundred_open_streams_leave_the_server_free_to_record(server: Server) -> None:
    # Four games of four players: 20 tokens, each holding its cap of 10 streams.
    games = [new_game(server, ("A", "B", "C", "D")) for _ in range(4)]
    tokens = [(game, token) for game in games for token in tokens_of(game)]
    assert len(tokens) * 10 == STREAMS
    streams = []
    try:
        for game, token in tokens:
            for _ in range(10):
                stream = EventStream(HOST, server.port, game["id"], token)
                assert stream.status == 200
                streams.append((game["id"], stream))
        slowest = 0.0
        sent: dict[str, list[int]] = {game["id"]: [] for game in games}
        for _ in range(10):
            for game in games:
                began = time.monotonic()
                sent[game["id"]].append(pay(server, game)["seq"])
                slowest = max(slowest, time.monotonic() - began)
        assert slowest < 1.0, slowest
        deadline = time.monotonic() + DEADLINE * 2
        for game_id, stream in streams:
            assert [e.id for e in stream.events(10, deadline)] == sent[game_id]
    finally:
        for _, stream in streams:
            stream.close()


def tokens_of(game: dict) -> list[str]:
    """The banker's token and each player's."""
    return [game["banker_token"], *game["tokens"].values()]


def test_a_stream_needs_a_token_of_its_game(server: Server) -> None:
    game, other = new_game(server), new_game(server)
    nobody = server.call("GET", f"/api/v1/games/{game['id']}/events")
    stranger = EventStream(HOST, server.port, game["id"], other["banker_token"])

    assert nobody.status == 401
    assert stranger.status == 403
    stranger.close()


def test_a_player_token_follows_its_game(server: Server) -> None:
    game = new_game(server)
    stream = EventStream(HOST, server.port, game["id"], game["tokens"]["p2"], query="?after=1")
    assert stream.status == 200
    assert stream.next_event(time.monotonic() + DEADLINE).id == 2
    stream.close()
