"""``api.heavy``: a long answer, computed or kept, is sent while it holds one of the worker's
places to send (``--read-slots``), a chunk at a time; a request that finds none free within
the wait is refused 503 ``busy`` with ``Retry-After`` before any byte of it, and a place is
given back once, however its answer ended (sent, or its reader gone)."""

from __future__ import annotations

import pytest
from werkzeug.wrappers import Response

from api.heavy import SEND_CHUNK, HeavyReads, InTurns
from api.offload import Busy


def test_a_long_answer_goes_out_in_chunks_that_make_it_whole() -> None:
    body = bytes(range(256)) * (SEND_CHUNK // 256 * 2 + 3)
    chunks = list(InTurns(body, lambda: None))
    assert [len(chunk) for chunk in chunks] == [SEND_CHUNK, SEND_CHUNK, 3 * 256]
    assert b"".join(chunks) == body


def test_a_place_to_send_is_given_back_once_however_the_answer_ended() -> None:
    given_back: list[int] = []
    answer = InTurns(b"x" * (SEND_CHUNK + 1), lambda: given_back.append(1))
    Response(answer).close()  # what the server does after the last byte, or a hang-up
    answer.close()
    assert given_back == [1]


def test_one_more_long_answer_than_places_is_busy_until_one_is_given_back() -> None:
    reads = HeavyReads(slots=1, wait=0.05)
    first = reads.in_turns(b"x")
    with pytest.raises(Busy) as refused:
        reads.in_turns(b"y")
    assert (refused.value.code, refused.value.retry_after) == (503, 1)  # type: ignore[attr-defined]
    first.close()
    reads.in_turns(b"z").close()
