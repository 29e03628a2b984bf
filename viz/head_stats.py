"""Per-head attention statistics: small pure functions on one [queries, keys] weight matrix.

Convention: row i is query i's distribution over keys (sums to 1). A row that sums to 0 (every
key blocked) carries no distribution and is left out of every average.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

_EPS = 1e-12


def valid_rows(weights: np.ndarray) -> np.ndarray:
    """Bool [Tq]: rows that hold a distribution (sum > 0)."""
    return np.asarray(weights, dtype=np.float64).sum(axis=-1) > _EPS


def _mean_over_valid(values: np.ndarray, valid: np.ndarray) -> float:
    return float(values[valid].mean()) if valid.any() else float("nan")


def entropy(weights: np.ndarray) -> float:
    """Mean row entropy in bits: 0 = each query looks at one key, log2(n) = uniform over n keys."""
    a = np.asarray(weights, dtype=np.float64)
    terms = np.where(a > 0, -a * np.log2(np.clip(a, _EPS, None)), 0.0)
    return _mean_over_valid(terms.sum(axis=-1), valid_rows(a))


def mean_attention_distance(weights: np.ndarray) -> float:
    """Mean over queries of sum_j a_ij |i - j|: how far (in positions) a head looks."""
    a = np.asarray(weights, dtype=np.float64)
    rows, cols = np.indices(a.shape)
    return _mean_over_valid((a * np.abs(rows - cols)).sum(axis=-1), valid_rows(a))


def special_share(weights: np.ndarray, special_keys: np.ndarray) -> float:
    """Mean over queries of the attention mass on special-token keys ([BOS], [EOS], [CLS], ...)."""
    a = np.asarray(weights, dtype=np.float64)
    mask = np.asarray(special_keys, dtype=bool)
    return _mean_over_valid(a[:, mask].sum(axis=-1), valid_rows(a))


def _offset_score(a: np.ndarray, key_of_query) -> float:
    """Mean of a[i, key_of_query(i)] over valid queries whose key index exists."""
    valid = valid_rows(a)
    values = []
    for i in range(a.shape[0]):
        j = key_of_query(i)
        if valid[i] and 0 <= j < a.shape[1]:
            values.append(a[i, j])
    return float(np.mean(values)) if values else float("nan")


def diagonal_score(weights: np.ndarray) -> float:
    """Mean a_ii: attention of each query to its own position."""
    return _offset_score(np.asarray(weights, dtype=np.float64), lambda i: i)


def previous_token_score(weights: np.ndarray) -> float:
    """Mean a_{i,i-1} over queries i >= 1: attention to the previous position."""
    return _offset_score(np.asarray(weights, dtype=np.float64), lambda i: i - 1 if i >= 1 else -1)


def anti_diagonal_score(weights: np.ndarray) -> float:
    """Mean a_{i, n_keys-1-i}: attention to the mirrored position (string reversal heads)."""
    a = np.asarray(weights, dtype=np.float64)
    return _offset_score(a, lambda i: a.shape[1] - 1 - i)


def drop_and_renormalise(weights: np.ndarray, keep_queries: np.ndarray, keep_keys: np.ndarray) -> np.ndarray:
    """Remove query rows and key columns (e.g. special tokens), then rescale each row to sum 1.

    Works on [..., Tq, Tk]. Rows left with no mass stay all zero.
    """
    a = np.asarray(weights, dtype=np.float32)
    a = a[..., np.asarray(keep_queries, dtype=bool), :][..., np.asarray(keep_keys, dtype=bool)]
    totals = a.sum(axis=-1, keepdims=True)
    return np.divide(a, totals, out=np.zeros_like(a), where=totals > _EPS).astype(np.float32)


def js_divergence(p: np.ndarray, q: np.ndarray) -> float:
    """Mean over rows of the Jensen-Shannon divergence (bits, in [0, 1]) between two weight matrices.

    Rows where either matrix has no distribution are skipped.
    """
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if p.shape != q.shape:
        raise ValueError(f"shapes differ: {p.shape} vs {q.shape}")
    valid = valid_rows(p) & valid_rows(q)
    if not valid.any():
        return float("nan")
    p, q = p[valid], q[valid]
    m = 0.5 * (p + q)

    def kl(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.where(x > 0, x * np.log2(np.clip(x, _EPS, None) / np.clip(y, _EPS, None)), 0.0).sum(axis=-1)

    return float(np.clip(0.5 * kl(p, m) + 0.5 * kl(q, m), 0.0, 1.0).mean())


def similarity_matrix(maps: np.ndarray) -> np.ndarray:
    """[N, Tq, Tk] heads -> [N, N] similarity 1 - JS divergence (1 = identical patterns)."""
    n = maps.shape[0]
    sim = np.ones((n, n), dtype=np.float32)
    for i in range(n):
        for j in range(i + 1, n):
            sim[i, j] = sim[j, i] = 1.0 - js_divergence(maps[i], maps[j])
    return sim


@dataclass(frozen=True)
class HeadStats:
    entropy: float
    distance: float
    special: float
    diagonal: float
    previous: float
    anti_diagonal: float


def head_stats(weights: np.ndarray, special_keys: np.ndarray) -> HeadStats:
    """Every statistic of one head's [Tq, Tk] map."""
    return HeadStats(
        entropy=entropy(weights),
        distance=mean_attention_distance(weights),
        special=special_share(weights, special_keys) if np.asarray(special_keys).any() else 0.0,
        diagonal=diagonal_score(weights),
        previous=previous_token_score(weights),
        anti_diagonal=anti_diagonal_score(weights),
    )


STAT_FIELDS = ("entropy", "distance", "special", "diagonal", "previous", "anti_diagonal")


def stats_table(heads: list[tuple[str, int, int, np.ndarray, np.ndarray]], columns: dict[str, str]) -> pd.DataFrame:
    """One row per head: (kind label, layer, head, weights [Tq,Tk], special key mask [Tk]).

    `columns` maps 'kind', 'layer', 'head' and every STAT_FIELDS name to a column title.
    """
    records = []
    for kind, layer, head, weights, special_keys in heads:
        stats = head_stats(weights, special_keys)
        record = {columns["kind"]: kind, columns["layer"]: layer, columns["head"]: head}
        record.update({columns[f]: round(getattr(stats, f), 4) for f in STAT_FIELDS})
        records.append(record)
    return pd.DataFrame.from_records(records)
