"""Grammar stage "learner4" (ModalityAndComparisonGrammar): the syllabus items learner3 still lacked: -겠- and
-(으)ㄹ게요 (intention, a promise, a prediction), -기 때문에 and N 때문에, -고 나서, -게 되다, -기로 하다, -(으)ㄴ/는 것
같다, -는데 / -(으)ㄴ데, -지요?, -네요, -아/어 있다, N보다 (더) ADJ and 제일 / 가장 ADJ. Its forms by rule:
forms_modality_comparison.py.
"""

from __future__ import annotations

from typing import ClassVar

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import (
    NounPhrase,
    Phrase,
    SentencePair,
    Word,
    bare_the_phrase,
    predicate_word,
    pronoun_phrase,
)
from transformer_core.grammar.constructions_syllabus import SyllabusGrammar
from transformer_core.grammar.forms_everyday import (
    auxiliary_words,
    eu_class,
    go_word,
    infinitive,
    piece_word,
    present_participle,
    verb_form,
)
from transformer_core.grammar.forms_modality_comparison import (
    BECAUSE,
    MORE,
    NASEO,
    NOT_REASONS,
    REASON_TAGS,
    REASONS_WITHOUT_THE,
    SEEM,
    STATE_ENGLISH,
    STATE_OUT_TAGS,
    SUPERLATIVE_WORDS,
    TAG_ENDINGS,
    THING,
    comparable,
    english_degree,
    ge_word,
    gess_word,
    gi_past_word,
    giro_word,
    neunde_word,
    neyo_word,
    seem_adnominal,
    tag_word,
    will_word,
)
from transformer_core.grammar.forms_syllabus import AFTER
from transformer_core.grammar.lexicon import Adjective, Verb


class ModalityAndComparisonGrammar(SyllabusGrammar):
    """Grammar "learner4": learner3 plus the beginner syllabus's items it still lacked (docs/models.md "Grammar
    learner4"): -겠- and -(으)ㄹ게요 (I will; 날씨가 춥겠어요 -> The weather will be cold), -기 때문에 and N 때문에
    (because, because of), -고 나서 (after V-ing), -게 되다 (came to V), -기로 하다 (decided to V), -(으)ㄴ/는 것 같다
    (I think ...), -는데 / -(으)ㄴ데 (..., but), -지요? (..., right?), -네요 (the same statement, exclaimed), -아/어
    있다 (문이 열려 있어요 -> The door is open), N보다 (더) ADJ (bigger than N) and PLACE에서 제일/가장 ADJ (the
    biggest in PLACE). The learner3 lexicon plus the months (the additions file "learner4"); its kinds and
    their weights are in kinds.json."""

    CONNECTIVE_ENGLISH: ClassVar[dict[str, str]] = {**SyllabusGrammar.CONNECTIVE_ENGLISH, "neunde": "but"}

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
        lexical = predicate.add_ko(seem_adnominal(verb, tense, eu_class(verb)))
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
