"""The encoder + [CLS] speech-level classifier (training/classify.py): the labels follow the grammar's endings,
training reaches 95 % held-out accuracy in a bounded number of steps, the [CLS] row of attention finds the
ending, and the saved directory opens as an ordinary encoder model."""

from __future__ import annotations

import re

import pytest

import transformer_core as tc
from tests.classifier_recount import recount_classifier
from transformer_core.tasks import SPEECH_LEVELS, speech_level_sentences
from transformer_core.training.classify import (
    cls_attention,
    ending_position,
    load_classifier,
    predict,
    save_classifier,
    train_speech_levels,
)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_torch_thread")]
MAX_STEPS = 1500  # measured here: 95 % at step 450 (seed 0, ~15 s on this 2-core machine)


@pytest.fixture(scope="module")
def trained():
    run, tokenizer, held_out = train_speech_levels(budget_s=300, max_steps=MAX_STEPS, goal=0.95, seed=0)
    return run, tokenizer, held_out


def last_word(text: str) -> str:
    return re.sub(r"[.?]$", "", text).split()[-1]


def test_labels_follow_the_endings_the_grammar_writes():
    """Written out: 해요체 ends in 요, 합쇼체 in 니다 / 니까; 해라체 and 반말 end in neither."""
    for example in speech_level_sentences(200, seed=3):
        word = last_word(example.text)
        level = SPEECH_LEVELS[example.label]
        if level == "polite":
            assert word.endswith("요"), example.text
        elif level == "formal":
            assert word.endswith(("니다", "니까")), example.text
        else:
            assert not word.endswith(("요", "니다", "니까")), example.text
    labels = [e.label for e in speech_level_sentences(400, seed=3)]
    assert all(labels.count(i) == 100 for i in range(4))


def test_held_out_sentences_are_not_in_the_training_set(trained):
    _, tokenizer, held_out = trained
    train = {e.text for e in speech_level_sentences(4000, seed=0, tokenizer=tokenizer)}
    assert not train & {e.text for e in held_out}


def test_training_reaches_95_percent_held_out_within_the_step_budget(trained):
    run, _, _ = trained
    assert run.reached_goal_at is not None and run.reached_goal_at <= MAX_STEPS, run.curve
    run, tokenizer, held_out = trained
    accuracy, _ = recount_classifier(run.model, tokenizer, held_out)  # [CLS] row and head written out
    assert run.accuracy == pytest.approx(accuracy, abs=1e-12) and accuracy >= 0.95
    steps = [step for step, _, _ in run.curve]
    assert steps == sorted(steps) and steps[-1] == run.reached_goal_at  # it stops at the goal
    assert run.curve[-1][2] == pytest.approx(accuracy, abs=1e-12)  # the live curve's last point: this model


def last_hangul_piece(tokenizer, example) -> int:
    """Written out here, not classify.ending_position: the ending is the sentence's last piece with a Hangul
    syllable in it (after it come only punctuation and </s>)."""
    pieces = tokenizer.convert_ids_to_tokens(list(example.ids))
    return max(i for i, piece in enumerate(pieces) if re.search("[가-힣]", piece))


def test_the_ending_position_is_the_last_hangul_piece(trained):
    _run, tokenizer, held_out = trained
    assert [ending_position(tokenizer, e) for e in held_out[:200]] == [last_hangul_piece(tokenizer, e)
                                                                      for e in held_out[:200]]


def test_cls_attention_finds_the_ending(trained):
    """The last layer's [CLS] row (mean of heads) peaks on the ending in most held-out sentences (measured: 91 %)."""
    run, tokenizer, held_out = trained
    sample = held_out[:100]
    hits = 0
    for example in sample:
        rows = cls_attention(run.model, example.ids)
        assert rows.shape == (run.model.encoder.config.n_encoder_layers, len(example.ids))
        assert rows.sum(-1).allclose(rows.new_ones(rows.shape[0]), atol=1e-5)  # each row is a distribution
        hits += int(rows[-1].argmax()) == last_hangul_piece(tokenizer, example)
    assert hits >= 75, f"[CLS] found the ending in {hits} of {len(sample)} sentences"


def test_saved_classifier_opens_as_an_encoder_model_and_predicts_the_same(trained, tmp_path):
    run, tokenizer, held_out = trained
    directory = save_classifier(tmp_path / "speech-level", run.model, tokenizer, run)
    loaded = tc.load(directory)  # what every page does
    assert loaded.kind == "encoder"
    traced = tc.trace_text(loaded, held_out[0].text)
    assert traced.src_tokens[-1] == "</s>"
    model, tok = load_classifier(directory)
    for example in held_out[:20]:
        assert predict(model, tok, example.text) == predict(run.model, tokenizer, example.text)
