"""The rate limiter on a clock of the test's own: so many a minute per address, bounded memory."""

from __future__ import annotations

import pytest

from api.limits import RateLimiter, StreamCaps, TooManyStreams, client_key, game_limiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_thirty_a_minute_lets_thirty_through_at_once_and_refuses_the_31st(clock):
    limiter = RateLimiter(30, clock=clock)

    allowed = [limiter.hit("198.51.100.1") for _ in range(30)]
    refused = limiter.hit("198.51.100.1")

    assert allowed == [None] * 30
    # One every 60/30 = 2 seconds once the thirty are spent.
    assert refused == pytest.approx(2.0)


def test_after_the_wait_one_more_is_let_through_and_not_two(clock):
    limiter = RateLimiter(30, clock=clock)
    for _ in range(30):
        limiter.hit("198.51.100.1")

    clock.now += 2.0

    assert limiter.hit("198.51.100.1") is None
    assert limiter.hit("198.51.100.1") == pytest.approx(2.0)


def test_a_minute_later_the_whole_allowance_is_back(clock):
    limiter = RateLimiter(30, clock=clock)
    for _ in range(31):
        limiter.hit("198.51.100.1")

    clock.now += 60.0

    assert [limiter.hit("198.51.100.1") for _ in range(30)] == [None] * 30


def test_refused_hits_do_not_push_the_wait_further(clock):
    limiter = RateLimiter(1, clock=clock)
    limiter.hit("198.51.100.1")

    waits = [limiter.hit("198.51.100.1") for _ in range(5)]

    assert waits == [pytest.approx(60.0)] * 5


def test_each_address_has_its_own_allowance(clock):
    limiter = RateLimiter(1, clock=clock)

    assert limiter.hit("198.51.100.1") is None
    assert limiter.hit("198.51.100.2") is None
    assert limiter.hit("198.51.100.1") == pytest.approx(60.0)


def test_at_most_max_keys_addresses_are_kept_the_least_recent_forgotten(clock):
    limiter = RateLimiter(1, max_keys=2, clock=clock)
    limiter.hit("198.51.100.1")
    limiter.hit("198.51.100.2")

    limiter.hit("198.51.100.3")

    assert len(limiter) == 2
    assert limiter.hit("198.51.100.1") is None  # forgotten: a fresh allowance
    assert limiter.hit("198.51.100.3") == pytest.approx(60.0)


def test_ten_thousand_addresses_at_most_by_default(clock):
    limiter = RateLimiter(30, clock=clock)

    for n in range(10_001):
        limiter.hit(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")

    assert len(limiter) == 10_000


def test_an_ipv6_client_is_counted_by_its_64():
    assert client_key("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"


def test_an_ipv4_client_is_its_address_even_mapped_into_ipv6():
    assert client_key("198.51.100.7") == "198.51.100.7"
    assert client_key("::ffff:198.51.100.7") == "198.51.100.7"


def test_no_address_is_counted_as_one():
    assert client_key(None) == "unknown"


def test_zero_a_minute_is_no_limiter_and_a_negative_limit_is_refused():
    assert game_limiter(0) is None
    assert isinstance(game_limiter(30), RateLimiter)
    with pytest.raises(ValueError):
        game_limiter(-1)


def test_stream_caps_count_each_token_game_and_address_and_free_each_once():
    caps = StreamCaps(per_token=2, per_game=3, per_address=3)
    first = caps.open("g1/banker", "g1", "10.0.0.1")
    caps.open("g1/banker", "g1", "10.0.0.1")
    with pytest.raises(TooManyStreams):  # the token's third
        caps.open("g1/banker", "g1", "10.0.0.2")
    caps.open("g1/p1", "g1", "10.0.0.2")
    with pytest.raises(TooManyStreams):  # the game's fourth, from a token with room left
        caps.open("g1/p2", "g1", "10.0.0.2")
    caps.open("g2/banker", "g2", "10.0.0.1")
    with pytest.raises(TooManyStreams) as refused:  # the address's fifth, of another game
        caps.open("g3/banker", "g3", "10.0.0.1")
    assert refused.value.code == 429 and refused.value.problem_code == "too_many_streams"
    assert caps.count("address", "10.0.0.1") == 3  # a refused stream is not counted

    first()
    first()  # closing twice frees one place, not two
    assert caps.count("token", "g1/banker") == 1
    assert caps.count("game", "g1") == 2
    caps.open("g1/p2", "g1", "10.0.0.2")
    with pytest.raises(TooManyStreams):
        caps.open("g1/p3", "g1", "10.0.0.3")


def test_the_stream_caps_by_default_are_ten_a_token_two_hundred_a_game_fifty_an_address():
    assert StreamCaps().caps == {"token": 10, "game": 200, "address": 50}


def test_stream_opens_are_limited_by_token_and_by_address_over_time() -> None:
    # api.limits: 60 opens a minute a token, 240 an address, at once, then one every 60/N s.
    now = [0.0]
    caps = StreamCaps(opens_per_token=2, opens_per_address=3, clock=lambda: now[0])
    for token in ("g/banker", "g/banker", "g/p1"):
        caps.open(token, "g", "203.0.113.7")()
    with pytest.raises(TooManyStreams, match="this token"):
        caps.open("g/banker", "g", "198.51.100.1")  # its token's 2 a minute
    with pytest.raises(TooManyStreams, match="this address"):
        caps.open("g/p2", "g", "203.0.113.7")  # its address's 3 a minute
    now[0] = 30.0  # half a minute: one more for the token (60/2 s), one for the address
    caps.open("g/banker", "g", "203.0.113.7")()
    with pytest.raises(TooManyStreams):
        caps.open("g/p2", "g", "203.0.113.7")


def test_a_limit_of_bytes_counts_each_hit_by_its_size() -> None:
    now = [0.0]
    budget = RateLimiter(1000, window=3600.0, clock=lambda: now[0])
    assert budget.hit("a", 600) is None
    assert budget.hit("a", 600) == pytest.approx(200 * 3.6)  # 200 bytes over, 3.6 s a byte
    assert budget.hit("a", 400) is None  # what is left of the hour
    assert budget.hit("a", 1001) == float("inf")  # more than the whole hour: never
