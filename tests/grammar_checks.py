"""Checks the grammar tests share: a generated pair reads back through the tokenizer with a valid gold alignment;
lexicon entries conjugate as hangul.py's rules say; the sha256 of a stream and of a vocabulary (test_grammar_pin)."""

from __future__ import annotations

from transformer_core.grammar import hangul


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


def stream_sha256(grammar: str, n: int = 3000, seed: int = 4) -> str:
    """sha256 of json.dumps([[source, target, alignment] ...], ensure_ascii=False) of generate_pairs(n, seed,
    grammar): how test_grammar_pin pins the stream the bundled models learned."""
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
