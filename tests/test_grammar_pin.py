"""The one pinned hash of the grammar: the bundled models (models/ko-en-toy, models/ko-en-rnn-attention) were
trained on its stream with its vocabulary's ids, so the code may move but neither may change.

Measured on main at 5353d9a (grammar "learner10", before the grammar became one grammar as data): sha256 of
json.dumps([[source, target, alignment] ...], ensure_ascii=False) of the first 3,000 pairs of seed 4, and of the
vocabulary's 17,071 tokens joined by newlines (special tokens not counted; the bundled tokenizer.json's ids 4 on)."""

from __future__ import annotations

from tests.grammar_checks import stream_sha256, vocabulary_sha256
from transformer_core.grammar.vocabulary import ko_en_vocabulary

GRAMMAR = "everyday-korean"  # "learner10" until issue 49 (an alias still)
STREAM_SHA256 = "69ebf294f69095f749dfb527c8006366101d0ed4b2c95db6dde919f6142878d1"
VOCABULARY_SHA256 = "cb8c4af7222b5654048b654b702d103290c24872b2208c5177599b86f109956e"
VOCABULARY_SIZE = 17071


def test_the_stream_is_the_one_the_bundled_models_learned():
    assert stream_sha256(GRAMMAR, n=3000, seed=4) == STREAM_SHA256


def test_the_vocabulary_holds_the_bundled_models_ids():
    vocabulary = ko_en_vocabulary(grammar=GRAMMAR)
    assert len(vocabulary) == VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == VOCABULARY_SHA256


def test_the_bundled_models_old_name_is_the_grammar():
    assert ko_en_vocabulary(grammar="learner10") == ko_en_vocabulary(grammar=GRAMMAR)
