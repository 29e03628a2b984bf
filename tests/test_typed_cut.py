"""A grammar that cuts its words as typed (EverydayGrammar.TYPED_CUT): each Korean word of a drawn pair comes out as
the real tokenizer cuts its text (가 ##는 "going" -> 가는), the gold alignment carried over word by word, and a pair
with a word the tokenizer turns into <unk> (가지만) is still drawn again. Tested on learner4 with the switch on."""

from __future__ import annotations

import hashlib
import json
from functools import cache

import pytest

from tests.grammar_checks import ChosenWords
from transformer_core.data.ko_en import pieces_to_words, word_tokens
from transformer_core.data.ko_en_everyday import Learner4Grammar, generate_pairs, ko_en_grammar, stream_korean_words
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary, korean_words

GO = dict(motion=["가"], places=["학교"])


class TypedLearner4(Learner4Grammar):
    """Grammar learner4 with the switch on (same lexicon, vocabulary and tokenizer)."""

    TYPED_CUT = True


class CountedTypedLearner4(TypedLearner4):
    """TypedLearner4 that keeps every pair it draws before sample() accepts or redraws it."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.drawn: list = []

    def _sample_once(self, register, kind=None):
        pair = super()._sample_once(register, kind)
        self.drawn.append(pair)
        return pair


class ChosenTypedLearner4(ChosenWords, TypedLearner4):
    """TypedLearner4 with its words chosen (grammar_checks.ChosenWords)."""


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner4")


def typed_tokens(text: str) -> list[str]:
    """The real tokenizer's pieces of `text`, without the closing </s>."""
    tokenizer = _tokenizer()
    return tokenizer.convert_ids_to_tokens(tokenizer(text)["input_ids"][:-1])


def piece_alignment(pair) -> tuple[tuple[int, ...], ...]:
    """The pair's alignment rebuilt from its word alignment: every piece of each aligned word (the convention)."""
    starts = [i for i, piece in enumerate(pair.source) if not piece.startswith("##")]
    ends = [*starts[1:], len(pair.source)]
    return tuple(tuple(i for w in words for i in range(starts[w], ends[w])) for words in pair.word_alignment)


# --- written out: the words typing cuts otherwise ----------------------------------------------------------------

def test_going_is_cut_as_typed_with_its_alignment_carried_over():
    """가 ##는 "goes" is typed 가는, the one piece (also 가늘다's 'thin'); 'goes' aligns to that one piece."""
    grammar = ChosenTypedLearner4(1, **GO)
    drawn = {p.source_text: p for p in (grammar.sample("polite", kind="seems") for _ in range(200))}
    assert "민수는 학교에 가는 것 같아요." in drawn, sorted(drawn)
    pair = drawn["민수는 학교에 가는 것 같아요."]
    assert pair.target == ("I", "think", "Minsu", "goes", "to", "the", "school", ".")
    assert pair.source == ("민수", "##는", "학교", "##에", "가는", "것", "같아", "##요", ".")
    #                        0        1       2       3       4      5     6       7      8
    assert pair.alignment == ((6, 7), (5, 6, 7), (0, 1), (4,), (2, 3), (), (2, 3), (8,))
    assert pair.word_alignment == ((4,), (3, 4), (0,), (2,), (1,), (), (1,), (5,))
    assert list(pair.source) == typed_tokens(pair.source_text)


def test_go_before_a_negation_is_cut_as_typed_with_its_alignment_carried_over():
    """가 ##지 못했어요 is typed 가지 (the noun's piece) 못 ##했 ##어요; 'go' aligns to 가지."""
    grammar = ChosenTypedLearner4(1, **GO)
    drawn = {p.source_text: p for p in (grammar.sample("polite", kind="negation") for _ in range(400))}
    assert "민수는 학교에 가지 못했어요." in drawn, sorted(drawn)
    pair = drawn["민수는 학교에 가지 못했어요."]
    assert pair.target == ("Minsu", "could", "not", "go", "to", "the", "school", ".")
    assert pair.source == ("민수", "##는", "학교", "##에", "가지", "못", "##했", "##어요", ".")
    assert pair.alignment == ((0, 1), (5, 6, 7), (5, 6, 7), (4,), (2, 3), (), (2, 3), (8,))
    assert list(pair.source) == typed_tokens(pair.source_text)


def test_a_word_the_tokenizer_turns_into_unk_is_still_drawn_again():
    """가지만 ("goes, but") is 가지 and then no ##만: <unk>. The switched-on stream never writes it."""
    assert typed_tokens("가지만") == ["<unk>"]
    grammar = ChosenTypedLearner4(2, **GO)
    texts = [grammar.sample(register, kind="contrast").source_text for _ in range(150)
             for register in ("polite", "plain")]
    assert any("갔지만" in text for text in texts)
    assert not any("가지만" in text for text in texts)


# --- the stream: as the real tokenizer cuts its text -------------------------------------------------------------

def test_every_pair_of_a_switched_on_stream_is_the_tokenizers_cut_of_its_text():
    """3,000 pairs: pieces as the real tokenizer cuts the typed text (no <unk>); a pair it re-cut keeps its words,
    English and word alignment, and each English word is aligned to every new piece of its Korean words."""
    vocab = _tokenizer().get_vocab()
    grammar = CountedTypedLearner4(4)
    returned = grammar.samples(3000)
    written = {p.source_text: p for p in grammar.drawn}
    recut = 0
    for pair in returned:
        assert list(pair.source) == typed_tokens(pair.source_text), pair.source_text
        assert "<unk>" not in pair.source and set(pair.source) <= set(vocab)
        assert pieces_to_words(pair.source) == list(pair.source_words)
        assert len(pair.alignment) == len(pair.word_alignment) == len(pair.target)
        assert pair.alignment == piece_alignment(pair), pair.source_text
        assert pair.target[-1] == pair.source[-1] and pair.alignment[-1] == (len(pair.source) - 1,)
        as_written = written[pair.source_text]
        assert (pair.target, pair.source_words, pair.word_alignment) == (
            as_written.target, as_written.source_words, as_written.word_alignment)
        recut += pair.source != as_written.source
    assert recut > 0  # some of the 3,000 hold a word typing cuts otherwise (the switched-off grammar redraws them)


def test_only_pairs_with_an_unk_word_are_drawn_again():
    """Every pair drawn and not returned is one the real tokenizer reads with an <unk>; every one returned is not."""
    grammar = CountedTypedLearner4(5)
    returned = grammar.samples(3000)
    with_unk = [p for p in grammar.drawn if "<unk>" in typed_tokens(p.source_text)]
    assert len(grammar.drawn) == len(returned) + len(with_unk)
    assert len(with_unk) < 30  # under 1 % of 3,000: the grammar's <unk> words are a handful of its 108,600
    assert {p.source_text for p in returned}.isdisjoint(p.source_text for p in with_unk)


# Measured on main at 073e6a3 (before the switch): sha256 of json.dumps([[source, target, alignment] ...],
# ensure_ascii=False) of generate_pairs(300, seed=4, grammar="learner4").
LEARNER4_STREAM_SHA256 = "46c72edce75110a09ec554942c3eacfbff6b80f42c9f943050dd75dd907eddc1"


def test_the_switched_off_learner4_stream_is_that_of_main():
    assert Learner4Grammar.TYPED_CUT is False and ko_en_grammar(0, "learner4").TYPED_CUT is False
    pairs = generate_pairs(300, seed=4, grammar="learner4")
    stream = json.dumps([[p.source, p.target, p.alignment] for p in pairs], ensure_ascii=False)
    assert hashlib.sha256(stream.encode()).hexdigest() == LEARNER4_STREAM_SHA256


# --- the words: stream_korean_words and the tokenizer agree on all of them ---------------------------------

def test_every_learner4_word_as_typed_is_the_tokenizers_cut():
    """typed_word (the cut the stream uses) against the real tokenizer on all of learner4's words."""
    from transformer_core.data.ko_en_everyday import typed_word

    vocabulary = frozenset(ko_en_vocabulary(False, "learner4"))
    words = sorted(korean_words(grammar="learner4"))
    tokenizer = _tokenizer()
    encoded = tokenizer(["".join(w) for w in words], add_special_tokens=False)["input_ids"]
    changed = {}
    for word, ids in zip(words, encoded, strict=True):
        tokens = tokenizer.convert_ids_to_tokens(ids)
        typed = typed_word(word, vocabulary)
        assert (typed is None) == (tokens == ["<unk>"]), (word, tokens)
        if typed is not None:
            assert word_tokens(typed) == tokens, (word, tokens)
        if typed != word:
            changed[word] = typed
    assert changed[("가", "는")] == ("가는",) and changed[("가", "게")] == ("가게",)
    assert changed[("가", "지만")] is None and changed[("행복", "해", "요")] == ("행복해", "요")
    assert len(changed) == 48  # docs/models.md's figure: 48 of the 108,600 words, 2 of them <unk>
    assert sum(typed is None for typed in changed.values()) == 2


def test_typed_word_agrees_with_the_tokenizer_on_words_the_grammar_never_writes():
    """9,000 words glued from random pieces of the vocabulary (a first piece and one to three continuations; 1,500
    again with any syllable after, so that longest match first often finds nothing: <unk>; 1,500 pieces split after
    their first syllable, which it often joins again) cut alike by typed_word and the tokenizer."""
    import random

    from transformer_core.data.ko_en_everyday import typed_word

    vocabulary = frozenset(ko_en_vocabulary(False, "learner4"))
    korean = sorted(t for t in vocabulary if "\uac00" <= t.removeprefix("##")[:1] <= "\ud7a3")
    firsts = [t for t in korean if not t.startswith("##")]
    continuations = [t.removeprefix("##") for t in korean if t.startswith("##")]
    rng = random.Random(6)
    words = [(rng.choice(firsts), *rng.choices(continuations, k=rng.randint(1, 3))) for _ in range(6000)]
    words += [(*word, chr(rng.randint(0xAC00, 0xD7A3))) for word in words[:1500]]  # any syllable: <unk> often
    longer = [t for t in firsts if len(t) > 1]
    split = [(t[:1], t[1:], *rng.choices(continuations, k=rng.randint(0, 1))) for t in rng.sample(longer, 1500)]
    words += split  # a piece split after its first syllable (가게 as 가 ##게): the longest match rejoins it
    tokenizer = _tokenizer()
    encoded = tokenizer(["".join(w) for w in words], add_special_tokens=False)["input_ids"]
    unknown = recut = 0
    for word, ids in zip(words, encoded, strict=True):
        tokens = tokenizer.convert_ids_to_tokens(ids)
        typed = typed_word(word, vocabulary)
        assert (word_tokens(typed) if typed is not None else ["<unk>"]) == tokens, (word, tokens)
        unknown += typed is None
        recut += typed is not None and typed != word
    assert unknown > 750 and recut > 750  # both ways of cutting otherwise are exercised, each on half its words


def test_the_tokenizer_check_passes_once_the_switch_is_on(monkeypatch):
    """test_data's check (every word the grammar's stream writes is the tokenizer's cut, one cut per text) fails on
    learner4 as it is and passes with learner4's switch on: it reads the words as the stream writes them
    (stream_korean_words), while the words that make the vocabulary stay as the grammar writes them."""
    from tests.test_data import cut_otherwise

    written = korean_words(grammar="learner4")
    assert ("가", "는") in written and ("가는",) in written  # one text, two cuts: the check fails
    assert stream_korean_words("learner4") == written  # switch off: the words as written
    monkeypatch.setattr(Learner4Grammar, "TYPED_CUT", True)
    typed = stream_korean_words("learner4")
    assert ("가는",) in typed and ("가", "는") not in typed and ("가는", "데") in typed
    assert not any("".join(word) in ("가지만", "잡지만") for word in typed)
    assert len({"".join(word) for word in written}) - 2 == len(typed)  # each text once, less the two <unk> words
    assert cut_otherwise("learner4") == []
    assert korean_words(grammar="learner4") == written

if __name__ == "__main__":
    pytest.main([__file__, "-q"])
