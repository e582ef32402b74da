"""``BoundedCache``: what it keeps within its budget, and what it lets go first."""

from __future__ import annotations

import pytest

from ledger.caches import BoundedCache


def test_a_cache_keeps_values_while_their_weights_fit_its_budget():
    cache: BoundedCache[str, str] = BoundedCache(10)
    cache.put("a", "A", 4)
    cache.put("b", "B", 6)

    assert (cache.get("a"), cache.get("b"), cache.weight) == ("A", "B", 10)


def test_a_value_past_the_budget_evicts_the_least_recently_used():
    cache: BoundedCache[str, str] = BoundedCache(10)
    cache.put("a", "A", 4)
    cache.put("b", "B", 4)
    cache.get("a")  # now b is the least recently used
    cache.put("c", "C", 4)

    assert ("a" in cache, "b" in cache, "c" in cache) == (True, False, True)
    assert cache.weight == 8


def test_a_value_heavier_than_the_whole_budget_is_not_kept():
    cache: BoundedCache[str, str] = BoundedCache(10)
    cache.put("a", "A", 4)

    assert cache.put("huge", "H", 11) == "H"
    assert ("huge" in cache, cache.get("a"), cache.weight) == (False, "A", 4)


def test_putting_a_key_again_counts_its_new_weight_only():
    cache: BoundedCache[str, str] = BoundedCache(10)
    cache.put("a", "A", 4)
    cache.put("a", "A2", 7)

    assert (cache.get("a"), cache.weight, len(cache)) == ("A2", 7, 1)


def test_a_pinned_value_stays_and_weighs_nothing():
    cache: BoundedCache[str, str] = BoundedCache(5)
    cache.pin("classic", "C")
    for n in range(20):
        cache.put(f"box-{n}", "B", 5)

    assert cache.get("classic") == "C"
    assert (cache.weight, len(cache)) == (5, 2)


def test_a_cache_has_a_budget():
    with pytest.raises(ValueError, match="budget"):
        BoundedCache(0)
