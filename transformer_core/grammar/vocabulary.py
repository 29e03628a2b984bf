"""Every token the Korean-English grammar can write, enumerated from the lexicon (no sampling).

Korean tokens are morpheme pieces: word-initial pieces (stems, nouns, whole function words) and
continuation pieces written with "##" (particles and endings: ##를, ##었어요, ##습니다). English
tokens are whole words. Both languages share one vocabulary (the paper ties the embeddings).

The grammar's token ids are data: vocabulary.txt beside this module lists its tokens in id order (ids 4 on; the
four special tokens come first), the ids the bundled models were trained with. The grammar grew in stages, each
one's new tokens sorted after the list before it, so the list is not sorted; it is written down rather than
rebuilt from each stage. A token the grammar writes that the list lacks (a word added to the lexicon) is appended
after it, sorted, so the ids of the list stay those of the bundled models.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from pathlib import Path

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import (
    DEMONSTRATIVES,
    DETERMINERS,
    GRAMMAR,
    HOW,
    NEGATIVE_COPULA,
    REGISTERS,
    TENSES,
    Word,
    adjective_pieces,
    attach,
    attributive_word,
    copula_ending,
    predicate_word,
    split_particle,
    stage_of,
    verb_pieces,
    word_tokens,
)
from transformer_core.grammar.lexicon import CORE, Lexicon, word_list

PUNCTUATION = (".", "?")
PARTICLE_KINDS = tuple(hangul.PARTICLES)
COUNTERS = ("명", "마리", "권", "개")
KOREAN_FUNCTION_WORDS: tuple[Word, ...] = word_list("KOREAN_FUNCTION_WORDS")
ENGLISH_FUNCTION_WORDS = (*word_list("ENGLISH_FUNCTION_WORDS"), *sorted(english.AUXILIARIES))


VOCABULARY_PATH = Path(__file__).resolve().parent / "vocabulary.txt"


def _lexicons(core: bool, grammar: str = GRAMMAR) -> list[Lexicon]:
    if core:
        return [CORE]
    from transformer_core.grammar.forms import grammar_lexicon

    return [CORE, grammar_lexicon(stage_of(grammar))]


def korean_words(core: bool = False, grammar: str = GRAMMAR) -> set[Word]:
    """All Korean words (as pieces) the grammar can write (core=True: its compact core). These pieces make the
    vocabulary (the words a stream cut as typed writes: generator.stream_korean_words)."""
    core = core or stage_of(grammar) == "core"
    words: set[Word] = set(KOREAN_FUNCTION_WORDS) | {(p,) for p in PUNCTUATION}
    words.update(determiner for determiner, _ in DETERMINERS)
    lexicons = _lexicons(core, grammar)
    for lexicon in lexicons:
        for noun in lexicon.common_nouns + lexicon.places + lexicon.names:
            words.add((noun.ko,))
            words.update(attach(noun.ko, kind) for kind in PARTICLE_KINDS)
        for counter in COUNTERS:
            words.update(attach(counter, kind) for kind in PARTICLE_KINDS)
        for pronoun in lexicon.pronouns:
            words.update(split_particle(form) for form in (pronoun.topic, pronoun.subject, pronoun.object))
        words.update((ko,) for ko, _ in lexicon.numbers)
        for time_word in lexicon.time_words:
            words.update(split_particle(word) for word in time_word.ko)
        words.update((ko,) for ko, _ in lexicon.degree_adverbs + lexicon.manner_adverbs)
        registers = ("plain",) if lexicon is CORE else REGISTERS
        for tense, negated, question, register in product(TENSES, (False, True), (False, True), registers):
            for verb in lexicon.verbs:
                words.update(verb_pieces(verb, tense, negated, question, register)[0])
            for adjective in lexicon.adjectives:
                if adjective.predicative:
                    words.update(adjective_pieces(adjective, tense, negated, question, register)[0])
        words.update(attributive_word(adjective) for adjective in lexicon.adjectives)
    if not core:
        for ko, _ in DEMONSTRATIVES:
            words.add(attach(ko, "topic"))
        for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
            words.update((noun.ko, copula_ending(noun.ko, tense, question, register))
                         for noun in lexicons[-1].common_nouns)
            words.update((wh, copula_ending(wh, tense, True, register)) for wh in ("뭐", "누구", "무엇"))
            words.add((NEGATIVE_COPULA[(tense, question)][register],))
            future = hangul.adnominal_future_from_present(HOW.attributive)
            words.update(predicate_word(HOW.stem, HOW.past_stem, future, tense, True, register, action=False))
    if not core:
        from transformer_core.grammar.forms import everyday_korean_words

        words |= everyday_korean_words(stage_of(grammar))
    return words


def korean_tokens(core: bool = False, grammar: str = GRAMMAR) -> set[str]:
    """The Korean pieces: word-initial pieces and '##' continuation pieces."""
    return {token for word in korean_words(core, grammar) for token in word_tokens(word)}


def english_words(core: bool = False, grammar: str = GRAMMAR) -> set[str]:
    """All English words of the grammar, with capitals for the words that can start a sentence."""
    core = core or stage_of(grammar) == "core"
    words: set[str] = set(ENGLISH_FUNCTION_WORDS) | set(PUNCTUATION) | {en for _, en in DETERMINERS}
    starters = {"a", "an", "the", "will", "what", "who", "where", "when", "how", "this", "that", "it",
                *english.AUXILIARIES, *(en for _, en in DETERMINERS)}
    for lexicon in _lexicons(core, grammar):
        for noun in lexicon.names:
            words.add(noun.en)
        for noun in lexicon.common_nouns + lexicon.places:
            words.update(noun.en.split() + noun.plural.split())
            if "person" in noun.tags or noun.mass or noun.plural_only:
                starters.update({noun.en.split()[0], noun.plural.split()[0]})
        for pronoun in lexicon.pronouns:
            words.update((pronoun.en_subject, pronoun.en_object))
            starters.add(pronoun.en_subject)
        for verb in lexicon.verbs:
            first, *rest = verb.en_base.split()
            words.update([first, english.third_person_singular(first), *rest, *verb.en_past.split()])
        for adjective in lexicon.adjectives:
            words.update(adjective.en.split())
            starters.add(adjective.en.split()[0])
        words.update(en for _, en in lexicon.numbers)
        starters.update(en for _, en in lexicon.numbers)
        for time_word in lexicon.time_words:
            words.update(time_word.en)
        for _, en in lexicon.degree_adverbs + lexicon.manner_adverbs:
            words.update(en.split())
    words.update(english.capitalize_first([word])[0] for word in starters)
    if not core:
        from transformer_core.grammar.forms import everyday_english_words

        words |= everyday_english_words(stage_of(grammar))
    return words


GRAMMARS = (GRAMMAR,)  # the whole grammar ("core", its compact core, is core=True)


@cache
def ko_en_vocabulary(core: bool = False, grammar: str = GRAMMAR) -> tuple[str, ...]:
    """The joint token list (Korean pieces and English words together; special tokens not included).

    The grammar's: the tokens of vocabulary.txt in their order (the bundled models' ids), then any token the
    grammar writes that the file lacks, sorted. `core=True`: only the compact core's tokens, sorted (about 1,540
    instead of 17,071), the training lab's vocabulary: its output softmax is a tenth of the full one, so a step
    costs much less."""
    if core or stage_of(grammar) == "core":
        return tuple(sorted(korean_tokens(True) | english_words(True)))
    listed = tuple(VOCABULARY_PATH.read_text(encoding="utf-8").splitlines())
    added = (korean_tokens(False, grammar) | english_words(False, grammar)) - set(listed)
    return listed + tuple(sorted(added))


def stage_sizes() -> dict[str, int]:
    """How many tokens of vocabulary.txt each stage of the grammar's growth had (vocabulary_stages.json)."""
    import json

    return json.loads(VOCABULARY_PATH.with_name("vocabulary_stages.json").read_text(encoding="utf-8"))["sizes"]
