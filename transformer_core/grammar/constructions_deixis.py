"""Grammar stage "learner10" (DeixisGrammar), the last layer: the grammar itself (generator.GRAMMAR,
"everyday-korean"): a place named by pointing (여기 / 거기 / 저기), 밖 and 근처 beside the positions, N이 되다, 아무 N도
with a negative and N이 있으면 / 없으면. Its forms by rule: forms_deixis.py.
"""

from __future__ import annotations

from typing import ClassVar

from transformer_core.grammar import english
from transformer_core.grammar.base import NounPhrase, Phrase, SentencePair, attach, pronoun_phrase
from transformer_core.grammar.constructions_spoken_particles import SpokenParticlesGrammar
from transformer_core.grammar.constructions_syllabus import dont_predicate
from transformer_core.grammar.forms_compounds_dates import JOBS
from transformer_core.grammar.forms_deixis import ANY, BECOME_NOUN, DEICTIC_PLACES, LEARNER10_POSITIONS, deictic_word
from transformer_core.grammar.forms_everyday import (
    PRONOUNS,
    REQUEST_ENDINGS,
    auxiliary_words,
    go_word,
    infinitive,
    piece_word,
    verb_form,
)
from transformer_core.grammar.forms_syllabus import myeon_word
from transformer_core.grammar.lexicon import Noun, Verb


class DeixisGrammar(SpokenParticlesGrammar):
    """Grammar "learner9" plus a place named by pointing (여기 / 거기 / 저기: here, there, over there) wherever a
    place was drawn, 밖 and 근처 beside 위 / 안 / 옆 (집 밖에 -> outside the house, 학교 근처에 -> near the school),
    N이 되다 (become), 아무 N도 with a negative (not any N) and N이 있으면 / 없으면 (if S has / does not have N).
    Its kinds and their weights are in kinds.json."""

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
