"""Issue 27 item 3: the honest notice. It fires on unknown words and on known words in a construction the
model's grammar never writes, names them, and stays quiet on held-out sentences of the grammar (measured)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import transformer_core
from transformer_core.data.ko_en_everyday import ko_en_grammar
from transformer_core.data.recogniser import INCLUDES, outside_word_indices, word_shapes
from transformer_core.data.splits import is_held_out
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.inference.report import outside_report, translation_report

REPORT_KEYS = {"output_text", "src_tokens", "unknown_words", "outside_training", "outside_parts"}


@pytest.fixture(scope="module")
def bundled():
    return transformer_core.load("ko-en-toy")


def held_out_texts(grammar: str, n: int, seed: int = 777) -> list[str]:
    source, texts = ko_en_grammar(seed, grammar), []
    while len(texts) < n:
        text = source.sample().source_text
        if is_held_out(text) and text not in texts:
            texts.append(text)
    return texts


def as_trained_on(loaded, grammar: str):
    """The bundled network with the tokenizer and config of `grammar` (the recogniser reads only these)."""
    tokenizer = build_ko_en_tokenizer(grammar="full" if grammar == "" else grammar)
    return replace(loaded, tokenizer=tokenizer, grammar=grammar)


def test_shapes_keep_the_construction_and_drop_the_word():
    shapes = [shape for shape, _ in word_shapes(["학교", "##에", "갔", "##다", "."], "full")]
    assert shapes == ["N ##에", "P ##다", "."]
    # particle variants are one shape: 집은 / 학교는
    assert word_shapes(["학교", "##는"], "full")[0][0] == word_shapes(["집", "##은"], "full")[0][0]


def test_an_unknown_word_is_named(bundled):
    report = translation_report(bundled, "고양이가 퀴디치를 먹었다.")
    assert set(report) >= REPORT_KEYS
    assert report["unknown_words"] == ["퀴디치를"] and report["outside_training"]
    assert report["outside_parts"] == ["퀴디치를"]


@pytest.mark.parametrize(("text", "named", "grammars"), [
    # -아/어 보다 (trying): in no grammar; -고 sequencing: not in these (the full one even lacks ##고)
    ("나는 피자를 먹어 봤어요.", {"먹어", "봤어요"}, ("", "everyday", "learner")),
    ("민수는 밥을 먹고 학교에 갔다.", {"먹고", "학교에"}, ("everyday", "learner")),
])
def test_known_words_in_an_unknown_construction_are_named(bundled, text, named, grammars):
    for grammar in grammars:
        loaded = as_trained_on(bundled, grammar)
        report = outside_report(loaded, text)
        assert report.unknown_words == [], (grammar, report)
        assert report.outside_training and named <= set(report.outside_constructions), (grammar, report)


def test_the_full_grammars_model_is_told_that_desire_is_new_to_it(bundled):
    """'먹고 싶다' is outside the full grammar (a model dir with no "grammar" field was trained on it) ..."""
    report = outside_report(as_trained_on(bundled, ""), "나는 피자를 먹고 싶다.")
    assert report.grammar == "full" and {"먹고", "싶다"} & set(report.outside_parts)
    # ... and inside the everyday grammar
    assert not outside_report(as_trained_on(bundled, "everyday"), "나는 피자를 먹고 싶다.").outside_training
    assert not outside_report(as_trained_on(bundled, "learner"), "나는 피자를 먹고 싶다.").outside_training


@pytest.mark.parametrize("grammar", ["", "everyday", "learner"])
def test_the_notice_stays_quiet_on_held_out_sentences_of_the_grammar(bundled, grammar):
    loaded = as_trained_on(bundled, grammar)
    texts = held_out_texts(grammar or "full", 600)
    fired = [text for text in texts if outside_report(loaded, text).outside_training]
    rate = len(fired) / len(texts)
    print(f"grammar {grammar or 'full'}: the notice fired on {len(fired)} of {len(texts)} held-out sentences "
          f"({rate:.1%}): {fired[:5]}")
    assert rate <= 0.05


@pytest.mark.parametrize("newer, older", sorted(INCLUDES.items()))
def test_a_grammar_reads_every_held_out_sentence_of_the_grammar_it_includes(newer, older):
    """learner5 writes every learner4 sentence: what learner4's own table reads, learner5's reads too, also a pair
    too rare to be drawn for learner5's sampled table (명 ##이 before N ##로)."""
    older_tokenizer, newer_tokenizer = build_ko_en_tokenizer(grammar=older), build_ko_en_tokenizer(grammar=newer)
    texts = [*held_out_texts(older, 400, seed=31), "학생 세 명이 칼로 케이크를 잘랐다."]
    inside_older = [text for text in texts if not outside_word_indices(older_tokenizer.tokenize(text), older)]
    assert "학생 세 명이 칼로 케이크를 잘랐다." in inside_older and len(inside_older) > 0.9 * len(texts)
    outside_newer = [text for text in inside_older if outside_word_indices(newer_tokenizer.tokenize(text), newer)]
    assert outside_newer == []


def test_the_learner_grammar_knows_the_learner_words_and_still_names_what_it_lacks(bundled):
    """With the learner grammar's tokenizer, a learner's words are known (no <unk>) and its recogniser reads the
    sentence; a word outside even the learner lexicon is still named."""
    loaded = as_trained_on(bundled, "learner")
    known = outside_report(loaded, "저는 매일 아침에 단어를 외워요.")
    assert known.unknown_words == [] and not known.outside_training, known
    assert outside_report(as_trained_on(bundled, "everyday"), "저는 매일 아침에 단어를 외워요.").unknown_words
    unknown = outside_report(loaded, "저는 매일 아침에 퀴디치를 외워요.")
    assert unknown.unknown_words == ["퀴디치를"] and unknown.outside_training


def test_a_sentence_without_its_final_mark_is_read_as_one(bundled):
    assert not outside_report(bundled, "고양이가 생선을 먹는다").outside_training
    assert outside_word_indices(["고양이", "##가", "생선", "##을", "먹", "##는다", "."], "full") == []


def test_trace_json_prints_the_report(bundled, capsys):
    from transformer_core.__main__ import main

    assert main(["trace", "--model", "ko-en-toy", "--json", "고양이가 퀴디치를 먹었다."]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) >= REPORT_KEYS and printed["unknown_words"] == ["퀴디치를"]
    assert printed["src_tokens"][:2] == ["고양이", "##가"]


def test_empty_and_other_tasks_do_not_crash():
    reverse = transformer_core.load("reverse")
    report = translation_report(reverse, "hello")
    assert report["outside_training"] is False and report["grammar"] == ""
    assert translation_report(reverse, "   ")["output_text"] == ""


def test_no_sidebar_example_of_the_bundled_model_gets_the_notice(bundled):
    """The examples show what the model learned: each lies inside its grammar (and is translated exactly:
    the model card's table), its translation keeping every noun."""
    examples = json.loads((bundled.directory / "examples.json").read_text(encoding="utf-8"))["examples"]
    reports = [translation_report(bundled, e["text"]) for e in examples]
    flagged = [r["text"] for r in reports if r["unknown_words"] or r["outside_constructions"] or r["lost_nouns"]]
    assert len(examples) >= 30 and flagged == []
