"""What every figure builder shares: fonts and colour scales, unique token labels, the plotly config,
and the dict-based subplot grid and axis helpers (figures are plain dicts, wrapped once, validation off)."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from explorer.i18n import t

FONT_FAMILY = "Noto Sans CJK KR, Noto Sans KR, Noto Sans, Malgun Gothic, Apple SD Gothic Neo, sans-serif"
# Explicit colour lists: figures skip plotly.py's validation, which is what turns names like "RdBu_r"
# into colours (plotly.js alone knows only a few names and no "_r" reversals).
WEIGHT_SCALE = get_colorscale("Blues")
DIVERGING_SCALE = get_colorscale("RdBu_r")
DIFFERENCE_SCALE = get_colorscale("PiYG")
SEQUENTIAL_SCALE = get_colorscale("Viridis")
MASKED_COLOR = "#bdbdbd"
CELL_TEXT_LIMIT = 144  # draw per-cell text only on maps with at most this many cells (12 × 12)
CELL_TEXT_COLUMNS = 24  # ... and at most this many columns side by side across one row of panels
HOVER_TEXT_LIMIT = 40_000  # beyond this, hover shows the value without the "−∞" text layer
OVERVIEW_MAX_SIDE = 48  # the all-heads overview averages longer sequences down to this many cells


def plot_config(filename: str) -> dict:
    """plotly config for st.plotly_chart: the toolbar camera saves a PNG named `filename`."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in filename) or "figure"
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": safe, "scale": 2},
        "modeBarButtonsToRemove": ["select2d", "lasso2d"],
    }


def unique_labels(tokens: Sequence[str], escape: bool = True) -> list[str]:
    """Axis labels that never merge: repeated tokens get their position ("the·4"); spaces show as ␣.

    With `escape` (plotly), <, > and & become entities so a token is never read as plotly's pseudo-HTML.
    """
    shown = [tok.replace(" ", "␣") for tok in tokens]
    if escape:
        shown = [html.escape(s, quote=False) for s in shown]
    shown = [s if s else "∅" for s in shown]
    counts = Counter(shown)
    labels = [f"{s}·{i}" if counts[s] > 1 else s for i, s in enumerate(shown)]
    seen: set[str] = set()
    for i, label in enumerate(labels):  # a token that already looks like "x·3" could still collide
        while label in seen:
            label = f"{label}·{i}"
        labels[i] = label
        seen.add(label)
    return labels


# ------------------------------------------------------------------------------------------------
# Assembly: a dict-based subplot grid

def _axis_name(index: int, letter: str) -> tuple[str, str]:
    """(layout key, trace reference) of subplot `index`: (xaxis, x), (xaxis2, x2), ..."""
    suffix = "" if index == 0 else str(index + 1)
    return f"{letter}axis{suffix}", f"{letter}{suffix}"


def _domains(n: int, spacing: float, weights: Sequence[float] | None = None) -> list[tuple[float, float]]:
    """n intervals of [0, 1] separated by `spacing`, sized by `weights` (equal by default), in order."""
    weights = list(weights or [1.0] * n)
    usable = 1.0 - spacing * (n - 1)
    out, start = [], 0.0
    for w in weights:
        size = usable * w / sum(weights)
        out.append((start, min(1.0, start + size)))
        start += size + spacing
    return out


class _Grid:
    """Subplot cells in rows × cols, filled row by row from the top left; builds the layout dict."""

    def __init__(self, n_rows: int, n_cols: int, h_space: float = 0.04, v_space: float = 0.08,
                 row_weights: Sequence[float] | None = None, titles: Sequence[str] | None = None) -> None:
        self.n_rows, self.n_cols = n_rows, n_cols
        self.x_domains = _domains(n_cols, h_space)
        y_from_bottom = _domains(n_rows, v_space, list(reversed(row_weights)) if row_weights else None)
        self.y_domains = list(reversed(y_from_bottom))  # row 0 on top
        self.titles = list(titles or [])
        self.layout: dict = {"annotations": []}
        self.data: list[dict] = []

    def cell(self, index: int) -> tuple[tuple[float, float], tuple[float, float]]:
        return self.x_domains[index % self.n_cols], self.y_domains[index // self.n_cols]

    def add(self, index: int, trace: dict, xaxis: dict, yaxis: dict) -> None:
        """Put `trace` in cell `index` with its axes' properties (domains and anchors are added here)."""
        (x0, x1), (y0, y1) = self.cell(index)
        x_key, x_ref = _axis_name(index, "x")
        y_key, y_ref = _axis_name(index, "y")
        self.layout[x_key] = {"domain": [x0, x1], "anchor": y_ref, **xaxis}
        self.layout[y_key] = {"domain": [y0, y1], "anchor": x_ref, **yaxis}
        self.data.append({**trace, "xaxis": x_ref, "yaxis": y_ref})
        if index < len(self.titles) and self.titles[index]:
            self.layout["annotations"].append({
                "text": self.titles[index], "x": (x0 + x1) / 2, "y": y1, "xref": "paper", "yref": "paper",
                "xanchor": "center", "yanchor": "bottom", "showarrow": False, "font": {"size": 13},
            })

    def colorbar_x(self, col: int) -> float:
        return self.x_domains[col][1] + 0.005


def _figure(data: list[dict], layout: dict, title: str, height: int, bgcolor: str = MASKED_COLOR) -> go.Figure:
    layout = {
        **layout,
        "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 15}},
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "font": {"family": FONT_FAMILY, "size": 12},
        "plot_bgcolor": bgcolor,
        "paper_bgcolor": "white",
    }
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _x_category(title: str | None = None, labels: bool = True, matches: str | None = None) -> dict:
    axis = {"type": "category", "tickangle": -45, "automargin": True, "showgrid": False, "showticklabels": labels}
    if title:
        axis["title"] = {"text": title, "standoff": 8}
    if matches:
        axis["matches"] = matches
    return axis


def _y_category(title: str | None = None, labels: bool = True, matches: str | None = None,
                reverse: bool = True) -> dict:
    axis = {"type": "category", "automargin": True, "showgrid": False, "showticklabels": labels}
    if reverse:
        axis["autorange"] = "reversed"
    if title:
        axis["title"] = {"text": title, "standoff": 8}
    if matches:
        axis["matches"] = matches
    return axis


def _linear(title: str | None = None, **extra) -> dict:
    axis = {"automargin": True, "showgrid": False, "zeroline": False, **extra}
    if title:
        axis["title"] = {"text": title, "standoff": 6}
    return axis


def _hover(row_title: str, col_title: str, value_title: str, use_text: bool) -> str:
    value = "%{text}" if use_text else "%{z:.4f}"
    return f"{row_title}: %{{y}}<br>{col_title}: %{{x}}<br>{value_title}: {value}<extra></extra>"


def _value_text(z: np.ndarray, blocked: np.ndarray | None, fmt: str = "{:.3f}") -> list[list[str]]:
    blocked = np.zeros(z.shape, dtype=bool) if blocked is None else blocked
    return [["−∞" if b else fmt.format(v) for v, b in zip(row, brow, strict=True)]
            for row, brow in zip(z, blocked, strict=True)]


def _finite_bound(matrix: np.ndarray) -> float:
    z = np.asarray(matrix, dtype=np.float32)
    finite = z[np.isfinite(z)]
    return float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0


def attention_trace(matrix: np.ndarray, row_labels: list[str], col_labels: list[str], *, lang: str,
                    value_title: str | None = None, colorscale: list = WEIGHT_SCALE, zmin: float | None = 0.0,
                    zmax: float | None = 1.0, zmid: float | None = None, coloraxis: str | None = None,
                    row_title: str | None = None, col_title: str | None = None,
                    cell_text: bool | None = None) -> dict:
    """One heatmap trace (dict) of a [rows, cols] matrix; -inf cells become gaps whose hover reads "−∞"."""
    z = np.asarray(matrix, dtype=np.float32)
    blocked = np.isneginf(z)
    z = np.where(np.isfinite(z), z, np.nan).astype(np.float32)
    use_text = bool(blocked.any()) and z.size <= HOVER_TEXT_LIMIT
    show_cells = _cell_text(*z.shape) if cell_text is None else cell_text
    trace: dict = {
        "type": "heatmap", "z": z, "x": list(col_labels), "y": list(row_labels), "hoverongaps": True,
        "hovertemplate": _hover(row_title or t("fig.query", lang), col_title or t("fig.key", lang),
                                value_title or t("fig.weight", lang), use_text),
    }
    if use_text or show_cells:
        trace["text"] = _value_text(z, blocked, "{:.2f}")
    if show_cells:
        trace.update(texttemplate="%{text}", textfont={"size": 9})
    if coloraxis:
        trace["coloraxis"] = coloraxis
    else:
        trace.update(colorscale=colorscale, zmin=zmin, zmax=zmax)
        if zmid is not None:
            trace["zmid"] = zmid
    return trace


def _colorbar(title: str, x: float | None = None, length: float = 0.8, thickness: int = 10) -> dict:
    bar = {"title": {"text": title}, "len": length, "thickness": thickness}
    if x is not None:
        bar["x"] = x
    return bar


def _cell_text(n_rows: int, n_cols: int, panels_per_row: int = 1) -> bool:
    """Whether values fit as text inside the cells: few rows, and few columns across the figure's width."""
    return n_rows * n_cols <= CELL_TEXT_LIMIT and n_rows <= 14 and n_cols * panels_per_row <= CELL_TEXT_COLUMNS


def _map_height(n_rows: int, per_row: int = 26, minimum: int = 320, maximum: int = 900) -> int:
    return int(min(maximum, max(minimum, 140 + per_row * n_rows)))
