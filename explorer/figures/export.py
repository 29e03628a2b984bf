"""The attention matrices on screen as downloadable bytes (CSV, NPY). Pure: arrays in, bytes out."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import pandas as pd


def npy_bytes(array: np.ndarray) -> bytes:
    """numpy's .npy format, float32 (np.load reads it back exactly)."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array, dtype=np.float32))
    return buffer.getvalue()


def matrix_csv(matrix: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str]) -> bytes:
    """A [rows, cols] matrix as CSV with the token labels as header and index (−∞ is written -inf)."""
    frame = pd.DataFrame(np.asarray(matrix, dtype=np.float32), index=list(row_labels), columns=list(col_labels))
    return frame.to_csv().encode("utf-8")


def stack_csv(maps: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str],
              head_labels: Sequence[str] | None = None) -> bytes:
    """[N, rows, cols] maps (e.g. every head of a layer) as long-format CSV: head, query, key, weight."""
    maps = np.asarray(maps, dtype=np.float32)
    n, rows, cols = maps.shape
    heads = list(head_labels or [str(h) for h in range(n)])
    frame = pd.DataFrame({
        "head": np.repeat(heads, rows * cols),
        "query": np.tile(np.repeat(list(row_labels), cols), n),
        "key": np.tile(list(col_labels), n * rows),
        "weight": maps.reshape(-1),
    })
    return frame.to_csv(index=False).encode("utf-8")
