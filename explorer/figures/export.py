"""What is on screen as downloadable bytes: matrices (CSV, NPY) and figures (one self-contained, interactive
HTML file). Pure: arrays or figures in, bytes out."""

from __future__ import annotations

import html
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


def figures_html(figures: Sequence, title: str, lang: str = "ko") -> bytes:
    """One self-contained HTML page holding `figures` (plotly Figures, or their dicts): plotly.js is embedded
    once (no CDN, no network), so the file opens offline and every figure stays interactive (hover, zoom)."""
    import plotly.graph_objects as go
    from plotly.offline import get_plotlyjs

    divs = []
    for index, figure in enumerate(figures):
        figure = figure if isinstance(figure, go.Figure) else go.Figure(figure)
        divs.append(figure.to_html(full_html=False, include_plotlyjs=False, div_id=f"figure-{index}",
                                   config={"displaylogo": False, "responsive": True}))
    body = "\n".join(f'<section class="figure">{div}</section>' for div in divs)
    page = (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n"
            "<style>body{font-family:sans-serif;margin:1rem;max-width:1200px}section.figure{margin-bottom:2rem}</style>\n"
            f'<script type="text/javascript">{get_plotlyjs()}</script>\n</head>\n<body>\n'
            f"<h1>{html.escape(title)}</h1>\n{body}\n</body>\n</html>\n")
    return page.encode("utf-8")
