"""The lab queue's names in Redis, its connection, and the job hash's one shared transition (how the pieces fit: the
package's docstring).

Keys under `te:lab:`: `job:{id}` the job hash (state, run id, owner, recipe, worker, phase, the result),
`events:{id}:{run}` the run's stream of messages, `stop:{id}:{run}` Stop, `watchers:{id}` the sessions watching,
`index` every job by creation time. The job id is the recipe's name; its RQ job has the same id.
"""

from __future__ import annotations

import time

import redis

from transformer_core.training.jobs import ACTIVE, DONE, QUEUED, RUNNING

QUEUE_NAME = "transformer-explorer-lab"
PREFIX = "te:lab:"
INDEX = PREFIX + "index"  # sorted set: job id -> created time
MAX_EVENTS = 5000  # messages kept per run (approximate trim)
KEEP_S = 24 * 3600  # a finished job's hash, stream and RQ record live this long
JOINABLE = (QUEUED, RUNNING, DONE)


def job_key(job_id: str) -> str:
    return f"{PREFIX}job:{job_id}"


def events_key(job_id: str, run: str) -> str:
    return f"{PREFIX}events:{job_id}:{run}"


def stop_key(job_id: str, run: str) -> str:
    return f"{PREFIX}stop:{job_id}:{run}"


def watchers_key(job_id: str) -> str:
    return f"{PREFIX}watchers:{job_id}"


def connect(url: str, timeout: float = 2.0) -> redis.Redis:
    """The bytes client RQ needs (decode_responses=False), with short timeouts: a page must not hang on Redis."""
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                health_check_interval=10, retry_on_timeout=False)


def text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else ("" if value is None else str(value))


def decoded(fields: dict) -> dict[str, str]:
    return {text(k): text(v) for k, v in fields.items()}


def end_job(client: redis.Redis, job_id: str, run: str, state: str, **fields) -> bool:
    """Move the job from queued/running to `state` if `run` is still its run (a transaction). True if it did."""
    key = job_key(job_id)
    with client.pipeline() as pipe:
        try:
            pipe.watch(key)
            if text(pipe.hget(key, "run")) != run or text(pipe.hget(key, "state")) not in ACTIVE:
                pipe.unwatch()
                return False
            pipe.multi()
            pipe.hset(key, mapping={"state": state, "finished": time.time(), **fields})
            pipe.expire(key, KEEP_S)
            pipe.execute()
            return True
        except redis.WatchError:
            return False
