"""Every word the grammar's constructions can write (everyday_korean_words, everyday_english_words: the vocabulary
enumerates these; no sampling), from the forms by rule of each layer, one module each (constructions_X.py samples
sentences with the forms of forms_X.py):

    forms_everyday.py              the stages' names and lexicons; the everyday endings (-고, -아서, -(으)니까 ...)
    forms_syllabus.py              a beginner syllabus's endings and honorific suppletion (learner3)
    forms_modality_comparison.py   -겠-, -(으)ㄹ게요, 것 같다, -는데, -지요, -네요, 보다 / 제일 (learner4)
    forms_particles.py             만, 도, 하고 / 랑, 까지, 에게 / 한테, -(으)ㄹ까요, -아/어지다 (learner5)
    forms_collocations_numbers.py  numbers, durations, prices, -아/어서 of sequence, -거나, 밖에 (learner6)
    forms_level1_words.py          the level-1 word list's missing words: numerals, 많다 / 적다, 모르다 (learner7)
    forms_compounds_dates.py       noun compounds, durations with 동안, dates, -대요 (learner8)
    forms_spoken_particles.py      topic 은/는 on time words, 몇, 밖에, 하나도, 아무도, set phrases (learner9)
    forms_deixis.py                여기 / 거기 / 저기, 밖 / 근처, N이 되다, 아무 N도 (learner10)

The names the rest of the project imports from forms (grammar_lexicon, JOBS ...) are re-exported here.
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import LAST_STAGE, REGISTERS, Word, attach, copula_ending, predicate_word
from transformer_core.grammar.forms_collocations_numbers import learner6_english_words, learner6_korean_words
from transformer_core.grammar.forms_compounds_dates import JOBS, learner8_english_words, learner8_korean_words
from transformer_core.grammar.forms_deixis import learner10_english_words, learner10_korean_words
from transformer_core.grammar.forms_everyday import (
    AGES,
    ENGLISH_WORDS,
    NATIVE_ONE,
    POSITIONS,
    REQUEST_ENDINGS,
    SINO_FLOORS,
    aseo_word,
    auxiliary_words,
    eu_class,
    go_word,
    grammar_lexicon,
    honorific_words,
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
)
from transformer_core.grammar.forms_level1_words import (
    CONSTRUCTION_LEMMAS,
    learner7_english_words,
    learner7_korean_words,
)
from transformer_core.grammar.forms_modality_comparison import learner4_english_words, learner4_korean_words
from transformer_core.grammar.forms_particles import learner5_english_words, learner5_korean_words
from transformer_core.grammar.forms_spoken_particles import learner9_english_words, learner9_korean_words
from transformer_core.grammar.forms_syllabus import syllabus_english_words, syllabus_korean_words

__all__ = ["AGES", "CONSTRUCTION_LEMMAS", "JOBS", "NATIVE_ONE", "SINO_FLOORS",
           "everyday_english_words", "everyday_korean_words", "grammar_lexicon"]


# Each later layer's own words (forms_*.py), for every verb and adjective of a lexicon.
LAYER_KOREAN_WORDS = (syllabus_korean_words, learner4_korean_words, learner5_korean_words, learner6_korean_words,
                      learner7_korean_words, learner8_korean_words, learner9_korean_words, learner10_korean_words)
LAYER_ENGLISH_WORDS = (syllabus_english_words, learner4_english_words, learner5_english_words, learner6_english_words,
                       learner7_english_words, learner8_english_words, learner9_english_words, learner10_english_words)


def everyday_korean_words(grammar: str = LAST_STAGE) -> set[Word]:
    """The Korean words (as pieces) of the grammar's constructions (every layer's: syllabus_korean_words,
    learner4_korean_words ...), for every verb and adjective of the lexicon of stage `grammar` (the last one's)."""
    from itertools import product

    lexicon = grammar_lexicon(grammar)
    words: set[Word] = {("좀",), ("몇",), ("왜",), ("같이",), ("우리",), ("그",), ("이",), ("저",), ("못",), ("안",),
                        ("어디", "에"), ("타", "고"), ("것이다",), ("거예요",), ("것입니다",), ("거야",),
                        *REQUEST_ENDINGS, ("열한",), ("열두",), (NATIVE_ONE[0],)}
    words.update((ko,) for ko, _ in (*AGES, *SINO_FLOORS, *lexicon.numbers))
    words.add(attach("층", "goal"))
    words.update(attach(position, "goal") for position, _ in POSITIONS)
    for counter in ("잔", "명", "개", "마리", "권"):
        words.update({(counter,), attach(counter, "object"), attach(counter, "subject")})
    for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
        for noun in ("살", "시", "얼마"):
            words.add((noun, copula_ending(noun, tense, question, register)))
    for stem, past, action in (("싶", "싶었", False), ("있", "있었", False), ("없", "없었", False),
                               ("않", "않았", True), ("못하", "못했", True), ("않", "않았", False)):
        for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
            words.update(auxiliary_words(stem, past, tense, question, register, action))
    for verb in lexicon.verbs:
        stem, past = verb.stem, verb.past_stem
        words.update({go_word(stem), ji_word(stem), piece_word(infinitive(past), "", stem), ja_word(stem),
                      rae_word(stem, True), rae_word(stem, False), aseo_word(stem, past),
                      jiman_word(stem, past, "past"), jiman_word(stem, past, "present")})
        if verb.prefix:
            rest, rest_past = stem[len(verb.prefix):], past[len(verb.prefix):]
            for tense, register in product(("past", "present"), REGISTERS):
                words.update(tuple(w) for w in predicate_word(rest, rest_past, hangul.future_adnominal(rest), tense,
                                                              False, register, True))
        if takes_eu_endings(verb):
            irregular = eu_class(verb)
            words.update({nikka_word(stem, past, "past", irregular), nikka_word(stem, past, "present", irregular),
                          myeonseo_word(stem, irregular)})
            for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
                words.update(honorific_words(stem, tense, question, register, irregular))
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem:
            stem, past = adjective.stem, adjective.past_stem
            words.update({aseo_word(stem, past), jiman_word(stem, past, "past"), jiman_word(stem, past, "present")})
            if takes_eu_endings(adjective):
                words.update({nikka_word(stem, past, "past", eu_class(adjective)),
                              nikka_word(stem, past, "present", eu_class(adjective))})
    for layer_words in LAYER_KOREAN_WORDS:
        words |= layer_words(lexicon)
    return words


def everyday_english_words(grammar: str = LAST_STAGE) -> set[str]:
    """English words the constructions add: -ing forms, ordinals, counters, want/have/there/please ..."""
    lexicon = grammar_lexicon(grammar)
    words = set(ENGLISH_WORDS) | {"eleven", "twelve", "we", "they", "he", "she", "I", "you"}
    words.update(en for _, en in (*AGES, *SINO_FLOORS))
    for verb in lexicon.verbs:
        words.update(present_participle(verb.en_base).split())
    words.update(word[:1].upper() + word[1:] for word in ("please", "there", "let's", "how", "what", "why", "it",
                                                          "do", "does", "did", "we", "they", "he", "she", "you"))
    for layer_words in LAYER_ENGLISH_WORDS:
        words |= layer_words(lexicon)
    return words
