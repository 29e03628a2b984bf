"""explorer/lab_service.py without Streamlit: the probe a run watches, the preset table's rows (parameters counted
on the built model), the progress numbers, the goal messages, the replay links and the saved runs a link opens."""

from __future__ import annotations

import pytest

from explorer import lab_service
from transformer_core.training.recipes import LabRecipe


@pytest.fixture
def lab_models_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", str(tmp_path))
    return tmp_path


def test_the_probe_is_the_sidebars_sentence_when_it_fits_else_the_tasks_own_with_the_reason():
    ko = lab_service.lab_tokenizer("ko-en")
    default = "고양이가 공원에서 생선을 먹었다."
    assert lab_service.probe_choice("ko-en", f"  {default} ", ko).probe == ""  # the default: one shared job
    fits = lab_service.probe_choice("ko-en", "고양이가 생선을 먹었다.", ko)
    assert fits.probe == "고양이가 생선을 먹었다." and fits.problem is None and fits.default == default
    unknown = lab_service.probe_choice("ko-en", "고양이가 zqxj를 먹었다.", ko)
    assert unknown.probe == "" and unknown.problem == {"reason": "unknown", "words": ["zqxj를"]}
    letters = lab_service.lab_tokenizer("copy")
    odd = lab_service.probe_choice("copy", "ab1 c", letters)
    assert odd.probe == "" and odd.problem == {"reason": "letters", "chars": ["1", "␣"]}
    assert odd.default == "transformer"
    assert lab_service.probe_choice("copy", "", letters).problem == {"reason": "empty"}
    assert lab_service.probe_choice("copy", "abc", letters).probe == "abc"


@pytest.mark.parametrize("task", ["copy", "ko-en"])
def test_preset_rows_give_each_presets_shape_and_the_parameters_of_the_model_it_builds(task):
    from transformer_core.models.transformer import Transformer
    from transformer_core.training.recipes import PRESETS, lab_plan

    tokenizer = lab_service.lab_tokenizer(task)
    rows = lab_service.preset_rows(task, tokenizer)
    assert [row["preset"] for row in rows] == list(PRESETS)
    for row in rows:
        preset = PRESETS[row["preset"]]
        assert (row["d_model"], row["heads"], row["layers"], row["decoder_layers"], row["d_ff"]) == (
            preset.d_model, preset.n_heads, preset.layers, preset.layers, preset.d_ff)
        config = lab_plan(LabRecipe(task=task, preset=row["preset"]), tokenizer).config
        assert row["params"] == sum(p.numel() for p in Transformer(config).parameters())  # shared ones once


def test_the_classifiers_preset_rows_are_encoder_only():
    from transformer_core.training.recipes import CLASSIFIER_SHAPES

    rows = lab_service.preset_rows("speech-level", lab_service.lab_tokenizer("speech-level"))
    for row in rows:
        assert (row["d_model"], row["heads"], row["layers"], row["d_ff"]) == CLASSIFIER_SHAPES[row["preset"]]
        assert row["decoder_layers"] == 0


def test_live_progress_stops_the_clock_at_the_budget_and_plans_the_recipes_steps():
    recipe = LabRecipe(task="copy", preset="tiny", budget_s=30, max_steps=40)
    progress = lab_service.live_progress({"recipe": recipe, "step": 12, "seconds": 31.7})
    assert (progress.step, progress.planned, progress.seconds, progress.budget_s) == (12, 40, 30, 30)
    assert lab_service.live_progress({"recipe": recipe, "step": 3, "seconds": 2.5}).seconds == 2.5


def test_goal_shortfall_says_why_a_run_ended_short_and_nothing_when_it_met_the_goal():
    met = {"exact_match": 0.99, "lab_alignment": 0.99}
    short = {"exact_match": 0.5, "lab_alignment": 0.99}
    assert lab_service.goal_shortfall("reverse", met, 800, 800) is None
    assert lab_service.goal_shortfall("reverse", {}, 10, 800) is None
    assert lab_service.goal_shortfall("reverse", short, 300, 800) == "lab.short_of_goal_time"
    assert lab_service.goal_shortfall("reverse", short, 800, 800) == "lab.short_of_goal_steps"
    assert lab_service.goal_shortfall("speech-level", short, 2000, 2000) == "lab.short_of_goal_steps_classifier"
    assert lab_service.goal_shortfall("an-old-task", short, 1, 2) is None  # no goal known: no message


def test_task_flags_follow_the_registry_and_an_unknown_name_has_none():
    assert lab_service.task_of("reverse").anti_diagonal and not lab_service.task_of("copy").anti_diagonal
    assert lab_service.task_of("speech-level").classifier and lab_service.task_of("ko-en").grammar
    unknown = lab_service.task_of("")
    assert not (unknown.anti_diagonal or unknown.classifier or unknown.grammar)


def test_run_links_name_a_stopped_runs_folder_with_its_unfinished_prefix(lab_models_folder):
    assert lab_service.run_link(lab_models_folder / "lab-copy-tiny") == "lab-copy-tiny"
    assert lab_service.run_link(lab_models_folder / "_unfinished" / "lab-copy-tiny") == "_unfinished/lab-copy-tiny"


@pytest.mark.parametrize("name", ["../etc", "/abs", "a b", "", "no-such-run", "_unfinished/../../x", "x" * 300])
def test_odd_or_missing_run_names_find_no_saved_run(lab_models_folder, name):
    assert lab_service.saved_run_dir(name) is None


def test_a_saved_run_reads_back_as_its_replay(lab_models_folder):
    from transformer_core.training import cli as train

    assert train.main(["--task", "copy", "--preset", "tiny", "--steps", "6", "--out", str(lab_models_folder / "demo"),
                       "--eval-n", "8", "--quiet"]) == 0
    directory = lab_service.saved_run_dir("demo")
    assert directory == lab_models_folder / "demo"
    run = lab_service.read_saved_run("demo", directory)
    assert run.task == "copy" and run.steps == 6 and run.metrics["n"] == 8
    assert [step for step, _ in run.history] == list(range(1, 7))
    assert run.snapshots and run.snapshots[-1].step == 6 and run.source.startswith("demo@")


class _Manager:
    """get/find of a job manager over a few jobs (lab_service.shown_job reads nothing else)."""

    def __init__(self, *jobs) -> None:
        self.jobs = {job.id: job for job in jobs}

    def get(self, job_id):
        return self.jobs.get(job_id)

    def find(self, recipe):
        return next((job for job in self.jobs.values() if job.recipe == recipe), None)


def test_the_page_shows_the_forms_recipes_run_without_start_unless_its_own_run_trains_or_it_left_that_run():
    from transformer_core.training.jobs import DONE, FAILED, RUNNING, Job

    recipe, other = LabRecipe(task="copy", preset="tiny"), LabRecipe(task="sort", preset="tiny")
    theirs = Job(recipe=recipe, owner="teacher", id="a", state=RUNNING)
    manager = _Manager(theirs)
    assert lab_service.shown_job(manager, recipe, None, None) is theirs  # no Start pressed: the class's run
    assert lab_service.shown_job(manager, other, None, None) is None  # another recipe: the empty form
    assert lab_service.shown_job(manager, recipe, None, lab_service.run_key(theirs)) is None  # left it (Stop)
    mine = Job(recipe=other, owner="me", id="b", state=RUNNING)
    manager = _Manager(theirs, mine)
    assert lab_service.shown_job(manager, recipe, "b", None) is mine  # its own run while it trains
    mine.state = DONE
    assert lab_service.shown_job(manager, recipe, "b", None) is theirs  # ended: the form's recipe's run
    theirs.state = FAILED
    assert lab_service.shown_job(manager, recipe, None, None) is theirs  # how the last run ended
    assert lab_service.shown_job(manager, other, "b", None) is mine
    assert lab_service.shown_signature(theirs) == ("a@", FAILED) and lab_service.shown_signature(None) is None
