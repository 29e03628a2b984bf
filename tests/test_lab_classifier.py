"""The speech-level classifier in the training lab (issue 24 item 6): the lab's one run path trains it with
snapshots, Stop and a saved model dir; its figures are recounted here one sentence at a time, unpadded."""

from __future__ import annotations

import pytest
import torch

import transformer_core as tc
from tests.classifier_recount import cls_logits_by_hand, last_word_piece, recount_classifier
from transformer_core.data import BOS_ID
from transformer_core.tasks import SPEECH_LEVELS, speech_level_data
from transformer_core.tracing.names import AttentionKind, attention_name
from transformer_core.training.classify import EncoderClassifier, load_classifier
from transformer_core.training.lab_run import run_lab_recipe
from transformer_core.training.recipes import PRESETS, LabRecipe, count_parameters, lab_plan, planned_steps


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("lab") / "speech"
    recipe = LabRecipe("speech-level", "tiny", budget_s=120, seed=0, max_steps=120)
    return recipe, out, run_lab_recipe(recipe, out=out, eval_n=40)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_the_lab_run_of_the_classifier_reports_figures_that_a_sentence_by_sentence_recount_confirms(finished_run):
    recipe, out, outcome = finished_run
    assert outcome.result.steps_done == 120 and not outcome.save_error
    model, tokenizer = load_classifier(out)
    held_out = speech_level_data(recipe.seed, tokenizer)[1][:40]
    accuracy, on_ending = recount_classifier(model, tokenizer, held_out)
    assert 0 < accuracy < 1 or 0 < on_ending < 1  # a sample on which a miscount would show
    assert outcome.metrics["n"] == 40
    assert outcome.metrics["exact_match"] == pytest.approx(accuracy, abs=1e-12)
    assert outcome.metrics["lab_alignment"] == pytest.approx(on_ending, abs=1e-12)


def test_its_snapshots_hold_the_probes_encoder_attention_and_its_predicted_level(finished_run):
    recipe, out, outcome = finished_run
    snapshots = outcome.snapshots
    assert snapshots and snapshots[-1].step == 120
    model, tokenizer = load_classifier(out)
    pieces = ["<s>", *tokenizer.convert_ids_to_tokens(tokenizer(recipe.probe_text)["input_ids"])]
    last = snapshots[-1]
    assert last.src_tokens == pieces and last.tgt_tokens == []
    assert set(last.attention) == {"encoder.self_attn"}
    config = model.encoder.config
    assert last.attention["encoder.self_attn"].shape == (config.n_encoder_layers, config.n_heads, len(pieces),
                                                         len(pieces))
    ids = torch.tensor([[BOS_ID, *tokenizer(recipe.probe_text)["input_ids"]]])
    with torch.no_grad():
        assert last.output_text == SPEECH_LEVELS[int(cls_logits_by_hand(model, ids)[0].argmax())]  # the saved model
        weights = model.encoder.trace(ids)[attention_name(AttentionKind.ENCODER_SELF, 0)][0].numpy()
    assert abs(last.attention["encoder.self_attn"][0].astype("float32") - weights).max() < 2e-3  # float16
    # the last snapshot (the final model) measured 100 held-out sentences: the same figures by hand
    accuracy, on_ending = recount_classifier(model, tokenizer, speech_level_data(recipe.seed, tokenizer)[1][:100])
    assert (last.exact_match, last.alignment) == pytest.approx((accuracy, on_ending), abs=1e-12)


def test_the_saved_classifier_opens_as_an_encoder_model_in_the_core(finished_run):
    _, out, _ = finished_run
    loaded = tc.load(str(out))
    assert not loaded.config.has_decoder
    result = tc.trace_text(loaded, "고양이가 공원에서 생선을 먹었어요.")
    assert result.trace[attention_name(AttentionKind.ENCODER_SELF, 0)].shape[-1] == len(result.src_tokens)
    config = (out / "config.json").read_text(encoding="utf-8")
    assert '"task": "speech-level"' in config and '"lab_recipe"' in config


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_stop_ends_the_classifier_run_where_it_was_asked():
    torch.set_num_threads(1)
    progress: list[int] = []
    outcome = run_lab_recipe(LabRecipe("speech-level", "tiny", max_steps=200), out=None, eval_n=0,
                             on_progress=lambda p: "step" in p and progress.append(p["step"]),
                             should_stop=lambda: len(progress) >= 7)
    assert outcome.result.stopped and outcome.result.steps_done == 7 and progress == list(range(1, 8))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_classifier_presets_parameter_count_is_the_built_models(preset):
    plan = lab_plan(LabRecipe("speech-level", preset))
    built = EncoderClassifier(plan.config, len(SPEECH_LEVELS))
    assert count_parameters(plan.config) == sum(p.numel() for p in built.parameters())
    assert plan.config.n_decoder_layers == 0 and planned_steps(plan.recipe) == 2000


def test_the_ending_index_the_figure_boxes_is_the_last_word_piece():
    from transformer_core.training.classify import ending_index

    for pieces in (["<s>", "고양이", "##가", "먹었", "##어요", ".", "</s>"], ["<s>", "뭐", "먹", "##니", "?", "</s>"]):
        assert ending_index(pieces) == last_word_piece(pieces)
