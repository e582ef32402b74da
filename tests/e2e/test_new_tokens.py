"""A new token for a role against real servers (API.md v1.3, "Administration"): on a
``tablebank serve --workers 2`` and a second server on the same database, the old token answers
401 on its very next request in every process, and its open streams, whichever process serves
them, end within 2 s. Loopback only; every wait has a deadline."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from server import HOST, POLL, Server, Servers
from sse import EventStream
from stores import Store

pytestmark = pytest.mark.e2e

DEADLINE = 10.0
ENDS_WITHIN = 2.0  # seconds: a stream on a replaced token (API.md v1.3)


@pytest.fixture(scope="module")
def server(servers: Servers, store: Store) -> Server:
    """The session's ``serve --workers 2`` on a store of the matrix."""
    return servers.get(store, "--workers", "2", "--streams-per-address", "200")


@pytest.fixture(scope="module")
def other(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second server on the same database."""
    log = tmp_path_factory.mktemp("new-tokens-other") / "server.log"
    with Server(server.db, log, "--games-per-minute", "0") as running:
        yield running


def new_game(server: Server) -> dict:
    body = {"name": "t", "ruleset": "classic", "players": ["A", "B"]}
    answer = server.call("POST", "/api/v1/games", body)
    assert answer.status == 201, answer
    return answer.body


def open_stream(server: Server, game: dict, token: str) -> tuple[EventStream, str]:
    """A stream on ``token`` and the process serving it (its first comment names it)."""
    stream = EventStream(HOST, server.port, game["id"], token)
    assert stream.status == 200
    (hello,) = [c for c in stream.opening(time.monotonic() + DEADLINE) if c.startswith("following")]
    return stream, hello.rsplit(" ", 1)[-1]


def streams_in_both_workers(server: Server, game: dict, token: str) -> list[EventStream]:
    """A stream on ``token`` in each worker of ``server``. Which worker takes a connection is
    the scheduler's choice (and a worker still starting takes none), so a stream that goes to a
    worker serving one already is closed and asked again, until ``DEADLINE``."""
    streams: dict[str, EventStream] = {}
    deadline = time.monotonic() + DEADLINE
    while len(streams) < 2:
        assert time.monotonic() < deadline, f"every stream went to worker {list(streams)}"
        stream, pid = open_stream(server, game, token)
        if pid in streams:
            stream.close()
            time.sleep(POLL)  # its place under the token's cap of 10 freed meanwhile
        else:
            streams[pid] = stream
    return list(streams.values())


def test_the_old_token_is_refused_at_once_by_every_process_and_its_streams_end(
    server: Server, other: Server
) -> None:
    game = new_game(server)
    old = game["tokens"]["p2"]
    path = f"/api/v1/games/{game['id']}"
    # Every process has the old token's grant in hand: each served it a stream.
    streams = streams_in_both_workers(server, game, old)
    streams.append(open_stream(other, game, old)[0])
    try:
        asked = time.monotonic()
        made = server.call("POST", f"{path}/tokens/p2", token=game["banker_token"])
        assert made.status == 201, made

        # Its very next requests, each on a new connection, whichever worker takes it.
        for running in (server, other) * 10:
            refused = running.call("GET", path, token=old)
            assert refused.status == 401, refused
            assert refused.body["replaced"] is True
        for running in (server, other) * 3:
            assert running.call("GET", path, token=made.body["token"]).status == 200

        late = [s for s in streams if not s.ended(asked + ENDS_WITHIN)]
        ended = time.monotonic() - asked
    finally:
        for stream in streams:
            stream.close()
    assert late == [], f"{len(late)} of {len(streams)} streams still open after {ENDS_WITHIN} s"
    print(f"every stream on the old token ended {ended * 1000:.0f} ms after the new token")


def test_a_stream_on_the_new_token_stays_open(server: Server) -> None:
    game = new_game(server)
    made = server.call("POST", f"/api/v1/games/{game['id']}/tokens/p1", token=game["banker_token"])
    stream, _ = open_stream(server, game, made.body["token"])
    try:
        assert not stream.ended(time.monotonic() + 1.0)
    finally:
        stream.close()
