"""The forms by rule, constants and words of grammar stage learner6 (CollocationsAndNumbersGrammar in
constructions_collocations_numbers.py): the fourth syllabus round (weather and body collocations, Sino-Korean and
native numbers in words and digits, durations, prices, clock times, years, -아/어서 of sequence, -거나, N밖에). Its
words: learner6_korean_words / learner6_english_words (forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import REGISTERS, Word, attach, copula_ending
from transformer_core.grammar.forms_everyday import aseo_word, auxiliary_words, piece_word, present_participle
from transformer_core.grammar.forms_particles import particle_word
from transformer_core.grammar.forms_syllabus import past_participle
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, word_list

BUT = "밖에"  # N밖에 + a negative predicate (사과밖에 안 먹었어요 -> ate only an apple)
SEQUENCE = "서"  # -아/어서 of sequence (가서 만났어요 -> went and met): aseo_word, the reason's word
OR_ENDING = "거나"  # -거나 (V1 or V2): 먹거나, 가거나, 공부하거나
FROM, UNTIL_TIME, ABOUT = "부터", "까지", "쯤"  # TIME부터 TIME까지 (from ... to ...), N쯤 (about N)
HOUR, MINUTE, HALF, WON, HOURS = "시", "분", "반", "원", "시간"  # 세 시 삼십 분, 세 시 반, 오천 원, 두 시간
HOW_LONG = ("얼마나",)  # 얼마나 걸려요? -> How long does it take?
TAKE, TAKE_PAST = "걸리", "걸렸"  # 시간이 걸리다 / N 분 걸리다 (it takes N minutes)
SINO_DIGITS = "일이삼사오육칠팔구"
NATIVE_COUNTS = word_list("NATIVE_COUNTS")
# Minutes (Sino-Korean: 오 분, 삼십 분), minutes past the hour, prices in won (오천 원, 만 오천 원): the English
# writes a Sino-Korean number as digits (5 minutes, 3:30, 5,000 won), a native one as a word (two hours, three
# o'clock).
DURATION_MINUTES = (5, 10, 15, 20, 30, 40, 45, 50)
CLOCK_MINUTES = (10, 15, 20, 30, 40, 45, 50)
PRICES = (500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 12000, 15000, 20000,
          25000, 30000, 35000, 40000, 50000, 100000)
SEQUENCE_FIRST = frozenset(word_list("SEQUENCE_FIRST"))
SEQUENCE_SECOND = frozenset(word_list("SEQUENCE_SECOND"))
LEARNER6_ENGLISH = word_list("LEARNER6_ENGLISH")


def fixed_subject_predicate(entry) -> Verb | Adjective:
    """A collocation's (lexicon.FixedSubject) verb or adjective as the lexicon's Verb or Adjective, so its forms come
    from the same rules as every other (오다 -> 와요, 고프다 -> 고파요, 마르다 -> 말라요)."""
    if entry.action:
        future = hangul.future_form(entry.stem, entry.irregular) if entry.irregular in ("ㅂ", "ㄷ", "ㅎ", "ㅅ") else ""
        return Verb(entry.stem, entry.past_stem, entry.en, entry.en_past or entry.en, "intransitive", frozenset(),
                    future_stem=future, irregular=entry.irregular)
    return Adjective(entry.stem, hangul.attributive_form(entry.stem, entry.irregular), entry.past_stem, entry.en,
                     frozenset(), irregular=entry.irregular)


def fixed_subject_words(entry, tense: str, negated: bool, question: bool, register: str
                        ) -> tuple[list[Word], int, int]:
    """A collocation's Korean words: its noun with its particle, then the predicate (안 first when negated): 비가
    왔어요, 배가 안 고파요, 감기에 걸렸어요. Returns the words, the predicate's lexical index and its tense index."""
    from transformer_core.grammar.base import adjective_pieces, verb_pieces

    predicate = fixed_subject_predicate(entry)
    pieces = verb_pieces if entry.action else adjective_pieces
    words, lexical, tense_index = pieces(predicate, tense, negated, question, register)
    return [attach(entry.noun, entry.particle), *words], lexical + 1, tense_index + 1


def sino_words(n: int) -> list[Word]:
    """A Sino-Korean number as Korean writes it in hangul, spaced after 만 (맞춤법 제44항), each word cut into its
    syllables: 10 -> [('십',)], 25 -> [('이', '십', '오')], 1,500 -> [('천', '오', '백')], 35,000 -> [('삼', '만'),
    ('오', '천')], 10,000 -> [('만',)] (일 is not said before 십, 백, 천 and 만)."""
    if not 0 < n < 100_000_000:
        raise ValueError(f"sino_words writes 1 to 99,999,999, not {n}")

    def below_ten_thousand(k: int) -> str:
        text = ""
        for value, unit in ((1000, "천"), (100, "백"), (10, "십")):
            digit = k // value % 10
            if digit:
                text += ("" if digit == 1 else SINO_DIGITS[digit - 1]) + unit
        return text + (SINO_DIGITS[k % 10 - 1] if k % 10 else "")

    high, low = divmod(n, 10_000)
    words = [("" if high == 1 else below_ten_thousand(high)) + "만"] if high else []
    if low:
        words.append(below_ten_thousand(low))
    return [tuple(word) for word in words]


def english_number(n: int) -> str:
    """A Sino-Korean number in English: digits with thousands commas (5,000; 30)."""
    return f"{n:,}"


# -- numbers typed as digits (3시 30분, 5000원, 2024년, 20살): one piece per digit after the first (5000원 -> 5 ##0
# ##0 ##0 ##원; the tokenizer's longest match may take a whole English number first: 30분 -> 30 ##분) --
DIGITS = "0123456789"
DIGIT_SHARE = 0.4  # the share of learner6's numbers written as digits, as students type them
YEAR, TIMES, AGE = "년", "번", "살"  # 2024년 (Sino-Korean), 세 번 (native: three times), 열세 살 (native)
YEARS = (1990, 1995, 1999, 2000, 2001, 2005, 2010, 2015, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026)
NATIVE_TENS = word_list("NATIVE_TENS")
NATIVE_UNITS = word_list("NATIVE_UNITS")
ENGLISH_UNITS = word_list("ENGLISH_UNITS")
ENGLISH_TEENS = word_list("ENGLISH_TEENS")
ENGLISH_TENS = word_list("ENGLISH_TENS")


def digit_word(n: int, *rest: str) -> Word:
    """A number typed as digits with what follows it in the same word: digit_word(30, "분") -> ('3', '0', '분')
    (30분), digit_word(5000, "원", "이에요") -> 5000원이에요; no thousands comma (the tokenizer would cut it off)."""
    if n < 0:
        raise ValueError(f"digit_word writes whole numbers from 0, not {n}")
    return (*str(n), *rest)


def native_count(n: int) -> tuple[str, str]:
    """A native Korean number before a counter (1 to 59), with its English word: 13 -> ('열세', 'thirteen'), 20 ->
    ('스무', 'twenty'; 스물 becomes 스무 before a counter), 21 -> ('스물한', 'twenty-one'), 35 -> ('서른다섯',
    'thirty-five')."""
    if not 0 < n < 60:
        raise ValueError(f"native_count writes 1 to 59, not {n}")
    tens, units = divmod(n, 10)
    unit_ko = NATIVE_UNITS[units - 1] if units else ""
    if tens == 0:
        return unit_ko, ENGLISH_UNITS[units - 1]
    if tens == 1:
        return "열" + unit_ko, ENGLISH_TEENS[units]
    if tens == 2 and not units:
        return "스무", "twenty"
    english_word = ENGLISH_TENS[tens - 2] + ("-" + ENGLISH_UNITS[units - 1] if units else "")
    return NATIVE_TENS[tens - 1] + unit_ko, english_word


FLOOR = "층"  # 2층에 (typed: on the 2nd floor)


def english_ordinal(n: int) -> str:
    """An ordinal typed as digits: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def times_english(n: int) -> list[str]:
    """N번 (times) in English: once, twice, three times; typed as digits: 3 times."""
    return {1: ["once"], 2: ["twice"]}.get(n, [native_count(n)[1], "times"])


def sequence_word(verb: Verb) -> Word:
    """-아/어서 of sequence: 가서, 만들어서, 구워서 (ㅂ), 요리 + 해서 (the reason's aseo_word)."""
    return aseo_word(verb.stem, verb.past_stem)


def or_word(verb: Verb) -> Word:
    """-거나 (V1 or V2): 먹 + 거나, 가 + 거나, 공부 + 하거나."""
    return piece_word(verb.stem, OR_ENDING, verb.stem)


def learner6_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the fourth syllabus round writes: the collocations in every form, numbers with
    their counters, 부터 / 까지 / 쯤 on hours, -거나 and -아/어서 on every verb."""
    from itertools import product

    words: set[Word] = {HOW_LONG, (HOURS,), (HALF,), (WON,), (MINUTE,), attach("시간", "subject"), ("많이",)}
    for entry in lexicon.fixed_subject:
        for tense, negated, question, register in product(("past", "present", "future"), (False, True),
                                                          (False, True), REGISTERS):
            words.update(fixed_subject_words(entry, tense, negated, question, register)[0])
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        words.update(auxiliary_words(TAKE, TAKE_PAST, tense, question, register, action=True))
    for number, _ in NATIVE_COUNTS:
        words.add((number,))
    for n in (*DURATION_MINUTES, *CLOCK_MINUTES, *PRICES):
        words.update(sino_words(n))
    for ending in (FROM, UNTIL_TIME, ABOUT, "에"):
        words.update({(HOUR, ending), (HALF, ending), (MINUTE, ending)})
    words.update({(HOUR,), (MINUTE, ABOUT), (HOURS, ABOUT), (WON, ABOUT)})
    for noun in (HOUR, MINUTE, HALF, WON):
        for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
            words.add((noun, copula_ending(noun, tense, question, register)))
    for verb in lexicon.verbs:
        words.update({sequence_word(verb), or_word(verb)})
    words.update(particle_word(noun.ko, BUT) for noun in lexicon.common_nouns + lexicon.names)
    # numbers typed as digits: the digits (5, ##0), each counter after them (##시, ##분, ##원 ...) with its endings
    words.update((digit,) for digit in DIGITS)
    words.update(("1", digit) for digit in DIGITS)
    words.update({(YEAR, "에"), (TIMES,)})
    words.update(sino_words(year)[0] for year in YEARS)
    words.update((native_count(n)[0],) for n in range(1, 60))
    counted = [word for word in words if word and word[0] in (HOUR, MINUTE, WON, HOURS, YEAR, TIMES)]
    counted.append(attach(FLOOR, "goal"))
    for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
        counted.append((AGE, copula_ending(AGE, tense, question, register)))
    words.update(("1", *word) for word in counted)
    words.update({("보통",), ("벌써",), ("아직",), ("어느",), ("무슨",)})  # usually, already, still / yet; which
    return words


def learner6_english_words(lexicon: Lexicon) -> set[str]:
    """English words the fourth syllabus round adds: the collocations' words (raining, headache, caught ...), the
    numbers as digits (5,000; 3:30; 30) and as words, it / takes / o'clock ..."""
    words = set(LEARNER6_ENGLISH)
    for entry in lexicon.fixed_subject:
        words.update(entry.en.split() + entry.en_past.split() + entry.en_subject.split())
        words.update(english.capitalize_first(entry.en_subject.split())[:1])
        if entry.frame == "weather":
            words.update({english.third_person_singular(entry.en), present_participle(entry.en)})
    words.update(english_number(n) for n in (*DURATION_MINUTES, *PRICES))
    words.update(f"{hour}:{minute:02d}" for hour in range(1, 13) for minute in CLOCK_MINUTES)
    words.update(en for _, en in NATIVE_COUNTS)
    # numbers typed as digits, said in digits: 3 o'clock, 30 minutes, 20 years old, in 2024, 3 times; ages past twelve
    words.update(str(n) for n in (*range(1, 60), *YEARS))
    words.update(native_count(n)[1] for n in range(1, 60))
    words.update({"in", "once", "twice", "times", "year", "years", "old", "on", "floor"})
    words.update(english_ordinal(n) for n in range(1, 11))
    # 보통 / 벌써 / 아직 (is still eating, has not eaten yet); 어느 / 무슨 (Which book, What kind of book)
    words.update({"usually", "already", "still", "yet", "has", "have", "which", "Which", "what", "What", "kind",
                  "of", "Usually", "Already"})
    for verb in lexicon.verbs:
        if " " not in verb.en_base:
            words.add(present_participle(verb.en_base))
            if past_participle(verb):
                words.add(past_participle(verb))
    return words
