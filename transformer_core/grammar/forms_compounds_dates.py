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
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, word_list

THING_COMPOUNDS = word_list("THING_COMPOUNDS")
PLACE_COMPOUNDS = word_list("PLACE_COMPOUNDS")
# With 좋아하다 (like) a countable head is plural and bare (likes Korean movies); with the others it takes "a".
GENERIC_VERBS = frozenset({"like"})

# Durations with 동안 (for): the counter, whether its number is native (한 달, 두 시간) or Sino-Korean (삼 년, 십 분),
# the numbers it takes, and its English; a Sino-Korean number is written in digits in English (for 3 years), a
# native one in words (for two months), as learner6's numbers. One of a unit is a / an (일 년 -> a year, 한 달 ->
# a month); 일주일 (a week), 하루 (a day) and 이틀 (two days) are words of their own.
DURING = "동안"
DURATION_UNITS = word_list("DURATION_UNITS")
TYPED_DURATIONS = word_list("TYPED_DURATIONS")
DURATION_WORDS = word_list("DURATION_WORDS")
LONG_ACTIVITIES = frozenset(word_list("LONG_ACTIVITIES"))
LONG_UNITS = word_list("LONG_UNITS")

MONTHS = word_list("MONTHS")
MONTH, DAY = "월", "일"
TODAY = "오늘"

# Reported speech -대요 / -(이)래요 (N says that ...): the plain form's final 다 becomes 대 (먹는다 -> 먹는대요,
# 간다 -> 간대요, 바쁘다 -> 바쁘대요, 먹었다 -> 먹었대요); the copula's 이다 -> 이래요 (학생이래요, 의사래요); the
# future 거예요 -> 거래요 (먹을 거래요). 요 in polite and formal speech, none in banmal and plain (바쁘대).
REPORTED_ENDING, REPORTED_COPULA, REPORTED_FUTURE = "대", "래", "거래"
NAME_PRONOUNS = word_list("NAME_PRONOUNS")
JOBS = word_list("JOBS")
BACKGROUND_STATES = frozenset(word_list("BACKGROUND_STATES"))
LEARNER8_ENGLISH = word_list("LEARNER8_ENGLISH")


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
