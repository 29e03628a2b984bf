"""The lab queue's expiry of a lost worker (training/queue/liveness.py), without a server: the numbers the worker
and every server read from the environment. The kill itself, with a real redis-server and worker processes, is in
test_lab_queue.py (slow)."""

from __future__ import annotations

from transformer_core.training.queue.liveness import HEARTBEAT_TTL_S, WORKER_TTL_ENV, heartbeat_s, heartbeat_ttl_s


def test_the_workers_expiry_comes_from_the_environment_within_bounds(monkeypatch):
    for value, ttl, beat in (("", HEARTBEAT_TTL_S, 3.0), ("8", 8, 2.0), ("3", 6, 1.5), ("soon", HEARTBEAT_TTL_S, 3.0)):
        monkeypatch.setenv(WORKER_TTL_ENV, value)
        assert (heartbeat_ttl_s(), heartbeat_s()) == (ttl, beat), value
