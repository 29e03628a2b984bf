"""Grammar "learner4": the learner3 grammar plus the beginner syllabus's items it still lacked: -겠- (I will; Will you
...?), -(으)ㄹ게요 (I will, a promise), -기 때문에 (because), -고 나서 (after V-ing), -게 되다 (came to V), -기로 하다
(decided to V), -(으)ㄴ/는/(으)ㄹ 것 같다 (I think ...), -는데 / -(으)ㄴ데 (..., but), -지요? (..., right?), -네요 and
-아/어 있다 (문이 열려 있어요 -> The door is open), N보다 (더) ADJ and PLACE에서 제일/가장 ADJ.
Grammar "learner3" is exactly as it was on main."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.grammar_checks import ChosenWords as ChosenWordsMixin
from tests.grammar_checks import aligned_words, assert_pair_reads_back, stream_sha256, vocabulary_sha256, written
from transformer_core.data.ko_en import EXTENDED_GRAMMARS
from transformer_core.data.ko_en_everyday import Learner3Grammar, Learner4Grammar, ko_en_grammar
from transformer_core.data.ko_en_forms import (
    english_degree,
    eu_class,
    ge_word,
    gess_word,
    giro_word,
    grammar_lexicon,
    learner3_lexicon,
    neunde_word,
    neyo_word,
    seem_adnominal,
    tag_word,
    will_word,
)
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

REPO = Path(__file__).resolve().parents[1]
NEW_KINDS = [kind for kind in Learner4Grammar.KINDS if kind not in Learner3Grammar.KINDS]

# Measured on this branch's base (10ad64c, before grammar learner4): sha256 of json.dumps([[source, target,
# alignment] ...], ensure_ascii=False) of generate_pairs(300, seed=4, grammar="learner3"), and of the learner3
# vocabulary joined by newlines.
LEARNER3_STREAM_SHA256 = "45e5a67f6664b706573bbd413ed30f86af7a1e2ee036ec7fa69245568105884c"
LEARNER3_VOCABULARY_SHA256 = "a629b2e802e34f9903668206b96255d35add11d2da70e0ee155f8e8668fc95b7"
LEARNER3_VOCABULARY_SIZE = 14254


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner4")


# --- grammar "learner3" is untouched -----------------------------------------------------------------------------

def test_the_learner3_stream_and_vocabulary_are_those_of_main():
    assert stream_sha256("learner3", n=300) == LEARNER3_STREAM_SHA256
    vocabulary = ko_en_vocabulary(grammar="learner3")
    assert len(vocabulary) == LEARNER3_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER3_VOCABULARY_SHA256


# --- each construction's sentences written out by hand -------------------------------------------------------------

class ChosenWords(ChosenWordsMixin, Learner4Grammar):
    """Learner4Grammar with its words chosen (grammar_checks.ChosenWords)."""


EAT = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"])
HEAR = dict(transitive=[("듣", "hear")], nouns=["음악"])
MAKE = dict(transitive=[("만들", "make")], nouns=["케이크"])
CALL = dict(intransitive=[("전화하", "call")])
TIRED = dict(adjectives=["피곤하"], motion=["가"], places=["학교"])
BIG = dict(adjectives=["크"], names=["민수", "지수"])
RAIN = dict(transitive=[("먹", "eat")], nouns=["사과", "폭우", "시험"], motion=["가"], places=["학교"])


@pytest.mark.parametrize(("kind", "fields", "first", "register", "korean", "english"), [
    ("intend", EAT, "", "polite", "사과를 먹겠어요.", "I will eat an apple."),
    ("intend", EAT, "", "formal", "저는 사과를 먹겠습니다.", "I will eat an apple."),
    ("intend", EAT, "", "polite", "사과를 먹겠어요?", "Will you eat an apple?"),
    ("intend", CALL, "", "formal", "제가 전화하겠습니다.", "I will call."),
    ("predict", dict(nouns=["날씨"], adjectives=["춥"]), "", "polite", "날씨가 춥겠어요.", "The weather will be cold."),
    ("predict", dict(nouns=["날씨"], adjectives=["따뜻하"]), "", "formal", "날씨가 따뜻하겠습니까?",
     "Will the weather be warm?"),
    ("predict", dict(nouns=["날씨"], adjectives=["덥"]), "", "plain", "날씨는 덥겠다.", "The weather will be hot."),
    ("promise", CALL, "", "polite", "제가 전화할게요.", "I will call."),
    ("promise", EAT, "", "polite", "사과를 먹을게요.", "I will eat an apple."),
    ("promise", HEAR, "", "polite", "음악을 들을게요.", "I will hear music."),
    ("promise", MAKE, "", "polite", "우리가 케이크를 만들게요.", "We will make a cake."),
    ("promise", dict(motion=["가"], places=["학교"]), "", "banmal", "나는 학교에 갈게.", "I will go to the school."),
    ("because", EAT, "먹", "polite", "사과를 먹었기 때문에 학교에 갔어요.",
     "Because I ate an apple , I went to the school."),
    ("because", EAT, "먹", "polite", "사과를 먹기 때문에 학교에 가요.", "Because I eat an apple , I go to the school."),
    ("because", EAT, "먹", "polite", "그는 사과를 먹었기 때문에 학교에 갔어요.",
     "Because he ate an apple , he went to the school."),
    ("after_doing", EAT, "먹", "polite", "민수는 사과를 먹고 나서 학교에 갔어요.",
     "Minsu went to the school after eating an apple."),
    ("after_doing", EAT, "먹", "plain", "민수는 사과를 먹고 나서 학교에 갈 것이다.",
     "Minsu will go to the school after eating an apple."),
    ("came_to", EAT, "", "polite", "민수는 사과를 먹게 됐어요.", "Minsu came to eat an apple."),
    ("came_to", MAKE, "", "plain", "민수는 케이크를 만들게 될 것이다.", "Minsu will come to make a cake."),
    ("decided", EAT, "", "polite", "민수는 사과를 먹기로 했어요.", "Minsu decided to eat an apple."),
    ("decided", dict(motion=["가"], places=["학교"]), "", "polite", "민수는 학교에 가기로 했어요?",
     "Did Minsu decide to go to the school?"),
    ("decided", dict(transitive=[("공부하", "study")], nouns=["한국어"]), "", "formal",
     "민수는 한국어를 공부하기로 했습니다.", "Minsu decided to study Korean."),
    ("seems", EAT, "", "polite", "민수는 사과를 먹는 것 같아요.", "I think Minsu eats an apple."),
    ("seems", EAT, "", "polite", "민수는 사과를 먹은 것 같아요.", "I think Minsu ate an apple."),
    ("seems", EAT, "", "formal", "민수는 사과를 먹을 것 같습니다.", "I think Minsu will eat an apple."),
    ("seems", HEAR, "", "polite", "민수는 음악을 들은 것 같아요.", "I think Minsu heard music."),
    ("seems", MAKE, "", "polite", "민수는 케이크를 만드는 것 같아요.", "I think Minsu makes a cake."),
    ("background", TIRED, "", "polite", "민수는 피곤했는데 민수는 학교에 갔어요.",
     "Minsu was tired , but Minsu went to the school."),
    ("background", EAT | TIRED, "", "polite", "민수는 사과를 먹었는데 민수는 피곤해요.",
     "Minsu ate an apple , but Minsu is tired."),
    ("tag", EAT, "", "polite", "민수는 사과를 먹었지요?", "Minsu ate an apple , right?"),
    ("tag", dict(motion=["가"], places=["학교"]), "", "polite", "민수는 학교에 가죠?",
     "Minsu goes to the school , right?"),
    ("exclaim", MAKE, "", "polite", "민수는 케이크를 만드네요.", "Minsu makes a cake."),
    ("exclaim", EAT, "", "polite", "민수는 사과를 먹었네요.", "Minsu ate an apple."),
    ("exclaim", TIRED, "", "polite", "민수는 피곤하네요.", "Minsu is tired."),
    ("state", dict(intransitive=[("열리", "open")], nouns=["문"]), "", "polite", "문이 열려 있어요.",
     "The door is open."),
    ("state", dict(intransitive=[("닫히", "close")], nouns=["창문"]), "", "polite", "창문은 닫혀 있었어요.",
     "The window was closed."),
    ("state", dict(intransitive=[("닫히", "close")], nouns=["냉장고"]), "", "formal", "냉장고가 닫혀 있습니까?",
     "Is the refrigerator closed?"),
    ("state", dict(intransitive=[("꺼지", "go out")], nouns=["전등"]), "", "polite", "전등이 꺼져 있어요.",
     "The light is off."),
    ("state", dict(intransitive=[("꺼지", "go out")], nouns=["양초"]), "", "polite", "양초가 꺼져 있어요.",
     "The candle is out."),
    ("state", dict(intransitive=[("앉", "sit")]), "", "polite", "민수는 앉아 있어요.", "Minsu is sitting."),
    ("state", dict(intransitive=[("서", "stand")]), "", "formal", "민수는 서 있습니다.", "Minsu is standing."),
    ("state", dict(intransitive=[("눕", "lie down")]), "", "polite", "민수는 누워 있어요?", "Is Minsu lying down?"),
    ("because_of", RAIN, "", "polite", "민수는 폭우 때문에 학교에 갔어요.",
     "Minsu went to the school because of the heavy rain."),
    ("because_of", RAIN, "", "formal", "민수는 시험 때문에 사과를 먹을 것입니다.",
     "Minsu will eat an apple because of the exam."),
    ("compare", BIG, "", "polite", "민수는 지수보다 더 커요.", "Minsu is bigger than Jisu."),
    ("compare", BIG, "", "polite", "민수는 지수보다 커요.", "Minsu is bigger than Jisu."),
    ("compare", BIG, "", "formal", "민수는 지수보다 더 컸습니까?", "Was Minsu bigger than Jisu?"),
    ("compare", BIG | dict(nouns=["학생"]), "", "polite", "민수는 학생보다 더 커요.",
     "Minsu is bigger than the student."),
    ("compare", dict(adjectives=["피곤하"], names=["민수", "지수"]), "", "polite", "민수는 지수보다 더 피곤해요.",
     "Minsu is more tired than Jisu."),
    ("compare", dict(adjectives=["귀엽"], names=["민수", "지수"]), "", "polite", "민수는 지수보다 더 귀여워요.",
     "Minsu is cuter than Jisu."),
    ("compare", dict(adjectives=["바쁘"], names=["민수", "지수"]), "", "plain", "민수는 지수보다 더 바빴다.",
     "Minsu was busier than Jisu."),
    ("most", BIG | dict(places=["서울"]), "", "polite", "민수는 서울에서 제일 커요.",
     "Minsu is the biggest in Seoul."),
    ("most", dict(adjectives=["피곤하"], places=["한국"]), "", "polite", "민수는 한국에서 가장 피곤해요.",
     "Minsu is the most tired in Korea."),
    ("most", dict(adjectives=["좋"], places=["서울"]), "", "polite", "민수는 서울에서 제일 좋아요?",
     "Is Minsu the best in Seoul?"),
])
def test_each_new_construction_writes_the_korean_and_english_a_teacher_writes(kind, fields, first, register, korean,
                                                                             english):
    assert (korean, english) in written(ChosenWords(1, first, **fields), kind, (register,))


@pytest.mark.parametrize(("kind", "fields", "first", "korean", "expected"), [
    ("intend", EAT, "", "사과를 먹겠어요?",
     {"Will": {"먹겠어요"}, "you": set(), "eat": {"먹겠어요"}, "apple": {"사과를"}}),
    ("promise", CALL, "", "제가 전화할게요.", {"I": {"제가"}, "will": {"전화할게요"}, "call": {"전화할게요"}}),
    ("predict", dict(nouns=["날씨"], adjectives=["춥"]), "", "날씨가 춥겠어요.",
     {"The": set(), "weather": {"날씨가"}, "will": {"춥겠어요"}, "be": {"춥겠어요"}, "cold": {"춥겠어요"}}),
    ("because", EAT, "먹", "사과를 먹었기 때문에 학교에 갔어요.",
     {"Because": {"때문에"}, "ate": {"먹었기"}, "apple": {"사과를"}, ",": set(), "went": {"갔어요"},
      "school": {"학교에"}}),
    ("after_doing", EAT, "먹", "민수는 사과를 먹고 나서 학교에 갔어요.",
     {"Minsu": {"민수는"}, "went": {"갔어요"}, "after": {"나서"}, "eating": {"먹고"}, "apple": {"사과를"}}),
    ("came_to", EAT, "", "민수는 사과를 먹게 됐어요.", {"came": {"됐어요"}, "to": {"먹게"}, "eat": {"먹게"}}),
    ("decided", EAT, "", "민수는 사과를 먹기로 했어요.", {"decided": {"했어요"}, "to": {"먹기로"}, "eat": {"먹기로"}}),
    ("seems", EAT, "", "민수는 사과를 먹은 것 같아요.",
     {"I": {"같아요"}, "think": {"것", "같아요"}, "Minsu": {"민수는"}, "ate": {"먹은"}, "apple": {"사과를"}}),
    ("tag", EAT, "", "민수는 사과를 먹었지요?", {"ate": {"먹었지요"}, ",": set(), "right": {"먹었지요"}, "?": {"?"}}),
    ("exclaim", TIRED, "", "민수는 피곤하네요.", {"is": {"피곤하네요"}, "tired": {"피곤하네요"}}),
    ("state", dict(intransitive=[("열리", "open")], nouns=["문"]), "", "문이 열려 있어요.",
     {"The": set(), "door": {"문이"}, "is": {"있어요"}, "open": {"열려"}}),
    ("state", dict(intransitive=[("눕", "lie down")]), "", "민수는 누워 있어요?",
     {"Is": {"있어요"}, "Minsu": {"민수는"}, "lying": {"누워"}, "down": {"누워"}}),
    ("because_of", RAIN, "", "민수는 폭우 때문에 학교에 갔어요.",
     {"went": {"갔어요"}, "because": {"때문에"}, "of": {"때문에"}, "heavy": {"폭우"}, "rain": {"폭우"}}),
    ("compare", BIG, "", "민수는 지수보다 더 커요.",
     {"is": {"커요"}, "bigger": {"커요", "더"}, "than": {"지수보다"}, "Jisu": {"지수보다"}}),
    ("compare", dict(adjectives=["피곤하"], names=["민수", "지수"]), "", "민수는 지수보다 피곤해요.",
     {"is": {"피곤해요"}, "more": {"피곤해요"}, "tired": {"피곤해요"}, "than": {"지수보다"}}),
    ("most", dict(adjectives=["피곤하"], places=["한국"]), "", "민수는 한국에서 가장 피곤해요.",
     {"is": {"피곤해요"}, "most": {"가장"}, "tired": {"피곤해요"}, "in": {"한국에서"}, "Korea": {"한국에서"}}),
    ("most", BIG | dict(places=["서울"]), "", "민수는 서울에서 제일 커요.",
     {"is": {"커요"}, "biggest": {"커요", "제일"}, "in": {"서울에서"}}),
])
def test_the_gold_alignment_points_each_english_word_at_its_korean_word(kind, fields, first, korean, expected):
    grammar = ChosenWords(4, first, **fields)
    pair = next(p for p in (grammar.sample("polite", kind=kind) for _ in range(600)) if p.source_text == korean)
    links = aligned_words(pair)
    assert {word: links[word] for word in expected} == expected


def test_neunde_joins_two_clauses_with_but_aligned_to_its_word():
    grammar = ChosenWords(5, **(EAT | TIRED))
    pair = next(p for p in (grammar.sample("polite", kind="background") for _ in range(600))
                if p.source_text == "민수는 사과를 먹었는데 민수는 피곤해요.")
    links = aligned_words(pair)
    assert {word: links[word] for word in ("ate", ",", "but", "is", "tired")} == {
        "ate": {"먹었는데"}, ",": set(), "but": {"먹었는데"}, "is": {"피곤해요"}, "tired": {"피곤해요"}}


def test_neither_the_promise_nor_the_intention_is_said_of_someone_else():
    grammar = Learner4Grammar(6)
    for _ in range(300):
        for kind in ("intend", "promise"):
            pair = grammar.sample(kind=kind)
            subject = pair.target[1] if pair.target[0] == "Will" else pair.target[0]
            assert subject in ({"you"} if pair.target[0] == "Will" else {"I", "We"}), pair.target_text


def test_the_exclamation_is_never_of_oneself():
    grammar = Learner4Grammar(7)
    for _ in range(400):
        pair = grammar.sample(kind="exclaim")
        assert pair.target[0] not in ("I", "We") and pair.source_words[0] not in ("나는", "내가", "저는", "제가"), \
            pair.source_text


# --- forms by rule, against forms written out here ---------------------------------------------------------------

@pytest.mark.parametrize(("stem", "gess", "will", "neunde", "neunde_past", "neyo", "giro", "ge", "tag_past"), [
    ("먹", "먹겠어요", "먹을게요", "먹는데", "먹었는데", "먹네요", "먹기로", "먹게", "먹었지요"),
    ("가", "가겠어요", "갈게요", "가는데", "갔는데", "가네요", "가기로", "가게", "갔지요"),
    ("만들", "만들겠어요", "만들게요", "만드는데", "만들었는데", "만드네요", "만들기로", "만들게", "만들었지요"),
    ("듣", "듣겠어요", "들을게요", "듣는데", "들었는데", "듣네요", "듣기로", "듣게", "들었지요"),
    ("돕", "돕겠어요", "도울게요", "돕는데", "도왔는데", "돕네요", "돕기로", "돕게", "도왔지요"),
    ("공부하", "공부하겠어요", "공부할게요", "공부하는데", "공부했는데", "공부하네요", "공부하기로", "공부하게",
     "공부했지요"),
])
def test_new_verb_endings_conjugate_as_a_textbook_writes_them(stem, gess, will, neunde, neunde_past, neyo, giro, ge,
                                                              tag_past):
    verb = next(v for v in learner3_lexicon().verbs if v.stem == stem)
    assert "".join(gess_word(stem, "polite")) == gess and "".join(will_word(verb, "polite")) == will
    assert ["".join(neunde_word(verb, t)) for t in ("present", "past")] == [neunde, neunde_past]
    assert "".join(neyo_word(stem, verb.past_stem, "present")) == neyo
    assert "".join(giro_word(stem)) == giro and "".join(ge_word(stem)) == ge
    assert "".join(tag_word(stem, verb.past_stem, "past")) == tag_past


@pytest.mark.parametrize(("stem", "neunde", "neunde_past", "neyo"), [
    ("피곤하", "피곤한데", "피곤했는데", "피곤하네요"), ("춥", "추운데", "추웠는데", "춥네요"),
    ("길", "긴데", "길었는데", "기네요"),
    ("맛있", "맛있는데", "맛있었는데", "맛있네요"), ("바쁘", "바쁜데", "바빴는데", "바쁘네요"),
])
def test_adjectives_take_n_de_and_ne_yo_as_a_textbook_writes_them(stem, neunde, neunde_past, neyo):
    adjective = next(a for a in learner3_lexicon().adjectives if a.stem == stem)
    assert ["".join(neunde_word(adjective, t)) for t in ("present", "past")] == [neunde, neunde_past]
    assert "".join(neyo_word(stem, adjective.past_stem, "present")) == neyo


@pytest.mark.parametrize(("stem", "present", "past", "future"), [
    ("먹", "먹는", "먹은", "먹을"), ("만들", "만드는", "만든", "만들"), ("듣", "듣는", "들은", "들을"),
    ("돕", "돕는", "도운", "도울"), ("공부하", "공부하는", "공부한", "공부할"),
])
def test_the_word_before_geot_gatda_takes_the_adnominal_of_its_tense(stem, present, past, future):
    verb = next(v for v in learner3_lexicon().verbs if v.stem == stem)
    irregular = eu_class(verb, "learner4")
    assert ["".join(seem_adnominal(verb, t, irregular)) for t in ("present", "past", "future")] == [present, past,
                                                                                                  future]


@pytest.mark.parametrize(("adjective", "comparative", "superlative"), [
    ("big", "bigger", "biggest"), ("sad", "sadder", "saddest"), ("happy", "happier", "happiest"),
    ("busy", "busier", "busiest"), ("nice", "nicer", "nicest"), ("cute", "cuter", "cutest"),
    ("quiet", "quieter", "quietest"), ("strong", "stronger", "strongest"), ("good", "better", "best"),
    ("bad", "worse", "worst"), ("tired", "more tired", "most tired"), ("boring", "more boring", "most boring"),
    ("careful", "more careful", "most careful"), ("fluent", "more fluent", "most fluent"),
    ("polite", "more polite", "most polite"), ("cold-hearted", "more cold-hearted", "most cold-hearted"),
])
def test_english_comparatives_and_superlatives_are_an_english_grammars(adjective, comparative, superlative):
    assert [" ".join(words) for words in english_degree(adjective)] == [comparative, superlative]


@pytest.mark.parametrize(("register", "statement", "question"), [
    ("plain", "먹겠다", "먹겠니"), ("polite", "먹겠어요", "먹겠어요"), ("formal", "먹겠습니다", "먹겠습니까"),
    ("banmal", "먹겠어", "먹겠어"),
])
def test_gess_takes_each_speech_levels_ending(register, statement, question):
    assert ["".join(gess_word("먹", register, q)) for q in (False, True)] == [statement, question]


# --- the lexicon's fourth round: the months -------------------------------------------------------------------------

MONTHS = {("일월에",): ("in", "January"), ("이월에",): ("in", "February"), ("삼월에",): ("in", "March"),
          ("사월에",): ("in", "April"), ("오월에",): ("in", "May"), ("유월에",): ("in", "June"),
          ("칠월에",): ("in", "July"), ("팔월에",): ("in", "August"), ("구월에",): ("in", "September"),
          ("시월에",): ("in", "October"), ("십일월에",): ("in", "November"), ("십이월에",): ("in", "December")}


def test_the_fourth_round_adds_the_months_as_time_words_and_nothing_else():
    learner3, learner4 = learner3_lexicon(), grammar_lexicon("learner4")
    assert learner4.entries == learner3.entries + len(MONTHS)
    assert learner4.time_words[:len(learner3.time_words)] == learner3.time_words
    added = learner4.time_words[len(learner3.time_words):]
    assert {word.ko: word.en for word in added} == MONTHS
    assert all(set(word.tenses) == {"past", "present", "future"} for word in added)


def test_a_month_is_said_in_a_sentence_and_aligned_to_its_word():
    grammar = Learner4Grammar(9)
    pair = next(p for p in (grammar.sample("polite") for _ in range(20000)) if "시월에" in p.source_words)
    links = aligned_words(pair)
    assert pair.target_text[:-1].endswith("in October") and links["October"] == links["in"] == {"시월에"}


# --- the vocabulary, the tokenizer -------------------------------------------------------------------------------

def test_the_learner4_vocabulary_grows_by_its_round():
    """(ids kept, new tokens sorted, pairs typed back: tests/test_grammar_rounds.py)"""
    learner3, learner4 = ko_en_vocabulary(grammar="learner3"), ko_en_vocabulary(grammar="learner4")
    assert 0 < len(learner4) - len(learner3) < 250


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_every_new_construction_reads_back_in_every_register(kind):
    grammar, tokenizer = Learner4Grammar(3), _tokenizer()
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        assert_pair_reads_back(grammar.sample(register, kind=kind), tokenizer, vocab)


def test_learner4_is_a_grammar_of_its_own():
    assert type(ko_en_grammar(0, "learner4")) is Learner4Grammar and "learner4" in EXTENDED_GRAMMARS
    assert list(Learner4Grammar.KINDS)[:len(Learner3Grammar.KINDS)] == list(Learner3Grammar.KINDS)


NEW_SENTENCES = ("제가 전화할게요.", "저는 사과를 먹겠어요.", "사과를 먹었기 때문에 학교에 갔어요.",
                 "민수는 사과를 먹고 나서 학교에 갔어요.", "민수는 사과를 먹게 됐어요.", "민수는 학교에 가기로 했어요.",
                 "민수는 사과를 먹은 것 같아요.", "나는 피곤한데 민수는 학교에 갔어요.", "민수는 사과를 먹었지요?",
                 "민수는 케이크를 만드네요.", "민수는 지수보다 더 커요.", "민수는 서울에서 제일 커요.",
                 "민수는 폭우 때문에 학교에 갔어요.", "내일 날씨가 춥겠어요.")
# -아/어 있다 writes a shape learner3's recogniser already knows (an infinitive before 있다): inside under both.
STATE_SENTENCES = ("문이 열려 있어요.", "할머니는 누워 있었어요.", "전등이 꺼져 있습니다.")


def test_the_learner4_recogniser_reads_sentences_learner3_called_outside_its_training():
    """Typed sentences of the new constructions (written here): learner3's tokenizer and recogniser name an unknown
    word or construction in each; learner4's in none."""
    from transformer_core.data.recogniser import outside_word_indices

    for grammar, inside in (("learner3", False), ("learner4", True)):
        tokenizer = build_ko_en_tokenizer(grammar=grammar)
        for sentence in NEW_SENTENCES:
            pieces = tokenizer.convert_ids_to_tokens(tokenizer(sentence)["input_ids"][:-1])
            known = "<unk>" not in pieces and not outside_word_indices(pieces, grammar)
            assert known is inside, (grammar, sentence, pieces)


def test_the_learner4_recogniser_reads_resulting_states():
    from transformer_core.data.recogniser import outside_word_indices

    tokenizer = _tokenizer()
    for sentence in STATE_SENTENCES:
        pieces = tokenizer.convert_ids_to_tokens(tokenizer(sentence)["input_ids"][:-1])
        assert "<unk>" not in pieces and not outside_word_indices(pieces, "learner4"), (sentence, pieces)


def test_a_reason_is_never_a_season():
    grammar = Learner4Grammar(8)
    for _ in range(300):
        pair = grammar.sample(kind="because_of")
        reason = pair.source_words[pair.source_words.index("때문에") - 1]
        assert reason not in ("봄", "여름", "가을", "겨울", "지구온난화"), pair.source_text
