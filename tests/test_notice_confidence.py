"""Issue 27 item 3, the notice's third signal: the model's own confidence, the smallest lead of a word of its
output over that step's runner-up (the difference of their logits, articles left out), below a threshold
calibrated on held-out sentences of its grammar, says "unsure". Checked against top-k written here with torch,
and measured on fresh held-out sentences."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch

import transformer_core
from transformer_core.inference.report import least_lead, output_confidence, translation_report
from transformer_core.inference.text import trace_text
from transformer_core.tasks import model_task
from transformer_core.tracing.names import LOGITS

ROOT = Path(__file__).resolve().parents[1]
LESSON_TEXT = "고양이가 공원에서 생선을 먹었다."


@pytest.fixture(scope="module")
def bundled():
    return transformer_core.load("ko-en-toy")


def lead_by_torch(loaded, text: str, traced=None) -> tuple[float, str, str]:
    """Per output step the largest logits (torch.topk); the chosen word's (its id from the output's own token
    string) minus the largest other one that is not an article; the smallest over the words that are not a / an /
    the, with the word and its runner-up. `traced`: trace_text(loaded, text) when the caller has it already."""
    traced = trace_text(loaded, text) if traced is None else traced
    logits = torch.as_tensor(np.array(traced.trace.numpy("logits"))).double()
    ids = loaded.tokenizer.convert_tokens_to_ids(list(traced.chosen_tokens))
    leads = []
    for row, word_id, token in zip(logits, ids, traced.chosen_tokens, strict=True):
        if token.lower() in ("a", "an", "the"):
            continue
        top = torch.topk(row, 8).indices.tolist()  # the word and the six spellings of a / an / the fit in 8
        runner_id = next(i for i in top if i != word_id
                         and loaded.tokenizer.convert_ids_to_tokens(i).lower() not in ("a", "an", "the"))
        leads.append((float(row[word_id] - row[runner_id]), token, loaded.tokenizer.convert_ids_to_tokens(runner_id)))
    return min(leads)


class RecordedLogits:
    """What least_lead reads of a trace: the logits rows, under their trace name."""

    def __init__(self, logits: np.ndarray) -> None:
        self.logits = logits

    def numpy(self, name: str) -> np.ndarray:
        assert name == LOGITS
        return self.logits

    def __contains__(self, name: str) -> bool:
        return name == LOGITS


def test_a_word_with_half_the_probability_and_no_rival_is_not_the_doubt():
    """The bug the lead exists for: a model trained with a sampled softmax gives its chosen word about half the
    probability at every step, the rest spread over thousands of words; the smallest probability then points at a
    step with no rival at all. Step 0: "I" 0.50 against 5,000 words of 0.0001 each; step 1: "ate" 0.60 against
    "bought" 0.35. The doubt is at "ate", ln(0.60 / 0.35) = 0.539."""
    vocab = 5003
    probs = np.full((3, vocab), 1e-4)
    probs[0, 3] = 0.5  # "I"
    probs[1, 4], probs[1, 5] = 0.60, 0.35  # "ate", "bought"
    probs[2, 2] = 0.9  # </s>
    traced = SimpleNamespace(has_decoder=True, chosen_tokens=["I", "ate", "</s>"],
                             generation=SimpleNamespace(ids=np.array([[1, 3, 4, 2]])),
                             trace=RecordedLogits(np.log(probs / probs.sum(axis=1, keepdims=True))))
    assert output_confidence(traced) == pytest.approx(math.log(0.60 / 0.35), abs=1e-9)
    lead = least_lead(traced)
    assert (lead.step, lead.word, lead.runner_up_id) == (1, "ate", 5)
    assert lead.p_word / lead.p_runner_up == pytest.approx(0.60 / 0.35)


def written_output(chosen: list[str], ids: list[int], probs: np.ndarray) -> SimpleNamespace:
    """A traced output as least_lead reads it: the chosen tokens, their ids after <s>, the logits (log probs)."""
    return SimpleNamespace(has_decoder=True, chosen_tokens=chosen,
                           generation=SimpleNamespace(ids=np.array([[1, *ids]])), trace=RecordedLogits(np.log(probs)))


def list_tokenizer(tokens: list[str]) -> SimpleNamespace:
    """The two lookups least_lead uses, over a list of tokens (id = index)."""
    return SimpleNamespace(convert_ids_to_tokens=lambda token_id: tokens[token_id], unk_token_id=-1,
                           convert_tokens_to_ids=lambda token: tokens.index(token) if token in tokens else -1)


def test_an_article_is_never_the_runner_up():
    """"I drank tea." against "I drank a tea.": a doubt between a word and an article is no doubt about the meaning
    (with articles as runners-up the learner10 model called its right 저는 차를 마셨어요. unsure: tea 0.22 against
    a 0.03). Step 0: "tea" 0.40, "a" 0.35, "The" 0.10, "sweet" 0.05: the runner-up is "sweet", ln(0.40 / 0.05)."""
    tokens = ["<pad>", "<s>", "</s>", "tea", "a", "The", "sweet", "milk"]
    probs = np.array([[0.02, 0.02, 0.03, 0.40, 0.35, 0.10, 0.05, 0.03],
                      [0.01, 0.01, 0.95, 0.01, 0.005, 0.005, 0.005, 0.005]])
    traced = written_output(["tea", "</s>"], [3, 2], probs)
    tokenizer = list_tokenizer(tokens)
    lead = least_lead(traced, tokenizer)
    assert (lead.word, lead.runner_up) == ("tea", "sweet")
    assert lead.gap == pytest.approx(math.log(0.40 / 0.05), abs=1e-9)


def test_an_article_is_never_the_chosen_word_in_doubt():
    """The audit's missed bug: an article written with a small lead ("a" 0.40 against "the" 0.38: no doubt about the
    meaning, "I" 0.25 behind it when the articles are left out as runners-up) must not be the sentence's doubt; the
    doubt is "tea" 0.70 against "milk" 0.20, ln(0.70 / 0.20)."""
    tokens = ["<pad>", "<s>", "</s>", "tea", "a", "the", "milk", "I"]
    probs = np.array([[0.02, 0.02, 0.02, 0.02, 0.33, 0.30, 0.02, 0.27],   # writes "a", "the" and "I" close behind
                      [0.02, 0.02, 0.02, 0.70, 0.01, 0.01, 0.20, 0.02],   # writes "tea", "milk" behind
                      [0.01, 0.01, 0.93, 0.01, 0.01, 0.01, 0.01, 0.01]])  # </s>
    traced = written_output(["a", "tea", "</s>"], [4, 3, 2], probs)
    tokenizer = list_tokenizer(tokens)
    lead = least_lead(traced, tokenizer)
    assert (lead.word, lead.runner_up) == ("tea", "milk")
    assert lead.gap == pytest.approx(math.log(0.70 / 0.20), abs=1e-9)


def test_the_confidence_is_the_smallest_lead_of_a_chosen_word_over_its_runner_up(bundled):
    for text in (LESSON_TEXT, "그 문 좀 열어 주세요.", "민수는 어제 뭐 먹었어?"):
        gap, word, runner_up = lead_by_torch(bundled, text)
        lead = translation_report(bundled, text)["least_lead"]
        assert lead["gap"] == pytest.approx(gap, abs=1e-9)
        assert (lead["word"], lead["runner_up"]) == (word, runner_up)
        assert math.log(lead["p_word"] / lead["p_runner_up"]) == pytest.approx(gap, abs=1e-6)


def test_the_lesson_sentence_translated_right_gets_no_unsure_notice(bundled):
    # with the articles counted the threshold was 0.883 and this sentence (A cat ate fish at the park.) 0.859:
    # the pages called the lesson's own correct translation a guess
    report = translation_report(bundled, LESSON_TEXT)
    assert report["output_text"] == "A cat ate fish at the park."
    assert bundled.notice_min_lead > 0
    assert report["confidence"] >= bundled.notice_min_lead
    assert not report["low_confidence"] and not report["outside_training"]


def test_a_model_that_doubts_its_output_says_so(bundled):
    lead = translation_report(bundled, LESSON_TEXT)["confidence"]
    report = translation_report(replace(bundled, notice_min_lead=lead + 0.01), LESSON_TEXT)
    assert report["low_confidence"] and report["outside_training"]
    assert report["unknown_words"] == [] and report["outside_constructions"] == []  # the confidence alone
    assert not translation_report(replace(bundled, notice_min_lead=0.0), LESSON_TEXT)["low_confidence"]


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_the_whole_notice_fires_on_at_most_five_percent_of_fresh_held_out_sentences(bundled):
    """The issue's rate, on 200 held-out sentences of the model's grammar not used for the calibration."""
    pairs = model_task(bundled).held_out_pairs(200, seed=99)
    fired = [translation_report(bundled, pair.source_text)["outside_training"] for pair in pairs]
    assert sum(fired) / len(fired) <= 0.05, sum(fired)


def is_the_grammars_translation(output_text: str, target_text: str) -> bool:
    """The output as the grammar writes the reference (its text joins a comma with spaces: "hallway , so")."""
    return output_text == re.sub(r"\s+([,.?])", r"\1", target_text)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_calibration_writes_the_second_percentile_of_confidences_on_right_translations(bundled, tmp_path):
    """Over the held-out sentences the model translates right: its wrong ones are what the notice is for, and
    with them the percentile of a model wrong on 2 % of its grammar fell among its mistakes (learner10: 0.0301,
    then the smallest probability)."""
    model_dir = tmp_path / "ko-en-toy"
    shutil.copytree(ROOT / "models" / "ko-en-toy", model_dir)
    run = subprocess.run([sys.executable, "-m", "transformer_core", "evaluate", str(model_dir), "--calibrate-notice",
                          "--n", "100", "--seed", "7"], capture_output=True, text=True, timeout=600,
                         env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"}, cwd=ROOT)
    # one torch thread, as the suite's own process: alone, 2 threads took 18.6 s of CPU for 13.3 s, 1 took 11.9 for 12.8
    assert run.returncode == 0, run.stderr
    written = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))["notice_min_lead"]
    right, wrong = [], []
    for pair in model_task(bundled).held_out_pairs(100, seed=7):
        traced = trace_text(bundled, pair.source_text)
        (right if is_the_grammars_translation(traced.output_text, pair.target_text) else wrong).append(
            lead_by_torch(bundled, pair.source_text, traced)[0])
    assert wrong, "this draw must hold wrong translations, or it cannot tell the two calibrations apart"
    assert written == pytest.approx(float(np.quantile(right, 0.02)), abs=1e-4)
    assert written != pytest.approx(float(np.quantile(right + wrong, 0.02)), abs=1e-4)
    printed = json.loads(run.stdout)
    assert (printed["n"], printed["right"]) == (100, len(right))
    assert printed["fires_on"] == sum(value < written for value in right + wrong) / 100


def test_the_notice_states_the_step_the_threshold_and_readable_probabilities():
    """The words the pages put in the unsure notice: e^gap and e^threshold as "times as likely", probabilities
    with no bare 0 % (the learner10 model gives some right words 0.1 %)."""
    from explorer.figures.vocab import probability_text, unsure_notice_values
    from transformer_core.inference.report import Lead

    lead = Lead(gap=math.log(0.22 / 0.041), step=5, word="boat", runner_up_id=9, runner_up="pear", p_word=0.22,
                p_runner_up=0.041)
    values = unsure_notice_values(lead, min_lead=2.8464, quantile=0.02)
    assert values == {"word": "boat", "runner_up": "pear", "p_word": "22%", "p_runner_up": "4.1%",
                      "step_ratio": "5.4", "ratio": "17", "share": "98%"}
    assert [probability_text(p) for p in (0.999, 0.9999, 0.5, 0.0012, 0.00001)] == [
        "99.9%", ">99.9%", "50%", "0.12%", "<0.01%"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_drawn_word_is_named_as_a_draw_beside_the_likeliest_word(lang):
    """Issue 48 item 4: under sampling the written word may be one the model gave < 0.01 %; the notice speaks of the
    draw and names the model's likeliest word beside it, never a "first choice" "0.0 times as likely" as its second
    (what /decoder said of «microphones» against «doctor»)."""
    from explorer.figures.vocab import unsure_notice
    from explorer.i18n import t
    from transformer_core.inference.report import Lead

    drawn = Lead(gap=math.log(0.00004 / 0.51), step=3, word="microphones", runner_up_id=7, runner_up="doctor",
                 p_word=0.00004, p_runner_up=0.51)
    key, values = unsure_notice(drawn, min_lead=2.8464, quantile=0.02, drawn=True)
    text = t(key, lang, **values)
    assert "«microphones»" in text and "«doctor»" in text and "<0.01%" in text and "51%" in text
    assert "0.0 times" not in text and "0.0배" not in text
    first_choice = {"en": "first choice", "ko": "첫 번째 후보"}[lang]
    assert first_choice not in text
    assert {"en": "draw", "ko": "뽑"}[lang] in text
    # greedy and beam outputs keep the first-choice wording: there the written word was the model's argmax
    close = Lead(gap=math.log(0.22 / 0.041), step=5, word="boat", runner_up_id=9, runner_up="pear", p_word=0.22,
                 p_runner_up=0.041)
    assert unsure_notice(close, 2.8464, 0.02, drawn=False)[0] == "vocab.unsure_notice"
    assert unsure_notice(close, 2.8464, 0.02, drawn=True)[0] == "vocab.unsure_notice"  # the draw took the argmax


def test_a_ratio_below_one_is_never_written():
    from explorer.figures.vocab import ratio_text

    assert [ratio_text(r) for r in (1.0, 5.44, 17.2, 2500.0)] == ["1.0", "5.4", "17", "2,500"]
    with pytest.raises(ValueError):
        ratio_text(0.00008)


def test_the_page_knows_a_sampled_output_from_a_greedy_one(bundled):
    """The notice's switch reads the decoding settings of the very trace the page shows."""
    from explorer.services import sampled_output
    from transformer_core.inference.generation import DecodingSettings

    assert not sampled_output(trace_text(bundled, LESSON_TEXT))
    assert sampled_output(trace_text(bundled, LESSON_TEXT, decoding=DecodingSettings("sample", temperature=1.0)))
    assert not sampled_output(trace_text(bundled, LESSON_TEXT, decoding=DecodingSettings("sample", temperature=0.0)))
