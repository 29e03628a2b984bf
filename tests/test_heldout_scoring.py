"""One held-out scoring loop: the lab's final figure equals `python -m transformer_core evaluate`'s on the same
model and sentences, and the model's task is read once, when it is loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import transformer_core as core
from tests.heldout_recount import expected_metrics, recount
from transformer_core.analysis import evaluate
from transformer_core.analysis.scoring import score_examples
from transformer_core.tasks import model_task
from transformer_core.training import jobs
from transformer_core.training.recipes import LabRecipe, held_out_examples

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
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
    # The same sentences: the lab's tokenizer (in the job) and the saved one (the CLI's) give the same examples.
    lab_examples = held_out_examples("copy", jobs.lab_plan(recipe).tokenizer, 24, lab["seed"])
    assert lab_examples == held_out_examples("copy", core.load(out).tokenizer, 24, lab["seed"])
    # Both figures recounted by hand, one sentence at a time, on the saved model (heldout_recount.py).
    counts = [recount(core.load(out).model, example) for example in lab_examples]
    expected = expected_metrics(counts, [e.group for e in lab_examples])
    assert lab["exact_match"] == pytest.approx(expected["exact_match"], abs=1e-12)
    assert lab["lab_alignment"] == pytest.approx(max(expected["per_layer"]), abs=1e-12)
    assert cli["scored_words"] == expected["scored_words"] == sum(len(e.target_ids) for e in lab_examples)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("name", ["ko-en-toy", "ko-en-rnn-attention"])
def test_score_examples_agrees_with_a_recount_one_sentence_at_a_time(name):
    """Exact match and alignment (per layer and per head) of the bundled translators on held-out pairs with
    gold alignments: the scoring loop on each sentence alone and on the whole batch, against the recount."""
    loaded = core.load(ROOT / "models" / name)
    examples = model_task(loaded).held_out(loaded.tokenizer, 16, seed=7)
    counts = [recount(loaded.model, example) for example in examples]
    for example, count in zip(examples, counts, strict=True):
        alone = score_examples(loaded.model, [example])[0]
        assert alone.matches["generated"] == [count.exact], example
        assert [tuple(map(int, pair)) for pair in alone.layer_hits] == count.layer_hits, example
        assert [[tuple(map(int, pair)) for pair in layer] for layer in alone.head_hits] == count.head_hits, example
    together = score_examples(loaded.model, examples, batch_size=5)[0].metrics()  # padded, length-sorted batches
    expected = expected_metrics(counts, [e.group for e in examples])
    assert together["exact_match"] == pytest.approx(expected["exact_match"], abs=1e-12)
    assert together["per_layer"] == pytest.approx(expected["per_layer"], abs=1e-12)
    assert together["per_head"] == [pytest.approx(layer, abs=1e-12) for layer in expected["per_head"]]
    assert together["scored_words"] == expected["scored_words"]
    # A discriminating sample: some words right and, on some layer or head, some wrong (an off-by-one shows).
    correct = [pair[0] for c in counts for layer in c.head_hits for pair in layer]
    scored = [pair[1] for c in counts for layer in c.head_hits for pair in layer]
    assert 0 < sum(correct) < sum(scored)


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
