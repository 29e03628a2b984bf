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


def _row_js(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, bool]:
    """Per-row Jensen-Shannon divergence (bits, in [0, 1]) of the rows where both matrices hold a distribution."""
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if p.shape != q.shape:
        raise ValueError(f"shapes differ: {p.shape} vs {q.shape}")
    valid = valid_rows(p) & valid_rows(q)
    if not valid.any():
        return np.zeros(0), False
    p, q = p[valid], q[valid]
    m = 0.5 * (p + q)

    def kl(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.where(x > 0, x * np.log2(np.clip(x, _EPS, None) / np.clip(y, _EPS, None)), 0.0).sum(axis=-1)

    return np.clip(0.5 * kl(p, m) + 0.5 * kl(q, m), 0.0, 1.0), True


def js_divergence(p: np.ndarray, q: np.ndarray) -> float:
    """Mean over rows of the Jensen-Shannon divergence (bits, in [0, 1]) between two weight matrices.

    Rows where either matrix has no distribution are skipped.
    """
    js, any_valid = _row_js(p, q)
    return float(js.mean()) if any_valid else float("nan")


def js_distance(p: np.ndarray, q: np.ndarray) -> float:
    """Mean over rows of the Jensen-Shannon distance √JS (log base 2, in [0, 1]): the measure /corpus uses too."""
    js, any_valid = _row_js(p, q)
    return float(np.sqrt(js).mean()) if any_valid else float("nan")


SIMILARITY_MAX_SIDE = 64  # longer sequences are compared on block-averaged maps (rows renormalised)


def _coarsen(maps: np.ndarray, max_side: int) -> np.ndarray:
    """[N, Tq, Tk] -> at most [N, max_side, max_side] by averaging blocks; rows still sum to 1 (or 0)."""
    out = np.asarray(maps, dtype=np.float64)
    for axis in (1, 2):
        n = out.shape[axis]
        if n > max_side:
            edges = np.linspace(0, n, max_side + 1).astype(int)[:-1]
            out = np.add.reduceat(out, edges, axis=axis)  # sums: columns keep the row mass, rows add up
    totals = out.sum(axis=-1, keepdims=True)
    return np.divide(out, totals, out=np.zeros_like(out), where=totals > _EPS)


def similarity_matrix(maps: np.ndarray) -> np.ndarray:
    """[N, Tq, Tk] heads -> [N, N] similarity 1 - JS distance (√ of the JS divergence, log base 2, mean over query
    rows; 1 = identical): the measure and the name /corpus uses for its profiles.

    Vectorised one head against all others; maps longer than SIMILARITY_MAX_SIDE are compared on
    block-averaged copies so a 512-token paragraph stays interactive.
    """
    p_all = _coarsen(maps, SIMILARITY_MAX_SIDE)
    n = p_all.shape[0]
    valid = p_all.sum(axis=-1) > _EPS  # [N, Tq]
    logs = np.log2(np.clip(p_all, _EPS, None))
    sim = np.ones((n, n), dtype=np.float32)
    for i in range(n - 1):
        p, q = p_all[i][None], p_all[i + 1:]
        m = 0.5 * (p + q)
        log_m = np.log2(np.clip(m, _EPS, None))
        kl_p = np.where(p > 0, p * (logs[i][None] - log_m), 0.0).sum(axis=-1)
        kl_q = np.where(q > 0, q * (logs[i + 1:] - log_m), 0.0).sum(axis=-1)
        js = np.sqrt(np.clip(0.5 * (kl_p + kl_q), 0.0, 1.0))  # [N-i-1, Tq]: JS distance per row
        both = valid[i][None] & valid[i + 1:]
        mean = np.where(both.any(axis=-1), (js * both).sum(axis=-1) / np.maximum(both.sum(axis=-1), 1), np.nan)
        sim[i, i + 1:] = sim[i + 1:, i] = 1.0 - mean
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


def stats_table(heads: list[tuple[str, int, int, np.ndarray, np.ndarray]], columns: dict[str, str],
                importance: list[float | None] | None = None,
                extra: dict[str, list] | None = None) -> pd.DataFrame:
    """One row per head: (kind label, layer, head, weights [Tq,Tk], special key mask [Tk]).

    `columns` maps 'kind', 'layer', 'head' and every STAT_FIELDS name to a column title (and 'importance'
    when `importance` is given: one value per head, e.g. the exact-match drop when it is switched off).
    `extra`: more columns, title -> one value per head (e.g. the behaviour over a corpus, /corpus).
    """
    records = []
    for index, (kind, layer, head, weights, special_keys) in enumerate(heads):
        stats = head_stats(weights, special_keys)
        record = {columns["kind"]: kind, columns["layer"]: layer, columns["head"]: head}
        record.update({columns[f]: round(getattr(stats, f), 4) for f in STAT_FIELDS})
        if importance is not None:
            record[columns["importance"]] = importance[index]
        for title, values in (extra or {}).items():
            record[title] = values[index]
        records.append(record)
    return pd.DataFrame.from_records(records)
