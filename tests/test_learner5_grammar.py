"""Grammar "learner5": the learner4 grammar plus the beginner syllabus's items it still lacked: N만 (only N), N도
(N too), N하고 / N(이)랑 (with N), PLACE1에서 PLACE2까지 (from ... to ...), -(으)ㄹ까요? (Shall we V?), -아/어
드릴까요? (Shall I V for you?), -아/어 주다 / 드리다 with N에게 / N한테 / N께 (V for N), -아/어지다 (got ADJ-er)
and V-는 것을 / V-기를 좋아하다 (like V-ing). Grammars learner3 and learner4 are exactly as they were on main. No
count here depends on the fifth lexicon round (lexicon_learner5.json), written at the same time."""

from __future__ import annotations

from functools import cache

import pytest

from tests.grammar_checks import ChosenWords as ChosenWordsMixin
from tests.grammar_checks import (
    aligned_words,
    assert_pair_reads_back,
    stream_sha256,
    unread_sentences,
    vocabulary_sha256,
    written,
)
from transformer_core.data.ko_en import EXTENDED_GRAMMARS
from transformer_core.data.ko_en_everyday import Learner4Grammar, Learner5Grammar, ko_en_grammar
from transformer_core.data.ko_en_forms import (
    become_words,
    companion_word,
    grammar_lexicon,
    nominal_words,
    shall_word,
)
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

NEW_KINDS = [kind for kind in Learner5Grammar.KINDS if kind not in Learner4Grammar.KINDS]

# Measured on this branch's base (073e6a3, before grammar learner5): sha256 of json.dumps([[source, target,
# alignment] ...], ensure_ascii=False) of generate_pairs(3000, seed=4, grammar=...), and of the learner4
# vocabulary joined by newlines (the bundled ko-en-toy's 14,450 tokens, special tokens not counted).
STREAM_SHA256 = {"learner3": "23e1056255874a1c70bec28c5641a310e588863e884d3739e6a80d60b309af86",
                 "learner4": "ec6117de5874bc050cb2bde8e24e022ff972b195b7280b92034a2ac156b91f2c"}
LEARNER4_VOCABULARY_SHA256 = "1553ea0d5fef0bdcaa257bc6adc2a628e5acab0c56eb43d913eaa947e2137745"
LEARNER4_VOCABULARY_SIZE = 14450


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner5")


# --- grammars learner3 and learner4 are untouched ------------------------------------------------------------------

@pytest.mark.parametrize("grammar", ["learner3", "learner4"])
def test_the_earlier_streams_are_those_of_main(grammar):
    assert stream_sha256(grammar) == STREAM_SHA256[grammar]


def test_the_learner4_vocabulary_is_that_of_main():
    vocabulary = ko_en_vocabulary(grammar="learner4")
    assert len(vocabulary) == LEARNER4_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER4_VOCABULARY_SHA256


# --- each construction's sentences written out by hand -------------------------------------------------------------

class ChosenWords(ChosenWordsMixin, Learner5Grammar):
    """Learner5Grammar with its words chosen (grammar_checks.ChosenWords); 만 / 도 take the chosen object too."""

    def _noun_object(self, verb):
        return self._object(verb)


EAT = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"])
HEAR = dict(transitive=[("듣", "hear")], nouns=["음악"])
MAKE = dict(transitive=[("만들", "make")], nouns=["케이크"], names=["민수", "지수"])
BUY = dict(transitive=[("사", "buy")], nouns=["책"], names=["민수", "지수"])
FOR_GRANDMOTHER = dict(transitive=[("만들", "make")], nouns=["케이크", "할머니"], names=["민수"])
WEATHER = dict(nouns=["날씨"], adjectives=["춥"])
SWIM = dict(transitive=[("좋아하", "like")], intransitive=[("수영하", "swim")])
WITH = dict(transitive=[("먹", "eat")], nouns=["사과", "학생"], motion=["가"], places=["학교"], names=["민수", "지수"])
FROM = dict(motion=["걸어가", "가"], places=["집", "학교"])
COOK = dict(transitive=[("싫어하", "hate")], intransitive=[("요리하", "cook")])


@pytest.mark.parametrize(("kind", "fields", "register", "korean", "english"), [
    ("only", EAT, "polite", "민수는 사과만 먹었어요.", "Minsu ate only an apple."),
    ("only", EAT, "polite", "민수는 사과만 먹을 거예요.", "Minsu will eat only an apple."),
    ("only", EAT, "polite", "민수는 사과만 먹었어요?", "Did Minsu eat only an apple?"),
    ("only", MAKE, "formal", "민수는 케이크만 만들었습니다.", "Minsu made only a cake."),
    ("also", EAT, "polite", "민수는 사과도 먹었어요.", "Minsu ate an apple too."),
    ("also", MAKE, "polite", "민수는 케이크도 만들어요.", "Minsu makes a cake too."),
    ("also", HEAR, "banmal", "민수는 음악도 들었어?", "Did Minsu hear music too?"),
    ("shall_we", EAT, "polite", "우리 같이 사과를 먹을까요?", "Shall we eat an apple together?"),
    ("shall_we", EAT, "polite", "같이 학교에 갈까요?", "Shall we go to the school together?"),
    ("shall_we", MAKE, "polite", "우리 케이크를 만들까요?", "Shall we make a cake?"),
    ("shall_we", HEAR, "banmal", "같이 음악을 들을까?", "Shall we hear music together?"),
    ("for_someone", MAKE, "polite", "민수는 지수에게 케이크를 만들어 줬어요.", "Minsu made a cake for Jisu."),
    ("for_someone", MAKE, "polite", "민수는 지수한테 케이크를 만들어 줄 거예요.", "Minsu will make a cake for Jisu."),
    ("for_someone", BUY, "polite", "민수는 지수에게 책을 사 줬어요?", "Did Minsu buy a book for Jisu?"),
    ("for_someone", BUY, "formal", "민수는 지수한테 책을 사 줍니다.", "Minsu buys a book for Jisu."),
    ("for_someone", FOR_GRANDMOTHER, "polite", "민수는 할머니께 케이크를 만들어 드렸어요.",
     "Minsu made a cake for the grandmother."),
    ("became", WEATHER, "polite", "날씨가 추워졌어요.", "The weather got colder."),
    ("became", WEATHER, "polite", "날씨는 추워질 거예요.", "The weather will get colder."),
    ("became", WEATHER, "polite", "날씨가 추워졌어요?", "Did the weather get colder?"),
    ("became", dict(nouns=["날씨"], adjectives=["따뜻하"]), "formal", "날씨가 따뜻해졌습니다.",
     "The weather got warmer."),
    ("became", dict(adjectives=["바쁘"]), "polite", "민수는 바빠졌어요.", "Minsu got busier."),
    ("became", dict(adjectives=["피곤하"]), "plain", "민수는 피곤해졌다.", "Minsu got more tired."),
    ("like_doing", SWIM, "polite", "민수는 수영하는 것을 좋아해요.", "Minsu likes swimming."),
    ("offer", MAKE, "polite", "제가 케이크를 만들어 드릴까요?", "Shall I make a cake for you?"),
    ("offer", MAKE, "polite", "케이크를 만들어 드릴까요?", "Shall I make a cake for you?"),
    ("offer", BUY, "banmal", "내가 책을 사 줄까?", "Shall I buy a book for you?"),
    ("with", WITH, "polite", "민수는 지수하고 학교에 갔어요.", "Minsu went to the school with Jisu."),
    ("from_to", FROM, "polite", "민수는 집에서 학교까지 걸어갔어요.", "Minsu walked from home to the school."),
    ("from_to", FROM, "formal", "민수는 집에서 학교까지 갈 것입니다.", "Minsu will go from home to the school."),
    ("from_to", FROM, "polite", "민수는 학교에서 집까지 갔어요?", None),
    ("with", WITH, "polite", "민수는 지수랑 사과를 먹었어요.", "Minsu ate an apple with Jisu."),
    ("with", WITH, "polite", "민수는 학생이랑 학교에 갈 거예요.", "Minsu will go to the school with the student."),
    ("with", WITH, "formal", "민수는 학생하고 사과를 먹었습니까?", "Did Minsu eat an apple with the student?"),
    ("like_doing", SWIM, "polite", "민수는 수영하기를 좋아해요.", "Minsu likes swimming."),
    ("like_doing", SWIM, "polite", "민수는 수영하는 것을 좋아했어요?", "Did Minsu like swimming?"),
    ("like_doing", COOK, "formal", "민수는 요리하는 것을 싫어합니다.", "Minsu hates cooking."),
])
def test_each_new_construction_writes_the_korean_and_english_a_teacher_writes(kind, fields, register, korean,
                                                                             english):
    """english None: the grammar never writes the Korean (집까지: English says "went home", not "to home")."""
    pairs = written(ChosenWords(1, **fields), kind, (register,), n=400)
    if english is None:
        assert korean not in {source for source, _ in pairs}
    else:
        assert (korean, english) in pairs


@pytest.mark.parametrize(("kind", "fields", "korean", "expected"), [
    ("only", EAT, "민수는 사과만 먹었어요.", {"Minsu": {"민수는"}, "ate": {"먹었어요"}, "only": {"사과만"},
                                           "apple": {"사과만"}, "an": set()}),
    ("also", EAT, "민수는 사과도 먹었어요.", {"ate": {"먹었어요"}, "apple": {"사과도"}, "too": {"사과도"}}),
    ("shall_we", EAT, "우리 같이 사과를 먹을까요?",
     {"Shall": {"먹을까요"}, "we": {"우리"}, "eat": {"먹을까요"}, "apple": {"사과를"}, "together": {"같이"}}),
    ("shall_we", MAKE, "같이 케이크를 만들까요?", {"Shall": {"만들까요"}, "we": {"만들까요"}, "make": {"만들까요"}}),
    ("for_someone", MAKE, "민수는 지수에게 케이크를 만들어 줬어요.",
     {"made": {"만들어", "줬어요"}, "cake": {"케이크를"}, "for": {"지수에게"}, "Jisu": {"지수에게"}}),
    ("for_someone", MAKE, "민수는 지수한테 케이크를 만들어 줄 거예요.",
     {"will": {"거예요"}, "make": {"만들어"}, "for": {"지수한테"}}),
    ("became", WEATHER, "날씨가 추워졌어요.", {"The": set(), "weather": {"날씨가"}, "got": {"추워졌어요"},
                                          "colder": {"추워졌어요"}}),
    ("became", WEATHER, "날씨는 추워질 거예요.", {"will": {"거예요"}, "get": {"추워질"}, "colder": {"추워질"}}),
    ("like_doing", SWIM, "민수는 수영하는 것을 좋아해요.", {"likes": {"좋아해요"}, "swimming": {"수영하는", "것을"}}),
    ("like_doing", SWIM, "민수는 수영하기를 좋아해요.", {"likes": {"좋아해요"}, "swimming": {"수영하기를"}}),
    ("offer", MAKE, "제가 케이크를 만들어 드릴까요?",
     {"Shall": {"드릴까요"}, "I": {"제가"}, "make": {"만들어"}, "cake": {"케이크를"}, "for": {"드릴까요"},
      "you": {"드릴까요"}}),
    ("with", WITH, "민수는 지수하고 학교에 갔어요.", {"went": {"갔어요"}, "school": {"학교에"}, "with": {"지수하고"},
                                                 "Jisu": {"지수하고"}}),
    ("from_to", FROM, "민수는 집에서 학교까지 걸어갔어요.",
     {"walked": {"걸어갔어요"}, "from": {"집에서"}, "home": {"집에서"}, "to": {"학교까지"}, "the": set(),
      "school": {"학교까지"}}),
    ("with", WITH, "민수는 학생이랑 학교에 갔어요.", {"with": {"학생이랑"}, "the": set(), "student": {"학생이랑"}}),
])
def test_the_gold_alignment_points_each_english_word_at_its_korean_word(kind, fields, korean, expected):
    grammar = ChosenWords(4, **fields)
    pair = next(p for p in (grammar.sample("polite", kind=kind) for _ in range(600)) if p.source_text == korean)
    links = aligned_words(pair)
    assert {word: links[word] for word in expected} == expected


def test_shall_we_always_writes_uri_or_gachi():
    """Without them 먹을까요? is also the grammar's future question (Will you eat?)."""
    grammar = Learner5Grammar(6)
    for _ in range(300):
        pair = grammar.sample(kind="shall_we")
        assert {"우리", "같이"} & set(pair.source_words) and pair.target[:2] == ("Shall", "we"), pair.source_text


def test_an_elder_is_given_with_kke_and_deurida_and_nobody_else_is():
    grammar = Learner5Grammar(7)
    elders = {"선생님", "할머니", "할아버지", "어머니", "아버지", "부모님", "손님", "교수님", "사장님", "의사"}
    for _ in range(300):
        pair = grammar.sample(kind="for_someone")
        (recipient,) = aligned_words(pair)["for"]
        humble = any(w.startswith("드") for w in pair.source_words[pair.source_words.index(recipient):])
        assert recipient.endswith("께") is (recipient[:-1] in elders) is humble, pair.source_text


# --- forms by rule, against forms written out here ---------------------------------------------------------------

@pytest.mark.parametrize(("stem", "polite", "banmal"), [
    ("먹", "먹을까요", "먹을까"), ("가", "갈까요", "갈까"), ("만들", "만들까요", "만들까"),
    ("듣", "들을까요", "들을까"), ("돕", "도울까요", "도울까"), ("공부하", "공부할까요", "공부할까"),
])
def test_shall_we_conjugates_as_a_textbook_writes_it(stem, polite, banmal):
    verb = next(v for v in grammar_lexicon("learner5").verbs if v.stem == stem)
    assert ["".join(shall_word(verb, register)) for register in ("polite", "banmal")] == [polite, banmal]


@pytest.mark.parametrize(("stem", "past", "future", "formal_past"), [
    ("춥", "추워졌어요", "추워질 거예요", "추워졌습니다"), ("바쁘", "바빠졌어요", "바빠질 거예요", "바빠졌습니다"),
    ("따뜻하", "따뜻해졌어요", "따뜻해질 거예요", "따뜻해졌습니다"),
    ("좋", "좋아졌어요", "좋아질 거예요", "좋아졌습니다"),
    ("크", "커졌어요", "커질 거예요", "커졌습니다"), ("길", "길어졌어요", "길어질 거예요", "길어졌습니다"),
])
def test_eo_jida_conjugates_as_a_textbook_writes_it(stem, past, future, formal_past):
    adjective = next(a for a in grammar_lexicon("learner5").adjectives if a.stem == stem)

    def said(tense, register):
        return " ".join("".join(word) for word in become_words(adjective, tense, False, register))

    assert [said("past", "polite"), said("future", "polite"), said("past", "formal")] == [past, future, formal_past]


@pytest.mark.parametrize(("stem", "neun_geot", "gi"), [
    ("수영하", "수영하는 것을", "수영하기를"), ("놀", "노는 것을", "놀기를"), ("춤추", "춤추는 것을", "춤추기를"),
])
def test_the_nominal_before_joahada_is_a_textbooks(stem, neun_geot, gi):
    verb = next(v for v in grammar_lexicon("learner5").intransitive if v.stem == stem)
    assert [" ".join("".join(w) for w in nominal_words(verb, "", g)) for g in (False, True)] == [neun_geot, gi]


@pytest.mark.parametrize(("noun", "particle", "written_word"), [
    ("지수", "하고", "지수하고"), ("지수", "랑", "지수랑"), ("학생", "랑", "학생이랑"), ("학생", "하고", "학생하고"),
])
def test_with_takes_irang_after_a_consonant(noun, particle, written_word):
    assert "".join(companion_word(noun, particle)) == written_word


# --- the vocabulary, the tokenizer, the grammar's invariants ---------------------------------------------------------

def test_the_learner5_vocabulary_holds_its_constructions_new_pieces():
    """(ids kept, new tokens sorted, pairs typed back: tests/test_grammar_rounds.py)"""
    learner4, learner5 = ko_en_vocabulary(grammar="learner4"), ko_en_vocabulary(grammar="learner5")
    new = {"##까지", "##만", "##랑", "##이랑", "##에게", "##한테", "##께", "##졌", "Shall", "only", "colder"}
    assert new <= set(learner5[len(learner4):])


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_every_new_construction_reads_back_in_every_register(kind):
    grammar, tokenizer = Learner5Grammar(3), _tokenizer()
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        assert_pair_reads_back(grammar.sample(register, kind=kind), tokenizer, vocab)


def test_learner5_is_a_grammar_of_its_own():
    assert type(ko_en_grammar(0, "learner5")) is Learner5Grammar and "learner5" in EXTENDED_GRAMMARS
    assert list(Learner5Grammar.KINDS)[:len(Learner4Grammar.KINDS)] == list(Learner4Grammar.KINDS)
    assert NEW_KINDS == ["only", "also", "shall_we", "for_someone", "became", "like_doing", "with", "offer",
                         "from_to"]


NEW_SENTENCES = ("민수는 사과만 먹었어요.", "민수는 사과도 먹었어요.", "민수는 지수에게 케이크를 만들어 줬어요.",
                 "민수는 지수한테 책을 사 줬어요.", "민수는 할머니께 케이크를 만들어 드렸어요.", "날씨가 추워졌어요.",
                 "날씨가 따뜻해질 거예요.", "우리 같이 사과를 먹을까요?", "저는 수영하는 것을 좋아해요.",
                 "민수는 수영하기를 좋아해요.", "민수는 지수하고 학교에 갔어요.", "저는 친구랑 영화를 봤어요.",
                 "제가 케이크를 만들어 드릴까요?", "민수는 집에서 학교까지 걸어갔어요.")


def test_the_learner5_recogniser_reads_the_new_constructions():
    """Typed sentences of the new constructions (written here): learner5's tokenizer and recogniser know each."""
    assert unread_sentences(NEW_SENTENCES, "learner5") == []


def test_learner4_names_the_new_endings_unknown():
    """만 and -아/어지다 are pieces learner4 lacks (에게 it cuts as ##에 ##게, so it is not named unknown there)."""
    tokenizer = build_ko_en_tokenizer(grammar="learner4")
    for sentence in ("민수는 사과만 먹었어요.", "날씨가 추워졌어요."):
        assert tokenizer.unk_token in tokenizer.tokenize(sentence), sentence
