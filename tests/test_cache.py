"""The shared trace cache stays within its entry and byte bounds and computes each key once."""

from __future__ import annotations

import threading
import time

import pytest

from explorer.cache import BoundedCache


def test_evicts_least_recently_used_beyond_max_entries():
    cache = BoundedCache(max_entries=2, max_bytes=1000, size_of=len)
    cache.get_or_compute("a", lambda: "x")
    cache.get_or_compute("b", lambda: "y")
    cache.get_or_compute("a", lambda: "never")  # a is now the most recent
    cache.get_or_compute("c", lambda: "z")
    assert "a" in cache and "c" in cache and "b" not in cache
    assert len(cache) == 2 and cache.hits == 1 and cache.misses == 3


def test_evicts_until_the_bytes_fit():
    cache = BoundedCache(max_entries=10, max_bytes=10, size_of=len)
    for key in "abc":
        cache.get_or_compute(key, lambda: "1234")
    assert cache.nbytes == 8 and "a" not in cache


def test_a_value_larger_than_the_budget_is_returned_but_not_kept():
    cache = BoundedCache(max_entries=10, max_bytes=5, size_of=len)
    cache.get_or_compute("small", lambda: "123")
    assert cache.get_or_compute("big", lambda: "123456789") == "123456789"
    assert "big" not in cache and "small" in cache


def test_concurrent_requests_for_one_key_compute_once():
    cache = BoundedCache(max_entries=4, max_bytes=100, size_of=len)
    calls = []

    def slow() -> str:
        calls.append(1)
        time.sleep(0.2)
        return "value"

    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get_or_compute("k", slow))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["value"] * 8 and len(calls) == 1


def test_a_failed_computation_is_not_cached_and_can_be_retried():
    cache = BoundedCache(max_entries=4, max_bytes=100, size_of=len)

    def fail() -> str:
        raise ValueError("boom")

    with pytest.raises(ValueError):
        cache.get_or_compute("k", fail)
    assert "k" not in cache
    assert cache.get_or_compute("k", lambda: "ok") == "ok"


def test_bounds_must_be_positive():
    with pytest.raises(ValueError):
        BoundedCache(max_entries=0, max_bytes=1, size_of=len)
