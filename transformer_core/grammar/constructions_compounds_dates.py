"""Grammar stage "learner8" (CompoundsAndDatesGrammar): noun-noun compounds (학교 식당, 영어 숙제, 한국 음식),
durations with 동안, dates (삼월 오 일에), reported speech -대요 / -(이)래요 and -는데 of background before a suggestion
or request, over a learner's everyday verbs the lexicon lacked. Its forms by rule: forms_compounds_dates.py.
"""

from __future__ import annotations

from typing import ClassVar

from transformer_core.grammar import english
from transformer_core.grammar.base import Phrase, SentencePair, attach, copula_ending, name_phrase, pronoun_phrase
from transformer_core.grammar.constructions_collocations_numbers import STILL_VERBS
from transformer_core.grammar.constructions_level1_words import Level1WordsGrammar
from transformer_core.grammar.forms_collocations_numbers import (
    digit_word,
    fixed_subject_predicate,
    native_count,
    sino_words,
)
from transformer_core.grammar.forms_compounds_dates import (
    BACKGROUND_STATES,
    DAY,
    DURATION_UNITS,
    DURATION_WORDS,
    DURING,
    GENERIC_VERBS,
    JOBS,
    LONG_ACTIVITIES,
    LONG_UNITS,
    MONTH,
    MONTHS,
    NAME_PRONOUNS,
    PLACE_COMPOUNDS,
    THING_COMPOUNDS,
    TODAY,
    TYPED_DURATIONS,
    date_english,
    duration_english,
    reported_copula_word,
    reported_word,
)
from transformer_core.grammar.forms_everyday import present_participle
from transformer_core.grammar.forms_level1_words import LOWERED_AFTER_VOCATIVE
from transformer_core.grammar.forms_modality_comparison import neunde_word
from transformer_core.grammar.lexicon import Verb


class CompoundsAndDatesGrammar(Level1WordsGrammar):
    """Grammar "learner8": learner7 plus noun-noun compounds a learner says (학교 식당 -> school cafeteria, 영어 숙제
    -> English homework, 한국 음식 -> Korean food, 생일 선물 -> birthday present: a class of modifiers times a class of
    heads, English keeping the order), durations with 동안 (삼 년 동안 -> for 3 years, 두 시간 동안 -> for two hours),
    dates (삼월 오 일에 -> on March 5; 오늘은 삼월 오 일이에요 -> Today is March 5), reported speech -대요 / -(이)래요
    (민수가 바쁘대요 -> Minsu says that he is busy), -는데 of background before a suggestion or request (피곤한데
    집에 갈까요? -> I am tired , so shall we go home?) and a learner's everyday verbs the lexicon lacked (the additions
    file "learner8": 혼나다, 막히다, 깨지다, 길을 잃다, 줄을 서다, 배탈이 나다 ...). Its kinds and their
    weights are in kinds.json."""


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
