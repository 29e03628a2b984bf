"""Predict, then reveal: the questions a step asks before its figure, with answers read from the trace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from explorer.figures.attention import array, softmax, top_k
from explorer.figures.lesson.data import (
    FOCUS_LAYER,
    LessonData,
    causal_position,
    cross_row,
    cross_weights,
    focus_head,
    focus_query,
    next_token_row,
)
from explorer.figures.steps import shape_str
from explorer.i18n import md_escape, t
from transformer_core.tracing.names import CAUSAL_MASK, LOGITS, SRC_IDS, AttentionKind, attention_name


@dataclass(frozen=True)
class Question:
    """A question asked before the figure is shown. Options are labels; `answer` holds the indices of
    the right ones (`multi`: the whole set must be chosen)."""

    id: str
    prompt: str  # Markdown (token strings escaped)
    options: tuple[str, ...]
    answer: frozenset[int]
    multi: bool = False

    def is_right(self, choice: int | Sequence[int] | None) -> bool | None:
        """True / False for a guess, None when nothing was chosen."""
        if choice is None:
            return None
        if self.multi:
            chosen = frozenset(int(c) for c in choice)  # type: ignore[union-attr]
            return chosen == self.answer
        return int(choice) in self.answer  # type: ignore[arg-type]

    @property
    def answer_labels(self) -> list[str]:
        return [self.options[i] for i in sorted(self.answer)]


def _token_options(tokens: Sequence[str]) -> tuple[str, ...]:
    return tuple(f"{i}: {tok}" for i, tok in enumerate(tokens))


def token_count_answer(data: LessonData) -> int:
    """How many tokens the sentence became: the length of `src.ids` in the trace."""
    return int(data.trace[SRC_IDS].shape[1])


def q_shape_answer(data: LessonData, layer: int = FOCUS_LAYER) -> tuple[int, int]:
    """The shape of Q for ONE head: the trace's q [B, H, S, d_k] without batch and head -> (S, d_k)."""
    shape = tuple(int(s) for s in data.trace[attention_name(AttentionKind.ENCODER_SELF, layer, "q")].shape)
    return shape[2], shape[3]


def strongest_key_answer(data: LessonData, query: int, layer: int = FOCUS_LAYER, head: int | None = None) -> int:
    """The source position query `query` gives the most weight to (encoder self-attention, one head;
    by default the focus head)."""
    head = focus_head(data) if head is None else head
    return int(np.argmax(data.trace.numpy(attention_name(AttentionKind.ENCODER_SELF, layer, "weights"))[head][query]))


def visible_positions_answer(data: LessonData, position: int) -> frozenset[int]:
    """The target positions decoder position `position` may attend to: the True entries of its row of
    `tgt.causal_mask` (True = may attend)."""
    mask = array(data.trace, CAUSAL_MASK).astype(bool)
    return frozenset(int(j) for j in np.flatnonzero(mask[position]))


def cross_answer(data: LessonData, row: int) -> int:
    """The source position output step `row` reads most (last decoder layer, heads averaged)."""
    return int(np.argmax(cross_weights(data)[row]))


def next_token_candidates(data: LessonData, row: int, k: int = 4) -> tuple[list[str], list[float], str]:
    """The k most likely next tokens at output step `row` (from the traced logits), their probabilities,
    and the one the model chose (the argmax)."""
    probs = softmax(data.trace.numpy(LOGITS)[row])
    ids, top = top_k(probs, k)
    tokens = [data.vocabulary[i] if i < len(data.vocabulary) else str(i) for i in ids.tolist()]
    return tokens, [float(p) for p in top], tokens[0]


def question_for(step_id: str, data: LessonData, lang: str) -> Question | None:
    """The predict-first question of a step (None if the step asks nothing)."""
    esc = md_escape
    if step_id == "tokens":
        answer = token_count_answer(data)
        n_words = len(data.text.split()) if data.text.strip() else answer - 1
        pool = sorted(v for v in {answer, n_words, answer - 1, answer + 1, answer + 2} if v >= 1)
        options = tuple(str(v) for v in pool)
        return Question("tokens", t("lesson.q.tokens", lang), options, frozenset({pool.index(answer)}))
    if step_id == "scores":
        s, d_k = q_shape_answer(data)
        d, h = data.info.d_model, data.info.n_heads
        shapes = [(s, d_k), (s, d), (d_k, s), (h, s, d_k), (s, s)]
        labels = sorted({shape_str(x) for x in shapes})
        right = shape_str((s, d_k))
        return Question("q_shape", t("lesson.q.q_shape", lang, h=h, d=d), tuple(labels),
                        frozenset({labels.index(right)}))
    if step_id == "softmax":
        i = focus_query(data)
        answer = strongest_key_answer(data, i)
        prompt = t("lesson.q.strongest", lang, token=esc(data.src_tokens[i]), i=i, head=focus_head(data))
        return Question("strongest", prompt, _token_options(data.src_tokens), frozenset({answer}))
    if not data.has_decoder:
        return None
    if step_id == "causal_mask":
        p = causal_position(data)
        return Question("causal", t("lesson.q.causal", lang, p=p, token=esc(data.tgt_tokens[p])),
                        _token_options(data.tgt_tokens), visible_positions_answer(data, p), multi=True)
    if step_id == "cross_attention":
        row = cross_row(data)
        return Question("cross", t("lesson.q.cross", lang, token=esc(data.predicted_tokens[row])),
                        _token_options(data.src_tokens), frozenset({cross_answer(data, row)}))
    if step_id == "next_token":
        row = next_token_row(data)
        tokens, _, chosen = next_token_candidates(data, row)
        labels = sorted(set(tokens))
        so_far = " ".join(data.predicted_tokens[:row])
        return Question("next", t("lesson.q.next", lang, so_far=esc(so_far) or "∅"), tuple(labels),
                        frozenset({labels.index(chosen)}))
    return None

