"""Grammar "learner3": the learner2 grammar plus a beginner syllabus's constructions (-(으)ㄹ 수 있다, -아/어야 하다,
-고, -(으)면, -기 전에 / -(으)ㄴ 후에, -(으)러 가다, -아/어 보다, -(으)ㄴ 적이 있다, -지 마세요, -(으)ㅂ시다, -(으)세요,
계시다) and honorific suppletion (드시다, 주무시다, 계시다, 말씀하시다), over a third round of the learner lexicon.
Grammar "learner2", on which a model is being trained, is exactly as it was on main."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from tests.grammar_checks import ChosenWords as ChosenWordsMixin
from tests.grammar_checks import (
    aligned_words,
    assert_conjugated_by_rule,
    assert_pair_reads_back,
    english_senses,
    stream_sha256,
    vocabulary_sha256,
    written,
)
from transformer_core.data.ko_en import EXTENDED_GRAMMARS
from transformer_core.data.ko_en_everyday import Learner2Grammar, Learner3Grammar, ko_en_grammar
from transformer_core.data.ko_en_forms import (
    bsida_word,
    do_word,
    learner2_lexicon,
    learner3_lexicon,
    myeon_word,
    past_adnominal,
    past_participle,
    reo_word,
    ryeogo_word,
    ttae_words,
)
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

REPO = Path(__file__).resolve().parents[1]
NEW_KINDS = [kind for kind in Learner3Grammar.KINDS if kind not in Learner2Grammar.KINDS] + ["honorific"]


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner3")

# Measured on main at c7d2c68 (before grammar learner3): sha256 of json.dumps([[source, target, alignment] ...],
# ensure_ascii=False) of generate_pairs(300, seed=4, grammar="learner2"), and of the learner2 vocabulary joined by
# newlines.
LEARNER2_STREAM_SHA256 = "5c3186d75c2079daedb05eaf60e7b1e21b2680db4d1e553ebc53f18966580fea"
LEARNER2_VOCABULARY_SHA256 = "80f989499c9de894f97e5a4d1108aece0404ebce48473aef0a4d9b2bb568b723"
LEARNER2_VOCABULARY_SIZE = 12551


# --- grammar "learner2" is untouched -----------------------------------------------------------------------------

def test_the_learner2_stream_and_vocabulary_are_those_of_main():
    assert stream_sha256("learner2", n=300) == LEARNER2_STREAM_SHA256
    vocabulary = ko_en_vocabulary(grammar="learner2")
    assert len(vocabulary) == LEARNER2_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER2_VOCABULARY_SHA256


# --- a grammar with the words chosen: each construction's sentences written out by hand ---------------------------

class ChosenWords(ChosenWordsMixin, Learner3Grammar):
    """Learner3Grammar with its words chosen (grammar_checks.ChosenWords)."""


_written = written


EAT = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"])
MADE = dict(transitive=[("먹", "eat"), ("만들", "make")], nouns=["케이크"], names=["지수"])


@pytest.mark.parametrize(("kind", "fields", "first", "register", "korean", "english"), [
    ("can", EAT, "", "polite", "민수는 사과를 먹을 수 있어요.", "Minsu can eat an apple."),
    ("can", EAT, "", "polite", "민수는 사과를 먹을 수 없었어요.", "Minsu could not eat an apple."),
    ("can", EAT, "", "polite", "민수는 사과를 먹을 수 있어요?", "Can Minsu eat an apple?"),
    ("can", dict(transitive=[("듣", "hear")], nouns=["음악"]), "", "formal", "민수는 음악을 들을 수 없습니다.",
     "Minsu cannot hear music."),
    ("must", EAT, "", "polite", "민수는 사과를 먹어야 해요.", "Minsu has to eat an apple."),
    ("must", EAT, "", "plain", "민수는 사과를 먹어야 됐다.", "Minsu had to eat an apple."),
    ("must", EAT, "", "polite", "민수는 사과를 먹어야 돼요?", "Does Minsu have to eat an apple?"),
    ("must", dict(motion=["가"], places=["학교"]), "", "polite", "민수는 학교에 가야 해요.",
     "Minsu has to go to the school."),
    ("and_then", EAT, "먹", "polite", "민수는 사과를 먹고 학교에 갔어요.",
     "Minsu ate an apple and went to the school."),
    ("and_then", EAT, "먹", "polite", "민수는 사과를 먹고 학교에 갈 거예요.",
     "Minsu will eat an apple and go to the school."),
    ("if", EAT, "먹", "polite", "사과를 먹으면 학교에 갈 거예요.", "If I eat an apple , I will go to the school."),
    ("before_after", EAT, "가", "polite", "민수는 학교에 가기 전에 사과를 먹었어요.",
     "Minsu ate an apple before going to the school."),
    ("before_after", EAT, "먹", "polite", "민수는 사과를 먹은 후에 학교에 갔어요.",
     "Minsu went to the school after eating an apple."),
    ("before_after", dict(transitive=[("듣", "hear")], intransitive=[("자", "sleep")], nouns=["음악"]), "듣",
     "polite", "민수는 음악을 들은 후에 잤어요.", "Minsu slept after hearing music."),
    ("go_to_do", dict(transitive=[("사", "buy")], nouns=["사과"], motion=["가"], places=["시장"]), "", "polite",
     "민수는 사과를 사러 시장에 갔어요.", "Minsu went to the market to buy an apple."),
    ("tried", EAT, "", "polite", "민수는 사과를 먹어 봤어요.", "Minsu tried eating an apple."),
    ("tried", dict(transitive=[("만들", "make")], nouns=["케이크"]), "", "plain", "민수는 케이크를 만들어 볼 것이다.",
     "Minsu will try making a cake."),
    ("experience", EAT, "", "polite", "민수는 사과를 먹은 적이 있어요.", "Minsu has eaten an apple before."),
    ("experience", EAT, "", "polite", "민수는 사과를 먹은 적이 없어요.", "Minsu has never eaten an apple."),
    ("experience", EAT, "", "formal", "민수는 사과를 먹은 적이 있습니까?", "Has Minsu ever eaten an apple?"),
    ("experience", dict(motion=["가"], places=["한국"]), "", "polite", "민수는 한국에 간 적이 있어요.",
     "Minsu has been to Korea before."),
    ("dont", EAT, "", "polite", "사과를 먹지 마세요.", "Please do not eat an apple."),
    ("dont", EAT, "", "formal", "사과를 먹지 마십시오.", "Please do not eat an apple."),
    ("dont", EAT, "", "plain", "사과를 먹지 마라.", "Do not eat an apple."),
    ("lets", EAT, "", "polite", "사과를 먹읍시다.", "Let's eat an apple."),
    ("lets", dict(transitive=[("만들", "make")], nouns=["케이크"]), "", "polite", "우리 같이 케이크를 만듭시다.",
     "Let's make a cake together."),
    ("lets", dict(motion=["가"], places=["학교"]), "", "polite", "학교에 갑시다.", "Let's go to the school."),
    ("please_do", EAT, "", "polite", "사과를 드세요.", "Please eat an apple."),
    ("may", EAT, "", "polite", "사과를 먹어도 돼요?", "May I eat an apple?"),
    ("may", EAT, "", "polite", "사과를 먹어도 돼요.", "You may eat an apple."),
    ("may", EAT, "", "formal", "민수는 사과를 먹어도 됩니다.", "Minsu may eat an apple."),
    ("must_not", EAT, "", "polite", "사과를 먹으면 안 돼요.", "You must not eat an apple."),
    ("must_not", EAT, "", "formal", "민수는 사과를 먹으면 안 됩니다.", "Minsu must not eat an apple."),
    ("in_order_to", dict(transitive=[("사", "buy")], nouns=["사과"], motion=["가"], places=["시장"]), "사", "polite",
     "민수는 사과를 사려고 시장에 갔어요.", "Minsu went to the market to buy an apple."),
    ("in_order_to", dict(transitive=[("만들", "make")], nouns=["케이크"], motion=["가"], places=["시장"]), "만들",
     "polite", "민수는 케이크를 만들려고 시장에 갔어요.", "Minsu went to the market to make a cake."),
    ("relative", MADE, "먹", "polite", "민수는 지수가 만든 케이크를 먹었어요.", "Minsu ate the cake that Jisu made."),
    ("relative", MADE, "먹", "plain", "민수는 지수가 만드는 케이크를 먹을 것이다.",
     "Minsu will eat the cake that Jisu makes."),
    ("when", EAT, "먹", "polite", "사과를 먹을 때 학교에 가요.", "When I eat an apple , I go to the school."),
    ("when", EAT, "먹", "polite", "사과를 먹었을 때 학교에 갔어요.", "When I ate an apple , I went to the school."),
    ("please_do", dict(transitive=[("돕", "help")], nouns=["할머니"]), "", "formal", "할머니를 도우십시오.",
     "Please help a grandmother."),
])
def test_each_syllabus_construction_writes_the_korean_and_english_a_teacher_writes(kind, fields, first, register,
                                                                                 korean, english):
    assert (korean, english) in _written(ChosenWords(1, first, **fields), kind, (register,))


@pytest.mark.parametrize(("fields", "korean", "english"), [
    (dict(transitive=[("먹", "eat")], nouns=["할머니", "저녁"]), "할머니께서 저녁을 드세요.",
     "The grandmother eats dinner."),
    (dict(transitive=[("먹", "eat")], nouns=["할머니", "저녁"]), "할머니께서는 저녁을 드셨어요.",
     "The grandmother ate dinner."),
    (dict(transitive=[("마시", "drink")], nouns=["선생님", "커피"]), "선생님께서 커피를 드실 거예요.",
     "The teacher will drink coffee."),
    (dict(intransitive=[("자", "sleep")], nouns=["할머니"]), "할머니께서 주무세요.", "The grandmother sleeps."),
    (dict(intransitive=[("자", "sleep")], nouns=["할머니"]), "할머니는 주무셨어요?", "Did the grandmother sleep?"),
    (dict(intransitive=[("말하", "speak")], nouns=["선생님"]), "선생님께서 말씀하셨어요.", "The teacher spoke."),
    (dict(transitive=[("읽", "read")], nouns=["선생님", "책"]), "선생님은 책을 읽으세요.",
     "The teacher reads a book."),
])
def test_an_elder_eats_drinks_sleeps_and_speaks_in_the_honorific_verbs_korean_uses(fields, korean, english):
    assert (korean, english) in _written(ChosenWords(2, **fields), "honorific", ("polite",), 600)


def test_an_elder_is_at_a_place_with_gyesida():
    written = _written(ChosenWords(3, nouns=["할머니"], places=["집"]), "honorific_stay", ("polite", "formal"))
    assert ("할머니께서는 집에 계세요.", "The grandmother is at home.") in written
    assert ("할머니는 집에 계셨습니까?", "Was the grandmother at home?") in written
    written = _written(ChosenWords(3, nouns=["선생님"], places=["학교"]), "honorific_stay", ("plain",))
    assert ("선생님께서 학교에 계실 것이다.", "The teacher will be at the school.") in written


HONORIFIC_BY_RULE = ("먹으시", "먹으세", "먹으셨", "먹으실", "먹으십", "먹으신", "마시세", "마시셨",
                     "마시실", "마시십", "마시신", "자세요", "자셨", "자실", "자십", "자신다", "자시니",
                     "말하세", "말하셨", "말하실", "말하십", "말하신", "말하시")


def test_learner3_never_writes_the_rule_honorific_of_a_suppletive_verb_for_an_elder():
    grammar = Learner3Grammar(8)
    written = set()
    for _ in range(1500):
        pair = grammar.sample(kind="honorific")
        written.update(pair.source_words)
    assert not {word for word in written if word.startswith(HONORIFIC_BY_RULE)}
    assert {"드세요", "드셨어요", "주무세요", "주무셨어요", "말씀하셨어요"} <= written


_links = aligned_words


@pytest.mark.parametrize(("kind", "fields", "first", "korean", "expected"), [
    ("can", EAT, "", "민수는 사과를 먹을 수 있어요.",
     {"Minsu": {"민수는"}, "can": {"수", "있어요"}, "eat": {"먹을"}, "an": set(), "apple": {"사과를"}}),
    ("must", EAT, "", "민수는 사과를 먹어야 해요.",
     {"has": {"해요"}, "to": {"먹어야"}, "eat": {"먹어야"}, "apple": {"사과를"}}),
    ("before_after", EAT, "먹", "민수는 사과를 먹은 후에 학교에 갔어요.",
     {"went": {"갔어요"}, "school": {"학교에"}, "after": {"후에"}, "eating": {"먹은"}, "apple": {"사과를"}}),
    ("experience", EAT, "", "민수는 사과를 먹은 적이 없어요.",
     {"has": {"없어요"}, "never": {"적이", "없어요"}, "eaten": {"먹은"}}),
    ("and_then", EAT, "먹", "민수는 사과를 먹고 학교에 갔어요.",
     {"ate": {"먹고"}, "and": {"먹고"}, "went": {"갔어요"}, "to": {"학교에"}}),
    ("may", EAT, "", "사과를 먹어도 돼요?", {"May": {"돼요"}, "I": set(), "eat": {"먹어도"}, "apple": {"사과를"}}),
    ("must_not", EAT, "", "사과를 먹으면 안 돼요.", {"must": {"돼요"}, "not": {"안"}, "eat": {"먹으면"}}),
    ("relative", MADE, "먹", "민수는 지수가 만든 케이크를 먹었어요.",
     {"ate": {"먹었어요"}, "the": set(), "cake": {"케이크를"}, "that": {"만든"}, "Jisu": {"지수가"}, "made": {"만든"}}),
    ("when", EAT, "먹", "사과를 먹었을 때 학교에 갔어요.",
     {"When": {"때"}, "ate": {"먹었을"}, "went": {"갔어요"}, ",": set()}),
    ("dont", EAT, "", "사과를 먹지 마세요.",
     {"Please": {"마세요"}, "do": {"마세요"}, "not": {"마세요"}, "eat": {"먹지"}}),
])
def test_the_gold_alignment_points_each_english_word_at_its_korean_word(kind, fields, first, korean, expected):
    grammar = ChosenWords(4, first, **fields)
    pair = next(p for p in (grammar.sample("polite", kind=kind) for _ in range(400)) if p.source_text == korean)
    links = _links(pair)
    assert {word: links[word] for word in expected} == expected


# --- forms by rule, against forms written out here ---------------------------------------------------------------

@pytest.mark.parametrize(("stem", "irregular", "adnominal", "bsida", "reo", "myeon"), [
    ("먹", "", "먹은", "먹읍시다", "먹으러", "먹으면"),
    ("가", "", "간", "갑시다", "가러", "가면"),
    ("만들", "", "만든", "만듭시다", "만들러", "만들면"),
    ("듣", "ㄷ", "들은", "들읍시다", "들으러", "들으면"),
    ("돕", "ㅂ", "도운", "도웁시다", "도우러", "도우면"),
    ("짓", "ㅅ", "지은", "지읍시다", "지으러", "지으면"),
    ("공부하", "", "공부한", "공부합시다", "공부하러", "공부하면"),
    ("부르", "르", "부른", "부릅시다", "부르러", "부르면"),
])
def test_syllabus_endings_conjugate_as_a_textbook_writes_them(stem, irregular, adnominal, bsida, reo, myeon):
    assert "".join(past_adnominal(stem, irregular)) == adnominal
    assert "".join(bsida_word(stem, irregular)) == bsida
    assert "".join(reo_word(stem, irregular)) == reo
    assert "".join(myeon_word(stem, irregular)) == myeon


@pytest.mark.parametrize(("stem", "irregular", "ryeogo", "do", "when", "when_past"), [
    ("먹", "", "먹으려고", "먹어도", "먹을 때", "먹었을 때"),
    ("사", "", "사려고", "사도", "살 때", "샀을 때"),
    ("만들", "", "만들려고", "만들어도", "만들 때", "만들었을 때"),
    ("듣", "ㄷ", "들으려고", "들어도", "들을 때", "들었을 때"),
    ("돕", "ㅂ", "도우려고", "도와도", "도울 때", "도왔을 때"),
    ("공부하", "", "공부하려고", "공부해도", "공부할 때", "공부했을 때"),
])
def test_purpose_permission_and_when_endings_conjugate_as_a_textbook_writes_them(stem, irregular, ryeogo, do, when,
                                                                                 when_past):
    verb = next(v for v in learner3_lexicon().verbs if v.stem == stem)
    assert "".join(ryeogo_word(stem, irregular)) == ryeogo and "".join(do_word(stem, verb.past_stem)) == do
    assert [" ".join("".join(w) for w in ttae_words(verb, t)) for t in ("present", "past")] == [when, when_past]


def test_past_participles_are_english_ones():
    verbs = {(v.stem, v.en_base): v for v in learner3_lexicon().verbs}
    expected = {("먹", "eat"): "eaten", ("가", "go"): "been", ("공부하", "study"): "studied", ("보", "see"): "seen",
                ("쓰", "write"): "written", ("자", "sleep"): "slept", ("만들", "make"): "made",
                ("돌보", "take care of"): "taken care of"}
    assert {key: past_participle(verbs[key]) for key in expected} == expected


# --- the lexicon, the vocabulary, the tokenizer ------------------------------------------------------------------

def test_the_third_round_adds_entries_and_no_second_sense():
    learner2, learner3 = learner2_lexicon(), learner3_lexicon()
    raw = json.loads((REPO / "transformer_core/data/lexicon_learner3.json").read_text(encoding="utf-8"))
    counts = {field: len(rows) for field, rows in raw.items() if not field.startswith("_")}
    assert learner3.entries == learner2.entries + sum(counts.values())
    for field, count in counts.items():
        assert getattr(learner3, field)[:len(getattr(learner2, field))] == getattr(learner2, field), field
        assert len(getattr(learner3, field)) == len(getattr(learner2, field)) + count, field

    senses = english_senses

    before, after = senses(learner2), senses(learner3)
    assert {word: meanings for word, meanings in after.items() if before.get(word, meanings) != meanings} == {}
    assert_conjugated_by_rule(learner3.verbs[len(learner2.verbs):], learner3.adjectives[len(learner2.adjectives):])


def test_the_learner3_vocabulary_grows_by_its_round():
    """(ids kept, new tokens sorted, pairs typed back: tests/test_grammar_rounds.py)"""
    learner2, learner3 = ko_en_vocabulary(grammar="learner2"), ko_en_vocabulary(grammar="learner3")
    assert len(learner3) > len(learner2) + 500


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_every_syllabus_construction_reads_back_in_every_register(kind):
    grammar, tokenizer = Learner3Grammar(3), _tokenizer()
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        assert_pair_reads_back(grammar.sample(register, kind=kind), tokenizer, vocab)


def test_learner3_is_a_grammar_of_its_own():
    assert type(ko_en_grammar(0, "learner3")) is Learner3Grammar and "learner3" in EXTENDED_GRAMMARS
    assert list(Learner3Grammar.KINDS)[:len(Learner2Grammar.KINDS)] == list(Learner2Grammar.KINDS)


SYLLABUS_SENTENCES = ("민수는 사과를 먹을 수 있어요.", "민수는 사과를 먹어야 해요.", "할머니께서 저녁을 드세요.",
                      "사과를 먹은 적이 있어요?", "학교에 가기 전에 사과를 먹었어요.", "사과를 먹지 마세요.",
                      "같이 학교에 갑시다.", "사과를 먹으면 안 돼요.", "사과를 먹었을 때 학교에 갔어요.",
                      "민수는 사과를 사러 시장에 갔어요.", "사과를 먹어도 돼요?", "할머니는 집에 계세요.",
                      "나는 민수가 만든 케이크를 먹었어요.")


def test_the_learner3_recogniser_reads_sentences_learner2_called_outside_its_training():
    """Typed sentences of the new constructions (written here): learner2's tokenizer and recogniser name an unknown
    word or construction in each; learner3's in none."""
    from transformer_core.data.recogniser import outside_word_indices

    for grammar, inside in (("learner2", False), ("learner3", True)):
        tokenizer = build_ko_en_tokenizer(grammar=grammar)
        for sentence in SYLLABUS_SENTENCES:
            pieces = tokenizer.convert_ids_to_tokens(tokenizer(sentence)["input_ids"][:-1])
            known = "<unk>" not in pieces and not outside_word_indices(pieces, grammar)
            assert known is inside, (grammar, sentence, pieces)
