"""The forms by rule, constants and words of grammar stage learner8 (CompoundsAndDatesGrammar in
constructions_compounds_dates.py): the sixth syllabus round (noun-noun compounds, durations with 동안, dates,
reported speech -대요 / -(이)래요, -는데 of background). Its words: learner8_korean_words / learner8_english_words
(forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import REGISTERS, Word, attach, copula_ending, predicate_word
from transformer_core.grammar.forms_collocations_numbers import digit_word, native_count, sino_words
from transformer_core.grammar.forms_syllabus import future_adnominal_word
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb

# Noun-noun compounds (학교 식당 -> school cafeteria, 영어 숙제 -> English homework): a class of modifiers times a class
# of heads, the first noun modifying the second in both languages (English keeps the Korean order: modifier, head).
# A head: (Korean, English, English plural or "" for a mass noun, its article ("a": a / an, "the", "" none), the
# verbs it is the object of as (stem, English)).
# A modifier: (Korean, English); a country's English is its adjective (한국 음식 -> Korean food).
SUBJECT_MODIFIERS = (("영어", "English"), ("한국어", "Korean"), ("수학", "math"), ("과학", "science"),
                     ("역사", "history"), ("음악", "music"))
COUNTRY_MODIFIERS = (("한국", "Korean"), ("일본", "Japanese"), ("중국", "Chinese"), ("미국", "American"),
                     ("프랑스", "French"), ("이탈리아", "Italian"))
EVENT_MODIFIERS = (("생일", "birthday"), ("크리스마스", "Christmas"))
THING_COMPOUNDS = (
    (SUBJECT_MODIFIERS, (("숙제", "homework", "", "the", (("하", "do"), ("끝내", "finish"))),
                         ("책", "book", "books", "a", (("읽", "read"), ("사", "buy"))),
                         ("선생님", "teacher", "teachers", "the", (("만나", "meet"),)),
                         ("수업", "class", "", "", (("좋아하", "like"),)))),
    (COUNTRY_MODIFIERS, (("음식", "food", "", "", (("먹", "eat"), ("좋아하", "like"), ("만들", "make"))),
                         ("노래", "song", "songs", "a", (("부르", "sing"), ("좋아하", "like"))),
                         ("영화", "movie", "movies", "a", (("보", "see"), ("좋아하", "like"))))),
    (EVENT_MODIFIERS, (("선물", "present", "presents", "a", (("사", "buy"), ("받", "receive"))),
                       ("케이크", "cake", "cakes", "a", (("먹", "eat"), ("만들", "make"), ("사", "buy"))),
                       ("카드", "card", "cards", "a", (("쓰", "write"), ("받", "receive"))))),
)
# Places named by a compound, with what one does there (at the place: 에서; to it: 에 with 가다).
PLACE_COMPOUNDS = (
    ((("학교", "school"),), (("식당", "cafeteria", (("일하", "work"),)),
                            ("도서관", "library", (("공부하", "study"), ("일하", "work"))),
                            ("운동장", "playground", (("놀", "play"), ("운동하", "exercise"))))),
    ((("회사", "company"),), (("식당", "cafeteria", (("일하", "work"),)),)),
    ((("과일", "fruit"), ("꽃", "flower"), ("옷", "clothes"), ("신발", "shoe"), ("채소", "vegetable")),
     (("가게", "shop", (("일하", "work"),)),)),
)
# With 좋아하다 (like) a countable head is plural and bare (likes Korean movies); with the others it takes "a".
GENERIC_VERBS = frozenset({"like"})

# Durations with 동안 (for): the counter, whether its number is native (한 달, 두 시간) or Sino-Korean (삼 년, 십 분),
# the numbers it takes, and its English; a Sino-Korean number is written in digits in English (for 3 years), a
# native one in words (for two months), as learner6's numbers. One of a unit is a / an (일 년 -> a year, 한 달 ->
# a month); 일주일 (a week), 하루 (a day) and 이틀 (two days) are words of their own.
DURING = "동안"
DURATION_UNITS = (("년", "sino", (1, 3, 4, 5, 10), "year"), ("달", "native", (1, 2, 3, 6), "month"),
                  ("주", "sino", (3, 4), "week"), ("일", "sino", (3, 5, 10), "day"),
                  ("시간", "native", (1, 2, 3, 5), "hour"), ("분", "sino", (10, 20, 30), "minute"))
# Digits typed (2년, 2주, 3일 ...): the numbers 이 (2) and 사 (4) read as other words in hangul before 년 and 주 (이
# 년 "this ...", 이 주 "this week"), so 2 is typed only.
TYPED_DURATIONS = {"년": (1, 2, 3, 5, 10), "주": (1, 2, 3), "일": (2, 3, 5, 7, 10), "분": (10, 20, 30)}
DURATION_WORDS = ((("일주일",), ("a", "week")), (("하루",), ("a", "day")), (("이틀",), ("two", "days")))
# What one does for years, months, weeks or days (studied Korean for 3 years; not "slept for 3 years"); for hours and
# minutes any activity (learner6's STILL_VERBS).
LONG_ACTIVITIES = frozenset({("공부하", "study"), ("일하", "work"), ("여행하", "travel"), ("운동하", "exercise"),
                             ("쉬", "rest"), ("배우", "learn")})
LONG_UNITS = ("년", "달", "주", "일")

# Dates: N월 N일 (Sino-Korean: 삼월 오 일 -> March 5; typed 3월 5일); 유월 and 시월 drop the final consonant of 육
# and 십.
MONTHS = (("일월", "January"), ("이월", "February"), ("삼월", "March"), ("사월", "April"), ("오월", "May"),
          ("유월", "June"), ("칠월", "July"), ("팔월", "August"), ("구월", "September"), ("시월", "October"),
          ("십일월", "November"), ("십이월", "December"))
MONTH, DAY = "월", "일"
TODAY = "오늘"

# Reported speech -대요 / -(이)래요 (N says that ...): the plain form's final 다 becomes 대 (먹는다 -> 먹는대요,
# 간다 -> 간대요, 바쁘다 -> 바쁘대요, 먹었다 -> 먹었대요); the copula's 이다 -> 이래요 (학생이래요, 의사래요); the
# future 거예요 -> 거래요 (먹을 거래요). 요 in polite and formal speech, none in banmal and plain (바쁘대).
REPORTED_ENDING, REPORTED_COPULA, REPORTED_FUTURE = "대", "래", "거래"
# Who says it, with the pronoun English repeats in the clause (Minsu says that he ...): names a Korean reads as a
# man's or a woman's (unisex ones left out: 지수, 지민, 수빈, 하늘, 지호), and the third-person pronouns.
NAME_PRONOUNS = {"민수": "he", "준호": "he", "하준": "he", "도윤": "he", "철수": "he", "민준": "he", "태민": "he",
                 "현우": "he", "서준": "he", "우진": "he", "시우": "he", "건우": "he", "지은": "she", "서연": "she",
                 "유나": "she", "영희": "she", "소라": "she", "은비": "she", "민지": "she", "예린": "she",
                 "수아": "she", "하은": "she", "윤서": "she", "다은": "she", "채원": "she"}
# The jobs a -(이)래요 sentence names (민수는 의사래요 -> Minsu says that he is a doctor).
JOBS = ("학생", "의사", "요리사", "가수", "간호사", "군인", "작가", "기자", "변호사", "회사원", "대학생", "선생님")
# The states a -는데 of background gives as the reason for a suggestion or request (피곤한데 집에 갈까요? -> I am
# tired , so shall we go home?): how one feels, not what one is like (not "I am stingy , so ...").
BACKGROUND_STATES = frozenset({"배고프", "바쁘", "피곤하", "아프", "심심하", "졸리", "배부르", "목마르", "한가하"})
LEARNER8_ENGLISH = ("says", "say", "that", "so", ",", "It", "it", "am", "he", "she", "they", "is", "are", "was",
                    "were", "will", "a", "an", "for", "on", "Today", "today", "the", "to", "at")


def reported_word(entry: Verb | Adjective, tense: str, register: str) -> list[Word]:
    """-대요 on a verb or adjective: the plain form with its 다 made 대 (+ 요 in polite and formal speech): 먹 ->
    먹 + 는대요, 가 -> 간 + 대요, 만들 -> 만든 + 대요, 바쁘 -> 바쁘 + 대요, 먹었 + 대요, 공부 + 한 + 대요;
    the future 먹을 거래요."""
    yo = "요" if register in ("polite", "formal") else ""
    if tense == "future":
        if not isinstance(entry, Verb):
            raise ValueError(f"the reported future is a verb's: {entry!r}")
        return [future_adnominal_word(entry), (REPORTED_FUTURE + yo,)]
    action = isinstance(entry, Verb)
    plain = predicate_word(entry.stem, entry.past_stem, "", tense, False, "plain", action)
    *first, last = plain[-1]
    if not last.endswith("다"):
        raise ValueError(f"no plain 다 form to report: {plain!r}")
    return [(*first, last[:-1] + REPORTED_ENDING + yo)]


def reported_copula_word(noun: str, tense: str, register: str) -> Word:
    """-(이)래요 on a noun: 학생 + 이래요, 의사 + 래요; past 학생 + 이었대요, 의사 + 였대요 (요 as reported_word)."""
    yo = "요" if register in ("polite", "formal") else ""
    vowel = hangul.final_consonant(noun) == hangul.FINAL_NONE
    if tense == "past":
        return (noun, ("였" if vowel else "이었") + REPORTED_ENDING + yo)
    return (noun, ("" if vowel else "이") + REPORTED_COPULA + yo)


def duration_english(n: int, unit: str, native: bool) -> list[str]:
    """a year, 3 years (Sino-Korean: digits), a month, two months (native: words), an hour."""
    if n == 1:
        return ["an" if unit == "hour" else "a", unit]
    return [native_count(n)[1] if native else str(n), unit + "s"]


def date_english(month: int, day: int) -> list[str]:
    """March 5 (the month's name, the day in digits)."""
    return [MONTHS[month - 1][1], str(day)]


def learner8_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the sixth syllabus round writes: the compounds' nouns with their particles,
    durations with 동안, dates, -대요 on every verb and adjective and -(이)래요 on the jobs."""
    from itertools import product

    words: set[Word] = {(DURING,), (TODAY, "은")}
    for modifiers, heads in THING_COMPOUNDS:
        words.update((ko,) for ko, _ in modifiers)
        words.update(attach(head[0], "object") for head in heads)
    for modifiers, heads in PLACE_COMPOUNDS:
        words.update((ko,) for ko, _ in modifiers)
        for head in heads:
            words.update({attach(head[0], "goal"), attach(head[0], "location")})
    for unit, kind, numbers, _ in DURATION_UNITS:
        words.add((unit,))
        for n in numbers:
            words.update(sino_words(n) if kind == "sino" else [(native_count(n)[0],)])
    for unit, numbers in TYPED_DURATIONS.items():
        words.update(digit_word(n, unit) for n in numbers)
    words.update(word for word, _ in DURATION_WORDS)
    words.update((ko,) for ko, _ in MONTHS)
    for n in range(1, 32):
        words.update(sino_words(n))
        words.add(digit_word(n, MONTH))
        words.add(digit_word(n, DAY, "에"))
        for tense, register in product(("present", "past"), REGISTERS):
            words.add(digit_word(n, DAY, copula_ending(DAY, tense, False, register)))
    words.add((DAY, "에"))
    for tense, register in product(("present", "past"), REGISTERS):
        words.add((DAY, copula_ending(DAY, tense, False, register)))
    for register in REGISTERS:
        for verb in lexicon.verbs:
            for tense in ("present", "past", "future"):
                words.update(reported_word(verb, tense, register))
        for adjective in lexicon.adjectives:
            if adjective.predicative and adjective.stem:
                for tense in ("present", "past"):
                    words.update(reported_word(adjective, tense, register))
        for job in JOBS:
            for tense in ("present", "past"):
                words.add(reported_copula_word(job, tense, register))
    words.update(attach(name, role) for name in NAME_PRONOUNS for role in ("topic", "subject"))
    return words


def learner8_english_words(lexicon: Lexicon) -> set[str]:
    """English words the sixth syllabus round adds: the compounds' words, the durations' and dates' (for, years,
    March, 5), says / that and the pronouns."""
    words = set(LEARNER8_ENGLISH)
    for modifiers, heads in THING_COMPOUNDS:
        words.update(en for _, en in modifiers)
        for _, en, plural, _, _ in heads:
            words.update({en, plural} - {""})
    for modifiers, heads in PLACE_COMPOUNDS:
        words.update(en for _, en in modifiers)
        words.update(head[1] for head in heads)
    for _, kind, numbers, en in DURATION_UNITS:
        for n in numbers:
            words.update(duration_english(n, en, kind == "native"))
    for unit, numbers in TYPED_DURATIONS.items():
        en = next(e for u, _, _, e in DURATION_UNITS if u == unit)
        words.update(w for n in numbers for w in duration_english(n, en, False))
    words.update(w for _, en in DURATION_WORDS for w in en)
    words.update(en for _, en in MONTHS)
    words.update(str(n) for n in range(1, 32))
    return words
