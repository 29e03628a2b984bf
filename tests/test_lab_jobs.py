"""The training lab's job manager and snapshots: one job per recipe, a bounded queue, cancel rules,
failures that stay inside their job, bounded snapshot memory, and the CLI writing the lab's run.

Real trainings use the tiny preset with a fixed step count (seconds). Queue and cancel rules use a
runner that waits on an event, so "two jobs at once" is decided by the test, not by the CPU's speed.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest
import torch

import transformer_core as core
from tests.heldout_recount import assert_lab_figures_match_a_recount, expected_metrics, greedy_text, recount
from transformer_core.inference.devices import CUDA_MISSING
from transformer_core.training import cli as train_cli
from transformer_core.training import jobs, loop
from transformer_core.training.jobs import CANCELLED, DONE, FAILED, QUEUED, RUNNING, JobManager
from transformer_core.training.recipes import LabRecipe, count_parameters, held_out_examples, lab_plan
from transformer_core.training.snapshots import Snapshot, SnapshotStore, has_snapshots, load_snapshots
from transformer_core.training.workers import thread_runner


def tiny(task: str = "copy", seed: int = 0, steps: int = 12) -> LabRecipe:
    return LabRecipe(task=task, preset="tiny", budget_s=60, seed=seed, max_steps=steps)


@pytest.fixture
def manager_factory(tmp_path):
    made: list[JobManager] = []

    def make(**kwargs) -> JobManager:
        kwargs.setdefault("models_dir", tmp_path / "lab_models")
        kwargs.setdefault("eval_n", 16)
        kwargs.setdefault("runner", thread_runner)  # the rules, in-thread (test_lab_worker.py: the process)
        manager = JobManager(**kwargs)
        made.append(manager)
        return manager

    yield make
    for manager in made:
        manager.shutdown()


class GatedRunner:
    """A runner that reports progress until its recipe's gate opens or it is told to stop."""

    def __init__(self) -> None:
        self.gates: dict[LabRecipe, threading.Event] = {}
        self.running: set[LabRecipe] = set()
        self.most_at_once = 0
        self.lock = threading.Lock()

    def gate(self, recipe: LabRecipe) -> threading.Event:
        return self.gates.setdefault(recipe, threading.Event())

    def __call__(self, recipe, *, out, store, on_progress, should_stop, eval_n):
        with self.lock:
            self.running.add(recipe)
            self.most_at_once = max(self.most_at_once, len(self.running))
        try:
            step = 0
            while not self.gate(recipe).wait(0.01):
                step += 1
                on_progress({"step": step, "seconds": step * 0.01, "loss": 1.0, "snapshot_seconds": 0.0})
                if should_stop():
                    return _outcome(step, stopped=True)
            if recipe.task == "sort":
                raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
            return _outcome(step)
        finally:
            with self.lock:
                self.running.discard(recipe)


def _outcome(steps: int, stopped: bool = False) -> jobs.LabOutcome:
    result = loop.TrainResult(model=None, tokenizer=None, history=[], seconds=0.1, steps_done=steps, stopped=stopped)
    return jobs.LabOutcome(result, [], [], {}, None, "", 0.0, "cpu", "")


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


# --- one job per recipe ------------------------------------------------------------------------------

def test_sessions_asking_for_the_same_recipe_share_one_job_that_trains_and_saves(manager_factory, tmp_path,
                                                                                monkeypatch):
    manager = manager_factory()
    recipe = tiny("copy")
    first = manager.submit(recipe, "alice")
    assert manager.submit(LabRecipe(**vars(recipe)), "bob") is first  # equal recipe, equal key
    assert manager.submit(tiny("copy", seed=1), "carol") is not first
    assert manager.wait(first, timeout=120)
    status = first.status()
    assert status["state"] == DONE, status["error"]
    assert status["step"] == 12 and first.viewers() >= {"alice", "bob"}
    steps = [s.step for s in status["snapshots"]]
    assert steps[0] == 1 and steps[-1] == 12 and steps == sorted(steps)
    assert_lab_figures_match_a_recount(status["model_dir"], "copy", status["metrics"])
    # a finished job is the answer to the same recipe (the result is shared too)
    assert manager.submit(recipe, "dave") is first
    # saved as an ordinary model dir that the explorer lists and loads
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", str(tmp_path / "lab_models"))
    names = {info.name: info for info in core.list_models()}
    assert names[recipe.name].available and names[recipe.name].lab
    loaded = core.load(recipe.name)
    assert core.trace_text(loaded, "abcd").output_text == greedy_text(loaded, "abcd")
    assert has_snapshots(status["model_dir"])
    snapshots, history, info = load_snapshots(status["model_dir"])
    assert [s.step for s in snapshots] == steps and info["recipe"]["task"] == "copy"
    assert history[-1]["step"] == 12


# --- queue --------------------------------------------------------------------------------------------

def test_the_queue_is_bounded_but_a_queued_recipe_is_still_shared(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(workers=1, runner=runner, max_queued=2)
    running = manager.submit(tiny("copy", seed=0), "alice")
    wait_until(lambda: running.state == RUNNING)
    waiting = [manager.submit(tiny("copy", seed=seed), f"s{seed}") for seed in (1, 2)]
    with pytest.raises(jobs.QueueFull, match="2 runs are waiting"):
        manager.submit(tiny("copy", seed=3), "zoe")
    assert manager.submit(tiny("copy", seed=2), "yan") is waiting[1]  # joining a queued run is always allowed
    assert [job.id for job in manager.jobs()] == [running.id, *(job.id for job in waiting)]
    for seed in range(3):
        runner.gate(tiny("copy", seed=seed)).set()
    assert all(manager.wait(job, timeout=30) for job in (running, *waiting))
    assert manager.submit(tiny("copy", seed=3), "zoe").state in (QUEUED, RUNNING, DONE)  # room again


def test_at_most_k_jobs_run_and_the_rest_wait_in_order(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(workers=1, runner=runner)
    recipes = [tiny("copy", seed=s) for s in range(3)]
    job_list = [manager.submit(r, f"s{i}") for i, r in enumerate(recipes)]
    wait_until(lambda: job_list[0].state == RUNNING)
    assert [j.state for j in job_list] == [RUNNING, QUEUED, QUEUED]
    assert [manager.position(j) for j in job_list] == [0, 1, 2]
    runner.gate(recipes[0]).set()
    wait_until(lambda: job_list[1].state == RUNNING)
    assert manager.position(job_list[2]) == 1
    for recipe in recipes[1:]:
        runner.gate(recipe).set()
    for job in job_list:
        assert manager.wait(job, timeout=10)
    assert [j.state for j in job_list] == [DONE, DONE, DONE]
    assert runner.most_at_once == 1


def test_two_workers_run_two_jobs_at_once(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(workers=2, runner=runner)
    recipes = [tiny("copy", seed=s) for s in range(3)]
    job_list = [manager.submit(r, "teacher") for r in recipes]
    wait_until(lambda: job_list[0].state == RUNNING and job_list[1].state == RUNNING)
    assert job_list[2].state == QUEUED and manager.position(job_list[2]) == 1
    # A job is RUNNING just before its worker calls the runner: wait until both are inside it (seen once in CI:
    # the gates opened first and job 0 finished before job 1 had entered).
    wait_until(lambda: len(runner.running) == 2)
    for recipe in recipes:
        runner.gate(recipe).set()
    assert all(manager.wait(j, timeout=10) for j in job_list)
    assert runner.most_at_once == 2


def test_workers_default_to_one_and_follow_the_environment(monkeypatch):
    monkeypatch.delenv("TRANSFORMER_EXPLORER_LAB_WORKERS", raising=False)
    assert jobs.default_workers() == 1
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_WORKERS", "3")
    assert JobManager().workers == 3
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_WORKERS", "many")
    assert jobs.default_workers() == 1


# --- cancel --------------------------------------------------------------------------------------------

def test_stop_leaves_a_shared_job_running_until_the_owner_or_the_last_watcher_stops_it(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(runner=runner)
    recipe = tiny("copy")
    job = manager.submit(recipe, "owner")
    manager.submit(recipe, "student")
    wait_until(lambda: job.state == RUNNING)
    assert manager.stop(job.id, "student") == "left"  # the owner still watches
    assert job.state == RUNNING and not job.cancel.is_set()
    assert manager.stop(job.id, "owner") == "cancelled"
    assert manager.wait(job, timeout=10) and job.state == CANCELLED and job.stopped_by == "owner"

    second = manager.submit(recipe, "owner")  # a cancelled recipe starts afresh
    assert second is not job
    manager.submit(recipe, "student")
    wait_until(lambda: second.state == RUNNING)
    second.watchers["owner"] = time.time() - 10 * jobs.WATCH_TIMEOUT_S  # the owner closed the tab
    assert manager.stop(second.id, "student") == "cancelled"  # nobody else watches
    assert manager.wait(second, timeout=10) and second.state == CANCELLED


def test_stopping_a_queued_job_removes_it_from_the_queue(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(runner=runner)
    running = manager.submit(tiny("copy", seed=0), "a")
    queued = manager.submit(tiny("copy", seed=1), "b")
    wait_until(lambda: running.state == RUNNING)
    assert manager.stop(queued.id, "b") == "cancelled"
    assert queued.state == CANCELLED and manager.position(queued) == 0
    assert manager.stop(queued.id, "b") == "finished"
    assert manager.stop("job-that-never-was", "b") == "unknown"
    runner.gate(tiny("copy", seed=0)).set()
    assert manager.wait(running, timeout=10) and running.state == DONE


def test_stop_ends_a_real_training_early_and_keeps_what_it_learned(manager_factory):
    manager = manager_factory()
    job = manager.submit(tiny("reverse", steps=100_000), "owner")
    wait_until(lambda: job.status()["step"] >= 3, timeout=60)
    assert manager.stop(job.id, "owner") == "cancelled"
    assert manager.wait(job, timeout=60)
    status = job.status()
    assert status["state"] == CANCELLED and 3 <= status["step"] < 100_000
    assert status["model_dir"] is not None and (status["model_dir"] / "model.safetensors").is_file()


# --- failures ------------------------------------------------------------------------------------------

def test_a_job_that_raises_ends_with_a_message_and_the_others_go_on(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(runner=runner)
    failing, fine = tiny("sort"), tiny("copy")
    bad_job, good_job = manager.submit(failing, "a"), manager.submit(fine, "b")
    runner.gate(failing).set()
    runner.gate(fine).set()
    assert manager.wait(bad_job, timeout=10) and manager.wait(good_job, timeout=10)
    assert bad_job.state == FAILED and "out of memory" in bad_job.error
    assert good_job.state == DONE and good_job.error == ""


def test_a_nan_loss_fails_the_job_with_a_message(manager_factory, monkeypatch):
    real_loss = loop.loss_on

    def nan_after_three(model, batch, *args, **kwargs):
        nan_after_three.calls += 1
        loss = real_loss(model, batch, *args, **kwargs)
        return loss * float("nan") if nan_after_three.calls > 3 else loss

    nan_after_three.calls = 0
    monkeypatch.setattr(loop, "loss_on", nan_after_three)
    manager = manager_factory()
    job = manager.submit(tiny("copy"), "a")
    assert manager.wait(job, timeout=60)
    assert job.state == FAILED and "nan" in job.error.lower() and "step 4" in job.error
    monkeypatch.setattr(loop, "loss_on", real_loss)
    after = manager.submit(tiny("copy", seed=5, steps=3), "a")
    assert manager.wait(after, timeout=60) and after.state == DONE


def test_a_model_that_cannot_be_saved_is_reported_and_the_lab_goes_on(manager_factory, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the lab models folder should be", encoding="utf-8")
    manager = manager_factory(models_dir=blocker)
    job = manager.submit(tiny("copy", steps=3), "a")
    assert manager.wait(job, timeout=60)
    assert job.state == DONE and job.model_dir is None
    assert "Error" in job.save_error and "not-a-folder" in job.save_error
    assert not list(tmp_path.glob(".*partial*"))


def test_finished_jobs_are_bounded_and_the_oldest_goes_first(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(runner=runner, max_finished=2)
    recipes = [tiny("copy", seed=s) for s in range(4)]
    for recipe in recipes:
        runner.gate(recipe).set()
    job_list = [manager.submit(r, "a") for r in recipes]
    for job in job_list:
        assert manager.wait(job, timeout=10)
    assert [j.recipe.seed for j in manager.finished()] == [3, 2]  # newest first, seeds 0 and 1 dropped
    assert manager.get(job_list[0].id) is None


# --- snapshots -----------------------------------------------------------------------------------------

def fake_snapshot(step: int, side: int = 8) -> Snapshot:
    attention = {"decoder.cross_attn": np.full((2, 2, side, side), step % 7, dtype=np.float16)}
    return Snapshot(step, float(step), 1.0, 0.0, 0.0, ["a"] * side, ["b"] * side, "out", attention)


def test_snapshot_store_stays_within_its_count_and_thins_evenly():
    store = SnapshotStore(every=10, max_count=8, max_bytes=10**9)
    for step in range(1, 2001):
        if store.due(step):
            store.add(fake_snapshot(step))
    steps = [s.step for s in store.items()]
    assert 4 <= len(steps) <= 8
    assert steps[0] == 1 and steps[-1] > 2000 - store.every  # the start and the latest are kept
    assert len(set(np.diff(steps[1:]).tolist())) == 1  # evenly spaced after the first
    assert store.every > 10 and all(s % store.every == 0 for s in steps[1:])


FLOAT16_BYTES = 2
TOKEN_BYTES = 64  # what the store charges for one token string (snapshots.py: a flat 64 bytes each)


def snapshot_bytes(snapshot: Snapshot) -> int:
    """A snapshot's size from its arrays' shapes x the float16 size, written out here (not the code's nbytes)."""
    arrays = sum(FLOAT16_BYTES * int(np.prod(a.shape)) for a in snapshot.attention.values())
    return arrays + TOKEN_BYTES * (len(snapshot.src_tokens) + len(snapshot.tgt_tokens))


def test_snapshot_store_stays_within_its_byte_bound():
    one = 2 * 2 * 32 * 32 * FLOAT16_BYTES + TOKEN_BYTES * (32 + 32)  # [2,2,32,32] float16 + 64 token strings
    assert snapshot_bytes(fake_snapshot(1, side=32)) == one == fake_snapshot(1, side=32).nbytes
    store = SnapshotStore(every=1, max_count=1000, max_bytes=10 * one)
    for step in range(1, 500):
        store.add(fake_snapshot(step, side=32))
        assert sum(snapshot_bytes(s) for s in store.items()) <= 10 * one
    assert len(store) >= 5 and store.items()[-1].step == 499


# The lab's limits as the README states them (docs: "bounded in count (64) and bytes (16 MiB) per job",
# "Finished jobs stay listed (8, oldest dropped first)", and the presets' parameter counts for ko-en).
README_SNAPSHOTS, README_SNAPSHOT_BYTES, README_FINISHED = 64, 16 * 2**20, 8
README_PARAMETERS = {"tiny": 72_328, "class": 861_704, "larger": 5_926_408}  # ko-en: the core's 1,544 tokens


def test_a_jobs_snapshot_store_holds_at_most_64_snapshots_and_16_mib():
    store = SnapshotStore(every=1)  # what a job builds: only the interval is given (jobs.py)
    counts = []
    for step in range(1, 300):
        store.add(fake_snapshot(step))
        counts.append(len(store))
    assert max(counts) == README_SNAPSHOTS
    store = SnapshotStore(every=1)
    for step in range(1, 40):
        store.add(fake_snapshot(step, side=512))  # [2,2,512,512] float16 = 2 MiB each
        total = sum(snapshot_bytes(s) for s in store.items())
        assert total <= README_SNAPSHOT_BYTES
    assert total > README_SNAPSHOT_BYTES - 2 * (2 * 2 * 512 * 512 * FLOAT16_BYTES)  # the bound is used, not tiny


def test_the_lab_keeps_8_finished_jobs_by_default(manager_factory):
    runner = GatedRunner()
    manager = manager_factory(runner=runner)  # the page's JobManager gives no max_finished (pages/train.py)
    recipes = [tiny("copy", seed=s) for s in range(README_FINISHED + 3)]
    for recipe in recipes:
        runner.gate(recipe).set()
    for job in [manager.submit(r, "a") for r in recipes]:
        assert manager.wait(job, timeout=10)
    assert [j.recipe.seed for j in manager.finished()] == list(range(len(recipes) - 1, 2, -1))  # newest first


def parameters_by_formula(d: int, heads: int, layers: int, d_ff: int, vocab: int, final_norm: bool) -> int:
    """The paper's model, counted by hand: one embedding table shared by source, target and the output
    projection (V x D) plus the output bias (V); per attention W_Q, W_K, W_V, W_O with biases (4 (D^2 + D));
    per FFN D x d_ff + d_ff + d_ff x D + D; per LayerNorm gain and bias (2D). An encoder layer has one
    attention, one FFN, two norms; a decoder layer two attentions, one FFN, three norms; sinusoidal
    positions have no parameters. `heads` splits D and adds nothing."""
    attention = 4 * (d * d + d)
    ffn = d * d_ff + d_ff + d_ff * d + d
    norm = 2 * d
    encoder_layer = attention + ffn + 2 * norm
    decoder_layer = 2 * attention + ffn + 3 * norm
    return vocab * d + vocab + layers * (encoder_layer + decoder_layer) + (2 * norm if final_norm else 0)


@pytest.mark.parametrize("preset", list(README_PARAMETERS))
def test_the_presets_parameter_counts_are_the_readmes(preset):
    config = lab_plan(LabRecipe(task="ko-en", preset=preset, budget_s=60)).config
    layers = config.n_encoder_layers
    assert config.n_decoder_layers == layers and config.positional == "sinusoidal" and config.share_embeddings
    by_formula = parameters_by_formula(config.d_model, config.n_heads, layers, config.d_ff, config.src_vocab_size,
                                       config.final_norm)
    built = sum(p.numel() for p in core.Transformer(config).parameters())  # shared tensors counted once
    assert built == by_formula == README_PARAMETERS[preset]


def test_a_real_run_keeps_at_most_the_store_bound(tmp_path):
    store = SnapshotStore(every=1, max_count=4)
    outcome = jobs.run_lab_recipe(tiny("reverse", steps=20), out=None, store=store, eval_n=0)
    assert len(outcome.snapshots) <= 4 and outcome.snapshots[-1].step == 20
    last = outcome.snapshots[-1]
    n = len(last.src_tokens)
    assert last.attention["encoder.self_attn"].shape == (1, 2, n, n)
    assert last.attention["decoder.cross_attn"].shape == (1, 2, len(last.tgt_tokens), n)
    rows = last.attention["decoder.cross_attn"].astype(np.float32).sum(-1)
    assert np.allclose(rows, 1.0, atol=1e-2)


# --- the same recipe from the command line -----------------------------------------------------------------

def test_cli_preset_trains_the_labs_recipe_and_writes_a_replayable_run(tmp_path):
    out = tmp_path / "demo"
    assert train_cli.main(["--task", "ko-en", "--preset", "tiny", "--budget", "60", "--steps", "8", "--out", str(out),
                           "--eval-n", "10", "--quiet"]) == 0
    recipe = LabRecipe(task="ko-en", preset="tiny", budget_s=60, seed=0, max_steps=8)
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    expected = lab_plan(recipe).config.to_dict()
    assert {k: config[k] for k in expected} == expected
    assert config["task"] == "ko-en" and config["lab_recipe"]["preset"] == "tiny"
    snapshots, _, info = load_snapshots(out)
    assert info["recipe"] == config["lab_recipe"] and snapshots[-1].step == 8
    assert snapshots[0].src_tokens[0].startswith("고양이")  # the default probe, as the tokenizer cuts it
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "--preset tiny" in card and "snapshots" in card
    model = core.load(out).model
    assert sum(p.numel() for p in model.parameters()) == count_parameters(lab_plan(recipe).config)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_training_moves_to_a_cuda_device_when_one_is_chosen():
    recipe = LabRecipe(task="copy", preset="tiny", budget_s=60, max_steps=2, device="cuda")
    outcome = jobs.run_lab_recipe(recipe, out=None, eval_n=0)
    assert outcome.device.startswith("cuda") and outcome.device_notice == ""
    assert next(outcome.result.model.parameters()).is_cuda


def test_training_on_a_chosen_but_absent_cuda_falls_back_to_the_cpu(monkeypatch):
    """Runs on every machine: torch is told there is no CUDA device (a machine with one runs the test above)."""
    from explorer.i18n import t

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    recipe = LabRecipe(task="copy", preset="tiny", budget_s=60, max_steps=2, device="cuda")
    outcome = jobs.run_lab_recipe(recipe, out=None, eval_n=0)
    # the notice is a key since structure step 1 (the app words it in the student's language)
    assert outcome.device == "cpu" and outcome.device_notice == CUDA_MISSING
    assert not next(outcome.result.model.parameters()).is_cuda
    assert "CUDA" in t(f"msg.{outcome.device_notice}", "en")


def test_evaluate_measures_a_lab_letter_model(tmp_path):
    from transformer_core.analysis import evaluate

    out = tmp_path / "sorter"
    assert train_cli.main(["--task", "sort", "--preset", "tiny", "--steps", "5", "--out", str(out), "--eval-n", "0",
                           "--quiet"]) == 0
    metrics = evaluate.evaluate_model(core.load(out), n=12, seed=1)
    assert metrics["task"] == "letters-sort"
    loaded = core.load(out)
    examples = held_out_examples("sort", loaded.tokenizer, 12, 1)
    expected = expected_metrics([recount(loaded.model, e) for e in examples], [e.group for e in examples])
    assert metrics["exact_match"] == pytest.approx(expected["exact_match"], abs=1e-12)
    assert metrics["alignment_accuracy"] == pytest.approx(max(expected["per_layer"]), abs=1e-12)
    # every output letter has a gold source: each letter of each string is scored
    assert metrics["scored_words"] == expected["scored_words"] == sum(len(e.target_ids) for e in examples)


def test_the_docs_state_the_lab_limits_these_tests_hold():
    """The numbers above are the ones the README (or the docs it links to) tells teachers; keep both in step."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    text = " ".join(p.read_text(encoding="utf-8") for p in [root / "README.md", *sorted((root / "docs").rglob("*.md"))])
    for count in README_PARAMETERS.values():
        assert f"{count:,}" in text, f"{count:,} parameters: not in README.md or docs/"
    # one sentence each, however it is worded: "... snapshots ... (64) ... (16 MiB)", "finished jobs ... (8, ...)"
    assert re.search(rf"snapshots[^.]*\b{README_SNAPSHOTS}\b[^.]*16 MiB", text, re.IGNORECASE | re.DOTALL)
    assert re.search(rf"finished jobs[^.]*\b{README_FINISHED}\b", text, re.IGNORECASE | re.DOTALL)
