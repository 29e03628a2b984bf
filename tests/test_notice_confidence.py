"""Issue 27 item 3, the notice's third signal: the model's own confidence (the smallest probability it gave a
word of its output, articles left out), below a threshold calibrated on held-out sentences of its grammar, says
"unsure". Checked against softmax written here with torch, and measured on fresh held-out sentences."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

import transformer_core
from transformer_core.inference.report import output_confidence, translation_report
from transformer_core.inference.text import trace_text
from transformer_core.tasks import model_task

ROOT = Path(__file__).resolve().parents[1]
LESSON_TEXT = "고양이가 공원에서 생선을 먹었다."


@pytest.fixture(scope="module")
def bundled():
    return transformer_core.load("ko-en-toy")


def confidence_by_torch(loaded, text: str) -> float:
    """log_softmax of each logits row, the chosen word's entry (its id from the output's own token string),
    the smallest probability over the words that are not a / an / the."""
    traced = trace_text(loaded, text)
    logits = torch.as_tensor(np.array(traced.trace.numpy("logits"))).double()
    ids = loaded.tokenizer.convert_tokens_to_ids(list(traced.chosen_tokens))
    probs = torch.log_softmax(logits, dim=-1)[torch.arange(len(ids)), torch.tensor(ids)].exp()
    kept = [p.item() for p, token in zip(probs, traced.chosen_tokens, strict=True)
            if token.lower() not in ("a", "an", "the")]
    return min(kept)


def test_the_confidence_is_the_smallest_probability_of_a_chosen_word(bundled):
    for text in (LESSON_TEXT, "그 문 좀 열어 주세요.", "민수는 어제 뭐 먹었어?"):
        assert output_confidence(trace_text(bundled, text)) == pytest.approx(confidence_by_torch(bundled, text),
                                                                              abs=1e-9)


def test_the_lesson_sentence_translated_right_gets_no_unsure_notice(bundled):
    # with the articles counted the threshold was 0.883 and this sentence (A cat ate fish at the park.) 0.859:
    # the pages called the lesson's own correct translation a guess
    report = translation_report(bundled, LESSON_TEXT)
    assert report["output_text"] == "A cat ate fish at the park."
    assert bundled.notice_min_probability > 0
    assert report["confidence"] >= bundled.notice_min_probability
    assert not report["low_confidence"] and not report["outside_training"]


def test_a_model_that_doubts_its_output_says_so(bundled):
    report = translation_report(replace(bundled, notice_min_probability=0.99), LESSON_TEXT)
    assert report["low_confidence"] and report["outside_training"]
    assert report["unknown_words"] == [] and report["outside_constructions"] == []  # the confidence alone
    assert not translation_report(replace(bundled, notice_min_probability=0.0), LESSON_TEXT)["low_confidence"]


def test_the_whole_notice_fires_on_at_most_five_percent_of_fresh_held_out_sentences(bundled):
    """The issue's rate, on 200 held-out sentences of the model's grammar not used for the calibration."""
    pairs = model_task(bundled).held_out_pairs(200, seed=99)
    fired = [translation_report(bundled, pair.source_text)["outside_training"] for pair in pairs]
    assert sum(fired) / len(fired) <= 0.05, sum(fired)


def is_the_grammars_translation(output_text: str, target_text: str) -> bool:
    """The output as the grammar writes the reference (its text joins a comma with spaces: "hallway , so")."""
    return output_text == re.sub(r"\s+([,.?])", r"\1", target_text)


def test_calibration_writes_the_second_percentile_of_confidences_on_right_translations(bundled, tmp_path):
    """Over the held-out sentences the model translates right: its wrong ones are what the notice is for, and
    with them the percentile of a model wrong on 2 % of its grammar fell among its mistakes (learner10: 0.0301)."""
    model_dir = tmp_path / "ko-en-toy"
    shutil.copytree(ROOT / "models" / "ko-en-toy", model_dir)
    run = subprocess.run([sys.executable, "-m", "transformer_core", "evaluate", str(model_dir), "--calibrate-notice",
                          "--n", "100", "--seed", "4242"], capture_output=True, text=True, timeout=600,
                         env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"}, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    written = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))["notice_min_probability"]
    right, wrong = [], []
    for pair in model_task(bundled).held_out_pairs(100, seed=4242):
        output = trace_text(bundled, pair.source_text).output_text
        (right if is_the_grammars_translation(output, pair.target_text) else wrong).append(
            confidence_by_torch(bundled, pair.source_text))
    assert wrong, "this draw must hold wrong translations, or it cannot tell the two calibrations apart"
    assert written == pytest.approx(float(np.quantile(right, 0.02)), abs=1e-4)
    assert written != pytest.approx(float(np.quantile(right + wrong, 0.02)), abs=1e-4)
    printed = json.loads(run.stdout)
    assert (printed["n"], printed["right"]) == (100, len(right))
    assert printed["fires_on"] == sum(value < written for value in right + wrong) / 100
