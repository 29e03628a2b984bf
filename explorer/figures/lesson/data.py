"""What a lesson step needs from the model and the trace (LessonData, built by explorer/lesson_service.py), and
which positions, head and rows the steps follow."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from explorer.figures.attention import stack
from explorer.figures.steps import LayerInfo
from explorer.figures.tokenization import Tokenization
from transformer_core.tracing.names import AttentionKind, attention_name, layer_prefix


@dataclass(frozen=True)
class LessonData:
    """One sentence through one model: the trace, its tokens and the config values the steps use."""

    trace: object  # transformer_core.Trace (name -> tensor, with .numpy(name))
    src_tokens: list[str]
    tgt_tokens: list[str]
    predicted_tokens: list[str]
    has_decoder: bool
    info: LayerInfo
    scale_embedding: bool
    positional: str  # "sinusoidal" or "learned"
    specials: frozenset[str]
    vocabulary: tuple[str, ...] = ()  # every token string by id (the next-token candidates' names; () = ids)
    source: Tokenization | None = None  # the source pieces as the tokenizer has them (the token chips)
    text: str = ""  # the sentence as typed
    sinusoidal_layout: str = "interleaved"  # "halves": Marian's sines-then-cosines table
    task: str = ""  # its task's family ('ko-en', 'reverse', 'copy', 'sort', ''): which task sentences the text may say
    trained: bool = True  # False: paper-base's random weights (every step says so)
    final_norm: bool = False  # a LayerNorm after each stack (pre-LN models)
    facts: object = None  # transformer_core.analysis.model_facts.ModelFacts: what the weights say
    model_name: str = ""
    max_len: int = 0  # the longest input the position table covers

    @property
    def n_src(self) -> int:
        return len(self.src_tokens)

    @property
    def d_k(self) -> int:
        return self.info.d_model // self.info.n_heads


_WORDLIKE = re.compile(r"\w", re.UNICODE)


def _is_word(token: str, specials: frozenset[str]) -> bool:
    return token not in specials and bool(_WORDLIKE.search(token))


def focus_query(data: LessonData) -> int:
    """The source position the encoder steps follow: the first real word (not [CLS], not punctuation)."""
    return next((i for i, tok in enumerate(data.src_tokens) if _is_word(tok, data.specials)), 0)


FOCUS_LAYER = 0  # the encoder steps follow layer 0 (the full pages show the others)
ENCODER_LAYER_PREFIX = layer_prefix("encoder", FOCUS_LAYER)  # "encoder.0": steps.ffn_step takes a layer prefix


def _head_choice(data: LessonData) -> tuple[int, str]:
    i = focus_query(data)
    weights = data.trace.numpy(attention_name(AttentionKind.ENCODER_SELF, FOCUS_LAYER, "weights"))[:, i]  # [H, S]
    best = [int(np.argmax(row)) for row in weights]
    for reason, wanted in (("word", lambda j: j != i and _is_word(data.src_tokens[j], data.specials)),
                           ("self", lambda j: _is_word(data.src_tokens[j], data.specials))):
        found = next((h for h, j in enumerate(best) if wanted(j)), None)
        if found is not None:
            return found, reason
    return 0, "none"


def focus_head(data: LessonData) -> int:
    """The layer-0 head the encoder steps follow: the first whose strongest key for the focus query is
    another real word (many heads park their weight on a special token); head 0 if none is."""
    return _head_choice(data)[0]


def focus_head_reason(data: LessonData) -> str:
    """Why focus_head chose its head: 'word' (it looks most at another word), 'self' (no head does; this
    one looks most at the word itself) or 'none' (every head rests on a special token or punctuation)."""
    return _head_choice(data)[1]


def causal_position(data: LessonData) -> int:
    """The decoder position the causal-mask question asks about (position 2, or the last one if shorter)."""
    return min(2, max(len(data.tgt_tokens) - 1, 0))


def cross_weights(data: LessonData) -> np.ndarray:
    """Cross-attention of the LAST decoder layer, averaged over heads: [T, S] (the project's alignment view)."""
    maps = stack(data.trace, AttentionKind.CROSS)  # [L, H, T, S]
    return maps[-1].mean(axis=0).astype(np.float64)


def cross_row(data: LessonData) -> int:
    """The output step the cross-attention question asks about: among the words the model writes, the one
    whose most-read source word sits farthest from its own relative place (the clearest reordering)."""
    weights = cross_weights(data)
    n_rows, n_cols = weights.shape
    best, best_shift = None, -1.0
    for row, tok in enumerate(data.predicted_tokens[:n_rows]):
        if not _is_word(tok, data.specials):
            continue
        src = int(np.argmax(weights[row]))
        shift = abs(row / max(n_rows - 1, 1) - src / max(n_cols - 1, 1))
        if shift > best_shift + 1e-9:
            best, best_shift = row, shift
    return 0 if best is None else best


def next_token_row(data: LessonData) -> int:
    """The output step the next-token question asks about: the last real word the model writes."""
    rows = [i for i, tok in enumerate(data.predicted_tokens) if _is_word(tok, data.specials)]
    return rows[-1] if rows else 0

