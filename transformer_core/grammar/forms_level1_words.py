"""The forms by rule, constants and words of grammar stage learner7 (Level1WordsGrammar in
constructions_level1_words.py): the fifth syllabus round, the level-1 word list's missing words (native numerals
standing alone, 많다 / 적다, 모르다, -(으)ㄹ 줄 알다, vocatives, possessives). Its words: learner7_korean_words /
learner7_english_words (forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import REGISTERS, Word
from transformer_core.grammar.forms_collocations_numbers import AGE, fixed_subject_words, native_count
from transformer_core.grammar.forms_syllabus import future_adnominal_word
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, word_list

STANDALONE_NUMBERS = word_list("STANDALONE_NUMBERS")
# 많다 / 적다 (there are many / few Ns), by hangul.py's rules like every adjective: 많아요, 많았어요, 적습니다.
MANY = Adjective("많", hangul.attributive_form("많"), hangul.past_stem("많"), "many", frozenset())
FEW = Adjective("적", hangul.attributive_form("적"), hangul.past_stem("적"), "few", frozenset())
# 모르다 (not know: 몰라요, 몰랐어요, 모를 거예요; 르-irregular), the same objects as 알다.
NOT_KNOW_STEM = "모르"
JUL = ("줄",)  # -(으)ㄹ 줄 알다 / 모르다 (know / not know how to V)
SKILL_VERBS = frozenset(word_list("SKILL_VERBS"))
# The level-1 words learner7 writes in constructions of its own, not as lexicon entries (level1_audit reads this).
CONSTRUCTION_LEMMAS = {"verbs": ("모르다",), "adjectives": ("많다", "적다"),
                       "numerals": tuple(ko for ko, _ in STANDALONE_NUMBERS)}
VOCATIVE_TITLES = word_list("VOCATIVE_TITLES")
NAME_TITLE = "씨"
LOWERED_AFTER_VOCATIVE = frozenset(word_list("LOWERED_AFTER_VOCATIVE"))
POSSESSIVES = word_list("POSSESSIVES")
LEARNER7_ENGLISH = (*word_list("LEARNER7_ENGLISH"), *POSSESSIVES.values())


YOUNGER = Adjective("어리", hangul.attributive_form("어리"), hangul.past_stem("어리"), "younger", frozenset())


def vocative_word(name: str) -> Word:
    """A name called in banmal or plain speech: 민수 -> 민수야, 지은 -> 지은아 (아 after a final consonant)."""
    return (name, "아" if hangul.final_consonant(name) != hangul.FINAL_NONE else "야")


def not_know_verb(know: Verb) -> Verb:
    """모르다 as a Verb with 알다's objects: its forms come from hangul.py's 르 rule (몰라요, 몰랐어요)."""
    return Verb(NOT_KNOW_STEM, hangul.past_stem(NOT_KNOW_STEM, "르"), "know", "knew", "transitive",
                know.subjects, know.objects, irregular="르")


def own_english(text: str, subject_english: str) -> str:
    """A collocation's English with {own} as the subject's possessive: brush {own} teeth -> brush my teeth (I)."""
    return text.replace("{own}", POSSESSIVES[subject_english]) if "{own}" in text else text


def learner7_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the fifth syllabus round writes: the object collocations in every form, 많다 /
    적다, 모르다, -(으)ㄹ 줄, the standalone numerals."""
    from itertools import product

    from transformer_core.grammar.base import adjective_pieces, verb_pieces

    words: set[Word] = {JUL, *((ko,) for ko, _ in STANDALONE_NUMBERS), (",",), (NAME_TITLE,), ("항상",)}
    words.update((ko,) for ko, _ in VOCATIVE_TITLES)
    words.update(vocative_word(name.ko) for name in lexicon.names)
    words.update((name.ko, "보다") for name in lexicon.names)
    for n in range(1, 11):
        words.add((native_count(n)[0],))
    words.add((AGE,))
    know = next(v for v in lexicon.transitive if v.stem == "알")
    for tense, negated, question, register in product(("past", "present", "future"), (False, True), (False, True),
                                                      REGISTERS):
        for entry in lexicon.fixed_object:
            words.update(fixed_subject_words(entry, tense, negated, question, register)[0])
        for adjective in (MANY, FEW, YOUNGER):
            words.update(adjective_pieces(adjective, tense, negated, question, register)[0])
        words.update(verb_pieces(not_know_verb(know), tense, negated, question, register)[0])
    for verb in lexicon.verbs:
        words.add(future_adnominal_word(verb))
    return words


def learner7_english_words(lexicon: Lexicon) -> set[str]:
    """English words the fifth syllabus round adds: the collocations' (car, boat, teeth, tall ...), many / few,
    the possessives of brush my teeth."""
    words = set(LEARNER7_ENGLISH) | {en for _, en in STANDALONE_NUMBERS} | {",", "older", "younger", "than", "year",
                                                                          "years"}
    words.update(en for _, en in VOCATIVE_TITLES)
    words.update(word.lower() for word in LOWERED_AFTER_VOCATIVE)
    words.add("always")  # 항상 (Level1WordsGrammar.ASPECT_ADVERBS)
    words.update(name.en for name in lexicon.names)
    for entry in lexicon.fixed_object:
        for possessive in POSSESSIVES.values():
            words.update(entry.en.replace("{own}", possessive).split())
            words.update(entry.en_past.replace("{own}", possessive).split())
        verb = entry.en.split()[0]
        words.update({verb, english.third_person_singular(verb)})
    return words
