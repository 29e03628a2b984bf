"""Head statistics on hand-made attention matrices whose answers are known by construction."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.figures import head_stats as hs


def identity(n: int) -> np.ndarray:
    return np.eye(n, dtype=np.float32)


def previous(n: int) -> np.ndarray:
    """Query i looks only at key i-1 (query 0 at itself)."""
    a = np.zeros((n, n), dtype=np.float32)
    a[0, 0] = 1.0
    for i in range(1, n):
        a[i, i - 1] = 1.0
    return a


def anti(n: int) -> np.ndarray:
    return np.eye(n, dtype=np.float32)[::-1].copy()


def uniform(rows: int, cols: int) -> np.ndarray:
    return np.full((rows, cols), 1.0 / cols, dtype=np.float32)


def test_entropy_of_one_hot_rows_is_zero_and_of_uniform_rows_is_log2_n():
    assert hs.entropy(identity(5)) == pytest.approx(0.0, abs=1e-9)
    assert hs.entropy(uniform(3, 8)) == pytest.approx(3.0, rel=1e-6)
    half = np.array([[0.5, 0.5, 0.0]], dtype=np.float32)
    assert hs.entropy(half) == pytest.approx(1.0)


def test_mean_attention_distance():
    assert hs.mean_attention_distance(identity(4)) == pytest.approx(0.0)
    assert hs.mean_attention_distance(previous(5)) == pytest.approx(4 / 5)  # rows 1..4 look 1 back, row 0 at 0
    # uniform over 3 keys: row 0 -> (0+1+2)/3, row 1 -> (1+0+1)/3, row 2 -> (2+1+0)/3
    assert hs.mean_attention_distance(uniform(3, 3)) == pytest.approx((1 + 2 / 3 + 1) / 3)


def test_diagonal_previous_and_anti_diagonal_scores():
    assert hs.diagonal_score(identity(6)) == pytest.approx(1.0)
    assert hs.previous_token_score(identity(6)) == pytest.approx(0.0)
    assert hs.previous_token_score(previous(6)) == pytest.approx(1.0)
    assert hs.diagonal_score(previous(6)) == pytest.approx(1 / 6)  # only row 0 sits on the diagonal
    assert hs.anti_diagonal_score(anti(5)) == pytest.approx(1.0)
    assert hs.anti_diagonal_score(identity(4)) == pytest.approx(0.0)
    assert hs.diagonal_score(uniform(4, 4)) == pytest.approx(0.25)


def test_special_share():
    a = np.array([[0.7, 0.3, 0.0], [0.2, 0.2, 0.6]], dtype=np.float32)
    specials = np.array([True, False, True])
    assert hs.special_share(a, specials) == pytest.approx((0.7 + 0.8) / 2)
    assert hs.special_share(a, np.array([False, False, False])) == pytest.approx(0.0)


def test_fully_masked_rows_are_left_out_of_averages():
    a = np.array([[1.0, 0.0], [0.0, 0.0]], dtype=np.float32)  # row 1: every key blocked
    assert hs.valid_rows(a).tolist() == [True, False]
    assert hs.diagonal_score(a) == pytest.approx(1.0)
    assert hs.entropy(a) == pytest.approx(0.0)
    assert math.isnan(hs.entropy(np.zeros((2, 2), dtype=np.float32)))


def test_causal_map_statistics():
    """A decoder-style causal uniform map: row i spreads evenly over keys 0..i."""
    n = 4
    a = np.tril(np.ones((n, n), dtype=np.float32))
    a /= a.sum(axis=1, keepdims=True)
    assert hs.entropy(a) == pytest.approx(np.mean([math.log2(i + 1) for i in range(n)]))
    assert hs.diagonal_score(a) == pytest.approx(np.mean([1 / (i + 1) for i in range(n)]))
    assert hs.previous_token_score(a) == pytest.approx(np.mean([1 / (i + 1) for i in range(1, n)]))


def test_drop_and_renormalise_removes_rows_and_columns_and_rows_sum_to_one():
    a = np.array([[0.5, 0.25, 0.25], [0.1, 0.6, 0.3], [0.0, 0.0, 1.0]], dtype=np.float32)
    keep_q = np.array([True, True, False])
    keep_k = np.array([False, True, True])
    out = hs.drop_and_renormalise(a, keep_q, keep_k)
    assert out.shape == (2, 2)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.5, 0.5], [2 / 3, 1 / 3]], rtol=1e-6)
    # a row whose remaining keys carry no mass stays zero instead of dividing by zero
    b = np.array([[1.0, 0.0], [0.5, 0.5]], dtype=np.float32)
    np.testing.assert_allclose(hs.drop_and_renormalise(b, np.array([True, True]), np.array([False, True])),
                               [[0.0], [1.0]])
    # works on a stack [L, H, T, S]
    stack = np.stack([np.stack([a, a])] * 3)
    assert hs.drop_and_renormalise(stack, keep_q, keep_k).shape == (3, 2, 2, 2)


def test_js_divergence_bounds_and_similarity_matrix():
    assert hs.js_divergence(identity(3), identity(3)) == pytest.approx(0.0, abs=1e-9)
    # identity vs previous-token: row 0 is the same, rows 1 and 2 are disjoint -> (0 + 1 + 1) / 3
    assert hs.js_divergence(identity(3), previous(3)) == pytest.approx(2 / 3)
    disjoint_a = np.array([[1.0, 0.0]], dtype=np.float32)
    disjoint_b = np.array([[0.0, 1.0]], dtype=np.float32)
    assert hs.js_divergence(disjoint_a, disjoint_b) == pytest.approx(1.0)
    assert hs.js_divergence(disjoint_a, disjoint_b) == pytest.approx(hs.js_divergence(disjoint_b, disjoint_a))
    # p = (1, 0), q = (.5, .5), m = (.75, .25): JS = (KL(p||m) + KL(q||m)) / 2, written out
    p, q = np.array([1.0, 0.0]), np.array([0.5, 0.5])
    expected = 0.5 * (1.0 * math.log2(1.0 / 0.75)) + 0.5 * (0.5 * math.log2(0.5 / 0.75) + 0.5 * math.log2(0.5 / 0.25))
    assert hs.js_divergence(p[None], q[None]) == pytest.approx(expected)
    with pytest.raises(ValueError):
        hs.js_divergence(identity(2), identity(3))
    # the JS distance is the square root of the divergence, row by row (as /corpus measures its profiles)
    rows = np.array([[1.0, 0.0], [0.5, 0.5]]), np.array([[0.5, 0.5], [0.5, 0.5]])
    assert hs.js_distance(*rows) == pytest.approx((math.sqrt(expected) + 0.0) / 2)
    sim = hs.similarity_matrix(np.stack([identity(3), identity(3), anti(3)]))
    assert sim.shape == (3, 3)
    np.testing.assert_allclose(np.diag(sim), 1.0)
    assert sim[0, 1] == pytest.approx(1.0)
    assert sim[0, 2] == pytest.approx(sim[2, 0])
    # identity vs anti-diagonal: rows 0 and 2 disjoint (JS 1), row 1 the same (JS 0): 1 - 2/3
    assert sim[0, 2] == pytest.approx(1 / 3, abs=1e-6)


def test_stats_table_has_one_row_per_head_and_named_columns():
    columns = {name: name.upper() for name in ("kind", "layer", "head", *hs.STAT_FIELDS)}
    heads = [("enc", 0, 0, identity(3), np.array([False, False, True])),
             ("enc", 0, 1, previous(3), np.array([False, False, True]))]
    table = hs.stats_table(heads, columns)
    assert list(table.columns) == list(columns.values())
    assert len(table) == 2
    assert table.loc[0, "DIAGONAL"] == pytest.approx(1.0)
    assert table.loc[1, "PREVIOUS"] == pytest.approx(1.0)
    assert table.loc[0, "SPECIAL"] == pytest.approx(1 / 3, abs=1e-4)  # the table rounds to 4 places


def test_similarity_matrix_matches_pairwise_js_and_stays_fast_on_long_inputs():

    rng = np.random.default_rng(0)
    logits = rng.normal(size=(6, 9, 9))
    maps = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    sim = hs.similarity_matrix(maps)
    for i in range(6):
        for j in range(6):
            assert sim[i, j] == pytest.approx(1.0 - hs.js_distance(maps[i], maps[j]), abs=1e-5)
    long = rng.random((48, 300, 300)).astype(np.float32)
    long /= long.sum(axis=-1, keepdims=True)
    big = hs.similarity_matrix(long)  # its speed on the page's size: benchmarks/corpus_heads.py, not a wall clock here
    assert big.shape == (48, 48) and np.allclose(np.diag(big), 1.0)
    assert np.allclose(big, big.T) and ((big >= 0) & (big <= 1 + 1e-6)).all()  # long maps are block-averaged first


def exact_similarity(maps: np.ndarray) -> np.ndarray:
    """1 - JS distance of every pair, computed pair by pair on the maps as given (no shortcut)."""
    n = len(maps)
    return np.array([[1.0 - hs.js_distance(maps[i], maps[j]) for j in range(n)] for i in range(n)])


def test_long_input_shortcut_equals_the_exact_similarity_where_blocks_are_uniform():
    """Maps of 128 tokens that are constant on 2x2 blocks lose nothing when coarsened to 64: the shortcut
    must give exactly the pairwise JS of the full maps."""
    side = 2 * hs.SIMILARITY_MAX_SIDE
    rng = np.random.default_rng(3)
    small = rng.random((4, side // 2, side // 2)) ** 4  # peaked rows, so heads differ clearly
    small /= small.sum(axis=-1, keepdims=True)
    maps = np.repeat(np.repeat(small, 2, axis=1), 2, axis=2) / 2  # each row still sums to 1
    exact = exact_similarity(maps)
    assert exact.min() < 0.9  # the heads really differ
    np.testing.assert_allclose(hs.similarity_matrix(maps), exact, atol=1e-5)


def test_long_input_shortcut_averages_blocks_of_both_queries_and_keys():
    """On arbitrary 128-token maps the shortcut equals the exact pairwise JS of the maps coarsened here by
    hand (2x2 block sums, rows renormalised): queries AND keys are merged, nothing else."""
    side = 2 * hs.SIMILARITY_MAX_SIDE
    rng = np.random.default_rng(4)
    maps = rng.random((4, side, side)) ** 4
    maps /= maps.sum(axis=-1, keepdims=True)
    blocks = maps.reshape(4, side // 2, 2, side // 2, 2).sum(axis=(2, 4))
    blocks /= blocks.sum(axis=-1, keepdims=True)
    shortcut = hs.similarity_matrix(maps)
    np.testing.assert_allclose(shortcut, exact_similarity(blocks), atol=1e-5)
    # Coarsening can only hide differences (JS is jointly convex): never less similar than the exact value.
    assert np.all(shortcut >= exact_similarity(maps) - 1e-6)
