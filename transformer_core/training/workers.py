"""Where a lab job's training runs: the `Runner` interface and its two local implementations.

A runner is called by one of the JobManager's (light) worker threads with a recipe and the job's
hooks, and returns a `LabOutcome` or raises. Two implementations:

* `thread_runner` (= `run_lab_recipe` itself): trains in the calling thread. Tests and the CLI.
* `LocalProcessRunner`: trains in a child process at lower CPU priority (niceness +10, set by the
  parent right after the start so that the child's imports run low too), so the Streamlit
  server's page work wins the CPU. The child sends progress, snapshots and the result
  back through a `multiprocessing` queue; cancel crosses the other way as a shared event. An
  exception in the child comes back as a message (NonFiniteLoss stays NonFiniteLoss); a child that
  dies without a result (killed, segfault, out of memory) raises `WorkerCrashed` with its exit code.

The child is started with the 'spawn' method: forking the Streamlit server would copy a process
with live threads (tornado's event loop, torch's intra-op pool, the other lab workers) whose locks
may be held at the moment of the fork, a known way to deadlock the child; spawn starts a fresh
interpreter (about 2 s of imports per job, small beside a 60-120 s run).

A task queue (RQ or Celery on Redis, workers on other machines) fits the same interface: its
runner enqueues the recipe, relays progress from the queue's result backend and sets a cancel key
(docs/serving.md describes that deployment).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue as queue_module
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from transformer_core.training.lab_run import LabOutcome, run_lab_recipe
from transformer_core.training.loop import NonFiniteLoss, TrainResult
from transformer_core.training.recipes import lab_plan
from transformer_core.training.snapshots import Snapshot, SnapshotStore
from transformer_core.training.spawning import start_process

NICE = 10  # the child's CPU priority offset: pages first, training with what is left
POLL_S = 0.2  # how often the parent looks at the cancel flag when no message arrives


class Runner(Protocol):
    """Runs one lab recipe to the end (or until should_stop()), reporting as it goes."""

    def __call__(self, recipe, *, out: str | Path | None, store: SnapshotStore | None,
                 on_progress: Callable[[dict], None] | None, should_stop: Callable[[], bool] | None,
                 eval_n: int) -> object: ...


class WorkerCrashed(RuntimeError):
    """The training process ended without a result (killed, crashed)."""

    plain_message = True  # the job shows the message as it is


class WorkerError(RuntimeError):
    """An exception raised inside the training process (its type and message, as text)."""

    plain_message = True


def thread_runner(recipe, **hooks) -> LabOutcome:
    """Train in the calling thread (the JobManager's worker thread): the tests' and the CLI's way."""
    return run_lab_recipe(recipe, **hooks)


class _RelayStore(SnapshotStore):
    """The child's snapshot store: keeps its own (same thinning rules) and sends each snapshot home."""

    def __init__(self, every: int, channel) -> None:
        super().__init__(every)
        self.channel = channel

    def add(self, snapshot: Snapshot) -> None:
        super().add(snapshot)
        self.channel.put(("snapshot", snapshot))


def _child(work: Callable, recipe, out, eval_n: int, every: int, channel, cancel, nice: int) -> None:
    # nice: the absolute niceness this process should have (the parent's + NICE)
    """The training process: lower priority, one torch thread, run the recipe, send everything home."""
    try:  # the parent lowered it already (before these imports); this is for a child started some other way
        if os.getpriority(os.PRIO_PROCESS, 0) < nice:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
    except OSError:  # not allowed here: run at the same priority
        pass
    try:
        import torch

        torch.set_num_threads(1)
        outcome = work(recipe, out=out, store=_RelayStore(every, channel),
                       on_progress=lambda progress: channel.put(("progress", progress)),
                       should_stop=cancel.is_set, eval_n=eval_n)
        result = outcome.result
        channel.put(("done", {
            "steps_done": result.steps_done, "seconds": result.seconds, "stopped": result.stopped,
            "history": result.history, "metrics": outcome.metrics,
            "model_dir": str(outcome.model_dir) if outcome.model_dir is not None else None,
            "save_error": outcome.save_error, "snapshot_seconds": outcome.snapshot_seconds,
            "device": outcome.device, "device_notice": outcome.device_notice}))
    except BaseException as exc:  # every failure must reach the parent as a message
        kind = "nonfinite" if isinstance(exc, NonFiniteLoss) else "error"
        channel.put(("error", {"kind": kind, "type": type(exc).__name__, "message": str(exc)}))
    finally:
        channel.close()
        channel.join_thread()  # the messages are out before the process ends


def lower_priority(pid: int, niceness: int) -> None:
    """Give a just-started child its lower priority from outside: a spawned child imports torch (seconds of
    CPU) before its own code runs, and those imports must not compete with the pages either."""
    with contextlib.suppress(OSError):  # gone already, or not allowed: the child tries again itself
        os.setpriority(os.PRIO_PROCESS, pid, niceness)


class LocalProcessRunner:
    """Each job in its own process on this machine, at lower priority (see the module docstring)."""

    def __init__(self, nice: int = NICE, start_method: str = "spawn", work: Callable | None = None) -> None:
        """`work`: what the child runs (default `run_lab_recipe`; a module-level function, so spawn can import it)."""
        self.nice = nice
        self.context = multiprocessing.get_context(start_method)
        self.work = work or run_lab_recipe
        self.pids: set[int] = set()  # the children training now (tests kill one to prove a crash is survived)

    def __call__(self, recipe, *, out: str | Path | None = None, store: SnapshotStore | None = None,
                 on_progress: Callable[[dict], None] | None = None, should_stop: Callable[[], bool] | None = None,
                 eval_n: int = 200, **_ignored):
        every = store.every if store is not None else lab_plan(recipe).snapshot_every
        channel = self.context.Queue()
        cancel = self.context.Event()
        folder = str(out) if out is not None else None
        target = min(19, os.getpriority(os.PRIO_PROCESS, 0) + self.nice)  # niceness is absolute per process
        process = self.context.Process(target=_child, name=f"lab-{recipe.name}", daemon=True,
                                       args=(self.work, recipe, folder, eval_n, every, channel, cancel, target))
        start_process(process)
        self.pids.add(process.pid)
        lower_priority(process.pid, target)
        final: tuple[str, dict] | None = None
        try:
            while final is None:
                if should_stop is not None and should_stop():
                    cancel.set()
                try:
                    kind, payload = channel.get(timeout=POLL_S)
                except queue_module.Empty:
                    if process.is_alive():
                        continue
                    try:  # it ended: whatever it sent before is still in the pipe
                        kind, payload = channel.get(timeout=1.0)
                    except queue_module.Empty:
                        break
                if kind == "progress" and on_progress is not None:
                    on_progress(payload)
                elif kind == "snapshot" and store is not None:
                    store.add(payload)
                elif kind in ("done", "error"):
                    final = (kind, payload)
        finally:
            if final is None and process.is_alive():
                process.kill()
            process.join(10.0)
            self.pids.discard(process.pid)
            channel.close()
        if final is None:
            code = process.exitcode
            raise WorkerCrashed(f"the training process ended without a result (exit code {code})")
        kind, payload = final
        if kind == "error":
            if payload["kind"] == "nonfinite":
                raise NonFiniteLoss(payload["message"])
            raise WorkerError(f"{payload['type']}: {payload['message']}")
        result = TrainResult(model=None, tokenizer=None, history=payload["history"], seconds=payload["seconds"],
                             steps_done=payload["steps_done"], stopped=payload["stopped"])
        model_dir = Path(payload["model_dir"]) if payload["model_dir"] else None
        snapshots = store.items() if store is not None else []
        return LabOutcome(result, snapshots, payload["history"], payload["metrics"], model_dir,
                          payload["save_error"], payload["snapshot_seconds"], payload["device"],
                          payload["device_notice"])

