"""Grammar stage "learner3" (SyllabusGrammar): the constructions of a beginner syllabus the learner grammar
lacked (-(으)ㄹ 수 있다, -아/어야 하다, -고 (and then), -(으)면, -기 전에 / -(으)ㄴ 후에, -(으)러 가다, -아/어 보다,
-(으)ㄴ 적이 있다, -지 마세요, -(으)ㅂ시다, -(으)ㄹ 때, relative clauses ...) and honorific suppletion (드세요,
주무세요, 말씀하세요, 계세요, 께서), with the pieces later layers share (FrontedClause, first_verb_english,
dont_predicate). Its forms by rule: forms_syllabus.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from transformer_core.grammar import english
from transformer_core.grammar.base import (
    NounPhrase,
    Phrase,
    SentencePair,
    Word,
    attach,
    bare_the_phrase,
    common_phrase,
    name_phrase,
    pronoun_phrase,
)
from transformer_core.grammar.constructions_everyday import LearnerGrammar
from transformer_core.grammar.forms_everyday import (
    ELDERS,
    PRONOUNS,
    TRANSPORT_VERBS,
    auxiliary_words,
    eu_class,
    eu_ending,
    go_word,
    honorific_words,
    infinitive,
    ji_word,
    piece_word,
    present_participle,
    takes_eu_endings,
    verb_form,
)
from transformer_core.grammar.forms_syllabus import (
    AFTER,
    DONT_ENDINGS,
    GI_BEFORE,
    HONORIFIC_BASES,
    JEOK,
    STAY_BASE,
    SU,
    bsida_word,
    do_word,
    future_adnominal_word,
    gi_word,
    honorific_base,
    myeon_word,
    past_adnominal,
    past_participle,
    present_adnominal,
    reo_word,
    ryeogo_word,
    ttae_words,
    ya_word,
)
from transformer_core.grammar.lexicon import Verb


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


def first_verb_english(verb: Verb, tense: str, subject) -> str:
    """The first verb of two joined clauses in the second's tense: its base after will (will eat ... and go), past,
    or present agreeing with the subject (eats ... and goes)."""
    if tense == "future":
        return verb.en_base
    if tense == "past":
        return verb.en_past
    return verb_form(verb.en_base, "present", subject.person, subject.plural)


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


class SyllabusGrammar(LearnerGrammar):
    """Grammar "learner3": learner2's constructions and homonym rules plus the beginner syllabus's items it lacked
    (docs/models.md "Grammar learner3"), over the lexicon's third round too, and honorific suppletion: an elder
    드세요 (먹다, 마시다), 주무세요 (자다), 말씀하세요 (말하다), 계세요 (is at a place), with 께서 as the subject
    particle. Its kinds and their weights are in kinds.json."""


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
        irregular = eu_class(verb)
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
                                         and takes_eu_endings(a) and "person" in a.applies_to])
            index = clause.add_ko(myeon_word(adjective.stem, eu_class(adjective)))
            clause.add_en("if", index)
            clause.add_en(english.be_form(subject.person, subject.plural, False), index)
            clause.add_en(adjective.en, index)
            first_stem = ""
        else:
            first = self._clause_verb(("transitive", "intransitive", "motion"), form="myeon")
            obj1, place1 = self._object(first), self._place_for(first)
            korean1 = [place1, obj1.phrase if obj1 else None]
            rest1 = [obj1.phrase if obj1 else None, place1]
            index = clause.add_ko(myeon_word(first.stem, eu_class(first)))
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
        lexical = predicate.add_ko(myeon_word(verb.stem, eu_class(verb)))
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
        index = purpose.add_ko(ryeogo_word(first.stem, eu_class(first)))
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
        verb_index = relative.add_ko(past_adnominal(first.stem, eu_class(first)) if past
                                     else present_adnominal(first.stem, eu_class(first)))
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
                                past_adnominal(first.stem, eu_class(first)))
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
        index = purpose.add_ko(reo_word(verb.stem, eu_class(verb)))
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
        lexical = predicate.add_ko(past_adnominal(verb.stem, eu_class(verb)))
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
        lexical = predicate.add_ko(bsida_word(verb.stem, eu_class(verb)))
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
