"""The grammar GRAMMAR ("everyday-korean"; the bundled models' config.json calls it "learner10") and its entry
points, which the rest of the project imports from here: ko_en_grammar (the grammar, or its compact core),
generate_pairs and stream_korean_words.

The grammar is one class, DeixisGrammar, built as a chain of layers, each adding constructions to its parent's;
the stage beside each (the round that added it) names its lexicon file and its tokens in vocabulary.txt. Which
kinds of sentence the grammar draws, and how often, is kinds.json, each kind the builder method of a layer (the
stage that added it in its third column); the grammar reads the last stage's lexicon (every file). Each layer has
its module; the forms by rule it uses are in the forms_*.py module of the same name:

    KoEnGrammar                     base.py                                "full": the base constructions
    EverydayGrammar                 constructions_everyday.py              "everyday": what learners say first
    LearnerGrammar                  constructions_everyday.py              "learner": a learner's core words
    (the lexicon's second round)                                           "learner2": words only
    SyllabusGrammar                 constructions_syllabus.py              "learner3": a beginner syllabus
    ModalityAndComparisonGrammar    constructions_modality_comparison.py   "learner4": -겠-, 것 같다, 보다 ...
    ParticlesGrammar                constructions_particles.py             "learner5": 만, 도, 하고, 까지 ...
    CollocationsAndNumbersGrammar   constructions_collocations_numbers.py  "learner6": 비가 와요, numbers ...
    Level1WordsGrammar              constructions_level1_words.py          "learner7": the level-1 word list
    CompoundsAndDatesGrammar        constructions_compounds_dates.py       "learner8": 영어 숙제, 삼월 오 일 ...
    SpokenParticlesGrammar          constructions_spoken_particles.py      "learner9": particles as spoken ...
    DeixisGrammar                   constructions_deixis.py                "learner10": 여기 / 거기, 되다 ...
"""

from __future__ import annotations

from transformer_core.grammar.base import GRAMMAR, KoEnGrammar, SentencePair, Word, stage_of
from transformer_core.grammar.constructions_deixis import DeixisGrammar
from transformer_core.grammar.constructions_everyday import typed_word

__all__ = ["GRAMMAR", "DeixisGrammar", "generate_pairs", "ko_en_grammar", "stream_korean_words"]


def stream_korean_words(grammar: str = GRAMMAR) -> set[Word]:
    """The Korean words grammar `grammar`'s stream writes: each word the grammar writes (vocabulary.korean_words,
    the pieces that make the vocabulary) as the tokenizer cuts its text (the stream cuts each word as typed:
    EverydayGrammar.sample), without the words it would turn into <unk> (never drawn). The core's: its words as
    written."""
    from transformer_core.grammar.vocabulary import ko_en_vocabulary, korean_words

    written = korean_words(grammar=grammar)
    if stage_of(grammar) == "core":
        return written
    vocabulary = frozenset(ko_en_vocabulary(False, grammar))
    return {typed for typed in (typed_word(word, vocabulary) for word in written) if typed is not None}


def ko_en_grammar(seed: int = 0, name: str = GRAMMAR) -> KoEnGrammar:
    """The grammar `name` (base.grammar_name): GRAMMAR ("everyday-korean", also by its old name "learner10") or
    "core" (its compact core, the lab's). Each seed keeps its own random stream."""
    if stage_of(name) == "core":
        return KoEnGrammar(seed, core=True)
    return DeixisGrammar(seed)


def generate_pairs(n: int, seed: int = 0, core: bool = False, grammar: str = GRAMMAR) -> list[SentencePair]:
    """`n` sentence pairs of grammar `grammar` (ko_en_grammar; `core=True`: the compact core)."""
    return ko_en_grammar(seed, "core" if core else grammar).samples(n)
