"""The in-process store: what `make run` uses, one per server process; bounded in keys and bytes."""

from __future__ import annotations

import threading
import time

from transformer_core.store.errors import StoreFull


class MemoryStore:
    """Strings and hashes with optional time to live, thread-safe, bounded (max_keys, max_bytes)."""

    def __init__(self, max_keys: int = 100_000, max_bytes: int = 64 * 2**20, clock=time.monotonic) -> None:
        self.max_keys, self.max_bytes = max_keys, max_bytes
        self._clock = clock
        self._values: dict[str, str | dict[str, str]] = {}
        self._expires: dict[str, float] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    # --- bookkeeping (call with the lock held) ---
    @staticmethod
    def _size(key: str, value: str | dict[str, str]) -> int:
        if isinstance(value, dict):
            return len(key) + sum(len(f) + len(v) for f, v in value.items())
        return len(key) + len(value)

    def _live(self, key: str) -> str | dict[str, str] | None:
        deadline = self._expires.get(key)
        if deadline is not None and self._clock() >= deadline:
            self._drop(key)
        return self._values.get(key)

    def _drop(self, key: str) -> bool:
        value = self._values.pop(key, None)
        self._expires.pop(key, None)
        if value is None:
            return False
        self._bytes -= self._size(key, value)
        return True

    def _sweep(self) -> None:
        now = self._clock()
        for key in [k for k, deadline in self._expires.items() if deadline <= now]:
            self._drop(key)

    def _put(self, key: str, value: str | dict[str, str]) -> None:
        old = self._values.get(key)
        grow = self._size(key, value) - (self._size(key, old) if old is not None else 0)
        new_key = old is None
        if (new_key and len(self._values) >= self.max_keys) or self._bytes + grow > self.max_bytes:
            self._sweep()
            if (new_key and len(self._values) >= self.max_keys) or self._bytes + grow > self.max_bytes:
                raise StoreFull(f"store full ({len(self._values)} keys, {self._bytes} bytes)")
        self._values[key] = value
        self._bytes += grow

    def _ttl(self, key: str, ttl: float | None) -> None:
        if ttl is not None:
            self._expires[key] = self._clock() + ttl

    # --- the Store interface ---
    def get(self, key: str) -> str | None:
        with self._lock:
            value = self._live(key)
            return value if isinstance(value, str) else None

    def set(self, key: str, value: str, ttl: float | None = None, only_if_new: bool = False) -> bool:
        with self._lock:
            if only_if_new and self._live(key) is not None:
                return False
            self._put(key, value)
            self._expires.pop(key, None)
            self._ttl(key, ttl)
            return True

    def delete(self, *keys: str) -> int:
        with self._lock:
            return sum(self._drop(key) for key in keys if self._live(key) is not None)

    def incr(self, key: str, ttl: float | None = None) -> int:
        with self._lock:
            value = int(self._live(key) or 0) + 1
            self._put(key, str(value))
            self._ttl(key, ttl)
            return value

    def expire(self, key: str, ttl: float) -> bool:
        with self._lock:
            if self._live(key) is None:
                return False
            self._ttl(key, ttl)
            return True

    def hset(self, key: str, field: str, value: str, ttl: float | None = None) -> None:
        with self._lock:
            current = self._live(key)
            mapping = dict(current) if isinstance(current, dict) else {}
            mapping[field] = value
            self._put(key, mapping)
            self._ttl(key, ttl)

    def hget(self, key: str, field: str) -> str | None:
        with self._lock:
            current = self._live(key)
            return current.get(field) if isinstance(current, dict) else None

    def hgetall(self, key: str) -> dict[str, str]:
        with self._lock:
            current = self._live(key)
            return dict(current) if isinstance(current, dict) else {}

    def hdel(self, key: str, field: str) -> int:
        with self._lock:
            current = self._live(key)
            if not isinstance(current, dict) or field not in current:
                return 0
            mapping = {f: v for f, v in current.items() if f != field}
            if mapping:
                self._put(key, mapping)
            else:
                self._drop(key)
            return 1

    def hlen(self, key: str) -> int:
        with self._lock:
            current = self._live(key)
            return len(current) if isinstance(current, dict) else 0

    def ping(self) -> bool:
        return True

    def stats(self) -> dict[str, int]:
        """Keys and bytes held now (after dropping expired keys)."""
        with self._lock:
            self._sweep()
            return {"keys": len(self._values), "bytes": self._bytes}
