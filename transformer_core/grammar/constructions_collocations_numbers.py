"""Grammar stage "learner6" (CollocationsAndNumbersGrammar): weather and body collocations with their own
subject noun (비가 와요, 배가 고파요, 감기에 걸렸어요), 시간이 걸리다 with durations, numbers (prices in 원, clock
times, years, N번, written in words or digits), -아/어서 of sequence, -거나, TIME부터 TIME까지, N시에 / N시쯤, N밖에
with a negative, the aspect adverbs 보통, 벌써, 아직 and 어느 / 무슨. Its forms by rule: forms_collocations_numbers.py.
"""

from __future__ import annotations

from typing import ClassVar

from transformer_core.grammar import english
from transformer_core.grammar.base import NounPhrase, Phrase, SentencePair, attach, common_phrase, copula_ending
from transformer_core.grammar.constructions_particles import ParticlesGrammar
from transformer_core.grammar.constructions_syllabus import first_verb_english
from transformer_core.grammar.forms_collocations_numbers import (
    ABOUT,
    AGE,
    BUT,
    CLOCK_MINUTES,
    DIGIT_SHARE,
    DURATION_MINUTES,
    FLOOR,
    FROM,
    HALF,
    HOUR,
    HOURS,
    HOW_LONG,
    MINUTE,
    NATIVE_COUNTS,
    PRICES,
    SEQUENCE_FIRST,
    SEQUENCE_SECOND,
    TAKE,
    TAKE_PAST,
    TIMES,
    UNTIL_TIME,
    WON,
    YEAR,
    YEARS,
    digit_word,
    english_number,
    english_ordinal,
    fixed_subject_words,
    native_count,
    or_word,
    sequence_word,
    sino_words,
    times_english,
)
from transformer_core.grammar.forms_everyday import auxiliary_words, present_participle, verb_form
from transformer_core.grammar.forms_particles import ACTIVITY_VERBS, FROM_TO_VERBS, UNTIL, particle_word
from transformer_core.grammar.forms_syllabus import past_participle
from transformer_core.grammar.lexicon import Verb

# 아직 + the present of an activity going on (아직 일해요 -> is still working): the hobbies and chores of from_until
# and the eating, drinking, reading and watching of the sequence
STILL_VERBS = ACTIVITY_VERBS | frozenset({("먹", "eat"), ("마시", "drink"), ("읽", "read"), ("보", "watch")})


class CollocationsAndNumbersGrammar(ParticlesGrammar):
    """Grammar "learner6": learner5 plus the beginner items it still lacked (docs/models.md "Grammar learner6"):
    weather and body collocations with their own subject noun (비가 와요 -> It is raining; 배가 고파요 -> I am hungry;
    머리가 아파요 -> I have a headache; 감기에 걸렸어요 -> I caught a cold; the lexicon's fixed_subject entries),
    시간이 걸리다 with durations (삼십 분 걸려요 -> It takes 30 minutes; 얼마나 걸려요? -> How long does it take?),
    -아/어서 of sequence (학교에 가서 친구를 만났어요 -> went to the school and met a friend; 케이크를 만들어서
    먹었어요 -> made a cake and ate it), -거나 (V1 or V2), Sino-Korean numbers past ten with 원 and 분 (오천 원이에요
    -> is 5,000 won; 세 시 삼십 분이에요 -> It is 3:30), TIME부터 TIME까지, N시에 / N시쯤 (at about N o'clock) and
    N밖에 + a negative (only N). The learner5 lexicon plus the collocations (the additions file "learner6"); its
    kinds and their weights are in kinds.json."""


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
