"""Every word the Korean-English grammar can write, enumerated from the lexicon (no sampling)."""

from __future__ import annotations

from itertools import product

from . import english, hangul
from .ko_en import TENSES, adjective_words, verb_words
from .lexicon import (
    ADJECTIVES,
    ALL_VERBS,
    COMMON_NOUNS,
    NAMES,
    NUMBERS,
    PLACES,
    PRONOUNS,
    TIME_WORDS,
)

KOREAN_FUNCTION_WORDS = ("그", "안", "것이다")
PUNCTUATION = (".", "?")
PARTICLE_KINDS = tuple(hangul.PARTICLES)
COUNTERS = ("명", "마리", "권", "개")
ENGLISH_FUNCTION_WORDS = ("a", "an", "the", "at", "to", "with", "and", "not", "will", "be", *sorted(
    english.AUXILIARIES))


def korean_words() -> set[str]:
    """All Korean words (eojeol) of the grammar."""
    words: set[str] = set(KOREAN_FUNCTION_WORDS) | set(PUNCTUATION)
    for noun in COMMON_NOUNS + PLACES + NAMES:
        words.add(noun.ko)
        words.update(hangul.attach_particle(noun.ko, kind) for kind in PARTICLE_KINDS)
    for counter in COUNTERS:
        words.update(hangul.attach_particle(counter, kind) for kind in PARTICLE_KINDS)
    for pronoun in PRONOUNS:
        words.update((pronoun.topic, pronoun.subject, pronoun.object))
    words.update(ko for ko, _ in NUMBERS)
    for time_word in TIME_WORDS:
        words.update(time_word.ko)
    for tense, negated, question in product(TENSES, (False, True), (False, True)):
        for verb in ALL_VERBS:
            words.update(verb_words(verb, tense, negated, question)[0])
        for adjective in ADJECTIVES:
            if adjective.predicative:
                words.update(adjective_words(adjective, tense, negated, question)[0])
    words.update(adjective.attributive for adjective in ADJECTIVES)
    return words


def english_words() -> set[str]:
    """All English words of the grammar, with capitals for the words that can start a sentence."""
    words: set[str] = set(ENGLISH_FUNCTION_WORDS) | set(PUNCTUATION)
    for noun in COMMON_NOUNS + PLACES + NAMES:
        words.update((noun.en, noun.plural))
    for pronoun in PRONOUNS:
        words.update((pronoun.en_subject, pronoun.en_object))
    for verb in ALL_VERBS:
        words.update((verb.en_base, verb.en_past, english.third_person_singular(verb.en_base)))
    words.update(adjective.en for adjective in ADJECTIVES)
    words.update(en for _, en in NUMBERS)
    for time_word in TIME_WORDS:
        words.update(time_word.en)
    starters = ["a", "an", "the", "will", *english.AUXILIARIES, *(en for _, en in NUMBERS),
                *(p.en_subject for p in PRONOUNS)]
    words.update(english.capitalize_first([word])[0] for word in starters)
    return words


def ko_en_vocabulary() -> list[str]:
    """The joint word list (sorted, Korean and English together; special tokens not included)."""
    return sorted(korean_words() | english_words())
