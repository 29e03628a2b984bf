"""The forms by rule, constants and words of grammar stage learner10 (DeixisGrammar in constructions_deixis.py): the
eighth syllabus round (여기 / 거기 / 저기, 밖 / 근처, N이 되다, 아무 N도). Its words: learner10_korean_words /
learner10_english_words (forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar.base import REGISTERS, Word, attach
from transformer_core.grammar.forms_compounds_dates import JOBS
from transformer_core.grammar.forms_everyday import auxiliary_words, go_word
from transformer_core.grammar.forms_syllabus import myeon_word
from transformer_core.grammar.lexicon import Lexicon, word_list

DEICTIC_PLACES = word_list("DEICTIC_PLACES")
LEARNER10_POSITIONS = word_list("LEARNER10_POSITIONS")
BECOME_NOUN = ("되", "됐")  # N이 되다 (become a N): stem and past stem (돼요, 됐어요, 될 거예요, 되고 싶어요)
ANY = "아무"  # 아무 N도 + a negative: (not) any N
LEARNER10_ENGLISH = word_list("LEARNER10_ENGLISH")


def deictic_word(ko: str, role: str) -> Word:
    """여기 as a place: "location" -> 여기서 (the spoken 에서), "goal" -> 여기에, "bare" -> 여기 (여기 와요)."""
    return {"location": (ko, "서"), "goal": (ko, "에"), "bare": (ko,)}[role]


def learner10_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the eighth syllabus round writes: 여기 / 거기 / 저기 with 서, 에 or nothing,
    밖에 / 근처에, 되다's forms, 아무 and N도 for every noun, 있으면 / 없으면."""
    from itertools import product

    words: set[Word] = {(ANY,), go_word(BECOME_NOUN[0]), myeon_word("있"), myeon_word("없")}
    for (ko, _), role in product(DEICTIC_PLACES, ("location", "goal", "bare")):
        words.add(deictic_word(ko, role))
    words.update(attach(position, "goal") for position, _ in LEARNER10_POSITIONS)
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        words.update(auxiliary_words(*BECOME_NOUN, tense, question, register, action=True))
    for noun in lexicon.common_nouns:
        words.add((noun.ko, "도"))
    for job in JOBS:
        words.update({attach(job, "subject"), attach(job, "topic")})
    return words


def learner10_english_words(lexicon: Lexicon) -> set[str]:
    """English words the eighth syllabus round adds: here, there, over there, outside, near, become, any, the
    plurals of nouns after any."""
    words = set(LEARNER10_ENGLISH)
    words.update(w for noun in lexicon.common_nouns if not noun.mass and not noun.plural_only
                 for w in noun.plural.split())
    return words
