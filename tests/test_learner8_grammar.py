"""Grammar "learner8": the learner7 grammar plus noun-noun compounds a learner says (영어 숙제 -> English homework,
학교 식당 -> school cafeteria, 한국 음식 -> Korean food, 생일 선물 -> birthday present), durations with 동안 (삼 년
동안 -> for 3 years), dates (삼월 오 일에 -> on March 5), reported speech -대요 / -(이)래요 (민수는 바쁘대요 -> Minsu
says that he is busy) and a learner's everyday verbs the lexicon lacked (혼나다, 깨지다, 길을 잃다, 줄을 서다, 시험에
붙다, 배탈이 나다 ...). Grammars learner3 to learner7 are exactly as they were on main. The Korean and English each
construction writes are written out here by hand."""

from __future__ import annotations

from functools import cache

import pytest

from tests.grammar_checks import ChosenWords as ChosenWordsMixin
from tests.grammar_checks import (
    aligned_words,
    assert_conjugated_by_rule,
    assert_pair_reads_back,
    stream_sha256,
    unread_sentences,
    vocabulary_sha256,
    written,
)
from transformer_core.data.ko_en import EXTENDED_GRAMMARS, pronoun_phrase, verb_pieces
from transformer_core.data.ko_en_everyday import Learner7Grammar, Learner8Grammar, ko_en_grammar
from transformer_core.data.ko_en_forms import (
    fixed_subject_words,
    grammar_lexicon,
    reported_copula_word,
    reported_word,
)
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

NEW_KINDS = [kind for kind in Learner8Grammar.KINDS if kind not in Learner7Grammar.KINDS]

# Measured on this branch's base (fef4877, before grammar learner8): sha256 of json.dumps([[source, target,
# alignment] ...], ensure_ascii=False) of generate_pairs(3000, seed=4, grammar=...), and of the learner7 vocabulary
# joined by newlines (the 16,816 tokens a learner7 model has, special tokens not counted).
STREAM_SHA256 = {"learner3": "23e1056255874a1c70bec28c5641a310e588863e884d3739e6a80d60b309af86",
                 "learner4": "ec6117de5874bc050cb2bde8e24e022ff972b195b7280b92034a2ac156b91f2c",
                 "learner5": "ad1d028de978ee6e1c09ab66e811e55b9d42dcd5f322e0d60f93112d557b636c",
                 "learner6": "91d6299706322b7fca1091eb1ab29f15f64d2908dc57f47950e1914e10b4dbbd",
                 "learner7": "cfef8263fe122091281fea609811af570f608a0e2558ea92f645a1ca22616706"}
LEARNER7_VOCABULARY_SHA256 = "e5a8c1d11d4ec961251fde1d25086febb84c40219b5a983116f6db20182fdde2"
LEARNER7_VOCABULARY_SIZE = 16816


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner8")


# --- grammars learner3 to learner7 are untouched --------------------------------------------------------------------

@pytest.mark.parametrize("grammar", ["learner3", "learner4", "learner5", "learner6", "learner7"])
def test_the_earlier_streams_are_those_of_main(grammar):
    assert stream_sha256(grammar) == STREAM_SHA256[grammar]


def test_the_learner7_vocabulary_is_that_of_main():
    vocabulary = ko_en_vocabulary(grammar="learner7")
    assert len(vocabulary) == LEARNER7_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER7_VOCABULARY_SHA256


# --- each construction's Korean and English, written out by hand ----------------------------------------------------

class ChosenWords(ChosenWordsMixin, Learner8Grammar):
    """Learner8Grammar with its words chosen (grammar_checks.ChosenWords); `date`: the (month, day) a date kind
    writes; `typed`: whether a number is typed as digits; `pronoun`: the subject is this pronoun (저는)."""

    def __init__(self, seed: int, first: str = "", date=(3, 5), typed: bool = False, pronoun: str = "",
                 **fields) -> None:
        super().__init__(seed, first, **fields)
        self._date_chosen, self._typed_chosen, self._pronoun = date, typed, pronoun

    def _month_day(self):
        return self._date_chosen

    def _typed(self):
        return self._typed_chosen

    def _subject(self, role=None, person_only=True, drop=0.15, question=False):
        if not self._pronoun:
            return super()._subject(role, person_only, drop, question)
        self._question = question
        return pronoun_phrase(next(p for p in self.lexicon.pronouns if p.topic == self._pronoun), "topic")


# The compounds' verbs (THING_COMPOUNDS, PLACE_COMPOUNDS), all kept: the kind draws its class, then its verb.
COMPOUND = dict(
    transitive=[("하", "do"), ("끝내", "finish"), ("읽", "read"), ("사", "buy"), ("만나", "meet"),
                ("좋아하", "like"), ("먹", "eat"), ("만들", "make"), ("부르", "sing"), ("보", "see"),
                ("받", "receive"), ("쓰", "write")],
    intransitive=[("일하", "work"), ("공부하", "study"), ("놀", "play"), ("운동하", "exercise")], motion=["가"])
STUDY = dict(intransitive=[("공부하", "study")])
EAT = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"])
SAID = dict(transitive=[("먹", "eat")], nouns=["사과", "의사"], adjectives=["바쁘"], names=["민수"])
SAID_JIEUN = dict(SAID, names=["지은"])
STATE = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"],
             adjectives=["피곤하", "배고프"])
COLLOCATIONS = dict(transitive=[("먹", "eat")], nouns=["사과"])


@pytest.mark.parametrize(("kind", "fields", "register", "korean", "english"), [
    ("compound", COMPOUND, "polite", "민수는 영어 숙제를 했어요.", "Minsu did the English homework."),
    ("compound", COMPOUND, "polite", "민수는 수학 숙제를 끝냈어요.", "Minsu finished the math homework."),
    ("compound", COMPOUND, "polite", "민수는 영어 책을 읽을 거예요.", "Minsu will read an English book."),
    ("compound", COMPOUND, "polite", "민수는 음악 선생님을 만났어요.", "Minsu met the music teacher."),
    ("compound", COMPOUND, "polite", "민수는 한국 음식을 좋아해요.", "Minsu likes Korean food."),
    ("compound", COMPOUND, "polite", "민수는 한국 영화를 좋아해요.", "Minsu likes Korean movies."),
    ("compound", COMPOUND, "polite", "민수는 일본 노래를 불렀어요.", "Minsu sang a Japanese song."),
    ("compound", COMPOUND, "polite", "민수는 생일 선물을 샀어요.", "Minsu bought a birthday present."),
    ("compound", COMPOUND, "polite", "민수는 크리스마스 카드를 썼어요.", "Minsu wrote a Christmas card."),
    ("compound", COMPOUND, "polite", "민수는 생일 케이크를 만들 거예요.", "Minsu will make a birthday cake."),
    ("compound", COMPOUND, "polite", "민수는 학교 식당에 갔어요.", "Minsu went to the school cafeteria."),
    ("compound", COMPOUND, "polite", "민수는 학교 도서관에서 공부해요.", "Minsu studies at the school library."),
    ("compound", COMPOUND, "polite", "민수는 과일 가게에서 일했어요.", "Minsu worked at the fruit shop."),
    ("compound", COMPOUND, "polite", "민수는 꽃 가게에 갈 거예요.", "Minsu will go to the flower shop."),
    ("compound", COMPOUND, "formal", "민수는 회사 식당에서 일합니다.", "Minsu works at the company cafeteria."),
    ("compound", COMPOUND, "polite", "민수는 중국 음식을 좋아해요?", "Does Minsu like Chinese food?"),
    ("for_duration", STUDY, "polite", "민수는 삼 년 동안 공부했어요.", "Minsu studied for 3 years."),
    ("for_duration", STUDY, "polite", "민수는 일 년 동안 공부할 거예요.", "Minsu will study for a year."),
    ("for_duration", STUDY, "polite", "민수는 한 달 동안 공부했어요.", "Minsu studied for a month."),
    ("for_duration", STUDY, "polite", "민수는 두 달 동안 공부했어요.", "Minsu studied for two months."),
    ("for_duration", STUDY, "polite", "민수는 일주일 동안 공부했어요.", "Minsu studied for a week."),
    ("for_duration", STUDY, "polite", "민수는 이틀 동안 공부했어요.", "Minsu studied for two days."),
    ("for_duration", STUDY, "polite", "민수는 두 시간 동안 공부해요.", "Minsu studies for two hours."),
    ("for_duration", STUDY, "polite", "민수는 한 시간 동안 공부했어요.", "Minsu studied for an hour."),
    ("for_duration", STUDY, "polite", "민수는 삼십 분 동안 공부했어요.", "Minsu studied for 30 minutes."),
    ("for_duration", dict(STUDY, typed=True), "polite", "민수는 2년 동안 공부했어요.",
     "Minsu studied for 2 years."),
    ("for_duration", dict(STUDY, typed=True), "polite", "민수는 3일 동안 공부했어요.",
     "Minsu studied for 3 days."),
    ("date", EAT, "polite", "민수는 삼월 오 일에 사과를 먹었어요.", "Minsu ate an apple on March 5."),
    ("date", EAT, "polite", "민수는 삼월 오 일에 학교에 갈 거예요.", "Minsu will go to the school on March 5."),
    ("date", dict(EAT, typed=True), "polite", "민수는 3월 5일에 사과를 먹었어요.", "Minsu ate an apple on March 5."),
    ("date", dict(EAT, date=(6, 15)), "polite", "오늘은 유월 십오 일이에요.", "Today is June 15."),
    ("date", dict(EAT, date=(10, 21)), "formal", "오늘은 시월 이십일 일입니다.", "Today is October 21."),
    ("date", dict(EAT, date=(12, 25), typed=True), "polite", "오늘은 12월 25일이에요.", "Today is December 25."),
    ("reported", SAID, "polite", "민수는 바쁘대요.", "Minsu says that he is busy."),
    ("reported", SAID, "polite", "민수가 바쁘대요.", "Minsu says that he is busy."),
    ("reported", SAID, "polite", "민수는 바빴대요.", "Minsu says that he was busy."),
    ("reported", SAID, "banmal", "민수는 바쁘대.", "Minsu says that he is busy."),
    ("reported", SAID, "polite", "민수는 사과를 먹었대요.", "Minsu says that he ate an apple."),
    ("reported", SAID, "polite", "민수는 사과를 먹을 거래요.", "Minsu says that he will eat an apple."),
    ("reported", SAID, "polite", "민수는 의사래요.", "Minsu says that he is a doctor."),
    ("reported", SAID, "polite", "민수는 의사였대요.", "Minsu says that he was a doctor."),
    ("reported", SAID_JIEUN, "polite", "지은은 바쁘대요.", "Jieun says that she is busy."),
    ("reported", SAID, "polite", "그녀는 바쁘대요.", "She says that she is busy."),
    ("reported", SAID, "polite", "그들은 바쁘대요.", "They say that they are busy."),
    ("background_so", STATE, "polite", "민수는 피곤한데 같이 학교에 갈까요?",
     "Minsu is tired , so shall we go to the school together?"),
    ("background_so", STATE, "polite", "민수는 배고픈데 사과를 먹읍시다.", "Minsu is hungry , so let's eat an apple."),
    ("background_so", STATE, "polite", "민수는 배고픈데 사과를 드세요.", "Minsu is hungry , so please eat an apple."),
    ("background_so", STATE, "polite", "비가 오는데 학교에 가지 마세요.",
     "It is raining , so please do not go to the school."),
    ("background_so", STATE, "banmal", "눈이 오는데 같이 학교에 갈까?",
     "It is snowing , so shall we go to the school together?"),
])
def test_each_new_construction_writes_the_korean_and_english_a_teacher_writes(kind, fields, register, korean,
                                                                             english):
    pairs = written(ChosenWords(1, **fields), kind, (register,), n=3000)
    assert (korean, english) in pairs


@pytest.mark.parametrize(("kind", "fields", "korean", "expected"), [
    ("compound", COMPOUND, "민수는 생일 선물을 샀어요.",
     {"Minsu": {"민수는"}, "bought": {"샀어요"}, "a": set(), "birthday": {"생일"}, "present": {"선물을"}}),
    ("compound", COMPOUND, "민수는 학교 식당에 갔어요.",
     {"went": {"갔어요"}, "to": {"식당에"}, "the": set(), "school": {"학교"}, "cafeteria": {"식당에"}}),
    ("compound", COMPOUND, "민수는 한국 영화를 좋아해요.",
     {"likes": {"좋아해요"}, "Korean": {"한국"}, "movies": {"영화를"}}),
    ("for_duration", STUDY, "민수는 삼 년 동안 공부했어요.",
     {"studied": {"공부했어요"}, "for": {"동안"}, "3": {"삼"}, "years": {"년"}}),
    ("for_duration", STUDY, "민수는 두 시간 동안 공부했어요.",
     {"for": {"동안"}, "two": {"두"}, "hours": {"시간"}}),
    ("date", EAT, "민수는 삼월 오 일에 사과를 먹었어요.",
     {"ate": {"먹었어요"}, "apple": {"사과를"}, "on": {"일에"}, "March": {"삼월"}, "5": {"오"}}),
    ("date", EAT, "오늘은 삼월 오 일이에요.",
     {"Today": {"오늘은"}, "is": {"일이에요"}, "March": {"삼월"}, "5": {"오"}}),
    ("reported", SAID, "민수는 바쁘대요.",
     {"Minsu": {"민수는"}, "says": {"바쁘대요"}, "that": {"바쁘대요"}, "he": set(), "is": {"바쁘대요"},
      "busy": {"바쁘대요"}}),
    ("reported", SAID, "민수는 사과를 먹을 거래요.",
     {"says": {"거래요"}, "that": {"거래요"}, "he": set(), "will": {"거래요"}, "eat": {"먹을"}, "apple": {"사과를"}}),
    ("background_so", STATE, "민수는 피곤한데 같이 학교에 갈까요?",
     {"Minsu": {"민수는"}, "is": {"피곤한데"}, "tired": {"피곤한데"}, ",": set(), "so": {"피곤한데"},
      "shall": {"갈까요"}, "go": {"갈까요"}, "school": {"학교에"}, "together": {"같이"}}),
    ("background_so", STATE, "비가 오는데 학교에 가지 마세요.",
     {"It": set(), "is": {"오는데"}, "raining": {"비가", "오는데"}, "so": {"오는데"}, "please": {"마세요"},
      "not": {"마세요"}, "go": {"가지"}}),
    ("reported", SAID, "민수는 의사래요.",
     {"says": {"의사래요"}, "is": {"의사래요"}, "a": set(), "doctor": {"의사래요"}}),
])
def test_the_gold_alignment_points_each_english_word_at_its_korean_word(kind, fields, korean, expected):
    grammar = ChosenWords(4, **fields)
    pair = next(p for p in (grammar.sample("polite", kind=kind) for _ in range(6000)) if p.source_text == korean)
    links = aligned_words(pair)
    assert {word: links[word] for word in expected} == expected


# --- the new lexicon entries in the frames they go in ---------------------------------------------------------------

@pytest.mark.parametrize(("kind", "fields", "register", "korean", "english"), [
    ("sense", dict(COLLOCATIONS, collocations=[("시험", "붙")]), "polite", "민수는 시험에 붙었어요.",
     "Minsu passed the exam."),
    ("sense", dict(COLLOCATIONS, collocations=[("시험", "떨어지")]), "polite", "민수는 시험에 떨어졌어요.",
     "Minsu failed the exam."),
    ("sense", dict(COLLOCATIONS, collocations=[("길", "잃")]), "polite", "민수는 길을 잃었어요.", "Minsu got lost."),
    ("sense", dict(COLLOCATIONS, collocations=[("줄", "서")]), "polite", "민수는 줄을 섰어요.",
     "Minsu stood in line."),
    ("sense", dict(COLLOCATIONS, collocations=[("머리", "감")], pronoun="저는"), "polite", "저는 머리를 감아요.",
     "I wash my hair."),
    ("sense", dict(COLLOCATIONS, collocations=[("머리", "자르")]), "polite", "민수는 머리를 잘랐어요.",
     "Minsu got a haircut."),
    ("sense", dict(COLLOCATIONS, collocations=[("세수", "하")], pronoun="그는"), "polite", "그는 세수를 했어요.",
     "He washed his face."),
    ("sense", dict(COLLOCATIONS, collocations=[("전화", "받")]), "polite", "민수는 전화를 받았어요.",
     "Minsu answered the phone."),
    ("sense", dict(COLLOCATIONS, collocations=[("커피", "타")]), "polite", "민수는 커피를 탈 거예요.",
     "Minsu will make coffee."),
    ("body", dict(COLLOCATIONS, collocations=[("배탈", "나")]), "polite", "민수는 배탈이 났어요.",
     "Minsu had an upset stomach."),
    ("body", dict(COLLOCATIONS, collocations=[("땀", "나")]), "polite", "민수는 땀이 났어요.", "Minsu sweated."),
    ("body", dict(COLLOCATIONS, collocations=[("이", "시리")]), "polite", "민수는 이가 시려요.",
     "Minsu has sensitive teeth."),
])
def test_the_new_collocations_write_the_english_a_teacher_writes(kind, fields, register, korean, english):
    pairs = written(Collocations(1, **fields), kind, (register,), n=1500)
    assert (korean, english) in pairs


class Collocations(ChosenWords):
    """ChosenWords with only the lexicon's fixed_subject and fixed_object entries named by `collocations`."""

    def __init__(self, seed: int, collocations=(), **fields) -> None:
        super().__init__(seed, **fields)
        kept = {name: [e for e in getattr(self.lexicon, name) if (e.noun, e.stem) in collocations]
                for name in ("fixed_subject", "fixed_object")}
        self.lexicon = type(self.lexicon)(**{**self.lexicon.__dict__, **kept})


def test_the_new_free_verbs_go_in_the_frames_their_subjects_allow():
    """혼나다 in the verb frames (here learner6's times): 민수는 세 번 혼났어요 -> Minsu got scolded three times."""
    pairs = written(ChosenWords(2, intransitive=[("혼나", "get scolded")]), "times", ("polite",), n=500)
    assert ("민수는 세 번 혼났어요.", "Minsu got scolded three times.") in pairs


# --- forms by rule, against forms written out here ------------------------------------------------------------------

def _said(words) -> str:
    return " ".join("".join(word) for word in words)


def _entry(stem, en=None):
    lexicon = grammar_lexicon("learner8")
    return next(e for e in lexicon.verbs + lexicon.adjectives
                if e.stem == stem and (en is None or getattr(e, "en_base", getattr(e, "en", None)) == en))


@pytest.mark.parametrize(("stem", "en", "present", "past", "future"), [
    ("먹", "eat", "먹는대요", "먹었대요", "먹을 거래요"),
    ("가", "go", "간대요", "갔대요", "갈 거래요"),
    ("만들", "make", "만든대요", "만들었대요", "만들 거래요"),
    ("공부하", "study", "공부한대요", "공부했대요", "공부할 거래요"),
    ("듣", "hear", "듣는대요", "들었대요", "들을 거래요"),
    ("바쁘", None, "바쁘대요", "바빴대요", None),
    ("피곤하", None, "피곤하대요", "피곤했대요", None),
    ("춥", None, "춥대요", "추웠대요", None),
])
def test_daeyo_is_the_plain_form_with_its_da_made_dae(stem, en, present, past, future):
    entry = _entry(stem, en)
    assert _said(reported_word(entry, "present", "polite")) == present
    assert _said(reported_word(entry, "past", "polite")) == past
    if future:
        assert _said(reported_word(entry, "future", "polite")) == future
    assert _said(reported_word(entry, "present", "banmal")) == present[:-1]


def test_irae_yo_follows_the_nouns_last_sound():
    assert ["".join(reported_copula_word(noun, tense, "polite")) for noun, tense in
            (("학생", "present"), ("의사", "present"), ("학생", "past"), ("의사", "past"))] == [
        "학생이래요", "의사래요", "학생이었대요", "의사였대요"]
    assert "".join(reported_copula_word("의사", "present", "banmal")) == "의사래"


@pytest.mark.parametrize(("noun", "stem", "polite", "past", "formal", "plain"), [
    ("시험", "붙", "시험에 붙어요", "시험에 붙었어요", "시험에 붙습니다", "시험에 붙는다"),
    ("시험", "떨어지", "시험에 떨어져요", "시험에 떨어졌어요", "시험에 떨어집니다", "시험에 떨어진다"),
    ("길", "잃", "길을 잃어요", "길을 잃었어요", "길을 잃습니다", "길을 잃는다"),
    ("줄", "서", "줄을 서요", "줄을 섰어요", "줄을 섭니다", "줄을 선다"),
    ("넥타이", "매", "넥타이를 매요", "넥타이를 맸어요", "넥타이를 맵니다", "넥타이를 맨다"),
    ("시계", "차", "시계를 차요", "시계를 찼어요", "시계를 찹니다", "시계를 찬다"),
    ("머리", "감", "머리를 감아요", "머리를 감았어요", "머리를 감습니다", "머리를 감는다"),
    ("머리", "빗", "머리를 빗어요", "머리를 빗었어요", "머리를 빗습니다", "머리를 빗는다"),
    ("머리", "말리", "머리를 말려요", "머리를 말렸어요", "머리를 말립니다", "머리를 말린다"),
    ("머리", "자르", "머리를 잘라요", "머리를 잘랐어요", "머리를 자릅니다", "머리를 자른다"),
    ("세수", "하", "세수를 해요", "세수를 했어요", "세수를 합니다", "세수를 한다"),
    ("커피", "타", "커피를 타요", "커피를 탔어요", "커피를 탑니다", "커피를 탄다"),
    ("돈", "쓰", "돈을 써요", "돈을 썼어요", "돈을 씁니다", "돈을 쓴다"),
    ("배탈", "나", "배탈이 나요", "배탈이 났어요", "배탈이 납니다", "배탈이 난다"),
    ("이", "시리", "이가 시려요", "이가 시렸어요", "이가 시립니다", "이가 시리다"),
])
def test_the_new_collocations_conjugate_as_a_textbook_writes_them(noun, stem, polite, past, formal, plain):
    lexicon = grammar_lexicon("learner8")
    entry = next(e for e in lexicon.fixed_subject + lexicon.fixed_object if (e.noun, e.stem) == (noun, stem))

    def said(tense, register):
        return _said(fixed_subject_words(entry, tense, False, False, register)[0])

    assert [said("present", "polite"), said("past", "polite"), said("present", "formal"),
            said("present", "plain")] == [polite, past, formal, plain]


@pytest.mark.parametrize(("stem", "en", "polite", "past", "plain"), [
    ("혼나", "get scolded", "혼나요", "혼났어요", "혼난다"),
    ("깨지", "break", "깨져요", "깨졌어요", "깨진다"),
    ("막히", "get jammed", "막혀요", "막혔어요", "막힌다"),
    ("젖", "get wet", "젖어요", "젖었어요", "젖는다"),
    ("긴장되", "get nervous", "긴장돼요", "긴장됐어요", "긴장된다"),
    ("줄어들", "shrink", "줄어들어요", "줄어들었어요", "줄어든다"),
    ("빨", "wash", "빨아요", "빨았어요", "빤다"),
    ("개", "fold", "개요", "갰어요", "갠다"),
    ("널", "hang out", "널어요", "널었어요", "넌다"),
    ("따르", "pour", "따라요", "따랐어요", "따른다"),
])
def test_the_new_verbs_conjugate_as_a_textbook_writes_them(stem, en, polite, past, plain):
    verb = _entry(stem, en)
    assert [_said(verb_pieces(verb, tense, False, False, register)[0]) for tense, register in
            (("present", "polite"), ("past", "polite"), ("present", "plain"))] == [polite, past, plain]


def test_the_new_lexicon_entries_conjugate_by_the_rules_of_their_class():
    """The additions file's entries (the learner8 lexicon's lists past learner7's): 40 or more, each verb's and
    adjective's forms as hangul.py makes them."""
    before, after = grammar_lexicon("learner7"), grammar_lexicon("learner8")
    added = {name: getattr(after, name)[len(getattr(before, name)):]
             for name in ("transitive", "intransitive", "motion", "adjectives", "fixed_subject", "fixed_object")}
    assert sum(map(len, added.values())) >= 40
    assert_conjugated_by_rule(added["transitive"] + added["intransitive"] + added["motion"], added["adjectives"])


def test_the_new_verbs_were_missing_from_learner7():
    """Only words learner7's lexicon lacked (by stem and English sense, or by collocation)."""
    before, after = grammar_lexicon("learner7"), grammar_lexicon("learner8")
    known = {(v.stem, v.en_base) for v in before.verbs}
    new = {(v.stem, v.en_base) for v in after.verbs} - known
    assert {("혼나", "get scolded"), ("깨지", "break"), ("막히", "get jammed"), ("따르", "pour")} <= new
    collocations = {(e.noun, e.stem) for e in before.fixed_subject + before.fixed_object}
    assert not collocations & {(e.noun, e.stem) for e in after.fixed_subject[len(before.fixed_subject):]
                               + after.fixed_object[len(before.fixed_object):]}


# --- the vocabulary, the tokenizer, the grammar's invariants ---------------------------------------------------------

def test_the_learner8_vocabulary_holds_its_constructions_new_pieces():
    """(ids kept, new tokens sorted, pairs typed back: tests/test_grammar_rounds.py)"""
    learner7, learner8 = ko_en_vocabulary(grammar="learner7"), ko_en_vocabulary(grammar="learner8")
    assert learner8[:LEARNER7_VOCABULARY_SIZE] == learner7
    new = {"##대요", "##는대요", "##이래요", "거래요", "이틀", "Today", "혼났", "깨졌", "막혀", "##월"}
    assert new <= set(learner8[len(learner7):])


@pytest.mark.parametrize("kind", [*NEW_KINDS, "sense", "body"])
def test_every_new_construction_reads_back_in_every_register(kind):
    grammar, tokenizer = Learner8Grammar(3), _tokenizer()
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        assert_pair_reads_back(grammar.sample(register, kind=kind), tokenizer, vocab)


def test_learner8_is_a_grammar_of_its_own():
    assert type(ko_en_grammar(0, "learner8")) is Learner8Grammar and "learner8" in EXTENDED_GRAMMARS
    assert list(Learner8Grammar.KINDS)[:len(Learner7Grammar.KINDS)] == list(Learner7Grammar.KINDS)
    assert NEW_KINDS == ["compound", "for_duration", "date", "reported", "background_so"]
    assert Learner8Grammar.TYPED_CUT


def test_the_new_constructions_are_a_modest_share_of_the_stream():
    """About a twentieth of the sentences (learner7's seven kinds were 6.9 %)."""
    new = sum(Learner8Grammar.KINDS[kind] for kind in NEW_KINDS)
    assert (new, sum(Learner8Grammar.KINDS.values())) == (14, 289)  # 4.8 %


NEW_SENTENCES = (
    "저는 영어 숙제를 했어요.", "저는 학교 식당에 갔어요.", "저는 한국 음식을 좋아해요.", "저는 생일 선물을 샀어요.",
    "저는 삼 년 동안 공부했어요.", "저는 두 시간 동안 공부했어요.", "저는 3월 5일에 학교에 갔어요.",
    "오늘은 3월 5일이에요.", "민수는 바쁘대요.", "민수는 의사래요.", "민수는 사과를 먹었대요.",
    "저는 시험에 붙었어요.", "저는 길을 잃었어요.", "저는 줄을 섰어요.", "저는 배탈이 났어요.", "저는 혼났어요.",
    "피곤한데 집에 갈까요?", "비가 오는데 나가지 마세요.")


def test_the_learner8_recogniser_reads_the_new_constructions():
    """Typed sentences of the new constructions (written here): learner8's tokenizer and recogniser know each."""
    assert unread_sentences(NEW_SENTENCES, "learner8") == []


def test_learner7_names_the_new_words_unknown():
    tokenizer = build_ko_en_tokenizer(grammar="learner7")
    for sentence in ("민수는 바쁘대요.", "저는 혼났어요.", "민수는 사과를 먹을 거래요."):
        assert tokenizer.unk_token in tokenizer.tokenize(sentence), sentence
