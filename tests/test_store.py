"""The shared store: one set of behaviours, proven against the in-process store and a real redis-server."""

from __future__ import annotations

import time

import pytest

from transformer_core.store import MemoryStore, StoreFull, StoreUnavailable, store_from_env


def test_strings_set_get_delete(shared_store):
    assert shared_store.get("a") is None
    assert shared_store.set("a", "1") is True
    assert shared_store.get("a") == "1"
    assert shared_store.set("a", "2", only_if_new=True) is False
    assert shared_store.get("a") == "1"
    assert shared_store.delete("a", "missing") == 1
    assert shared_store.get("a") is None


def test_incr_counts_from_zero(shared_store):
    assert [shared_store.incr("n") for _ in range(3)] == [1, 2, 3]
    assert shared_store.get("n") == "3"


def test_hash_holds_one_value_per_field(shared_store):
    shared_store.hset("answers", "s1", "A")
    shared_store.hset("answers", "s2", "B")
    shared_store.hset("answers", "s1", "C")  # a changed answer replaces the first
    assert shared_store.hlen("answers") == 2
    assert shared_store.hgetall("answers") == {"s1": "C", "s2": "B"}
    assert shared_store.hget("answers", "s2") == "B"
    assert shared_store.hdel("answers", "s2") == 1
    assert shared_store.hdel("answers", "s2") == 0
    assert shared_store.hgetall("missing") == {}
    assert shared_store.hlen("missing") == 0


def gone_within(condition, timeout: float = 30.0) -> None:
    """Poll until `condition()` holds; a deadline far past any TTL here (a loaded machine only makes it later)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"still there {timeout} s later"
        time.sleep(0.05)


def test_keys_expire_after_their_time_to_live(shared_store):
    # read back at once with 3 s of margin (a loaded 2-core machine stalls a process for tenths of a second, not
    # seconds); then gone by a deadline: no sleep decides the outcome (the exact moment: the fake-clock test below)
    shared_store.set("short", "x", ttl=3)
    shared_store.hset("short-hash", "f", "v", ttl=3)
    shared_store.set("long", "y", ttl=300)
    assert shared_store.get("short") == "x" and shared_store.hlen("short-hash") == 1
    gone_within(lambda: shared_store.get("short") is None and shared_store.hlen("short-hash") == 0)
    assert shared_store.get("long") == "y"
    assert shared_store.expire("long", 0.1) is True
    gone_within(lambda: shared_store.get("long") is None)
    assert shared_store.expire("missing", 5) is False


def test_the_in_process_store_drops_a_key_exactly_at_its_time_to_live():
    now = [1000.0]
    store = MemoryStore(clock=lambda: now[0])
    store.set("k", "x", ttl=10)
    store.hset("h", "f", "v", ttl=10)
    now[0] += 9.999
    assert store.get("k") == "x" and store.hlen("h") == 1
    assert store.expire("k", 5) is True  # from now: 5 more seconds
    now[0] += 0.001
    assert store.get("k") == "x" and store.hlen("h") == 0
    now[0] += 4.999
    assert store.get("k") is None
    assert store.stats() == {"keys": 0, "bytes": 0}


def test_set_without_ttl_clears_an_earlier_ttl(shared_store):
    shared_store.set("k", "1", ttl=0.2)
    shared_store.set("k", "2")
    time.sleep(0.4)
    assert shared_store.get("k") == "2"


def test_memory_store_refuses_writes_past_its_bounds():
    store = MemoryStore(max_keys=3, max_bytes=10_000)
    for i in range(3):
        store.set(f"k{i}", "v")
    with pytest.raises(StoreFull):
        store.set("k3", "v")
    store.set("k0", "w")  # replacing a key needs no new room
    assert store.stats()["keys"] == 3

    small = MemoryStore(max_keys=100, max_bytes=100)
    small.hset("h", "f", "x" * 50)
    with pytest.raises(StoreFull):
        small.hset("h", "g", "x" * 60)
    assert small.hgetall("h") == {"f": "x" * 50}  # nothing of the refused write stays
    assert small.stats()["bytes"] == len("h") + len("f") + 50


def test_memory_store_frees_expired_keys_before_refusing():
    now = [0.0]
    store = MemoryStore(max_keys=2, clock=lambda: now[0])
    store.set("a", "1", ttl=5)
    store.set("b", "1", ttl=5)
    now[0] = 6.0
    store.set("c", "1")  # a and b have expired: room again
    assert store.stats() == {"keys": 1, "bytes": 2}


def test_store_from_env_picks_the_backend(monkeypatch, redis_server_url):
    monkeypatch.delenv("TRANSFORMER_EXPLORER_REDIS_URL", raising=False)
    assert isinstance(store_from_env(), MemoryStore)
    monkeypatch.setenv("TRANSFORMER_EXPLORER_REDIS_URL", redis_server_url)
    store = store_from_env()
    assert type(store).__name__ == "RedisStore"
    assert store.ping() is True


def test_redis_store_says_unavailable_when_redis_is_gone():
    from tests.servers import free_port
    from transformer_core.store.redis_store import RedisStore

    store = RedisStore(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=0.5)
    assert store.ping() is False
    with pytest.raises(StoreUnavailable):
        store.get("k")
