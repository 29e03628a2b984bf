"""Honest progress in a lab run: the time budget ends it (no step starts after it, the clock a page shows is the
clock the budget counts), snapshots come at least every SNAPSHOT_GAP_S of training even when steps are slow,
and a stopped run is saved under a name that says so, outside the model picker; the lab-models folder defaults
outside the source tree. Real tiny trainings, times measured in the test itself."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest

from transformer_core.io.loading import REPO_ROOT, lab_models_dir, list_models
from transformer_core.training.lab_run import SNAPSHOT_GAP_S, UNFINISHED_DIR, run_lab_recipe
from transformer_core.training.loop import train
from transformer_core.training.recipes import LabRecipe, lab_plan


def test_no_step_starts_after_the_time_budget():
    budget_s = 1.0
    plan = lab_plan(LabRecipe("copy", "tiny", budget_s=1))
    assert plan.settings.max_minutes * 60 == budget_s
    started: list[float] = []  # step k+1 starts when on_step of step k returns; step 1 when on_start returns
    t0: list[float] = []

    def on_start() -> None:
        t0.append(time.perf_counter())
        started.append(t0[0])

    def on_step(step: int, loss: float, model) -> None:
        time.sleep(0.15)  # a slow step (a busy machine)
        started.append(time.perf_counter())

    result = train(plan.settings, plan.config, on_step=on_step, progress=False, tokenizer=plan.tokenizer,
                   on_start=on_start)
    step_starts = started[:result.steps_done]  # the last entry is when the loop looked again, and stopped
    assert result.steps_done < plan.settings.steps  # the clock ended it, not the schedule
    assert all(start - t0[0] < budget_s for start in step_starts)
    assert started[result.steps_done] - t0[0] >= budget_s  # it stopped because the budget was used up


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_snapshots_come_every_few_seconds_of_training_and_the_clock_stops_at_the_budget():
    recipe = LabRecipe("copy", "tiny", budget_s=10)  # snapshots every 25 steps by the preset ...
    seen: list[dict] = []

    def slow(progress: dict) -> None:
        seen.append(progress)
        if "step" in progress:
            time.sleep(0.4)  # ... which would be 10 s apart at this pace

    outcome = run_lab_recipe(recipe, on_progress=slow, eval_n=0)
    steps = [p for p in seen if "step" in p]
    assert [p["phase"] for p in seen if "step" not in p] == ["starting", "evaluating"]
    assert steps and all(p["phase"] == "training" for p in steps)
    longest_step = max(b["seconds"] - a["seconds"] for a, b in itertools.pairwise(steps))
    times = [s.seconds for s in outcome.snapshots]
    assert max(b - a for a, b in itertools.pairwise(times)) <= SNAPSHOT_GAP_S + longest_step + 0.5
    assert len(outcome.snapshots) >= 3
    # the last step began before the budget: its end is at most one step past it
    assert steps[-1]["seconds"] - longest_step < recipe.budget_s
    assert outcome.result.steps_done < 25 * 10  # slow steps: the clock ended it


def test_a_stopped_run_is_saved_named_for_what_ran_and_only_a_finished_one_is_offered_in_the_picker(tmp_path,
                                                                                                  monkeypatch):
    folder = tmp_path / "lab_models"
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", str(folder))
    stopped_recipe = LabRecipe("copy", "tiny", budget_s=60, max_steps=200)
    count: list[int] = []
    stopped = run_lab_recipe(stopped_recipe, out=folder / stopped_recipe.name, eval_n=4,
                             on_progress=lambda p: "step" in p and count.append(p["step"]),
                             should_stop=lambda: len(count) >= 6)
    assert stopped.result.stopped and stopped.result.steps_done == 6
    assert stopped.model_dir == folder / UNFINISHED_DIR / f"{stopped_recipe.name}-stopped-step6"
    card = (stopped.model_dir / "README.md").read_text(encoding="utf-8")
    assert "stopped early (Stop button) at step 6" in card
    finished_recipe = LabRecipe("copy", "tiny", budget_s=60, max_steps=6, seed=1)
    finished = run_lab_recipe(finished_recipe, out=folder / finished_recipe.name, eval_n=4)
    assert finished.model_dir == folder / finished_recipe.name
    names = {info.name for info in list_models(all_architectures=True)}
    assert finished_recipe.name in names
    assert not any("stopped" in name for name in names)


def test_the_lab_models_folder_defaults_to_the_user_data_folder_outside_the_source_tree(monkeypatch, tmp_path):
    monkeypatch.delenv("TRANSFORMER_EXPLORER_LAB_MODELS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if not str(Path.home()):
        pytest.skip("no home folder")
    import sys

    if sys.platform.startswith("linux"):
        assert lab_models_dir() == tmp_path / "data" / "transformer-explorer" / "lab_models"
    assert REPO_ROOT not in lab_models_dir().parents
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", str(tmp_path / "mine"))
    assert lab_models_dir() == tmp_path / "mine"


def test_a_model_being_saved_is_never_visible_half_written(tmp_path, monkeypatch):
    """save_atomically writes into a hidden temporary sibling and renames it: while it writes, the final name
    is absent (first save) or still the whole previous model (a re-save), and the picker lists neither the
    temporary folder nor anything under the final name that is not complete."""
    from transformer_core.training.lab_run import save_atomically

    folder = tmp_path / "lab_models"
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", str(folder))
    recipe = LabRecipe("copy", "tiny", budget_s=60, max_steps=3)
    first = run_lab_recipe(recipe, out=folder / recipe.name, eval_n=2)
    out = first.model_dir
    before = (out / "model.safetensors").read_bytes()
    seen: dict = {}

    def write(temporary: Path) -> None:
        temporary.mkdir(parents=True)
        (temporary / "model.safetensors").write_bytes(b"half")  # a model half written
        seen["final_during_write"] = (out / "model.safetensors").read_bytes()
        seen["listed_during_write"] = {info.name for info in list_models(all_architectures=True)}
        seen["temporary"] = temporary

    saved, error = save_atomically(out, write, first.snapshots, first.history, {"steps": 3})
    assert (saved, error) == (out, "")
    assert seen["final_during_write"] == before  # the old model stayed whole while the new one was written
    assert seen["temporary"].parent == out.parent and seen["temporary"].name.startswith(".")
    assert seen["temporary"].name not in seen["listed_during_write"]
    assert (out / "model.safetensors").read_bytes() == b"half"  # then the new one replaced it in one rename
    assert not seen["temporary"].exists()
