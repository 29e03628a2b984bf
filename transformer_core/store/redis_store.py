"""The Redis store: the same interface over redis-py, so several app servers share one state."""

from __future__ import annotations

import redis

from transformer_core.store.errors import StoreUnavailable


def _ms(ttl: float | None) -> int | None:
    return None if ttl is None else max(1, int(ttl * 1000))


class RedisStore:
    """Store on a Redis server; a connection failure raises StoreUnavailable (the caller says so)."""

    def __init__(self, url: str, socket_timeout: float = 2.0) -> None:
        self.url = url
        self.client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=socket_timeout,
                                           socket_connect_timeout=socket_timeout, health_check_interval=10)

    def _call(self, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            raise StoreUnavailable(f"Redis at {self.url} is not reachable: {error}") from error

    def get(self, key: str) -> str | None:
        return self._call(self.client.get, key)

    def set(self, key: str, value: str, ttl: float | None = None, only_if_new: bool = False) -> bool:
        return bool(self._call(self.client.set, key, value, px=_ms(ttl), nx=only_if_new))

    def delete(self, *keys: str) -> int:
        return int(self._call(self.client.delete, *keys)) if keys else 0

    def incr(self, key: str, ttl: float | None = None) -> int:
        def run():
            with self.client.pipeline() as pipe:
                pipe.incr(key)
                if ttl is not None:
                    pipe.pexpire(key, _ms(ttl))
                return pipe.execute()[0]
        return int(self._call(run))

    def expire(self, key: str, ttl: float) -> bool:
        return bool(self._call(self.client.pexpire, key, _ms(ttl)))

    def hset(self, key: str, field: str, value: str, ttl: float | None = None) -> None:
        def run():
            with self.client.pipeline() as pipe:
                pipe.hset(key, field, value)
                if ttl is not None:
                    pipe.pexpire(key, _ms(ttl))
                pipe.execute()
        self._call(run)

    def hget(self, key: str, field: str) -> str | None:
        return self._call(self.client.hget, key, field)

    def hgetall(self, key: str) -> dict[str, str]:
        return self._call(self.client.hgetall, key)

    def hdel(self, key: str, field: str) -> int:
        return int(self._call(self.client.hdel, key, field))

    def hlen(self, key: str) -> int:
        return int(self._call(self.client.hlen, key))

    def ping(self) -> bool:
        try:
            return bool(self.client.ping())
        except (redis.ConnectionError, redis.TimeoutError):
            return False
