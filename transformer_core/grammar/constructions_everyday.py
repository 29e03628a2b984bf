"""The everyday grammar (grammar "everyday"): the full grammar plus the constructions learners say first.

Added on top of `KoEnGrammar` (the base sentences, kind "full"): desire -고 싶다; progressive
-고 있다; requests -아/어 주세요 with 좀; existence and place 있다/없다 with 위에/안에/옆에/밑에/앞에/뒤에
and possession (저는 시간이 없어요); reason -아서/-니까, contrast -지만, while -면서 (two clauses);
negation 못, -지 않다, -지 못하다; suggestions -ㄹ래?/-자;
question words 왜, 얼마, 몇 (몇 시, 몇 살, 몇 개); native numbers with counters 명/개/잔/시/살/권/마리 and
Sino-Korean numbers with 층; honorific -(으)시- for elders; frequency -마다; transport -을 타고 (by bus);
degree 너무/아주/많이/조금; dropped subjects (내일 학교에 가요 -> I will go to the school tomorrow; a question
without a subject asks "you").

Conjugation comes from rules (hangul.py and forms_everyday.py), English agreement from
english.py, the words from the lexicon's data files (the full one plus the everyday additions). Every pair
keeps its gold alignment, with the same conventions as base.py; the new ones are listed at each builder.

Here too the layer that widens its words: LearnerGrammar (stage "learner": a learner's core vocabulary, irregular
stems in the 으-endings, one sense per homonym in a 뭐 question; stage "learner2", the lexicon's second round, added
words only), and how the stream cuts each word as typed (typed_cut, typed_word). The
later layers are the other constructions_*.py modules (generator.py lists the chain); the forms by rule they use are
in forms_everyday.py.
"""

from __future__ import annotations

from typing import ClassVar

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import (
    GRAMMAR,
    LAST_STAGE,
    REGISTERS,
    KoEnGrammar,
    NounPhrase,
    Phrase,
    SentencePair,
    Word,
    attach,
    common_phrase,
    copula_ending,
    name_phrase,
    predicate_word,
    pronoun_phrase,
    sentence_kinds,
    word_tokens,
)
from transformer_core.grammar.forms_everyday import (
    NATIVE_ONE,
    POSITIONS,
    PRONOUNS,
    REQUEST_ENDINGS,
    SINO_FLOORS,
    TRANSPORT_VERBS,
    aseo_word,
    auxiliary_words,
    eu_class,
    go_word,
    grammar_lexicon,
    infinitive,
    ja_word,
    ji_word,
    jiman_word,
    myeonseo_word,
    nikka_word,
    piece_word,
    present_participle,
    rae_word,
    takes_eu_endings,
    verb_form,
)
from transformer_core.grammar.lexicon import Adjective, Noun, Verb


class EverydayGrammar(KoEnGrammar):
    """KoEnGrammar("full") plus the learner constructions (see the module docstring)."""

    # The grammar's kinds and their weights, every layer's (kinds.json): "full" draws KoEnGrammar's sentence, any
    # other kind is the builder method _KIND of the layer that added it.
    KINDS: ClassVar[dict[str, int]] = sentence_kinds(GRAMMAR)

    GRAMMAR: ClassVar[str] = LAST_STAGE  # the stage whose lexicon and vocabulary the grammar reads: the last

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.lexicon = grammar_lexicon(self.GRAMMAR)
        self._question = False
        self._dropped_ok = False

    # -- sampling --

    def sample(self, register: str | None = None, kind: str | None = None) -> SentencePair:
        """One pair, as the tokenizer cuts its typed text: the model trains on what typing gives.

        A word the tokenizer cuts otherwise than the grammar wrote it (잡지만: longest match first takes 잡지
        "magazine" and then ##만; 가는 "going" is the piece 가는 "thin") is re-cut into the tokenizer's pieces with its
        alignment carried over (typed_cut); only a pair with a word the tokenizer turns into <unk> is drawn again.
        After 20 draws the last one comes back as written."""
        for _ in range(20):
            pair = self._sample_once(register, kind)
            typed = typed_cut(pair, self._vocabulary)
            if typed is not None:
                return typed
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
            verbs = [v for v in verbs if takes_eu_endings(v)]
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
            return nikka_word(stem, past, tense, eu_class(entry))
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
                                         and takes_eu_endings(a)
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
        index = while_phrase.add_ko(myeonseo_word(first.stem, eu_class(first)))
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
    stems in the -(으)니까 / -(으)면서 / -(으)시- constructions too (들으니까, 도우세요, 쉬우니까: eu_class)."""

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


def typed_cut(pair: SentencePair, vocabulary: frozenset[str]) -> SentencePair | None:
    """`pair` with each Korean word cut into the pieces the tokenizer gives for its text (typed_word) and the gold
    alignment carried over word by word: an English word aligned to a Korean word is aligned to all of that word's
    new pieces (source_words and word_alignment stay as they are). None when a word would be <unk>. A pair whose
    words all cut as written comes back equal."""
    words = words_of(pair.source)
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


def words_of(pieces: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Pieces grouped into words: ('잡', '##지', '못') -> [('잡', '지'), ('못',)]."""
    words: list[tuple[str, ...]] = []
    for piece in pieces:
        if piece.startswith("##") and words:
            words[-1] = (*words[-1], piece[2:])
        else:
            words.append((piece,))
    return words
