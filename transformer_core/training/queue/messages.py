"""The run's messages, from the worker to every app server: progress (throttled), snapshots (float16 attention in
base64 JSON) and Stop, on a Redis stream per run; `read_events` is the servers' side, `Outbox` and `StreamStore`
the worker's."""

from __future__ import annotations

import base64
import contextlib
import json
import time

import numpy as np
import redis

from transformer_core.training.jobs import Job
from transformer_core.training.lab_run import STARTING
from transformer_core.training.queue.keys import (
    KEEP_S,
    MAX_EVENTS,
    decoded,
    events_key,
    job_key,
    stop_key,
    text,
)
from transformer_core.training.recipes import LabRecipe
from transformer_core.training.snapshots import Snapshot, SnapshotStore

PROGRESS_EVERY_S = 0.5  # at most two progress messages a second per run (phase changes always go)
STOP_CHECK_S = 0.25  # the worker asks Redis about Stop at most this often


def encode_snapshot(snapshot: Snapshot) -> str:
    """A snapshot as one JSON message: its numbers and tokens, each attention array as float16 bytes in base64."""
    attention = {kind: {"shape": list(array.shape),
                        "data": base64.b64encode(np.ascontiguousarray(array, dtype=np.float16).tobytes()).decode()}
                 for kind, array in snapshot.attention.items()}
    return json.dumps({**snapshot.meta(), "attention": attention}, ensure_ascii=False)


def decode_snapshot(message: str) -> Snapshot:
    values = json.loads(message)
    attention = {kind: np.frombuffer(base64.b64decode(item["data"]), dtype=np.float16).reshape(item["shape"])
                 for kind, item in values.pop("attention").items()}
    return Snapshot(**values, attention=attention)


def recipe_from_json(message: str) -> LabRecipe:
    return LabRecipe(**json.loads(message))


# --- an app server reads ----------------------------------------------------------------------------

def read_events(client: redis.Redis, job: Job) -> None:
    """Every message of the job's run (`job.run`) after `job.last_event` into `job`: snapshots into its store,
    progress into its record (a manager.RemoteJob: it keeps where the next read starts)."""
    stream = events_key(job.id, job.run)
    while True:
        batch = client.xread({stream: job.last_event}, count=500)
        if not batch:
            return
        for event_id, data in batch[0][1]:
            job.last_event = text(event_id)
            data = decoded(data)
            if data.get("kind") == "snapshot" and job.store is not None:
                job.store.add(decode_snapshot(data["data"]))
            elif data.get("kind") == "progress":
                job.record(json.loads(data["data"]))


# --- the worker writes ------------------------------------------------------------------------------

class Outbox:
    """The worker's messages to every server: progress (throttled), snapshots, Stop. Redis errors are dropped
    (a message lost while Redis is away; the run goes on and the result is written at the end)."""

    def __init__(self, client: redis.Redis, job_id: str, run: str) -> None:
        self.client, self.job_id, self.run = client, job_id, run
        self.stream, self.key = events_key(job_id, run), job_key(job_id)
        self.sent = 0.0
        self.last_step: dict | None = None
        self.stop_checked, self.stopped = 0.0, False
        self.phase = STARTING  # claim() wrote it

    def send(self, kind: str, data: str) -> None:
        try:
            self.client.xadd(self.stream, {"kind": kind, "data": data}, maxlen=MAX_EVENTS, approximate=True)
            self.client.expire(self.stream, KEEP_S)
        except redis.RedisError:
            pass

    def progress(self, progress: dict) -> None:
        if progress.get("phase", self.phase) != self.phase:  # a phase change is written to the job hash too
            self.phase = progress["phase"]
            with contextlib.suppress(redis.RedisError):  # when it began too: every server's clock counts from it
                self.client.hset(self.key, mapping={"phase": self.phase, "phase_since": time.time()})
        if "step" not in progress:  # a phase change alone: always sent
            self.flush()
            self.send("progress", json.dumps(progress))
            return
        self.last_step = progress
        if time.monotonic() - self.sent >= PROGRESS_EVERY_S:
            self.flush()

    def flush(self) -> None:
        if self.last_step is not None:
            self.send("progress", json.dumps(self.last_step))
            self.last_step = None
            self.sent = time.monotonic()

    def should_stop(self) -> bool:
        now = time.monotonic()
        if not self.stopped and now - self.stop_checked >= STOP_CHECK_S:
            self.stop_checked = now
            with contextlib.suppress(redis.RedisError):
                self.stopped = bool(self.client.exists(stop_key(self.job_id, self.run)))
        return self.stopped


class StreamStore(SnapshotStore):
    """The worker's snapshot store: keeps its own (the saved model's snapshots) and sends each one."""

    def __init__(self, every: int, outbox: Outbox) -> None:
        super().__init__(every)
        self.outbox = outbox

    def add(self, snapshot: Snapshot) -> None:
        super().add(snapshot)
        self.outbox.flush()
        self.outbox.send("snapshot", encode_snapshot(snapshot))
