"""Issue 27: the everyday grammar's learner constructions: forms by rule, pieces the tokenizer cuts the same
way, gold alignments in range, a vocabulary that keeps the full grammar's ids."""

from __future__ import annotations

import pytest

from tests.grammar_checks import assert_pair_reads_back
from transformer_core.data.ko_en_everyday import EverydayGrammar, generate_pairs, ko_en_grammar
from transformer_core.data.ko_en_forms import (
    aseo_word,
    eu_ending,
    go_word,
    honorific_words,
    jiman_word,
    myeonseo_word,
    nikka_word,
    present_participle,
    rae_word,
)
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

KINDS = [kind for kind in EverydayGrammar.KINDS if kind != "full"]


@pytest.fixture(scope="module")
def tokenizer():
    return build_ko_en_tokenizer(grammar="everyday")


@pytest.mark.parametrize(("word", "pieces"), [
    (go_word("먹"), ("먹", "고")), (go_word("공부하"), ("공부", "하고")),
    (aseo_word("피곤하", "피곤했"), ("피곤", "해서")), (aseo_word("먹", "먹었"), ("먹어", "서")),
    (nikka_word("먹", "먹었", "past"), ("먹었", "으니까")), (nikka_word("가", "갔", "present"), ("가", "니까")),
    (nikka_word("만들", "만들었", "present"), ("만드", "니까")), (jiman_word("작", "작았", "past"), ("작았", "지만")),
    (myeonseo_word("만들"), ("만들", "면서")), (myeonseo_word("읽"), ("읽", "으면서")),
    (eu_ending("만들", "세요"), ("만드", "세요")), (rae_word("먹", True), ("먹을", "래요")),
    (rae_word("가", False), ("갈", "래")),
])
def test_connective_and_auxiliary_forms_follow_korean_rules(word, pieces):
    assert word == pieces


@pytest.mark.parametrize(("stem", "tense", "register", "words"), [
    ("읽", "present", "polite", [("읽", "으세요")]), ("가", "past", "polite", [("가", "셨어요")]),
    ("가", "present", "formal", [("가", "십니다")]), ("읽", "present", "plain", [("읽", "으신다")]),
    ("가", "future", "polite", [("가", "실"), ("거예요",)]), ("공부하", "past", "formal", [("공부", "하셨습니다")]),
])
def test_honorific_si_is_attached_by_rule(stem, tense, register, words):
    assert honorific_words(stem, tense, False, register) == words


@pytest.mark.parametrize(("base", "ing"), [("eat", "eating"), ("make", "making"), ("run", "running"),
                                           ("study", "studying"), ("lie", "lying"), ("turn on", "turning on"),
                                           ("see", "seeing"), ("visit", "visiting"), ("swim", "swimming")])
def test_english_present_participles(base, ing):
    assert present_participle(base) == ing


@pytest.mark.parametrize("kind", KINDS)
def test_every_construction_writes_pieces_the_tokenizer_reads_back(kind, tokenizer):
    grammar = EverydayGrammar(3)
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 15:
        pair = grammar.sample(register, kind=kind)
        assert_pair_reads_back(pair, tokenizer, vocab)


def test_sampled_everyday_sentences_are_read_back_exactly(tokenizer):
    """What the model trains on is what the tokenizer makes of the typed sentence (no word reads as a noun)."""
    for pair in generate_pairs(1500, seed=21, grammar="everyday"):
        ids = tokenizer(pair.source_text)["input_ids"][:-1]
        assert tokenizer.convert_ids_to_tokens(ids) == list(pair.source), pair.source_text


def test_everyday_readings_and_alignments():
    """A few constructions read as a teacher would translate them, content words aligned to their Korean word."""
    seen = {}
    for pair in generate_pairs(3000, seed=5, grammar="everyday"):
        if {"want", "wants"} & set(pair.target) and "싶" in pair.source and "not" not in pair.target:
            seen["desire"] = pair
        if "There" in pair.target and pair.source[-2] in ("##다", "##어요") and "no" not in pair.target:
            seen["exist"] = pair
        if pair.target[0] == "Please":
            seen["request"] = pair
    desire = seen["desire"]
    want = desire.target.index("want") if "want" in desire.target else desire.target.index("wants")
    assert desire.source[desire.alignment[want][0]] == "싶"
    verb = want + 2  # want to VERB: the verb is aligned to the V-고 word
    assert desire.source[desire.alignment[verb][-1]] == "##고"
    exist = seen["exist"]
    assert exist.source[exist.alignment[0][0]] in ("있", "있었", "있어")
    request = seen["request"]
    assert {request.source[i] for i in request.alignment[0]} & {"주", "줘", "좀"}


def test_the_full_grammar_is_untouched_by_the_everyday_one():
    """Models of the full grammar evaluate on the same stream as before: ko_en_grammar('full') is KoEnGrammar."""
    from transformer_core.data.ko_en import KoEnGrammar

    assert [p.source_text for p in ko_en_grammar(4, "full").samples(50)] == \
        [p.source_text for p in KoEnGrammar(4).samples(50)]
    assert type(ko_en_grammar(4, "")) is KoEnGrammar


def test_everyday_vocabulary_holds_every_generated_token():
    vocabulary = set(ko_en_vocabulary(grammar="everyday"))
    for pair in generate_pairs(3000, seed=13, grammar="everyday"):
        assert set(pair.source) <= vocabulary and set(pair.target) <= vocabulary


def test_unknown_grammar_names_are_refused():
    with pytest.raises(ValueError, match="unknown grammar"):
        ko_en_grammar(0, "nonsense")
