"""``api.intake``: one client address sends at most so many bodies at once (API.md: one more is
429 ``rate_limited`` with ``Retry-After``, before its body is read), each body within a deadline
of 10 s plus its length at 64 KiB/s."""

from __future__ import annotations

import pytest
from werkzeug.exceptions import TooManyRequests

from api.intake import BODY_RATE, BODY_SECONDS, Intake, deadline


def test_an_address_sends_its_share_of_bodies_at_once_and_no_more() -> None:
    intake = Intake(per_address=2)
    with intake.reading("203.0.113.7"), intake.reading("203.0.113.7"):
        with pytest.raises(TooManyRequests) as refused, intake.reading("203.0.113.7"):
            pass
        assert refused.value.retry_after == 2  # type: ignore[attr-defined]
        with intake.reading("198.51.100.1"):  # another address has a share of its own
            assert intake.count("198.51.100.1") == 1
        assert intake.count("203.0.113.7") == 2
    assert intake.count("203.0.113.7") == 0


def test_a_body_that_fails_to_arrive_gives_its_place_back() -> None:
    intake = Intake(per_address=1)
    with pytest.raises(OSError), intake.reading("203.0.113.7"):
        raise OSError("the client went away")
    with intake.reading("203.0.113.7"):  # the one place is free again
        assert intake.count("203.0.113.7") == 1


def test_a_longer_body_has_longer_to_arrive() -> None:
    assert deadline(None) == BODY_SECONDS == 10.0
    assert deadline(64 * 1024) == 11.0  # 64 KiB at 64 KiB/s: one second more
    assert deadline(32 * 1024 * 1024) == 10.0 + 512.0  # an import of 32 MiB: 8.5 min more
    assert BODY_RATE == 64 * 1024


def test_an_address_share_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Intake(per_address=0)


def test_without_gevents_patches_a_body_has_no_deadline_to_keep() -> None:
    # The test client and the pocket bank read bodies from memory: nothing to interrupt, even
    # where gevent is imported (this process may have) but never patched the sockets.
    import gevent  # noqa: F401

    from api.intake import within

    with within(0.001):
        pass
