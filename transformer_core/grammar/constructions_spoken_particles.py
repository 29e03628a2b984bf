"""Grammar stage "learner9" (SpokenParticlesGrammar): the particles as learners hear them spoken (an object's
을/를 and an existence's 이/가 dropped, the topic 은/는 on a time word or a place: spoken_particles), 몇 시에 / 몇
층에, 밖에 and 하나도 with a negative, 아무도 / 아무것도, the first day's set phrases, possessives (강아지 이름), N
말고 and KIND 중에서 제일. Its forms by rule: forms_spoken_particles.py.
"""

from __future__ import annotations

from typing import ClassVar

from transformer_core.grammar import english
from transformer_core.grammar.base import (
    NounPhrase,
    Phrase,
    SentencePair,
    attach,
    bare_the_phrase,
    common_phrase,
    copula_ending,
    pieces_of_words,
)
from transformer_core.grammar.constructions_compounds_dates import CompoundsAndDatesGrammar
from transformer_core.grammar.constructions_everyday import words_of
from transformer_core.grammar.forms_collocations_numbers import FLOOR, HOUR, HOURS, native_count
from transformer_core.grammar.forms_everyday import auxiliary_words, eu_class, ja_word
from transformer_core.grammar.forms_spoken_particles import (
    ALTERNATIVE_KINDS,
    AMONG,
    AMONG_KINDS,
    AT_ALL,
    COUNTERS,
    HOW_MANY,
    INSTEAD_OF,
    MOST,
    NOBODY,
    NOTHING,
    ONLY_BEFORE_NEGATIVE,
    OWNED_ASKED,
    OWNED_FOUND,
    OWNERS,
    PEOPLE_OWNERS,
    SET_PHRASES,
    THING_KEYS,
    THING_TICKETS,
    WHAT_KIND,
    topic_time_texts,
    topic_time_word,
)
from transformer_core.grammar.forms_syllabus import bsida_word
from transformer_core.grammar.lexicon import Noun, Verb


class SpokenParticlesGrammar(CompoundsAndDatesGrammar):
    """Grammar "learner8" plus the particles as learners hear them spoken: an object's 을/를 dropped (같이 영화
    볼래? 창문 좀 열어 주세요) and a subject's 이/가 before 있다 / 없다 (시간 있어요?), the topic 은/는 on a time word
    (내일은 학교에 안 가요, 봄에는 꽃이 펴요) and 에는 on a place before 있다 / 없다 (우리 반에는 ... 있어요): the same
    English, since the meaning does not change (SPOKEN_SHARE, TOPIC_SHARE of the pairs); 몇 시에 / 몇 층에 questions
    (what_time, what_floor), 밖에 with a negative (only_neg: 한 시간밖에 없어요 -> I have only one hour; 물밖에 안
    마셔요 -> I only drink water), 하나도 (not_at_all), 아무도 / 아무것도 (nobody), the first day's set phrases
    (set_phrase: 안녕하세요 -> Hello) and the additions file "learner9" (이가 아프다, 살이 빠지다, 피아노를 치다 ...).
    Its kinds and their weights are in kinds.json."""

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
            lexical = predicate.add_ko(bsida_word(verb.stem, eu_class(verb)) if lets
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


def spoken_particles(pair: SentencePair, droppable: frozenset[str], time_texts: frozenset[str], spoken: bool
                     ) -> SentencePair:
    """`pair` as it is often said (SpokenParticlesGrammar): `spoken`: a counted noun with the particle its counter had
    (사과 두 개를 -> 사과를 두 개), or else every object noun without 을/를, and a subject noun right before 있다 /
    없다 without 이/가; `time_texts` (topic_time_texts; empty: none): the first time word with
    은/는 (내일은, 봄에는), or else a place before 있다 / 없다 with 에는. The English stays as it is; each English
    word keeps its Korean words, now aligned to all of their pieces (as typed_cut aligns)."""
    words = words_of(pair.source)
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


def _with_english_before_mark(pair: SentencePair, word: str, link: tuple[int, ...]) -> SentencePair:
    """`pair` with the English `word` put before its final mark, aligned to the pieces `link` (and their words):
    the 'on' of 'What floor is the library on?' that Korean says in 층에."""
    word_of = [i for i, word_pieces in enumerate(words_of(pair.source)) for _ in word_pieces]
    word_link = tuple(sorted({word_of[i] for i in link}))
    target = (*pair.target[:-1], word, pair.target[-1])
    alignment = (*pair.alignment[:-1], link, pair.alignment[-1])
    word_alignment = (*pair.word_alignment[:-1], word_link, pair.word_alignment[-1])
    return SentencePair(pair.source, target, alignment, pair.source_words, word_alignment)
