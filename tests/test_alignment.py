"""The alignment metrics on hand-made attention matrices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_core.analysis.alignment import (
    alignment_accuracy,
    alignment_hits,
    anti_diagonal_accuracy,
    argmax_sources,
)
from transformer_core.tasks.heldout import anti_diagonal_gold


def one_hot_rows(columns: list[int], n_columns: int) -> np.ndarray:
    matrix = np.full((len(columns), n_columns), 0.01)
    for row, column in enumerate(columns):
        matrix[row, column] = 0.9
    return matrix


def test_argmax_ignores_columns_past_the_source_words():
    attention = np.array([[0.1, 0.2, 0.7],  # the largest weight is on the EOS column (2)
                          [0.5, 0.3, 0.2]])
    assert argmax_sources(attention, n_source_words=2).tolist() == [1, 0]


def test_perfect_alignment_scores_one():
    # Korean: 고양이가(0) 생선을(1) 먹는다(2) .(3) </s>(4);  English: A cat eats fish .
    gold = [(), (0,), (2,), (1,), (3,)]
    attention = one_hot_rows([4, 0, 2, 1, 3], n_columns=5)  # row 0 ("A") looks at EOS: not scored
    assert alignment_hits(attention, gold, n_source_words=4) == (4, 4)
    assert alignment_accuracy(attention, gold, n_source_words=4) == 1.0


def test_one_wrong_word_of_four():
    gold = [(), (0,), (2,), (1,), (3,)]
    attention = one_hot_rows([0, 0, 1, 1, 3], n_columns=5)  # "eats" row points at 생선을
    assert alignment_hits(attention, gold, n_source_words=4) == (3, 4)
    assert alignment_accuracy(attention, gold, n_source_words=4) == pytest.approx(0.75)


def test_any_of_several_gold_words_counts():
    gold = [(0, 2)]
    assert alignment_accuracy(one_hot_rows([2], 3), gold, 3) == 1.0
    assert alignment_accuracy(one_hot_rows([1], 3), gold, 3) == 0.0


def test_no_aligned_word_gives_nan_and_extra_rows_are_ignored():
    assert math.isnan(alignment_accuracy(one_hot_rows([0, 1], 2), [(), ()], 2))
    attention = one_hot_rows([1, 0, 0], 3)  # a third row (the EOS-predicting row) is not scored
    assert alignment_hits(attention, [(1,), (0,)], 2) == (2, 2)


def test_too_few_rows_is_an_error():
    with pytest.raises(ValueError):
        alignment_hits(np.ones((1, 3)), [(0,), (1,)], 3)


def test_anti_diagonal():
    assert anti_diagonal_gold(3) == [(2,), (1,), (0,)]
    n = 5
    perfect = np.fliplr(np.eye(n))
    perfect = np.concatenate([perfect, np.zeros((n, 1))], axis=1)  # + the EOS column
    assert anti_diagonal_accuracy(perfect, n) == 1.0
    diagonal = np.concatenate([np.eye(n), np.zeros((n, 1))], axis=1)  # copying, not reversing
    assert anti_diagonal_accuracy(diagonal, n) == pytest.approx(1 / 5)  # only the middle character agrees


def test_head_average_can_differ_from_single_heads():
    gold = [(0,), (1,)]
    head_a = np.array([[0.6, 0.4], [0.6, 0.4]])  # right on row 0 only
    head_b = np.array([[0.3, 0.7], [0.1, 0.9]])  # right on row 1 only
    assert alignment_accuracy(head_a, gold, 2) == 0.5
    assert alignment_accuracy(head_b, gold, 2) == 0.5
    assert alignment_accuracy((head_a + head_b) / 2, gold, 2) == 0.5  # row 0: 0.45 vs 0.55 -> wrong
