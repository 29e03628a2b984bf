"""A synchronous Korean -> English grammar: sentence pairs with their gold word alignment.

Every pair is built phrase by phrase on both sides at once, so each English word knows the Korean
word it translates. Conventions (see the model card):

* Korean words are eojeol (space-separated words, particles attached); the final "." or "?" is
  its own word on both sides. Source index i is the i-th Korean word.
* `alignment[j]` lists the Korean word indices English word j comes from; `()` = unaligned.
* Aligned: content words; "the" written for 그; prepositions to the noun carrying the particle
  (at -> 공원에서, to -> 공원에, with -> 칼로, and -> 민수와); do/does/did, is/are/was/were, be and
  will to the Korean word carrying tense (먹었다, 작았다, 것이다, 먹을까); not -> 안; time phrases
  (in the morning) to their Korean time word; numbers to the number word.
* Unaligned (excluded from the metric): articles that Korean does not write: every "a" / "an",
  and the "the" of places (at the park) and time phrases (in the morning). Korean words may have
  no English word (the counters 마리가 / 명이 / 개를).
* The English "be" of "will be small" links to the adjective (작을), like "small" does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import english, hangul
from .lexicon import (
    ADJECTIVES,
    COMMON_NOUNS,
    INTRANSITIVE_VERBS,
    MOTION_VERBS,
    NAMES,
    NUMBERS,
    PLACES,
    PRONOUNS,
    TIME_WORDS,
    TOOLS,
    TRANSITIVE_VERBS,
    Adjective,
    Noun,
    Pronoun,
    Verb,
)

TENSES = ("past", "present", "future")


@dataclass(frozen=True)
class SentencePair:
    """One Korean sentence, its English translation and the gold word alignment."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: tuple[tuple[int, ...], ...]

    @property
    def source_text(self) -> str:
        return join_words(self.source)

    @property
    def target_text(self) -> str:
        return join_words(self.target)


def join_words(words: tuple[str, ...] | list[str]) -> str:
    """Words joined by spaces, the final punctuation mark attached: '고양이가 생선을 먹는다.'"""
    if words and words[-1] in (".", "?"):
        return " ".join(words[:-1]) + words[-1]
    return " ".join(words)


@dataclass
class Phrase:
    """A piece of both sentences: Korean words, English words, and per English word its local links."""

    ko: list[str] = field(default_factory=list)
    en: list[str] = field(default_factory=list)
    links: list[tuple[int, ...]] = field(default_factory=list)

    def add_ko(self, word: str) -> int:
        self.ko.append(word)
        return len(self.ko) - 1

    def add_en(self, word: str, *ko_indices: int) -> None:
        self.en.append(word)
        self.links.append(tuple(ko_indices))


@dataclass
class NounPhrase:
    """A noun phrase with its agreement features; the particle goes on the last Korean word."""

    phrase: Phrase
    person: int = 3
    plural: bool = False


# --- noun phrases -------------------------------------------------------------------------------

def pronoun_phrase(pronoun: Pronoun, role: str) -> NounPhrase:
    """나는 / 내가 / 나를 -> I / I / me (pronouns have their own subject and object forms)."""
    phrase = Phrase()
    ko = {"topic": pronoun.topic, "subject": pronoun.subject, "object": pronoun.object}[role]
    index = phrase.add_ko(ko)
    phrase.add_en(pronoun.en_object if role == "object" else pronoun.en_subject, index)
    return NounPhrase(phrase, pronoun.person, pronoun.plural)


def name_phrase(name: Noun, particle: str) -> NounPhrase:
    phrase = Phrase()
    index = phrase.add_ko(hangul.attach_particle(name.ko, particle))
    phrase.add_en(name.en, index)
    return NounPhrase(phrase)


def common_phrase(noun: Noun, particle: str, adjective: Adjective | None, definite: bool,
                  number: tuple[str, str] | None, article_aligned: bool = True) -> NounPhrase:
    """[그] [ADJ] NOUN+particle -> the/a/an [adj] noun;  [ADJ] NOUN NUM COUNTER+particle -> two [adj] nouns."""
    phrase = Phrase()
    the_index = phrase.add_ko("그") if definite and number is None else None
    adjective_index = phrase.add_ko(adjective.attributive) if adjective else None
    if number is not None:
        noun_index = phrase.add_ko(noun.ko)
        number_index = phrase.add_ko(number[0])
        phrase.add_ko(hangul.attach_particle(noun.counter, particle))
        phrase.add_en(number[1], number_index)
    else:
        noun_index = phrase.add_ko(hangul.attach_particle(noun.ko, particle))
        if the_index is not None:
            phrase.add_en("the", the_index)
        elif not noun.mass:
            first_english = adjective.en if adjective else noun.en
            phrase.add_en(english.indefinite_article(first_english))
    if adjective is not None:
        phrase.add_en(adjective.en, adjective_index)
    phrase.add_en(noun.plural if number is not None else noun.en, noun_index)
    return NounPhrase(phrase, 3, number is not None)


def place_phrase(place: Noun, particle: str, preposition: str) -> Phrase:
    """공원에서 -> at the park; 공원에 -> to the park ('the' is unaligned: Korean writes none)."""
    phrase = Phrase()
    index = phrase.add_ko(hangul.attach_particle(place.ko, particle))
    phrase.add_en(preposition, index)
    phrase.add_en("the")
    phrase.add_en(place.en, index)
    return phrase


def tool_phrase(tool: Noun, definite: bool) -> Phrase:
    """[그] 칼로 -> with the / a knife."""
    phrase = Phrase()
    the_index = phrase.add_ko("그") if definite else None
    index = phrase.add_ko(hangul.attach_particle(tool.ko, "instrument"))
    phrase.add_en("with", index)
    if the_index is not None:
        phrase.add_en("the", the_index)
    else:
        phrase.add_en(english.indefinite_article(tool.en))
    phrase.add_en(tool.en, index)
    return phrase


def time_phrase(time_word) -> Phrase:
    phrase = Phrase()
    indices = [phrase.add_ko(word) for word in time_word.ko]
    for word, link in zip(time_word.en, time_word.links, strict=True):
        if link < 0:
            phrase.add_en(word)
        else:
            phrase.add_en(word, indices[link])
    return phrase


# --- Korean verb forms ---------------------------------------------------------------------------

def verb_words(verb: Verb, tense: str, negated: bool, question: bool) -> tuple[list[str], int, int]:
    """Korean words of a verb, with the index of the lexical word and of the tense-carrying word.

    먹었다 / 안 먹었다 / 먹을 것이다 / 먹었니 / 먹을까 / 공부 안 했다.
    """
    words: list[str] = []
    stem, past_stem, future_stem = verb.stem, verb.past_stem, verb.future_stem
    lexical = -1
    if negated and verb.prefix:
        lexical = len(words)
        words.append(verb.prefix)
        stem, past_stem = stem[len(verb.prefix):], past_stem[len(verb.prefix):]
        future_stem = future_stem[len(verb.prefix):] if future_stem else ""
    if negated:
        words.append("안")
    future = future_stem or hangul.future_adnominal(stem)
    if question:
        final = {"past": past_stem + "니", "present": hangul.plain_question(stem), "future": future + "까"}[tense]
        words.append(final)
    elif tense == "future":
        words.extend([future, "것이다"])
    else:
        words.append(past_stem + "다" if tense == "past" else hangul.present_declarative(stem))
    tense_index = len(words) - 1
    if lexical < 0:
        lexical = tense_index - 1 if (tense == "future" and not question) else tense_index
    return words, lexical, tense_index


def adjective_words(adjective: Adjective, tense: str, negated: bool, question: bool) -> tuple[list[str], int, int]:
    """작다 / 안 작았다 / 작을 것이다 / 작니 / 작을까: words, lexical index, tense index."""
    words = ["안"] if negated else []
    future = hangul.adnominal_future_from_present(adjective.attributive)
    if question:
        words.append({"past": adjective.past_stem + "니", "present": hangul.plain_question(adjective.stem),
                      "future": future + "까"}[tense])
    elif tense == "future":
        words.extend([future, "것이다"])
    else:
        words.append(adjective.past_stem + "다" if tense == "past" else adjective.stem + "다")
    tense_index = len(words) - 1
    lexical = tense_index - 1 if (tense == "future" and not question) else tense_index
    return words, lexical, tense_index


# --- English verb groups --------------------------------------------------------------------------

def english_verb_group(verb: Verb, tense: str, negated: bool, question: bool, person: int, plural: bool
                       ) -> tuple[list[str], list[str]]:
    """(words before the subject, words after it) with labels 'aux', 'not', 'verb' in place of links."""
    if question:
        aux = "will" if tense == "future" else english.do_form(person, plural, tense == "past")
        return [aux], (["not"] if negated else []) + [verb.en_base]
    if tense == "future":
        return [], ["will"] + (["not"] if negated else []) + [verb.en_base]
    if negated:
        return [], [english.do_form(person, plural, tense == "past"), "not", verb.en_base]
    if tense == "past":
        return [], [verb.en_past]
    present = english.third_person_singular(verb.en_base) if english.takes_third_person_s(person, plural) \
        else verb.en_base
    return [], [present]


def english_be_group(adjective: Adjective, tense: str, negated: bool, question: bool, person: int, plural: bool
                     ) -> tuple[list[str], list[str]]:
    """is small / was not small / will be small; questions put is / was / will first."""
    negation = ["not"] if negated else []
    if tense == "future":
        before, after = ["will"], [*negation, "be", adjective.en]
    else:
        before, after = [english.be_form(person, plural, tense == "past")], [*negation, adjective.en]
    if question:
        return before, after
    return [], before + after


# --- sentences ----------------------------------------------------------------------------------

class KoEnGrammar:
    """Draws sentence pairs from the grammar with a seeded random generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def sample(self) -> SentencePair:
        """One random sentence pair."""
        kind = self.rng.choices(["transitive", "intransitive", "motion", "adjective"], [50, 15, 15, 20])[0]
        tense = self.rng.choice(TENSES)
        negated = self.rng.random() < 0.25
        question = self.rng.random() < 0.3
        if kind == "adjective":
            return self._adjective_sentence(tense, negated, question)
        return self._verb_sentence(kind, tense, negated, question)

    def samples(self, n: int) -> list[SentencePair]:
        return [self.sample() for _ in range(n)]

    # -- pieces --

    def _fits(self, noun: Noun, tags: frozenset[str]) -> bool:
        return bool(noun.tags & tags)

    def _adjective_for(self, noun: Noun, probability: float, predicative: bool = False) -> Adjective | None:
        if self.rng.random() >= probability:
            return None
        options = [a for a in ADJECTIVES if a.applies_to & noun.tags and (a.predicative or not predicative)]
        return self.rng.choice(options) if options else None

    def _noun_phrase(self, tags: frozenset[str], role: str, allow_pronoun: bool = True,
                     allow_number: bool = True, allow_conjunction: bool = False,
                     exclude_adjective: Adjective | None = None) -> NounPhrase:
        """A subject (role 'topic' / 'subject') or object ('object') noun phrase with tags matching `tags`."""
        particle = role
        choice = self.rng.random()
        if "person" in tags and allow_pronoun and choice < 0.15:
            return pronoun_phrase(self.rng.choice(PRONOUNS), role)
        if allow_conjunction and choice > 0.9:
            first = self._simple_phrase(tags, "and", allow_number=False, exclude_adjective=exclude_adjective)
            second = self._simple_phrase(tags, particle, allow_number=False, exclude_adjective=exclude_adjective)
            return join_noun_phrases(first, second)
        return self._simple_phrase(tags, particle, allow_number, exclude_adjective)

    def _simple_phrase(self, tags: frozenset[str], particle: str, allow_number: bool,
                       exclude_adjective: Adjective | None = None) -> NounPhrase:
        if "person" in tags and self.rng.random() < 0.3:
            return name_phrase(self.rng.choice(NAMES), particle)
        noun = self.rng.choice([n for n in COMMON_NOUNS if self._fits(n, tags)])
        adjective = self._adjective_for(noun, 0.25)
        if adjective is not None and adjective == exclude_adjective:
            adjective = None
        number = None
        if allow_number and not noun.mass and self.rng.random() < 0.12:
            number = self.rng.choice(NUMBERS)
        definite = self.rng.random() < 0.4
        return common_phrase(noun, particle, adjective, definite, number)

    def _time(self, tense: str) -> Phrase | None:
        if self.rng.random() >= 0.55:
            return None
        return time_phrase(self.rng.choice([t for t in TIME_WORDS if tense in t.tenses]))

    # -- sentence kinds --

    def _verb_sentence(self, kind: str, tense: str, negated: bool, question: bool) -> SentencePair:
        verbs = {"transitive": TRANSITIVE_VERBS, "intransitive": INTRANSITIVE_VERBS, "motion": MOTION_VERBS}[kind]
        verb = self.rng.choice(verbs)
        subject_role = self.rng.choice(["subject", "topic"])
        subject = self._noun_phrase(verb.subjects, subject_role, allow_conjunction=True)
        time = self._time(tense)
        middle: list[Phrase] = []  # Korean order between subject and verb; English order after the verb
        english_after: list[Phrase] = []
        place = None
        if kind == "motion":
            place = place_phrase(self.rng.choice(PLACES), "goal", "to")
        elif self.rng.random() < 0.3:
            place = place_phrase(self.rng.choice(PLACES), "location", "at")
        tool = None
        if verb.tools and self.rng.random() < 0.3:
            tool = tool_phrase(TOOLS[self.rng.choice(verb.tools)], self.rng.random() < 0.3)
        obj = None
        if kind == "transitive":
            obj = self._noun_phrase(verb.objects, "object", allow_pronoun="person" in verb.objects)
        # Korean: SUBJ [PLACE] [TOOL] [OBJ] VERB ;  English: SUBJ VERB [OBJ] [TOOL] [PLACE]
        for piece in (place, tool, obj.phrase if obj else None):
            if piece is not None:
                middle.append(piece)
        for piece in (obj.phrase if obj else None, tool, place):
            if piece is not None:
                english_after.append(piece)
        ko_verb, lexical, tense_index = verb_words(verb, tense, negated, question)
        before, after = english_verb_group(verb, tense, negated, question, subject.person, subject.plural)
        return self._assemble(subject, time, middle, english_after, ko_verb, lexical, tense_index,
                              before, after, question)

    def _adjective_sentence(self, tense: str, negated: bool, question: bool) -> SentencePair:
        adjective = self.rng.choice([a for a in ADJECTIVES if a.predicative])
        subject_role = self.rng.choice(["topic", "topic", "subject"])
        subject = self._definite_subject(adjective, subject_role)
        time = self._time(tense)
        ko_words, lexical, tense_index = adjective_words(adjective, tense, negated, question)
        before, after = english_be_group(adjective, tense, negated, question, subject.person, subject.plural)
        return self._assemble(subject, time, [], [], ko_words, lexical, tense_index, before, after, question)

    def _definite_subject(self, adjective: Adjective, role: str) -> NounPhrase:
        """Predicates describe a known thing: a pronoun, a name or 그 + noun (never 'A cat is small')."""
        choice = self.rng.random()
        if "person" in adjective.applies_to and choice < 0.2:
            return pronoun_phrase(self.rng.choice(PRONOUNS), role)
        if "person" in adjective.applies_to and choice < 0.4:
            return name_phrase(self.rng.choice(NAMES), role)
        noun = self.rng.choice([n for n in COMMON_NOUNS + PLACES if n.tags & adjective.applies_to])
        modifier = self._adjective_for(noun, 0.2)
        if modifier == adjective:
            modifier = None
        return common_phrase(noun, role, modifier, definite=True, number=None)

    def _assemble(self, subject: NounPhrase, time: Phrase | None, middle: list[Phrase], english_after: list[Phrase],
                  ko_verb: list[str], lexical: int, tense_index: int, before: list[str], after: list[str],
                  question: bool) -> SentencePair:
        """Lay out both sentences and turn local links into sentence-wide Korean indices."""
        ko: list[str] = []
        offsets: dict[int, int] = {}

        def place_korean(piece: Phrase) -> None:
            offsets[id(piece)] = len(ko)
            ko.extend(piece.ko)

        time_first = time is not None and self.rng.random() < 0.5
        if time is not None and time_first:
            place_korean(time)
        place_korean(subject.phrase)
        if time is not None and not time_first:
            place_korean(time)
        for piece in middle:
            place_korean(piece)
        verb_start = len(ko)
        ko.extend(ko_verb)
        negation_index = ko.index("안", verb_start) if "안" in ko_verb else -1
        ko.append("?" if question else ".")

        en: list[str] = []
        links: list[tuple[int, ...]] = []

        def place_english(piece: Phrase) -> None:
            offset = offsets[id(piece)]
            en.extend(piece.en)
            links.extend(tuple(offset + i for i in link) for link in piece.links)

        def verb_link(word: str) -> tuple[int, ...]:
            if word == "not":
                return (negation_index,)
            if word == "will" or word in english.AUXILIARIES:
                return (verb_start + tense_index,)
            return (verb_start + lexical,)

        for word in before:
            en.append(word)
            links.append(verb_link(word))
        place_english(subject.phrase)
        for word in after:
            en.append(word)
            links.append(verb_link(word))
        for piece in english_after:
            place_english(piece)
        if time is not None:
            place_english(time)
        en.append(ko[-1])
        links.append((len(ko) - 1,))
        return SentencePair(tuple(ko), tuple(english.capitalize_first(en)), tuple(links))


def join_noun_phrases(first: NounPhrase, second: NounPhrase) -> NounPhrase:
    """민수와 고양이가 -> Minsu and a cat ('and' links to the word carrying 와/과); plural."""
    phrase = Phrase(list(first.phrase.ko), list(first.phrase.en), list(first.phrase.links))
    and_index = len(first.phrase.ko) - 1
    offset = len(phrase.ko)
    phrase.ko.extend(second.phrase.ko)
    phrase.add_en("and", and_index)
    phrase.en.extend(second.phrase.en)
    phrase.links.extend(tuple(offset + i for i in link) for link in second.phrase.links)
    return NounPhrase(phrase, 3, True)


def generate_pairs(n: int, seed: int = 0) -> list[SentencePair]:
    """`n` sentence pairs, the same for the same seed."""
    return KoEnGrammar(seed).samples(n)
