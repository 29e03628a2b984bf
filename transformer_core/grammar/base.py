"""A synchronous Korean -> English grammar: sentence pairs with their gold alignment, at piece level.

Every pair is built phrase by phrase on both sides at once, so each English word knows the Korean
word it translates. Korean words (eojeol) are built from morpheme pieces: a stem and its particle
or ending (학교 + 에, 먹 + 었어요, 공부 + 했 + 어요); the tokenizer splits typed text into exactly
these pieces (WordPiece, longest match first; "##" marks a piece that continues a word).

Conventions (see the model card):

* `SentencePair.source` is the sequence of Korean pieces (tokens); `source_words` the eojeol;
  the final "." or "?" is its own token on both sides. `target` is the English words (tokens).
* `alignment[j]` lists the source PIECE indices English word j comes from: all pieces of the
  Korean word(s) it translates (school -> 학교 ##에); `()` = unaligned. `word_alignment` is the
  same at word level.
* Aligned: content words; "the" written for 그 (this/that/my for 이/저/내 ...); prepositions to the
  noun carrying the particle (at -> 공원에서, to -> 공원에, with -> 칼로, and -> 민수와);
  do/does/did, is/are/was/were, be and will to the Korean word carrying tense (먹었다, 작았어요,
  것이다, 거예요, 먹을까); not -> 안 (or 아니에요); what/who/where/when/how to 뭐/누구/누가/어디/언제/어때;
  time phrases to their Korean time word; numbers to the number word.
* Unaligned (excluded from the metric): articles that Korean does not write: every "a" / "an",
  and the "the" of places (at the park), time phrases (in the morning) and of a bare subject
  (날씨가 -> the weather). Korean words may have no English word (the counters 마리가 / 명이 / 개를).
* The English "be" of "will be small" links to the adjective (작을), like "small" does.
* Speech levels (plain 먹는다, polite 먹어요, formal 먹습니다, banmal 먹어) translate alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from transformer_core.grammar import english, hangul
from transformer_core.grammar.lexicon import (
    CORE,
    FULL,
    Adjective,
    Lexicon,
    LexiconError,
    Noun,
    Pronoun,
    Verb,
    read_entries,
    word_list,
)

TENSES = ("past", "present", "future")


Word = tuple[str, ...]  # one Korean word (eojeol) as its morpheme pieces: ('학교', '에')
CONTINUATION = "##"  # marks a piece that continues the word before it (WordPiece convention)


@dataclass(frozen=True)
class SentencePair:
    """One Korean sentence (as tokenizer pieces), its English translation and the gold alignment."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: tuple[tuple[int, ...], ...]
    source_words: tuple[str, ...] = ()
    word_alignment: tuple[tuple[int, ...], ...] = ()

    @property
    def source_text(self) -> str:
        return join_words(self.source_words or pieces_to_words(self.source))

    @property
    def target_text(self) -> str:
        return join_words(self.target)


def join_words(words: tuple[str, ...] | list[str]) -> str:
    """Words joined by spaces, the final punctuation mark attached: '고양이가 생선을 먹는다.'"""
    if words and words[-1] in (".", "?"):
        return " ".join(words[:-1]) + words[-1]
    return " ".join(words)


def pieces_to_words(pieces: tuple[str, ...] | list[str]) -> list[str]:
    """('학교', '##에', '갔다') -> ['학교에', '갔다']."""
    words: list[str] = []
    for piece in pieces:
        if piece.startswith(CONTINUATION) and words:
            words[-1] += piece[len(CONTINUATION):]
        else:
            words.append(piece)
    return words


def word_tokens(word: Word) -> list[str]:
    """The tokenizer's pieces of one word: ('학교', '에') -> ['학교', '##에']."""
    return [word[0], *(CONTINUATION + piece for piece in word[1:])]


def attach(word: str, kind: str | None) -> Word:
    """A noun with its particle as pieces: ('사과', '를'), ('칼', '로'); kind None: the bare noun."""
    if not kind:
        return (word,)
    return word, hangul.attach_particle(word, kind)[len(word):]


def pieces_of_words(words: list[Word]) -> tuple[list[str], list[tuple[int, ...]]]:
    """The tokenizer's pieces of `words` in order, and per word the indices of its pieces."""
    pieces: list[str] = []
    pieces_of: list[tuple[int, ...]] = []
    for word in words:
        start = len(pieces)
        pieces.extend(word_tokens(word))
        pieces_of.append(tuple(range(start, len(pieces))))
    return pieces, pieces_of


def split_particle(word: str) -> Word:
    """A written word ending in a particle, as pieces: '내가' -> ('내', '가'), '아침에' -> ('아침', '에')."""
    for particle in ("에서", "는", "은", "가", "이", "를", "을", "에", "마다"):
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)], particle
    return (word,)


@dataclass
class Phrase:
    """A piece of both sentences: Korean words, English words, and per English word its local links."""

    ko: list[Word] = field(default_factory=list)
    en: list[str] = field(default_factory=list)
    links: list[tuple[int, ...]] = field(default_factory=list)

    def add_ko(self, word: Word | str) -> int:
        self.ko.append((word,) if isinstance(word, str) else tuple(word))
        return len(self.ko) - 1

    def add_en(self, word: str, *ko_indices: int) -> None:
        """One English word, or several ('older brother'), each linked to `ko_indices`."""
        for part in word.split():
            self.en.append(part)
            self.links.append(tuple(ko_indices))

    @property
    def ko_words(self) -> list[str]:
        return ["".join(word) for word in self.ko]


@dataclass
class NounPhrase:
    """A noun phrase with its agreement features; the particle goes on the last Korean word."""

    phrase: Phrase
    person: int = 3
    plural: bool = False


# --- noun phrases -------------------------------------------------------------------------------

DETERMINERS: list[tuple[Word, str]] = list(word_list("DETERMINERS"))
THE = DETERMINERS[0]


def pronoun_phrase(pronoun: Pronoun, role: str) -> NounPhrase:
    """나는 / 내가 / 나를 -> I / I / me (pronouns have their own subject and object forms)."""
    phrase = Phrase()
    ko = {"topic": pronoun.topic, "subject": pronoun.subject, "object": pronoun.object}[role]
    index = phrase.add_ko(split_particle(ko))
    phrase.add_en(pronoun.en_object if role == "object" else pronoun.en_subject, index)
    return NounPhrase(phrase, pronoun.person, pronoun.plural)


def name_phrase(name: Noun, particle: str | None) -> NounPhrase:
    phrase = Phrase()
    index = phrase.add_ko(attach(name.ko, particle))
    phrase.add_en(name.en, index)
    return NounPhrase(phrase)


def common_phrase(noun: Noun, particle: str | None, adjective: Adjective | None,
                  definite: bool | tuple[Word, str], number: tuple[str, str] | None,
                  article_aligned: bool = True) -> NounPhrase:
    """[DET] [ADJ] NOUN+particle -> the/a/an/my [adj] noun;  [ADJ] NOUN NUM COUNTER+particle -> two [adj] nouns.

    `definite`: True for 그 (the), False for none (a/an, nothing for mass nouns), or a DETERMINERS entry.
    """
    phrase = Phrase()
    determiner = THE if definite is True else (definite or None)
    determiner_index = phrase.add_ko(determiner[0]) if determiner and number is None else None
    adjective_index = phrase.add_ko(attributive_word(adjective)) if adjective else None
    if number is not None:
        noun_index = phrase.add_ko(noun.ko)
        number_index = phrase.add_ko(number[0])
        phrase.add_ko(attach(noun.counter, particle))
        phrase.add_en(number[1], number_index)
    else:
        noun_index = phrase.add_ko(attach(noun.ko, particle))
        if determiner_index is not None:
            phrase.add_en(determiner[1], determiner_index)
        elif not noun.mass and not noun.plural_only:
            first_english = adjective.en if adjective else noun.en
            phrase.add_en(english.indefinite_article(first_english))
    if adjective is not None:
        phrase.add_en(adjective.en, adjective_index)
    phrase.add_en(noun.plural if number is not None else noun.en, noun_index)
    return NounPhrase(phrase, 3, number is not None or noun.plural_only)


def bare_the_phrase(noun: Noun, particle: str | None) -> NounPhrase:
    """날씨가 / 날씨 -> the weather ('the' unaligned: Korean writes none)."""
    phrase = Phrase()
    index = phrase.add_ko(attach(noun.ko, particle))
    phrase.add_en("the")
    phrase.add_en(noun.en, index)
    return NounPhrase(phrase, 3, noun.plural_only)


def attributive_word(adjective: Adjective) -> Word:
    """작은 -> ('작은',); 행복한 -> ('행복', '한')."""
    return stem_pieces(adjective.attributive, adjective.stem) if adjective.stem else (adjective.attributive,)


def place_phrase(place: Noun, particle: str, preposition: str) -> Phrase:
    """공원에서 -> at the park; 공원에 -> to the park ('the' is unaligned: Korean writes none);
    서울에서 -> in Seoul; 집에 -> home; 집에서 -> at home."""
    phrase = Phrase()
    index = phrase.add_ko(attach(place.ko, particle))
    if place.en == "home":
        if particle != "goal":
            phrase.add_en(preposition, index)
        phrase.add_en("home", index)
        return phrase
    if place.proper:
        phrase.add_en("in" if preposition == "at" else preposition, index)
        phrase.add_en(place.en, index)
        return phrase
    phrase.add_en(preposition, index)
    phrase.add_en("the")
    phrase.add_en(place.en, index)
    return phrase


def tool_phrase(tool: Noun, definite: bool) -> Phrase:
    """[그] 칼로 -> with the / a knife."""
    phrase = Phrase()
    the_index = phrase.add_ko("그") if definite else None
    index = phrase.add_ko(attach(tool.ko, "instrument"))
    phrase.add_en("with", index)
    if the_index is not None:
        phrase.add_en("the", the_index)
    else:
        phrase.add_en(english.indefinite_article(tool.en))
    phrase.add_en(tool.en, index)
    return phrase


def time_phrase(time_word) -> Phrase:
    phrase = Phrase()
    indices = [phrase.add_ko(split_particle(word)) for word in time_word.ko]
    for word, link in zip(time_word.en, time_word.links, strict=True):
        if link < 0:
            phrase.add_en(word)
        else:
            phrase.add_en(word, indices[link])
    return phrase


def word_phrase(ko: Word | str, en: str) -> Phrase:
    """One Korean word and the English word(s) it translates: 언제 -> when, 빨리 -> quickly."""
    phrase = Phrase()
    index = phrase.add_ko(ko)
    phrase.add_en(en, index)
    return phrase


# --- Korean predicate forms -------------------------------------------------------------------------

# Speech levels (registers). English does not mark them, so all four translate alike.
REGISTERS = ("plain", "polite", "formal", "banmal")  # 먹는다 / 먹어요 / 먹습니다 / 먹어


def stem_pieces(form: str, stem: str) -> tuple[str, ...]:
    """A 하다 stem's forms split before 하: ('공부했', '공부하') -> ('공부', '했'); others stay whole."""
    if len(stem) > 1 and stem.endswith("하") and form.startswith(stem[:-1]) and len(form) > len(stem) - 1:
        return stem[:-1], form[len(stem) - 1:]
    return (form,)


def predicate_word(stem: str, past: str, future: str, tense: str, question: bool, register: str,
                   action: bool) -> list[tuple[str, ...]]:
    """The Korean words (as morpheme pieces) of a verb or adjective in one tense, mood and register.

    먹: ('먹', '는다') / ('먹었', '어요') / ('먹을',) ('것입니다',) / ('먹', '습니까') / ('먹어',)
    """
    def word(form: str, ending: str = "") -> tuple[str, ...]:
        return stem_pieces(form, stem) + ((ending,) if ending else ())

    infinitive = hangul.infinitive_from_past(past)
    if tense == "future":
        if register == "plain" or register == "banmal":
            auxiliary = ("것이다",) if register == "plain" else ("거야",)
            return [word(future, "까")] if question else [word(future), auxiliary]
        if register == "polite":
            return [word(future, "까요")] if question else [word(future), ("거예요",)]
        return [word(future), ("것입니까",) if question else ("것입니다",)]
    if register == "plain":
        if tense == "past":
            return [word(past, "니" if question else "다")]
        if question:
            return [word(hangul.drop_rieul(stem), "니")]
        if not action:
            return [word(stem, "다")]
        if hangul.has_final_consonant(stem) and hangul.final_consonant(stem) != hangul.FINAL_RIEUL:
            return [word(stem, "는다")]
        return [word(hangul.nieun_stem(stem), "다")]
    if register == "polite":
        return [word(past, "어요")] if tense == "past" else [word(infinitive, "요")]
    if register == "banmal":
        return [word(past, "어")] if tense == "past" else [word(infinitive)]
    if tense == "past":
        return [word(past, "습니까" if question else "습니다")]
    formal, start = hangul.formal_stem(stem)
    return [word(formal, start + ("니까" if question else "니다"))]


def verb_pieces(verb: Verb, tense: str, negated: bool, question: bool, register: str = "plain"
                ) -> tuple[list[tuple[str, ...]], int, int]:
    """Korean words (as pieces) of a verb, with the index of the lexical word and of the tense-carrying word.

    먹었다 / 안 먹었다 / 먹을 것이다 / 먹었니 / 먹을까 / 공부 안 했다 / 먹어요 / 먹습니다 / 먹어.
    """
    words: list[tuple[str, ...]] = []
    stem, past_stem, future_stem = verb.stem, verb.past_stem, verb.future_stem
    lexical = -1
    if negated and verb.prefix:
        lexical = len(words)
        words.append((verb.prefix,))
        stem, past_stem = stem[len(verb.prefix):], past_stem[len(verb.prefix):]
        future_stem = future_stem[len(verb.prefix):] if future_stem else ""
    if negated:
        words.append(("안",))
    future = future_stem or hangul.future_adnominal(stem)
    predicate = predicate_word(stem, past_stem, future, tense, question, register, action=True)
    first = len(words)
    words.extend(predicate)
    tense_index = len(words) - 1
    if lexical < 0:
        lexical = first
    return words, lexical, tense_index


def adjective_pieces(adjective: Adjective, tense: str, negated: bool, question: bool, register: str = "plain"
                     ) -> tuple[list[tuple[str, ...]], int, int]:
    """작다 / 안 작았다 / 작을 것이다 / 작니 / 작을까 / 작아요: words (as pieces), lexical index, tense index."""
    words: list[tuple[str, ...]] = [("안",)] if negated else []
    future = hangul.adnominal_future_from_present(adjective.attributive)
    first = len(words)
    words.extend(predicate_word(adjective.stem, adjective.past_stem, future, tense, question, register, action=False))
    return words, first, len(words) - 1


def _joined(words: list[tuple[str, ...]]) -> list[str]:
    return ["".join(word) for word in words]


def verb_words(verb: Verb, tense: str, negated: bool, question: bool, register: str = "plain"
               ) -> tuple[list[str], int, int]:
    """`verb_pieces` with each word written out: (['안', '먹었다'], 1, 1)."""
    words, lexical, tense_index = verb_pieces(verb, tense, negated, question, register)
    return _joined(words), lexical, tense_index


def adjective_words(adjective: Adjective, tense: str, negated: bool, question: bool, register: str = "plain"
                    ) -> tuple[list[str], int, int]:
    """`adjective_pieces` with each word written out: (['작을', '것이다'], 0, 1)."""
    words, lexical, tense_index = adjective_pieces(adjective, tense, negated, question, register)
    return _joined(words), lexical, tense_index


def copula_ending(noun_ko: str, tense: str, question: bool, register: str) -> str:
    """이다 after a noun: 학생이에요 / 의사예요 / 학생입니다 / 의사였어 / 학생이니 (the part after the noun)."""
    closed = hangul.has_final_consonant(noun_ko)
    if tense == "past":
        stem = "이었" if closed else "였"
        return stem + {"plain": "니" if question else "다", "polite": "어요", "banmal": "어",
                       "formal": "습니까" if question else "습니다"}[register]
    if register == "formal":
        return "입니까" if question else "입니다"
    base = "이" if closed else ""
    return base + {"plain": "니" if question else "다", "polite": "에요" if closed else "예요",
                   "banmal": "야"}[register]


NEGATIVE_COPULA = {  # 아니다 by tense, question, register
    ("present", False): {"plain": "아니다", "polite": "아니에요", "formal": "아닙니다", "banmal": "아니야"},
    ("present", True): {"plain": "아니니", "polite": "아니에요", "formal": "아닙니까", "banmal": "아니야"},
    ("past", False): {"plain": "아니었다", "polite": "아니었어요", "formal": "아니었습니다", "banmal": "아니었어"},
    ("past", True): {"plain": "아니었니", "polite": "아니었어요", "formal": "아니었습니까", "banmal": "아니었어"},
}


# --- English verb groups --------------------------------------------------------------------------

def _inflect(base: str, form: str) -> str:
    """The first word of a multi-word verb takes the -s: 'turn on' -> 'turns on'."""
    first, *rest = base.split()
    return " ".join([english.third_person_singular(first) if form == "s" else first, *rest])


def english_verb_items(verb: Verb, tense: str, negated: bool, question: bool, person: int, plural: bool
                       ) -> tuple[list[tuple[str, str]], int]:
    """English words of a verb with their role ('aux', 'not', 'verb'), and how many go before the subject."""
    not_ = [("not", "not")] if negated else []
    if question:
        aux = "will" if tense == "future" else english.do_form(person, plural, tense == "past")
        return [(aux, "aux"), *not_, (verb.en_base, "verb")], 1
    if tense == "future":
        return [("will", "aux"), *not_, (verb.en_base, "verb")], 0
    if negated:
        return [(english.do_form(person, plural, tense == "past"), "aux"), *not_, (verb.en_base, "verb")], 0
    if tense == "past":
        return [(verb.en_past, "verb")], 0
    third = english.takes_third_person_s(person, plural)
    return [(_inflect(verb.en_base, "s") if third else verb.en_base, "verb")], 0


def english_verb_group(verb: Verb, tense: str, negated: bool, question: bool, person: int, plural: bool
                       ) -> tuple[list[str], list[str]]:
    """(words before the subject, words after it): did | eat, - | does not eat, - | ate."""
    items, before = english_verb_items(verb, tense, negated, question, person, plural)
    words = [w for word, _ in items for w in word.split()]
    n_before = len(items[0][0].split()) if before else 0
    return words[:n_before], words[n_before:]


def english_be_items(adjective: Adjective, tense: str, negated: bool, question: bool, person: int, plural: bool,
                     adverb: str = "") -> tuple[list[tuple[str, str]], int]:
    """is small / was not small / will be very small; questions put is / was / will first."""
    not_ = [("not", "not")] if negated else []
    degree = [(adverb, "adverb")] if adverb else []
    if tense == "future":
        items = [("will", "aux"), *not_, ("be", "verb"), *degree, (adjective.en, "verb")]
    else:
        items = [(english.be_form(person, plural, tense == "past"), "aux"), *not_, *degree, (adjective.en, "verb")]
    return items, 1 if question else 0


def english_be_group(adjective: Adjective, tense: str, negated: bool, question: bool, person: int, plural: bool
                     ) -> tuple[list[str], list[str]]:
    items, before = english_be_items(adjective, tense, negated, question, person, plural)
    words = [word for word, _ in items]
    return words[:before], words[before:]


def predicate_phrase(words: list[Word], lexical: int, tense_index: int, items: list[tuple[str, str]],
                     adverb_index: int = -1) -> Phrase:
    """The Korean predicate words and their English words, linked by role."""
    phrase = Phrase(ko=list(words))
    negation = next((i for i, word in enumerate(words) if word == ("안",)), -1)
    targets = {"aux": tense_index, "verb": lexical, "not": negation, "adverb": adverb_index}
    for word, role in items:
        phrase.add_en(word, targets[role])
    return phrase


# --- sentences ----------------------------------------------------------------------------------

KINDS_PATH = Path(__file__).resolve().parent / "kinds.json"


def sentence_kinds(table: str, path: Path = KINDS_PATH) -> dict[str, int]:
    """The kinds of sentence table `table` of kinds.json draws ("core", "full" or the grammar's), with their weights,
    in the order the grammar draws by. A bad entry is a LexiconError naming the file, the line and the field."""
    width = 2 if table in ("core", "full") else 3
    kinds: dict[str, int] = {}
    for number, row in read_entries(path)[table]:  # (the line each row starts on, the row), as a lexicon file's
        where = f"{path.name} line {number}: table {table!r}"
        if not isinstance(row, list) or len(row) != width:
            raise LexiconError(f"{where}: expected [kind, weight{', stage' if width == 3 else ''}], got {row!r}")
        kind, weight = row[0], row[1]
        if not isinstance(kind, str) or not kind or kind in kinds:
            raise LexiconError(f"{where}, field kind: expected a new kind's name, got {kind!r}")
        if not isinstance(weight, int) or isinstance(weight, bool) or weight <= 0:
            raise LexiconError(f"{where}, field weight: expected a whole number above 0, got {weight!r}")
        if width == 3 and row[2] not in EXTENDED_GRAMMARS:
            raise LexiconError(f"{where}, field stage: expected one of {', '.join(EXTENDED_GRAMMARS)}, got {row[2]!r}")
        kinds[kind] = weight
    return kinds


KINDS_CORE = sentence_kinds("core")
KINDS_FULL = sentence_kinds("full")
REGISTER_WEIGHTS = (30, 35, 15, 20)
WH_KINDS = ("what", "who_subject", "who_object", "where", "when")
DEMONSTRATIVES = [("이것", "this"), ("그것", "it"), ("저것", "that")]
HOW = Adjective("어떻", "어떤", "어땠", "how", frozenset(), irregular="ㅎ")


class KoEnGrammar:
    """Draws sentence pairs from the grammar with a seeded random generator."""

    def __init__(self, seed: int = 0, core: bool = False) -> None:
        """`core=True`: the compact core (the few hundred everyday people, animals, places, objects of
        lexicon.CORE; plain endings only; statements and yes/no questions) that a small model learns in
        about two minutes; False: the whole everyday grammar (lexicon.FULL, four speech levels,
        wh-questions, 이다, adverbs, determiners)."""
        self.rng = random.Random(seed)
        self.core = core
        self.lexicon: Lexicon = CORE if core else FULL
        self._tag_cache: dict[frozenset[str], list[Noun]] = {}

    def sample(self, register: str | None = None) -> SentencePair:
        """One random sentence pair (in speech level `register` when given, one of REGISTERS)."""
        kinds = KINDS_CORE if self.core else KINDS_FULL
        kind = self.rng.choices(list(kinds), list(kinds.values()))[0]
        tense = self.rng.choice(TENSES)
        negated = self.rng.random() < 0.25
        question = self.rng.random() < 0.3
        drawn = "plain" if self.core else self.rng.choices(REGISTERS, REGISTER_WEIGHTS)[0]
        if register is not None and register not in REGISTERS:
            raise ValueError(f"unknown speech level {register!r}: expected one of {', '.join(REGISTERS)}")
        register = register or drawn  # drawn either way: the same seed gives the same default stream
        if kind == "adjective":
            return self._adjective_sentence(tense, negated, question, register)
        if kind == "copula":
            return self._copula_sentence("past" if tense == "past" else "present", negated, question, register)
        if kind == "how":
            return self._how_sentence("past" if tense == "past" else "present", register)
        if kind == "wh":
            wh = self.rng.choice(WH_KINDS)
            verb_kind = {"where": self.rng.choice(["motion", "intransitive"]), "what": "transitive",
                         "who_object": "transitive"}.get(wh, self.rng.choice(["transitive", "intransitive", "motion"]))
            return self._verb_sentence(verb_kind, tense, False, True, register, wh)
        return self._verb_sentence(kind, tense, negated, question, register)

    def samples(self, n: int) -> list[SentencePair]:
        return [self.sample() for _ in range(n)]

    # -- pieces --

    def _nouns_with(self, tags: frozenset[str]) -> list[Noun]:
        if tags not in self._tag_cache:
            places = [p for p in self.lexicon.places if not p.proper and p.en != "home"] if "place" in tags else []
            self._tag_cache[tags] = [n for n in self.lexicon.common_nouns + places if n.tags & tags]
        return self._tag_cache[tags]

    def _what_question_verbs(self, verbs: list[Verb]) -> list[Verb]:
        """The verbs a 뭐 (what) question may ask with: all of them here (LearnerGrammar keeps one sense of a
        stem with two English meanings)."""
        return verbs

    def _object_nouns(self, verb: Verb) -> list[Noun]:
        """The nouns that may be `verb`'s object."""
        return self._nouns_with(verb.objects)

    def _adjective_for(self, noun: Noun, probability: float, predicative: bool = False) -> Adjective | None:
        if self.rng.random() >= probability:
            return None
        options = [a for a in self.lexicon.adjectives
                   if a.applies_to & noun.tags and (a.predicative or not predicative)]
        return self.rng.choice(options) if options else None

    def _determiner(self, probability: float) -> bool | tuple[Word, str]:
        if self.rng.random() >= probability:
            return False
        if self.core or self.rng.random() < 0.6:
            return True
        return self.rng.choice(DETERMINERS[1:])

    def _noun_phrase(self, tags: frozenset[str], role: str, allow_pronoun: bool = True,
                     allow_number: bool = True, allow_conjunction: bool = False,
                     exclude_adjective: Adjective | None = None) -> NounPhrase:
        """A subject (role 'topic' / 'subject') or object ('object') noun phrase with tags matching `tags`."""
        particle = role
        choice = self.rng.random()
        if "person" in tags and allow_pronoun and choice < 0.15:
            return pronoun_phrase(self.rng.choice(self.lexicon.pronouns), role)
        if allow_conjunction and choice > 0.9:
            first = self._simple_phrase(tags, "and", allow_number=False, exclude_adjective=exclude_adjective)
            second = self._simple_phrase(tags, particle, allow_number=False, exclude_adjective=exclude_adjective)
            return join_noun_phrases(first, second)
        return self._simple_phrase(tags, particle, allow_number, exclude_adjective)

    def _simple_phrase(self, tags: frozenset[str], particle: str, allow_number: bool,
                       exclude_adjective: Adjective | None = None) -> NounPhrase:
        if "person" in tags and self.rng.random() < 0.3:
            return name_phrase(self.rng.choice(self.lexicon.names), particle)
        noun = self.rng.choice(self._nouns_with(tags))
        adjective = self._adjective_for(noun, 0.25)
        if adjective is not None and adjective == exclude_adjective:
            adjective = None
        number = None
        if allow_number and not noun.mass and not noun.plural_only and self.rng.random() < 0.12:
            number = self.rng.choice(self.lexicon.numbers)
        return common_phrase(noun, particle, adjective, self._determiner(0.4), number)

    def _time(self, tense: str) -> Phrase | None:
        if self.rng.random() >= 0.55:
            return None
        return time_phrase(self.rng.choice([t for t in self.lexicon.time_words if tense in t.tenses]))

    # -- sentence kinds --

    def _verb_sentence(self, kind: str, tense: str, negated: bool, question: bool, register: str = "plain",
                       wh: str | None = None) -> SentencePair:
        lexicon = self.lexicon
        verbs = {"transitive": lexicon.transitive, "intransitive": lexicon.intransitive, "motion": lexicon.motion}[kind]
        if wh == "what":
            verbs = self._what_question_verbs(verbs)
        if wh == "who_object":
            verbs = [v for v in verbs if "person" in v.objects]
        if wh == "who_subject" or wh == "who_object":
            verbs = [v for v in verbs if "person" in v.subjects]
        verb = self.rng.choice(verbs)
        front: Phrase | None = None  # the English wh-word, first in the English sentence
        if wh == "who_subject":
            subject = NounPhrase(word_phrase("누가", "who"), 3, False)
            front = subject.phrase
        else:
            subject = self._noun_phrase(verb.subjects, self.rng.choice(["subject", "topic"]), allow_conjunction=True)
        time = None if wh == "when" else self._time(tense)
        when = word_phrase("언제", "when") if wh == "when" else (word_phrase("왜", "why") if wh == "why" else None)
        place = None
        if kind == "motion":
            place = word_phrase(("어디", "에"), "where") if wh == "where" else \
                place_phrase(self.rng.choice(lexicon.places), "goal", "to")
        elif wh == "where":
            place = word_phrase(("어디", "에서"), "where")
        elif self.rng.random() < 0.3:
            place = place_phrase(self.rng.choice(lexicon.places), "location", "at")
        if wh in ("where", "when", "why"):
            front = place if wh == "where" else when
        tool = None
        if verb.tools and self.rng.random() < 0.3:
            tool = tool_phrase(lexicon.tools[self.rng.choice(verb.tools)], self.rng.random() < 0.3)
        obj = None
        if wh == "what":
            what = ("무엇", "을") if register == "formal" else self.rng.choice([("뭐", "를"), ("뭐",)])
            obj = NounPhrase(word_phrase(what, "what"))
            front = obj.phrase
        elif wh == "who_object":
            obj = NounPhrase(word_phrase(("누구", "를"), "who"))
            front = obj.phrase
        elif kind == "transitive":
            obj = self._noun_phrase(verb.objects, "object", allow_pronoun="person" in verb.objects,
                                    allow_conjunction=not self.core)
        adverb = None
        if not self.core and lexicon.manner_adverbs and self.rng.random() < 0.15:
            adverb = word_phrase(*self.rng.choice(lexicon.manner_adverbs))
        ko_verb, lexical, tense_index = verb_pieces(verb, tense, negated, question, register)
        person, plural = subject.person, subject.plural
        items, before = english_verb_items(verb, tense, negated, question and wh != "who_subject", person, plural)
        predicate = predicate_phrase(ko_verb, lexical, tense_index, items)
        # Korean: [TIME] SUBJ [TIME] [언제] [PLACE] [TOOL] [OBJ] [ADV] VERB
        korean = [subject.phrase, when, place, tool, obj.phrase if obj else None, adverb, predicate]
        # English: [WH] [AUX] SUBJ VERB [OBJ] [ADV] [TOOL] [PLACE] [TIME]
        after = [obj.phrase if obj else None, adverb, tool, place]
        english_order: list[tuple[Phrase, slice]] = []
        if front is not None:
            english_order.append((front, slice(None)))
        english_order.append((predicate, slice(0, before)))
        if subject.phrase is not front:
            english_order.append((subject.phrase, slice(None)))
        english_order.append((predicate, slice(before, None)))
        english_order += [(piece, slice(None)) for piece in after if piece is not None and piece is not front]
        return self._assemble(korean, english_order, time, question)

    def _adjective_sentence(self, tense: str, negated: bool, question: bool, register: str = "plain"
                            ) -> SentencePair:
        adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative])
        subject_role = self.rng.choice(["topic", "topic", "subject"])
        subject = self._definite_subject(adjective, subject_role)
        time = self._time(tense)
        words, lexical, tense_index = adjective_pieces(adjective, tense, negated, question, register)
        degree = ""
        adverb_index = -1
        if not self.core and not negated and self.lexicon.degree_adverbs and self.rng.random() < 0.25:
            ko_adverb, degree = self.rng.choice(self.lexicon.degree_adverbs)
            words = [(ko_adverb,), *words]
            adverb_index, lexical, tense_index = 0, lexical + 1, tense_index + 1
        items, before = english_be_items(adjective, tense, negated, question, subject.person, subject.plural, degree)
        predicate = predicate_phrase(words, lexical, tense_index, items, adverb_index)
        english_order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, None))]
        return self._assemble([subject.phrase, predicate], english_order, time, question)

    def _definite_subject(self, adjective: Adjective, role: str) -> NounPhrase:
        """Predicates describe a known thing: a pronoun, a name or 그 + noun (never 'A cat is small')."""
        choice = self.rng.random()
        lexicon = self.lexicon
        if "person" in adjective.applies_to and choice < 0.2:
            return pronoun_phrase(self.rng.choice(lexicon.pronouns), role)
        if "person" in adjective.applies_to and choice < 0.4:
            return name_phrase(self.rng.choice(lexicon.names), role)
        noun = self.rng.choice([n for n in lexicon.common_nouns + lexicon.places
                                if n.tags & adjective.applies_to and not n.proper and n.en != "home"])
        if "weather" in noun.tags:
            return bare_the_phrase(noun, role)
        modifier = self._adjective_for(noun, 0.2)
        if modifier == adjective:
            modifier = None
        determiner = True if self.core or self.rng.random() < 0.7 else self.rng.choice(DETERMINERS[1:])
        return common_phrase(noun, role, modifier, determiner, number=None)

    def _copula_sentence(self, tense: str, negated: bool, question: bool, register: str) -> SentencePair:
        """저는 학생이에요 -> I am a student; 이것은 사과가 아니에요 -> This is not an apple;
        이것은 뭐예요? -> What is this?; 그는 누구예요? -> Who is he?"""
        lexicon = self.lexicon
        people = self.rng.random() < 0.55
        wh = question and not negated and self.rng.random() < 0.4
        if people:
            choice = self.rng.random()
            if choice < 0.4:
                subject = pronoun_phrase(self.rng.choice(lexicon.pronouns), "topic")
            elif choice < 0.7:
                subject = name_phrase(self.rng.choice(lexicon.names), "topic")
            else:
                subject = common_phrase(self.rng.choice(self._nouns_with(frozenset({"person"}))), "topic", None,
                                        True, None)
            candidates = [n for n in self._nouns_with(frozenset({"person"})) if not n.plural_only]
        else:
            ko, en = self.rng.choice(DEMONSTRATIVES)
            subject = NounPhrase(word_phrase(attach(ko, "topic"), en))
            candidates = [n for n in self._nouns_with(frozenset({"object", "food", "animal", "book", "clothes",
                                                                 "vehicle", "plant", "drink"})) if not n.plural_only]
        be = english.be_form(subject.person, subject.plural, tense == "past")
        predicate = Phrase()
        if wh:
            ko, en = ("누구", "who") if people else ("뭐", "what")
            if register == "formal":
                ko = "누구" if people else "무엇"
            index = predicate.add_ko((ko, copula_ending(ko, tense, True, register)))
            predicate.add_en(en, index)
            predicate.add_en(be, index)
            english_order = [(predicate, slice(0, 2)), (subject.phrase, slice(None))]
            return self._assemble([subject.phrase, predicate], english_order, None, True)
        noun = self.rng.choice(candidates)
        if negated:
            noun_index = predicate.add_ko(attach(noun.ko, "subject"))
            tense_index = predicate.add_ko(NEGATIVE_COPULA[(tense, question)][register])
        else:
            noun_index = tense_index = predicate.add_ko((noun.ko, copula_ending(noun.ko, tense, question, register)))
        predicate.add_en(be, tense_index)
        if negated:
            predicate.add_en("not", tense_index)
        plural = subject.plural
        if not plural and not noun.mass:
            predicate.add_en(english.indefinite_article(noun.en))
        predicate.add_en(noun.plural if plural else noun.en, noun_index)
        before = 1 if question else 0
        english_order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, None))]
        return self._assemble([subject.phrase, predicate], english_order, None, question)

    def _how_sentence(self, tense: str, register: str) -> SentencePair:
        """오늘 날씨 어때? -> How is the weather today?; 너는 어땠어요? -> How were you?"""
        lexicon = self.lexicon
        choice = self.rng.random()
        if choice < 0.35:
            noun = self.rng.choice(self._nouns_with(frozenset({"weather"})))
            subject = bare_the_phrase(noun, self.rng.choice([None, "topic"]))
        elif choice < 0.5:
            subject = pronoun_phrase(self.rng.choice(lexicon.pronouns), "topic")
        elif choice < 0.65:
            subject = name_phrase(self.rng.choice(lexicon.names), "topic")
        else:
            tags = frozenset({"food", "drink", "show", "event", "book", "clothes", "subject", "sport"})
            subject = common_phrase(self.rng.choice(self._nouns_with(tags)), "topic", None,
                                    self._determiner(0.5) or True, None)
        future = hangul.adnominal_future_from_present(HOW.attributive)
        words = predicate_word(HOW.stem, HOW.past_stem, future, tense, True, register, action=False)
        predicate = Phrase(ko=list(words))
        predicate.add_en("how", 0)
        predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), 0)
        english_order = [(predicate, slice(None)), (subject.phrase, slice(None))]
        return self._assemble([subject.phrase, predicate], english_order, self._time(tense), True)

    def _assemble(self, korean: list[Phrase | None], english_order: list[tuple[Phrase, slice]],
                  time: Phrase | None, question: bool) -> SentencePair:
        """Lay out both sentences and turn local links into sentence-wide piece indices.

        `korean`: the phrases in Korean order (the time phrase goes first or after the subject);
        `english_order`: (phrase, slice of its English words) in English order; the time phrase
        ends the English sentence.
        """
        phrases = [p for p in korean if p is not None]
        if time is not None:
            phrases.insert(0 if self.rng.random() < 0.5 else 1, time)
        words: list[Word] = []
        offsets: dict[int, int] = {}
        for piece in phrases:
            offsets[id(piece)] = len(words)
            words.extend(piece.ko)
        words.append(("?" if question else ".",))
        pieces, pieces_of = pieces_of_words(words)

        en: list[str] = []
        word_links: list[tuple[int, ...]] = []
        if time is not None:
            english_order = [*english_order, (time, slice(None))]
        for piece, part in english_order:
            offset = offsets[id(piece)]
            en.extend(piece.en[part])
            word_links.extend(tuple(offset + i for i in link if i >= 0) for link in piece.links[part])
        en.append(words[-1][0])
        word_links.append((len(words) - 1,))
        links = tuple(tuple(p for w in link for p in pieces_of[w]) for link in word_links)
        return SentencePair(tuple(pieces), tuple(english.capitalize_first(en)), links,
                            tuple("".join(word) for word in words), tuple(word_links))


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


# THE grammar: the one the bundled models were trained on (config.json "grammar"). Its old name "learner10", which
# the bundled models' config.json files still carry, is an alias. "core" is its compact core (the lab trains on it).
GRAMMAR = "everyday-korean"
GRAMMAR_ALIASES = {"learner10": GRAMMAR}
GRAMMAR_NAMES = ("core", GRAMMAR)
# The stages the grammar grew through, in order (the earlier ones were grammars of their own until issue 49; git
# keeps them, and the model cards name the commit of each). Data is keyed by them: stage S reads the lexicon
# additions files of every stage up to S (lexicon.py), and its rule tables are on for S and after. Only
# the last stage is selectable: as GRAMMAR.
EXTENDED_GRAMMARS = ("everyday", "learner", "learner2", "learner3", "learner4", "learner5", "learner6", "learner7",
                     "learner8", "learner9", "learner10")
LAST_STAGE = EXTENDED_GRAMMARS[-1]


def grammar_name(name: str) -> str:
    """`name` as the grammar's own name: GRAMMAR (or its alias "learner10") -> GRAMMAR, "core" -> "core"; any
    other name (an earlier stage, "full", "everyday") is no grammar of this tree: ValueError."""
    name = GRAMMAR_ALIASES.get(name, name)
    if name not in GRAMMAR_NAMES:
        raise ValueError(f"unknown grammar {name!r}; expected {GRAMMAR!r} (or its old name 'learner10') or 'core'; "
                         "the grammar's earlier stages live in git (see the model cards)")
    return name


def stage_of(name: str) -> str:
    """The stage whose data a grammar name reads: "core" -> "core", GRAMMAR (or an alias) -> LAST_STAGE."""
    name = grammar_name(name)
    return "core" if name == "core" else LAST_STAGE


def generate_pairs(n: int, seed: int = 0, core: bool = False) -> list[SentencePair]:
    """`n` sentence pairs of the base constructions (KoEnGrammar over the full lexicon: the texts of the reverse
    and speech-level tasks), the same for the same seed; `core=True`: the compact core the lab trains on. THE
    grammar's pairs: generator.generate_pairs."""
    return KoEnGrammar(seed, core=core).samples(n)
