"""The training lab's jobs: one run per recipe, shared by every session that asks for it.

    manager = JobManager(workers=1)                # env TRANSFORMER_EXPLORER_LAB_WORKERS
    job = manager.submit(LabRecipe("ko-en", "class", 120, 0), session="alice")
    manager.submit(LabRecipe("ko-en", "class", 120, 0), session="bob") is job   # True: one job, two watchers
    job.status()                                   # a consistent copy: state, step, curves, snapshots, ...
    manager.stop(job.id, "bob")                    # 'left': alice still watches; the owner or the last one cancels

Pure Python (no Streamlit): the page keeps one manager in st.cache_resource and polls it.
K light worker threads take jobs from a bounded queue (the rest wait in it) and hand each to the
manager's runner (workers.py): by default `LocalProcessRunner`, which trains in a child process at
lower CPU priority so page serving wins the CPU; `thread_runner` trains in the worker thread itself
(tests). A job that fails (NaN loss, out of memory, any exception, a killed training process) ends
with a message and the others go on. Finished
jobs stay listed, at most `max_finished`, the oldest dropped first. `run_lab_recipe` (lab_run.py) is
the one code path of a lab run: the workers and `python -m transformer_core train --preset ...` call it.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from transformer_core.inference.devices import is_out_of_memory
from transformer_core.training.lab_run import (  # re-exported: the lab's one run, as before
    FINAL_EVAL_N,
    HISTORY_POINTS,
    SNAPSHOT_EVAL_N,
    LabOutcome,
    run_lab_recipe,
    save_lab_model,
)
from transformer_core.training.loop import NonFiniteLoss
from transformer_core.training.recipes import LabRecipe, lab_plan
from transformer_core.training.snapshots import SnapshotStore
from transformer_core.training.workers import LocalProcessRunner

__all__ = ["FINAL_EVAL_N", "HISTORY_POINTS", "SNAPSHOT_EVAL_N", "Job", "JobManager", "LabOutcome", "QueueFull",
           "run_lab_recipe", "save_lab_model"]

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
ACTIVE = (QUEUED, RUNNING)
WATCH_TIMEOUT_S = 30.0  # a session that has not polled for this long no longer counts as watching


class QueueFull(RuntimeError):
    """Too many different runs are already waiting (JobManager.max_queued); joining one of them still works."""


def default_workers() -> int:
    """At most this many lab jobs train at once (env TRANSFORMER_EXPLORER_LAB_WORKERS, default 1)."""
    try:
        return max(1, int(os.environ.get("TRANSFORMER_EXPLORER_LAB_WORKERS", "1")))
    except ValueError:
        return 1


# --- jobs ------------------------------------------------------------------------------------------

_ids = itertools.count(1)


@dataclass
class Job:
    """One lab run and everyone watching it. Read it through `status()` (a consistent copy)."""

    recipe: LabRecipe
    owner: str
    id: str = field(default_factory=lambda: f"job{next(_ids)}")
    state: str = QUEUED
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    step: int = 0
    seconds: float = 0.0
    loss: float | None = None
    snapshot_seconds: float = 0.0
    history: list[tuple[int, float]] = field(default_factory=list)  # (step, smoothed loss), thinned
    store: SnapshotStore | None = None
    error: str = ""
    model_dir: Path | None = None
    save_error: str = ""
    metrics: dict = field(default_factory=dict)
    device: str = ""
    device_notice: str = ""
    stopped_by: str = ""
    phase: str = ""  # '' while queued; lab_run's STARTING, TRAINING, EVALUATING while it runs
    worker: str = ""  # who trains it: 'this server' locally, the RQ worker's name on a queue
    error_code: str = ""  # 'worker_lost' when the worker stopped answering (the page words it)
    phase_since: float = field(default_factory=time.time)  # when the phase began (the page's running clock)
    watchers: dict[str, float] = field(default_factory=dict)  # session -> last time it polled
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _every: int = 1

    def record(self, progress: dict) -> None:
        """Called by the worker: a phase change ({'phase'}) or a step ({'phase', 'step', 'seconds', 'loss', ...})."""
        with self.lock:
            self.set_phase(progress.get("phase", self.phase))
            if "step" not in progress:
                return
            self.step = progress["step"]
            self.seconds = progress["seconds"]
            self.loss = progress["loss"]
            self.snapshot_seconds = progress["snapshot_seconds"]
            if self.step % self._every == 0:
                self.history.append((self.step, round(self.loss, 4)))
                if len(self.history) > HISTORY_POINTS:
                    self.history = self.history[::2]
                    self._every *= 2

    def set_phase(self, phase: str) -> None:
        """(with the lock held) A new phase restarts the phase clock."""
        if phase != self.phase:
            self.phase, self.phase_since = phase, time.time()

    def status(self) -> dict:
        """A consistent copy of everything a page shows."""
        with self.lock:
            snapshots = self.store.items() if self.store is not None else []
            return {
                "id": self.id, "recipe": self.recipe, "state": self.state, "step": self.step,
                "seconds": self.seconds, "loss": self.loss, "history": list(self.history),
                "snapshots": snapshots, "error": self.error, "model_dir": self.model_dir,
                "save_error": self.save_error, "metrics": dict(self.metrics), "device": self.device,
                "device_notice": self.device_notice, "stopped_by": self.stopped_by,
                "snapshot_seconds": self.snapshot_seconds, "created": self.created, "started": self.started,
                "finished": self.finished, "owner": self.owner, "phase": self.phase, "worker": self.worker,
                "error_code": self.error_code, "phase_since": self.phase_since,
                "steps_per_s": self.step / self.seconds if self.seconds > 0 else 0.0,
            }

    def viewers(self, now: float | None = None) -> set[str]:
        """Sessions that polled within WATCH_TIMEOUT_S (the owner always counts while it polls)."""
        now = time.time() if now is None else now
        with self.lock:
            return {s for s, seen in self.watchers.items() if now - seen <= WATCH_TIMEOUT_S}



def stop_outcome(job: Job | None, session: str) -> str:
    """The watcher rule of Stop, one place for both job managers: 'unknown' (no such job), 'finished' (it
    ended already), 'left' (not the owner and others still watch: this session only stops watching), else
    'cancelled' (the owner, or nobody else watching: the run stops)."""
    if job is None:
        return "unknown"
    if job.state not in ACTIVE:
        return "finished"
    if session != job.owner and job.viewers() - {session}:
        return "left"
    return "cancelled"

class JobManager:
    """Lab jobs keyed by recipe: shared by sessions, queued (at most K running), bounded history."""

    kind = "local"  # the page says where runs train; queue.manager.RedisJobManager is "queue"

    def __init__(self, workers: int | None = None, max_finished: int = 8, max_queued: int = 16,
                 models_dir: str | Path | Callable[[], Path] | None = None,
                 eval_n: int = FINAL_EVAL_N, runner: Callable[..., LabOutcome] | None = None) -> None:
        self.workers = workers or default_workers()
        self.max_finished = max_finished
        self.max_queued = max_queued  # different recipes waiting at once; one more is refused (QueueFull)
        # where finished models are saved: a folder, a function returning one (asked at save time), or None
        self.models_dir = models_dir if models_dir is None or callable(models_dir) else Path(models_dir)
        self.eval_n = eval_n
        if runner is None:
            runner = LocalProcessRunner()
        self.runner = runner
        self._queue: deque[Job] = deque()
        self._running: list[Job] = []
        self._finished: deque[Job] = deque()
        self._condition = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False

    # -- sessions --
    def submit(self, recipe: LabRecipe, session: str) -> Job:
        """The job of `recipe`: the one already queued, running or done, else a new one in the queue
        (QueueFull when `max_queued` runs wait already)."""
        with self._condition:
            job = self._find_unlocked(recipe)
            if job is not None and job.state in (QUEUED, RUNNING, DONE):
                self._watch(job, session)
                return job
            if len(self._queue) >= self.max_queued:
                raise QueueFull(f"{len(self._queue)} runs are waiting already")
            if job is not None:  # failed or cancelled: start afresh
                self._finished.remove(job)
            job = Job(recipe=recipe, owner=session)
            self._watch(job, session)
            self._queue.append(job)
            self._ensure_workers()
            self._condition.notify_all()
            return job

    def watch(self, job_id: str, session: str) -> Job | None:
        """Mark `session` as watching (pages call this on every poll); None if the job is gone."""
        with self._condition:
            job = self._get_unlocked(job_id)
            if job is not None:
                self._watch(job, session)
            return job

    def stop(self, job_id: str, session: str) -> str:
        """'cancelled' (owner, or nobody else watching), 'left' (others still watch), 'finished' or 'unknown'."""
        with self._condition:
            job = self._get_unlocked(job_id)
            outcome = stop_outcome(job, session)
            if outcome in ("unknown", "finished"):
                return outcome
            if outcome == "left":
                with job.lock:
                    job.watchers.pop(session, None)
                return "left"
            job.stopped_by = session
            job.cancel.set()
            if job.state == QUEUED:
                self._queue.remove(job)
                job.state = CANCELLED
                job.finished = time.time()
                self._retire(job)
            return "cancelled"

    # -- queries --
    def available(self) -> bool:
        """Always True here (the queue's manager says False while Redis is away)."""
        return True

    def get(self, job_id: str) -> Job | None:
        with self._condition:
            return self._get_unlocked(job_id)

    def find(self, recipe: LabRecipe) -> Job | None:
        with self._condition:
            return self._find_unlocked(recipe)

    def position(self, job: Job) -> int:
        """1 for the next job to start, 2 behind it, ...; 0 if the job is not waiting."""
        with self._condition:
            return self._queue.index(job) + 1 if job in self._queue else 0

    def jobs(self) -> list[Job]:
        """Running, then queued, then finished (newest first)."""
        with self._condition:
            return [*self._running, *self._queue, *reversed(self._finished)]

    def finished(self) -> list[Job]:
        with self._condition:
            return list(reversed(self._finished))

    def wait(self, job: Job, timeout: float = 60.0) -> bool:
        """Block until `job` is no longer queued or running (tests, the benchmark). True if it ended."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while job.state in ACTIVE:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._condition.wait(left)
        return True

    def shutdown(self, timeout: float = 10.0) -> None:
        """Cancel everything and stop the workers (tests)."""
        with self._condition:
            self._closed = True
            for job in [*self._queue, *self._running]:
                job.cancel.set()
            self._condition.notify_all()
        for thread in self._threads:
            thread.join(timeout)

    # -- internals --
    def _watch(self, job: Job, session: str) -> None:
        with job.lock:
            job.watchers[session] = time.time()

    def _get_unlocked(self, job_id: str) -> Job | None:
        return next((j for j in [*self._running, *self._queue, *self._finished] if j.id == job_id), None)

    def _find_unlocked(self, recipe: LabRecipe) -> Job | None:
        return next((j for j in [*self._running, *self._queue, *reversed(self._finished)] if j.recipe == recipe), None)

    def _retire(self, job: Job) -> None:
        self._finished.append(job)
        while len(self._finished) > self.max_finished:
            self._finished.popleft()
        self._condition.notify_all()

    def _ensure_workers(self) -> None:
        self._threads = [t for t in self._threads if t.is_alive()]
        while len(self._threads) < self.workers:
            thread = threading.Thread(target=self._work, name=f"lab-worker-{len(self._threads)}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _work(self) -> None:
        while True:
            with self._condition:
                while not self._queue and not self._closed:
                    self._condition.wait()
                if self._closed:
                    return
                job = self._queue.popleft()
                job.state = RUNNING
                job.set_phase("starting")
                job.worker = "local"
                job.started = time.time()
                self._running.append(job)
            self._run(job)
            with self._condition:
                self._running.remove(job)
                job.finished = time.time()
                self._retire(job)

    def _run(self, job: Job) -> None:
        recipe = job.recipe
        job.store = SnapshotStore(lab_plan(recipe).snapshot_every)
        folder = self.models_dir() if callable(self.models_dir) else self.models_dir
        out = Path(folder) / recipe.name if folder is not None else None
        try:
            outcome = self.runner(recipe, out=out, store=job.store, on_progress=job.record,
                                  should_stop=job.cancel.is_set, eval_n=self.eval_n)
        except NonFiniteLoss as exc:
            job.error = f"{exc}: the run cannot recover (try a smaller preset or another seed)"
            job.state = FAILED
        except Exception as exc:  # any failure ends this job only, with a message
            if is_out_of_memory(exc):
                job.error = "out of memory: try a smaller preset"
                if torch.cuda.is_available():
                    torch.cuda.empty_cache()
            else:  # a worker's message already names the error (workers.WorkerError / WorkerCrashed)
                job.error = str(exc) if getattr(exc, "plain_message", False) else f"{type(exc).__name__}: {exc}"
            job.state = FAILED
        else:
            with job.lock:
                job.model_dir = outcome.model_dir
                job.save_error = outcome.save_error
                job.metrics = outcome.metrics
                job.device, job.device_notice = outcome.device, outcome.device_notice
                job.step = outcome.result.steps_done
                job.seconds = outcome.result.seconds
                job.state = CANCELLED if outcome.result.stopped else DONE

