"""A thread-safe LRU cache bounded in entries AND bytes, for traces shared by every session.

Traces are read-only and can be hundreds of MB (paper-base at 512 tokens), so the app keeps one
copy per (model, sentence, device) for everybody, instead of a pickled copy per read
(st.cache_data deserialises on every hit and bounds entries only).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class BoundedCache(Generic[V]):
    """LRU cache holding at most `max_entries` values and `max_bytes` bytes (as `size_of` measures).

    A value larger than `max_bytes` on its own is returned but not kept. Concurrent callers asking
    for the same key wait for one computation instead of each computing it.
    """

    def __init__(self, max_entries: int, max_bytes: int, size_of: Callable[[V], int]) -> None:
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("max_entries and max_bytes must be positive")
        self.max_entries, self.max_bytes, self.size_of = max_entries, max_bytes, size_of
        self._values: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[Hashable, threading.Lock] = {}
        self.hits = self.misses = 0

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(size for _, size in self._values.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._values

    def get_or_compute(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The cached value for `key`, computing and storing it on a miss."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                self.hits += 1
                return self._values[key][0]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:  # one computation per key; others wait for it
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    self.hits += 1
                    return self._values[key][0]
            try:
                value = compute()
            finally:
                with self._lock:
                    self._key_locks.pop(key, None)
            self._store(key, value)
            return value

    def _store(self, key: Hashable, value: V) -> None:
        size = self.size_of(value)
        with self._lock:
            self.misses += 1
            if size > self.max_bytes:
                return
            self._values[key] = (value, size)
            total = sum(s for _, s in self._values.values())
            while len(self._values) > self.max_entries or total > self.max_bytes:
                _, (_, evicted) = self._values.popitem(last=False)
                total -= evicted

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
