"""What a loaded tokenizer makes of a text: the explorer.figures.tokenization.Tokenization values the pages draw
(pieces, ids, special and unknown pieces, the input word of each piece). Pages and builders never call a
tokenizer themselves; they call these functions, which take any Hugging Face tokenizer (`loaded.tokenizer`).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from explorer.figures.tokenization import Tokenization, word_spans


def special_tokens(tokenizer) -> set[str]:
    """The tokenizer's special token strings ([PAD], [BOS], [CLS], ...)."""
    return set(getattr(tokenizer, "all_special_tokens", []) or [])


def unk_token(tokenizer) -> str | None:
    return getattr(tokenizer, "unk_token", None)


def tokenizer_fingerprint(tokenizer) -> str:
    """A short hash of the tokenizer's full definition: equal for tokenizers that behave the same."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    text = backend.to_str() if backend is not None else repr(sorted(tokenizer.get_vocab().items()))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def _word_of(span: tuple[int, int], spans: list[tuple[int, int]]) -> int | None:
    start, end = span
    if end <= start:
        return None
    for index, (w_start, w_end) in enumerate(spans):
        if start < w_end and end > w_start:
            return index
    return None  # whitespace-only piece (character-level tokenizers keep spaces)


def _pieces_to_words(pieces: list[str], is_special: list[bool], n_words: int) -> list[int | None]:
    """Word index per piece from SentencePiece's "▁" (a piece that starts a word) when the tokenizer gives no
    character offsets (a slow tokenizer such as Marian's): "▁간", "다", "." are all word 2 of "나는 학교에 간다."."""
    word, out = -1, []
    for piece, special in zip(pieces, is_special, strict=True):
        if special or n_words == 0:
            out.append(None)
            continue
        if piece.startswith("▁") or word < 0:
            word = min(word + 1, n_words - 1)
        out.append(word)
    return out


def tokenize(tokenizer, text: str, max_length: int | None = None) -> Tokenization:
    """Tokenize `text` with the tokenizer's own special tokens, mapping each piece to its input word."""
    fast = getattr(tokenizer, "is_fast", True)  # slow (Python) tokenizers return no offset mapping
    encoding = tokenizer(text, return_offsets_mapping=True) if fast else tokenizer(text)
    n_truncated = 0
    if max_length is not None and len(encoding["input_ids"]) > max_length:
        cut = tokenizer(text, return_offsets_mapping=fast, truncation=True, max_length=max_length)
        n_truncated = len(encoding["input_ids"]) - len(cut["input_ids"])
        encoding = cut
    ids = list(encoding["input_ids"])
    pieces = tokenizer.convert_ids_to_tokens(ids)
    specials = special_tokens(tokenizer)
    special_ids = set(getattr(tokenizer, "all_special_ids", []) or [])
    unk = unk_token(tokenizer)
    unk_id = getattr(tokenizer, "unk_token_id", None)
    spans = word_spans(text)
    is_special = [(i in special_ids or p in specials) and (i != unk_id) for p, i in zip(pieces, ids, strict=True)]
    if fast:
        offsets = [tuple(o) for o in encoding["offset_mapping"]]
        word_index = [None if sp else _word_of(o, spans) for o, sp in zip(offsets, is_special, strict=True)]
    else:
        word_index = _pieces_to_words(pieces, is_special, len(spans))
    return Tokenization(
        pieces=pieces,
        ids=ids,
        is_special=is_special,
        is_unk=[unk is not None and (p == unk or i == unk_id) for p, i in zip(pieces, ids, strict=True)],
        word_index=word_index,
        words=[text[s:e] for s, e in spans],
        n_truncated=n_truncated,
    )


def compare_tokenizers(tokenizers: dict[str, object], text: str,
                       max_length: dict[str, int] | None = None) -> dict[str, Tokenization]:
    """The same text through several tokenizers (name -> Tokenization), tokenizing only."""
    max_length = max_length or {}
    return {name: tokenize(tok, text, max_length.get(name)) for name, tok in tokenizers.items()}


def ids_to_tokens(tokenizer, ids: list[int]) -> list[str]:
    """Vocabulary ids -> token strings."""
    return list(tokenizer.convert_ids_to_tokens([int(i) for i in ids]))


def from_tokens(tokenizer, pieces: list[str]) -> Tokenization:
    """A Tokenization for pieces that came from the model (e.g. the decoder's tokens), no word mapping."""
    ids = [int(i) for i in tokenizer.convert_tokens_to_ids(list(pieces))]
    specials = special_tokens(tokenizer)
    unk = unk_token(tokenizer)
    unk_id = getattr(tokenizer, "unk_token_id", None)
    is_unk = [unk is not None and (p == unk or i == unk_id) for p, i in zip(pieces, ids, strict=True)]
    return Tokenization(
        pieces=list(pieces), ids=ids,
        is_special=[p in specials and not u for p, u in zip(pieces, is_unk, strict=True)],
        is_unk=is_unk,
        word_index=[None] * len(pieces), words=[], n_truncated=0,
    )


@lru_cache(maxsize=16)
def vocabulary(tokenizer) -> tuple[str, ...]:
    """Every token string, by id (what a builder needs to name the ids it picks, e.g. the likeliest next tokens)."""
    return tuple(tokenizer.convert_ids_to_tokens(list(range(len(tokenizer)))))
