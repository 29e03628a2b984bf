"""Grammar "learner9": the learner8 grammar plus the particles as learners hear them spoken (an object without
을/를, a subject without 이/가 before 있다 / 없다, 내일은 / 봄에는, 에는 on a place before 있다 / 없다), 몇 시에 / 몇
층에 questions, 밖에 with a negative, 하나도, 아무도 / 아무것도, a noun before another as its owner or kind (강아지
이름, 차 열쇠), the first day's set phrases and a few words the lexicon lacked. Grammars learner3 to learner8 are
exactly as they were on main. The Korean and English each construction writes are written out here by hand."""

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
from transformer_core.data.ko_en import EXTENDED_GRAMMARS, SentencePair
from transformer_core.data.ko_en_everyday import (
    Learner8Grammar,
    Learner9Grammar,
    generate_pairs,
    ko_en_grammar,
    spoken_particles,
)
from transformer_core.data.ko_en_forms import fixed_subject_words, grammar_lexicon, topic_time_texts
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

NEW_KINDS = [kind for kind in Learner9Grammar.KINDS if kind not in Learner8Grammar.KINDS]

# Measured on main before grammar learner9 (8e3c9f1): sha256 of json.dumps([[source, target, alignment] ...],
# ensure_ascii=False) of generate_pairs(3000, seed=4, grammar=...), and of the learner8 vocabulary joined by
# newlines (the 16,995 tokens the bundled learner8 models have, special tokens not counted).
STREAM_SHA256 = {"learner3": "23e1056255874a1c70bec28c5641a310e588863e884d3739e6a80d60b309af86",
                 "learner7": "cfef8263fe122091281fea609811af570f608a0e2558ea92f645a1ca22616706",
                 "learner8": "31633eb0c22de9d2607bc58d03b31e0fb15f2767c736d3e5ee49aa1b30412e38"}
LEARNER8_VOCABULARY_SHA256 = "a752c9793025cb5055603f3f4fd40735db4fa1632695c8c15ef60ef23b33b3e1"
LEARNER8_VOCABULARY_SIZE = 16995


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner9")


# --- the grammars before it are untouched ----------------------------------------------------------------------------

@pytest.mark.parametrize("grammar", sorted(STREAM_SHA256))
def test_the_earlier_streams_are_those_of_main(grammar):
    assert stream_sha256(grammar) == STREAM_SHA256[grammar]


def test_the_learner8_vocabulary_is_that_of_the_bundled_models():
    """Its ids are the bundled learner8 models' (a learner9 model continues from their weights)."""
    vocabulary = ko_en_vocabulary(grammar="learner8")
    assert len(vocabulary) == LEARNER8_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER8_VOCABULARY_SHA256


# --- spoken particles: the same English, the Korean as it is said ---------------------------------------------------

def _pair(words: list[tuple[str, ...]], target: list[str], word_links: list[tuple[int, ...]]) -> SentencePair:
    """A pair written by hand, each English word aligned to all the pieces of its Korean words."""
    pieces, pieces_of = [], []
    for word in words:
        pieces_of.append(tuple(range(len(pieces), len(pieces) + len(word))))
        pieces += [word[0], *("##" + p for p in word[1:])]
    alignment = tuple(tuple(p for w in link for p in pieces_of[w]) for link in word_links)
    return SentencePair(tuple(pieces), tuple(target), alignment, tuple("".join(w) for w in words),
                        tuple(word_links))


TIME_TEXTS = topic_time_texts(grammar_lexicon("learner9"))


def test_a_spoken_object_drops_its_particle_and_keeps_its_english():
    pair = _pair([("민수", "는"), ("사과", "를"), ("먹", "어요"), (".",)],
                 ["Minsu", "eats", "an", "apple", "."], [(0,), (2,), (), (1,), (3,)])
    spoken = spoken_particles(pair, frozenset({"민수", "사과"}), frozenset(), True)
    assert spoken.source_text == "민수는 사과 먹어요."
    assert spoken.target == pair.target
    assert aligned_words(spoken) == {"Minsu": {"민수는"}, "eats": {"먹어요"}, "an": set(), "apple": {"사과"},
                                     ".": {"."}}
    assert spoken.source == ("민수", "##는", "사과", "먹", "##어요", ".")


def test_a_counted_noun_takes_the_particle_its_counter_had():
    """사과 두 개를 샀어요 -> 사과를 두 개 샀어요 (the same English; the noun keeps its particle, not dropped too)."""
    pair = _pair([("사과",), ("두",), ("개", "를"), ("샀", "어요"), (".",)], ["I", "bought", "two", "apples", "."],
                 [(), (3,), (1,), (0,), (4,)])
    moved = spoken_particles(pair, frozenset({"사과"}), frozenset(), True)
    assert moved.source_text == "사과를 두 개 샀어요."
    assert aligned_words(moved)["apples"] == {"사과를"}
    assert spoken_particles(pair, frozenset({"사과"}), frozenset(), False) == pair


def test_a_subject_drops_its_particle_only_before_있다_or_없다():
    has = _pair([("시간", "이"), ("있", "어요"), ("?",)], ["Do", "you", "have", "time", "?"],
                [(1,), (), (1,), (0,), (2,)])
    assert spoken_particles(has, frozenset({"시간"}), frozenset(), True).source_text == "시간 있어요?"
    moves = _pair([("민수", "가"), ("가", "요"), (".",)], ["Minsu", "goes", "."], [(0,), (1,), (2,)])
    assert spoken_particles(moves, frozenset({"민수"}), frozenset(), True) == moves


def test_a_time_word_takes_the_topic_particle_once():
    pair = _pair([("내일",), ("민수", "는"), ("아침", "에"), ("학교", "에"), ("가", "요"), (".",)],
                 ["Minsu", "goes", "to", "school", "tomorrow", "morning", "."],
                 [(1,), (4,), (3,), (3,), (0,), (2,), (5,)])
    topic = spoken_particles(pair, frozenset({"민수", "학교"}), TIME_TEXTS, False)
    assert topic.source_text == "내일은 민수는 아침에 학교에 가요."
    assert aligned_words(topic)["tomorrow"] == {"내일은"}
    spring = _pair([("봄", "에"), ("꽃", "이"), ("펴", "요"), (".",)], ["Flowers", "bloom", "in", "the", "spring", "."],
                   [(1,), (2,), (0,), (), (0,), (3,)])
    assert spoken_particles(spring, frozenset({"꽃"}), TIME_TEXTS, False).source_text == "봄에는 꽃이 펴요."


def test_a_place_takes_에는_only_before_있다_or_없다():
    there = _pair([("학교", "에"), ("사과", "가"), ("있", "어요"), (".",)],
                  ["There", "is", "an", "apple", "at", "the", "school", "."],
                  [(2,), (2,), (), (1,), (0,), (), (0,), (3,)])
    assert spoken_particles(there, frozenset({"학교", "사과"}), TIME_TEXTS, False).source_text == \
        "학교에는 사과가 있어요."
    goes = _pair([("학교", "에"), ("가", "요"), (".",)], ["I", "go", "to", "the", "school", "."],
                 [(), (1,), (0,), (), (0,), (2,)])
    assert spoken_particles(goes, frozenset({"학교"}), TIME_TEXTS, False) == goes


def test_words_that_only_end_like_a_time_word_keep_their_form():
    """명밖에 ends in 에 but is no time word; 오랜만에 is one that takes no 는."""
    assert "명밖에" not in TIME_TEXTS and "밖에" not in TIME_TEXTS and "오랜만에" not in TIME_TEXTS
    assert {"내일", "어제", "오늘", "봄에", "주말에", "장마철에"} <= TIME_TEXTS


def test_the_stream_says_some_particles_and_drops_others():
    """Learner9's own stream holds both 사과를 먹고 싶어요 and 사과 먹고 싶어요 (SPOKEN_SHARE), 내일 and 내일은."""
    grammar = Learner9Grammar(9)
    before_want = [text.split()[text.split().index(next(w for w in text.split() if w.endswith("고"))) - 1]
                   for text in (grammar.sample("polite", kind="desire").source_text for _ in range(600))
                   if " 싶" in text and len(text.split()) > 3]
    kept = sum(word.endswith(("을", "를")) for word in before_want)
    dropped = sum(not word.endswith(("을", "를", "에", "에서", "는", "은", "이", "가", "도", "만", "안", "못"))
                  for word in before_want)
    assert 0 < dropped < kept
    texts = [p.source_text for p in generate_pairs(4000, seed=9, grammar="learner9")]
    assert any(t.startswith("내일은 ") for t in texts) and any(t.startswith("내일 ") for t in texts)


# --- each construction's Korean and English, written out by hand ----------------------------------------------------

class ChosenWords(ChosenWordsMixin, Learner9Grammar):
    """Learner9Grammar with its words chosen (grammar_checks.ChosenWords)."""


EAT = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"])
END = dict(EAT, intransitive=[("끝나", "end")], nouns=["사과", "회의"])
DRINK = dict(transitive=[("마시", "drink")], nouns=["커피", "차"])
LIKE = dict(transitive=[("좋아하", "like")], nouns=["딸기", "사과", "봄"])
OWNED = dict(transitive=[("예약하", "reserve"), ("찾", "find"), ("잃어버리", "lose"), ("사", "buy"),
                         ("가져오", "bring")], nouns=["표", "사과"])


@pytest.mark.parametrize(("kind", "fields", "register", "korean", "english"), [
    ("what_time", EAT, "polite", "민수는 몇 시에 학교에 가요?", "What time does Minsu go to the school?"),
    ("what_time", EAT, "polite", "민수는 몇 시에 사과를 먹었어요?", "What time did Minsu eat an apple?"),
    ("what_time", EAT, "polite", "민수는 몇 시에 사과 먹었어요?", "What time did Minsu eat an apple?"),
    ("what_time", END, "polite", "회의가 몇 시에 끝나요?", "What time does the meeting end?"),
    ("what_floor", dict(EAT, places=["도서관"]), "polite", "도서관은 몇 층에 있어요?", "What floor is the library on?"),
    ("only_neg", EAT, "polite", "민수는 사과가 두 개밖에 없어요.", "Minsu has only two apples."),
    ("only_neg", EAT, "polite", "민수는 한 시간밖에 없어요.", "Minsu has only one hour."),
    ("only_neg", EAT, "polite", "민수는 사과밖에 안 먹어요.", "Minsu only eats apples."),
    ("only_neg", EAT, "banmal", "민수는 사과밖에 안 먹었어.", "Minsu only ate apples."),
    ("not_at_all", dict(EAT, adjectives=["바쁘"]), "polite", "그는 하나도 안 바빠요.", "He is not busy at all."),
    ("not_at_all", dict(EAT, adjectives=["바쁘"]), "polite", "민수는 사과가 하나도 없어요.",
     "Minsu has no apples at all."),
    ("nobody", EAT, "polite", "학교에 아무도 없어요.", "There is nobody at the school."),
    ("nobody", dict(EAT, places=["집"]), "polite", "집에 아무도 없었어요.", "There was nobody at home."),
    ("nobody", EAT, "polite", "민수는 아무것도 안 먹었어요.", "Minsu did not eat anything."),
    ("nobody", EAT, "formal", "민수는 아무것도 안 먹을 것입니다.", "Minsu will not eat anything."),
    ("set_phrase", EAT, "polite", "안녕하세요.", "Hello."),
    ("set_phrase", EAT, "polite", "감사합니다.", "Thank you."),
    ("set_phrase", EAT, "polite", "안녕히 계세요.", "Goodbye."),
    ("possessive", OWNED, "polite", "강아지 이름이 뭐예요?", "What is the puppy's name?"),
    ("possessive", OWNED, "polite", "동생 생일이 언제예요?", "When is my younger sibling's birthday?"),
    ("possessive", OWNED, "polite", "차 열쇠가 어디 있어요?", "Where is the car key?"),
    ("possessive", OWNED, "polite", "친구 가방이 어디 있어요?", "Where is my friend's bag?"),
    ("possessive", OWNED, "polite", "민수는 비행기 표를 예약했어요.", "Minsu reserved a plane ticket."),
    ("possessive", OWNED, "polite", "민수는 집 열쇠를 잃어버렸어요.", "Minsu lost the house key."),
    ("instead_of", DRINK, "polite", "민수는 커피 말고 차를 마셔요.", "Minsu drinks tea instead of coffee."),
    ("instead_of", DRINK, "polite", "커피 말고 차를 마시자.", "Let's drink tea instead of coffee."),
    ("instead_of", DRINK, "polite", "민수는 커피 말고 차 마셔요?", "Does Minsu drink tea instead of coffee?"),
    ("among_most", LIKE, "polite", "민수는 과일 중에서 딸기를 제일 좋아해요.",
     "Minsu likes strawberries the most among fruits."),
    ("among_most", LIKE, "polite", "민수는 과일 중에서 뭐를 제일 좋아해요?",
     "What does Minsu like the most among fruits?"),
    ("among_most", LIKE, "polite", "민수는 계절 중에서 봄을 제일 좋아해요.",
     "Minsu likes spring the most among seasons."),
    ("which", EAT, "polite", "민수는 어떤 사과를 먹었어요?", "What kind of apple did Minsu eat?"),
    ("which", EAT, "polite", "민수는 무슨 사과를 먹었어요?", "What kind of apple did Minsu eat?"),
    ("which", EAT, "polite", "민수는 어느 사과를 먹었어요?", "Which apple did Minsu eat?"),
])
def test_each_new_construction_writes_the_korean_and_english_a_teacher_writes(kind, fields, register, korean,
                                                                             english):
    pairs = written(ChosenWords(1, **fields), kind, (register,), n=1500)
    assert (korean, english) in pairs


def test_a_name_is_never_asked_of_someone_named():
    """민수 이름이 뭐예요? names Minsu while asking his name: names own bags and birthdays, not names."""
    pairs = written(ChosenWords(2, **OWNED), "possessive", ("polite",), n=1500)
    assert ("민수 생일이 언제예요?", "When is Minsu's birthday?") in pairs
    assert not [k for k, _ in pairs if k.startswith(("민수 이름", "지수 이름"))]
    assert not [k for k, _ in pairs if k.startswith(("강아지 가방", "고양이 전화번호", "고양이 열쇠"))]


@pytest.mark.parametrize(("kind", "fields", "korean", "expected"), [
    ("what_time", EAT, "민수는 몇 시에 학교에 가요?",
     {"What": {"몇"}, "time": {"시에"}, "does": {"가요"}, "Minsu": {"민수는"}, "go": {"가요"}, "school": {"학교에"}}),
    ("what_floor", dict(EAT, places=["도서관"]), "도서관은 몇 층에 있어요?",
     {"What": {"몇"}, "floor": {"층에"}, "is": {"있어요"}, "library": {"도서관은"}, "on": {"층에"}}),
    ("only_neg", EAT, "민수는 사과가 두 개밖에 없어요.",
     {"has": {"없어요"}, "only": {"개밖에"}, "two": {"두"}, "apples": {"사과가", "개밖에"}}),
    ("only_neg", EAT, "민수는 사과밖에 안 먹어요.", {"only": {"사과밖에"}, "eats": {"먹어요"}, "apples": {"사과밖에"}}),
    ("not_at_all", dict(EAT, adjectives=["바쁘"]), "민수는 사과가 하나도 없어요.",
     {"has": {"없어요"}, "no": {"없어요"}, "apples": {"사과가"}, "at": {"하나도"}, "all": {"하나도"}}),
    ("nobody", EAT, "학교에 아무도 없어요.",
     {"There": {"없어요"}, "is": {"없어요"}, "nobody": {"아무도"}, "at": {"학교에"}, "school": {"학교에"}}),
    ("nobody", EAT, "민수는 아무것도 안 먹었어요.",
     {"did": {"먹었어요"}, "not": {"안"}, "eat": {"먹었어요"}, "anything": {"아무것도"}}),
    ("possessive", OWNED, "강아지 이름이 뭐예요?",
     {"What": {"뭐예요"}, "is": {"뭐예요"}, "the": {"강아지"}, "puppy's": {"강아지"}, "name": {"이름이"}}),
])
def test_the_gold_alignment_points_each_english_word_at_its_korean_word(kind, fields, korean, expected):
    grammar = ChosenWords(4, **fields)
    pair = next(p for p in (grammar.sample("polite", kind=kind) for _ in range(6000)) if p.source_text == korean)
    links = aligned_words(pair)
    assert {word: links[word] for word in expected} == expected


# --- the new lexicon entries ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("noun", "stem", "polite", "past", "plain"), [
    ("허리", "아프", "허리가 아파요", "허리가 아팠어요", "허리가 아프다"),
    ("살", "빠지", "살이 빠져요", "살이 빠졌어요", "살이 빠진다"),
    ("살", "찌", "살이 쪄요", "살이 쪘어요", "살이 찐다"),
    ("피아노", "치", "피아노를 쳐요", "피아노를 쳤어요", "피아노를 친다"),
    ("기타", "치", "기타를 쳐요", "기타를 쳤어요", "기타를 친다"),
    ("다리", "다치", "다리를 다쳐요", "다리를 다쳤어요", "다리를 다친다"),
    ("팔", "다치", "팔을 다쳐요", "팔을 다쳤어요", "팔을 다친다"),
])
def test_the_new_collocations_conjugate_as_a_textbook_writes_them(noun, stem, polite, past, plain):
    lexicon = grammar_lexicon("learner9")
    entry = next(e for e in lexicon.fixed_subject + lexicon.fixed_object if (e.noun, e.stem) == (noun, stem))

    def said(tense, register):
        return " ".join("".join(w) for w in fixed_subject_words(entry, tense, False, False, register)[0])

    assert [said("present", "polite"), said("past", "polite"), said("present", "plain")] == [polite, past, plain]


def test_the_new_entries_were_missing_from_learner8():
    before, after = grammar_lexicon("learner8"), grammar_lexicon("learner9")
    nouns = {n.ko for n in after.common_nouns + after.places} - {n.ko for n in before.common_nouns + before.places}
    assert nouns == {"경제학", "채식주의자", "군대"}
    added = {(e.noun, e.stem) for e in after.fixed_subject + after.fixed_object} - {
        (e.noun, e.stem) for e in before.fixed_subject + before.fixed_object}
    assert added == {("허리", "아프"), ("살", "빠지"), ("살", "찌"), ("피아노", "치"), ("기타", "치"), ("다리", "다치"),
                     ("팔", "다치")}


# --- the vocabulary, the tokenizer, the grammar's invariants ---------------------------------------------------------

def test_the_learner9_vocabulary_holds_its_constructions_new_pieces():
    """(ids kept, new tokens sorted, pairs typed back: tests/test_grammar_rounds.py)"""
    learner8, learner9 = ko_en_vocabulary(grammar="learner8"), ko_en_vocabulary(grammar="learner9")
    assert learner9[:LEARNER8_VOCABULARY_SIZE] == learner8
    assert {"아무도", "아무것도", "하나도", "안녕하세요", "Hello", "nobody", "anything", "puppy's"} <= set(
        learner9[len(learner8):])


@pytest.mark.parametrize("kind", [*NEW_KINDS, "desire", "exist", "request"])
def test_every_new_construction_reads_back_in_every_register(kind):
    grammar, tokenizer = Learner9Grammar(3), _tokenizer()
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        assert_pair_reads_back(grammar.sample(register, kind=kind), tokenizer, vocab)


def test_learner9_is_a_grammar_of_its_own():
    assert type(ko_en_grammar(0, "learner9")) is Learner9Grammar and "learner9" in EXTENDED_GRAMMARS
    assert list(Learner9Grammar.KINDS)[:len(Learner8Grammar.KINDS)] == list(Learner8Grammar.KINDS)
    assert NEW_KINDS == ["what_time", "what_floor", "only_neg", "not_at_all", "nobody", "set_phrase", "possessive",
                         "instead_of", "among_most"]
    assert Learner9Grammar.TYPED_CUT


def test_the_new_constructions_are_a_modest_share_of_the_stream():
    """About a fifteenth of the sentences (learner8's five kinds were 4.8 %); the spoken particles change about a
    third of all pairs without changing their English."""
    new = sum(Learner9Grammar.KINDS[kind] for kind in NEW_KINDS)
    assert (new, sum(Learner9Grammar.KINDS.values())) == (20, 309)  # 6.5 %


NEW_SENTENCES = ("민수는 몇 시에 학교에 가요?", "도서관은 몇 층에 있어요?", "민수는 사과가 두 개밖에 없어요.",
                 "민수는 사과밖에 안 먹어요.", "그는 하나도 안 바빠요.", "집에 아무도 없어요.",
                 "민수는 아무것도 안 먹었어요.",
                 "안녕하세요.", "감사합니다.", "강아지 이름이 뭐예요?", "차 열쇠가 어디 있어요?", "내일은 학교에 가요.",
                 "민수는 사과 먹어요.", "민수는 커피 말고 차를 마셔요.", "저는 과일 중에서 딸기를 제일 좋아해요.",
                 "어떤 음식을 좋아해요?")


def test_the_learner9_recogniser_reads_the_new_constructions():
    """Typed sentences of the new constructions (written here): learner9's tokenizer and recogniser know each."""
    assert unread_sentences(NEW_SENTENCES, "learner9") == []


def test_learner8_names_the_new_words_unknown():
    tokenizer = build_ko_en_tokenizer(grammar="learner8")
    for sentence in ("안녕하세요.", "집에 아무도 없어요.", "민수는 아무것도 안 먹었어요."):
        assert tokenizer.unk_token in tokenizer.tokenize(sentence), sentence
