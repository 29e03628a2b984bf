"""The tokens page's service (/tokens): the sentence through the model's tokenizer, the target pieces it produced,
and the same sentence through the other bundled tokenizers (each distinct tokenizer once). No Streamlit here: the
page passes its cached tokenizer loader and draws what comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from explorer.figures.tokenization import Tokenization
from explorer.tokenizer_service import compare_tokenizers, from_tokens, tokenize, tokenizer_fingerprint


@dataclass(frozen=True)
class TokenizerNote:
    """Why another model is missing from the comparison: 'failed' (its tokenizer did not load: `reason` names the
    error) or 'same' (it shares `other`'s tokenizer)."""

    kind: str
    name: str
    reason: str = ""
    other: str = ""


@dataclass(frozen=True)
class Comparison:
    results: dict[str, Tokenization]  # model name -> the sentence through its tokenizer ({} = nothing to compare)
    notes: list[TokenizerNote] = field(default_factory=list)


def source_tokens(tokenizer, text: str, max_len: int | None) -> Tokenization:
    """The sentence as the model reads it (cut to its longest input)."""
    return tokenize(tokenizer, text, max_length=max_len)


def target_tokens(tokenizer, pieces: list[str]) -> Tokenization:
    """The target pieces of the recorded pass (what the decoder read)."""
    return from_tokens(tokenizer, pieces)


def compare_with_others(name: str, tokenizer, text: str, others: Iterable[str],
                        load: Callable[[str], object]) -> Comparison:
    """`text` through `name`'s tokenizer and each of `others` whose tokenizer differs (`load(name)` gives a
    model's tokenizer; one that fails to load or repeats an earlier one becomes a note)."""
    seen = {tokenizer_fingerprint(tokenizer): name}
    tokenizers, notes = {}, []
    for other in others:
        if other == name:
            continue
        try:
            loaded = load(other)
        except Exception as exc:  # a broken model folder must not take the page down
            notes.append(TokenizerNote("failed", other, reason=type(exc).__name__))
            continue
        fingerprint = tokenizer_fingerprint(loaded)
        if fingerprint in seen:
            notes.append(TokenizerNote("same", other, other=seen[fingerprint]))
            continue
        seen[fingerprint] = other
        tokenizers[other] = loaded
    if not tokenizers:
        return Comparison({}, notes)
    return Comparison(compare_tokenizers({name: tokenizer, **tokenizers}, text), notes)
