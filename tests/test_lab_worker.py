"""The lab's training process (workers.LocalProcessRunner): the job trains in a child process at lower
priority, progress and snapshots come back, cancel crosses over, a crash in the child ends the job with a
message and the manager goes on, queued jobs run in order.

Real (spawned) trainings of the tiny preset for a few steps; no timing asserts: every wait polls with a
generous timeout (a spawned child imports torch first, seconds on a busy machine).
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.heldout_recount import assert_lab_figures_match_a_recount
from transformer_core.training.jobs import CANCELLED, DONE, FAILED, RUNNING, JobManager, run_lab_recipe
from transformer_core.training.recipes import LabRecipe
from transformer_core.training.workers import LocalProcessRunner

WAIT_S = 240.0


def tiny(task: str = "copy", seed: int = 0, steps: int = 8) -> LabRecipe:
    return LabRecipe(task=task, preset="tiny", budget_s=600, seed=seed, max_steps=steps)


def work_reporting_process(recipe, **hooks):
    """The real run, plus where it ran: the child's pid and CPU priority in the metrics."""
    outcome = run_lab_recipe(recipe, **hooks)
    outcome.metrics.update(pid=os.getpid(), nice=os.nice(0))
    return outcome


def work_failing_at_step_3(recipe, *, on_progress, **hooks):
    """A training that raises inside the child after its third step."""
    def failing(progress: dict) -> None:
        on_progress(progress)
        if progress.get("step", 0) >= 3:  # phase messages carry no step
            raise ValueError(f"boom at step {progress['step']}")

    return run_lab_recipe(recipe, on_progress=failing, **hooks)


def wait_until(condition, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


@pytest.fixture
def make_manager(tmp_path):
    made: list[JobManager] = []

    def make(work=None, **kwargs) -> JobManager:
        runner = LocalProcessRunner(work=work)
        manager = JobManager(workers=1, eval_n=8, models_dir=tmp_path / "lab_models", runner=runner, **kwargs)
        made.append(manager)
        return manager

    yield make
    for manager in made:
        manager.shutdown(timeout=30)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_a_job_trains_in_a_lower_priority_child_and_its_progress_snapshots_and_model_come_back(make_manager):
    manager = make_manager(work=work_reporting_process)
    recipe = tiny(steps=8)
    job = manager.submit(recipe, "alice")
    assert manager.wait(job, WAIT_S)
    status = job.status()
    assert status["state"] == DONE, status["error"]
    assert status["metrics"]["pid"] != os.getpid()
    assert status["metrics"]["nice"] == min(19, os.nice(0) + 10)
    # every step's progress crossed the boundary (the curve has each step), and the snapshots did too
    assert [step for step, _ in status["history"]] == list(range(1, 9))
    assert [s.step for s in status["snapshots"]] == [1, 8]
    assert status["snapshots"][-1].attention["decoder.cross_attn"].ndim == 4
    assert status["model_dir"] is not None and (status["model_dir"] / "model.safetensors").is_file()
    assert status["step"] == 8
    assert_lab_figures_match_a_recount(status["model_dir"], "copy", status["metrics"])


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_stop_reaches_the_child_and_ends_the_job_cancelled(make_manager):
    manager = make_manager()
    job = manager.submit(tiny(steps=1_000_000), "alice")
    wait_until(lambda: job.state == RUNNING and job.step >= 2)
    assert manager.stop(job.id, "alice") == "cancelled"
    assert manager.wait(job, WAIT_S)
    status = job.status()
    assert status["state"] == CANCELLED
    assert 2 <= status["step"] < 1_000_000


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_an_exception_in_the_child_fails_only_its_job_with_the_message(make_manager):
    manager = make_manager(work=work_failing_at_step_3)
    job = manager.submit(tiny(steps=50), "alice")
    assert manager.wait(job, WAIT_S)
    assert job.state == FAILED
    assert job.error == "ValueError: boom at step 3"  # the child's exception, named as it was raised
    assert job.step == 3  # the progress sent before the failure arrived


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_a_killed_training_process_ends_its_job_with_a_message_and_the_next_job_runs(make_manager):
    manager = make_manager()
    runner = manager.runner
    doomed = manager.submit(tiny(steps=1_000_000), "alice")
    after = manager.submit(tiny(seed=1, steps=5), "bob")
    wait_until(lambda: doomed.step >= 1 and runner.pids)
    for pid in list(runner.pids):
        os.kill(pid, signal.SIGKILL)
    assert manager.wait(doomed, WAIT_S)
    assert doomed.state == FAILED
    assert doomed.error == f"the training process ended without a result (exit code {-signal.SIGKILL})"
    assert manager.wait(after, WAIT_S)
    assert after.state == DONE and after.step == 5


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_two_queued_jobs_run_one_after_the_other(make_manager):
    manager = make_manager()
    first = manager.submit(tiny(seed=0, steps=5), "alice")
    second = manager.submit(tiny(seed=1, steps=5), "bob")
    assert manager.wait(first, WAIT_S) and manager.wait(second, WAIT_S)
    assert first.state == DONE and second.state == DONE
    assert first.finished <= second.started
    assert first.step == 5 and second.step == 5
