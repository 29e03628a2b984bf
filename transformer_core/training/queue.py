"""The lab's jobs on RQ (Redis Queue): one job per recipe across every app server, workers on any machine.

    export TRANSFORMER_EXPLORER_REDIS_URL=redis://redis.school:6379/0
    python -m transformer_core worker [--device cuda]    # any machine that reaches Redis and the lab-models folder
    manager = RedisJobManager(url)                       # each app server: the methods of jobs.JobManager

With TRANSFORMER_EXPLORER_REDIS_URL set the lab page uses `RedisJobManager` instead of the in-process
`jobs.JobManager`; both hand out `Job` objects with the same `status()`, so the page does not care which.

How it works (keys under `te:lab:`):

* **One job per recipe.** The job id is the recipe's name (`LabRecipe.name`); `job:{id}` is a hash with the
  job's state and a run id. Start is a Redis transaction (WATCH on that hash): a queued, running or finished
  job is joined; otherwise one server writes a new run id and enqueues the RQ job with `job_id=id` and
  `unique=True` (RQ refuses a second job with that id). A worker takes the job only by moving the hash from
  queued to running for ITS run id (another transaction), so a job never trains twice, even if enqueued twice.
* **Progress and snapshots** travel as small messages on a Redis stream per run (`events:{id}:{run}`, at most
  MAX_EVENTS, progress at most every PROGRESS_EVERY_S, snapshots as JSON with float16 attention in base64).
  Every server reads the stream from where it stopped into its own `Job` (the same `record` / `SnapshotStore`
  as the local runner), so a page on any server shows the same run.
* **Stop** from any server sets `stop:{id}:{run}`; the worker reads it after every step (cached
  STOP_CHECK_S). The watcher rule (Stop cancels only for the owner or the last watcher) keeps its watchers in
  the shared store (`transformer_core.store`: a hash session -> last poll time).
* **A worker that dies.** Workers are RQ `SimpleWorker`s (the job runs in the worker process: a killed
  worker kills its run; a forked work horse would go on training as an orphan). RQ keeps a running job in the
  queue's StartedJobRegistry with an expiry score that the worker's heartbeat pushes forward; RQ's own
  default TTL is the job timeout + 60 s, too slow for a class, so `LabWorker` beats every HEARTBEAT_S with a
  TTL of HEARTBEAT_TTL_S. Every server's poll runs `StartedJobRegistry.cleanup()` (RQ moves an expired job to
  the FailedJobRegistry, AbandonedJobError) at most every CHECK_S, and a lab job whose RQ job is failed ends
  with "the worker NAME stopped" (error_code 'worker_lost'). RQ does not retry it (no Retry given).
* **Redis away**: every manager method raises `StoreUnavailable`; the page says the lab is unavailable and
  asks again on its next poll (the redis client reconnects by itself).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import logging
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import wraps
from pathlib import Path

import numpy as np
import redis
from rq import Queue, SimpleWorker, get_current_job
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job as RQJob
from rq.job import JobStatus
from rq.registry import StartedJobRegistry

from transformer_core.store import REDIS_URL_ENV, StoreUnavailable
from transformer_core.store.redis_store import RedisStore
from transformer_core.training.jobs import (
    ACTIVE,
    CANCELLED,
    DONE,
    FAILED,
    QUEUED,
    RUNNING,
    Job,
    QueueFull,
    stop_outcome,
)
from transformer_core.training.lab_run import FINAL_EVAL_N, STARTING
from transformer_core.training.recipes import LabRecipe, lab_plan
from transformer_core.training.snapshots import Snapshot, SnapshotStore

QUEUE_NAME = "transformer-explorer-lab"
PREFIX = "te:lab:"
INDEX = PREFIX + "index"  # sorted set: job id -> created time
HEARTBEAT_S = 3.0  # the worker refreshes RQ's started-job registry entry this often ...
HEARTBEAT_TTL_S = 20  # ... with this expiry: a worker silent this long is taken for dead
CHECK_S = 2.0  # a server looks for dead workers at most this often
PROGRESS_EVERY_S = 0.5  # at most two progress messages a second per run (phase changes always go)
STOP_CHECK_S = 0.25  # the worker asks Redis about Stop at most this often
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


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else ("" if value is None else str(value))


def _decoded(fields: dict) -> dict[str, str]:
    return {_text(k): _text(v) for k, v in fields.items()}


# --- the messages --------------------------------------------------------------------------------

def encode_snapshot(snapshot: Snapshot) -> str:
    """A snapshot as one JSON message: its numbers and tokens, each attention array as float16 bytes in base64."""
    attention = {kind: {"shape": list(array.shape),
                        "data": base64.b64encode(np.ascontiguousarray(array, dtype=np.float16).tobytes()).decode()}
                 for kind, array in snapshot.attention.items()}
    return json.dumps({**snapshot.meta(), "attention": attention}, ensure_ascii=False)


def decode_snapshot(text: str) -> Snapshot:
    values = json.loads(text)
    attention = {kind: np.frombuffer(base64.b64decode(item["data"]), dtype=np.float16).reshape(item["shape"])
                 for kind, item in values.pop("attention").items()}
    return Snapshot(**values, attention=attention)


def recipe_from_json(text: str) -> LabRecipe:
    return LabRecipe(**json.loads(text))


# --- the app servers' side ---------------------------------------------------------------------------

def _unavailable(method):
    """Redis errors leave a manager method as StoreUnavailable (the page says the lab is unavailable)."""

    @wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            raise StoreUnavailable(f"Redis at {self.url} is not reachable: {error}") from error

    return wrapper


@dataclass(eq=False)
class RemoteJob(Job):
    """A job trained by some worker: `status()` first reads what arrived in Redis since the last read."""

    run: str = ""
    last_event: str = "0"
    manager: RedisJobManager | None = field(default=None, repr=False)

    def status(self) -> dict:
        if self.manager is not None:
            self.manager.refresh(self)
        return super().status()


class RedisJobManager:
    """jobs.JobManager's methods over Redis and RQ (see the module docstring)."""

    kind = "queue"

    def __init__(self, url: str | None = None, max_finished: int = 8, max_queued: int = 16,
                 eval_n: int = FINAL_EVAL_N) -> None:
        self.url = url or os.environ[REDIS_URL_ENV]
        self.client = connect(self.url)
        self.store = RedisStore(self.url)  # the shared store, for the watchers
        self.queue = Queue(QUEUE_NAME, connection=self.client)
        self.max_finished, self.max_queued, self.eval_n = max_finished, max_queued, eval_n
        self._jobs: dict[str, RemoteJob] = {}  # this server's copies (their snapshots and curves)
        self._lock = threading.RLock()
        self._checked = 0.0

    # -- sessions --
    @_unavailable
    def submit(self, recipe: LabRecipe, session: str) -> Job:
        """The recipe's job (joined when queued, running or done), else a new run enqueued on RQ (QueueFull when
        max_queued runs wait already). One job per recipe across every server: a Redis transaction decides."""
        self.check_workers(force=True)
        job_id = recipe.name
        key = job_key(job_id)
        with self.client.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    state = _text(pipe.hget(key, "state"))
                    if state in JOINABLE:
                        pipe.unwatch()
                        break
                    if self.queue.count >= self.max_queued:
                        pipe.unwatch()
                        raise QueueFull(f"{self.queue.count} runs are waiting already")
                    run = uuid.uuid4().hex[:12]
                    now = time.time()
                    pipe.multi()
                    pipe.delete(key)
                    pipe.hset(key, mapping={"run": run, "state": QUEUED, "owner": session, "created": now,
                                            "recipe": json.dumps(asdict(recipe))})
                    pipe.zadd(INDEX, {job_id: now})
                    pipe.execute()
                    self._enqueue(job_id, run, recipe)
                    break
                except redis.WatchError:
                    continue
        self.watch(job_id, session)
        job = self.get(job_id)
        assert job is not None
        return job

    def _enqueue(self, job_id: str, run: str, recipe: LabRecipe) -> None:
        try:
            old = RQJob.fetch(job_id, connection=self.client)
        except NoSuchJobError:
            old = None
        if old is not None:  # the recipe's last run (failed, stopped): its RQ record makes room for this one
            try:
                old.delete(remove_from_queue=True)
            except ValueError:  # RQ 2.12 trips on an abandoned job's expired execution: remove its keys ourselves
                for registry in (old.failed_job_registry, old.finished_job_registry):
                    registry.remove(old)
                self.client.delete(old.key, f"rq:executions:{job_id}")
        timeout = int(recipe.budget_s * 3 + 600)  # RQ's own limit, far beyond the budget: a hung run ends
        try:
            self.queue.enqueue_call(train_lab_job, args=(job_id, run, asdict(recipe)), job_id=job_id,
                                    timeout=timeout, result_ttl=KEEP_S, failure_ttl=KEEP_S, unique=True,
                                    description=f"lab {job_id}")
        except DuplicateJobError:  # cannot happen after the delete above unless Redis lost a write: say so
            self._end(job_id, run, FAILED, error="the queue already holds this job")

    @_unavailable
    def watch(self, job_id: str, session: str) -> Job | None:
        self.store.hset(watchers_key(job_id), session, str(time.time()), ttl=KEEP_S)
        return self.get(job_id)

    @_unavailable
    def stop(self, job_id: str, session: str) -> str:
        """'cancelled' (owner, or nobody else watching), 'left' (others still watch), 'finished' or 'unknown'."""
        job = self.get(job_id)
        outcome = stop_outcome(job, session)
        if outcome in ("unknown", "finished"):
            return outcome
        if outcome == "left":
            self.store.hdel(watchers_key(job_id), session)
            return "left"
        self.client.set(stop_key(job_id, job.run), session, ex=KEEP_S)
        self.client.hset(job_key(job_id), "stopped_by", session)
        key = job_key(job_id)
        with self.client.pipeline() as pipe:  # still waiting: it ends here (the worker will not take it)
            try:
                pipe.watch(key)
                if _text(pipe.hget(key, "state")) == QUEUED and _text(pipe.hget(key, "run")) == job.run:
                    pipe.multi()
                    pipe.hset(key, mapping={"state": CANCELLED, "finished": time.time()})
                    pipe.execute()
                    self.queue.remove(job_id)
                else:
                    pipe.unwatch()
            except redis.WatchError:  # a worker took it at that moment: it will see the stop key
                pass
        self.refresh(job)
        return "cancelled"

    # -- queries --
    def available(self) -> bool:
        try:
            return bool(self.client.ping())
        except (redis.ConnectionError, redis.TimeoutError):
            return False

    @_unavailable
    def get(self, job_id: str) -> RemoteJob | None:
        self.check_workers()
        fields = _decoded(self.client.hgetall(job_key(job_id)))
        if not fields.get("run"):
            return None
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.run != fields["run"]:
                recipe = recipe_from_json(fields["recipe"])
                job = RemoteJob(recipe=recipe, owner=fields.get("owner", ""), id=job_id, run=fields["run"],
                                created=float(fields.get("created") or time.time()), manager=self)
                job.store = SnapshotStore(lab_plan(recipe).snapshot_every)
                self._jobs[job_id] = job
                self._forget_old()
        self.refresh(job, fields)
        return job

    def find(self, recipe: LabRecipe) -> RemoteJob | None:
        return self.get(recipe.name)

    @_unavailable
    def position(self, job: Job) -> int:
        ids = self.queue.get_job_ids()
        return ids.index(job.id) + 1 if job.id in ids else 0

    @_unavailable
    def jobs(self) -> list[Job]:
        """Running, then queued, then finished (newest first, at most max_finished)."""
        ids = [_text(i) for i in self.client.zrevrange(INDEX, 0, 4 * self.max_finished)]
        found = [job for job in (self.get(i) for i in ids) if job is not None]
        running = [j for j in found if j.state == RUNNING]
        queued = sorted((j for j in found if j.state == QUEUED), key=lambda j: j.created)
        done = [j for j in found if j.state not in ACTIVE][: self.max_finished]
        return [*running, *queued, *done]

    def finished(self) -> list[Job]:
        return [job for job in self.jobs() if job.state not in ACTIVE]

    def wait(self, job: Job, timeout: float = 60.0) -> bool:
        """Poll until `job` is no longer queued or running (tests, benchmarks). True if it ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if job.status()["state"] not in ACTIVE:
                return True
            time.sleep(0.2)
        return False

    def shutdown(self, timeout: float = 10.0) -> None:
        self.client.close()

    # -- reading Redis into this server's Job --
    @_unavailable
    def refresh(self, job: RemoteJob, fields: dict[str, str] | None = None) -> None:
        """New messages from the run's stream, then the job hash's state, into `job`."""
        fields = fields if fields is not None else _decoded(self.client.hgetall(job_key(job.id)))
        if fields.get("run") != job.run:  # restarted elsewhere: this copy keeps what it had
            return
        stream = events_key(job.id, job.run)
        while True:
            batch = self.client.xread({stream: job.last_event}, count=500)
            if not batch:
                break
            for event_id, data in batch[0][1]:
                job.last_event = _text(event_id)
                data = _decoded(data)
                if data.get("kind") == "snapshot" and job.store is not None:
                    job.store.add(decode_snapshot(data["data"]))
                elif data.get("kind") == "progress":
                    job.record(json.loads(data["data"]))
        now = time.time()
        watchers = {s: float(t) for s, t in self.store.hgetall(watchers_key(job.id)).items()}
        with job.lock:
            job.state = fields.get("state", job.state)
            job.set_phase(fields.get("phase", job.phase))
            if fields.get("phase_since") and fields.get("phase") == job.phase:  # the worker's, not this server's
                job.phase_since = float(fields["phase_since"])
            job.worker = fields.get("worker", "")
            job.owner = fields.get("owner", job.owner)
            job.started = float(fields["started"]) if fields.get("started") else None
            job.finished = float(fields["finished"]) if fields.get("finished") else None
            job.error, job.error_code = fields.get("error", ""), fields.get("error_code", "")
            job.stopped_by = fields.get("stopped_by", "")
            job.watchers = {s: t for s, t in watchers.items() if now - t <= KEEP_S}
            if job.state not in ACTIVE:
                if fields.get("step"):
                    job.step, job.seconds = int(fields["step"]), float(fields.get("seconds") or 0.0)
                job.metrics = json.loads(fields.get("metrics") or "{}")
                job.model_dir = Path(fields["model_dir"]) if fields.get("model_dir") else None
                job.save_error = fields.get("save_error", "")
                job.device, job.device_notice = fields.get("device", ""), fields.get("device_notice", "")

    def _forget_old(self) -> None:
        """This server keeps copies of at most 4 x max_finished jobs (the oldest finished ones go first)."""
        if len(self._jobs) <= 4 * self.max_finished:
            return
        for job_id, job in sorted(self._jobs.items(), key=lambda item: item[1].created):
            if job.state not in ACTIVE:
                del self._jobs[job_id]
            if len(self._jobs) <= 4 * self.max_finished:
                return

    # -- dead workers --
    @_unavailable
    def check_workers(self, force: bool = False) -> list[str]:
        """RQ's cleanup of the started-job registry (a job whose worker stopped beating is moved to the failed
        registry); then every lab job still queued or running whose RQ job failed ends with a message that names
        its worker. At most every CHECK_S unless forced. Returns the ids it ended."""
        now = time.monotonic()
        if not force and now - self._checked < CHECK_S:
            return []
        self._checked = now
        StartedJobRegistry(queue=self.queue).cleanup()
        ended = []
        for job_id in (_text(i) for i in self.client.zrevrange(INDEX, 0, 4 * self.max_finished)):
            fields = _decoded(self.client.hgetall(job_key(job_id)))
            if fields.get("state") not in ACTIVE:
                continue
            try:
                rq_job = RQJob.fetch(job_id, connection=self.client)
                status, worker_name = rq_job.get_status(refresh=False), rq_job.worker_name or ""
            except NoSuchJobError:
                status, worker_name = None, ""
            lost = status == JobStatus.FAILED or (status is None and fields.get("state") == RUNNING)
            if lost:
                worker = fields.get("worker") or worker_name or "?"
                if self._end(job_id, fields["run"], FAILED, error_code="worker_lost", worker=worker,
                             error=f"the worker {worker} stopped (no heartbeat for {HEARTBEAT_TTL_S} s)"):
                    ended.append(job_id)
        return ended

    def _end(self, job_id: str, run: str, state: str, **fields) -> bool:
        """Move the job from queued/running to `state` if `run` is still its run (a transaction). True if it did."""
        key = job_key(job_id)
        with self.client.pipeline() as pipe:
            try:
                pipe.watch(key)
                if _text(pipe.hget(key, "run")) != run or _text(pipe.hget(key, "state")) not in ACTIVE:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.hset(key, mapping={"state": state, "finished": time.time(), **fields})
                pipe.expire(key, KEEP_S)
                pipe.execute()
                return True
            except redis.WatchError:
                return False


# --- the workers' side ------------------------------------------------------------------------------

class LabWorker(SimpleWorker):
    """An RQ SimpleWorker (the job runs in this process) that beats every HEARTBEAT_S with a short TTL while a
    job runs, so a killed worker's job is found abandoned within HEARTBEAT_TTL_S (+ a server's CHECK_S)."""

    device = "cpu"
    current: LabWorker | None = None  # the worker running in this process (the job function asks it)

    def get_heartbeat_ttl(self, job) -> int:
        return HEARTBEAT_TTL_S

    def execute_job(self, job, queue) -> None:
        LabWorker.current = self
        beating = threading.Event()

        def beat() -> None:
            while not beating.wait(HEARTBEAT_S):
                try:
                    if self.execution is not None:
                        self.maintain_heartbeats(job)
                except Exception as error:  # Redis away for a moment: try again at the next beat
                    self.log.warning("heartbeat failed: %s", error)

        thread = threading.Thread(target=beat, name="lab-heartbeat", daemon=True)
        thread.start()
        try:
            super().execute_job(job, queue)
        finally:
            beating.set()
            thread.join(5)


class _Outbox:
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


class _StreamStore(SnapshotStore):
    """The worker's snapshot store: keeps its own (the saved model's snapshots) and sends each one."""

    def __init__(self, every: int, outbox: _Outbox) -> None:
        super().__init__(every)
        self.outbox = outbox

    def add(self, snapshot: Snapshot) -> None:
        super().add(snapshot)
        self.outbox.flush()
        self.outbox.send("snapshot", encode_snapshot(snapshot))


def claim(client: redis.Redis, job_id: str, run: str, worker: str) -> bool:
    """Move the job from queued to running for this run and this worker; False if it is not queued for this run
    (stopped, taken, replaced): then the worker does not train it."""
    key = job_key(job_id)
    with client.pipeline() as pipe:
        try:
            pipe.watch(key)
            if _text(pipe.hget(key, "run")) != run or _text(pipe.hget(key, "state")) != QUEUED:
                pipe.unwatch()
                return False
            pipe.multi()
            now = time.time()
            pipe.hset(key, mapping={"state": RUNNING, "worker": worker, "started": now, "phase": STARTING,
                                    "phase_since": now})
            pipe.execute()
            return True
        except redis.WatchError:
            return False


def train_lab_job(job_id: str, run: str, recipe_fields: dict, eval_n: int = FINAL_EVAL_N,
                  work: Callable | None = None) -> dict:
    """The RQ job: claim the run, train it with `run_lab_recipe` on this worker's device, send progress and
    snapshots, save the model into this machine's lab-models folder, write the result into the job hash."""
    from transformer_core.io.loading import lab_models_dir
    from transformer_core.training.lab_run import run_lab_recipe
    from transformer_core.training.loop import NonFiniteLoss

    rq_job = get_current_job()
    client = rq_job.connection
    worker = LabWorker.current
    name = worker.name if worker is not None else socket.gethostname()
    if not claim(client, job_id, run, name):
        return {"trained": False}
    recipe = LabRecipe(**{**recipe_fields, "device": worker.device if worker is not None else "cpu"})
    outbox = _Outbox(client, job_id, run)
    store = _StreamStore(lab_plan(recipe).snapshot_every, outbox)
    result_fields: dict = {}
    state = FAILED
    try:
        outcome = (work or run_lab_recipe)(recipe, out=lab_models_dir() / recipe.name, store=store,
                                           on_progress=outbox.progress, should_stop=outbox.should_stop,
                                           eval_n=eval_n)
    except NonFiniteLoss as exc:
        result_fields["error"] = f"{exc}: the run cannot recover (try a smaller preset or another seed)"
    except Exception as exc:  # any failure ends this job only, with a message
        result_fields["error"] = f"{type(exc).__name__}: {exc}"
    else:
        state = CANCELLED if outcome.result.stopped else DONE
        result_fields.update(step=outcome.result.steps_done, seconds=outcome.result.seconds,
                             metrics=json.dumps(outcome.metrics), save_error=outcome.save_error,
                             model_dir=str(outcome.model_dir) if outcome.model_dir is not None else "",
                             device=outcome.device, device_notice=outcome.device_notice)
    outbox.flush()
    for _attempt in range(30):  # the result must reach Redis: wait for it a minute if it is away
        try:
            _end_run(client, job_id, run, state, result_fields)
            break
        except redis.RedisError:
            time.sleep(2)
    return {"trained": True, "state": state}


def _end_run(client: redis.Redis, job_id: str, run: str, state: str, fields: dict) -> None:
    key = job_key(job_id)
    with client.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)
                if _text(pipe.hget(key, "run")) != run or _text(pipe.hget(key, "state")) != RUNNING:
                    pipe.unwatch()  # a server already ended it (its worker was taken for dead): keep that
                    return
                pipe.multi()
                pipe.hset(key, mapping={"state": state, "finished": time.time(), **fields})
                pipe.expire(key, KEEP_S)
                pipe.execute()
                return
            except redis.WatchError:
                continue


def worker_main(argv: list[str] | None = None) -> int:
    """`python -m transformer_core worker`: an RQ worker that trains the lab's queued recipes."""
    parser = argparse.ArgumentParser(prog="python -m transformer_core worker", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis", default=os.environ.get(REDIS_URL_ENV, ""),
                        help=f"Redis URL (default: ${REDIS_URL_ENV})")
    parser.add_argument("--device", default="cpu", help="cpu or cuda (a GPU box); cuda falls back to cpu, saying so")
    parser.add_argument("--name", default="", help="the worker's name on the page (default: host-pid)")
    parser.add_argument("--nice", type=int, default=10,
                        help="CPU priority offset (default 10: app servers on the same machine win the CPU)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty (tests)")
    args = parser.parse_args(argv)
    if not args.redis:
        print(f"error: no Redis URL: pass --redis URL or set {REDIS_URL_ENV}", file=sys.stderr)
        return 2
    if args.nice:
        with contextlib.suppress(OSError):
            os.nice(args.nice)
    import torch

    from transformer_core.inference.devices import resolve_device

    torch.set_num_threads(max(1, args.threads))
    device, notice = resolve_device(args.device)
    if notice:
        print(f"note: {args.device} is not available here; training on {device}", file=sys.stderr)
    client = connect(args.redis, timeout=10.0)
    try:
        client.ping()
    except (redis.ConnectionError, redis.TimeoutError) as error:
        print(f"error: Redis at {args.redis} is not reachable: {error}", file=sys.stderr)
        return 2
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    LabWorker.device = args.device
    worker = LabWorker([Queue(QUEUE_NAME, connection=client)], connection=client, name=name)
    logging.basicConfig(level=logging.WARNING)
    print(f"lab worker {name}: {device}, queue {QUEUE_NAME} on {args.redis}", flush=True)
    from rq.exceptions import StopRequested

    with contextlib.suppress(StopRequested, KeyboardInterrupt):  # a second signal while RQ shuts down
        worker.work(burst=args.burst, logging_level="WARNING", with_scheduler=False)
    return 0


main = worker_main  # `python -m transformer_core worker` (transformer_core/__main__.py's SUBCOMMANDS)
