"""Shared state behind one small interface: live classes and the lab's jobs.

    store = store_from_env()          # RedisStore if TRANSFORMER_EXPLORER_REDIS_URL is set, else MemoryStore
    store.set("class:ABC234", json.dumps(state), ttl=4 * 3600)
    store.hset("answers:ABC234:q7", session_id, "B", ttl=4 * 3600)
    store.hlen("answers:ABC234:q7")   # 1

Values are strings (callers write JSON). Every key may carry a time to live in seconds; `MemoryStore` is
bounded in keys and bytes and refuses a write past its bounds (`StoreFull`), so a flood cannot take the
server's memory. The same tests run against both backends (tests/test_store.py).
"""

from __future__ import annotations

import os
from typing import Protocol

from transformer_core.store.errors import StoreFull, StoreUnavailable
from transformer_core.store.memory import MemoryStore

REDIS_URL_ENV = "TRANSFORMER_EXPLORER_REDIS_URL"

__all__ = ["REDIS_URL_ENV", "MemoryStore", "Store", "StoreFull", "StoreUnavailable", "redis_url", "store_from_env"]


class Store(Protocol):
    """The operations live classes and lab jobs need; both backends implement exactly these."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str, ttl: float | None = None, only_if_new: bool = False) -> bool: ...
    def delete(self, *keys: str) -> int: ...
    def incr(self, key: str, ttl: float | None = None) -> int: ...
    def expire(self, key: str, ttl: float) -> bool: ...
    def hset(self, key: str, field: str, value: str, ttl: float | None = None) -> None: ...
    def hget(self, key: str, field: str) -> str | None: ...
    def hgetall(self, key: str) -> dict[str, str]: ...
    def hdel(self, key: str, field: str) -> int: ...
    def hlen(self, key: str) -> int: ...
    def ping(self) -> bool: ...


def redis_url() -> str | None:
    """The configured Redis URL (env TRANSFORMER_EXPLORER_REDIS_URL), or None: in-process state."""
    return os.environ.get(REDIS_URL_ENV) or None


def store_from_env() -> Store:
    """RedisStore when TRANSFORMER_EXPLORER_REDIS_URL is set, else a new MemoryStore (one per process)."""
    url = redis_url()
    if url:
        from transformer_core.store.redis_store import RedisStore

        return RedisStore(url)
    return MemoryStore()
