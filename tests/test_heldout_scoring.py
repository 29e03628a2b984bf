"""One held-out scoring loop: the lab's final figure equals `python -m transformer_core evaluate`'s on the same
model and sentences, and the model's task is read once, when it is loaded."""

from __future__ import annotations

import json

import pytest

import transformer_core as core
from transformer_core.analysis import evaluate
from transformer_core.tasks import model_task
from transformer_core.training import jobs
from transformer_core.training.recipes import LabRecipe, held_out_examples


@pytest.mark.usefixtures("one_torch_thread")
def test_the_labs_final_figure_equals_the_evaluate_clis_on_the_same_model_and_sentences(tmp_path, capsys):
    out = tmp_path / "copier"
    recipe = LabRecipe(task="copy", preset="tiny", budget_s=60, seed=0, max_steps=400)
    outcome = jobs.run_lab_recipe(recipe, out=out, eval_n=24)
    lab = outcome.metrics  # what the lab page shows at the end of the run (seed 12345)
    assert lab["n"] == 24
    assert evaluate.main([str(out), "--json", "--n", "24", "--seed", str(lab["seed"])]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["task"] == "letters-copy" and cli["n"] == 24
    assert cli["exact_match"] == lab["exact_match"]
    assert cli["alignment_accuracy"] == lab["lab_alignment"]
    # The figures are of something: after 400 steps the copier gets some strings exactly right (~1/3 measured
    # here, 2026-11-25) and aligns most letters, so a drift in the decoding limit or the alignment would show.
    assert 0.0 < lab["exact_match"] < 1.0 and lab["lab_alignment"] > 0.5 and cli["scored_words"] >= 24 * 3
    # The same sentences: the lab's tokenizer (in the job) and the saved one (the CLI's) give the same examples.
    lab_examples = held_out_examples("copy", jobs.lab_plan(recipe).tokenizer, 24, lab["seed"])
    assert lab_examples == held_out_examples("copy", core.load(out).tokenizer, 24, lab["seed"])


def test_the_task_and_grammar_are_read_from_config_json_once_at_load(tmp_path, tiny_model_dir):
    import shutil

    directory = tmp_path / "m"
    shutil.copytree(tiny_model_dir, directory)
    config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    config.update(task="letters-sort", grammar="core")
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    loaded = core.load(directory)
    assert (loaded.task, loaded.grammar) == ("letters-sort", "core")
    (directory / "config.json").write_text(json.dumps({**config, "task": "reverse"}), encoding="utf-8")
    assert model_task(loaded).name == "letters-sort"  # read at load, not again
    assert evaluate.trained_on_core(loaded)


def test_a_model_that_names_no_task_is_not_guessed_from_its_vocabulary(tmp_path, tiny_model_dir):
    import shutil

    directory = tmp_path / "m"
    shutil.copytree(tiny_model_dir, directory)
    config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    config.pop("task", None)
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    loaded = core.load(directory)
    assert loaded.task == "" and model_task(loaded) is None
    with pytest.raises(ValueError, match="names no task"):
        evaluate.evaluate_model(loaded, n=2)
    assert evaluate.main([str(directory), "--n", "2"]) == 2  # a message on stderr, no traceback
