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
jobs stay listed, at most `max_finished`, the oldest dropped first. `run_lab_recipe` is the one
code path of a lab run: the workers and `python -m transformer_core train --preset ...` call it.
"""

from __future__ import annotations

import itertools
import os
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from transformer_core.inference.devices import is_out_of_memory, resolve_device
from transformer_core.training.loop import NonFiniteLoss, TrainingStopped, TrainResult, train
from transformer_core.training.model_card import write_model_dir
from transformer_core.training.recipes import (
    PRESETS,
    LabRecipe,
    count_parameters,
    has_core_grammar,
    held_out_examples,
    lab_plan,
)
from transformer_core.training.snapshots import (
    Snapshot,
    SnapshotStore,
    held_out_scores,
    probe_attention,
    save_snapshots,
)

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
ACTIVE = (QUEUED, RUNNING)
SNAPSHOT_EVAL_N = 32  # held-out examples scored at every snapshot (cheap: one batch)
FINAL_EVAL_N = 200  # held-out examples scored once at the end (the benchmark uses 500)
WATCH_TIMEOUT_S = 30.0  # a session that has not polled for this long no longer counts as watching
HISTORY_POINTS = 2000  # loss-curve points kept per job (thinned evenly)


class QueueFull(RuntimeError):
    """Too many different runs are already waiting (JobManager.max_queued); joining one of them still works."""


def default_workers() -> int:
    """At most this many lab jobs train at once (env TRANSFORMER_EXPLORER_LAB_WORKERS, default 1)."""
    try:
        return max(1, int(os.environ.get("TRANSFORMER_EXPLORER_LAB_WORKERS", "1")))
    except ValueError:
        return 1


@dataclass
class LabOutcome:
    """What a finished lab run leaves: the model, its curves and snapshots, metrics, where it was saved."""

    result: TrainResult
    snapshots: list[Snapshot]
    history: list[dict]
    metrics: dict
    model_dir: Path | None
    save_error: str
    snapshot_seconds: float  # time spent taking snapshots (inside the training time)
    device: str
    device_notice: str


ProgressCallback = Callable[[dict], None]


def run_lab_recipe(recipe: LabRecipe, *, out: str | Path | None = None, store: SnapshotStore | None = None,
                   on_progress: ProgressCallback | None = None, should_stop: Callable[[], bool] | None = None,
                   eval_n: int = FINAL_EVAL_N, command: str = "", snapshot_eval_n: int = SNAPSHOT_EVAL_N,
                   progress_bar: bool = False) -> LabOutcome:
    """Train one lab recipe with snapshots, evaluate it, and (if `out`) save a model dir + snapshots there.

    on_progress receives {step, seconds, loss, snapshot_seconds} after every step. should_stop() is
    asked after every step; True ends the run early (the model so far is evaluated and saved).
    A failure to save is returned in `save_error`, never raised.
    """
    plan = lab_plan(recipe)
    device, notice = resolve_device(recipe.device)
    store = store if store is not None else SnapshotStore(plan.snapshot_every)
    tokenizer = plan.tokenizer
    examples = held_out_examples(recipe.task, tokenizer, snapshot_eval_n, seed=777)
    probe = recipe.probe_text
    state = {"smoothed": None, "snapshot_seconds": 0.0, "start": time.perf_counter()}

    def take_snapshot(step: int, model, loss: float) -> None:
        began = time.perf_counter()
        exact, alignment = held_out_scores(model, examples)
        src_tokens, tgt_tokens, output, attention = probe_attention(model, tokenizer, probe)
        store.add(Snapshot(step=step, seconds=round(began - state["start"], 2), loss=round(loss, 4),
                           exact_match=exact, alignment=alignment, src_tokens=src_tokens, tgt_tokens=tgt_tokens,
                           output_text=output, attention=attention))
        state["snapshot_seconds"] += time.perf_counter() - began

    def on_step(step: int, loss: float, model) -> None:
        smoothed = loss if state["smoothed"] is None else 0.9 * state["smoothed"] + 0.1 * loss
        state["smoothed"] = smoothed
        if store.due(step):
            take_snapshot(step, model, smoothed)
        if on_progress is not None:
            on_progress({"step": step, "seconds": time.perf_counter() - state["start"], "loss": smoothed,
                         "snapshot_seconds": state["snapshot_seconds"]})
        if should_stop is not None and should_stop():
            raise TrainingStopped

    state["start"] = time.perf_counter()
    result = train(plan.settings, plan.config, on_step=on_step, progress=progress_bar, tokenizer=tokenizer,
                   device=device, history_limit=HISTORY_POINTS)
    latest = store.latest()
    if result.steps_done and (latest is None or latest.step != result.steps_done):
        take_snapshot(result.steps_done, result.model, state["smoothed"] or result.history[-1]["loss"])
    metrics: dict = {}
    if eval_n and result.steps_done:
        final_examples = held_out_examples(recipe.task, tokenizer, eval_n, seed=12345)
        exact, alignment = held_out_scores(result.model, final_examples)
        metrics = {"n": len(final_examples), "seed": 12345, "exact_match": exact, "lab_alignment": alignment}
    snapshots = store.items()
    model_dir, save_error = None, ""
    if out is not None and result.steps_done:
        model_dir, save_error = save_lab_model(Path(out), recipe, plan, result, snapshots, metrics,
                                               state["snapshot_seconds"], command)
    return LabOutcome(result, snapshots, result.history, metrics, model_dir, save_error,
                      state["snapshot_seconds"], device, notice)


def recipe_lines(recipe: LabRecipe, plan, figures: list[str] | None = None) -> list[str]:
    """The model card's lab section: the recipe and how to repeat it."""
    preset = PRESETS[recipe.preset]
    return [
        "## Training lab recipe", "", *(figures or []),
        f"- task {recipe.task}, preset {recipe.preset} (d_model {preset.d_model}, {preset.n_heads} heads, "
        f"{preset.layers}+{preset.layers} layers, d_ff {preset.d_ff}, {count_parameters(plan.config):,} parameters), "
        f"time budget {recipe.budget_s} s" + (f", at most {recipe.max_steps} steps" if recipe.max_steps else "")
        + f", seed {recipe.seed}, device {recipe.device}",
        f"- probe sentence: `{recipe.probe_text}`; snapshots every {plan.snapshot_every} steps (thinned when full): "
        "held-out exact match and alignment on "
        f"{SNAPSHOT_EVAL_N} sentences, the probe's attention for every layer, head and kind "
        "(snapshots.safetensors + snapshots.json; the lab page replays them: `/train?run=NAME`)",
        f"- the same run from the command line: `python -m transformer_core train --task {recipe.task} "
        f"--preset {recipe.preset} --budget {recipe.budget_s} --seed {recipe.seed} --out DIR`", "",
    ]


def lab_config_fields(recipe: LabRecipe) -> dict:
    """What config.json says about a lab model: ko-en ones are evaluated by evaluate.py on the core grammar."""
    fields: dict = {"lab_recipe": asdict(recipe)}
    if recipe.task == "ko-en":
        fields.update(task="ko-en", grammar="core" if has_core_grammar() else "full")
    return fields


def save_lab_model(out: Path, recipe: LabRecipe, plan, result: TrainResult, snapshots: list[Snapshot],
                   metrics: dict, snapshot_seconds: float, command: str = "") -> tuple[Path | None, str]:
    """Write the model dir (model + card + snapshots) atomically: a temporary sibling, then a rename.

    Returns (directory, '') or (None, a plain-language reason) when the disk is full, not writable, ...
    """
    temporary = out.parent / f".{out.name}.partial-{os.getpid()}-{threading.get_ident()}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(temporary, ignore_errors=True)
        figures = []
        if metrics:
            figures = [f"- held-out ({metrics['n']} sentences, seed {metrics['seed']}): exact match "
                       f"{metrics['exact_match']:.1%}, alignment accuracy {metrics['lab_alignment']:.1%} "
                       "(best decoder layer, head average" + (", anti-diagonal share" if recipe.task == "reverse"
                                                               else "") + ")"]
        overhead = snapshot_seconds / result.seconds if result.seconds else 0.0
        notes = [f"- {len(snapshots)} snapshots kept, taking them cost {snapshot_seconds:.1f} s "
                 f"({overhead:.1%} of the training time)"]
        if result.stopped:
            notes.append("- stopped early (Stop button)")
        write_model_dir(temporary, result, plan.settings, plan.config, {k: v for k, v in metrics.items()
                                                                         if k != "lab_alignment"},
                        command or f"python -m transformer_core train --task {recipe.task} --preset {recipe.preset} "
                                   f"--budget {recipe.budget_s} --seed {recipe.seed} --out {out.name}",
                        extra_config=lab_config_fields(recipe),
                        extra_sections=recipe_lines(recipe, plan, figures), training_notes=notes, final_dir=out)
        save_snapshots(temporary, snapshots, result.history,
                       {"recipe": asdict(recipe), "name": out.name, "steps": result.steps_done,
                        "seconds": round(result.seconds, 2), "metrics": metrics,
                        "snapshot_seconds": round(snapshot_seconds, 3)})
        if out.exists():
            shutil.rmtree(out)
        os.replace(temporary, out)
        return out, ""
    except OSError as exc:
        shutil.rmtree(temporary, ignore_errors=True)
        reason = exc.strerror or str(exc)
        return None, f"{type(exc).__name__}: {reason} ({exc.filename or out})"


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
    watchers: dict[str, float] = field(default_factory=dict)  # session -> last time it polled
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _every: int = 1

    def record(self, progress: dict) -> None:
        """Called by the worker after every step."""
        with self.lock:
            self.step = progress["step"]
            self.seconds = progress["seconds"]
            self.loss = progress["loss"]
            self.snapshot_seconds = progress["snapshot_seconds"]
            if self.step % self._every == 0:
                self.history.append((self.step, round(self.loss, 4)))
                if len(self.history) > HISTORY_POINTS:
                    self.history = self.history[::2]
                    self._every *= 2

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
                "finished": self.finished, "owner": self.owner,
                "steps_per_s": self.step / self.seconds if self.seconds > 0 else 0.0,
            }

    def viewers(self, now: float | None = None) -> set[str]:
        """Sessions that polled within WATCH_TIMEOUT_S (the owner always counts while it polls)."""
        now = time.time() if now is None else now
        with self.lock:
            return {s for s, seen in self.watchers.items() if now - seen <= WATCH_TIMEOUT_S}


class JobManager:
    """Lab jobs keyed by recipe: shared by sessions, queued (at most K running), bounded history."""

    def __init__(self, workers: int | None = None, max_finished: int = 8, max_queued: int = 16,
                 models_dir: str | Path | Callable[[], Path] | None = None,
                 eval_n: int = FINAL_EVAL_N, runner: Callable[..., LabOutcome] | None = None) -> None:
        self.workers = workers or default_workers()
        self.max_finished = max_finished
        self.max_queued = max_queued  # different recipes waiting at once; one more is refused (QueueFull)
        # where finished models are saved: a folder, a function returning one (asked at save time), or None
        self.models_dir = models_dir if models_dir is None or callable(models_dir) else Path(models_dir)
        self.eval_n = eval_n
        if runner is None:  # imported here: workers.py imports this module
            from transformer_core.training.workers import LocalProcessRunner

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
            if job is None:
                return "unknown"
            if job.state not in ACTIVE:
                return "finished"
            others = job.viewers() - {session}
            if session != job.owner and others:
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

