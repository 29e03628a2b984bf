"""The everyday grammar (grammar "everyday"): the full grammar plus the constructions learners say first.

Added on top of `KoEnGrammar` (grammar "full", whose random stream is left exactly as it was, so models
trained on it still evaluate on it): desire -고 싶다; progressive -고 있다; requests -아/어 주세요 with 좀;
existence and place 있다/없다 with 위에/안에/옆에/밑에/앞에/뒤에 and possession (저는 시간이 없어요); reason
-아서/-니까, contrast -지만, while -면서 (two clauses); negation 못, -지 않다, -지 못하다; suggestions -ㄹ래?/-자;
question words 왜, 얼마, 몇 (몇 시, 몇 살, 몇 개); native numbers with counters 명/개/잔/시/살/권/마리 and
Sino-Korean numbers with 층; honorific -(으)시- for elders; frequency -마다; transport -을 타고 (by bus);
degree 너무/아주/많이/조금; dropped subjects (내일 학교에 가요 -> I will go to the school tomorrow; a question
without a subject asks "you").

Conjugation comes from rules (hangul.py and the small functions below), English agreement from
english.py, the words from the lexicon's data files (the full one plus the everyday additions). Every pair
keeps its gold alignment, with the same conventions as base.py; the new ones are listed at each builder.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar, NamedTuple

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import (
    GRAMMAR,
    REGISTERS,
    KoEnGrammar,
    NounPhrase,
    Phrase,
    SentencePair,
    Word,
    attach,
    bare_the_phrase,
    common_phrase,
    copula_ending,
    name_phrase,
    pieces_of_words,
    predicate_word,
    pronoun_phrase,
    stage_of,
    word_tokens,
)
from transformer_core.grammar.forms import (
    ABOUT,
    ACTIVITY_VERBS,
    AFTER,
    AGE,
    ALSO,
    ALTERNATIVE_KINDS,
    AMONG,
    AMONG_KINDS,
    ANY,
    AT_ALL,
    BACKGROUND_STATES,
    BECAUSE,
    BECOME_NOUN,
    BENEFACTIVE_VERBS,
    BUT,
    CHANGING_WEATHER,
    CLOCK_MINUTES,
    COMPANION_PARTICLES,
    COUNTERS,
    DAY,
    DEICTIC_PLACES,
    DIGIT_SHARE,
    DONT_ENDINGS,
    DURATION_MINUTES,
    DURATION_UNITS,
    DURATION_WORDS,
    DURING,
    ELDER_RECIPIENT,
    ELDERS,
    FEW,
    FLOOR,
    FROM,
    FROM_TO_VERBS,
    GENERIC_VERBS,
    GI_BEFORE,
    GIVE,
    GIVE_HUMBLE,
    GRAMMAR_NAME,
    HALF,
    HONORIFIC_BASES,
    HOUR,
    HOURS,
    HOW_LONG,
    HOW_MANY,
    INSTEAD_OF,
    JEOK,
    JOBS,
    JOINT_VERBS,
    JUL,
    LEARNER2_GRAMMAR,
    LEARNER3_GRAMMAR,
    LEARNER4_GRAMMAR,
    LEARNER5_GRAMMAR,
    LEARNER6_GRAMMAR,
    LEARNER7_GRAMMAR,
    LEARNER8_GRAMMAR,
    LEARNER9_GRAMMAR,
    LEARNER10_GRAMMAR,
    LEARNER10_POSITIONS,
    LEARNER_GRAMMAR,
    LIKING_VERBS,
    LONG_ACTIVITIES,
    LONG_UNITS,
    LOWERED_AFTER_VOCATIVE,
    MANY,
    MINUTE,
    MONTH,
    MONTHS,
    MORE,
    MOST,
    NAME_PRONOUNS,
    NAME_TITLE,
    NASEO,
    NATIVE_COUNTS,
    NATIVE_ONE,
    NOBODY,
    NOT_REASONS,
    NOTHING,
    ONLY,
    ONLY_BEFORE_NEGATIVE,
    OWNED_ASKED,
    OWNED_FOUND,
    OWNERS,
    PEOPLE_OWNERS,
    PLACE_COMPOUNDS,
    POSITIONS,
    POSSESSIVES,
    PRICES,
    PRONOUNS,
    REASON_TAGS,
    REASONS_WITHOUT_THE,
    RECIPIENT_PARTICLES,
    REQUEST_ENDINGS,
    SEEM,
    SEQUENCE_FIRST,
    SEQUENCE_SECOND,
    SET_PHRASES,
    SINO_FLOORS,
    SKILL_VERBS,
    STANDALONE_NUMBERS,
    STATE_ENGLISH,
    STATE_OUT_TAGS,
    STAY_BASE,
    SU,
    SUPERLATIVE_WORDS,
    TAG_ENDINGS,
    TAKE,
    TAKE_PAST,
    THING,
    THING_COMPOUNDS,
    THING_KEYS,
    THING_TICKETS,
    TIMES,
    TODAY,
    TRANSPORT_VERBS,
    TYPED_DURATIONS,
    UNTIL,
    UNTIL_TIME,
    VOCATIVE_TITLES,
    WHAT_KIND,
    WON,
    YEAR,
    YEARS,
    YOUNGER,
    aseo_word,
    auxiliary_words,
    become_words,
    bsida_word,
    companion_word,
    comparable,
    date_english,
    deictic_word,
    digit_word,
    do_word,
    duration_english,
    english_degree,
    english_number,
    english_ordinal,
    eu_class,
    eu_ending,
    fixed_subject_predicate,
    fixed_subject_words,
    future_adnominal_word,
    ge_word,
    gess_word,
    gi_past_word,
    gi_word,
    giro_word,
    go_word,
    grammar_lexicon,
    honorific_base,
    honorific_words,
    infinitive,
    ja_word,
    ji_word,
    jiman_word,
    myeon_word,
    myeonseo_word,
    native_count,
    neunde_word,
    neyo_word,
    nikka_word,
    nominal_words,
    not_know_verb,
    offer_word,
    or_word,
    own_english,
    particle_word,
    past_adnominal,
    past_participle,
    piece_word,
    present_adnominal,
    present_participle,
    rae_word,
    reo_word,
    reported_copula_word,
    reported_word,
    ryeogo_word,
    seem_adnominal,
    sequence_word,
    shall_word,
    sino_words,
    tag_word,
    takes_eu_endings,
    times_english,
    topic_time_texts,
    topic_time_word,
    ttae_words,
    verb_form,
    vocative_word,
    will_word,
    ya_word,
)
from transformer_core.grammar.lexicon import Adjective, Noun, Verb


class FrontedClause(NamedTuple):
    """The drawn parts of a sentence whose first clause comes first (-(으)ㄹ 때, -기 때문에): its subject, the two
    verbs and each one's object and place (None when it takes none)."""

    subject: NounPhrase
    first: Verb
    second: Verb
    obj1: NounPhrase | None
    place1: Phrase | None
    obj2: NounPhrase | None
    place2: Phrase | None


class EverydayGrammar(KoEnGrammar):
    """KoEnGrammar("full") plus the learner constructions (see the module docstring)."""

    KINDS: ClassVar[dict[str, int]] = {
        "full": 40, "desire": 6, "progressive": 5, "request": 6, "exist": 6, "have": 3, "where_is": 2,
        "reason": 4, "contrast": 3, "while": 3, "negation": 5, "suggest": 4, "why": 2, "age": 2, "clock": 2,
        "cups": 2, "how_many": 2, "floor": 1, "how_much": 1, "honorific": 5, "transport": 3, "very": 2}

    GRAMMAR: ClassVar[str] = GRAMMAR_NAME  # the name of the grammar: its lexicon and vocabulary
    # What sample() does with a word the tokenizer cuts otherwise than the grammar wrote it (가 ##는 "going" typed
    # as 가는 is the one piece 가는 "thin"): False (every grammar up to learner4: their streams stay as they were)
    # draws the pair again, so the model never sees that word; True returns the pair as typing gives it (typed_cut).
    TYPED_CUT: ClassVar[bool] = False

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.lexicon = grammar_lexicon(self.GRAMMAR)
        self._question = False
        self._dropped_ok = False

    # -- sampling --

    def sample(self, register: str | None = None, kind: str | None = None) -> SentencePair:
        """One pair, as the tokenizer cuts its typed text: the model trains on what typing gives.

        A pair with a word the tokenizer would cut otherwise (잡지만: longest match first takes 잡지 "magazine" and
        then finds no ##만; 가는 "going" is the piece 가는 "thin") is drawn again, unless TYPED_CUT is on: then each
        word is re-cut into the tokenizer's pieces with its alignment carried over (typed_cut), and only a pair with
        a word the tokenizer turns into <unk> is drawn again. After 20 draws the last one comes back as written."""
        for _ in range(20):
            pair = self._sample_once(register, kind)
            if self.TYPED_CUT:
                typed = typed_cut(pair, self._vocabulary)
                if typed is not None:
                    return typed
            elif all(len(word) == 1 or wordpiece_split("".join(word), self._vocabulary) == list(word)
                     for word in _words_of(pair.source)):
                return pair
        return pair

    @property
    def _vocabulary(self) -> frozenset[str]:
        if not hasattr(self, "_vocabulary_cache"):
            from transformer_core.grammar.vocabulary import ko_en_vocabulary

            self._vocabulary_cache = frozenset(ko_en_vocabulary(False, self.GRAMMAR))
        return self._vocabulary_cache

    def _sample_once(self, register: str | None, kind: str | None = None) -> SentencePair:
        """`kind`: one of KINDS (tests), else drawn by the KINDS weights."""
        drawn_kind = self.rng.choices(list(self.KINDS), list(self.KINDS.values()))[0]
        kind = kind or drawn_kind
        if kind == "full":
            self._dropped_ok = True
            try:
                return super().sample(register)
            finally:
                self._dropped_ok = False
        drawn = self.rng.choices(REGISTERS, (30, 40, 15, 15))[0]
        if register is not None and register not in REGISTERS:
            raise ValueError(f"unknown speech level {register!r}: expected one of {', '.join(REGISTERS)}")
        return getattr(self, f"_{kind}")(register or drawn)

    def _noun_phrase(self, tags, role, allow_pronoun=True, allow_number=True, allow_conjunction=False,
                     exclude_adjective=None) -> NounPhrase:
        """The full grammar's subjects, sometimes dropped as Korean does (statement: I, question: you)."""
        if self._dropped_ok and role in ("topic", "subject") and "person" in tags and self.rng.random() < 0.12:
            return self._dropped_subject()
        return super()._noun_phrase(tags, role, allow_pronoun, allow_number, allow_conjunction, exclude_adjective)

    def _dropped_subject(self) -> NounPhrase:
        """No Korean word; English 'I' (statements) or 'you' (questions), unaligned."""
        phrase = Phrase()
        question = self._question
        phrase.add_en("you" if question else "I")
        return NounPhrase(phrase, 2 if question else 1, False)

    def _verb_sentence(self, kind, tense, negated, question, register="plain", wh=None):
        self._question = question
        return super()._verb_sentence(kind, tense, negated, question, register, wh)

    # -- shared pieces --

    def _subject(self, role: str | None = None, person_only: bool = True, drop: float = 0.15,
                 question: bool = False) -> NounPhrase:
        role = role or self.rng.choice(["topic", "topic", "subject"])
        self._question = question
        if self.rng.random() < drop:
            return self._dropped_subject()
        choice = self.rng.random()
        if choice < 0.3:
            return pronoun_phrase(self.rng.choice(self.lexicon.pronouns), role)
        if choice < 0.55:
            return name_phrase(self.rng.choice(self.lexicon.names), role)
        noun = self.rng.choice(self._nouns_with(frozenset({"person"})))
        return common_phrase(noun, role, None, self._determiner(0.5) or self.rng.random() < 0.5,
                             None)

    def _verb(self, kinds=("transitive", "intransitive"), only_regular: bool = False) -> Verb:
        verbs = [v for kind in kinds for v in getattr(self.lexicon, kind) if "person" in v.subjects]
        if only_regular:
            verbs = [v for v in verbs if takes_eu_endings(v, self.GRAMMAR)]
        return self.rng.choice(verbs)

    def _object(self, verb: Verb) -> NounPhrase | None:
        if verb.kind != "transitive":
            return None
        return self._noun_phrase(verb.objects, "object", allow_pronoun="person" in verb.objects)

    def _place_for(self, verb: Verb) -> Phrase | None:
        from transformer_core.grammar.base import place_phrase

        if verb.kind == "motion":
            return place_phrase(self.rng.choice(self.lexicon.places), "goal", "to")
        if self.rng.random() < 0.25:
            return place_phrase(self.rng.choice(self.lexicon.places), "location", "at")
        return None

    def _english_order(self, subject: NounPhrase, predicate: Phrase, before: int, rest: list[Phrase | None],
                       front: Phrase | None = None) -> list[tuple[Phrase, slice]]:
        order: list[tuple[Phrase, slice]] = []
        if front is not None:
            order.append((front, slice(None)))
        order += [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, None))]
        order += [(p, slice(None)) for p in rest if p is not None and p is not front]
        return order

    # -- desire: 먹고 싶다 -> want to eat --

    def _desire(self, register: str) -> SentencePair:
        """S [OBJ] V-고 싶다: want(s)/wanted to V; 안 V-고 싶다: do not want to V; ?: Do you want to V?
        want/do/not -> the 싶다 word (not -> 안 when written); to and V -> the V-고 word."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        negated = not question and self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        negation = predicate.add_ko("안") if negated else -1
        lexical = predicate.add_ko(go_word(verb.stem))
        for word in auxiliary_words("싶", "싶었", tense, question, register, action=False):
            tense_index = predicate.add_ko(word)
        do = english.do_form(subject.person, subject.plural, tense == "past")
        if question or negated:
            predicate.add_en(do, tense_index)
            if negated:
                predicate.add_en("not", negation)
            predicate.add_en("want", tense_index)
        else:
            predicate.add_en(verb_form("want", tense, subject.person, subject.plural), tense_index)
        predicate.add_en("to", lexical)
        predicate.add_en(verb.en_base, lexical)
        time = self._time(tense)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, time, question)

    # -- progressive: 먹고 있다 -> is eating --

    def _progressive(self, register: str) -> SentencePair:
        """S [OBJ] V-고 있다: am/is/are/was/were V-ing (be -> 있다, V-ing -> V-고)."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        lexical = predicate.add_ko(go_word(verb.stem))
        for word in auxiliary_words("있", "있었", tense, question, register, action=False):
            tense_index = predicate.add_ko(word)
        predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), tense_index)
        predicate.add_en(present_participle(verb.en_base), lexical)
        time = None if self.rng.random() < 0.5 else self._time(tense)
        if time is None and tense == "present" and self.rng.random() < 0.4:
            time = self._time_word("지금")
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, time, question)

    def _time_word(self, ko: str) -> Phrase | None:
        from transformer_core.grammar.base import time_phrase

        for word in self.lexicon.time_words:
            if word.ko == (ko,):
                return time_phrase(word)
        return None

    # -- requests: 문을 열어 주세요 -> Please open the door; 물 좀 주세요 -> Please give me water --

    def _request(self, register: str) -> SentencePair:
        """[OBJ] [좀] V-아/어 주세요 -> Please V OBJ; [N] [좀] 주세요 -> Please give me N.
        please -> 주세요 (and 좀 when written); V -> V-아/어; give -> 주세요; me unaligned."""
        ending = {"formal": REQUEST_ENDINGS[1], "banmal": REQUEST_ENDINGS[2]}.get(register, REQUEST_ENDINGS[0])
        give_only = self.rng.random() < 0.35
        predicate = Phrase()
        obj = None
        if give_only:
            tags = frozenset({"food", "drink", "object", "book", "clothes"})
            noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.plural_only])
            if self.rng.random() < 0.3 and not noun.mass:
                number = self.rng.choice([NATIVE_ONE, *self.lexicon.numbers[:4]])
                obj = common_phrase(noun, None, None, False, number)
            else:
                obj = common_phrase(noun, self.rng.choice([None, "object"]), None, self._determiner(0.3), None)
            softener = predicate.add_ko("좀") if self.rng.random() < 0.5 else -1
            give = predicate.add_ko(ending)
            predicate.add_en("please", give, *([softener] if softener >= 0 else []))
            predicate.add_en("give", give)
            predicate.add_en("me")
        else:
            verb = self._verb(("transitive", "intransitive", "motion"))
            obj = self._object(verb)
            softener = predicate.add_ko("좀") if self.rng.random() < 0.4 else -1
            lexical = predicate.add_ko(piece_word(infinitive(verb.past_stem), "", verb.stem))
            give = predicate.add_ko(ending)
            predicate.add_en("please", give, *([softener] if softener >= 0 else []))
            predicate.add_en(verb.en_base, lexical)
            place = self._place_for(verb) if verb.kind == "motion" else None
            if place is not None:
                order = [(predicate, slice(None)), (place, slice(None))]
                return self._assemble([place, predicate], order, None, False)
        order = [(predicate, slice(None))] + ([(obj.phrase, slice(None))] if obj else [])
        return self._assemble([obj.phrase if obj else None, predicate], order, None, False)

    # -- existence: 책상 위에 연필이 있다 -> There is a pencil on the desk --

    def _location(self) -> tuple[Phrase, Noun]:
        """N 위에 -> on the N (preposition -> 위에, the unaligned, N -> N)."""
        holders = self._nouns_with(frozenset({"object", "place"}))
        holder = self.rng.choice([n for n in holders if not n.plural_only and not n.mass])
        ko_position, en_position = self.rng.choice(POSITIONS)
        phrase = Phrase()
        determiner = self.rng.random() < 0.2
        the_index = phrase.add_ko("그") if determiner else -1
        noun_index = phrase.add_ko(holder.ko)
        position_index = phrase.add_ko(attach(ko_position, "goal"))
        phrase.add_en(en_position, position_index)
        phrase.add_en("the", *([the_index] if determiner else []))
        phrase.add_en(holder.en, noun_index)
        return phrase, holder

    def _exist(self, register: str) -> SentencePair:
        """LOC에 N이 있다/없다 -> There is/are/was a N LOC / There is no N LOC; ? -> Is there a N LOC?
        There and is -> 있다 (없다); no -> 없다; N -> N이."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        negated = self.rng.random() < 0.35
        location, holder = self._location()
        tags = frozenset({"object", "food", "animal", "book", "person", "clothes", "drink", "plant"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if n.ko != holder.ko])
        number = None
        if not negated and not noun.mass and not noun.plural_only and self.rng.random() < 0.2:
            number = self.rng.choice(self.lexicon.numbers)
        subject = common_phrase(noun, self.rng.choice(["subject", "subject", "topic"]), None, False, number)
        if negated:  # There is no pencil: no article after "no"
            bare = Phrase()
            bare.add_en(noun.en, bare.add_ko(attach(noun.ko, "subject")))
            subject = NounPhrase(bare, 3, noun.plural_only)
        plural = subject.plural
        stem, past = ("없", "없었") if negated else ("있", "있었")
        predicate = Phrase()
        for word in auxiliary_words(stem, past, tense, question, register, action=False):
            index = predicate.add_ko(word)
        be = english.be_form(3, plural, tense == "past")
        if question:
            predicate.add_en(be, index)
            predicate.add_en("there", index)
            if negated:
                predicate.add_en("no", index)
            before = 2 + negated
        else:
            predicate.add_en("there", index)
            predicate.add_en(be, index)
            if negated:
                predicate.add_en("no", index)
            before = 3 if negated else 2
        order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (location, slice(None))]
        korean = [location, subject.phrase, predicate] if self.rng.random() < 0.7 else [subject.phrase, location,
                                                                                         predicate]
        return self._assemble(korean, order, self._time(tense) if tense == "past" else None, question)

    def _where_is(self, register: str) -> SentencePair:
        """N은/이 어디에 있어요? -> Where is the N? (where -> 어디에, is -> 있어요, N -> N)."""
        tags = frozenset({"object", "book", "clothes", "place"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.mass])
        subject = common_phrase(noun, self.rng.choice(["topic", "subject"]), None, self._determiner(0.3), None)
        if subject.phrase.en[0] in ("a", "an"):
            subject.phrase.en[0] = "the"
        predicate = Phrase()
        where = predicate.add_ko(("어디", "에"))
        for word in auxiliary_words("있", "있었", "present", True, register, action=False):
            index = predicate.add_ko(word)
        predicate.add_en("where", where)
        predicate.add_en(english.be_form(3, subject.plural, False), index)
        order = [(predicate, slice(None)), (subject.phrase, slice(None))]
        return self._assemble([subject.phrase, predicate], order, None, True)

    def _have(self, register: str) -> SentencePair:
        """S는 N이 있다/없다 -> S have/has/had [a] N; S do not have [a] N (have -> 있다, not/do -> 없다)."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        negated = self.rng.random() < 0.4
        subject = self._subject("topic", question=question)
        tags = frozenset({"object", "animal", "book", "person", "clothes"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.plural_only])
        if self.rng.random() < 0.15:
            noun = self.rng.choice([n for n in self.lexicon.common_nouns if "abstract" in n.tags] or [noun])
        obj = common_phrase(noun, "subject", None, False, None)
        stem, past = ("없", "없었") if negated else ("있", "있었")
        predicate = Phrase()
        for word in auxiliary_words(stem, past, tense, question, register, action=False):
            index = predicate.add_ko(word)
        if question or negated:
            predicate.add_en(english.do_form(subject.person, subject.plural, tense == "past"), index)
            if negated:
                predicate.add_en("not", index)
            predicate.add_en("have", index)
        elif tense == "past":
            predicate.add_en("had", index)
        else:
            predicate.add_en("has" if english.takes_third_person_s(subject.person, subject.plural) else "have", index)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase])
        return self._assemble([subject.phrase, obj.phrase, predicate], order, None, question)

    # -- two clauses: -아서 (so), -니까 (so), -지만 (but), -면서 (while) --

    CONNECTIVE_ENGLISH: ClassVar[dict[str, str]] = {"aseo": "so", "nikka": "so", "jiman": "but"}

    def _connective_word(self, connective: str, entry: Verb | Adjective, tense: str) -> Word:
        """A first clause's last word: -아서 / -(으)니까 / -지만 on a verb or adjective."""
        stem, past = entry.stem, entry.past_stem
        if connective == "aseo":
            return aseo_word(stem, past)
        if connective == "nikka":
            return nikka_word(stem, past, tense, eu_class(entry, self.GRAMMAR))
        return jiman_word(stem, past, tense)

    def _clause(self, tense: str, subject: NounPhrase, connective: str, register: str,
                question: bool = False) -> tuple[list[Phrase | None], list[tuple[Phrase, slice]], Phrase]:
        """One clause; `connective` '' = the sentence's last clause, else 'aseo', 'nikka', 'jiman'."""
        use_adjective = self.rng.random() < 0.4
        predicate = Phrase()
        rest: list[Phrase | None] = []
        korean: list[Phrase | None] = [subject.phrase]
        if use_adjective:
            adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative
                                         and takes_eu_endings(a, self.GRAMMAR)
                                         and "person" in a.applies_to])
            stem, past, en = adjective.stem, adjective.past_stem, adjective.en
            if connective:
                index = predicate.add_ko(self._connective_word(connective, adjective, tense))
            else:
                for word in predicate_word(stem, past, hangul.adnominal_future_from_present(adjective.attributive),
                                           tense, question, register, action=False):
                    index = predicate.add_ko(tuple(word))
            if tense == "future":
                predicate.add_en("will", index)
                predicate.add_en("be", index)
            else:
                predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), index)
            predicate.add_en(en, index)
            before = 1 if question else 0
        else:
            verb = self._verb(("transitive", "intransitive", "motion"), only_regular=bool(connective))
            obj, place = self._object(verb), self._place_for(verb)
            korean += [place, obj.phrase if obj else None]
            rest = [obj.phrase if obj else None, place]
            if connective:
                index = predicate.add_ko(self._connective_word(connective, verb, tense))
                if tense == "future":
                    predicate.add_en("will", index)
                    predicate.add_en(verb.en_base, index)
                elif tense == "past":
                    predicate.add_en(verb.en_past, index)
                else:
                    predicate.add_en(verb_form(verb.en_base, "present", subject.person, subject.plural), index)
                before = 0
            else:
                from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

                words, lexical, tense_index = verb_pieces(verb, tense, False, question, register)
                items, before = english_verb_items(verb, tense, False, question, subject.person, subject.plural)
                predicate = predicate_phrase(words, lexical, tense_index, items)
        korean.append(predicate)
        return korean, self._english_order(subject, predicate, before, rest), predicate

    def _two_clauses(self, connective: str, register: str) -> SentencePair:
        """CL1-아서/-니까 CL2 -> CL1, so CL2; CL1-지만 CL2 -> CL1, but CL2 (so/but -> the connective word;
        the comma and a repeated English pronoun are unaligned)."""
        tense = self.rng.choice(["past", "present", "past", "future"])
        first_tense = tense if connective == "aseo" else self.rng.choice([tense, "past"])
        if first_tense == "future":
            first_tense = "present"
        subject = self._subject(drop=0.25)
        korean1, order1, predicate1 = self._clause(first_tense, subject, connective, register)
        if subject.phrase.en and subject.phrase.en[0] in PRONOUNS and self.rng.random() < 0.6:
            repeated = Phrase()
            repeated.add_en(subject.phrase.en[0])
            second = NounPhrase(repeated, subject.person, subject.plural)
        else:
            second = self._subject(drop=0.0)
        question = self.rng.random() < 0.15
        korean2, order2, _ = self._clause(tense, second, "", register, question)
        n = len(predicate1.en)
        order1 = [(p, slice(part.start, n) if p is predicate1 and part.stop is None else part) for p, part in order1]
        predicate1.add_en(",")
        predicate1.add_en(self.CONNECTIVE_ENGLISH[connective], len(predicate1.ko) - 1)
        order1.append((predicate1, slice(n, None)))
        return self._assemble([*korean1, *korean2], [*order1, *order2], None, question)

    def _contrast(self, register: str) -> SentencePair:
        return self._two_clauses("jiman", register)

    def _while(self, register: str) -> SentencePair:
        """S [OBJ1] V1-면서 [OBJ2] V2 -> S V2 [OBJ2] while V1-ing [OBJ1] (while and V1-ing -> V1-면서)."""
        tense = self.rng.choice(["past", "present", "present"])
        subject = self._subject()
        first = self._verb(("transitive", "intransitive"), only_regular=True)
        second = self._verb(("transitive", "intransitive"))
        while second.stem == first.stem:
            second = self._verb(("transitive", "intransitive"))
        obj1, obj2 = self._object(first), self._object(second)
        while_phrase = Phrase()
        index = while_phrase.add_ko(myeonseo_word(first.stem, eu_class(first, self.GRAMMAR)))
        while_phrase.add_en("while", index)
        while_phrase.add_en(present_participle(first.en_base), index)
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        words, lexical, tense_index = verb_pieces(second, tense, False, False, register)
        items, _ = english_verb_items(second, tense, False, False, subject.person, subject.plural)
        predicate = predicate_phrase(words, lexical, tense_index, items)
        korean = [subject.phrase, obj1.phrase if obj1 else None, while_phrase, obj2.phrase if obj2 else None,
                  predicate]
        order = [(subject.phrase, slice(None)), (predicate, slice(None))]
        order += [(p, slice(None)) for p in (obj2.phrase if obj2 else None, while_phrase, obj1.phrase if obj1 else None)
                  if p is not None]
        return self._assemble(korean, order, None, False)

    # -- negation: 못 / -지 않다 / -지 못하다 --

    def _negation(self, register: str) -> SentencePair:
        """못 V / V-지 못하다 -> cannot V / could not V (cannot, could, not -> 못 or 못하다);
        V-지 않다 -> do/does/did not V (do, not -> 않다). Future: will not V."""
        style = self.rng.choice(["mot", "ji_mot", "ji_anh"])
        tense = self.rng.choice(["present", "past", "past"] + (["future"] if style == "ji_anh" else []))
        question = False
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        if style == "mot":
            if verb.prefix:
                lexical = predicate.add_ko(verb.prefix)
                negation = predicate.add_ko("못")
                rest = verb.stem[len(verb.prefix):]
                words = predicate_word(rest, verb.past_stem[len(verb.prefix):], hangul.future_adnominal(rest),
                                       tense, question, register, True)
                for word in words:
                    tense_index = predicate.add_ko(tuple(word))
            else:
                negation = predicate.add_ko("못")
                future = verb.future_stem or hangul.future_adnominal(verb.stem)
                for i, word in enumerate(predicate_word(verb.stem, verb.past_stem, future, tense, question, register,
                                                        True)):
                    tense_index = predicate.add_ko(tuple(word))
                    if i == 0:
                        lexical = tense_index
        else:
            lexical = predicate.add_ko(ji_word(verb.stem))
            stem, past = ("못하", "못했") if style == "ji_mot" else ("않", "않았")
            future = hangul.future_adnominal(stem)
            for word in predicate_word(stem, past, future, tense, question, register, True):
                tense_index = predicate.add_ko(tuple(word))
            negation = lexical + 1
        person, plural = subject.person, subject.plural
        if style == "ji_anh":
            aux = "will" if tense == "future" else english.do_form(person, plural, tense == "past")
            predicate.add_en(aux, tense_index)
            predicate.add_en("not", negation)
        elif tense == "past":
            predicate.add_en("could", negation)
            predicate.add_en("not", negation)
        else:
            predicate.add_en("cannot", negation)
        predicate.add_en(verb.en_base, lexical)
        order = self._english_order(subject, predicate, 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order,
                              self._time(tense), question)

    # -- suggestions: -ㄹ래? / -자 --

    def _suggest(self, register: str) -> SentencePair:
        """[같이] OBJ V-ㄹ래(요)? -> Do you want to V OBJ [together]? (do, want -> V-ㄹ래; to, V too);
        [우리] [같이] OBJ V-자 -> Let's V OBJ [together] (Let's, V -> V-자)."""
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        question = self.rng.random() < 0.5
        predicate = Phrase()
        together = Phrase()
        if self.rng.random() < 0.4:
            index = together.add_ko("같이")
            together.add_en("together", index)
        we = Phrase()
        you = Phrase()
        if question:
            lexical = predicate.add_ko(rae_word(verb.stem, register in ("polite", "formal")))
            you.add_en("you")
            for word in ("do", "want", "to", verb.en_base):
                predicate.add_en(word, lexical)
            order = [(predicate, slice(0, 1)), (you, slice(None)), (predicate, slice(1, None))]
        else:
            if self.rng.random() < 0.3:
                we.add_ko("우리")
            lexical = predicate.add_ko(ja_word(verb.stem))
            predicate.add_en("Let's", lexical)
            predicate.add_en(verb.en_base, lexical)
            order = [(predicate, slice(None))]
        order += [(p, slice(None)) for p in (obj.phrase if obj else None, place, together) if p is not None and p.en]
        korean = [you, we, together, place, obj.phrase if obj else None, predicate]
        return self._assemble(korean, order, None, question)

    # -- why --

    def _why(self, register: str) -> SentencePair:
        tense = self.rng.choice(["past", "present", "past"])
        kind = self.rng.choice(["transitive", "intransitive", "motion"])
        return self._verb_sentence(kind, tense, self.rng.random() < 0.2, True, register, "why")

    # -- numbers: age, clock, cups, how many, floors, prices --

    def _copula_predicate(self, noun_ko: str, tense: str, question: bool, register: str,
                          prefix: list[Word]) -> tuple[Phrase, list[int], int]:
        phrase = Phrase()
        indices = [phrase.add_ko(word) for word in prefix]
        index = phrase.add_ko((noun_ko, copula_ending(noun_ko, tense, question, register)))
        return phrase, indices, index

    def _clock(self, register: str) -> SentencePair:
        """지금 N 시예요 -> It is N o'clock now; 몇 시예요? -> What time is it? (It, is -> 시예요)."""
        question = self.rng.random() < 0.35
        tense = "present"
        if question:
            predicate, (what,), index = self._copula_predicate("시", tense, True, register, [("몇",)])
            predicate.add_en("what", what)
            predicate.add_en("time", what, index)
            predicate.add_en("is", index)
            predicate.add_en("it", index)
            time = self._time_word("지금") if self.rng.random() < 0.4 else None
            return self._assemble([predicate], [(predicate, slice(None))], time, True)
        number = self.rng.choice([NATIVE_ONE, *self.lexicon.numbers, ("열한", "eleven"), ("열두", "twelve")])
        predicate, (num,), index = self._copula_predicate("시", tense, False, register, [(number[0],)])
        predicate.add_en("it", index)
        predicate.add_en("is", index)
        predicate.add_en(number[1], num)
        predicate.add_en("o'clock", index)
        time = self._time_word("지금") if self.rng.random() < 0.5 else None
        return self._assemble([predicate], [(predicate, slice(None))], time, False)

    def _cups(self, register: str) -> SentencePair:
        """N 두 잔 주세요 -> Please give me two cups of N; S는 N 한 잔을 마셨다 -> S drank a cup of N
        (cups -> 잔, of unaligned)."""
        drinks = [n for n in self._nouns_with(frozenset({"drink"})) if n.mass]
        drink = self.rng.choice(drinks)
        number = self.rng.choice([NATIVE_ONE, *self.lexicon.numbers[:4]])
        cups = Phrase()
        noun_index = cups.add_ko(drink.ko)
        number_index = cups.add_ko(number[0])
        request = self.rng.random() < 0.5
        counter_index = cups.add_ko(attach("잔", None if request else "object"))
        if number is NATIVE_ONE:
            cups.add_en("a", number_index)
            cups.add_en("cup", counter_index)
        else:
            cups.add_en(number[1], number_index)
            cups.add_en("cups", counter_index)
        cups.add_en("of")
        cups.add_en(drink.en, noun_index)
        if request:
            predicate = Phrase()
            ending = {"formal": REQUEST_ENDINGS[1], "banmal": REQUEST_ENDINGS[2]}.get(register, REQUEST_ENDINGS[0])
            give = predicate.add_ko(ending)
            predicate.add_en("please", give)
            predicate.add_en("give", give)
            predicate.add_en("me")
            return self._assemble([cups, predicate], [(predicate, slice(None)), (cups, slice(None))], None, False)
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        verb = next(v for v in self.lexicon.transitive if v.stem == "마시")
        tense = self.rng.choice(["past", "present", "future"])
        subject = self._subject()
        words, lexical, tense_index = verb_pieces(verb, tense, False, False, register)
        items, _ = english_verb_items(verb, tense, False, False, subject.person, subject.plural)
        predicate = predicate_phrase(words, lexical, tense_index, items)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (cups, slice(None))]
        return self._assemble([subject.phrase, cups, predicate], order, self._time(tense), False)

    def _how_many(self, register: str) -> SentencePair:
        """[LOC에] N이 몇 개 있어요? -> How many Ns are there [LOC]? (how, many -> 몇; are, there -> 있어요)."""
        tags = frozenset({"object", "food", "animal", "book", "person"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.mass and not n.plural_only])
        phrase = Phrase()
        noun_index = phrase.add_ko(attach(noun.ko, "subject"))
        how = phrase.add_ko("몇")
        counter = phrase.add_ko(noun.counter)
        predicate = Phrase()
        for word in auxiliary_words("있", "있었", "present", True, register, action=False):
            index = predicate.add_ko(word)
        phrase.add_en("how", how)
        phrase.add_en("many", how, counter)
        phrase.add_en(noun.plural, noun_index)
        predicate.add_en("are", index)
        predicate.add_en("there", index)
        korean: list[Phrase | None] = [phrase, predicate]
        order = [(phrase, slice(None)), (predicate, slice(None))]
        if self.rng.random() < 0.5:
            location, _ = self._location()
            korean.insert(0, location)
            order.append((location, slice(None)))
        return self._assemble(korean, order, None, True)

    def _floor(self, register: str) -> SentencePair:
        """N은 삼 층에 있어요 -> The N is on the third floor (Sino-Korean number -> ordinal; on, floor -> 층에)."""
        tags = frozenset({"place"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.proper])
        subject = common_phrase(noun, "topic", None, False, None)
        subject.phrase.en[0] = "the"
        number = self.rng.choice(SINO_FLOORS)
        location = Phrase()
        num = location.add_ko(number[0])
        floor = location.add_ko(attach("층", "goal"))
        location.add_en("on", floor)
        location.add_en("the")
        location.add_en(number[1], num)
        location.add_en("floor", floor)
        predicate = Phrase()
        tense = "present" if self.rng.random() < 0.8 else "past"
        for word in auxiliary_words("있", "있었", tense, False, register, action=False):
            index = predicate.add_ko(word)
        predicate.add_en(english.be_form(3, subject.plural, tense == "past"), index)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (location, slice(None))]
        return self._assemble([subject.phrase, location, predicate], order, None, False)

    def _how_much(self, register: str) -> SentencePair:
        """이 N은 얼마예요? -> How much is this N? (how, much -> 얼마; is -> 얼마예요)."""
        tags = frozenset({"object", "food", "book", "clothes", "drink"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.plural_only])
        determiner = self.rng.choice([(("이",), "this"), (("그",), "the"), (("저",), "that")])
        subject = common_phrase(noun, self.rng.choice(["topic", None]), None, determiner, None)
        predicate, _, index = self._copula_predicate("얼마", "present", True, register, [])
        predicate.add_en("how", index)
        predicate.add_en("much", index)
        predicate.add_en("is", index)
        return self._assemble([subject.phrase, predicate], [(predicate, slice(None)), (subject.phrase, slice(None))],
                              None, True)

    # -- honorific -(으)시- --

    def _honorific_pair(self, subject, verb: Verb, words: list[str], obj, place, tense: str,
                        question: bool) -> SentencePair:
        """The honorific sentence from its Korean predicate `words` (the verb's first, the tense on the last):
        the English verb of `verb`, its auxiliary aligned to the tense word."""
        from transformer_core.grammar.base import english_verb_items

        predicate = Phrase()
        lexical = predicate.add_ko(words[0])
        tense_index = lexical
        for word in words[1:]:
            tense_index = predicate.add_ko(word)
        items, before = english_verb_items(verb, tense, False, question, subject.person, subject.plural)
        for word, role_name in items:
            predicate.add_en(word, tense_index if role_name == "aux" else lexical)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order,
                              self._time(tense), question)

    # -- transport: 버스를 타고 가다 -> go by bus --

    def _transport(self, register: str) -> SentencePair:
        """S는 N을 타고 PLACE에 갔다 -> S went to PLACE by N (by -> 타고, N -> N을)."""
        from transformer_core.grammar.base import english_verb_items, place_phrase, predicate_phrase, verb_pieces

        tense = self.rng.choice(["past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        vehicles = self._nouns_with(frozenset({"rideable"}))
        vehicle = self.rng.choice(vehicles)
        ride = Phrase()
        noun_index = ride.add_ko(attach(vehicle.ko, "object"))
        ride_index = ride.add_ko(("타", "고"))
        ride.add_en("by", ride_index)
        ride.add_en(vehicle.en, noun_index)
        verb = self.rng.choice([v for v in self.lexicon.motion if v.stem in TRANSPORT_VERBS])
        place = place_phrase(self.rng.choice(self.lexicon.places), "goal", "to")
        words, lexical, tense_index = verb_pieces(verb, tense, False, question, register)
        items, before = english_verb_items(verb, tense, False, question, subject.person, subject.plural)
        predicate = predicate_phrase(words, lexical, tense_index, items)
        order = self._english_order(subject, predicate, before, [place, ride])
        return self._assemble([subject.phrase, ride, place, predicate], order, self._time(tense), question)

    # -- degree: 너무/아주/정말 with adjectives, 많이/조금 with verbs --

    def _very(self, register: str) -> SentencePair:
        """Adjective sentences with a degree adverb more often (너무 -> too, 조금 -> a little)."""
        tense = self.rng.choice(["present", "past"])
        sentence = None
        for _ in range(20):
            sentence = self._adjective_sentence(tense, False, self.rng.random() < 0.2, register)
            if len(sentence.target) > 4:
                break
        return sentence


class LearnerGrammar(EverydayGrammar):
    """The everyday constructions over the full + everyday + learner lexicon (grammar "learner"): the same
    kinds and weights, a learner's core vocabulary (the learner additions file lexicon.py reads), and irregular
    stems in the -(으)니까 / -(으)면서 / -(으)시- constructions too (들으니까, 도우세요, 쉬우니까: eu_class).
    Its own random stream: the everyday grammar's stays as it was, so the model trained on it still evaluates
    on it."""

    GRAMMAR: ClassVar[str] = LEARNER_GRAMMAR
    # A stem with two English senses (먹다: eat food, take medicine) is told apart by its object. A 뭐 question
    # has none, so it asks in one sense: 뭐 했어? what one did, 뭐 불렀어? what one sang; any other such stem
    # in its first-listed sense (뭐 먹었어? what one ate). Without this the model learned to pick either.
    WHAT_QUESTION_SENSES: ClassVar[dict[str, str]] = {"하": "do", "부르": "sing"}

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        senses: dict[str, list[Verb]] = {}
        for verb in self.lexicon.transitive:
            senses.setdefault(verb.stem, []).append(verb)
        self._senses = {stem: verbs for stem, verbs in senses.items() if len({v.en_base for v in verbs}) > 1}
        self._object_cache: dict[frozenset[str], list[Noun]] = {}

    def _what_question_verbs(self, verbs: list[Verb]) -> list[Verb]:
        def asked(verb: Verb) -> bool:
            senses = self._senses.get(verb.stem)
            if not senses:
                return True
            return verb.en_base == self.WHAT_QUESTION_SENSES.get(verb.stem, senses[0].en_base)

        return [verb for verb in verbs if asked(verb)]

    def _nouns_with(self, tags: frozenset[str]) -> list[Noun]:
        """As the base grammar's, except that a noun fitting two senses of one stem is the object of the narrower
        sense only (시험을 보다: take an exam, not see an exam)."""
        if tags not in self._object_cache:
            nouns = super()._nouns_with(tags)
            taken = {noun.ko for stem_senses in self._senses.values() for sense in stem_senses
                     if sense.objects == tags for noun in self._narrower_senses_nouns(sense, stem_senses)}
            self._object_cache[tags] = [noun for noun in nouns if noun.ko not in taken]
        return self._object_cache[tags]

    def _narrower_senses_nouns(self, sense: Verb, senses: list[Verb]) -> list[Noun]:
        """The nouns of the senses of `sense`'s stem that fit fewer nouns than `sense` does."""
        fits = super()._nouns_with  # (zero-argument super() does not work inside the comprehension)
        count = len(fits(sense.objects))
        return [noun for other in senses if other is not sense and len(fits(other.objects)) < count
                for noun in fits(other.objects)]


class Learner2Grammar(LearnerGrammar):
    """Grammar "learner2": the learner grammar over the learner lexicon's second round too (the additions file
    "learner2" that lexicon.py reads: 1,000 more entries). The same constructions, weights and homonym rules;
    its own random stream, so grammar "learner" (the bundled models' grammar) stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER2_GRAMMAR


def first_verb_english(verb: Verb, tense: str, subject) -> str:
    """The first verb of two joined clauses in the second's tense: its base after will (will eat ... and go), past,
    or present agreeing with the subject (eats ... and goes)."""
    if tense == "future":
        return verb.en_base
    if tense == "past":
        return verb.en_past
    return verb_form(verb.en_base, "present", subject.person, subject.plural)


class Learner3Grammar(Learner2Grammar):
    """Grammar "learner3": learner2's constructions and homonym rules plus the beginner syllabus's items it lacked
    (docs/models.md "Grammar learner3"), over the lexicon's third round too, and honorific suppletion: an elder
    드세요 (먹다, 마시다), 주무세요 (자다), 말씀하세요 (말하다), 계세요 (is at a place), with 께서 as the subject
    particle. Its own KINDS (the learner2 ones, then the new ones), so learner2's stream stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER3_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {
        **EverydayGrammar.KINDS, "can": 4, "must": 4, "and_then": 4, "if": 3, "before_after": 4, "go_to_do": 3,
        "tried": 2, "experience": 3, "dont": 2, "lets": 2, "please_do": 2, "honorific_stay": 2,
        "may": 2, "must_not": 2, "in_order_to": 2, "when": 3, "relative": 3}

    # -- shared pieces --

    def _subject(self, role: str | None = None, person_only: bool = True, drop: float = 0.15,
                 question: bool = False) -> NounPhrase:
        self._last_subject = super()._subject(role, person_only, drop, question)
        return self._last_subject

    def _object(self, verb: Verb) -> NounPhrase | None:
        """As the base grammar's, but never the subject's own pronoun (I ... me, we ... us, you ... you: English
        says myself)."""
        subject = getattr(self, "_last_subject", None)
        obj = super()._object(verb)
        for _ in range(20):
            if obj is None or subject is None or not (obj.person == subject.person and obj.person in (1, 2)):
                break
            obj = super()._object(verb)
        return obj

    def _clause_verb(self, kinds=("transitive", "intransitive"), exclude: str = "", form: str = "") -> Verb:
        """A verb of `kinds` other than `exclude` whose `form` word (FORMS) no other stem or noun writes."""
        verb = self._verb(kinds)
        while verb.stem == exclude or (form and verb.stem in self._ambiguous(form)):
            verb = self._verb(kinds)
        return verb

    # A construction's word for a verb; two stems writing the same word (사다 and 살다: 산, 살; 끄다 and 끌다: 끈)
    # or a noun spelled alike (산 mountain, 딸 daughter, 지은 Jieun) would teach one Korean word two meanings.

    def _form_of(self, form: str, verb: Verb) -> str:
        irregular = eu_class(verb, self.GRAMMAR)
        word = {"adnominal": lambda: past_adnominal(verb.stem, irregular), "gi": lambda: gi_word(verb.stem),
                "adnominal_present": lambda: present_adnominal(verb.stem, irregular),
                "can": lambda: future_adnominal_word(verb), "reo": lambda: reo_word(verb.stem, irregular),
                "myeon": lambda: myeon_word(verb.stem, irregular)}[form]()
        return "".join(word)

    def _ambiguous(self, form: str) -> frozenset[str]:
        """The stems whose `form` word another stem or a noun also writes."""
        cache = self.__dict__.setdefault("_ambiguous_cache", {})
        if form not in cache:
            stems: dict[str, set[str]] = {}
            for verb in self.lexicon.verbs:
                stems.setdefault(self._form_of(form, verb), set()).add(verb.stem)
            nouns = {n.ko for n in self.lexicon.common_nouns + self.lexicon.places + self.lexicon.names}
            cache[form] = frozenset(stem for word, found in stems.items() if len(found) > 1 or word in nouns
                                    for stem in found)
        return cache[form]

    def _final_predicate(self, verb: Verb, tense: str, question: bool, register: str, subject: NounPhrase,
                         negated: bool = False) -> tuple[Phrase, int]:
        """The sentence's last verb as pieces and English (will eat / ate / eats / did ... eat; `negated`: 안 먹었어요
        -> did not eat), and how many of its English words go before the subject in a question."""
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        words, lexical, tense_index = verb_pieces(verb, tense, negated, question, register)
        items, before = english_verb_items(verb, tense, negated, question, subject.person, subject.plural)
        return predicate_phrase(words, lexical, tense_index, items), before

    def _elder(self, role: str) -> NounPhrase:
        """선생님은 / 할머니께서 / 그 할아버지께서는: an elder subject; 께서 (honorific 이/가) half the time."""
        elders = [n for n in self.lexicon.common_nouns if n.ko in ELDERS]
        noun = self.rng.choice(elders)
        determiner = self._determiner(0.5) or self.rng.random() < 0.3
        if noun.plural_only and determiner not in (True, False) and determiner[1] in ("this", "that"):
            determiner = True  # 저 부모님: not "that parents"
        # a bare elder reads "the teacher" (not "a teacher": one speaks of a known person)
        subject = common_phrase(noun, role, None, determiner, None) if determiner else bare_the_phrase(noun, role)
        if self.rng.random() < 0.5:
            last = len(subject.phrase.ko) - 1
            subject.phrase.ko[last] = (noun.ko, "께서" if role == "subject" else "께서는")
        return subject

    # -- -(으)ㄹ 수 있다/없다: can / cannot --

    def _can(self, register: str) -> SentencePair:
        """S [OBJ] V-(으)ㄹ 수 있다 -> S can V [OBJ] (past: could); 없다 -> cannot (could not); ? -> Can S V?
        can/could -> 수 and 있다; not -> 없다; V -> V-(으)ㄹ."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        negated = not question and self.rng.random() < 0.35
        subject = self._subject(question=question)
        verb = self._clause_verb(("transitive", "intransitive", "motion"), form="can")
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        lexical = predicate.add_ko(future_adnominal_word(verb))
        su = predicate.add_ko(SU)
        stem, past = ("없", "없었") if negated else ("있", "있었")
        for word in auxiliary_words(stem, past, tense, question, register, action=False):
            aux = predicate.add_ko(word)
        if negated and tense == "present":
            predicate.add_en("cannot", su, aux)
        else:
            predicate.add_en("could" if tense == "past" else "can", su, aux)
            if negated:
                predicate.add_en("not", aux)
        predicate.add_en(verb.en_base, lexical)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order,
                              self._time(tense) if tense == "past" else None, question)

    # -- -아/어야 하다/되다: have to --

    def _must(self, register: str) -> SentencePair:
        """S [OBJ] V-아/어야 하다 (되다) -> S has/have/had to V [OBJ]; ? -> Do/Does/Did S have to V?
        have/has/had and do -> 하다/되다; to and V -> V-아/어야."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        lexical = predicate.add_ko(ya_word(verb.stem, verb.past_stem))
        stem, past = ("하", "했") if self.rng.random() < 0.6 else ("되", "됐")
        for word in auxiliary_words(stem, past, tense, question, register, action=True):
            aux = predicate.add_ko(word)
        if question:
            predicate.add_en(english.do_form(subject.person, subject.plural, tense == "past"), aux)
            predicate.add_en("have", aux)
        elif tense == "past":
            predicate.add_en("had", aux)
        else:
            predicate.add_en("has" if english.takes_third_person_s(subject.person, subject.plural) else "have", aux)
        predicate.add_en("to", lexical)
        predicate.add_en(verb.en_base, lexical)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order,
                              self._time(tense), question)

    # -- -고: and (then) --

    def _and_then(self, register: str) -> SentencePair:
        """S [OBJ1] V1-고 [OBJ2] V2 -> S V1 [OBJ1] and V2 [OBJ2], both in V2's tense (ate ... and went; will eat ...
        and go). V1 and and -> V1-고; will -> V2's tense word."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        return self._joined_clauses(register, tense, None, lambda verb: go_word(verb.stem), "and")

    def _joined_clauses(self, register: str, tense: str, first_kinds: tuple[str, ...] | None,
                        joined_word: Callable[[Verb], Word], connective: str) -> SentencePair:
        """S [OBJ1] V1-(ending) [OBJ2] V2 -> S V1 [OBJ1] CONNECTIVE V2 [OBJ2], both in V2's tense: V1 and the
        connective -> V1's joined word (`joined_word`: 먹고 for and, 먹거나 for or); will -> V2's tense word."""
        subject = self._subject()
        first = self._clause_verb() if first_kinds is None else self._clause_verb(first_kinds)
        second = self._clause_verb(("transitive", "intransitive", "motion"), exclude=first.stem)
        obj1, place1 = self._object(first), self._place_for(first)
        obj2, place2 = self._object(second), self._place_for(second)
        clause = Phrase()
        joined = clause.add_ko(joined_word(first))
        predicate, _ = self._final_predicate(second, tense, False, register, subject)
        clause.add_en(first_verb_english(first, tense, subject), joined)
        n_first = len(clause.en)
        clause.add_en(connective, joined)
        n_will = 1 if tense == "future" else 0
        order = [(subject.phrase, slice(None)), (predicate, slice(0, n_will)), (clause, slice(0, n_first))]
        order += [(p, slice(None)) for p in (obj1.phrase if obj1 else None, place1) if p is not None]
        order += [(clause, slice(n_first, None)), (predicate, slice(n_will, None))]
        order += [(p, slice(None)) for p in (obj2.phrase if obj2 else None, place2) if p is not None]
        korean = [subject.phrase, place1, obj1.phrase if obj1 else None, clause, place2,
                  obj2.phrase if obj2 else None, predicate]
        return self._assemble(korean, order, self._time(tense), False)

    # -- -(으)면: if --

    def _if(self, register: str) -> SentencePair:
        """[S] [OBJ1] V1-(으)면 [OBJ2] V2-(으)ㄹ 거예요 -> If S V1 [OBJ1], S will V2 [OBJ2] (if and V1 -> V1-(으)면;
        an adjective: If S is tired -> 피곤하면). The subject is a pronoun (or dropped: I), said again unaligned."""
        if self.rng.random() < 0.3:
            subject = self._dropped_subject_statement()
        else:
            subject = pronoun_phrase(self.rng.choice(self.lexicon.pronouns), self.rng.choice(["topic", "subject"]))
        self._last_subject = subject
        clause = Phrase()
        korean1: list[Phrase | None] = []
        rest1: list[Phrase | None] = []
        if self.rng.random() < 0.35:
            adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative and a.stem
                                         and takes_eu_endings(a, self.GRAMMAR) and "person" in a.applies_to])
            index = clause.add_ko(myeon_word(adjective.stem, eu_class(adjective, self.GRAMMAR)))
            clause.add_en("if", index)
            clause.add_en(english.be_form(subject.person, subject.plural, False), index)
            clause.add_en(adjective.en, index)
            first_stem = ""
        else:
            first = self._clause_verb(("transitive", "intransitive", "motion"), form="myeon")
            obj1, place1 = self._object(first), self._place_for(first)
            korean1 = [place1, obj1.phrase if obj1 else None]
            rest1 = [obj1.phrase if obj1 else None, place1]
            index = clause.add_ko(myeon_word(first.stem, eu_class(first, self.GRAMMAR)))
            clause.add_en("if", index)
            clause.add_en(verb_form(first.en_base, "present", subject.person, subject.plural), index)
            first_stem = first.stem
        second = self._clause_verb(("transitive", "intransitive", "motion"), exclude=first_stem)
        obj2, place2 = self._object(second), self._place_for(second)
        again = Phrase()
        again.add_en(",")
        again.add_en(subject.phrase.en[0] if subject.phrase.en[0] in PRONOUNS else "I")
        predicate, _ = self._final_predicate(second, "future", False, register, subject)
        order = [(clause, slice(0, 1)), (subject.phrase, slice(None)), (clause, slice(1, None))]
        order += [(p, slice(None)) for p in rest1 if p is not None]
        order += [(again, slice(None)), (predicate, slice(None))]
        order += [(p, slice(None)) for p in (obj2.phrase if obj2 else None, place2) if p is not None]
        korean = [subject.phrase, *korean1, clause, again, place2, obj2.phrase if obj2 else None, predicate]
        return self._assemble(korean, order, None, False)

    def _dropped_subject_statement(self) -> NounPhrase:
        self._question = False
        self._last_subject = self._dropped_subject()
        return self._last_subject

    # -- -아/어도 되다: may --

    def _may(self, register: str) -> SentencePair:
        """[S] [OBJ] V-아/어도 돼요? -> May I V [OBJ]? (a dropped subject asks for oneself); V-아/어도 돼요 -> You may V
        [OBJ]; 민수는 가도 돼요 -> Minsu may go. may -> 되다's word; V -> V-아/어도."""
        question = self.rng.random() < 0.6
        if self.rng.random() < 0.5:
            subject = NounPhrase(Phrase(), 1 if question else 2, False)
            subject.phrase.add_en("I" if question else "you")
            self._last_subject = subject
        else:
            subject = self._subject(drop=0.0, question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        lexical = predicate.add_ko(do_word(verb.stem, verb.past_stem))
        for word in auxiliary_words("되", "됐", "present", question, register, action=True):
            aux = predicate.add_ko(word)
        predicate.add_en("may", aux)
        predicate.add_en(verb.en_base, lexical)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, None, question)

    # -- -(으)면 안 되다: must not --

    def _must_not(self, register: str) -> SentencePair:
        """[S] [OBJ] V-(으)면 안 돼요 -> You must not V [OBJ] (a dropped subject is "you"); 민수는 ... -> Minsu must
        not V. must -> 되다's word; not -> 안; V -> V-(으)면."""
        if self.rng.random() < 0.5:
            subject = NounPhrase(Phrase(), 2, False)
            subject.phrase.add_en("you")
            self._last_subject = subject
        else:
            subject = self._subject(drop=0.0)
        verb = self._clause_verb(("transitive", "intransitive", "motion"), form="myeon")
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        lexical = predicate.add_ko(myeon_word(verb.stem, eu_class(verb, self.GRAMMAR)))
        negation = predicate.add_ko("안")
        for word in auxiliary_words("되", "됐", "present", False, register, action=True):
            aux = predicate.add_ko(word)
        predicate.add_en("must", aux)
        predicate.add_en("not", negation)
        predicate.add_en(verb.en_base, lexical)
        order = self._english_order(subject, predicate, 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, None, False)

    # -- -(으)려고: in order to --

    def _in_order_to(self, register: str) -> SentencePair:
        """S [OBJ1] V1-(으)려고 [OBJ2] V2 -> S V2 [OBJ2] to V1 [OBJ1] (to and V1 -> V1-(으)려고)."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        first = self._clause_verb(("transitive",) if self.rng.random() < 0.8 else ("intransitive",))
        second = self._clause_verb(("transitive", "intransitive", "motion"), exclude=first.stem)
        obj1, obj2, place2 = self._object(first), self._object(second), self._place_for(second)
        purpose = Phrase()
        index = purpose.add_ko(ryeogo_word(first.stem, eu_class(first, self.GRAMMAR)))
        purpose.add_en("to", index)
        purpose.add_en(first.en_base, index)
        predicate, n_before = self._final_predicate(second, tense, question, register, subject)
        order = self._english_order(subject, predicate, n_before, [obj2.phrase if obj2 else None, place2, purpose,
                                                                     obj1.phrase if obj1 else None])
        korean = [subject.phrase, obj1.phrase if obj1 else None, purpose, place2, obj2.phrase if obj2 else None,
                  predicate]
        return self._assemble(korean, order, self._time(tense), question)

    # -- -(으)ㄹ 때: when --

    def _when(self, register: str) -> SentencePair:
        """[S] [OBJ1] V1-(으)ㄹ 때 [OBJ2] V2 -> When S V1 [OBJ1] , S V2 [OBJ2] (habitual present); V1-았/었을 때
        ... V2-ed -> When S V1-ed ..., S V2-ed. When -> 때; V1 -> V1's word. The subject is a pronoun (or
        dropped: I), said again unaligned."""
        tense = self.rng.choice(["present", "past"])
        parts = self._fronted_clause_parts(form="can" if tense == "present" else "")
        clause = Phrase()
        verb_index, when = (clause.add_ko(word) for word in ttae_words(parts.first, tense))
        clause.add_en("when", when)
        return self._fronted_clause_sentence(clause, verb_index, parts, tense, register)

    def _fronted_clause_parts(self, form: str = "") -> FrontedClause:
        """The subject (a pronoun, or dropped: I) and the two verbs with their objects and places of a sentence
        whose first clause comes first (-(으)ㄹ 때, -기 때문에 ...); V1 in `form`."""
        if self.rng.random() < 0.3:
            subject = self._dropped_subject_statement()
        else:
            subject = pronoun_phrase(self.rng.choice(self.lexicon.pronouns), self.rng.choice(["topic", "subject"]))
            self._last_subject = subject
        first = self._clause_verb(("transitive", "intransitive", "motion"), form=form)
        second = self._clause_verb(("transitive", "intransitive", "motion"), exclude=first.stem)
        obj1, place1 = self._object(first), self._place_for(first)
        obj2, place2 = self._object(second), self._place_for(second)
        return FrontedClause(subject, first, second, obj1, place1, obj2, place2)

    def _fronted_clause_sentence(self, clause: Phrase, verb_index: int, parts: FrontedClause, tense: str,
                                 register: str) -> SentencePair:
        """Conjunction S V1 [OBJ1] , S V2 [OBJ2] from the Korean clause (its connective already added and
        aligned; V1 at `verb_index`); the subject said again, unaligned."""
        subject, first, second = parts.subject, parts.first, parts.second
        obj1, place1, obj2, place2 = parts.obj1, parts.place1, parts.obj2, parts.place2
        english_first = first.en_past if tense == "past" else verb_form(first.en_base, "present", subject.person,
                                                                         subject.plural)
        clause.add_en(english_first, verb_index)
        again = Phrase()
        again.add_en(",")
        again.add_en(subject.phrase.en[0] if subject.phrase.en[0] in PRONOUNS else "I")
        predicate, _ = self._final_predicate(second, tense, False, register, subject)
        order = [(clause, slice(0, 1)), (subject.phrase, slice(None)), (clause, slice(1, None))]
        order += [(p, slice(None)) for p in (obj1.phrase if obj1 else None, place1) if p is not None]
        order += [(again, slice(None)), (predicate, slice(None))]
        order += [(p, slice(None)) for p in (obj2.phrase if obj2 else None, place2) if p is not None]
        korean = [subject.phrase, place1, obj1.phrase if obj1 else None, clause, again, place2,
                  obj2.phrase if obj2 else None, predicate]
        return self._assemble(korean, order, None, False)

    # -- adnominal -(으)ㄴ / -는: the N that S V-ed --

    def _relative(self, register: str) -> SentencePair:
        """S [S2가] V1-(으)ㄴ N을 V2 -> S V2 the N that S2 V1-ed (-는: that S2 V1-s): 나는 민수가 만든 케이크를
        먹었어요 -> I ate the cake that Minsu made. that and V1 -> V1's word; the unaligned; S2 -> S2가."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        past = self.rng.random() < 0.7
        form = "adnominal" if past else "adnominal_present"
        for _ in range(50):
            main = self._clause_verb(("transitive",))
            nouns = [n for n in self._object_nouns(main) if not n.is_name and "person" not in n.tags]
            if not nouns:
                continue
            noun = self.rng.choice(nouns)
            inner = [v for v in self.lexicon.transitive if v.stem != main.stem and v.objects & noun.tags
                     and "person" in v.subjects and v.stem not in self._ambiguous(form)]
            if inner:
                break
        first = self.rng.choice(inner)
        if self.rng.random() < 0.5:
            actor = name_phrase(self.rng.choice(self.lexicon.names), "subject")
        else:
            actor = pronoun_phrase(self.rng.choice(self.lexicon.pronouns), "subject")
        relative = Phrase()
        verb_index = relative.add_ko(past_adnominal(first.stem, eu_class(first, self.GRAMMAR)) if past
                                     else present_adnominal(first.stem, eu_class(first, self.GRAMMAR)))
        noun_index = relative.add_ko(attach(noun.ko, "object"))
        relative.add_en("the")
        relative.add_en(noun.en, noun_index)
        relative.add_en("that", verb_index)
        english_verb = first.en_past if past else verb_form(first.en_base, "present", actor.person, actor.plural)
        predicate, n_before = self._final_predicate(main, tense, question, register, subject)
        # the relative verb's English is linked through `relative` (its Korean word is there)
        relative.add_en(english_verb, verb_index)
        n = len(noun.en.split()) + 2
        order = self._english_order(subject, predicate, n_before, [])
        order += [(relative, slice(0, n)), (actor.phrase, slice(None)), (relative, slice(n, None))]
        korean = [subject.phrase, actor.phrase, relative, predicate]
        return self._assemble(korean, order, None, question)  # no time word: it would read as the clause's

    # -- -기 전에 / -(으)ㄴ 후에: before / after V-ing --

    def _before_after(self, register: str) -> SentencePair:
        """S [OBJ1] V1-기 전에 [OBJ2] V2 -> S V2 [OBJ2] before V1-ing [OBJ1] (before -> 전에, V1-ing -> V1-기);
        V1-(으)ㄴ 후에 -> after V1-ing (after -> 후에, V1-ing -> V1-(으)ㄴ)."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        before = self.rng.random() < 0.5
        first = self._clause_verb(("transitive", "intransitive", "motion"), form="gi" if before else "adnominal")
        clause = Phrase()  # built before V2 is drawn: it draws nothing
        lexical = clause.add_ko(gi_word(first.stem) if before else
                                past_adnominal(first.stem, eu_class(first, self.GRAMMAR)))
        connective = clause.add_ko(GI_BEFORE if before else AFTER)
        clause.add_en("before" if before else "after", connective)
        clause.add_en(present_participle(first.en_base), lexical)
        return self._participle_clause_sentence(subject, first, clause, tense, question, register,
                                                (GI_BEFORE, AFTER))

    def _participle_clause_sentence(self, subject: NounPhrase, first: Verb, clause: Phrase, tense: str,
                                    question: bool, register: str, one_a_sentence: tuple[str, ...]) -> SentencePair:
        """S [OBJ1] CLAUSE [OBJ2] V2 -> S V2 [OBJ2] CLAUSE [OBJ1], CLAUSE being V1's (before / after V1-ing);
        V2 drawn here. No time word holding one of `one_a_sentence` (수업 후에 ... 먹은 후에: one after a sentence)."""
        second = self._clause_verb(("transitive", "intransitive", "motion"), exclude=first.stem)
        obj1, place1 = self._object(first), self._place_for(first)
        obj2, place2 = self._object(second), self._place_for(second)
        predicate, n_before = self._final_predicate(second, tense, question, register, subject)
        order = self._english_order(subject, predicate, n_before, [obj2.phrase if obj2 else None, place2, clause,
                                                                     obj1.phrase if obj1 else None, place1])
        korean = [subject.phrase, place1, obj1.phrase if obj1 else None, clause, place2,
                  obj2.phrase if obj2 else None, predicate]
        time = self._time(tense)
        if time is not None and any(word in time.ko for word in one_a_sentence):
            time = None
        return self._assemble(korean, order, time, question)

    # -- -(으)러 가다/오다: go somewhere to V --

    def _go_to_do(self, register: str) -> SentencePair:
        """S [OBJ] V-(으)러 PLACE에 가다 -> S went/goes/will go to PLACE to V [OBJ] (to and V -> V-(으)러)."""
        from transformer_core.grammar.base import place_phrase

        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._clause_verb(("transitive",) if self.rng.random() < 0.8 else ("intransitive",), form="reo")
        obj = self._object(verb)
        purpose = Phrase()
        index = purpose.add_ko(reo_word(verb.stem, eu_class(verb, self.GRAMMAR)))
        purpose.add_en("to", index)
        purpose.add_en(verb.en_base, index)
        motion = self.rng.choice([v for v in self.lexicon.motion if v.stem in TRANSPORT_VERBS])
        place = place_phrase(self.rng.choice(self.lexicon.places), "goal", "to")
        predicate, n_before = self._final_predicate(motion, tense, question, register, subject)
        order = self._english_order(subject, predicate, n_before, [place, purpose, obj.phrase if obj else None])
        korean = [subject.phrase, obj.phrase if obj else None, purpose, place, predicate]
        if self.rng.random() < 0.3:
            korean = [subject.phrase, place, obj.phrase if obj else None, purpose, predicate]
        return self._assemble(korean, order, self._time(tense), question)

    # -- -아/어 보다: try V-ing --

    def _tried(self, register: str) -> SentencePair:
        """S [OBJ] V-아/어 봤다 -> S tried V-ing [OBJ]; 볼 거예요 -> will try; ? -> Did S try V-ing?
        tried/try (did, will) -> 보다's word; V-ing -> V-아/어."""
        tense = self.rng.choice(["past", "past", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = Phrase()
        lexical = predicate.add_ko(piece_word(infinitive(verb.past_stem), "", verb.stem))
        for word in auxiliary_words("보", "봤", tense, question, register, action=True):
            aux = predicate.add_ko(word)
        if tense == "future":
            predicate.add_en("will", aux)
            predicate.add_en("try", aux)
        elif question:
            predicate.add_en("did", aux)
            predicate.add_en("try", aux)
        else:
            predicate.add_en("tried", aux)
        predicate.add_en(present_participle(verb.en_base), lexical)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order,
                              self._time(tense), question)

    # -- -(으)ㄴ 적이 있다/없다: have V-ed (before) / have never V-ed --

    def _experience(self, register: str) -> SentencePair:
        """S [OBJ] V-(으)ㄴ 적이 있다 -> S has V-en [OBJ] before; 없다 -> S has never V-en [OBJ]; ? -> Have you ever
        V-en [OBJ]? has/have -> 있다/없다; never -> 없다 and 적이; before/ever -> 적이; V-en -> V-(으)ㄴ.
        한국에 간 적이 있다 -> has been to Korea."""
        question = self.rng.random() < 0.3
        negated = not question and self.rng.random() < 0.4
        subject = self._subject(question=question)
        verbs = [v for v in self.lexicon.transitive + self.lexicon.intransitive
                 if "person" in v.subjects and past_participle(v) and v.stem not in self._ambiguous("adnominal")]
        verbs += [v for v in self.lexicon.motion if v.stem == "가"]
        verb = self.rng.choice(verbs)
        obj = self._object(verb)
        place = self._place_for(verb)
        if verb.kind == "motion":
            from transformer_core.grammar.base import place_phrase

            place = place_phrase(self.rng.choice(self.lexicon.places), "goal", "to")
        predicate = Phrase()
        lexical = predicate.add_ko(past_adnominal(verb.stem, eu_class(verb, self.GRAMMAR)))
        jeok = predicate.add_ko(JEOK)
        stem = "없" if negated else "있"
        for word in auxiliary_words(stem, stem + "었", "present", question, register, action=False):
            aux = predicate.add_ko(word)
        third = english.takes_third_person_s(subject.person, subject.plural)
        predicate.add_en("has" if third else "have", aux)
        if question:
            predicate.add_en("ever", jeok)
        elif negated:
            predicate.add_en("never", jeok, aux)
        predicate.add_en(past_participle(verb), lexical)
        n = len(predicate.en)
        if not question and not negated:
            predicate.add_en("before", jeok)
        rest = [obj.phrase if obj else None, place]
        order = self._english_order(subject, predicate, 1 if question else 0, rest)
        order = [(p, slice(part.start, n) if p is predicate and part.stop is None else part) for p, part in order]
        order.append((predicate, slice(n, None)))
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, None, question)

    # -- -지 마세요: do not V --

    def _addressee(self, person: int) -> None:
        """The unsaid subject of a request (2: you) or a suggestion (1: we), so no object is that pronoun."""
        self._last_subject = NounPhrase(Phrase(), person, person == 1)

    def _dont(self, register: str) -> SentencePair:
        """[OBJ] V-지 마세요 -> Please do not V [OBJ]; 마 / 마라 -> Do not V (please, do, not -> 마세요; V -> V-지)."""
        self._addressee(2)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        predicate = dont_predicate(verb, register)
        order = [(predicate, slice(None))] + [(p, slice(None)) for p in (obj.phrase if obj else None, place)
                                              if p is not None]
        return self._assemble([place, obj.phrase if obj else None, predicate], order, None, False)

    # -- -(으)ㅂ시다: let's --

    def _lets(self, register: str) -> SentencePair:
        """[우리] [같이] [OBJ] V-(으)ㅂ시다 -> Let's V [OBJ] [together] (Let's and V -> V-(으)ㅂ시다)."""
        self._addressee(1)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        we, together = Phrase(), Phrase()
        if self.rng.random() < 0.3:
            we.add_ko("우리")
        if self.rng.random() < 0.4:
            together.add_en("together", together.add_ko("같이"))
        predicate = Phrase()
        lexical = predicate.add_ko(bsida_word(verb.stem, eu_class(verb, self.GRAMMAR)))
        predicate.add_en("Let's", lexical)
        predicate.add_en(verb.en_base, lexical)
        order = [(predicate, slice(None))]
        order += [(p, slice(None)) for p in (obj.phrase if obj else None, place, together) if p is not None and p.en]
        return self._assemble([we, together, place, obj.phrase if obj else None, predicate], order, None, False)

    # -- -(으)세요 without a subject: please V --

    def _please_do(self, register: str) -> SentencePair:
        """[OBJ] V-(으)세요 -> Please V [OBJ] (a polite request; 드세요: please eat / drink); please, V -> the word."""
        self._addressee(2)
        verb = self._verb(("transitive", "intransitive", "motion"))
        while verb.stem == "자":  # 주무세요 is "good night", not a request
            verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        base, irregular = honorific_base(verb)
        ending = "십시오" if register == "formal" else "세요"
        predicate = Phrase()
        index = predicate.add_ko(eu_ending(base, ending, irregular))
        predicate.add_en("please", index)
        predicate.add_en(verb.en_base, index)
        order = [(predicate, slice(None))] + [(p, slice(None)) for p in (obj.phrase if obj else None, place)
                                              if p is not None]
        return self._assemble([place, obj.phrase if obj else None, predicate], order, None, False)

    # -- honorific -(으)시- with suppletion, and 계시다 --

    def _honorific(self, register: str) -> SentencePair:
        """선생님께서 책을 읽으세요 -> The teacher reads a book; 할머니께서 저녁을 드세요 -> Grandmother eats dinner
        (드시다 for 먹다 / 마시다, 주무시다 for 자다, 말씀하시다 for 말하다: HONORIFIC_BASES)."""

        tense = self.rng.choice(["present", "past", "past", "future"])
        question = self.rng.random() < 0.2
        subject = self._elder(self.rng.choice(["topic", "subject"]))
        verb = self._verb(("transitive", "intransitive", "motion"))
        suppletive = [v for v in self.lexicon.verbs if v.stem in HONORIFIC_BASES and "person" in v.subjects]
        if suppletive and self.rng.random() < 0.25:  # the suppletive verbs more often: learners get them wrong
            verb = self.rng.choice(suppletive)
        obj, place = self._object(verb), self._place_for(verb)
        base, irregular = honorific_base(verb)
        words = honorific_words(base, tense, question, register, irregular)
        return self._honorific_pair(subject, verb, words, obj, place, tense, question)

    def _honorific_stay(self, register: str) -> SentencePair:
        """할머니께서는 집에 계세요 -> Grandmother is at home; ? -> Is the teacher at the school? (is/was -> 계시다;
        at -> PLACE에). Future: will be."""
        from transformer_core.grammar.base import place_phrase

        tense = self.rng.choice(["present", "present", "past", "future"])
        question = self.rng.random() < 0.25
        subject = self._elder(self.rng.choice(["topic", "topic", "subject"]))
        chosen = self.rng.choice(self.lexicon.places)
        place = place_phrase(chosen, "goal", "at")
        if chosen.en == "home":
            place = Phrase()
            place.add_en("at", place.add_ko(attach(chosen.ko, "goal")))
            place.add_en("home", 0)
        words = honorific_words(STAY_BASE, tense, question, register)
        predicate = Phrase()
        for word in words:
            index = predicate.add_ko(word)
        if tense == "future":
            predicate.add_en("will", index)
            predicate.add_en("be", index)
            before = 1 if question else 0
        else:
            predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), index)
            before = 1 if question else 0
        order = self._english_order(subject, predicate, before, [place])
        return self._assemble([subject.phrase, place, predicate], order, self._time(tense), question)


class Learner4Grammar(Learner3Grammar):
    """Grammar "learner4": learner3 plus the beginner syllabus's items it still lacked (docs/models.md "Grammar
    learner4"): -겠- and -(으)ㄹ게요 (I will; 날씨가 춥겠어요 -> The weather will be cold), -기 때문에 and N 때문에
    (because, because of), -고 나서 (after V-ing), -게 되다 (came to V), -기로 하다 (decided to V), -(으)ㄴ/는 것 같다
    (I think ...), -는데 / -(으)ㄴ데 (..., but), -지요? (..., right?), -네요 (the same statement, exclaimed), -아/어
    있다 (문이 열려 있어요 -> The door is open), N보다 (더) ADJ (bigger than N) and PLACE에서 제일/가장 ADJ (the
    biggest in PLACE). The learner3 lexicon plus the months (the additions file "learner4"); its own KINDS
    (learner3's, then the new ones)."""

    GRAMMAR: ClassVar[str] = LEARNER4_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {
        **Learner3Grammar.KINDS, "intend": 3, "promise": 3, "because": 3, "after_doing": 3, "came_to": 2,
        "decided": 3, "seems": 3, "background": 3, "tag": 2, "exclaim": 2, "state": 2, "compare": 3, "most": 2,
        "because_of": 2, "predict": 2}
    CONNECTIVE_ENGLISH: ClassVar[dict[str, str]] = {**Learner3Grammar.CONNECTIVE_ENGLISH, "neunde": "but"}

    def _connective_word(self, connective: str, entry: Verb | Adjective, tense: str) -> Word:
        if connective == "neunde":
            return neunde_word(entry, tense)
        return super()._connective_word(connective, entry, tense)

    def _speaker(self, question: bool = False) -> NounPhrase:
        """The one who says -겠- or -(으)ㄹ게요: 제가 / 저는 / 나는 / 내가 / 우리는 ..., or nobody written (I); in a
        question the one asked (you), never written."""
        if question or self.rng.random() < 0.35:
            self._question = question
            self._last_subject = self._dropped_subject()
        else:
            pronoun = self.rng.choice([p for p in self.lexicon.pronouns if p.person == 1])
            self._last_subject = pronoun_phrase(pronoun, self.rng.choice(["topic", "subject"]))
        return self._last_subject

    def _simple(self, subject: NounPhrase, verb: Verb, predicate: Phrase, before: int, time: Phrase | None,
                question: bool) -> SentencePair:
        """S [PLACE] [OBJ] PREDICATE with the English in `predicate` (its first `before` words before S)."""
        obj, place = self._object(verb), self._place_for(verb)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, time, question)

    # -- -겠-: I will (intention); Will you ...? --

    def _intend(self, register: str) -> SentencePair:
        """[제가] [OBJ] V-겠어요 -> I will V [OBJ]; [OBJ] V-겠어요? -> Will you V [OBJ]? (will and V -> V-겠-).
        The speaker's intention (the prediction: _predict)."""
        question = self.rng.random() < 0.25
        subject = self._speaker(question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        predicate = Phrase()
        index = predicate.add_ko(gess_word(verb.stem, register, question))
        predicate.add_en("will", index)
        predicate.add_en(verb.en_base, index)
        return self._simple(subject, verb, predicate, 1 if question else 0, self._time("future"), question)

    # -- -겠-: prediction (the weather) --

    def _predict(self, register: str) -> SentencePair:
        """[TIME] 날씨가 ADJ-겠어요 -> The weather will be ADJ [TIME] (내일 날씨가 춥겠어요 -> The weather will be cold
        tomorrow); ? -> Will the weather be ADJ? will, be and ADJ -> ADJ-겠-; the unaligned. Rain and snow (비가
        오겠어요) are not written: the grammar has no sentence of them falling."""
        question = self.rng.random() < 0.2
        noun = self.rng.choice([n for n in self.lexicon.common_nouns if n.en == "weather"])
        subject = bare_the_phrase(noun, self.rng.choice(["subject", "subject", "topic"]))
        adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative and a.stem
                                     and "weather" in a.applies_to])
        predicate = Phrase()
        index = predicate.add_ko(gess_word(adjective.stem, register, question))
        predicate.add_en("will", index)
        predicate.add_en("be", index)
        predicate.add_en(adjective.en, index)
        order = self._english_order(subject, predicate, 1 if question else 0, [])
        return self._assemble([subject.phrase, predicate], order, self._time("future"), question)

    # -- -(으)ㄹ게요: I will (a promise) --

    def _promise(self, register: str) -> SentencePair:
        """[제가] [OBJ] V-(으)ㄹ게요 -> I will V [OBJ] (will and V -> V-(으)ㄹ게요; banmal and plain: -(으)ㄹ게)."""
        subject = self._speaker()
        verb = self._verb(("transitive", "intransitive", "motion"))
        predicate = Phrase()
        index = predicate.add_ko(will_word(verb, register))
        predicate.add_en("will", index)
        predicate.add_en(verb.en_base, index)
        return self._simple(subject, verb, predicate, 0, self._time("future"), False)

    # -- -기 때문에: because --

    def _because(self, register: str) -> SentencePair:
        """[S] [OBJ1] V1-기 때문에 [OBJ2] V2 -> Because S V1 [OBJ1] , S V2 [OBJ2]; V1-았/었기 때문에 -> Because S
        V1-ed. Because -> 때문에; V1 -> V1-기. The subject is a pronoun (or dropped: I), said again unaligned."""
        tense = self.rng.choice(["present", "past", "past"])
        parts = self._fronted_clause_parts()
        clause = Phrase()
        verb_index = clause.add_ko(gi_past_word(parts.first.stem, parts.first.past_stem, tense))
        because = clause.add_ko(BECAUSE)
        clause.add_en("because", because)
        return self._fronted_clause_sentence(clause, verb_index, parts, tense, register)

    # -- N 때문에: because of N --

    def _because_of(self, register: str) -> SentencePair:
        """S N 때문에 [OBJ] V -> S V [OBJ] because of the N (폭우 때문에 -> because of the heavy rain; because, of ->
        때문에; N -> N; the unaligned). N: a noun that can be a reason (REASON_TAGS: weather, traffic, noise, exams)."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        noun = self.rng.choice([n for n in self.lexicon.common_nouns if n.tags & REASON_TAGS
                                and not n.tags & NOT_REASONS and n.en not in REASONS_WITHOUT_THE])
        reason = Phrase()
        noun_index = reason.add_ko(noun.ko)
        because = reason.add_ko(BECAUSE)
        reason.add_en("because", because)
        reason.add_en("of", because)
        reason.add_en("the")
        reason.add_en(noun.en, noun_index)
        predicate, n_before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, n_before, [obj.phrase if obj else None, place, reason])
        korean = [subject.phrase, reason, place, obj.phrase if obj else None, predicate]
        return self._assemble(korean, order, self._time(tense), question)

    # -- -고 나서: after V-ing --

    def _after_doing(self, register: str) -> SentencePair:
        """S [OBJ1] V1-고 나서 [OBJ2] V2 -> S V2 [OBJ2] after V1-ing [OBJ1] (after -> 나서; V1-ing -> V1-고)."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        first = self._clause_verb(("transitive", "intransitive", "motion"))
        clause = Phrase()
        lexical = clause.add_ko(go_word(first.stem))
        clause.add_en("after", clause.add_ko(NASEO))
        clause.add_en(present_participle(first.en_base), lexical)
        return self._participle_clause_sentence(subject, first, clause, tense, question, register, (AFTER,))

    # -- -게 되다: came to V --

    def _came_to(self, register: str) -> SentencePair:
        """S [OBJ] V-게 됐어요 -> S came to V [OBJ]; V-게 될 거예요 -> S will come to V (came / will come -> 되다's
        word; to and V -> V-게)."""
        tense = self.rng.choice(["past", "past", "future"])
        subject = self._subject()
        verb = self._verb(("transitive", "intransitive"))
        predicate = Phrase()
        lexical = predicate.add_ko(ge_word(verb.stem))
        for word in auxiliary_words("되", "됐", tense, False, register, action=True):
            aux = predicate.add_ko(word)
        if tense == "future":
            predicate.add_en("will", aux)
            predicate.add_en("come", aux)
        else:
            predicate.add_en("came", aux)
        predicate.add_en("to", lexical)
        predicate.add_en(verb.en_base, lexical)
        return self._simple(subject, verb, predicate, 0, self._time(tense), False)

    # -- -기로 하다: decided to V --

    def _decided(self, register: str) -> SentencePair:
        """S [OBJ] V-기로 했어요 -> S decided to V [OBJ]; ? -> Did S decide to V [OBJ]? (decided, did and decide ->
        하다's word; to and V -> V-기로)."""
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        predicate = Phrase()
        lexical = predicate.add_ko(giro_word(verb.stem))
        for word in auxiliary_words("하", "했", "past", question, register, action=True):
            aux = predicate.add_ko(word)
        if question:
            predicate.add_en("did", aux)
            predicate.add_en("decide", aux)
        else:
            predicate.add_en("decided", aux)
        predicate.add_en("to", lexical)
        predicate.add_en(verb.en_base, lexical)
        return self._simple(subject, verb, predicate, 1 if question else 0, self._time("past"), question)

    # -- -(으)ㄴ/는/(으)ㄹ 것 같다: I think ... --

    def _seems(self, register: str) -> SentencePair:
        """S [OBJ] V-는 것 같아요 -> I think S V-s [OBJ]; V-(으)ㄴ 것 같아요 -> I think S V-ed; V-(으)ㄹ 것 같아요 -> I
        think S will V. I -> 같다's word; think -> 것 and 같다's word; V (and will) -> the adnominal."""
        tense = self.rng.choice(["present", "past", "past", "future"])
        subject = self._subject(drop=0.0)
        form = {"present": "adnominal_present", "past": "adnominal", "future": "can"}[tense]
        verb = self._clause_verb(("transitive", "intransitive", "motion"), form=form)
        predicate = Phrase()
        lexical = predicate.add_ko(seem_adnominal(verb, tense, eu_class(verb, self.GRAMMAR)))
        thing = predicate.add_ko(THING)
        for word in auxiliary_words(*SEEM, "present", False, register, action=False):
            seem = predicate.add_ko(word)
        predicate.add_en("I", seem)
        predicate.add_en("think", thing, seem)
        if tense == "future":
            predicate.add_en("will", lexical)
            predicate.add_en(verb.en_base, lexical)
        elif tense == "past":
            predicate.add_en(verb.en_past, lexical)
        else:
            predicate.add_en(verb_form(verb.en_base, "present", subject.person, subject.plural), lexical)
        return self._simple(subject, verb, predicate, 2, None, False)  # no time word: it would read as the clause's

    # -- -는데 / -(으)ㄴ데: ..., but --

    def _background(self, register: str) -> SentencePair:
        """CL1-는데 CL2 -> CL1 , but CL2 (먹는데, 먹었는데, 피곤한데: but -> the -는데 word), as -지만."""
        return self._two_clauses("neunde", register)

    # -- -지요? / -죠?: ..., right? --

    def _tag(self, register: str) -> SentencePair:
        """S [OBJ] V-지요? -> S V-s [OBJ] , right? (-았/었지요: S V-ed; -죠 the same); right and V -> the -지요 word.
        A dropped subject is the one asked (you). Polite speech only, as the ending is."""
        tense = self.rng.choice(["present", "past", "past"])
        subject = self._subject(question=True)
        verb = self._verb(("transitive", "intransitive", "motion"))
        predicate = Phrase()
        index = predicate.add_ko(tag_word(verb.stem, verb.past_stem, tense, self.rng.choice(TAG_ENDINGS)))
        english_verb = verb.en_past if tense == "past" else verb_form(verb.en_base, "present", subject.person,
                                                                       subject.plural)
        predicate.add_en(english_verb, index)
        n = len(predicate.en)
        predicate.add_en(",")
        predicate.add_en("right", index)
        obj, place = self._object(verb), self._place_for(verb)
        order = self._english_order(subject, predicate, 0, [obj.phrase if obj else None, place])
        order = [(p, slice(part.start, n) if p is predicate and part.stop is None else part) for p, part in order]
        order.append((predicate, slice(n, None)))
        # no time word: English puts it last, after the tag
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, None, True)

    # -- -아/어 있다: a resulting state --

    def _state(self, register: str) -> SentencePair:
        """N이 V-아/어 있어요 -> The N is STATE (문이 열려 있어요 -> The door is open; 불이 꺼져 있었어요 -> The fire
        was out); S는 앉아 있어요 -> S is sitting (STATE_ENGLISH); ? -> Is the N open? is/was -> 있다's word;
        STATE -> V-아/어. No place: where one sits takes 에 (의자에 앉아 있다), which the places here do not say."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        verb = self.rng.choice([v for v in self.lexicon.intransitive if STATE_ENGLISH.get(v.stem)])
        if "person" in verb.subjects:
            subject = self._subject(question=question)
            state = STATE_ENGLISH[verb.stem]
        else:
            noun = self.rng.choice([n for n in self.lexicon.common_nouns if n.tags & verb.subjects])
            subject = bare_the_phrase(noun, self.rng.choice(["subject", "subject", "topic"]))
            state = "out" if noun.tags & STATE_OUT_TAGS else STATE_ENGLISH[verb.stem]
        predicate = Phrase()
        lexical = predicate.add_ko(piece_word(infinitive(verb.past_stem), "", verb.stem))
        for word in auxiliary_words("있", "있었", tense, question, register, action=False):
            aux = predicate.add_ko(word)
        predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), aux)
        predicate.add_en(state, lexical)
        order = self._english_order(subject, predicate, 1 if question else 0, [])
        return self._assemble([subject.phrase, predicate], order, None, question)

    # -- N보다 (더) ADJ: comparison; PLACE에서 제일/가장 ADJ: superlative --

    def _degree_predicate(self, adjective: Adjective, tense: str, question: bool, register: str, subject: NounPhrase,
                          degree: Word | None, superlative: bool) -> Phrase:
        """[더 / 제일 / 가장] ADJ-요 -> is bigger / is more tired / is the biggest / is the most tired: is -> ADJ's
        word; the -er / -est word -> ADJ's word (and 더 / 제일 when written); more / the most -> 더 / 제일 (ADJ's word
        when 더 is not written)."""
        predicate = Phrase()
        marker = predicate.add_ko(degree) if degree else -1
        for word in predicate_word(adjective.stem, adjective.past_stem,
                                   hangul.adnominal_future_from_present(adjective.attributive), tense, question,
                                   register, action=False):
            index = predicate.add_ko(tuple(word))
        predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), index)
        comparative, most = english_degree(adjective.en)
        words = most if superlative else comparative
        if superlative:
            predicate.add_en("the", marker)
        if words[0] in ("more", "most"):
            predicate.add_en(words[0], marker if degree else index)
            predicate.add_en(" ".join(words[1:]), index)
        else:
            predicate.add_en(words[0], *((index, marker) if degree else (index,)))
        return predicate

    def _compared(self) -> Adjective:
        return self.rng.choice([a for a in self.lexicon.adjectives if comparable(a)])

    def _compare(self, register: str) -> SentencePair:
        """S는 N보다 (더) ADJ -> S is ADJ-er / more ADJ than N (than and N -> N보다); 민수는 지수보다 더 커요 ->
        Minsu is bigger than Jisu. N: a name or a person (the student); ? -> Is S ADJ-er than N?"""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.2
        subject = self._subject(drop=0.0, question=question)
        than = Phrase()
        names = [n for n in self.lexicon.names if subject.phrase.en[:1] != [n.en]]
        people = [n for n in self._nouns_with(frozenset({"person"}))
                  if n.en.split() != subject.phrase.en[-len(n.en.split()):]]  # not "the student than the student"
        if names and (not people or self.rng.random() < 0.5):
            other = self.rng.choice(names)
            index = than.add_ko((other.ko, "보다"))
            than.add_en("than", index)
            than.add_en(other.en, index)
        else:
            other = self.rng.choice(people)
            index = than.add_ko((other.ko, "보다"))
            than.add_en("than", index)
            than.add_en("the")
            than.add_en(other.en, index)
        adjective = self._compared()
        degree = MORE if self.rng.random() < 0.6 else None
        predicate = self._degree_predicate(adjective, tense, question, register, subject, degree, False)
        order = self._english_order(subject, predicate, 1 if question else 0, [than])
        return self._assemble([subject.phrase, than, predicate], order, None, question)

    def _most(self, register: str) -> SentencePair:
        """S는 PLACE에서 제일/가장 ADJ -> S is the ADJ-est / the most ADJ in PLACE (the and -est -> ADJ's word and
        제일; in PLACE -> PLACE에서); 민수는 서울에서 제일 커요 -> Minsu is the biggest in Seoul."""
        from transformer_core.grammar.base import place_phrase

        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.2
        subject = self._subject(drop=0.0, question=question)
        # a city or country (the tallest in Seoul): "the tallest in the laundry room" says little
        place = place_phrase(self.rng.choice([p for p in self.lexicon.places if p.proper]), "location", "in")
        adjective = self._compared()
        predicate = self._degree_predicate(adjective, tense, question, register, subject,
                                           self.rng.choice(SUPERLATIVE_WORDS), True)
        order = self._english_order(subject, predicate, 1 if question else 0, [place])
        return self._assemble([subject.phrase, place, predicate], order, None, question)

    # -- -네요: exclamation --

    def _exclaim(self, register: str) -> SentencePair:
        """S [OBJ] V-네요 -> S V-s [OBJ] (S V-ed: -았/었네요); S ADJ-네요 -> S is ADJ. English has no ending for the
        speaker's surprise: the same statement (V and is -> the -네요 word). Never of oneself (나는 ... -네요)."""
        tense = self.rng.choice(["present", "present", "past"])
        subject = self._subject(drop=0.0)
        while subject.person == 1:  # -네요 tells what one notices in someone else, not in oneself
            subject = self._subject(drop=0.0)
        if self.rng.random() < 0.4:
            adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative and a.stem
                                         and "person" in a.applies_to])
            predicate = Phrase()
            index = predicate.add_ko(neyo_word(adjective.stem, adjective.past_stem, tense))
            predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), index)
            predicate.add_en(adjective.en, index)
            order = self._english_order(subject, predicate, 0, [])
            return self._assemble([subject.phrase, predicate], order, None, False)
        verb = self._verb(("transitive", "intransitive", "motion"))
        predicate = Phrase()
        index = predicate.add_ko(neyo_word(verb.stem, verb.past_stem, tense))
        predicate.add_en(verb.en_past if tense == "past" else verb_form(verb.en_base, "present", subject.person,
                                                                         subject.plural), index)
        return self._simple(subject, verb, predicate, 0, self._time(tense), False)


class Learner5Grammar(Learner4Grammar):
    """Grammar "learner5": learner4 plus the beginner syllabus's items it still lacked (docs/models.md "Grammar
    learner5"): N만 (only N), N도 (N too), N하고 / N(이)랑 (with N), PLACE1에서 PLACE2까지 (from PLACE1 to
    PLACE2), -(으)ㄹ까요? (Shall we V?), -아/어 드릴까요? (Shall I V for you?), -아/어 주다 with N에게 / N한테 (V
    for N; an elder N께 with 드리다), -아/어지다 (날씨가 추워졌어요 -> The weather got colder) and V-는 것을 /
    V-기를 좋아하다 (like V-ing). The learner4 lexicon plus the fifth round (the additions file "learner5"); its
    own KINDS (learner4's, then the new ones), so learner4's stream stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER5_GRAMMAR
    TYPED_CUT: ClassVar[bool] = True  # trains on each word as the tokenizer cuts it (가는 "going" included)
    KINDS: ClassVar[dict[str, int]] = {
        **Learner4Grammar.KINDS, "only": 3, "also": 3, "shall_we": 3, "for_someone": 3, "became": 3,
        "like_doing": 3, "with": 3, "offer": 2, "from_to": 2}

    # -- N만 / N도: only N, N too --

    def _noun_object(self, verb: Verb) -> NounPhrase:
        """An object of `verb` that is a noun (never a pronoun or a number: 저만, 두 개만 are not written)."""
        return self._noun_phrase(verb.objects, "object", allow_pronoun=False, allow_number=False)

    def _particle_object(self, verb: Verb, particle: str) -> NounPhrase:
        """The object of `verb` (_noun_object) with `particle` in place of 을/를."""
        obj = self._noun_object(verb)
        last = len(obj.phrase.ko) - 1
        obj.phrase.ko[last] = (*obj.phrase.ko[last][:-1], particle)
        return obj

    def _only(self, register: str) -> SentencePair:
        """S N만 V -> S V only N (민수는 사과만 먹었어요 -> Minsu ate only an apple; only and N -> N만); ? -> Did S
        V only N?"""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._verb(("transitive",))
        obj = self._particle_object(verb, ONLY)
        last = len(obj.phrase.ko) - 1
        obj.phrase.en.insert(0, "only")
        obj.phrase.links.insert(0, (last,))
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase])
        return self._assemble([subject.phrase, obj.phrase, predicate], order, self._time(tense), question)

    def _also(self, register: str) -> SentencePair:
        """S N도 V -> S V N too (민수는 사과도 먹었어요 -> Minsu ate an apple too; too -> N도); ? -> Did S V N too?
        No time word: English would put it after too."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self._verb(("transitive",))
        obj = self._particle_object(verb, ALSO)
        obj.phrase.add_en("too", len(obj.phrase.ko) - 1)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase])
        return self._assemble([subject.phrase, obj.phrase, predicate], order, None, question)

    # -- -(으)ㄹ까요?: Shall we V? --

    def _shall_we(self, register: str) -> SentencePair:
        """[우리] [같이] [OBJ] V-(으)ㄹ까요? -> Shall we V [OBJ] [together]? (Shall and V -> V-(으)ㄹ까요; we -> 우리
        when written, else the verb). 우리 or 같이 is always written: without them V-(으)ㄹ까요? is also the grammar's
        future question (먹을까요? -> Will you eat?)."""
        self._addressee(1)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        we, together = Phrase(), Phrase()
        with_we = self.rng.random() < 0.4
        if with_we:
            we.add_en("we", we.add_ko("우리"))
        if not with_we or self.rng.random() < 0.5:
            together.add_en("together", together.add_ko("같이"))
        predicate = Phrase()
        lexical = predicate.add_ko(shall_word(verb, register))
        predicate.add_en("Shall", lexical)
        if not we.en:
            predicate.add_en("we", lexical)
        predicate.add_en(verb.en_base, lexical)
        order = [(predicate, slice(0, 1)), (we, slice(None)), (predicate, slice(1, None))]
        order += [(p, slice(None)) for p in (obj.phrase if obj else None, place, together) if p is not None and p.en]
        return self._assemble([we, together, place, obj.phrase if obj else None, predicate], order, None, True)

    # -- -아/어 주다 / 드리다 with N에게 / N한테 / N께: V for N --

    def _recipient(self, subject: NounPhrase) -> tuple[Phrase, bool]:
        """N에게 / N한테 -> for N (a name, or a person: for the student); an elder N께 (for the teacher), and whether
        it is an elder (드리다 in place of 주다)."""
        phrase = Phrase()
        names = [n for n in self.lexicon.names if subject.phrase.en[:1] != [n.en]]
        people = [n for n in self._nouns_with(frozenset({"person"}))
                  if n.en.split() != subject.phrase.en[-len(n.en.split()):] and not n.plural_only]
        if names and (not people or self.rng.random() < 0.5):
            noun = self.rng.choice(names)
            index = phrase.add_ko(particle_word(noun.ko, self.rng.choice(RECIPIENT_PARTICLES)))
            phrase.add_en("for", index)
            phrase.add_en(noun.en, index)
            return phrase, False
        noun = self.rng.choice(people)
        elder = noun.ko in ELDERS
        index = phrase.add_ko(particle_word(noun.ko, ELDER_RECIPIENT if elder
                                            else self.rng.choice(RECIPIENT_PARTICLES)))
        phrase.add_en("for", index)
        phrase.add_en("the")
        phrase.add_en(noun.en, index)
        return phrase, elder

    def _for_someone(self, register: str) -> SentencePair:
        """S N에게 OBJ V-아/어 줬어요 -> S V-ed OBJ for N (민수는 지수에게 케이크를 만들어 줬어요 -> Minsu made a cake
        for Jisu); an elder: 할머니께 ... 만들어 드렸어요 -> ... for the grandmother. V -> V-아/어; the tense (did,
        will) -> 주다's word; for and N -> N에게. Only the verbs whose English takes "for" (BENEFACTIVE_VERBS)."""
        from transformer_core.grammar.base import english_verb_items

        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(drop=0.1, question=question)
        verbs = [v for v in self.lexicon.transitive if (v.stem, v.en_base) in BENEFACTIVE_VERBS]
        verb = self.rng.choice(verbs)
        obj = self._object(verb)
        recipient, elder = self._recipient(subject)
        predicate = Phrase()
        lexical = predicate.add_ko(piece_word(infinitive(verb.past_stem), "", verb.stem))
        for word in auxiliary_words(*(GIVE_HUMBLE if elder else GIVE), tense, question, register, action=True):
            tense_index = predicate.add_ko(word)
        items, before = english_verb_items(verb, tense, False, question, subject.person, subject.plural)
        has_aux = any(role == "aux" for _, role in items)
        for word, role in items:
            if role == "aux":
                predicate.add_en(word, tense_index)
            else:  # made -> 만들어 and 줬어요 (the past); make (after did / will) -> 만들어
                predicate.add_en(word, *((lexical,) if has_aux else (lexical, tense_index)))
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, recipient])
        korean = [subject.phrase, recipient, obj.phrase if obj else None, predicate]
        return self._assemble(korean, order, self._time(tense), question)

    # -- -아/어 드릴까요?: Shall I V for you? --

    def _offer(self, register: str) -> SentencePair:
        """[제가] [OBJ] V-아/어 드릴까요? -> Shall I V [OBJ] for you? (제가 케이크를 만들어 드릴까요? -> Shall I make
        a cake for you?; banmal 만들어 줄까?). Shall, for, you -> 드릴까요; I -> 제가 (else 드릴까요); V -> V-아/어.
        The verbs of -아/어 주다 (BENEFACTIVE_VERBS)."""
        self._addressee(2)
        verb = self.rng.choice([v for v in self.lexicon.transitive if (v.stem, v.en_base) in BENEFACTIVE_VERBS])
        obj = self._noun_object(verb)  # not "Shall I draw us for you?"
        speaker = Phrase()
        if self.rng.random() < 0.4:
            speaker.add_en("I", speaker.add_ko(("제" if register in ("polite", "formal") else "내", "가")))
        predicate = Phrase()
        lexical = predicate.add_ko(piece_word(infinitive(verb.past_stem), "", verb.stem))
        offer = predicate.add_ko(offer_word(register))
        predicate.add_en("Shall", offer)
        if not speaker.en:
            predicate.add_en("I", offer)
        predicate.add_en(verb.en_base, lexical)
        n = len(predicate.en)
        predicate.add_en("for", offer)
        predicate.add_en("you", offer)
        order = [(predicate, slice(0, 1)), (speaker, slice(None)), (predicate, slice(1, n))]
        order += [(obj.phrase, slice(None)), (predicate, slice(n, None))]
        return self._assemble([speaker, obj.phrase, predicate], order, None, True)

    # -- PLACE1에서 PLACE2까지: from PLACE1 to PLACE2 --

    def _from_to(self, register: str) -> SentencePair:
        """S PLACE1에서 PLACE2까지 V -> S V from PLACE1 to PLACE2 (민수는 집에서 학교까지 걸어갔어요 -> Minsu walked
        from home to the school); from, PLACE1 -> PLACE1에서; to, PLACE2 -> PLACE2까지. V: a motion verb whose
        English takes both (FROM_TO_VERBS); PLACE2 is never home (English says "walked home")."""
        from transformer_core.grammar.base import place_phrase

        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self.rng.choice([v for v in self.lexicon.motion if (v.stem, v.en_base) in FROM_TO_VERBS])
        end = self.rng.choice([p for p in self.lexicon.places if p.en != "home"])
        start = self.rng.choice([p for p in self.lexicon.places if p.ko != end.ko])
        origin = place_phrase(start, "location", "from")
        goal = Phrase()
        index = goal.add_ko(particle_word(end.ko, UNTIL))
        goal.add_en("to", index)
        if not end.proper:
            goal.add_en("the")
        goal.add_en(end.en, index)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [origin, goal])
        return self._assemble([subject.phrase, origin, goal, predicate], order, self._time(tense), question)

    # -- -아/어지다: got ADJ-er --

    def _became(self, register: str) -> SentencePair:
        """S ADJ-아/어졌어요 -> S got ADJ-er (날씨가 추워졌어요 -> The weather got colder; 민수는 바빠졌어요 -> Minsu
        got busier); -아/어질 거예요 -> will get ADJ-er; ? -> Did S get ADJ-er? got / get -> 지다's word; ADJ-er ->
        the ADJ-아/어 word (more: the same)."""
        tense = self.rng.choice(["past", "past", "future"])
        question = self.rng.random() < 0.2
        weather = [n for n in self.lexicon.common_nouns if n.en == "weather"]
        changing = [a for a in self.lexicon.adjectives if a.predicative and a.stem and "weather" in a.applies_to
                    and a.en in CHANGING_WEATHER]
        compared = [a for a in self.lexicon.adjectives if comparable(a)]
        if weather and changing and (not compared or self.rng.random() < 0.5):
            subject = bare_the_phrase(self.rng.choice(weather), self.rng.choice(["subject", "subject", "topic"]))
            adjective = self.rng.choice(changing)
        else:
            subject = self._subject(drop=0.0, question=question)
            adjective = self.rng.choice(compared)
        predicate = Phrase()
        words = become_words(adjective, tense, question, register)
        for word in words:
            last = predicate.add_ko(word)
        before = 0
        if question:
            predicate.add_en("will" if tense == "future" else english.do_form(subject.person, subject.plural, True),
                             last)
            before = 1
        elif tense == "future":
            predicate.add_en("will", last)
        predicate.add_en("got" if tense == "past" and not question else "get", 0)
        for word in english_degree(adjective.en)[0]:
            predicate.add_en(word, 0)
        order = self._english_order(subject, predicate, before, [])
        return self._assemble([subject.phrase, predicate], order, self._time(tense), question)

    # -- N하고 / N(이)랑: with N --

    def _companion(self, subject: NounPhrase) -> Phrase:
        """N하고 / N(이)랑 -> with N (a name, or a person: with the student); with and N -> the word."""
        phrase = Phrase()
        names = [n for n in self.lexicon.names if subject.phrase.en[:1] != [n.en]]
        people = [n for n in self._nouns_with(frozenset({"person"}))
                  if n.en.split() != subject.phrase.en[-len(n.en.split()):] and not n.plural_only]
        noun = self.rng.choice(names if names and (not people or self.rng.random() < 0.5) else people)
        index = phrase.add_ko(companion_word(noun.ko, self.rng.choice(COMPANION_PARTICLES)))
        phrase.add_en("with", index)
        if not noun.is_name:
            phrase.add_en("the")
        phrase.add_en(noun.en, index)
        return phrase

    def _with(self, register: str) -> SentencePair:
        """S N하고 [PLACE] [OBJ] V -> S V [OBJ] [PLACE] with N (민수는 지수하고 학교에 갔어요 -> Minsu went to the
        school with Jisu; 지수랑 / 학생이랑 the same); ? -> Did S V ... with N? V: going somewhere, a hobby or chore,
        or a thing done together (JOINT_VERBS)."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        verb = self.rng.choice([v for v in self.lexicon.verbs if (v.kind == "motion" and "person" in v.subjects)
                                or (v.stem, v.en_base) in (ACTIVITY_VERBS | JOINT_VERBS)])
        obj, place = self._object(verb), self._place_for(verb)
        companion = self._companion(subject)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place, companion])
        korean = [subject.phrase, companion, place, obj.phrase if obj else None, predicate]
        return self._assemble(korean, order, self._time(tense), question)

    # -- V-는 것을 / V-기를 좋아하다: like V-ing --

    def _like_doing(self, register: str) -> SentencePair:
        """S V-는 것을 좋아해요 / V-기를 좋아해요 -> S likes V-ing (민수는 수영하는 것을 좋아해요 -> Minsu likes
        swimming); 싫어하다 -> hates V-ing; ? -> Do you like V-ing? like -> 좋아하다's word; V-ing -> V-는 것을 (or
        V-기를). V: a hobby or chore without an object (ACTIVITY_VERBS; not 'likes eating an apple')."""
        tense = self.rng.choice(["present", "present", "past"])
        question = self.rng.random() < 0.25
        subject = self._subject(question=question)
        liking = self.rng.choice([v for v in self.lexicon.transitive if (v.stem, v.en_base) in LIKING_VERBS])
        verb = self.rng.choice([v for v in self.lexicon.intransitive if (v.stem, v.en_base) in ACTIVITY_VERBS
                                and v.stem not in self._ambiguous("adnominal_present")])
        # -기를 only where 먹기 is no word of its own (자기 self, 달리기 running, 걷기 walking: -는 것을)
        gi = "".join(gi_word(verb.stem)) not in self._vocabulary and self.rng.random() < 0.4
        clause = Phrase()
        indices = [clause.add_ko(word) for word in nominal_words(verb, eu_class(verb, self.GRAMMAR), gi)]
        clause.add_en(present_participle(verb.en_base), *indices)
        predicate, before = self._final_predicate(liking, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [clause])
        return self._assemble([subject.phrase, clause, predicate], order, None, question)


# 아직 + the present of an activity going on (아직 일해요 -> is still working): the hobbies and chores of from_until
# and the eating, drinking, reading and watching of the sequence
STILL_VERBS = ACTIVITY_VERBS | frozenset({("먹", "eat"), ("마시", "drink"), ("읽", "read"), ("보", "watch")})


class Learner6Grammar(Learner5Grammar):
    """Grammar "learner6": learner5 plus the beginner items it still lacked (docs/models.md "Grammar learner6"):
    weather and body collocations with their own subject noun (비가 와요 -> It is raining; 배가 고파요 -> I am hungry;
    머리가 아파요 -> I have a headache; 감기에 걸렸어요 -> I caught a cold; the lexicon's fixed_subject entries),
    시간이 걸리다 with durations (삼십 분 걸려요 -> It takes 30 minutes; 얼마나 걸려요? -> How long does it take?),
    -아/어서 of sequence (학교에 가서 친구를 만났어요 -> went to the school and met a friend; 케이크를 만들어서
    먹었어요 -> made a cake and ate it), -거나 (V1 or V2), Sino-Korean numbers past ten with 원 and 분 (오천 원이에요
    -> is 5,000 won; 세 시 삼십 분이에요 -> It is 3:30), TIME부터 TIME까지, N시에 / N시쯤 (at about N o'clock) and
    N밖에 + a negative (only N). The learner5 lexicon plus the collocations (the additions file "learner6"); its own
    KINDS (learner5's, then the new ones), so learner5's stream stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER6_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {
        **Learner5Grammar.KINDS, "weather": 4, "body": 4, "takes_time": 3, "sequence": 4, "or_else": 3, "price": 2,
        "clock_minutes": 2, "from_until": 2, "at_time": 2, "only_but": 2, "year": 2, "times": 2, "adverb_aspect": 3,
        "which": 2}

    # -- -아/어서: a reason, or one thing after another --

    def _form_of(self, form: str, verb: Verb) -> str:
        if form == "sequence":
            return "".join(sequence_word(verb))
        return super()._form_of(form, verb)

    def _clause(self, tense: str, subject: NounPhrase, connective: str, register: str,
                question: bool = False) -> tuple[list[Phrase | None], list[tuple[Phrase, slice]], Phrase]:
        """As learner5's; notes whether a first clause is a state (an adjective) and whether a last one has a Korean
        subject of its own, for _reason."""
        korean, order, predicate = super()._clause(tense, subject, connective, register, question)
        if connective:
            self._first_is_state = (predicate.en[:1] != [] and predicate.en[0] in ("am", "is", "are", "was", "were")) \
                or predicate.en[:2] == ["will", "be"]
        else:
            self._second_has_subject = bool(subject.phrase.ko)
        return korean, order, predicate

    def _reason(self, register: str) -> SentencePair:
        """As learner5's, but -아/어서 after a verb is a reason only when the second clause has a subject of its own
        (민수가 늦어서 지수가 화났어요): with one subject, V-아/어서 is the sequence (학교에 가서 친구를 만났어요 ->
        went to the school and met a friend, _sequence), so one Korean sentence keeps one English one."""
        connective = self.rng.choice(["aseo", "aseo", "nikka"])
        for _ in range(50):
            pair = self._two_clauses(connective, register)
            if connective != "aseo" or self._first_is_state or self._second_has_subject:
                return pair
        return self._two_clauses("nikka", register)

    def _sequence(self, register: str) -> SentencePair:
        """S PLACE에 V1(motion)-아/어서 [OBJ] V2 -> S V1-ed to PLACE and V2-ed [OBJ] (민수는 학교에 가서 친구를
        만났어요 -> Minsu went to the school and met a friend); S OBJ V1-아/어서 V2 -> S V1-ed OBJ and V2-ed it
        (케이크를 만들어서 먹었어요 -> made a cake and ate it: one object for both, SEQUENCE_FIRST / SEQUENCE_SECOND).
        Both in V2's tense; V1 and and -> V1-아/어서; will -> V2's tense word; it (them) is unaligned: Korean says it
        once."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        subject = self._subject()
        ambiguous = self._ambiguous("sequence")
        shared = None
        if self.rng.random() < 0.5:
            first = self.rng.choice([v for v in self.lexicon.motion if (v.stem, v.en_base) in FROM_TO_VERBS
                                     and v.stem not in ambiguous])
            second = self._clause_verb(("transitive", "intransitive"), exclude=first.stem)
            obj1, place1 = None, self._place_for(first)
            obj2, place2 = self._object(second), None
        else:
            firsts = [v for v in self.lexicon.transitive if (v.stem, v.en_base) in SEQUENCE_FIRST
                      and v.stem not in ambiguous]
            seconds = [v for v in self.lexicon.transitive if (v.stem, v.en_base) in SEQUENCE_SECOND]
            first = self.rng.choice(firsts)
            second = self.rng.choice([v for v in seconds if v.objects & first.objects and v.stem != first.stem]
                                     or seconds)
            tags = first.objects & second.objects
            if not tags or not self._nouns_with(tags):
                return self._sequence(register)
            obj1 = self._noun_phrase(tags, "object", allow_pronoun=False, allow_number=False)
            place1, obj2, place2 = None, None, None
            shared = Phrase()
            shared.add_en("them" if obj1.plural else "it")
        clause = Phrase()
        seq = clause.add_ko(sequence_word(first))
        predicate, _ = self._final_predicate(second, tense, False, register, subject)
        clause.add_en(first_verb_english(first, tense, subject), seq)
        n_first = len(clause.en)
        clause.add_en("and", seq)
        n_will = 1 if tense == "future" else 0
        order = [(subject.phrase, slice(None)), (predicate, slice(0, n_will)), (clause, slice(0, n_first))]
        order += [(p, slice(None)) for p in (obj1.phrase if obj1 else None, place1) if p is not None]
        order += [(clause, slice(n_first, None)), (predicate, slice(n_will, None))]
        order += [(p, slice(None)) for p in (obj2.phrase if obj2 else None, place2, shared) if p is not None]
        korean = [subject.phrase, place1, obj1.phrase if obj1 else None, clause, place2,
                  obj2.phrase if obj2 else None, predicate, shared]
        return self._assemble(korean, order, self._time(tense), False)

    # -- N밖에 + a negative: only N --

    def _only_but(self, register: str) -> SentencePair:
        """S N밖에 안 V -> S V only N (민수는 사과밖에 안 먹었어요 -> Minsu ate only an apple; 안 먹을 거예요 -> will
        eat only an apple): 밖에 takes a negative predicate, English says it without one (N만 V says the same: _only).
        only and N -> N밖에; ate -> 먹었어요; 안 is unaligned."""
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        tense = self.rng.choice(["past", "past", "present", "future"])
        subject = self._subject()
        verb = self._verb(("transitive",))
        obj = self._particle_object(verb, BUT)
        obj.phrase.en.insert(0, "only")
        obj.phrase.links.insert(0, (len(obj.phrase.ko) - 1,))
        words, lexical, tense_index = verb_pieces(verb, tense, True, False, register)
        items, before = english_verb_items(verb, tense, False, False, subject.person, subject.plural)
        predicate = predicate_phrase(words, lexical, tense_index, items)
        order = self._english_order(subject, predicate, before, [obj.phrase])
        return self._assemble([subject.phrase, obj.phrase, predicate], order, self._time(tense), False)

    # -- -거나: V1 or V2 --

    def _or_else(self, register: str) -> SentencePair:
        """S [OBJ1] V1-거나 [OBJ2] V2 -> S V1 [OBJ1] or V2 [OBJ2] (주말에 민수는 영화를 보거나 책을 읽어요 -> Minsu
        watches a movie or reads a book on weekends); both in V2's tense. V1 and or -> V1-거나."""
        tense = self.rng.choice(["present", "present", "past", "future"])
        return self._joined_clauses(register, tense, ("transitive", "intransitive", "motion"), or_word, "or")

    # -- collocations with their own subject: 비가 오다, 배가 고프다, 머리가 아프다, 감기에 걸리다 --

    @staticmethod
    def _collocation_english(entry, tense: str, negated: bool, question: bool, person: int, plural: bool
                             ) -> tuple[list[tuple[str, str]], int]:
        """The English of a collocation's predicate as (word, role) items (role: "aux" -> the tense word, "not" ->
        안, "both" -> the noun and the predicate, "lexical" -> the predicate, "noun" -> the noun, "" unaligned),
        and how many go before the subject in a question."""
        not_ = [("not", "not")] if negated else []
        past = tense == "past"
        if entry.frame == "weather":
            role = "both" if entry.en_subject == "it" else "lexical"
            if tense == "future":
                return [("will", "aux"), *not_, (entry.en, role)], int(question)
            if tense == "present":
                return [("is", "aux"), *not_, (present_participle(entry.en), role)], int(question)
            if question or negated:
                return [("did", "aux"), *not_, (entry.en, role)], int(question)
            return [(entry.en_past, role)], 0
        article = [(word, "" if word in ("a", "an") else "both") for word in entry.en.split()]
        if entry.frame == "be":
            if tense == "future":
                return [("will", "aux"), *not_, ("be", "aux"), (entry.en, "both")], int(question)
            return [(english.be_form(person, plural, past), "aux"), *not_, (entry.en, "both")], int(question)
        if entry.frame == "have":
            if tense == "future":
                return [("will", "aux"), *not_, ("have", "aux"), *article], int(question)
            if question or negated:
                return [(english.do_form(person, plural, past), "aux"), *not_, ("have", "aux"), *article], \
                    int(question)
            has = "had" if past else ("has" if english.takes_third_person_s(person, plural) else "have")
            return [(has, "aux"), *article], 0
        verb, *rest = entry.en.split()  # "verb": catch a cold
        objects = [(word, "" if word in ("a", "an") else "noun") for word in rest]
        if tense == "future":
            return [("will", "aux"), *not_, (verb, "lexical"), *objects], int(question)
        if question or negated:
            return [(english.do_form(person, plural, past), "aux"), *not_, (verb, "lexical"), *objects], \
                int(question)
        if past:
            return [(entry.en_past.split()[0], "lexical"), *objects], 0
        return [(verb_form(verb, "present", person, plural), "lexical"), *objects], 0

    def _collocation_phrase(self, entry, tense: str, negated: bool, question: bool, register: str, person: int,
                            plural: bool, subject: list[tuple[str, str]] = ()) -> tuple[Phrase, int]:
        """The collocation's Korean words and its predicate's English, linked, and the English words that go before
        the subject; `subject`: English subject items (it, the wind) laid in at that place (the subject's noun is the
        collocation's own)."""
        words, lexical, tense_index = fixed_subject_words(entry, tense, negated, question, register)
        phrase = Phrase()
        for word in words:
            phrase.add_ko(word)
        targets = {"aux": (tense_index,), "not": (1,), "both": (0, lexical), "lexical": (lexical,), "noun": (0,),
                   "": ()}
        items, before = self._collocation_english(entry, tense, negated, question, person, plural)
        for word, role in [*items[:before], *subject, *items[before:]]:
            phrase.add_en(word, *targets[role])
        return phrase, before

    def _present_time(self, tense: str) -> Phrase | None:
        """A time word for a state or an event now: 지금 (now) in the present, else the lexicon's (어제, 내일 ...)."""
        if tense == "present":
            return self._time_word("지금") if self.rng.random() < 0.4 else None
        return self._time(tense)

    def _weather(self, register: str) -> SentencePair:
        """비가 와요 -> It is raining (the present is what is happening now); 비가 왔어요 -> It rained; 비가 올
        거예요 -> It will rain; 비가 안 와요 -> It is not raining; ? -> Is it raining? / Did it rain?; 바람이 불어요
        -> The wind is blowing. It is unaligned; raining -> 비가 and 와요 (wind -> 바람이, blowing -> 불어요)."""
        entry = self.rng.choice([e for e in self.lexicon.fixed_subject if e.frame == "weather"])
        tense = self.rng.choice(["present", "past", "past", "future"])
        question = self.rng.random() < 0.2
        negated = not question and self.rng.random() < 0.15
        subject = [(word, "noun" if word not in ("it", "the") else "") for word in entry.en_subject.split()]
        predicate, _ = self._collocation_phrase(entry, tense, negated, question, register, 3, False, subject)
        # an empty first phrase: a time word goes before the collocation (지금 비가 와요), never after it
        return self._assemble([Phrase(), predicate], [(predicate, slice(None))], self._present_time(tense), question)

    def _body(self, register: str) -> SentencePair:
        """S는 배가 고파요 -> S is hungry; S는 머리가 아파요 -> S has a headache; S는 감기에 걸렸어요 -> S caught a
        cold; 안 (not), questions (Are you hungry? Do you have a headache?), a dropped subject (I / you). hungry ->
        배가 and 고파요; headache -> 머리가 and 아파요; am / has -> the tense word; cold -> 감기에; a is unaligned."""
        entry = self.rng.choice([e for e in self.lexicon.fixed_subject if e.frame != "weather"])
        tense = self.rng.choice(["past", "past", "future"] if entry.frame == "verb"
                                else ["present", "present", "past", "future"])
        question = self.rng.random() < 0.25
        negated = not question and self.rng.random() < 0.15
        subject = self._subject("topic", drop=0.35, question=question)
        predicate, before = self._collocation_phrase(entry, tense, negated, question, register, subject.person,
                                                     subject.plural)
        order = self._english_order(subject, predicate, before, [])
        return self._assemble([subject.phrase, predicate], order, self._present_time(tense), question)

    # -- numbers: 시간이 걸리다 with durations, prices, the clock with minutes --

    def _duration(self) -> Phrase:
        """N 시간 (native: 한 시간 -> an hour, 두 시간 -> two hours) or N 분 (Sino-Korean: 삼십 분 -> 30 minutes), with
        쯤 (about) on the counter a third of the time; a lot of time: 시간이 많이."""
        phrase = Phrase()
        about = self.rng.random() < 0.3
        if self.rng.random() < 0.45:
            number, en = self.rng.choice(NATIVE_COUNTS[:10])
            if self._typed():  # 2시간(쯤) -> (about) 2 hours
                hours = NATIVE_COUNTS.index((number, en)) + 1
                index = phrase.add_ko(digit_word(hours, HOURS, *((ABOUT,) if about else ())))
                if about:
                    phrase.add_en("about", index)
                phrase.add_en(str(hours), index)
                phrase.add_en("hour" if hours == 1 else "hours", index)
                return phrase
            num = phrase.add_ko(number)
            counter = phrase.add_ko((HOURS, ABOUT) if about else (HOURS,))
            if about:
                phrase.add_en("about", counter)
            phrase.add_en("an" if en == "one" else en, num)
            phrase.add_en("hour" if en == "one" else "hours", counter)
            return phrase
        minutes = self.rng.choice(DURATION_MINUTES)
        if self._typed():  # 30분(쯤) -> (about) 30 minutes
            counter = phrase.add_ko(digit_word(minutes, MINUTE, *((ABOUT,) if about else ())))
            nums = [counter]
        else:
            nums = [phrase.add_ko(word) for word in sino_words(minutes)]
            counter = phrase.add_ko((MINUTE, ABOUT) if about else (MINUTE,))
        if about:
            phrase.add_en("about", counter)
        phrase.add_en(english_number(minutes), *nums)
        phrase.add_en("minutes", counter)
        return phrase

    def _takes_time(self, register: str) -> SentencePair:
        """[PLACE1에서 PLACE2까지] N 분 걸려요 -> It takes N minutes [from PLACE1 to PLACE2] (took, will take); 시간이
        많이 걸려요 -> It takes a lot of time; 얼마나 걸려요? -> How long does it take? It is unaligned; takes ->
        걸려요; 30 -> 삼십; minutes -> 분; how, long -> 얼마나."""
        from transformer_core.grammar.base import place_phrase

        tense = self.rng.choice(["present", "present", "past", "future"])
        question = self.rng.random() < 0.2
        predicate = Phrase()
        korean: list[Phrase | None] = []
        for word in auxiliary_words(TAKE, TAKE_PAST, tense, question, register, action=True):
            last = predicate.add_ko(word)
        lexical = 0
        if question:
            how = Phrase()
            index = how.add_ko(HOW_LONG)
            how.add_en("how", index)
            how.add_en("long", index)
            predicate.add_en("will" if tense == "future" else english.do_form(3, False, tense == "past"), last)
            predicate.add_en("it")
            predicate.add_en("take", lexical)
            korean.append(how)
            order = [(how, slice(None)), (predicate, slice(None))]
        else:
            if self.rng.random() < 0.15:
                duration = Phrase()
                time_index = duration.add_ko(attach(HOURS, "subject"))
                much = duration.add_ko("많이")
                duration.add_en("a", much)
                duration.add_en("lot", much)
                duration.add_en("of")
                duration.add_en("time", time_index)
            else:
                duration = self._duration()
            korean.append(duration)
            predicate.add_en("it")
            if tense == "future":
                predicate.add_en("will", last)
                predicate.add_en("take", lexical)
            else:
                predicate.add_en("took" if tense == "past" else "takes", lexical, last)
            order = [(predicate, slice(None)), (duration, slice(None))]
        if self.rng.random() < 0.4:  # places in one town (not Czechia to Madrid in 5 minutes)
            places = [p for p in self.lexicon.places if not p.proper]
            end = self.rng.choice([p for p in places if p.en != "home"])
            start = self.rng.choice([p for p in places if p.ko != end.ko])
            origin = place_phrase(start, "location", "from")
            goal = Phrase()
            index = goal.add_ko(particle_word(end.ko, UNTIL))
            goal.add_en("to", index)
            if not end.proper:
                goal.add_en("the")
            goal.add_en(end.en, index)
            korean = [origin, goal, *korean]
            order += [(origin, slice(None)), (goal, slice(None))]
        return self._assemble([*korean, predicate], order, None, question)

    def _price(self, register: str) -> SentencePair:
        """이 N은 오천 원이에요 -> This N is 5,000 won (만 오천 원 -> 15,000 won; 원이었어요 -> was); ? -> Is this N
        5,000 won? 5,000 -> the number's words; won and is -> 원이에요. Written in hangul, spaced after 만."""
        tags = frozenset({"object", "food", "book", "clothes", "drink"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.plural_only])
        determiner = self.rng.choice([(("이",), "this"), (("그",), "the"), (("저",), "that")])
        subject = common_phrase(noun, "topic", None, determiner, None)
        tense = "past" if self.rng.random() < 0.2 else "present"
        question = self.rng.random() < 0.15
        price = self.rng.choice(PRICES)
        predicate = Phrase()
        if self._typed():  # 5000원이에요 (typed without the comma: the tokenizer cuts a comma off as a word)
            index = predicate.add_ko(digit_word(price, WON, copula_ending(WON, tense, question, register)))
            nums = [index]
        else:
            nums = [predicate.add_ko(word) for word in sino_words(price)]
            index = predicate.add_ko((WON, copula_ending(WON, tense, question, register)))
        predicate.add_en("was" if tense == "past" else "is", index)
        predicate.add_en(english_number(price), *nums)
        predicate.add_en("won", index)
        before = 1 if question else 0
        order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, None))]
        return self._assemble([subject.phrase, predicate], order, None, question)

    def _clock_time(self, phrase: Phrase, particle: str = "") -> tuple[str, list[int], int]:
        """세 시 삼십 분 / 세 시 반 (3:30) or 세 시 (three o'clock) written into `phrase`, the last word with
        `particle` (에, 부터, 까지, 쯤, 이에요 ...): the English (3:30 or three), the number words and the last word."""
        number, en = self.rng.choice(NATIVE_COUNTS)
        hour = NATIVE_COUNTS.index((number, en)) + 1
        typed = self._typed()  # 3시에, 3시 30분에, 3시 반에
        indices = [] if typed else [phrase.add_ko(number)]
        if self.rng.random() < 0.5:
            if typed:
                last = phrase.add_ko(digit_word(hour, HOUR, *((particle,) if particle else ())))
                return str(hour), [last], last
            last = phrase.add_ko((HOUR, particle) if particle else (HOUR,))
            return en, indices, last
        indices.append(phrase.add_ko(digit_word(hour, HOUR) if typed else (HOUR,)))
        if self.rng.random() < 0.3:
            last = phrase.add_ko((HALF, particle) if particle else (HALF,))
            return f"{hour}:30", [*indices, last], last
        minutes = self.rng.choice(CLOCK_MINUTES)
        if typed:
            last = phrase.add_ko(digit_word(minutes, MINUTE, *((particle,) if particle else ())))
            return f"{hour}:{minutes:02d}", [*indices, last], last
        indices += [phrase.add_ko(word) for word in sino_words(minutes)]
        last = phrase.add_ko((MINUTE, particle) if particle else (MINUTE,))
        return f"{hour}:{minutes:02d}", [*indices, last], last

    def _clock_minutes(self, register: str) -> SentencePair:
        """지금 세 시 삼십 분이에요 -> It is 3:30 now (세 시 반이에요 the same; 세 시예요 -> It is three o'clock). It
        and is -> the last word; 3:30 -> every word of the time."""
        predicate = Phrase()
        number, en = self.rng.choice(NATIVE_COUNTS)
        hour = NATIVE_COUNTS.index((number, en)) + 1
        typed = self._typed()  # 3시 30분이에요, 3시 반이에요
        if typed:
            indices = [predicate.add_ko(digit_word(hour, HOUR))]
        else:
            indices = [predicate.add_ko(number), predicate.add_ko(HOUR)]
        if self.rng.random() < 0.3:
            last = predicate.add_ko((HALF, copula_ending(HALF, "present", False, register)))
            written = f"{hour}:30"
        else:
            minutes = self.rng.choice(CLOCK_MINUTES)
            if typed:
                last = predicate.add_ko(digit_word(minutes, MINUTE, copula_ending(MINUTE, "present", False,
                                                                                  register)))
            else:
                indices += [predicate.add_ko(word) for word in sino_words(minutes)]
                last = predicate.add_ko((MINUTE, copula_ending(MINUTE, "present", False, register)))
            written = f"{hour}:{minutes:02d}"
        predicate.add_en("it", last)
        predicate.add_en("is", last)
        predicate.add_en(written, *indices, last)
        time = self._time_word("지금") if self.rng.random() < 0.5 else None
        return self._assemble([Phrase(), predicate], [(predicate, slice(None))], time, False)  # 지금 first

    def _from_until(self, register: str) -> SentencePair:
        """S N 시부터 M 시까지 V -> S V from N o'clock to M o'clock (민수는 아홉 시부터 다섯 시까지 일했어요 -> Minsu
        worked from nine o'clock to five o'clock); from, o'clock -> 시부터; nine -> 아홉. V: a hobby or chore; the
        span is one to eight hours on a twelve-hour clock (nine to five, never five to three)."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        verb = self.rng.choice([v for v in self.lexicon.intransitive if (v.stem, v.en_base) in ACTIVITY_VERBS])
        hour = self.rng.randrange(12)  # a span of one to eight hours on the clock: nine to five, never five to three
        (start, start_en), (end, end_en) = NATIVE_COUNTS[hour], NATIVE_COUNTS[(hour + self.rng.randint(1, 8)) % 12]
        span = Phrase()
        if self._typed():  # 9시부터 5시까지 -> from 9 o'clock to 5 o'clock
            start_en, end_en = str(hour + 1), str(NATIVE_COUNTS.index((end, end_en)) + 1)
            first = since = span.add_ko(digit_word(int(start_en), HOUR, FROM))
            second = until = span.add_ko(digit_word(int(end_en), HOUR, UNTIL_TIME))
        else:
            first = span.add_ko(start)
            since = span.add_ko((HOUR, FROM))
            second = span.add_ko(end)
            until = span.add_ko((HOUR, UNTIL_TIME))
        span.add_en("from", since)
        span.add_en(start_en, first)
        span.add_en("o'clock", since)
        span.add_en("to", until)
        span.add_en(end_en, second)
        span.add_en("o'clock", until)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [span])
        return self._assemble([subject.phrase, span, predicate], order, None, question)

    def _at_time(self, register: str) -> SentencePair:
        """S N 시에 V -> S V at N o'clock (세 시 삼십 분에 -> at 3:30; 세 시쯤 -> at about three o'clock); at and
        o'clock -> 시에; about -> 시쯤; three -> 세. The time phrase goes where a time word goes."""
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        time = Phrase()
        about = self.rng.random() < 0.3
        en, nums, last = self._clock_time(time, ABOUT if about else "에")
        time.add_en("at", last)
        if about:
            time.add_en("about", last)
        if ":" in en:
            time.add_en(en, *nums)
        else:
            time.add_en(en, *nums)
            time.add_en("o'clock", last)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, time, question)


    # -- numbers typed as digits; years (년), times (번), ages past twelve --

    def _typed(self) -> bool:
        """Whether this number is typed as digits (3시, 30분, 5000원, 2024년, 20살), as students type them."""
        return self.rng.random() < DIGIT_SHARE

    def _age(self, register: str) -> SentencePair:
        """As learner5's (S는 N 살이에요 -> S is N years old; 몇 살이에요? -> How old is S?), with native numbers
        past twelve by rule (열세 살 -> thirteen, 스무 살 -> twenty, 스물한 살 -> twenty-one) and ages typed as
        digits (20살이에요 -> is 20 years old: 20, years, old and is -> the one word)."""
        question = self.rng.random() < 0.35
        subject = self._subject("topic", drop=0.1, question=question)
        tense = "present" if self.rng.random() < 0.85 else "past"
        be = english.be_form(subject.person, subject.plural, tense == "past")
        if question:
            predicate, (how,), index = self._copula_predicate(AGE, tense, True, register, [("몇",)])
            predicate.add_en("how", how)
            predicate.add_en("old", how, index)
            predicate.add_en(be, index)
            order = [(predicate, slice(None)), (subject.phrase, slice(None))]
            return self._assemble([subject.phrase, predicate], order, None, True)
        age = self.rng.choice(range(1, 60)) if self.rng.random() < 0.6 else self.rng.choice(range(13, 60))
        predicate = Phrase()
        ending = copula_ending(AGE, tense, False, register)
        if self._typed():
            num = index = predicate.add_ko(digit_word(age, AGE, ending))
            en = str(age)
        else:
            ko, en = native_count(age)
            num = predicate.add_ko(ko)
            index = predicate.add_ko((AGE, ending))
        predicate.add_en(be, index)
        predicate.add_en(en, num)
        predicate.add_en("year" if age == 1 else "years", index)
        predicate.add_en("old", index)
        return self._assemble([subject.phrase, predicate], [(subject.phrase, slice(None)),
                                                             (predicate, slice(None))], None, False)

    def _floor(self, register: str) -> SentencePair:
        """As learner5's (N은 삼 층에 있어요 -> The N is on the third floor), and floors typed as digits (2층에 -> on
        the 2nd floor: on, the, 2nd and floor -> the one word; 2층 is never read as 이 층 "this floor")."""
        if not self._typed():
            return super()._floor(register)
        noun = self.rng.choice([n for n in self._nouns_with(frozenset({"place"})) if not n.proper])
        subject = common_phrase(noun, "topic", None, False, None)
        subject.phrase.en[0] = "the"
        floor_number = self.rng.randint(1, 10)
        location = Phrase()
        floor = location.add_ko(digit_word(floor_number, *attach(FLOOR, "goal")))
        location.add_en("on", floor)
        location.add_en("the")
        location.add_en(english_ordinal(floor_number), floor)
        location.add_en("floor", floor)
        predicate = Phrase()
        tense = "present" if self.rng.random() < 0.8 else "past"
        for word in auxiliary_words("있", "있었", tense, False, register, action=False):
            index = predicate.add_ko(word)
        predicate.add_en(english.be_form(3, subject.plural, tense == "past"), index)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (location, slice(None))]
        return self._assemble([subject.phrase, location, predicate], order, None, False)

    def _year(self, register: str) -> SentencePair:
        """S YEAR년에 V -> S V in YEAR (민수는 2024년에 학교에 갔어요 -> Minsu went to the school in 2024; in hangul:
        이천이십사 년에, 년 spaced as a counter). in -> 년에; 2024 -> the number's words (typed: the one word). Years
        before 2026 are past, 2026 is past or future."""
        year = self.rng.choice(YEARS)
        tense = "past" if year < 2026 else self.rng.choice(["past", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        time = Phrase()
        if self.rng.random() < 0.75:  # years are mostly typed as digits
            index = time.add_ko(digit_word(year, YEAR, "에"))
            nums = [index]
        else:
            nums = [time.add_ko(word) for word in sino_words(year)]
            index = time.add_ko((YEAR, "에"))
        time.add_en("in", index)
        time.add_en(str(year), *nums)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, time, question)

    def _times(self, register: str) -> SentencePair:
        """S [OBJ / PLACE] N 번 V -> S V [OBJ / PLACE] N times (민수는 그 영화를 세 번 봤어요 -> Minsu watched the movie
        three times; 한 번 -> once, 두 번 -> twice; typed 3번 -> 3 times). 번 of times counts in native numbers (세
        번; Sino-Korean 삼 번 is a number in a list: bus 3). three -> 세; times -> 번; once -> 한 and 번. Past or
        future (a present needs a span: three times a week)."""
        tense = self.rng.choice(["past", "past", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        count = self.rng.choice([1, 2, 2, 3, 3, 4, 5, 10])
        times = Phrase()
        if self._typed():
            index = times.add_ko(digit_word(count, TIMES))
            english_words = [str(count), "times"] if count > 2 else times_english(count)
            for word in english_words:
                times.add_en(word, index)
        else:
            num = times.add_ko(native_count(count)[0])
            index = times.add_ko(TIMES)
            english_words = times_english(count)
            if len(english_words) == 1:
                times.add_en(english_words[0], num, index)
            else:
                times.add_en(english_words[0], num)
                times.add_en(english_words[1], index)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place, times])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, times, predicate], order,
                              self._time(tense), question)


    # -- 보통 / 벌써 / 아직: usually, already, still, not ... yet --

    ASPECT_ADVERBS: ClassVar[tuple[str, ...]] = ("usually", "already", "still", "yet")

    def _asked_subject(self) -> NounPhrase:
        """A question's subject that is not the speaker (Which book did you read?, never Which book did I read?)."""
        for _ in range(20):
            subject = self._subject(question=True)
            if subject.person != 1:
                return subject
        return subject

    def _adverb_aspect(self, register: str) -> SentencePair:
        """S 보통 [OBJ] V -> S usually V [OBJ] (Does S usually V?); S 벌써 [OBJ] V-었어요 -> S already V-ed [OBJ]
        (Did S already V?); S 아직 [OBJ] V -> S is still V-ing [OBJ] (an activity: 아직 일해요 -> is still working; 아직
        밥을 먹어요 -> is still eating); S 아직 [OBJ] 안 V-었어요 -> S has not V-en [OBJ] yet. usually, already, still,
        yet -> the adverb; has -> the tense word; not -> 안. The adverb goes after the subject in Korean; in English
        before the lexical verb (after is / has), yet at the end. Questions only with usually and already (learner7:
        and 항상, always, as usually: ASPECT_ADVERBS)."""
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        which = self.rng.choice(list(self.ASPECT_ADVERBS))
        question = which in ("usually", "already", "always") and self.rng.random() < 0.2
        subject = self._asked_subject() if question else self._subject()
        kinds = ("transitive", "intransitive") if which == "still" else ("transitive", "intransitive", "motion")
        verbs = [v for kind in kinds for v in getattr(self.lexicon, kind)
                 if "person" in v.subjects and " " not in v.en_base and (which != "yet" or past_participle(v))
                 and (which != "still" or (v.stem, v.en_base) in STILL_VERBS)]  # still: an activity going on
        verb = self.rng.choice(verbs)
        obj, place = self._object(verb), self._place_for(verb)
        adverb = Phrase()
        index = adverb.add_ko({"usually": "보통", "already": "벌써", "always": "항상"}.get(which, "아직"))
        if which != "yet":
            adverb.add_en(which, index)
        tense = {"usually": "present", "still": "present", "always": "present"}.get(which, "past")
        words, lexical, tense_index = verb_pieces(verb, tense, which == "yet", question, register)
        if which == "still":
            items = [(english.be_form(subject.person, subject.plural, False), "aux"),
                     (present_participle(verb.en_base), "verb")]
            before = 0
        elif which == "yet":
            third = english.takes_third_person_s(subject.person, subject.plural)
            items = [("has" if third else "have", "aux"), ("not", "not"), (past_participle(verb), "verb")]
            before = 0
        else:
            items, before = english_verb_items(verb, tense, False, question, subject.person, subject.plural)
        predicate = predicate_phrase(words, lexical, tense_index, items)
        rest = [(p, slice(None)) for p in (obj.phrase if obj else None, place) if p is not None]
        if which == "yet":
            yet = Phrase()
            yet_index = yet.add_ko(adverb.ko[0])
            yet.add_en("yet", yet_index)
            adverb = yet
            order = [(subject.phrase, slice(None)), (predicate, slice(None)), *rest, (adverb, slice(None))]
        else:
            split = before + (1 if which == "still" else 0)  # is still eating; Does S usually eat
            order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, split)),
                     (adverb, slice(None)), (predicate, slice(split, None)), *rest]
        return self._assemble([subject.phrase, adverb, place, obj.phrase if obj else None, predicate], order, None,
                              question)

    # -- 어느 / 무슨 before a noun in a question: which N, what kind of N --

    def _which(self, register: str) -> SentencePair:
        """S 어느 N을 V-었어요? -> Which N did S V? ; S 무슨 N을 V? -> What kind of N does S V? which -> 어느; what and
        kind -> 무슨 (of unaligned); N -> N을."""
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        tense = self.rng.choice(["past", "past", "present", "future"])
        subject = self._asked_subject()
        verb = self.rng.choice([v for v in self.lexicon.transitive if "person" in v.subjects
                                and [n for n in self._nouns_with(v.objects) if not n.plural_only and not n.proper]])
        noun = self.rng.choice([n for n in self._nouns_with(verb.objects) if not n.plural_only and not n.proper])
        obj = Phrase()
        which_ko, which_en = self._which_word()
        determiner = obj.add_ko(which_ko)
        noun_index = obj.add_ko(attach(noun.ko, "object"))
        for word in which_en:
            if word == "of":
                obj.add_en("of")
            else:
                obj.add_en(word, determiner)
        obj.add_en(noun.en, noun_index)
        words, lexical, tense_index = verb_pieces(verb, tense, False, True, register)
        items, before = english_verb_items(verb, tense, False, True, subject.person, subject.plural)
        predicate = predicate_phrase(words, lexical, tense_index, items)
        order = [(obj, slice(None)), (predicate, slice(0, before)), (subject.phrase, slice(None)),
                 (predicate, slice(before, None))]
        return self._assemble([subject.phrase, obj, predicate], order, None, True)


# learner7: 듣다 is "listen to" with music, a song or the radio, "hear" with every other sound or show (one English
# verb for one Korean object, never a coin toss).
LISTENED = frozenset({"music", "song", "radio"})


class Learner7Grammar(Learner6Grammar):
    """Grammar "learner7": learner6 plus what a first-level learner's core word list (level1_words.json) has that it
    still lacked (docs/models.md "Grammar learner7"): native numerals standing alone (아이가 둘 있어요 -> I have two
    children), basic nouns with two meanings told apart by their collocation (차를 운전했어요 -> drove a car, 배를
    탔어요 -> took a boat, 이를 닦아요 -> brush my teeth, 눈이 아파요 -> have sore eyes, 키가 커요 -> is tall; the
    lexicon's fixed_object and fixed_subject entries), 듣다 as listen to (music) or hear (a sound), 많다 / 적다 (there
    are many / few Ns), 모르다 (does not know) and -(으)ㄹ 줄 알다 / 모르다 (knows how to). The learner6 lexicon plus
    the additions file "learner7"; its own KINDS (learner6's, then the new ones), so learner6's stream stays as it
    was."""

    GRAMMAR: ClassVar[str] = LEARNER7_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {
        **Learner6Grammar.KINDS, "count_alone": 3, "sense": 4, "many_few": 2, "not_know": 2, "know_how": 3,
        "older_by": 2, "vocative": 3}
    ASPECT_ADVERBS: ClassVar[tuple[str, ...]] = (*Learner6Grammar.ASPECT_ADVERBS, "always")  # 항상 (level 1)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.lexicon = listened_apart(self.lexicon)
        self._know = next(v for v in self.lexicon.transitive if (v.stem, v.en_base) == ("알", "know"))

    # -- native numerals standing alone: 아이가 둘 있어요 --

    def _count_alone(self, register: str) -> SentencePair:
        """S는 N이 NUM 있어요 -> S has NUM Ns (저는 아이가 둘 있어요 -> I have two children; 하나 -> one child);
        있었어요 -> had; ? -> Does S have NUM Ns? has -> 있어요; two -> 둘; children -> 아이가."""
        tense = "past" if self.rng.random() < 0.2 else "present"
        question = self.rng.random() < 0.15
        subject = self._subject("topic", drop=0.3, question=question)
        tags = frozenset({"child", "son", "daughter", "younger sibling", "older brother", "older sister", "object",
                          "book", "clothes"})  # an animal is counted with 마리 (고양이 두 마리)
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.plural_only and not n.mass
                                and not n.proper and n.en not in subject.phrase.en])
        number, english_number_word = self.rng.choice(STANDALONE_NUMBERS)
        counted = Phrase()
        noun_index = counted.add_ko(attach(noun.ko, "subject"))
        number_index = counted.add_ko(number)
        counted.add_en(english_number_word, number_index)
        counted.add_en(noun.en if number == "하나" else noun.plural, noun_index)
        predicate = Phrase()
        for word in auxiliary_words("있", "있었", tense, question, register, action=False):
            index = predicate.add_ko(word)
        past = tense == "past"
        if question:
            predicate.add_en(english.do_form(subject.person, subject.plural, past), index)
            predicate.add_en("have", index)
        elif past:
            predicate.add_en("had", index)
        else:
            predicate.add_en("has" if english.takes_third_person_s(subject.person, subject.plural) else "have", index)
        order = self._english_order(subject, predicate, 1 if question else 0, [counted])
        return self._assemble([subject.phrase, counted, predicate], order, None, question)

    # -- nouns with two meanings, told apart by the verb: 차를 운전하다 (a car), 배를 타다 (a boat), 이를 닦다 --

    def _sense(self, register: str) -> SentencePair:
        """S는 N을 V -> S V-s the N's sense the verb picks (민수는 차를 운전해요 -> Minsu drives a car; 배를 탔어요
        -> took a boat; 다리를 건널 거예요 -> will cross a bridge; 저는 이를 닦아요 -> I brush my teeth: {own} is
        the subject's possessive, so 이를 닦다 takes a pronoun or a dropped subject); ? -> Did S V the N? The verb
        -> its Korean predicate; car, in -> 차를; a / the and the possessive unaligned. No 안: 운전 안 했어요 splits
        the 하다 verb."""
        tense = self.rng.choice(["present", "past", "past", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(drop=0.35, question=question)
        owner = subject.phrase.en[-1]
        entry = self.rng.choice([e for e in self.lexicon.fixed_object if owner in POSSESSIVES or "{own}" not in e.en])
        verb_en, *rest = own_english(entry.en, owner).split()
        verb = dataclasses.replace(fixed_subject_predicate(entry), en_base=verb_en,
                                   en_past=own_english(entry.en_past, owner).split()[0])
        obj = Phrase()
        noun_index = obj.add_ko(attach(entry.noun, entry.particle))
        for word in rest:
            if word in ("a", "an", "the", *POSSESSIVES.values()):
                obj.add_en(word)
            else:
                obj.add_en(word, noun_index)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj])
        return self._assemble([subject.phrase, obj, predicate], order, self._time(tense), question)

    # -- 많다 / 적다: there are many / few Ns --

    def _many_few(self, register: str) -> SentencePair:
        """[PLACE에] N이 많아요 -> There are many Ns [at the PLACE] (a mass noun: There is a lot of N); 적어요 ->
        There are few Ns (There is little N); 많았어요 -> There were many Ns. There unaligned; are -> 많아요; many
        (a lot of; few, little) -> 많아요; Ns -> N이; at, the, PLACE -> PLACE에."""
        from transformer_core.grammar.base import adjective_pieces, place_phrase

        tense = "past" if self.rng.random() < 0.25 else "present"
        many = self.rng.random() < 0.65
        tags = frozenset({"person", "animal", "vehicle", "plant"})
        noun = self.rng.choice([n for n in self._nouns_with(tags) if not n.proper and not n.is_name])
        mass = noun.mass or noun.plural_only
        counted = Phrase()
        noun_index = counted.add_ko(attach(noun.ko, "subject"))
        predicate = Phrase()
        words, lexical, tense_index = adjective_pieces(MANY if many else FEW, tense, False, False, register)
        for word in words:
            predicate.add_ko(word)
        predicate.add_en("There")
        predicate.add_en(english.be_form(3, not noun.mass, tense == "past"), tense_index)
        if noun.mass:
            for word in (["a", "lot", "of"] if many else ["little"]):
                predicate.add_en(word, lexical)
        else:
            predicate.add_en("many" if many else "few", lexical)
        counted.add_en(noun.en if mass else noun.plural, noun_index)
        place = None
        if self.rng.random() < 0.5:
            place = place_phrase(self.rng.choice(self.lexicon.places), "goal", "at")
        order = [(predicate, slice(None)), (counted, slice(None))] + ([(place, slice(None))] if place else [])
        return self._assemble([place, counted, predicate], order, None, False)

    # -- 모르다: does not know; -(으)ㄹ 줄 알다 / 모르다: knows how to --

    def _not_know(self, register: str) -> SentencePair:
        """S는 N을 몰라요 -> S does not know N (몰랐어요 -> did not know; 모를 거예요 -> will not know; ? -> Do you
        not know N?). does, not -> 몰라요 (the tense word); know -> 몰라요."""
        from transformer_core.grammar.base import predicate_phrase, verb_pieces

        tense = self.rng.choice(["present", "present", "past", "future"])
        question = self.rng.random() < 0.1
        subject = self._subject(question=question)
        verb = not_know_verb(self._know)
        obj = self._object(verb)
        if obj.phrase.en[0] in ("a", "an"):  # one does not know "a viewer": the one spoken of is known (the viewer)
            obj.phrase.en[0] = "the"
        words, lexical, tense_index = verb_pieces(verb, tense, False, question, register)
        aux = "will" if tense == "future" else english.do_form(subject.person, subject.plural, tense == "past")
        items = [(aux, "aux"), ("not", "aux"), ("know", "verb")]
        predicate = predicate_phrase(words, lexical, tense_index, items)
        order = self._english_order(subject, predicate, 1 if question else 0, [obj.phrase])
        return self._assemble([subject.phrase, obj.phrase, predicate], order, None, question)

    def _know_how(self, register: str) -> SentencePair:
        """S [OBJ] V-(으)ㄹ 줄 알아요 -> S knows how to V [OBJ] (수영할 줄 알아요 -> knows how to swim); 몰라요 ->
        does not know how to V; 알았어요 -> knew how to; ? -> Does S know how to V? knows -> 알아요 (does, not ->
        몰라요); how -> 줄; to and V -> V-(으)ㄹ."""
        from transformer_core.grammar.base import predicate_phrase, verb_pieces

        tense = "past" if self.rng.random() < 0.2 else "present"
        question = self.rng.random() < 0.2
        negated = not question and self.rng.random() < 0.4
        subject = self._subject(question=question)
        ambiguous = self._ambiguous("can")
        verb = self.rng.choice([v for v in self.lexicon.transitive + self.lexicon.intransitive
                                if (v.stem, v.en_base) in SKILL_VERBS and v.stem not in ambiguous])
        obj = (self._noun_phrase(verb.objects, "object", allow_pronoun=False, allow_number=False)
               if verb.kind == "transitive" else None)
        main = not_know_verb(self._know) if negated else self._know
        clause = Phrase()
        lexical_index = clause.add_ko(future_adnominal_word(verb))
        jul = clause.add_ko(JUL)
        words, lexical, tense_index = verb_pieces(main, tense, False, question, register)
        if question or negated:
            aux = english.do_form(subject.person, subject.plural, tense == "past")
            items = [(aux, "aux"), *([("not", "aux")] if negated else []), ("know", "verb")]
        else:
            third = english.takes_third_person_s(subject.person, subject.plural)
            items = [("knew" if tense == "past" else ("knows" if third else "know"), "verb")]
        predicate = predicate_phrase(words, lexical, tense_index, items)
        clause.add_en("how", jul)
        clause.add_en("to", lexical_index)
        clause.add_en(verb.en_base, lexical_index)
        before = 1 if question else 0
        order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, None)),
                 (clause, slice(None))] + ([(obj.phrase, slice(None))] if obj else [])
        return self._assemble([subject.phrase, obj.phrase if obj else None, clause, predicate], order, None,
                              question)

    # -- N살 많다 / 어리다: N years older / younger than --

    def _older_by(self, register: str) -> SentencePair:
        """S는 X보다 세 살 많아요 -> S is three years older than X (어려요 -> younger; 한 살 -> one year; 많았어요
        -> was); ? -> Is S three years older than X? is -> 많아요 (the tense word); three -> 세; years -> 살; older ->
        많아요; than, X -> X보다. X: a name other than the subject's."""
        from transformer_core.grammar.base import adjective_pieces

        tense = "past" if self.rng.random() < 0.15 else "present"
        question = self.rng.random() < 0.15
        subject = self._subject("topic", drop=0.2, question=question)
        other = self.rng.choice([n for n in self.lexicon.names if subject.phrase.en[:1] != [n.en]])
        than = Phrase()
        index = than.add_ko((other.ko, "보다"))
        than.add_en("than", index)
        than.add_en(other.en, index)
        years = self.rng.randint(1, 10)
        number, english_word = native_count(years)
        older = self.rng.random() < 0.6
        words, lexical, tense_index = adjective_pieces(MANY if older else YOUNGER, tense, False, question, register)
        predicate = Phrase()
        number_index = predicate.add_ko(number)
        counter = predicate.add_ko(AGE)
        for word in words:
            last = predicate.add_ko(word)
        tense_index += 2
        lexical += 2
        predicate.add_en(english.be_form(subject.person, subject.plural, tense == "past"), tense_index)
        predicate.add_en(english_word, number_index)
        predicate.add_en("year" if years == 1 else "years", counter)
        predicate.add_en("older" if older else "younger", lexical)
        assert last == lexical
        before = 1 if question else 0
        order = [(predicate, slice(0, before)), (subject.phrase, slice(None)), (predicate, slice(before, None)),
                 (than, slice(None))]
        return self._assemble([subject.phrase, than, predicate], order, None, question)

    # -- vocatives: 선생님, ... -> Teacher, ... --

    VOCATIVE_BODIES: ClassVar[tuple[str, ...]] = ("request", "dont", "please_do", "lets", "shall_we")

    def _vocative(self, register: str) -> SentencePair:
        """A request, a suggestion or a "do not" with the one spoken to named first: 선생님, 사과를 주세요. ->
        Teacher, please give me an apple.; 민수 씨, 같이 갑시다. -> Minsu, let's go together.; 지은아, 먹지 마. ->
        Jieun, do not eat. The comma is a word of its own (the tokenizer cuts it off; the pair's text spaces it
        as the earlier rounds' English does: 선생님 , 사과를 주세요.). A teacher or grandparent (선생님, 할머니)
        before a polite or formal body, a parent (엄마, 아빠) before all but a formal one; a name with 씨 before a
        polite or formal body (its last word ends in 요, 시다, 시오 ...), with 아 / 야 before banmal and plain
        speech. Teacher -> 선생님; Minsu -> 민수 and 씨 (민수야); the comma -> the comma; the body's first word
        lowered (please)."""
        body_kind = self.rng.choice(self.VOCATIVE_BODIES)
        if body_kind == "please_do" and register not in ("polite", "formal"):
            body_kind = "request"
        body = getattr(self, f"_{body_kind}")(register)
        ending = body.source_words[-2]
        formal = ending.endswith(("시다", "시오", "니다", "니까"))  # 갑시다, 드십시오: not to a parent
        polite = formal or ending.endswith("요")
        titles = [(ko, en) for ko, en in VOCATIVE_TITLES
                  if (ko in ("엄마", "아빠") and not formal) or (ko not in ("엄마", "아빠") and polite)]
        words: list[Word] = []
        if titles and self.rng.random() < 0.4:
            ko, en = self.rng.choice(titles)
            words.append((ko,))
        else:
            name = self.rng.choice(self.lexicon.names)
            en = name.en
            words += [(name.ko,), (NAME_TITLE,)] if polite else [vocative_word(name.ko)]
        from transformer_core.grammar.base import word_tokens

        pieces = [piece for word in words for piece in word_tokens(word)]
        n_words, n_pieces = len(words) + 1, len(pieces) + 1
        first = body.target[0]
        lowered = first.lower() if first in LOWERED_AFTER_VOCATIVE else first
        target = (en, ",", lowered, *body.target[1:])
        alignment = (tuple(range(len(pieces))), (len(pieces),),
                     *(tuple(i + n_pieces for i in link) for link in body.alignment))
        source_words = (*("".join(w) for w in words), ",", *body.source_words)
        word_alignment = (tuple(range(len(words))), (len(words),),
                          *(tuple(i + n_words for i in link) for link in body.word_alignment))
        return SentencePair((*pieces, ",", *body.source), target, alignment, source_words, word_alignment)


class Learner8Grammar(Learner7Grammar):
    """Grammar "learner8": learner7 plus noun-noun compounds a learner says (학교 식당 -> school cafeteria, 영어 숙제
    -> English homework, 한국 음식 -> Korean food, 생일 선물 -> birthday present: a class of modifiers times a class of
    heads, English keeping the order), durations with 동안 (삼 년 동안 -> for 3 years, 두 시간 동안 -> for two hours),
    dates (삼월 오 일에 -> on March 5; 오늘은 삼월 오 일이에요 -> Today is March 5), reported speech -대요 / -(이)래요
    (민수가 바쁘대요 -> Minsu says that he is busy), -는데 of background before a suggestion or request (피곤한데
    집에 갈까요? -> I am tired , so shall we go home?) and a learner's everyday verbs the lexicon lacked (the additions
    file "learner8": 혼나다, 막히다, 깨지다, 길을 잃다, 줄을 서다, 배탈이 나다 ...). Its own KINDS (learner7's, then
    the new ones), so learner7's stream stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER8_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {
        **Learner7Grammar.KINDS, "compound": 4, "for_duration": 3, "date": 2, "reported": 3, "background_so": 2}

    def _verb_named(self, stem: str, en: str, kinds: tuple[str, ...] = ("transitive", "intransitive", "motion")
                      ) -> Verb:
        return next(v for kind in kinds for v in getattr(self.lexicon, kind) if (v.stem, v.en_base) == (stem, en))

    # -- noun-noun compounds: 영어 숙제를 했어요 -> did the English homework; 학교 식당에 갔어요 -> went to the school
    # cafeteria --

    def _compound(self, register: str) -> SentencePair:
        """S는 MOD HEAD을 V -> S V a MOD HEAD (민수는 생일 선물을 샀어요 -> Minsu bought a birthday present; 한국
        영화를 좋아해요 -> likes Korean movies; 영어 숙제를 했어요 -> did the English homework), or S는 MOD HEAD에 가요
        / MOD HEAD에서 V -> S goes to / V-s at the MOD HEAD (학교 식당에서 일해요 -> works at the school cafeteria).
        MOD's English -> MOD; HEAD's English (and to / at) -> HEAD with its particle; a / the unaligned."""
        tense = self.rng.choice(["present", "past", "past", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        compound = Phrase()
        if self.rng.random() < 0.55:
            modifiers, heads = self.rng.choice(THING_COMPOUNDS)
            modifier_ko, modifier_en = self.rng.choice(modifiers)
            head_ko, head_en, plural, article, verbs = self.rng.choice(heads)
            verb = self._verb_named(*self.rng.choice(verbs), kinds=("transitive",))
            modifier = compound.add_ko((modifier_ko,))
            head = compound.add_ko(attach(head_ko, "object"))
            if plural and verb.en_base in GENERIC_VERBS:
                head_en, article = plural, ""  # likes Korean movies
            if article:
                compound.add_en(english.indefinite_article(modifier_en) if article == "a" else article)
        else:
            modifiers, heads = self.rng.choice(PLACE_COMPOUNDS)
            modifier_ko, modifier_en = self.rng.choice(modifiers)
            head_ko, head_en, verbs = self.rng.choice(heads)
            go = self.rng.random() < 0.5
            verb = (next(v for v in self.lexicon.motion if v.stem == "가") if go
                    else self._verb_named(*self.rng.choice(verbs), kinds=("intransitive",)))
            modifier = compound.add_ko((modifier_ko,))
            head = compound.add_ko(attach(head_ko, "goal" if go else "location"))
            compound.add_en("to" if go else "at", head)
            compound.add_en("the")
        compound.add_en(modifier_en, modifier)
        compound.add_en(head_en, head)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [compound])
        return self._assemble([subject.phrase, compound, predicate], order, self._time(tense), question)

    # -- durations with 동안: 삼 년 동안 -> for 3 years; dates: 삼월 오 일에 -> on March 5 --

    def _span(self) -> tuple[Phrase, bool]:
        """N UNIT 동안 -> for N UNITs (삼 년 동안 -> for 3 years, 한 달 동안 -> for a month, 두 시간 동안 -> for two
        hours, 일주일 동안 -> for a week, typed 2년 동안 -> for 2 years); whether the span is days or longer. for ->
        동안; 3 -> the number; years -> the counter (typed: both -> the one word)."""
        phrase = Phrase()
        choice = self.rng.random()
        if choice < 0.15:
            word, en = self.rng.choice(DURATION_WORDS)
            index = phrase.add_ko(word)
            during = phrase.add_ko(DURING)
            phrase.add_en("for", during)
            for w in en:
                phrase.add_en(w, index)
            return phrase, True
        unit, kind, numbers, en = self.rng.choice(DURATION_UNITS)
        if unit in TYPED_DURATIONS and (kind == "sino" and self._typed()):
            n = self.rng.choice(TYPED_DURATIONS[unit])
            index = phrase.add_ko(digit_word(n, unit))
            nums = [index]
        else:
            n = self.rng.choice(numbers)
            nums = [phrase.add_ko(w) for w in (sino_words(n) if kind == "sino" else [(native_count(n)[0],)])]
            index = phrase.add_ko((unit,))
        during = phrase.add_ko(DURING)
        phrase.add_en("for", during)
        number_word, unit_word = duration_english(n, en, kind == "native")
        phrase.add_en(number_word, *nums)
        phrase.add_en(unit_word, index)
        return phrase, unit in LONG_UNITS

    def _for_duration(self, register: str) -> SentencePair:
        """S [N UNIT 동안] [OBJ] V -> S V [OBJ] for N UNITs (저는 삼 년 동안 한국어를 공부했어요 -> I studied Korean
        for 3 years; 민수는 두 시간 동안 잤어요 -> Minsu slept for two hours). Days and longer take what one does for
        that long (study, work, travel, rest ...: LONG_ACTIVITIES) in the past or future; hours and minutes any
        activity, in any tense."""
        span, long = self._span()
        tense = self.rng.choice(["past", "past", "future"] if long else ["present", "past", "past", "future"])
        question = self.rng.random() < 0.1
        subject = self._subject(question=question)
        chosen = LONG_ACTIVITIES if long else STILL_VERBS
        verb = self.rng.choice([v for v in self.lexicon.transitive + self.lexicon.intransitive
                                if (v.stem, v.en_base) in chosen and "person" in v.subjects])
        obj = self._object(verb)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, span])
        return self._assemble([subject.phrase, span, obj.phrase if obj else None, predicate], order, None,
                              question)

    def _date_words(self, phrase: Phrase, month: int, day: int, ending: str) -> tuple[int, list[int], int]:
        """삼월 오 일 + `ending` (typed 3월 5일 + ending) into `phrase`: the month's word, the day's number words and
        the last word."""
        if self._typed():
            month_index = phrase.add_ko(digit_word(month, MONTH))
            last = phrase.add_ko(digit_word(day, DAY, *((ending,) if ending else ())))
            return month_index, [last], last
        month_index = phrase.add_ko((MONTHS[month - 1][0],))
        nums = [phrase.add_ko(w) for w in sino_words(day)]
        last = phrase.add_ko((DAY, ending) if ending else (DAY,))
        return month_index, nums, last

    def _month_day(self) -> tuple[int, int]:
        return self.rng.randint(1, 12), self.rng.randint(1, 28)

    def _date(self, register: str) -> SentencePair:
        """S는 삼월 오 일에 V -> S V on March 5 (typed 3월 5일에); 오늘은 삼월 오 일이에요 -> Today is March 5. on ->
        일에; March -> 삼월; 5 -> 오; Today -> 오늘은; is -> 일이에요. Past or future (a date is one day)."""
        month, day = self._month_day()
        if self.rng.random() < 0.3:
            today = Phrase()
            today_index = today.add_ko((TODAY, "은"))
            today.add_en("Today", today_index)
            predicate = Phrase()
            month_index, nums, last = self._date_words(predicate, month, day,
                                                       copula_ending(DAY, "present", False, register))
            predicate.add_en("is", last)
            month_en, day_en = date_english(month, day)
            predicate.add_en(month_en, month_index)
            predicate.add_en(day_en, *nums)
            return self._assemble([today, predicate], [(today, slice(None)), (predicate, slice(None))], None, False)
        tense = self.rng.choice(["past", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        time = Phrase()
        month_index, nums, last = self._date_words(time, month, day, "에")
        time.add_en("on", last)
        month_en, day_en = date_english(month, day)
        time.add_en(month_en, month_index)
        time.add_en(day_en, *nums)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place])
        return self._assemble([subject.phrase, place, obj.phrase if obj else None, predicate], order, time, question)

    # -- reported speech: 민수가 바쁘대요 -> Minsu says that he is busy --

    def _reported(self, register: str) -> SentencePair:
        """S가 ADJ-대요 -> S says that he is ADJ (바빴대요 -> was); S가 [OBJ] V-었대요 -> S says that he V-ed [OBJ];
        V-(으)ㄹ 거래요 -> says that he will V; S는 의사래요 -> S says that he is a doctor. The one who says it is a
        name a Korean reads as a man's or a woman's (NAME_PRONOUNS) or 그 / 그녀 / 그들; the clause's pronoun repeats
        it, unaligned. says, that (and is, the verb) -> the -대요 word; will -> 거래요; the verb -> V-(으)ㄹ."""
        from transformer_core.grammar.base import english_verb_items

        role = self.rng.choice(["topic", "subject"])
        names = [n for n in self.lexicon.names if n.ko in NAME_PRONOUNS]
        if self.rng.random() < 0.3:
            pronoun = self.rng.choice([p for p in self.lexicon.pronouns if p.person == 3])
            sayer, he, plural = pronoun_phrase(pronoun, role), pronoun.en_subject, pronoun.plural
        else:
            name = self.rng.choice(names)
            sayer, he, plural = name_phrase(name, role), NAME_PRONOUNS[name.ko], False
        self._last_subject = sayer
        predicate = Phrase()
        rest: list[Phrase | None] = []
        korean: list[Phrase | None] = [sayer.phrase]
        choice = self.rng.random()
        if choice < 0.35:
            adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative and a.stem
                                         and "person" in a.applies_to])
            tense = self.rng.choice(["present", "present", "past"])
            index = predicate.add_ko(reported_word(adjective, tense, register)[0])
            items = [(english.be_form(3, plural, tense == "past"), index), (adjective.en, index)]
        elif choice < 0.5:
            job = self.rng.choice([n for n in self.lexicon.common_nouns if n.ko in JOBS])
            tense = self.rng.choice(["present", "present", "past"])
            index = predicate.add_ko(reported_copula_word(job.ko, tense, register))
            items = [(english.be_form(3, plural, tense == "past"), index)]
            if plural:
                items.append((job.plural, index))
            else:
                items += [(english.indefinite_article(job.en), None), (job.en, index)]
        else:
            verb = self._verb(("transitive", "intransitive", "motion"))
            tense = self.rng.choice(["past", "past", "future"])
            obj, place = self._object(verb), self._place_for(verb)
            korean += [place, obj.phrase if obj else None]
            rest = [obj.phrase if obj else None, place]
            words = reported_word(verb, tense, register)
            lexical = predicate.add_ko(words[0])
            index = predicate.add_ko(words[1]) if len(words) > 1 else lexical
            verb_items, _ = english_verb_items(verb, tense, False, False, 3, plural)
            items = [(word, index if role == "aux" else lexical) for phrase_word, role in verb_items
                     for word in phrase_word.split()]
        predicate.add_en("say" if plural else "says", index)
        predicate.add_en("that", index)
        predicate.add_en(he)
        for word, link in items:
            predicate.add_en(word, *(() if link is None else (link,)))
        korean.append(predicate)
        order = [(sayer.phrase, slice(None)), (predicate, slice(None))] + [(p, slice(None)) for p in rest if p]
        return self._assemble(korean, order, None, False)


    # -- -는데 / -(으)ㄴ데 of background before a suggestion or request: 피곤한데 집에 갈까요? -> I am tired , so
    # shall we go home? --

    BACKGROUND_BODIES: ClassVar[tuple[str, ...]] = ("shall_we", "lets", "please_do", "dont")

    def _background_so(self, register: str) -> SentencePair:
        """S ADJ-(으)ㄴ데 BODY -> S is ADJ , so BODY (피곤한데 같이 집에 갈까요? -> I am tired , so shall we go home
        together?); 비가 오는데 BODY -> It is raining , so BODY (비가 오는데 나가지 마세요 -> It is raining , so please
        do not go out). BODY: a suggestion (-(으)ㄹ까요?, -(으)ㅂ시다) or a request (-(으)세요, -지 마세요), learner3's
        and learner5's kinds, its first English word lowered. -는데 here is the background a suggestion rests on
        (learner4's `background` keeps -는데 between two statements: ..., but ...). is, tired, so -> 피곤한데; raining
        -> 비가 and 오는데; It and the comma unaligned."""
        body_kind = self.rng.choice(self.BACKGROUND_BODIES)
        if body_kind == "please_do" and register not in ("polite", "formal"):
            body_kind = "dont"
        clause = Phrase()
        if self.rng.random() < 0.4:
            entry = self.rng.choice([e for e in self.lexicon.fixed_subject
                                     if e.frame == "weather" and e.en_subject == "it"])
            noun = clause.add_ko(attach(entry.noun, entry.particle))
            index = clause.add_ko(neunde_word(fixed_subject_predicate(entry), "present"))
            clause.add_en("it")
            clause.add_en("is", index)
            clause.add_en(present_participle(entry.en), noun, index)
            korean, order = [Phrase(), clause], [(clause, slice(None))]
        else:
            subject = self._subject("topic", drop=0.5)
            adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.stem in BACKGROUND_STATES
                                         and "person" in a.applies_to])
            index = clause.add_ko(neunde_word(adjective, "present"))
            clause.add_en(english.be_form(subject.person, subject.plural, False), index)
            clause.add_en(adjective.en, index)
            korean, order = [subject.phrase, clause], [(subject.phrase, slice(None)), (clause, slice(None))]
        clause.add_en(",")
        clause.add_en("so", index)
        first = self._assemble(korean, order, None, False)
        body = getattr(self, f"_{body_kind}")(register)
        n_words, n_pieces = len(first.source_words) - 1, len(first.source) - 1  # without the first's final mark
        lowered = body.target[0].lower() if body.target[0] in LOWERED_AFTER_VOCATIVE else body.target[0]
        target = (*first.target[:-1], lowered, *body.target[1:])
        alignment = (*first.alignment[:-1], *(tuple(i + n_pieces for i in link) for link in body.alignment))
        source_words = (*first.source_words[:-1], *body.source_words)
        word_alignment = (*first.word_alignment[:-1],
                          *(tuple(i + n_words for i in link) for link in body.word_alignment))
        return SentencePair((*first.source[:-1], *body.source), target, alignment, source_words, word_alignment)


def listened_apart(lexicon):
    """`lexicon` with 듣다 "hear" kept off what one listens to (music, a song, the radio: 듣다 "listen to"), so each
    Korean object of 듣다 has one English verb; the nouns LISTENED tags lose the "sound" tag "hear" takes."""
    nouns = [dataclasses.replace(n, tags=n.tags - {"sound", "show"}) if n.tags & LISTENED else n
             for n in lexicon.common_nouns]
    return dataclasses.replace(lexicon, common_nouns=nouns)


def wordpiece_split(word: str, vocabulary: frozenset[str]) -> list[str] | None:
    """The pieces WordPiece cuts `word` into (longest match first, '##' after the first), without the '##';
    None when some part matches nothing (the tokenizer's <unk>)."""
    pieces: list[str] = []
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):
            candidate = word[start:end] if start == 0 else "##" + word[start:end]
            if candidate in vocabulary:
                pieces.append(word[start:end])
                start = end
                break
        else:
            return None
    return pieces


def typed_word(word: Word, vocabulary: frozenset[str]) -> Word | None:
    """`word` as the tokenizer cuts its text: ('가', '는') -> ('가는',) in the learner4 vocabulary; None: <unk>."""
    pieces = wordpiece_split("".join(word), vocabulary)
    return tuple(pieces) if pieces is not None else None


class Learner9Grammar(Learner8Grammar):
    """Grammar "learner8" plus the particles as learners hear them spoken: an object's 을/를 dropped (같이 영화
    볼래? 창문 좀 열어 주세요) and a subject's 이/가 before 있다 / 없다 (시간 있어요?), the topic 은/는 on a time word
    (내일은 학교에 안 가요, 봄에는 꽃이 펴요) and 에는 on a place before 있다 / 없다 (우리 반에는 ... 있어요): the same
    English, since the meaning does not change (SPOKEN_SHARE, TOPIC_SHARE of the pairs); 몇 시에 / 몇 층에 questions
    (what_time, what_floor), 밖에 with a negative (only_neg: 한 시간밖에 없어요 -> I have only one hour; 물밖에 안
    마셔요 -> I only drink water), 하나도 (not_at_all), 아무도 / 아무것도 (nobody), the first day's set phrases
    (set_phrase: 안녕하세요 -> Hello) and the additions file "learner9" (이가 아프다, 살이 빠지다, 피아노를 치다 ...).
    Its own KINDS (learner8's, then the new ones), so learner8's stream stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER9_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {
        **Learner8Grammar.KINDS, "what_time": 3, "what_floor": 1, "only_neg": 3, "not_at_all": 2, "nobody": 3,
        "set_phrase": 1, "possessive": 3, "instead_of": 2, "among_most": 2}
    SPOKEN_SHARE: ClassVar[float] = 0.3  # pairs whose object and existence-subject particles are dropped
    TOPIC_SHARE: ClassVar[float] = 0.35  # pairs whose time word (or place before 있다 / 없다) takes 은/는

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        lexicon = self.lexicon
        self._droppable = frozenset(n.ko for n in lexicon.common_nouns + lexicon.places + lexicon.names)
        self._time_texts = topic_time_texts(lexicon)

    def _sample_once(self, register: str | None, kind: str | None = None) -> SentencePair:
        pair = super()._sample_once(register, kind)
        spoken, topic = self.rng.random() < self.SPOKEN_SHARE, self.rng.random() < self.TOPIC_SHARE
        if not (spoken or topic) or kind == "set_phrase":
            return pair
        return spoken_particles(pair, self._droppable, self._time_texts if topic else frozenset(), spoken)

    # -- 몇 시에 / 몇 층에: what time, what floor --

    def _what_time(self, register: str) -> SentencePair:
        """S 몇 시에 V? -> What time does S V? (what -> 몇; time -> 시에; does -> the verb's tense word); S a person,
        or a thing that starts, ends or leaves (회의가 몇 시에 끝나요? -> What time does the meeting end?)."""
        tense = self.rng.choice(["present", "present", "past", "future"])
        things = [v for v in self.lexicon.intransitive if v.subjects and "person" not in v.subjects
                  and self._nouns_with(v.subjects)]
        if things and self.rng.random() < 0.35:
            verb = self.rng.choice(things)
            noun = self.rng.choice([n for n in self._nouns_with(verb.subjects) if not n.proper])
            subject = bare_the_phrase(noun, self.rng.choice(["subject", "topic"]))
        else:
            subject = self._subject(question=True)
            verb = self._verb(("transitive", "intransitive", "motion"))
        obj, place = self._object(verb), self._place_for(verb)
        when = Phrase()
        how = when.add_ko((HOW_MANY,))
        hour = when.add_ko((HOUR, "에"))
        when.add_en("What", how)
        when.add_en("time", hour)
        predicate, before = self._final_predicate(verb, tense, True, register, subject)
        order = self._english_order(subject, predicate, before, [obj.phrase if obj else None, place], front=when)
        return self._assemble([subject.phrase, when, place, obj.phrase if obj else None, predicate], order, None,
                              True)

    def _what_floor(self, register: str) -> SentencePair:
        """N은 몇 층에 있어요? -> What floor is the N on? (what -> 몇; floor and on -> 층에; is -> 있어요)."""
        noun = self.rng.choice([n for n in self._nouns_with(frozenset({"place"})) if not n.proper
                                and n.en != "home"])
        subject = common_phrase(noun, "topic", None, False, None)
        subject.phrase.en[0] = "the"
        where = Phrase()
        how = where.add_ko((HOW_MANY,))
        floor = where.add_ko((FLOOR, "에"))
        where.add_en("What", how)
        where.add_en("floor", floor)
        predicate = Phrase()
        tense = "present" if self.rng.random() < 0.85 else "past"
        for word in auxiliary_words("있", "있었", tense, True, register, action=False):
            index = predicate.add_ko(word)
        predicate.add_en(english.be_form(3, subject.plural, tense == "past"), index)
        order = [(where, slice(None)), (predicate, slice(None)), (subject.phrase, slice(None))]
        pair = self._assemble([subject.phrase, where, predicate], order, None, True)
        return _with_english_before_mark(pair, "on", pair.alignment[1])

    # -- 밖에 with a negative: only --

    def _lacks(self, subject: NounPhrase, tense: str, register: str) -> tuple[Phrase, int]:
        """없다 said of what `subject` has: 없어요 -> has / have / had (the English of N밖에 없다, N이 하나도 없다),
        and the index of its last word."""
        predicate = Phrase()
        for word in auxiliary_words("없", "없었", tense, False, register, action=False):
            index = predicate.add_ko(word)
        if tense == "past":
            predicate.add_en("had", index)
        else:
            predicate.add_en("has" if english.takes_third_person_s(subject.person, subject.plural) else "have", index)
        return predicate, index

    def _only_neg(self, register: str) -> SentencePair:
        """S는 [N이] NUM COUNTER밖에 없어요 -> S has only NUM Ns (한 시간밖에 없어요 -> I have only one hour), or S는
        N밖에 안 V -> S only V-s N (물밖에 안 마셔요 -> I only drink water). only -> 밖에; has -> 없어요."""
        from transformer_core.grammar.base import english_verb_items, predicate_phrase, verb_pieces

        tense = self.rng.choice(["present", "present", "past"])
        subject = self._subject("topic", drop=0.35)
        if self.rng.random() < 0.5:
            verb = self.rng.choice([v for v in self.lexicon.transitive if "person" in v.subjects
                                    and [n for n in self._nouns_with(v.objects) if not n.proper]])
            noun = self.rng.choice([n for n in self._nouns_with(verb.objects) if not n.proper])
            obj = Phrase()
            index = obj.add_ko((noun.ko, ONLY_BEFORE_NEGATIVE))
            obj.add_en("only", index)
            obj.add_en(noun.en if noun.mass else noun.plural, index)
            words, lexical, tense_index = verb_pieces(verb, tense, True, False, register)
            items, _ = english_verb_items(verb, tense, False, False, subject.person, subject.plural)
            predicate = predicate_phrase(words, lexical, tense_index, items)
            order = [(subject.phrase, slice(None)), (obj, slice(0, 1)), (predicate, slice(None)),
                     (obj, slice(1, None))]
            return self._assemble([subject.phrase, obj, predicate], order, self._time(tense), False)
        counted = Phrase()
        if self.rng.random() < 0.3:
            n = self.rng.choice([1, 1, 2, 3])
            ko, en = native_count(n)
            number = counted.add_ko((ko,))
            unit = counted.add_ko((HOURS, ONLY_BEFORE_NEGATIVE))
            counted.add_en("only", unit)
            counted.add_en(en, number)
            counted.add_en("hour" if n == 1 else "hours", unit)
        else:
            noun = self.rng.choice([n for n in self._nouns_with(frozenset({"object", "food", "book", "person"}))
                                    if n.counter and not n.mass and not n.plural_only and not n.proper])
            n = self.rng.choice([1, 1, 2, 2, 3, 4, 5])
            ko, en = native_count(n)
            noun_index = counted.add_ko(attach(noun.ko, "subject"))
            number = counted.add_ko((ko,))
            unit = counted.add_ko((noun.counter, ONLY_BEFORE_NEGATIVE))
            counted.add_en("only", unit)
            counted.add_en(en, number)
            counted.add_en(noun.en if n == 1 else noun.plural, noun_index, unit)
        predicate, index = self._lacks(subject, tense, register)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (counted, slice(None))]
        return self._assemble([subject.phrase, counted, predicate], order, None, False)

    # -- 하나도: not ... at all; 아무도 / 아무것도: nobody, (not) anything --

    def _not_at_all(self, register: str) -> SentencePair:
        """S는 하나도 안 ADJ -> S is not ADJ at all (이 문제는 하나도 안 어려워요 -> This problem is not difficult at
        all), or S는 N이 하나도 없어요 -> S has no Ns at all (돈이 하나도 없어요 -> I have no money at all). at and
        all -> 하나도; not -> 안; no -> 없어요."""
        from transformer_core.grammar.base import adjective_pieces, english_be_items, predicate_phrase

        tense = self.rng.choice(["present", "present", "past"])
        at_all = Phrase()
        index = at_all.add_ko((AT_ALL,))
        at_all.add_en("at", index)
        at_all.add_en("all", index)
        if self.rng.random() < 0.5:
            adjective = self.rng.choice([a for a in self.lexicon.adjectives if a.predicative and a.stem])
            subject = self._definite_subject(adjective, "topic")
            words, lexical, tense_index = adjective_pieces(adjective, tense, True, False, register)
            items, _ = english_be_items(adjective, tense, True, False, subject.person, subject.plural)
            predicate = predicate_phrase(words, lexical, tense_index, items)
            order = [(subject.phrase, slice(None)), (predicate, slice(None)), (at_all, slice(None))]
            return self._assemble([subject.phrase, at_all, predicate], order, None, False)
        subject = self._subject("topic", drop=0.4)
        noun = self.rng.choice([n for n in self._nouns_with(frozenset({"object", "food", "book", "clothes"}))
                                if not n.proper and not n.plural_only])
        had = Phrase()
        noun_index = had.add_ko(attach(noun.ko, "subject"))
        had.add_en(noun.en if noun.mass else noun.plural, noun_index)
        predicate, index = self._lacks(subject, tense, register)
        predicate.add_en("no", index)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (had, slice(None)), (at_all, slice(None))]
        return self._assemble([subject.phrase, had, at_all, predicate], order, None, False)

    def _nobody(self, register: str) -> SentencePair:
        """PLACE에 아무도 없어요 -> There is nobody at the PLACE (집에 아무도 없어요 -> There is nobody at home), or S는
        아무것도 안 V -> S does not V anything (아무것도 안 먹었어요 -> I did not eat anything). nobody -> 아무도;
        there and is -> 없어요; anything -> 아무것도."""
        from transformer_core.grammar.base import place_phrase

        tense = self.rng.choice(["present", "present", "past"])
        if self.rng.random() < 0.45:
            place = place_phrase(self.rng.choice([p for p in self.lexicon.places if not p.proper]), "goal", "at")
            if place.en == ["home"]:
                place.en.insert(0, "at")
                place.links.insert(0, place.links[0])
            nobody = Phrase()
            index = nobody.add_ko((NOBODY,))
            nobody.add_en("nobody", index)
            predicate = Phrase()
            for word in auxiliary_words("없", "없었", tense, False, register, action=False):
                last = predicate.add_ko(word)
            predicate.add_en("There", last)
            predicate.add_en("was" if tense == "past" else "is", last)
            order = [(predicate, slice(None)), (nobody, slice(None)), (place, slice(None))]
            return self._assemble([place, nobody, predicate], order, None, False)
        subject = self._subject(drop=0.4)
        verb = self.rng.choice([v for v in self.lexicon.transitive if "person" in v.subjects])
        tense = self.rng.choice(["present", "past", "past", "future"])
        anything = Phrase()
        index = anything.add_ko((NOTHING,))
        anything.add_en("anything", index)
        predicate, _ = self._final_predicate(verb, tense, False, register, subject, negated=True)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (anything, slice(None))]
        return self._assemble([subject.phrase, anything, predicate], order, self._time(tense), False)

    def _possessive(self, register: str) -> SentencePair:
        """OWNER HEAD: 강아지 이름이 뭐예요? -> What is the puppy's name?; 동생 생일이 언제예요? -> When is my younger
        sibling's birthday?; 차 열쇠가 어디 있어요? -> Where is the car key?; S는 비행기 표를 샀어요 -> S bought a
        plane ticket. the puppy's -> 강아지; name -> 이름이; what and is -> 뭐예요; where -> 어디; is -> 있어요."""
        choice = self.rng.random()
        head = Phrase()
        if choice < 0.3:
            head_ko, head_en, asked = self.rng.choice(OWNED_ASKED)
            # an animal has a name and a birthday, not a phone number
            owners = OWNERS if head_ko in ("이름", "생일") else PEOPLE_OWNERS
            # one does not ask 민수's name while naming him
            owner_ko, owner_en = self.rng.choice([o for o in owners if head_ko != "이름" or o[1].islower()])
            owner = head.add_ko((owner_ko,))
            noun = head.add_ko(attach(head_ko, self.rng.choice(["subject", "topic"])))
            for w in owner_en.split():
                head.add_en(w, owner)
            head.add_en(head_en, noun)
            predicate = Phrase()
            index = predicate.add_ko((asked, copula_ending(asked, "present", True, register)))
            predicate.add_en("what" if asked == "뭐" else "when", index)
            predicate.add_en("is", index)
            return self._assemble([head, predicate], [(predicate, slice(None)), (head, slice(None))], None, True)
        if self.rng.random() < 0.5:
            owner_ko, owner_en = self.rng.choice(PEOPLE_OWNERS)
            head_ko, head_en = self.rng.choice(OWNED_FOUND)
        else:
            (owner_ko, owner_en), head_ko, head_en = self.rng.choice(
                [(o, "열쇠", "key") for o in THING_KEYS] + [(o, "표", "ticket") for o in THING_TICKETS])
        article = "" if owner_en.endswith("'s") else ("a" if head_en == "ticket" else "the")
        if choice < 0.65:
            owner = head.add_ko((owner_ko,))
            noun = head.add_ko(attach(head_ko, self.rng.choice(["subject", "topic"])))
            if article:
                head.add_en("the")
            for w in owner_en.split():
                head.add_en(w, owner)
            head.add_en(head_en, noun)
            predicate = Phrase()
            where = predicate.add_ko(("어디",))
            for word in auxiliary_words("있", "있었", "present", True, register, action=False):
                index = predicate.add_ko(word)
            predicate.add_en("where", where)
            predicate.add_en("is", index)
            return self._assemble([head, predicate], [(predicate, slice(None)), (head, slice(None))], None, True)
        verbs = {"key": (("찾", "find"), ("잃어버리", "lose"), ("가져오", "bring")),
                 "ticket": (("사", "buy"), ("예약하", "reserve"), ("잃어버리", "lose"))}.get(
            head_en, (("찾", "find"), ("잃어버리", "lose"), ("가져오", "bring")))
        verb = self._verb_named(*self.rng.choice(verbs), kinds=("transitive",))
        tense = self.rng.choice(["past", "past", "present", "future"])
        question = self.rng.random() < 0.15
        subject = self._subject(question=question)
        owner = head.add_ko((owner_ko,))
        noun = head.add_ko(attach(head_ko, "object"))
        if article:
            head.add_en(article)
        for w in owner_en.split():
            head.add_en(w, owner)
        head.add_en(head_en, noun)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [head])
        return self._assemble([subject.phrase, head, predicate], order, self._time(tense), question)

    def _which_word(self) -> tuple[str, tuple[str, ...]]:
        """As learner6's, and 어떤 -> what kind of (어떤 음식을 좋아해요? -> What kind of food do you like?)."""
        choice = self.rng.random()
        if choice < 0.3:
            return "무슨", ("what", "kind", "of")
        return (WHAT_KIND, ("what", "kind", "of")) if choice < 0.6 else ("어느", ("which",))

    # -- 말고: instead of; N 중에서 제일: the most among --

    def _object_words(self, noun: Noun) -> list[str]:
        """A noun as an object in English: mass bare (tea), countable with a / an (an apple)."""
        return [noun.en] if noun.mass or noun.plural_only else [english.indefinite_article(noun.en), noun.en]

    def _instead_of(self, register: str) -> SentencePair:
        """S는 N1 말고 N2를 V -> S V-s N2 instead of N1 (민수는 커피 말고 차를 마셔요 -> Minsu drinks tea instead of
        coffee), or N1 말고 N2를 V-(으)ㅂ시다 / V-자 -> Let's V N2 instead of N1 (말고, a form of 말다, is a word of
        its own). instead and of -> 말고; N1 -> N1; N2 -> N2를. N1 and N2 are of one kind (drinks, fruits, sports, ...)
        the verb takes."""
        verb, first, second = self._two_of_a_kind()
        alternative = Phrase()
        first_index = alternative.add_ko((first.ko,))
        instead = alternative.add_ko((INSTEAD_OF,))
        alternative.add_en("instead", instead)
        alternative.add_en("of", instead)
        for word in self._object_words(first):
            alternative.add_en(word, first_index) if word == first.en else alternative.add_en(word)
        obj = Phrase()
        index = obj.add_ko(attach(second.ko, "object"))
        for word in self._object_words(second):
            obj.add_en(word, index) if word == second.en else obj.add_en(word)
        if self.rng.random() < 0.3:
            predicate = Phrase()
            lets = self.rng.random() < 0.5
            lexical = predicate.add_ko(bsida_word(verb.stem, eu_class(verb, self.GRAMMAR)) if lets
                                       else ja_word(verb.stem))
            predicate.add_en("Let's", lexical)
            predicate.add_en(verb.en_base, lexical)
            order = [(predicate, slice(None)), (obj, slice(None)), (alternative, slice(None))]
            return self._assemble([alternative, obj, predicate], order, None, False)
        tense = self.rng.choice(["present", "past", "future"])
        question = self.rng.random() < 0.2
        subject = self._subject(question=question)
        predicate, before = self._final_predicate(verb, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [obj, alternative])
        return self._assemble([subject.phrase, alternative, obj, predicate], order, self._time(tense), question)

    def _two_of_a_kind(self) -> tuple[Verb, Noun, Noun]:
        """A verb a person does to a kind of thing, and two different nouns of that kind it takes."""
        for _ in range(50):
            tag = self.rng.choice(ALTERNATIVE_KINDS)
            verbs = [v for v in self.lexicon.transitive if "person" in v.subjects and tag in v.objects]
            nouns = [n for n in self.lexicon.common_nouns if tag in n.tags and not n.proper]
            if verbs and len(nouns) > 1:
                first, second = self.rng.sample(nouns, 2)
                return self.rng.choice(verbs), first, second
        raise ValueError("the lexicon has no verb taking two nouns of one kind")

    def _among_most(self, register: str) -> SentencePair:
        """S는 KIND 중에서 N을 제일 좋아해요 -> S likes N the most among KINDs (과일 중에서 딸기를 제일 좋아해요 -> I
        like strawberries the most among fruits); S는 KIND 중에서 뭐를 제일 좋아해요? -> What does S like the most
        among KINDs? among -> 중에서; KINDs -> KIND; the and most -> 제일; likes -> 좋아해요."""
        kinds = [(kind_ko, kind_en, nouns) for kind_ko, kind_en, members in AMONG_KINDS
                 if (nouns := [n for n in self.lexicon.common_nouns
                               if (n.tags & members or n.ko in members) and not n.proper])]
        kind_ko, kind_en, nouns = self.rng.choice(kinds)
        noun = self.rng.choice(nouns)
        like = self._verb_named("좋아하", "like", kinds=("transitive",))
        question = self.rng.random() < 0.25
        tense = "present" if self.rng.random() < 0.85 else "past"
        subject = self._subject("topic", question=question)
        among = Phrase()
        group = among.add_ko((kind_ko,))
        within = among.add_ko(AMONG)
        among.add_en("among", within)
        among.add_en(kind_en, group)
        most = Phrase()
        best = most.add_ko((MOST,))
        most.add_en("the", best)
        most.add_en("most", best)
        liked = Phrase()
        if question:
            what = liked.add_ko(("뭐", "를"))
            liked.add_en("What", what)
        else:
            index = liked.add_ko(attach(noun.ko, "object"))
            liked.add_en(noun.en if noun.mass or "season" in noun.tags else noun.plural, index)
        predicate, before = self._final_predicate(like, tense, question, register, subject)
        if question:
            order = [(liked, slice(None)), (predicate, slice(0, before)), (subject.phrase, slice(None)),
                     (predicate, slice(before, None)), (most, slice(None)), (among, slice(None))]
        else:
            order = self._english_order(subject, predicate, before, [liked, most, among])
        return self._assemble([subject.phrase, among, liked, most, predicate], order, None, question)

    def _set_phrase(self, register: str) -> SentencePair:
        """A first day's set phrase, whole to whole: 안녕하세요. -> Hello.; 감사합니다. -> Thank you."""
        korean, english_words = self.rng.choice(SET_PHRASES)
        phrase = Phrase()
        indices = [phrase.add_ko((word,)) for word in korean]
        for word in english_words:
            phrase.add_en(word, *indices)
        return self._assemble([phrase], [(phrase, slice(None))], None, False)


class Learner10Grammar(Learner9Grammar):
    """Grammar "learner9" plus a place named by pointing (여기 / 거기 / 저기: here, there, over there) wherever a
    place was drawn, 밖 and 근처 beside 위 / 안 / 옆 (집 밖에 -> outside the house, 학교 근처에 -> near the school),
    N이 되다 (become), 아무 N도 with a negative (not any N) and N이 있으면 / 없으면 (if S has / does not have N).
    Its own KINDS (learner9's, then the new ones), so learner9's stream stays as it was."""

    GRAMMAR: ClassVar[str] = LEARNER10_GRAMMAR
    KINDS: ClassVar[dict[str, int]] = {**Learner9Grammar.KINDS, "become": 4, "any_none": 4, "if_have": 4,
                                       "request_here": 2}
    DEICTIC_SHARE: ClassVar[float] = 0.2  # places (of an action, a motion's goal, an existence) said by pointing
    POSITION_SHARE: ClassVar[float] = 0.2  # existences placed 밖에 / 근처에 instead of learner1's positions

    def _deictic(self, role: str) -> Phrase:
        """여기서 / 거기에 / 저기 -> here / there / over there (no preposition; every English word -> the Korean)."""
        ko, en = self.rng.choice(DEICTIC_PLACES)
        phrase = Phrase()
        index = phrase.add_ko(deictic_word(ko, role))
        for word in en:
            phrase.add_en(word, index)
        return phrase

    def _place_for(self, verb: Verb) -> Phrase | None:
        place = super()._place_for(verb)
        if place is None or self.rng.random() >= self.DEICTIC_SHARE:
            return place
        if verb.kind == "motion":  # 여기 와요 / 거기에 가요: come here, go there
            return self._deictic(self.rng.choice(["goal", "bare"]))
        return self._deictic("location")

    def _location(self) -> tuple[Phrase, Noun]:
        """As learner1's (N 위에 -> on the N), or 여기에 / 저기 (here / over there), or N 밖에 / 근처에 (outside the N,
        near the N)."""
        phrase, holder = super()._location()
        draw = self.rng.random()
        if draw < self.DEICTIC_SHARE:
            if self.rng.random() < 0.25:  # 이 근처에 -> near here
                phrase = Phrase()
                this = phrase.add_ko(("이",))
                near = phrase.add_ko(attach("근처", "goal"))
                phrase.add_en("near", near)
                phrase.add_en("here", this)
                return phrase, holder
            return self._deictic(self.rng.choice(["goal", "bare"])), holder
        if draw < self.DEICTIC_SHARE + self.POSITION_SHARE:
            ko_position, en_position = self.rng.choice(LEARNER10_POSITIONS)
            phrase = Phrase()
            if ko_position == "밖" and self.rng.random() < 0.3:  # 밖에 눈이 있어요 -> There is snow outside
                phrase.add_en(en_position, phrase.add_ko(attach(ko_position, "goal")))
                return phrase, holder
            noun_index = phrase.add_ko(holder.ko)
            position_index = phrase.add_ko(attach(ko_position, "goal"))
            phrase.add_en(en_position, position_index)
            phrase.add_en("the")
            phrase.add_en(holder.en, noun_index)
        return phrase, holder

    # -- N이 되다: become --

    def _become(self, register: str) -> SentencePair:
        """S는 N이/가 됐어요 -> S became a N; 될 거예요 -> will become a N; 되고 싶어요 -> S want(s) to become a N
        (의사가 되고 싶어요 -> I want to become a doctor). became / will become -> 되다's words; want -> 싶어요;
        to and become -> 되고; a N -> N이."""
        form = self.rng.choice(["past", "future", "want", "want"])
        subject = self._subject("topic", drop=0.35)
        noun = self.rng.choice([n for n in self.lexicon.common_nouns if n.ko in JOBS])
        complement = Phrase()
        noun_index = complement.add_ko(attach(noun.ko, "subject"))
        if subject.plural:
            complement.add_en(noun.plural, noun_index)
        else:
            complement.add_en(english.indefinite_article(noun.en))
            complement.add_en(noun.en, noun_index)
        predicate = Phrase()
        if form == "want":
            lexical = predicate.add_ko(go_word(BECOME_NOUN[0]))
            tense = self.rng.choice(["present", "present", "past"])
            for word in auxiliary_words("싶", "싶었", tense, False, register, action=False):
                last = predicate.add_ko(word)
            predicate.add_en(verb_form("want", tense, subject.person, subject.plural), last)
            predicate.add_en("to", lexical)
            predicate.add_en("become", lexical)
        else:
            words = auxiliary_words(*BECOME_NOUN, form, False, register, action=True)
            indices = [predicate.add_ko(word) for word in words]
            if form == "future":
                predicate.add_en("will", indices[-1])
                predicate.add_en("become", indices[0])
            else:
                predicate.add_en("became", *indices)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (complement, slice(None))]
        return self._assemble([subject.phrase, complement, predicate], order, None, False)

    # -- 아무 N도: (not) any N --

    def _any_none(self, register: str) -> SentencePair:
        """S는 아무 N도 안 V -> S does not V any Ns (아무 책도 안 읽었어요 -> I did not read any books), or S는 아무 N도
        없어요 -> S does not have any Ns. any -> 아무; N -> N도; not and V -> the negated verb (have -> 없어요)."""
        tense = self.rng.choice(["present", "past", "past"])
        subject = self._subject("topic", drop=0.4)
        draw = self.rng.random()
        if draw < 0.6:
            verb = self.rng.choice([v for v in self.lexicon.transitive if "person" in v.subjects
                                    and [n for n in self._nouns_with(v.objects) if not n.proper]])
            noun = self.rng.choice([n for n in self._nouns_with(verb.objects) if not n.proper])
            if draw < 0.15:  # 아무 N도 V-지 마세요 -> Please do not V any Ns (said to the one addressed)
                subject = NounPhrase(Phrase(), 2, False)
                predicate = dont_predicate(verb, register)
                tense = "present"
            else:
                predicate, _ = self._final_predicate(verb, tense, False, register, subject, negated=True)
        else:
            noun = self.rng.choice([n for n in self._nouns_with(frozenset({"object", "food", "book", "clothes"}))
                                    if not n.proper])
            predicate = Phrase()
            for word in auxiliary_words("없", "없었", tense, False, register, action=False):
                last = predicate.add_ko(word)
            predicate.add_en(english.do_form(subject.person, subject.plural, tense == "past"), last)
            predicate.add_en("not", last)
            predicate.add_en("have", last)
        anything = Phrase()
        any_index = anything.add_ko((ANY,))
        noun_index = anything.add_ko((noun.ko, "도"))
        anything.add_en("any", any_index)
        anything.add_en(noun.en if noun.mass or noun.plural_only else noun.plural, noun_index)
        order = [(subject.phrase, slice(None)), (predicate, slice(None)), (anything, slice(None))]
        return self._assemble([subject.phrase, anything, predicate], order, self._time(tense) if tense == "past"
                              else None, False)

    # -- 여기에 V-아/어 주세요: a request with its place --

    def _request_here(self, register: str) -> SentencePair:
        """여기에 / 거기서 [OBJ] [좀] V-아/어 주세요 -> Please V [OBJ] here / there (여기에 이름을 써 주세요 ->
        Please write the name here). please -> 주세요 (and 좀 when written); V -> V-아/어; here -> 여기에."""
        ending = {"formal": REQUEST_ENDINGS[1], "banmal": REQUEST_ENDINGS[2]}.get(register, REQUEST_ENDINGS[0])
        verb = self._verb(("transitive", "intransitive"))
        obj = self._object(verb)
        place = self._deictic(self.rng.choice(["goal", "location"]))
        predicate = Phrase()
        softener = predicate.add_ko("좀") if self.rng.random() < 0.3 else -1
        lexical = predicate.add_ko(piece_word(infinitive(verb.past_stem), "", verb.stem))
        give = predicate.add_ko(ending)
        predicate.add_en("please", give, *([softener] if softener >= 0 else []))
        predicate.add_en(verb.en_base, lexical)
        order = [(predicate, slice(None))] + ([(obj.phrase, slice(None))] if obj else []) + [(place, slice(None))]
        return self._assemble([place, obj.phrase if obj else None, predicate], order, None, False)

    # -- N이 있으면 / 없으면: if S has N --

    def _if_have(self, register: str) -> SentencePair:
        """[S는] N이 있으면 / 없으면, [OBJ] V-(으)ㄹ 거예요 -> If S has N / does not have N, S will V [OBJ] (시간이
        있으면 학교에 갈 거예요 -> If I have time, I will go to the school). if and have -> 있으면; do and not ->
        없으면; N -> N이. The subject is a pronoun (or dropped: I), said again unaligned."""
        if self.rng.random() < 0.4:
            subject = self._dropped_subject_statement()
        else:
            subject = pronoun_phrase(self.rng.choice(self.lexicon.pronouns), "topic")
        self._last_subject = subject
        negated = self.rng.random() < 0.35
        tags = frozenset({"object", "book", "clothes", "animal"})
        abstract = [n for n in self.lexicon.common_nouns if "abstract" in n.tags and not n.proper]
        noun = self.rng.choice(abstract if abstract and self.rng.random() < 0.4 else
                               [n for n in self._nouns_with(tags) if not n.proper and not n.plural_only])
        had = Phrase()
        noun_index = had.add_ko(attach(noun.ko, "subject"))
        if not noun.mass and "abstract" not in noun.tags:
            had.add_en(english.indefinite_article(noun.en))
        had.add_en(noun.en, noun_index)
        clause = Phrase()
        index = clause.add_ko(myeon_word("없" if negated else "있"))
        clause.add_en("if", index)
        if negated:
            clause.add_en(english.do_form(subject.person, subject.plural, False), index)
            clause.add_en("not", index)
            clause.add_en("have", index)
        else:
            clause.add_en("has" if english.takes_third_person_s(subject.person, subject.plural) else "have", index)
        second = self._clause_verb(("transitive", "intransitive", "motion"))
        obj2, place2 = self._object(second), self._place_for(second)
        again = Phrase()
        again.add_en(",")
        again.add_en(subject.phrase.en[0] if subject.phrase.en[0] in PRONOUNS else "I")
        predicate, _ = self._final_predicate(second, "future", False, register, subject)
        order = [(clause, slice(0, 1)), (subject.phrase, slice(None)), (clause, slice(1, None)), (had, slice(None)),
                 (again, slice(None)), (predicate, slice(None))]
        order += [(p, slice(None)) for p in (obj2.phrase if obj2 else None, place2) if p is not None]
        korean = [subject.phrase, had, clause, again, place2, obj2.phrase if obj2 else None, predicate]
        return self._assemble(korean, order, None, False)


def dont_predicate(verb: Verb, register: str) -> Phrase:
    """V-지 마세요 / 마 / 마라 -> [please] do not V (please, do, not -> 마세요; V -> V-지): learner3's `dont` and
    learner10's 아무 N도 V-지 마세요."""
    predicate = Phrase()
    lexical = predicate.add_ko(ji_word(verb.stem))
    ending = predicate.add_ko(DONT_ENDINGS[register])
    if register in ("polite", "formal"):
        predicate.add_en("please", ending)
    predicate.add_en("do", ending)
    predicate.add_en("not", ending)
    predicate.add_en(verb.en_base, lexical)
    return predicate


def _with_english_before_mark(pair: SentencePair, word: str, link: tuple[int, ...]) -> SentencePair:
    """`pair` with the English `word` put before its final mark, aligned to the pieces `link` (and their words):
    the 'on' of 'What floor is the library on?' that Korean says in 층에."""
    word_of = [i for i, word_pieces in enumerate(_words_of(pair.source)) for _ in word_pieces]
    word_link = tuple(sorted({word_of[i] for i in link}))
    target = (*pair.target[:-1], word, pair.target[-1])
    alignment = (*pair.alignment[:-1], link, pair.alignment[-1])
    word_alignment = (*pair.word_alignment[:-1], word_link, pair.word_alignment[-1])
    return SentencePair(pair.source, target, alignment, pair.source_words, word_alignment)


def spoken_particles(pair: SentencePair, droppable: frozenset[str], time_texts: frozenset[str], spoken: bool
                     ) -> SentencePair:
    """`pair` as it is often said (Learner9Grammar): `spoken`: a counted noun with the particle its counter had
    (사과 두 개를 -> 사과를 두 개), or else every object noun without 을/를, and a subject noun right before 있다 /
    없다 without 이/가; `time_texts` (topic_time_texts; empty: none): the first time word with
    은/는 (내일은, 봄에는), or else a place before 있다 / 없다 with 에는. The English stays as it is; each English
    word keeps its Korean words, now aligned to all of their pieces (as typed_cut aligns)."""
    words = _words_of(pair.source)
    changed = False
    topic = bool(time_texts)
    exists = [i for i, word in enumerate(words) if word[0].startswith(("있", "없"))]
    moved: set[int] = set()
    if spoken:  # 사과 두 개를 -> 사과를 두 개: the particle on the counted noun, the counter bare
        for i in range(len(words) - 2):
            noun, counted = words[i], words[i + 2]
            if (len(noun) == 1 and noun[0] in droppable and len(counted) == 2 and counted[0] in COUNTERS
                    and counted[1] in ("을", "를", "이", "가")):
                role = "object" if counted[1] in ("을", "를") else "subject"
                words[i], words[i + 2] = attach(noun[0], role), (counted[0],)
                moved.add(i)
                changed = True
    for i, word in enumerate(words):
        before_exist = i + 1 in exists  # right before 있다 / 없다
        if spoken and i not in moved and len(word) == 2 and word[0] in droppable and (
                word[1] in ("을", "를") or (word[1] in ("이", "가") and before_exist)):
            words[i] = (word[0],)
            changed = True
        elif topic and len(word) <= 2:
            time = topic_time_word(word, time_texts)
            if time is not None:
                words[i], topic, changed = time, False, True
            elif word[-1] == "에" and word[0] in droppable and word[0] != FLOOR and exists and i < exists[-1]:
                words[i], topic, changed = (*word, "는"), False, True
    if not changed:
        return pair
    pieces, pieces_of = pieces_of_words(words)
    alignment = tuple(tuple(piece for w in link for piece in pieces_of[w]) for link in pair.word_alignment)
    source_words = tuple("".join(word) for word in words)
    return SentencePair(tuple(pieces), pair.target, alignment, source_words, pair.word_alignment)


def typed_cut(pair: SentencePair, vocabulary: frozenset[str]) -> SentencePair | None:
    """`pair` with each Korean word cut into the pieces the tokenizer gives for its text (typed_word) and the gold
    alignment carried over word by word: an English word aligned to a Korean word is aligned to all of that word's
    new pieces (source_words and word_alignment stay as they are). None when a word would be <unk>. A pair whose
    words all cut as written comes back equal."""
    words = _words_of(pair.source)
    if len(words) != len(pair.source_words) or len(pair.word_alignment) != len(pair.target):
        raise ValueError(f"typed_cut needs a pair with its words and word alignment: {pair.source_text!r}")
    pieces: list[str] = []
    pieces_of: list[tuple[int, ...]] = []
    for word in words:
        typed = typed_word(word, vocabulary)
        if typed is None:
            return None
        start = len(pieces)
        pieces.extend(word_tokens(typed))
        pieces_of.append(tuple(range(start, len(pieces))))
    if tuple(pieces) == pair.source:
        return pair
    alignment = tuple(tuple(piece for w in link for piece in pieces_of[w]) for link in pair.word_alignment)
    return SentencePair(tuple(pieces), pair.target, alignment, pair.source_words, pair.word_alignment)


def stream_korean_words(grammar: str = GRAMMAR) -> set[Word]:
    """The Korean words grammar `grammar`'s stream writes: each word the grammar writes (vocabulary.korean_words,
    the pieces that make the vocabulary) as the tokenizer cuts its text (the stream cuts each word as typed:
    TYPED_CUT), without the words it would turn into <unk> (never drawn). The core's: its words as written."""
    from transformer_core.grammar.vocabulary import ko_en_vocabulary, korean_words

    written = korean_words(grammar=grammar)
    if stage_of(grammar) == "core":
        return written
    vocabulary = frozenset(ko_en_vocabulary(False, grammar))
    return {typed for typed in (typed_word(word, vocabulary) for word in written) if typed is not None}


def _words_of(pieces: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Pieces grouped into words: ('잡', '##지', '못') -> [('잡', '지'), ('못',)]."""
    words: list[tuple[str, ...]] = []
    for piece in pieces:
        if piece.startswith("##") and words:
            words[-1] = (*words[-1], piece[2:])
        else:
            words.append((piece,))
    return words


def ko_en_grammar(seed: int = 0, name: str = GRAMMAR) -> KoEnGrammar:
    """The grammar `name` (base.grammar_name): GRAMMAR ("everyday-korean", also by its old name "learner10") or
    "core" (its compact core, the lab's). Each seed keeps its own random stream."""
    if stage_of(name) == "core":
        return KoEnGrammar(seed, core=True)
    return Learner10Grammar(seed)


def generate_pairs(n: int, seed: int = 0, core: bool = False, grammar: str = GRAMMAR) -> list[SentencePair]:
    """`n` sentence pairs of grammar `grammar` (ko_en_grammar; `core=True`: the compact core)."""
    return ko_en_grammar(seed, "core" if core else grammar).samples(n)
