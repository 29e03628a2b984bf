"""Issue 27 item 3: the honest notice. It fires on unknown words and on known words in a construction the
model's grammar never writes, names them, and stays quiet on held-out sentences of the grammar (measured)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import transformer_core
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.grammar.base import GRAMMAR
from transformer_core.grammar.generator import ko_en_grammar
from transformer_core.grammar.recogniser import outside_word_indices, word_shapes
from transformer_core.grammar.splits import is_held_out
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


def as_trained_on(loaded, grammar: str, core_tokenizer: bool = False):
    """The bundled network with the config of `grammar` (and the core's tokenizer when asked): the recogniser
    reads only these."""
    tokenizer = build_ko_en_tokenizer(core=core_tokenizer, grammar=GRAMMAR)
    return replace(loaded, tokenizer=tokenizer, grammar=grammar)


def test_shapes_keep_the_construction_and_drop_the_word():
    shapes = [shape for shape, _ in word_shapes(["학교", "##에", "갔", "##다", "."], GRAMMAR)]
    assert shapes == ["N ##에", "P ##다", "."]
    # particle variants are one shape: 집은 / 학교는
    assert word_shapes(["학교", "##는"], GRAMMAR)[0][0] == word_shapes(["집", "##은"], GRAMMAR)[0][0]


def test_an_unknown_word_is_named(bundled):
    report = translation_report(bundled, "고양이가 퀴디치를 먹었다.")
    assert set(report) >= REPORT_KEYS
    assert report["unknown_words"] == ["퀴디치를"] and report["outside_training"]
    assert report["outside_parts"] == ["퀴디치를"]


@pytest.mark.parametrize(("text", "named", "grammar"), [
    # -고 싶다 (desire) and -고 sequencing: not in the compact core; 먹게 됐어요 then 봤어요: in no construction
    ("나는 피자를 먹고 싶다.", {"먹고", "싶다"}, "core"),
    ("민수는 밥을 먹고 학교에 갔다.", {"먹고", "학교에"}, "core"),
])
def test_known_words_in_an_unknown_construction_are_named(bundled, text, named, grammar):
    report = outside_report(as_trained_on(bundled, grammar), text)
    assert report.unknown_words == [], report
    assert report.outside_training and named <= set(report.outside_constructions), report
    assert not outside_report(bundled, text).outside_training  # both inside the grammar


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("grammar", ["core", GRAMMAR])
def test_the_notice_stays_quiet_on_held_out_sentences_of_the_grammar(bundled, grammar):
    loaded = as_trained_on(bundled, grammar, core_tokenizer=grammar == "core")
    texts = held_out_texts(grammar, 600)
    fired = [text for text in texts if outside_report(loaded, text).outside_training]
    rate = len(fired) / len(texts)
    print(f"grammar {grammar}: the notice fired on {len(fired)} of {len(texts)} held-out sentences "
          f"({rate:.1%}): {fired[:5]}")
    assert rate <= 0.05


def test_a_pair_of_an_earlier_stage_too_rare_to_be_drawn_again_is_still_the_grammars():
    """The table holds the pairs of every stage's build (명 ##이 before N ##로, seen while building learner4's)."""
    tokenizer = build_ko_en_tokenizer(grammar=GRAMMAR)
    assert outside_word_indices(tokenizer.tokenize("학생 세 명이 칼로 케이크를 잘랐다."), GRAMMAR) == []


def test_the_grammar_knows_the_learner_words_and_still_names_what_it_lacks(bundled):
    """A learner's words are known (no <unk>) and the recogniser reads the sentence; a word outside the lexicon is
    still named; the compact core lacks the learner's words."""
    known = outside_report(bundled, "저는 매일 아침에 단어를 외워요.")
    assert known.unknown_words == [] and not known.outside_training, known
    assert outside_report(as_trained_on(bundled, "core", True), "저는 매일 아침에 단어를 외워요.").unknown_words
    unknown = outside_report(bundled, "저는 매일 아침에 퀴디치를 외워요.")
    assert unknown.unknown_words == ["퀴디치를"] and unknown.outside_training


def test_a_sentence_without_its_final_mark_is_read_as_one(bundled):
    assert not outside_report(bundled, "고양이가 생선을 먹는다").outside_training
    assert outside_word_indices(["고양이", "##가", "생선", "##을", "먹", "##는다", "."], GRAMMAR) == []


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


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_no_sidebar_example_of_the_bundled_model_gets_the_notice(bundled):
    """The examples show what the model learned: each lies inside its grammar (and is translated exactly:
    the model card's table), its translation keeping every noun."""
    examples = json.loads((bundled.directory / "examples.json").read_text(encoding="utf-8"))["examples"]
    reports = [translation_report(bundled, e["text"]) for e in examples]
    flagged = [r["text"] for r in reports if r["unknown_words"] or r["outside_constructions"] or r["lost_words"]]
    assert len(examples) >= 30 and flagged == []
