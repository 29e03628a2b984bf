"""Pure figure builders: numpy arrays + token strings in, plotly Figures out. No streamlit here.

Conventions used by every attention map: rows = queries (y axis, first token on top), columns =
keys (x axis); both axes are categorical and labelled with unique token labels (`unique_labels`);
hovering a cell shows the query, the key and the value. Large maps stay one heatmap trace each
(one image in the browser); per-cell text is only drawn for small maps.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .i18n import t

FONT_FAMILY = "Noto Sans CJK KR, Noto Sans KR, Noto Sans, Malgun Gothic, Apple SD Gothic Neo, sans-serif"
WEIGHT_SCALE = "Blues"
DIVERGING_SCALE = "RdBu_r"
MASKED_COLOR = "#bdbdbd"
CELL_TEXT_LIMIT = 144  # draw per-cell text only on maps with at most this many cells (12 × 12)
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


def _base_layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 15}},
        height=height,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        font={"family": FONT_FAMILY, "size": 12},
        plot_bgcolor=MASKED_COLOR,
    )
    fig.update_xaxes(automargin=True, title_standoff=8)
    fig.update_yaxes(automargin=True, title_standoff=8)
    return fig


def _category_axes(fig: go.Figure, reverse_y: bool = True) -> None:
    fig.update_xaxes(type="category", tickangle=-45, automargin=True, showgrid=False, title_standoff=8)
    fig.update_yaxes(type="category", automargin=True, showgrid=False, title_standoff=8,
                     autorange="reversed" if reverse_y else True)


def _colorbar_x(index: int, n: int, spacing: float) -> float:
    """Paper x just right of panel `index` of `n` equal panels separated by `spacing`."""
    width = (1.0 - spacing * (n - 1)) / n
    return index * (width + spacing) + width + 0.005


def _hover(row_title: str, col_title: str, value_title: str, use_text: bool) -> str:
    value = "%{text}" if use_text else "%{z:.4f}"
    return f"{row_title}: %{{y}}<br>{col_title}: %{{x}}<br>{value_title}: {value}<extra></extra>"


def _value_text(z: np.ndarray, blocked: np.ndarray | None, fmt: str = "{:.3f}") -> list[list[str]]:
    blocked = np.zeros(z.shape, dtype=bool) if blocked is None else blocked
    return [["−∞" if b else fmt.format(v) for v, b in zip(row, brow, strict=True)]
            for row, brow in zip(z, blocked, strict=True)]


def attention_trace(matrix: np.ndarray, row_labels: list[str], col_labels: list[str], *, lang: str,
                    value_title: str | None = None, colorscale: str = WEIGHT_SCALE, zmin: float | None = 0.0,
                    zmax: float | None = 1.0, zmid: float | None = None, coloraxis: str | None = None,
                    row_title: str | None = None, col_title: str | None = None,
                    cell_text: bool | None = None) -> go.Heatmap:
    """One heatmap trace of a [rows, cols] matrix; -inf cells become gaps whose hover reads "−∞"."""
    z = np.asarray(matrix, dtype=np.float32)
    blocked = np.isneginf(z)
    z = np.where(np.isfinite(z), z, np.nan).astype(np.float32)
    n_cells = z.size
    use_text = bool(blocked.any()) and n_cells <= HOVER_TEXT_LIMIT
    show_cells = (n_cells <= CELL_TEXT_LIMIT) if cell_text is None else cell_text
    text = _value_text(z, blocked, "{:.2f}") if (use_text or show_cells) else None
    kwargs: dict = {}
    if coloraxis:
        kwargs["coloraxis"] = coloraxis
    else:
        kwargs.update(colorscale=colorscale, zmin=zmin, zmax=zmax, zmid=zmid)
    return go.Heatmap(
        z=z, x=col_labels, y=row_labels, text=text,
        texttemplate="%{text}" if show_cells and text is not None else None,
        textfont={"size": 9},
        hovertemplate=_hover(row_title or t("fig.query", lang), col_title or t("fig.key", lang),
                             value_title or t("fig.weight", lang), use_text),
        hoverongaps=True, xgap=0, ygap=0, **kwargs,
    )


def attention_heatmap(matrix: np.ndarray, row_tokens: Sequence[str], col_tokens: Sequence[str], *, title: str,
                      lang: str, value_title: str | None = None, diverging: bool = False,
                      row_title: str | None = None, col_title: str | None = None) -> go.Figure:
    """A single labelled [queries, keys] map (weights 0..1, or scores on a diverging scale)."""
    z = np.asarray(matrix, dtype=np.float32)
    finite = z[np.isfinite(z)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    trace = attention_trace(
        z, unique_labels(row_tokens), unique_labels(col_tokens), lang=lang, value_title=value_title,
        colorscale=DIVERGING_SCALE if diverging else WEIGHT_SCALE,
        zmin=-bound if diverging else 0.0, zmax=bound if diverging else 1.0, zmid=0.0 if diverging else None,
        row_title=row_title, col_title=col_title,
    )
    fig = go.Figure(trace)
    _category_axes(fig)
    fig.update_xaxes(title_text=col_title or t("fig.key_axis", lang))
    fig.update_yaxes(title_text=row_title or t("fig.query_axis", lang))
    return _base_layout(fig, title, _map_height(len(row_tokens)))


def _map_height(n_rows: int, per_row: int = 26, minimum: int = 320, maximum: int = 900) -> int:
    return int(min(maximum, max(minimum, 140 + per_row * n_rows)))


def heads_grid(weights: np.ndarray, row_tokens: Sequence[str], col_tokens: Sequence[str], *, title: str,
               lang: str, panel_titles: Sequence[str] | None = None, n_cols: int = 4,
               value_title: str | None = None, diverging: bool = False,
               row_title: str | None = None, col_title: str | None = None) -> go.Figure:
    """[N, Tq, Tk] maps as N subplots of ONE figure with a shared colour scale (one chart, N images)."""
    maps = np.asarray(weights, dtype=np.float32)
    n = maps.shape[0]
    n_cols = max(1, min(n_cols, n))
    n_rows = math.ceil(n / n_cols)
    panel_titles = list(panel_titles or [t("fig.head_n", lang, head=h) for h in range(n)])
    # Shared axes: token labels on the outer panels only (hover names every cell), so titles never collide.
    per_panel = max(200, min(340, 90 + 18 * maps.shape[1]))
    height = 80 + per_panel * n_rows + 60
    fig = make_subplots(rows=n_rows, cols=n_cols, subplot_titles=panel_titles, shared_xaxes=True, shared_yaxes=True,
                        horizontal_spacing=0.02, vertical_spacing=min(0.3, 40 / height * n_rows / max(n_rows - 1, 1)))
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    small = maps.shape[1] * maps.shape[2] <= 100
    for index in range(n):
        fig.add_trace(
            attention_trace(maps[index], rows, cols, lang=lang, value_title=value_title, coloraxis="coloraxis",
                            row_title=row_title, col_title=col_title, cell_text=small and n <= 4),
            row=index // n_cols + 1, col=index % n_cols + 1,
        )
    finite = maps[np.isfinite(maps)]
    if diverging:
        bound = float(np.abs(finite).max()) if finite.size else 1.0
        fig.update_layout(coloraxis={"colorscale": DIVERGING_SCALE, "cmin": -bound, "cmax": bound, "cmid": 0.0})
    else:
        fig.update_layout(coloraxis={"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0})
    fig.update_layout(coloraxis_colorbar={"title": {"text": value_title or t("fig.weight", lang)}, "len": 0.8})
    _category_axes(fig)
    fig.update_xaxes(tickfont={"size": 10})
    fig.update_yaxes(tickfont={"size": 10})
    fig.update_xaxes(title_text=col_title or t("fig.key_axis", lang), row=n_rows)
    fig.update_yaxes(title_text=row_title or t("fig.query_axis", lang), col=1)
    return _base_layout(fig, title, height)


def masking_steps(causal: np.ndarray, scores: np.ndarray, masked: np.ndarray, weights: np.ndarray,
                  row_tokens: Sequence[str], col_tokens: Sequence[str], *, title: str, lang: str) -> go.Figure:
    """Causal mask -> scores -> masked scores (−∞) -> softmax weights: four panels of one figure."""
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    fig = make_subplots(rows=1, cols=4, horizontal_spacing=0.06, shared_yaxes=True, subplot_titles=[
        t("fig.mask_panel", lang), t("fig.scores_panel", lang), t("fig.masked_panel", lang),
        t("fig.weights_panel", lang)])
    mask_z = np.asarray(causal, dtype=np.float32)
    mask_text = [[t("fig.allowed", lang) if v else t("fig.blocked", lang) for v in row] for row in causal]
    fig.add_trace(go.Heatmap(
        z=mask_z, x=cols, y=rows, text=mask_text, colorscale=[[0, "#424242"], [1, "#c8e6c9"]], zmin=0, zmax=1,
        showscale=False, hovertemplate=_hover(t("fig.query", lang), t("fig.key", lang), t("fig.mask", lang), True),
    ), row=1, col=1)
    finite = np.asarray(scores, dtype=np.float32)
    bound = float(np.abs(finite[np.isfinite(finite)]).max()) if np.isfinite(finite).any() else 1.0
    for col, matrix in ((2, scores), (3, masked)):
        trace = attention_trace(matrix, rows, cols, lang=lang, value_title=t("fig.score", lang),
                                colorscale=DIVERGING_SCALE, zmin=-bound, zmax=bound, zmid=0.0)
        trace.update(showscale=col == 3, colorbar={"x": _colorbar_x(2, 4, 0.06), "len": 0.8, "thickness": 10,
                                                    "title": {"text": t("fig.score", lang)}})
        fig.add_trace(trace, row=1, col=col)
    weights_trace = attention_trace(weights, rows, cols, lang=lang)
    weights_trace.update(colorbar={"len": 0.8, "thickness": 10, "title": {"text": t("fig.weight", lang)}})
    fig.add_trace(weights_trace, row=1, col=4)
    _category_axes(fig)
    fig.update_xaxes(title_text=t("fig.key_axis", lang))
    fig.update_yaxes(title_text=t("fig.query_axis", lang), col=1)
    return _base_layout(fig, title, _map_height(len(rows), per_row=22, minimum=360, maximum=700))


def vectors_heatmap(panels: Sequence[tuple[str, np.ndarray]], row_tokens: Sequence[str], *, title: str, lang: str,
                    col_title: str | None = None, value_title: str | None = None, shared_scale: bool = False,
                    row_title: str | None = None) -> go.Figure:
    """Per-token vectors ([tokens, dims] each) side by side: rows = tokens, columns = dimensions."""
    rows = unique_labels(row_tokens)
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[name for name, _ in panels],
                        horizontal_spacing=0.07, shared_yaxes=True)
    arrays = [np.asarray(a, dtype=np.float32) for _, a in panels]
    common = max((float(np.abs(a).max()) for a in arrays if a.size), default=1.0) or 1.0
    n = len(panels)
    for index, a in enumerate(arrays):
        bound = common if shared_scale else (float(np.abs(a).max()) or 1.0)
        fig.add_trace(go.Heatmap(
            z=a, x=np.arange(a.shape[1], dtype=np.int32), y=rows, colorscale=DIVERGING_SCALE,
            zmin=-bound, zmax=bound, zmid=0.0,
            showscale=not shared_scale or index == n - 1,
            colorbar={"x": _colorbar_x(index, n, 0.07), "len": 0.8, "thickness": 8,
                      "title": {"text": value_title or t("fig.value", lang)}},
            hovertemplate=f"{row_title or t('fig.token', lang)}: %{{y}}<br>{col_title or t('fig.dim', lang)}: %{{x}}"
                          f"<br>{value_title or t('fig.value', lang)}: %{{z:.4f}}<extra></extra>",
        ), row=1, col=index + 1)
    fig.update_yaxes(type="category", autorange="reversed", automargin=True, showgrid=False, title_standoff=8)
    fig.update_yaxes(title_text=row_title or t("fig.token_axis", lang), col=1)
    fig.update_xaxes(title_text=col_title or t("fig.dim_axis", lang), showgrid=False, automargin=True,
                     title_standoff=6)
    fig = _base_layout(fig, title, _map_height(len(rows), per_row=22, minimum=300, maximum=700))
    fig.update_layout(plot_bgcolor="white")
    return fig


def positional_curves(pos: np.ndarray, dims: Sequence[int], *, title: str, lang: str,
                      analytic_d_model: int | None = None, max_position: int | None = None) -> go.Figure:
    """PE values of chosen dimensions against position: the traced points, and (sinusoidal) the formula's curve."""
    pos = np.asarray(pos, dtype=np.float32)
    fig = go.Figure()
    positions = np.arange(pos.shape[0])
    palette = ["#1a73e8", "#d93025", "#188038", "#f29900", "#9334e6", "#12b5cb", "#e52592", "#5f6368"]
    for index, dim in enumerate(dims):
        color = palette[index % len(palette)]
        label = t("fig.pe_dim", lang, dim=dim, fn="sin" if dim % 2 == 0 else "cos")
        if analytic_d_model:
            end = max(max_position or 0, pos.shape[0] - 1)
            xs = np.linspace(0, end, 400, dtype=np.float64)
            freq = 10000.0 ** (-(dim - dim % 2) / analytic_d_model)
            ys = np.sin(xs * freq) if dim % 2 == 0 else np.cos(xs * freq)
            fig.add_trace(go.Scatter(x=xs.astype(np.float32), y=ys.astype(np.float32), mode="lines", name=label,
                                     line={"color": color, "width": 1.5}, legendgroup=str(dim),
                                     hovertemplate=f"{label}<br>pos %{{x:.2f}}: %{{y:.4f}}<extra></extra>"))
        fig.add_trace(go.Scatter(x=positions, y=pos[:, dim], mode="markers", legendgroup=str(dim),
                                 name=t("fig.pe_traced", lang, dim=dim), marker={"color": color, "size": 8},
                                 showlegend=not analytic_d_model,
                                 hovertemplate=f"{t('fig.position', lang)} %{{x}}<br>PE: %{{y:.4f}}<extra></extra>"))
    fig.update_xaxes(title_text=t("fig.position_axis", lang), zeroline=False)
    fig.update_yaxes(title_text=t("fig.pe_value", lang), range=[-1.15, 1.15] if analytic_d_model else None)
    fig = _base_layout(fig, title, 380)
    fig.update_layout(plot_bgcolor="white", legend={"orientation": "h", "y": -0.25})
    return fig


def position_similarity(pos: np.ndarray, *, title: str, lang: str) -> go.Figure:
    """PE · PEᵀ: dot products between the position vectors (nearby positions are more alike)."""
    pos = np.asarray(pos, dtype=np.float32)
    sim = (pos @ pos.T).astype(np.float32)
    labels = [str(i) for i in range(pos.shape[0])]
    fig = go.Figure(go.Heatmap(
        z=sim, x=labels, y=labels, colorscale="Viridis", colorbar={"title": {"text": "PE·PEᵀ"}},
        hovertemplate=f"{t('fig.position', lang)} i: %{{y}}<br>{t('fig.position', lang)} j: %{{x}}"
                      "<br>PEᵢ·PEⱼ: %{z:.3f}<extra></extra>",
    ))
    _category_axes(fig)
    fig.update_xaxes(title_text=t("fig.position_axis", lang) + " j", tickangle=0)
    fig.update_yaxes(title_text=t("fig.position_axis", lang) + " i")
    return _base_layout(fig, title, _map_height(len(labels), per_row=18, minimum=360, maximum=640))


def top_k_bar(tokens: Sequence[str], probs: Sequence[float], chosen: str, *, title: str, lang: str) -> go.Figure:
    """Horizontal bars of the k most likely next tokens; the chosen (argmax) one highlighted."""
    labels = unique_labels(tokens)
    colors = ["#d93025" if tok == chosen else "#8ab4f8" for tok in tokens]
    fig = go.Figure(go.Bar(
        x=np.asarray(probs, dtype=np.float32), y=labels, orientation="h", marker={"color": colors},
        text=[f"{p:.1%}" for p in probs], textposition="auto",
        hovertemplate=f"{t('fig.token', lang)}: %{{y}}<br>{t('fig.probability', lang)}: %{{x:.4f}}<extra></extra>",
    ))
    fig.update_yaxes(type="category", autorange="reversed", title_text=t("fig.candidate_axis", lang), automargin=True)
    fig.update_xaxes(title_text=t("fig.probability", lang), range=[0, 1])
    fig = _base_layout(fig, title, max(280, 60 + 30 * len(labels)))
    fig.update_layout(plot_bgcolor="white")
    return fig


def step_sources(rows: np.ndarray, row_labels: Sequence[str], src_tokens: Sequence[str], *, title: str,
                 lang: str) -> go.Figure:
    """[heads, S] cross-attention rows of one decoding step: which source tokens each head read."""
    z = np.asarray(rows, dtype=np.float32)
    fig = go.Figure(attention_trace(z, list(row_labels), unique_labels(src_tokens), lang=lang,
                                    row_title=t("fig.head", lang), col_title=t("fig.source_token", lang)))
    _category_axes(fig)
    fig.update_xaxes(title_text=t("fig.source_axis", lang))
    fig.update_yaxes(title_text=t("fig.layer_head_axis", lang))
    return _base_layout(fig, title, _map_height(len(row_labels), per_row=20, minimum=300, maximum=1100))


def compare_heads(maps: Sequence[np.ndarray], panel_titles: Sequence[str], row_tokens: Sequence[str],
                  col_tokens: Sequence[str], *, title: str, lang: str,
                  difference_title: str | None = None) -> go.Figure:
    """2–4 heads side by side (shared 0..1 scale) and, when shapes allow, the difference map A − B."""
    maps = [np.asarray(m, dtype=np.float32) for m in maps]
    with_diff = len(maps) >= 2 and maps[0].shape == maps[1].shape
    n = len(maps) + (1 if with_diff else 0)
    titles = list(panel_titles) + ([difference_title or t("fig.difference", lang)] if with_diff else [])
    fig = make_subplots(rows=1, cols=n, subplot_titles=titles, horizontal_spacing=min(0.07, 0.3 / n),
                        shared_yaxes=True)
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    small = maps[0].size * n <= 200
    for index, matrix in enumerate(maps):
        trace = attention_trace(matrix, rows, cols, lang=lang, coloraxis="coloraxis", cell_text=small)
        fig.add_trace(trace, row=1, col=index + 1)
    if with_diff:
        diff = (maps[0] - maps[1]).astype(np.float32)
        bound = float(np.abs(diff).max()) or 1.0
        fig.add_trace(go.Heatmap(
            z=diff, x=cols, y=rows, colorscale="PiYG", zmin=-bound, zmax=bound, zmid=0.0,
            colorbar={"title": {"text": "A − B"}, "x": 1.12, "len": 0.8, "thickness": 10},
            hovertemplate=_hover(t("fig.query", lang), t("fig.key", lang), "A − B", False),
        ), row=1, col=n)
    fig.update_layout(coloraxis={"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0,
                                 "colorbar": {"title": {"text": t("fig.weight", lang)}, "len": 0.8, "thickness": 10,
                                              "x": 1.01}})
    _category_axes(fig)
    fig.update_xaxes(title_text=t("fig.key_axis", lang))
    fig.update_yaxes(title_text=t("fig.query_axis", lang), col=1)
    return _base_layout(fig, title, _map_height(len(rows), per_row=22, minimum=360, maximum=700))


def similarity_heatmap(sim: np.ndarray, head_labels: Sequence[str], *, title: str, lang: str) -> go.Figure:
    """[N, N] head-similarity (1 − Jensen-Shannon divergence) as one heatmap."""
    labels = list(head_labels)
    fig = go.Figure(go.Heatmap(
        z=np.asarray(sim, dtype=np.float32), x=labels, y=labels, colorscale="Viridis", zmin=0.0, zmax=1.0,
        colorbar={"title": {"text": t("fig.similarity", lang)}},
        hovertemplate="%{y} ↔ %{x}<br>" + t("fig.similarity", lang) + ": %{z:.3f}<extra></extra>",
    ))
    _category_axes(fig)
    fig.update_xaxes(title_text=t("fig.head_axis", lang), tickfont={"size": 9})
    fig.update_yaxes(title_text=t("fig.head_axis", lang), tickfont={"size": 9})
    side = max(420, min(900, 160 + 12 * len(labels)))
    return _base_layout(fig, title, side)


def _block_average(matrix: np.ndarray, max_side: int) -> np.ndarray:
    """Average blocks of rows/columns so neither side exceeds max_side (for the overview only)."""
    out = matrix
    for axis in (0, 1):
        n = out.shape[axis]
        if n > max_side:
            edges = np.linspace(0, n, max_side + 1).astype(int)
            out = np.add.reduceat(out, edges[:-1], axis=axis) / np.diff(edges).reshape(
                (-1, 1) if axis == 0 else (1, -1))
    return out.astype(np.float32)


def tile_heads(maps: np.ndarray, max_side: int = OVERVIEW_MAX_SIDE, gap: int = 1) -> tuple[np.ndarray, int, int]:
    """[L, H, Tq, Tk] -> one [L·(tq+gap)−gap, H·(tk+gap)−gap] image with NaN gaps; returns (image, tq, tk)."""
    n_layers, n_heads = maps.shape[:2]
    tiles = [[_block_average(maps[i, h], max_side) for h in range(n_heads)] for i in range(n_layers)]
    tq, tk = tiles[0][0].shape
    image = np.full((n_layers * (tq + gap) - gap, n_heads * (tk + gap) - gap), np.nan, dtype=np.float32)
    for i in range(n_layers):
        for h in range(n_heads):
            image[i * (tq + gap): i * (tq + gap) + tq, h * (tk + gap): h * (tk + gap) + tk] = tiles[i][h]
    return image, tq, tk


def all_heads_overview(stacks: Sequence[tuple[str, np.ndarray]], *, title: str, lang: str) -> go.Figure:
    """Every layer × every head of each attention kind: ONE figure, one tiled heatmap image per kind.

    Rows of tiles = layers, columns of tiles = heads; inside a tile rows = queries, columns = keys.
    """
    n = len(stacks)
    fig = make_subplots(rows=n, cols=1, subplot_titles=[name for name, _ in stacks], vertical_spacing=0.08 / max(n, 1))
    heights = []
    for index, (_, maps) in enumerate(stacks):
        maps = np.asarray(maps, dtype=np.float32)
        image, tq, tk = tile_heads(maps)
        n_layers, n_heads = maps.shape[:2]
        ys, xs = np.indices(image.shape)
        layer_of, head_of = ys // (tq + 1), xs // (tk + 1)
        customdata = np.stack([layer_of, head_of, ys % (tq + 1), xs % (tk + 1)], axis=-1).astype(np.int16) \
            if image.size <= HOVER_TEXT_LIMIT else None
        hover = (f"{t('fig.layer', lang)} %{{customdata[0]}} · {t('fig.head', lang)} %{{customdata[1]}}"
                 f"<br>{t('fig.query', lang)} #%{{customdata[2]}} → {t('fig.key', lang)} #%{{customdata[3]}}"
                 f"<br>{t('fig.weight', lang)}: %{{z:.3f}}<extra></extra>") if customdata is not None else \
            f"{t('fig.weight', lang)}: %{{z:.3f}}<extra></extra>"
        fig.add_trace(go.Heatmap(z=image, customdata=customdata, coloraxis="coloraxis", hovertemplate=hover,
                                 hoverongaps=False), row=index + 1, col=1)
        fig.update_xaxes(tickmode="array", tickvals=[h * (tk + 1) + (tk - 1) / 2 for h in range(n_heads)],
                         ticktext=[f"H{h}" for h in range(n_heads)], showgrid=False, zeroline=False,
                         title_text=t("fig.head_axis", lang), row=index + 1, col=1)
        fig.update_yaxes(tickmode="array", tickvals=[i * (tq + 1) + (tq - 1) / 2 for i in range(n_layers)],
                         ticktext=[f"L{i}" for i in range(n_layers)], autorange="reversed", showgrid=False,
                         zeroline=False, title_text=t("fig.layer_axis", lang),
                         scaleanchor=f"x{index + 1 if index else ''}",
                         row=index + 1, col=1)
        heights.append(image.shape[0] / max(image.shape[1], 1))
    fig.update_layout(coloraxis={"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0,
                                 "colorbar": {"title": {"text": t("fig.weight", lang)}, "len": 0.6}})
    height = int(min(2400, max(360, 120 + sum(max(0.25, h) for h in heights) * 900)))
    fig = _base_layout(fig, title, height)
    fig.update_layout(plot_bgcolor="white")
    return fig


def activation_heatmap(matrix: np.ndarray, row_tokens: Sequence[str], *, title: str, lang: str,
                       col_title: str | None = None, value_title: str | None = None) -> go.Figure:
    """One [tokens, features] activation matrix (e.g. FFN hidden units) as a single heatmap."""
    return vectors_heatmap([("", matrix)], row_tokens, title=title, lang=lang, col_title=col_title,
                           value_title=value_title)


def scores_to_weights(scores: np.ndarray, weights: np.ndarray, row_tokens: Sequence[str], col_tokens: Sequence[str],
                      *, title: str, lang: str, masked: np.ndarray | None = None) -> go.Figure:
    """One head: scores QKᵀ/√d_k (diverging), the masked scores when anything is blocked, softmax weights."""
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    panels = [(t("fig.scores_before", lang), scores, True)]
    if masked is not None and np.isneginf(np.asarray(masked)).any():
        panels.append((t("fig.masked_panel", lang), masked, True))
    panels.append((t("fig.weights_after", lang), weights, False))
    n = len(panels)
    fig = make_subplots(rows=1, cols=n, subplot_titles=[p[0] for p in panels], horizontal_spacing=0.1,
                        shared_yaxes=True)
    finite = np.asarray(scores, dtype=np.float32)
    bound = float(np.abs(finite[np.isfinite(finite)]).max()) if np.isfinite(finite).any() else 1.0
    for index, (_, matrix, diverging) in enumerate(panels):
        if diverging:
            trace = attention_trace(matrix, rows, cols, lang=lang, value_title=t("fig.score", lang),
                                    colorscale=DIVERGING_SCALE, zmin=-bound, zmax=bound, zmid=0.0)
        else:
            trace = attention_trace(matrix, rows, cols, lang=lang)
        trace.update(showscale=index in (0, n - 1),
                     colorbar={"x": _colorbar_x(index, n, 0.1), "len": 0.8, "thickness": 10})
        fig.add_trace(trace, row=1, col=index + 1)
    _category_axes(fig)
    fig.update_xaxes(title_text=t("fig.key_axis", lang))
    fig.update_yaxes(title_text=t("fig.query_axis", lang), col=1)
    return _base_layout(fig, title, _map_height(len(rows), per_row=24, minimum=360, maximum=760))
