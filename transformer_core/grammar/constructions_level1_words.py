"""Grammar stage "learner7" (Level1WordsGrammar): what a first-level learner's core word list (level1_words.json)
has that learner6 lacked: native numerals standing alone (아이가 둘 있어요), nouns with two meanings told apart by
their collocation (차를 운전했어요, 배를 탔어요, 눈이 아파요), 듣다 as listen to or hear, 많다 / 적다, 모르다,
-(으)ㄹ 줄 알다 / 모르다, older by, vocatives. Its forms by rule: forms_level1_words.py.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from transformer_core.grammar import english
from transformer_core.grammar.base import Phrase, SentencePair, Word, attach
from transformer_core.grammar.constructions_collocations_numbers import CollocationsAndNumbersGrammar
from transformer_core.grammar.forms_collocations_numbers import AGE, fixed_subject_predicate, native_count
from transformer_core.grammar.forms_everyday import auxiliary_words
from transformer_core.grammar.forms_level1_words import (
    FEW,
    JUL,
    LOWERED_AFTER_VOCATIVE,
    MANY,
    NAME_TITLE,
    POSSESSIVES,
    SKILL_VERBS,
    STANDALONE_NUMBERS,
    VOCATIVE_TITLES,
    YOUNGER,
    not_know_verb,
    own_english,
    vocative_word,
)
from transformer_core.grammar.forms_syllabus import future_adnominal_word

# learner7: 듣다 is "listen to" with music, a song or the radio, "hear" with every other sound or show (one English
# verb for one Korean object, never a coin toss).
LISTENED = frozenset({"music", "song", "radio"})


def listened_apart(lexicon):
    """`lexicon` with 듣다 "hear" kept off what one listens to (music, a song, the radio: 듣다 "listen to"), so each
    Korean object of 듣다 has one English verb; the nouns LISTENED tags lose the "sound" tag "hear" takes."""
    nouns = [dataclasses.replace(n, tags=n.tags - {"sound", "show"}) if n.tags & LISTENED else n
             for n in lexicon.common_nouns]
    return dataclasses.replace(lexicon, common_nouns=nouns)


class Level1WordsGrammar(CollocationsAndNumbersGrammar):
    """Grammar "learner7": learner6 plus what a first-level learner's core word list (level1_words.json) has that it
    still lacked (docs/models.md "Grammar learner7"): native numerals standing alone (아이가 둘 있어요 -> I have two
    children), basic nouns with two meanings told apart by their collocation (차를 운전했어요 -> drove a car, 배를
    탔어요 -> took a boat, 이를 닦아요 -> brush my teeth, 눈이 아파요 -> have sore eyes, 키가 커요 -> is tall; the
    lexicon's fixed_object and fixed_subject entries), 듣다 as listen to (music) or hear (a sound), 많다 / 적다 (there
    are many / few Ns), 모르다 (does not know) and -(으)ㄹ 줄 알다 / 모르다 (knows how to). The learner6 lexicon plus
    the additions file "learner7"; its kinds and their weights are in
    kinds.json."""

    # 항상 (level 1)
    ASPECT_ADVERBS: ClassVar[tuple[str, ...]] = (*CollocationsAndNumbersGrammar.ASPECT_ADVERBS, "always")

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
