"""The app servers' side of the lab queue: `RedisJobManager`, jobs.JobManager's methods over Redis and RQ (one job
per recipe across every server), and `RemoteJob`, this server's copy of a run some worker trains."""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from functools import wraps
from pathlib import Path

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job as RQJob

from transformer_core.store import REDIS_URL_ENV, StoreUnavailable
from transformer_core.store.redis_store import RedisStore
from transformer_core.training.jobs import ACTIVE, CANCELLED, FAILED, QUEUED, RUNNING, Job, QueueFull, stop_outcome
from transformer_core.training.lab_run import FINAL_EVAL_N
from transformer_core.training.queue.keys import (
    INDEX,
    JOINABLE,
    KEEP_S,
    QUEUE_NAME,
    connect,
    decoded,
    end_job,
    job_key,
    stop_key,
    text,
    watchers_key,
)
from transformer_core.training.queue.liveness import CHECK_S, end_lost_jobs
from transformer_core.training.queue.messages import read_events, recipe_from_json
from transformer_core.training.queue.worker import train_lab_job
from transformer_core.training.recipes import LabRecipe, lab_plan
from transformer_core.training.snapshots import SnapshotStore


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
    """jobs.JobManager's methods over Redis and RQ (see the package's docstring)."""

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
                    state = text(pipe.hget(key, "state"))
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
            end_job(self.client, job_id, run, FAILED, error="the queue already holds this job")

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
                if text(pipe.hget(key, "state")) == QUEUED and text(pipe.hget(key, "run")) == job.run:
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
        fields = decoded(self.client.hgetall(job_key(job_id)))
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
        ids = [text(i) for i in self.client.zrevrange(INDEX, 0, 4 * self.max_finished)]
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
        fields = fields if fields is not None else decoded(self.client.hgetall(job_key(job.id)))
        if fields.get("run") != job.run:  # restarted elsewhere: this copy keeps what it had
            return
        read_events(self.client, job)
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

    # -- dead workers (liveness.py) --
    @_unavailable
    def check_workers(self, force: bool = False) -> list[str]:
        """liveness.end_lost_jobs at most every CHECK_S unless forced. Returns the ids it ended."""
        now = time.monotonic()
        if not force and now - self._checked < CHECK_S:
            return []
        self._checked = now
        return end_lost_jobs(self.client, self.queue, 4 * self.max_finished)
