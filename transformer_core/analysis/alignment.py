"""Alignment metrics: does cross-attention point at the source word a target word comes from?

Pure functions on numpy arrays, so they can be checked on hand-made matrices.

Conventions: `attention` is one [T, S] cross-attention matrix (rows = decoder positions, columns =
source tokens). Row t is the row that PREDICTS target word t (its query is the token before word t,
i.e. BOS for t = 0), which is how a teacher-forced trace over BOS + target lays it out. Columns
outside `source_columns` (the appended </s>, padding) are not candidates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transformer_core.tasks.heldout import anti_diagonal_gold


def argmax_sources(attention: np.ndarray, n_source_words: int) -> np.ndarray:
    """For each row, the source word (column < n_source_words) with the most attention."""
    return np.asarray(attention)[:, :n_source_words].argmax(axis=-1)


def alignment_hits(attention: np.ndarray, gold: Sequence[Sequence[int]], n_source_words: int) -> tuple[int, int]:
    """(correct, scored) over target words with a gold alignment; unaligned words (empty) are skipped.

    attention: [T, S] with T >= len(gold); row t predicts target word t.
    gold[t]: the source word indices target word t comes from (any of them counts as correct).
    """
    attention = np.asarray(attention)
    if attention.shape[0] < len(gold):
        raise ValueError(f"{attention.shape[0]} attention rows for {len(gold)} target words")
    chosen = argmax_sources(attention[: len(gold)], n_source_words)
    correct = scored = 0
    for t, sources in enumerate(gold):
        if not sources:
            continue
        scored += 1
        correct += int(chosen[t] in sources)
    return correct, scored


def alignment_accuracy(attention: np.ndarray, gold: Sequence[Sequence[int]], n_source_words: int) -> float:
    """Share of aligned target words whose argmax source word is a gold one (nan if none is aligned)."""
    correct, scored = alignment_hits(attention, gold, n_source_words)
    return correct / scored if scored else float("nan")


def anti_diagonal_accuracy(attention: np.ndarray, n: int) -> float:
    """Share of the n output characters whose row's argmax is input character n - 1 - t."""
    return alignment_accuracy(attention, anti_diagonal_gold(n), n)

