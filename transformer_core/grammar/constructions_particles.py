"""Grammar stage "learner5" (ParticlesGrammar): the beginner items learner4 still lacked, most of them particles:
N만 (only), N도 (too), N하고 / N(이)랑 (with), PLACE1에서 PLACE2까지, -아/어 주다 with N에게 / N한테 / N께, and
-(으)ㄹ까요? (shall we), -아/어 드릴까요? (shall I), -아/어지다, V-는 것을 / V-기를 좋아하다. Its forms by rule:
forms_particles.py.
"""

from __future__ import annotations

from transformer_core.grammar import english
from transformer_core.grammar.base import NounPhrase, Phrase, SentencePair, bare_the_phrase
from transformer_core.grammar.constructions_modality_comparison import ModalityAndComparisonGrammar
from transformer_core.grammar.forms_everyday import (
    ELDERS,
    auxiliary_words,
    eu_class,
    infinitive,
    piece_word,
    present_participle,
)
from transformer_core.grammar.forms_modality_comparison import comparable, english_degree
from transformer_core.grammar.forms_particles import (
    ACTIVITY_VERBS,
    ALSO,
    BENEFACTIVE_VERBS,
    CHANGING_WEATHER,
    COMPANION_PARTICLES,
    ELDER_RECIPIENT,
    FROM_TO_VERBS,
    GIVE,
    GIVE_HUMBLE,
    JOINT_VERBS,
    LIKING_VERBS,
    ONLY,
    RECIPIENT_PARTICLES,
    UNTIL,
    become_words,
    companion_word,
    nominal_words,
    offer_word,
    particle_word,
    shall_word,
)
from transformer_core.grammar.forms_syllabus import gi_word
from transformer_core.grammar.lexicon import Verb


class ParticlesGrammar(ModalityAndComparisonGrammar):
    """Grammar "learner5": learner4 plus the beginner syllabus's items it still lacked (docs/models.md "Grammar
    learner5"): N만 (only N), N도 (N too), N하고 / N(이)랑 (with N), PLACE1에서 PLACE2까지 (from PLACE1 to
    PLACE2), -(으)ㄹ까요? (Shall we V?), -아/어 드릴까요? (Shall I V for you?), -아/어 주다 with N에게 / N한테 (V
    for N; an elder N께 with 드리다), -아/어지다 (날씨가 추워졌어요 -> The weather got colder) and V-는 것을 /
    V-기를 좋아하다 (like V-ing). The learner4 lexicon plus the fifth round (the additions file "learner5"); its
    kinds and their weights are in kinds.json."""


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
        indices = [clause.add_ko(word) for word in nominal_words(verb, eu_class(verb), gi)]
        clause.add_en(present_participle(verb.en_base), *indices)
        predicate, before = self._final_predicate(liking, tense, question, register, subject)
        order = self._english_order(subject, predicate, before, [clause])
        return self._assemble([subject.phrase, clause, predicate], order, None, question)
