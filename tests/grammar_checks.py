"""Checks the grammar tests share: a generated pair reads back through the tokenizer with a valid gold alignment;
lexicon entries conjugate as hangul.py's rules say; a syllabus grammar with its words chosen (ChosenWords), the
pairs it writes and the Korean words each English word is aligned to."""

from __future__ import annotations

import dataclasses

from transformer_core.grammar import hangul
from transformer_core.grammar.base import common_phrase, name_phrase, place_phrase
from transformer_core.grammar.forms import grammar_lexicon


def assert_pair_reads_back(pair, tokenizer, vocab: dict[str, int]) -> None:
    """The tokenizer cuts the typed Korean into exactly the pair's pieces, every English word is in the vocabulary,
    each English word's links point into the source, and the final mark aligns with the final mark."""
    ids = tokenizer(pair.source_text)["input_ids"][:-1]
    assert tokenizer.convert_ids_to_tokens(ids) == list(pair.source), pair.source_text
    assert set(pair.target) <= set(vocab), pair.target_text
    assert len(pair.alignment) == len(pair.target)
    assert all(0 <= i < len(pair.source) for link in pair.alignment for i in link)
    assert pair.target[-1] == pair.source[-1] and pair.alignment[-1] == (len(pair.source) - 1,)


def assert_conjugated_by_rule(verbs, adjectives) -> None:
    """Past (and irregular future) stems of verbs, past and attributive forms of adjectives, as hangul.py makes
    them from the stem and its irregular class."""
    for verb in verbs:
        assert hangul.past_stem(verb.stem, verb.irregular) == verb.past_stem, verb
        if verb.irregular in ("ㅂ", "ㄷ", "ㅎ", "ㅅ"):
            assert hangul.future_form(verb.stem, verb.irregular) == verb.future_stem, verb
    for adjective in adjectives:
        assert hangul.past_stem(adjective.stem, adjective.irregular) == adjective.past_stem, adjective
        assert hangul.attributive_form(adjective.stem, adjective.irregular) == adjective.attributive, adjective


def english_senses(lexicon) -> dict[str, set[str]]:
    """Each Korean stem or noun of `lexicon` with the English words it is given (two or more: a homonym)."""
    found: dict[str, set[str]] = {}
    for verb in lexicon.verbs:
        found.setdefault(verb.stem, set()).add(verb.en_base)
    for adjective in lexicon.adjectives:
        found.setdefault(adjective.stem, set()).add(adjective.en)
    for noun in lexicon.common_nouns + lexicon.places:
        found.setdefault(noun.ko, set()).add(noun.en)
    return found


# --- a syllabus grammar with the words chosen: each construction's sentences written out by hand in the tests ------

def chosen_lexicon(grammar: str, **fields):
    """The lexicon of `grammar` narrowed to the words a test names (Korean forms as the lexicon spells them)."""
    lexicon = grammar_lexicon(grammar)
    pick = {"transitive": lambda v: (v.stem, v.en_base) in fields.get("transitive", ()),
            "intransitive": lambda v: (v.stem, v.en_base) in fields.get("intransitive", ()),
            "motion": lambda v: v.stem in fields.get("motion", ()),
            "common_nouns": lambda n: n.ko in fields.get("nouns", ()),
            "places": lambda n: n.ko in fields.get("places", ()),
            "names": lambda n: n.ko in fields.get("names", (n.ko,)),
            "adjectives": lambda a: a.stem in fields.get("adjectives", (a.stem,))}
    return dataclasses.replace(lexicon, **{name: [e for e in getattr(lexicon, name) if keep(e)]
                                           for name, keep in pick.items()})


class ChosenWords:
    """Mixed in before a syllabus grammar (Learner3Grammar, Learner4Grammar): its words chosen; subject 민수는 (or
    an elder), object N을 without a determiner, the place of a motion verb the lexicon's one place, no time word;
    the construction's own choices stay random."""

    def __init__(self, seed: int, first: str = "", **fields) -> None:
        super().__init__(seed)
        self.lexicon = chosen_lexicon(self.GRAMMAR, **fields)
        self._first = first  # the stem a two-verb construction's first clause takes

    def _subject(self, role=None, person_only=True, drop=0.15, question=False):
        self._question = question
        self._last_subject = name_phrase(next(n for n in grammar_lexicon(self.GRAMMAR).names if n.ko == "민수"),
                                         "topic")
        return self._last_subject

    def _object(self, verb):
        if verb.kind != "transitive":
            return None
        noun = next(n for n in self.lexicon.common_nouns if n.tags & verb.objects)
        return common_phrase(noun, "object", None, False, None)

    def _place_for(self, verb):
        return place_phrase(self.lexicon.places[0], "goal", "to") if verb.kind == "motion" else None

    def _time(self, tense):
        return None

    def _determiner(self, probability):
        return False

    def _clause_verb(self, kinds=("transitive", "intransitive"), exclude="", form=""):
        verbs = ([v for kind in kinds for v in getattr(self.lexicon, kind) if v.stem != exclude]
                 or [v for v in self.lexicon.verbs if v.stem != exclude])
        first = [v for v in verbs if v.stem == self._first]
        return first[0] if first and not exclude else self.rng.choice([v for v in verbs if v.stem != self._first]
                                                                      or verbs)


def written(grammar, kind: str, registers=("polite",), n: int = 300) -> set[tuple[str, str]]:
    """The (Korean, English) pairs `grammar` writes for construction `kind` in `n` draws per speech level."""
    return {(pair.source_text, pair.target_text)
            for pair in (grammar.sample(register, kind=kind) for _ in range(n) for register in registers)}


def aligned_words(pair) -> dict[str, set[str]]:
    """English word -> the Korean words it is aligned to (words written once in the pair)."""
    return {word: {pair.source_words[i] for i in links} for word, links in zip(pair.target, pair.word_alignment,
                                                                              strict=True)}


def unread_sentences(sentences, grammar: str) -> list[tuple[str, list[str]]]:
    """The typed sentences grammar `grammar`'s tokenizer cuts with an `<unk>` or its recogniser names outside
    (each with its pieces); a round's new constructions must leave none."""
    from transformer_core.data.tokenization import build_ko_en_tokenizer
    from transformer_core.grammar.recogniser import outside_word_indices

    tokenizer = build_ko_en_tokenizer(grammar=grammar)
    unread = []
    for sentence in sentences:
        pieces = tokenizer.convert_ids_to_tokens(tokenizer(sentence)["input_ids"][:-1])
        if "<unk>" in pieces or outside_word_indices(pieces, grammar):
            unread.append((sentence, pieces))
    return unread


def stream_sha256(grammar: str, n: int = 3000, seed: int = 4) -> str:
    """sha256 of json.dumps([[source, target, alignment] ...], ensure_ascii=False) of generate_pairs(n, seed,
    grammar): how each round's tests pin the streams of the grammars before it."""
    import hashlib
    import json

    from transformer_core.grammar.generator import generate_pairs

    pairs = generate_pairs(n, seed=seed, grammar=grammar)
    stream = json.dumps([[p.source, p.target, p.alignment] for p in pairs], ensure_ascii=False)
    return hashlib.sha256(stream.encode()).hexdigest()


def vocabulary_sha256(vocabulary) -> str:
    """sha256 of a vocabulary's tokens joined by newlines (the ids a bundled model was trained with)."""
    import hashlib

    return hashlib.sha256("\n".join(vocabulary).encode()).hexdigest()
