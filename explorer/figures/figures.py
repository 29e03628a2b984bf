"""Pure figure builders: numpy arrays + token strings in, plotly Figures out. No streamlit here.

Conventions used by every attention map: rows = queries (y axis, first token on top), columns =
keys (x axis); both axes are categorical and labelled with unique token labels (`unique_labels`);
hovering a cell shows the query, the key and the value. Large maps stay one heatmap trace each
(one image in the browser); per-cell text is only drawn for small maps.

Speed: figures are assembled as plain dicts (a small subplot-grid helper instead of
plotly.subplots.make_subplots) and wrapped once with validation off. That is ~3 ms a figure
instead of ~40-70 ms, which is most of a head switch's server time. Tests hold the structure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.base import (
    DIFFERENCE_SCALE,
    DIVERGING_SCALE,
    HOVER_TEXT_LIMIT,
    MASKED_COLOR,
    OVERVIEW_MAX_SIDE,
    SEQUENTIAL_SCALE,
    WEIGHT_SCALE,
    _axis_name,
    _cell_text,
    _colorbar,
    _figure,
    _finite_bound,
    _Grid,
    _hover,
    _linear,
    _map_height,
    _x_category,
    _y_category,
    attention_trace,
    unique_labels,
)
from explorer.figures.base import (
    FONT_FAMILY as FONT_FAMILY,
)
from explorer.figures.base import (
    plot_config as plot_config,
)
from explorer.i18n import t

# ------------------------------------------------------------------------------------------------
# Attention maps

def attention_heatmap(matrix: np.ndarray, row_tokens: Sequence[str], col_tokens: Sequence[str], *, title: str,
                      lang: str, value_title: str | None = None, diverging: bool = False,
                      row_title: str | None = None, col_title: str | None = None) -> go.Figure:
    """A single labelled [queries, keys] map (weights 0..1, or scores on a diverging scale)."""
    bound = _finite_bound(matrix)
    grid = _Grid(1, 1)
    trace = attention_trace(
        matrix, unique_labels(row_tokens), unique_labels(col_tokens), lang=lang, value_title=value_title,
        colorscale=DIVERGING_SCALE if diverging else WEIGHT_SCALE,
        zmin=-bound if diverging else 0.0, zmax=bound if diverging else 1.0, zmid=0.0 if diverging else None,
        row_title=row_title, col_title=col_title,
    )
    grid.add(0, trace, _x_category(col_title or t("fig.key_axis", lang)),
             _y_category(row_title or t("fig.query_axis", lang)))
    return _figure(grid.data, grid.layout, title, _map_height(len(row_tokens)))


def heads_grid(weights: np.ndarray, row_tokens: Sequence[str], col_tokens: Sequence[str], *, title: str,
               lang: str, panel_titles: Sequence[str] | None = None, n_cols: int = 4,
               value_title: str | None = None, diverging: bool = False,
               row_title: str | None = None, col_title: str | None = None) -> go.Figure:
    """[N, Tq, Tk] maps as N subplots of ONE figure with a shared colour scale (one chart, N images).

    Token labels sit on the outer panels only (hover names every cell), so titles never collide.
    """
    maps = np.asarray(weights, dtype=np.float32)
    n = maps.shape[0]
    n_cols = max(1, min(n_cols, n))
    n_rows = math.ceil(n / n_cols)
    per_panel = max(200, min(340, 90 + 18 * maps.shape[1]))
    height = 80 + per_panel * n_rows + 60
    titles = list(panel_titles or [t("fig.head_n", lang, head=h) for h in range(n)])
    grid = _Grid(n_rows, n_cols, h_space=0.02, v_space=min(0.3, 40 / height * n_rows / max(n_rows - 1, 1)),
                 titles=titles)
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    small = _cell_text(maps.shape[1], maps.shape[2], n_cols)
    for index in range(n):
        row, col = divmod(index, n_cols)
        bottom = row == n_rows - 1 or index + n_cols >= n
        trace = attention_trace(maps[index], rows, cols, lang=lang, value_title=value_title, coloraxis="coloraxis",
                                row_title=row_title, col_title=col_title, cell_text=small)
        grid.add(index, trace,
                 _x_category(col_title or t("fig.key_axis", lang) if bottom else None, labels=bottom,
                             matches="x" if index else None),
                 _y_category(row_title or t("fig.query_axis", lang) if col == 0 else None, labels=col == 0,
                             matches="y" if index else None))
    if diverging:
        bound = _finite_bound(maps)
        coloraxis = {"colorscale": DIVERGING_SCALE, "cmin": -bound, "cmax": bound, "cmid": 0.0}
    else:
        coloraxis = {"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0}
    coloraxis["colorbar"] = _colorbar(value_title or t("fig.weight", lang), length=0.8, thickness=14)
    grid.layout["coloraxis"] = coloraxis
    for key in grid.layout:
        if key.startswith(("xaxis", "yaxis")):
            grid.layout[key]["tickfont"] = {"size": 10}
    return _figure(grid.data, grid.layout, title, height)


def masking_steps(causal: np.ndarray, scores: np.ndarray, masked: np.ndarray, weights: np.ndarray,
                  row_tokens: Sequence[str], col_tokens: Sequence[str], *, title: str, lang: str) -> go.Figure:
    """Causal mask -> scores -> masked scores (−∞) -> softmax weights: four panels of one figure."""
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    grid = _Grid(1, 4, h_space=0.09, titles=[t("fig.mask_panel", lang), t("fig.scores_panel", lang),
                                            t("fig.masked_panel", lang), t("fig.weights_panel", lang)])
    mask = np.asarray(causal, dtype=bool)
    mask_trace = {
        "type": "heatmap", "z": mask.astype(np.float32), "x": cols, "y": rows, "showscale": False,
        "text": [[t("fig.allowed", lang) if v else t("fig.blocked", lang) for v in row] for row in mask],
        "colorscale": [[0, "#424242"], [1, "#c8e6c9"]], "zmin": 0, "zmax": 1,
        "hovertemplate": _hover(t("fig.query", lang), t("fig.key", lang), t("fig.mask", lang), True),
    }
    bound = _finite_bound(scores)
    score_traces = []
    text = _cell_text(len(rows), len(cols), 4)
    for index, matrix in ((1, scores), (2, masked)):
        trace = attention_trace(matrix, rows, cols, lang=lang, value_title=t("fig.score", lang),
                                colorscale=DIVERGING_SCALE, zmin=-bound, zmax=bound, zmid=0.0, cell_text=text)
        trace["showscale"] = index == 2
        trace["colorbar"] = _colorbar(t("fig.score", lang), x=grid.colorbar_x(2))
        score_traces.append(trace)
    weight_trace = attention_trace(weights, rows, cols, lang=lang, cell_text=text)
    weight_trace["colorbar"] = _colorbar(t("fig.weight", lang))
    for index, trace in enumerate([mask_trace, *score_traces, weight_trace]):
        grid.add(index, trace, _x_category(t("fig.key_axis", lang), matches="x" if index else None),
                 _y_category(t("fig.query_axis", lang) if index == 0 else None, labels=index == 0,
                             matches="y" if index else None))
    return _figure(grid.data, grid.layout, title, _map_height(len(rows), per_row=22, minimum=360, maximum=700))


def scores_to_weights(scores: np.ndarray, weights: np.ndarray, row_tokens: Sequence[str], col_tokens: Sequence[str],
                      *, title: str, lang: str, masked: np.ndarray | None = None) -> go.Figure:
    """One head: scores QKᵀ/√d_k (diverging), the masked scores when anything is blocked, softmax weights."""
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    panels = [(t("fig.scores_before", lang), scores, True)]
    if masked is not None and np.isneginf(np.asarray(masked)).any():
        panels.append((t("fig.masked_panel", lang), masked, True))
    panels.append((t("fig.weights_after", lang), weights, False))
    n = len(panels)
    grid = _Grid(1, n, h_space=0.1, titles=[p[0] for p in panels])
    bound = _finite_bound(scores)
    for index, (_, matrix, diverging) in enumerate(panels):
        text = _cell_text(len(rows), len(cols), n)
        if diverging:
            trace = attention_trace(matrix, rows, cols, lang=lang, value_title=t("fig.score", lang),
                                    colorscale=DIVERGING_SCALE, zmin=-bound, zmax=bound, zmid=0.0, cell_text=text)
        else:
            trace = attention_trace(matrix, rows, cols, lang=lang, cell_text=text)
        trace["showscale"] = index in (0, n - 1)
        trace["colorbar"] = _colorbar(t("fig.score", lang) if diverging else t("fig.weight", lang),
                                      x=grid.colorbar_x(index))
        grid.add(index, trace, _x_category(t("fig.key_axis", lang), matches="x" if index else None),
                 _y_category(t("fig.query_axis", lang) if index == 0 else None, labels=index == 0,
                             matches="y" if index else None))
    return _figure(grid.data, grid.layout, title, _map_height(len(rows), per_row=24, minimum=360, maximum=760))


def compare_heads(maps: Sequence[np.ndarray], panel_titles: Sequence[str], row_tokens: Sequence[str],
                  col_tokens: Sequence[str], *, title: str, lang: str,
                  difference_title: str | None = None) -> go.Figure:
    """2–4 heads side by side (shared 0..1 scale) and, when shapes allow, the difference map A − B."""
    maps = [np.asarray(m, dtype=np.float32) for m in maps]
    with_diff = len(maps) >= 2 and maps[0].shape == maps[1].shape
    n = len(maps) + (1 if with_diff else 0)
    titles = list(panel_titles) + ([difference_title or t("fig.difference", lang)] if with_diff else [])
    grid = _Grid(1, n, h_space=min(0.07, 0.3 / n), titles=titles)
    rows, cols = unique_labels(row_tokens), unique_labels(col_tokens)
    small = _cell_text(maps[0].shape[0], maps[0].shape[1], n)
    traces = [attention_trace(m, rows, cols, lang=lang, coloraxis="coloraxis", cell_text=small) for m in maps]
    if with_diff:
        diff = (maps[0] - maps[1]).astype(np.float32)
        bound = float(np.abs(diff).max()) or 1.0
        traces.append({
            "type": "heatmap", "z": diff, "x": cols, "y": rows, "colorscale": DIFFERENCE_SCALE, "zmin": -bound,
            "zmax": bound, "zmid": 0.0, "colorbar": _colorbar("A − B", x=1.12),
            "hovertemplate": _hover(t("fig.query", lang), t("fig.key", lang), "A − B", False),
        })
    for index, trace in enumerate(traces):
        grid.add(index, trace, _x_category(t("fig.key_axis", lang), matches="x" if index else None),
                 _y_category(t("fig.query_axis", lang) if index == 0 else None, labels=index == 0,
                             matches="y" if index else None))
    grid.layout["coloraxis"] = {"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0,
                                "colorbar": _colorbar(t("fig.weight", lang), x=1.01)}
    return _figure(grid.data, grid.layout, title, _map_height(len(rows), per_row=22, minimum=360, maximum=700))


def step_sources(rows: np.ndarray, row_labels: Sequence[str], src_tokens: Sequence[str], *, title: str,
                 lang: str) -> go.Figure:
    """[heads, S] cross-attention rows of one decoding step: which source tokens each head read."""
    grid = _Grid(1, 1)
    trace = attention_trace(np.asarray(rows, dtype=np.float32), list(row_labels), unique_labels(src_tokens),
                            lang=lang, row_title=t("fig.head", lang), col_title=t("fig.source_token", lang))
    grid.add(0, trace, _x_category(t("fig.source_axis", lang)), _y_category(t("fig.layer_head_axis", lang)))
    return _figure(grid.data, grid.layout, title, _map_height(len(row_labels), per_row=20, minimum=300, maximum=1100))


# ------------------------------------------------------------------------------------------------
# Vectors, positions, probabilities

def vectors_heatmap(panels: Sequence[tuple[str, np.ndarray]], row_tokens: Sequence[str], *, title: str, lang: str,
                    col_title: str | None = None, value_title: str | None = None, shared_scale: bool = False,
                    row_title: str | None = None) -> go.Figure:
    """Per-token vectors ([tokens, dims] each) side by side: rows = tokens, columns = dimensions."""
    rows = unique_labels(row_tokens)
    n = len(panels)
    grid = _Grid(1, n, h_space=0.07, titles=[name for name, _ in panels])
    arrays = [np.asarray(a, dtype=np.float32) for _, a in panels]
    common = max((_finite_bound(a) for a in arrays if a.size), default=1.0)
    value = value_title or t("fig.value", lang)
    hover = (f"{row_title or t('fig.token', lang)}: %{{y}}<br>{col_title or t('fig.dim', lang)}: %{{x}}"
             f"<br>{value}: %{{z:.4f}}<extra></extra>")
    for index, a in enumerate(arrays):
        bound = common if shared_scale else _finite_bound(a)
        trace = {
            "type": "heatmap", "z": a, "x": np.arange(a.shape[1], dtype=np.int32), "y": rows,
            "colorscale": DIVERGING_SCALE, "zmin": -bound, "zmax": bound, "zmid": 0.0,
            "showscale": not shared_scale or index == n - 1,
            "colorbar": _colorbar(value, x=grid.colorbar_x(index) if index < n - 1 else None, thickness=8),
            "hovertemplate": hover,
        }
        grid.add(index, trace, _linear(col_title or t("fig.dim_axis", lang)),
                 _y_category(row_title or t("fig.token_axis", lang) if index == 0 else None, labels=index == 0,
                             matches="y" if index else None))
    return _figure(grid.data, grid.layout, title, _map_height(len(rows), per_row=22, minimum=300, maximum=700),
                   bgcolor="white")


def activation_heatmap(matrix: np.ndarray, row_tokens: Sequence[str], *, title: str, lang: str,
                       col_title: str | None = None, value_title: str | None = None) -> go.Figure:
    """One [tokens, features] activation matrix (e.g. FFN hidden units) as a single heatmap."""
    return vectors_heatmap([("", matrix)], row_tokens, title=title, lang=lang, col_title=col_title,
                           value_title=value_title)


def positional_curves(pos: np.ndarray, dims: Sequence[int], *, title: str, lang: str,
                      analytic_d_model: int | None = None, max_position: int | None = None,
                      layout: str = "interleaved") -> go.Figure:
    """PE values of chosen dimensions against position: the traced points, and (sinusoidal) the formula's curve.

    `layout`: "interleaved" (the paper: sin at even dimensions, cos at odd ones) or "halves" (Marian: dimension
    i < ceil(D/2) is sin of frequency i, dimension ceil(D/2) + i the cos of frequency i)."""
    pos = np.asarray(pos, dtype=np.float32)
    positions = np.arange(pos.shape[0], dtype=np.int32)
    palette = ["#1a73e8", "#d93025", "#188038", "#f29900", "#9334e6", "#12b5cb", "#e52592", "#5f6368"]
    data = []
    for index, dim in enumerate(dims):
        color = palette[index % len(palette)]
        is_sin, even_index = _pe_dimension(dim, pos.shape[1], layout)
        label = t("fig.pe_dim", lang, dim=dim, fn="sin" if is_sin else "cos")
        if analytic_d_model:
            end = max(max_position or 0, pos.shape[0] - 1)
            xs = np.linspace(0, end, 400, dtype=np.float64)
            freq = 10000.0 ** (-even_index / analytic_d_model)
            ys = np.sin(xs * freq) if is_sin else np.cos(xs * freq)
            data.append({"type": "scatter", "x": xs.astype(np.float32), "y": ys.astype(np.float32), "mode": "lines",
                         "name": label, "line": {"color": color, "width": 1.5}, "legendgroup": str(dim),
                         "hovertemplate": f"{label}<br>pos %{{x:.2f}}: %{{y:.4f}}<extra></extra>"})
        data.append({"type": "scatter", "x": positions, "y": pos[:, dim], "mode": "markers", "legendgroup": str(dim),
                     "name": t("fig.pe_traced", lang, dim=dim), "marker": {"color": color, "size": 8},
                     "showlegend": not analytic_d_model,
                     "hovertemplate": f"{t('fig.position', lang)} %{{x}}<br>PE: %{{y:.4f}}<extra></extra>"})
    y_axis = _linear(t("fig.pe_value", lang), showgrid=True)
    if analytic_d_model:
        y_axis["range"] = [-1.15, 1.15]
    layout = {"xaxis": _linear(t("fig.position_axis", lang), showgrid=True), "yaxis": y_axis,
              "legend": {"orientation": "h", "y": -0.25}}
    return _figure(data, layout, title, 380, bgcolor="white")


def _pe_dimension(dim: int, d_model: int, layout: str) -> tuple[bool, int]:
    """(is it a sine, 2i of its frequency 10000^(-2i/D)) for one dimension of a sinusoidal table."""
    if layout == "halves":
        half = (d_model + 1) // 2
        return (True, 2 * dim) if dim < half else (False, 2 * (dim - half))
    return dim % 2 == 0, dim - dim % 2


def position_similarity(pos: np.ndarray, *, title: str, lang: str) -> go.Figure:
    """PE · PEᵀ: dot products between the position vectors (nearby positions are more alike)."""
    pos = np.asarray(pos, dtype=np.float32)
    sim = (pos @ pos.T).astype(np.float32)
    labels = [str(i) for i in range(pos.shape[0])]
    position = t("fig.position", lang)
    trace = {"type": "heatmap", "z": sim, "x": labels, "y": labels, "colorscale": SEQUENTIAL_SCALE,
             "colorbar": _colorbar("PE·PEᵀ"),
             "hovertemplate": f"{position} i: %{{y}}<br>{position} j: %{{x}}<br>PEᵢ·PEⱼ: %{{z:.3f}}<extra></extra>"}
    grid = _Grid(1, 1)
    x_axis = _x_category(t("fig.position_axis", lang) + " j")
    x_axis["tickangle"] = 0
    grid.add(0, trace, x_axis, _y_category(t("fig.position_axis", lang) + " i"))
    return _figure(grid.data, grid.layout, title, _map_height(len(labels), per_row=18, minimum=360, maximum=640))


def top_k_bar(tokens: Sequence[str], probs: Sequence[float], chosen: str, *, title: str, lang: str) -> go.Figure:
    """Horizontal bars of the k most likely next tokens; the chosen (argmax) one highlighted."""
    labels = unique_labels(tokens)
    trace = {
        "type": "bar", "x": np.asarray(probs, dtype=np.float32), "y": labels, "orientation": "h",
        "marker": {"color": ["#d93025" if tok == chosen else "#8ab4f8" for tok in tokens]},
        "text": [f"{p:.1%}" for p in probs], "textposition": "auto",
        "hovertemplate": f"{t('fig.token', lang)}: %{{y}}<br>{t('fig.probability', lang)}: %{{x:.4f}}<extra></extra>",
    }
    layout = {"xaxis": _linear(t("fig.probability", lang), range=[0, 1], showgrid=True),
              "yaxis": _y_category(t("fig.candidate_axis", lang))}
    return _figure([trace], layout, title, max(280, 60 + 30 * len(labels)), bgcolor="white")


# ------------------------------------------------------------------------------------------------
# Heads overview

def similarity_heatmap(sim: np.ndarray, head_labels: Sequence[str], *, title: str, lang: str) -> go.Figure:
    """[N, N] head-similarity (1 − Jensen–Shannon distance) as one heatmap."""
    labels = list(head_labels)
    similarity = t("fig.similarity", lang)
    trace = {"type": "heatmap", "z": np.asarray(sim, dtype=np.float32), "x": labels, "y": labels,
             "colorscale": SEQUENTIAL_SCALE, "zmin": 0.0, "zmax": 1.0, "colorbar": _colorbar(similarity),
             "hovertemplate": "%{y} ↔ %{x}<br>" + similarity + ": %{z:.3f}<extra></extra>"}
    grid = _Grid(1, 1)
    x_axis, y_axis = _x_category(t("fig.head_axis", lang)), _y_category(t("fig.head_axis", lang))
    x_axis["tickfont"] = y_axis["tickfont"] = {"size": 9}
    grid.add(0, trace, x_axis, y_axis)
    return _figure(grid.data, grid.layout, title, max(420, min(900, 160 + 12 * len(labels))))


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


def all_heads_overview(stacks: Sequence[tuple[str, np.ndarray]], *, title: str, lang: str,
                       assumed_width: int = 900) -> go.Figure:
    """Every layer × every head of each attention kind: ONE figure, one tiled heatmap image per kind.

    Rows of tiles = layers, columns of tiles = heads; inside a tile rows = queries, columns = keys.
    Each kind's panel gets a height proportional to its image so the tiles stay square.
    """
    tiled = []
    for name, maps in stacks:
        maps = np.asarray(maps, dtype=np.float32)
        image, tq, tk = tile_heads(maps)
        tiled.append((name, maps.shape[0], maps.shape[1], image, tq, tk))
    panel_px = [min(900.0, max(110.0, image.shape[0] * assumed_width / max(image.shape[1], 1)))
                for _, _, _, image, _, _ in tiled]
    gap_px, top_px, bottom_px = 95.0, 70.0, 60.0
    n = len(tiled)
    height = int(top_px + bottom_px + sum(panel_px) + gap_px * (n - 1))
    grid = _Grid(n, 1, v_space=gap_px / (height - top_px - bottom_px) if n > 1 else 0.0, row_weights=panel_px,
                 titles=[name for name, *_ in tiled])
    for index, (_, n_layers, n_heads, image, tq, tk) in enumerate(tiled):
        ys, xs = np.indices(image.shape)
        customdata = np.stack([ys // (tq + 1), xs // (tk + 1), ys % (tq + 1), xs % (tk + 1)], axis=-1) \
            .astype(np.int16) if image.size <= HOVER_TEXT_LIMIT else None
        hover = (f"{t('fig.layer', lang)} %{{customdata[0]}} · {t('fig.head', lang)} %{{customdata[1]}}"
                 f"<br>{t('fig.query', lang)} #%{{customdata[2]}} → {t('fig.key', lang)} #%{{customdata[3]}}"
                 f"<br>{t('fig.weight', lang)}: %{{z:.3f}}<extra></extra>") if customdata is not None else \
            f"{t('fig.weight', lang)}: %{{z:.3f}}<extra></extra>"
        trace = {"type": "heatmap", "z": image, "coloraxis": "coloraxis", "hovertemplate": hover,
                 "hoverongaps": False}
        if customdata is not None:
            trace["customdata"] = customdata
        _, x_ref = _axis_name(index, "x")
        grid.add(index, trace,
                 _linear(t("fig.head_axis", lang), tickmode="array",
                         tickvals=[h * (tk + 1) + (tk - 1) / 2 for h in range(n_heads)],
                         ticktext=[f"H{h}" for h in range(n_heads)]),
                 _linear(t("fig.layer_axis", lang), tickmode="array",
                         tickvals=[i * (tq + 1) + (tq - 1) / 2 for i in range(n_layers)],
                         ticktext=[f"L{i}" for i in range(n_layers)], autorange="reversed",
                         scaleanchor=x_ref, constrain="domain"))
    grid.layout["coloraxis"] = {"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0,
                                "colorbar": _colorbar(t("fig.weight", lang), length=min(1.0, 500 / height))}
    return _figure(grid.data, grid.layout, title, height, bgcolor="white")


TOKEN_TICKS_MAX = 16  # all_heads_side_by_side names tokens on its axes up to this many per side


def all_heads_side_by_side(stacks: Sequence[tuple[str, np.ndarray]],
                           tokens: Sequence[tuple[Sequence[str], Sequence[str]]], *, title: str, lang: str,
                           height: int = 640) -> go.Figure:
    """Every layer × every head of each attention kind, the kinds side by side (a projector's wide, short
    screen): per kind one tiled image, rows of tiles = heads, columns of tiles = layers, and inside each tile
    the query tokens (rows) and key tokens (columns) named on the axes (`tokens`: per kind, (queries, keys)),
    small, so every tile can be read against its tokens. Longer sentences fall back to H/L labels."""
    n = len(stacks)
    grid = _Grid(1, n, h_space=0.09, titles=[name for name, _ in stacks])
    for index, ((_, maps), (row_tokens, col_tokens)) in enumerate(zip(stacks, tokens, strict=True)):
        maps = np.asarray(maps, dtype=np.float32).transpose(1, 0, 2, 3)  # [H, L, Tq, Tk]: a row of tiles per head
        n_heads, n_layers = maps.shape[:2]
        image, tq, tk = tile_heads(maps)
        ys, xs = np.indices(image.shape)
        trace = {"type": "heatmap", "z": image, "coloraxis": "coloraxis", "hoverongaps": False,
                 "customdata": np.stack([xs // (tk + 1), ys // (tq + 1)], axis=-1).astype(np.int16),
                 "hovertemplate": f"{t('fig.layer', lang)} %{{customdata[0]}} · {t('fig.head', lang)} "
                                  f"%{{customdata[1]}}<br>{t('fig.weight', lang)}: %{{z:.3f}}<extra></extra>"}
        _, x_ref = _axis_name(index, "x")
        layers = f"L0–L{n_layers - 1}" if n_layers > 1 else "L0"
        heads = f"H0–H{n_heads - 1}" if n_heads > 1 else "H0"
        named = len(row_tokens) == tq <= TOKEN_TICKS_MAX and len(col_tokens) == tk <= TOKEN_TICKS_MAX
        if named:
            x_axis = _linear(t("screen.overview_key_axis", lang, layers=layers), tickmode="array", tickangle=-90,
                             tickvals=[i * (tk + 1) + j for i in range(n_layers) for j in range(tk)],
                             ticktext=unique_labels(col_tokens) * n_layers)
            y_axis = _linear(t("screen.overview_query_axis", lang, heads=heads), tickmode="array",
                             tickvals=[h * (tq + 1) + q for h in range(n_heads) for q in range(tq)],
                             ticktext=unique_labels(row_tokens) * n_heads)
        else:
            x_axis = _linear(t("fig.layer_axis", lang), tickmode="array", ticktext=[f"L{i}" for i in range(n_layers)],
                             tickvals=[i * (tk + 1) + (tk - 1) / 2 for i in range(n_layers)])
            y_axis = _linear(t("fig.head_axis", lang), tickmode="array", ticktext=[f"H{h}" for h in range(n_heads)],
                             tickvals=[h * (tq + 1) + (tq - 1) / 2 for h in range(n_heads)])
        grid.add(index, trace, {**x_axis, "tickfont": {"size": 10}},
                 {**y_axis, "tickfont": {"size": 10}, "autorange": "reversed", "scaleanchor": x_ref,
                  "constrain": "domain"})
    grid.layout["coloraxis"] = {"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0,
                                "colorbar": _colorbar(t("fig.weight", lang), length=0.6)}
    grid.layout["meta"] = {"token_ticks": True}  # projector_figure keeps these small tick labels
    return _figure(grid.data, grid.layout, title, height, bgcolor="white")


def head_detail(scores: np.ndarray, weights: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                tokens: Sequence[str], *, title: str, lang: str, masked: np.ndarray | None = None) -> go.Figure:
    """One self-attention head in ONE figure: scores (| masked) | weights on top, Q | K | V below.

    One chart instead of two: a head switch redraws a single plotly plot.
    """
    labels = unique_labels(tokens)
    top = [(t("fig.scores_before", lang), scores, "score")]
    if masked is not None and np.isneginf(np.asarray(masked)).any():
        top.append((t("fig.masked_panel", lang), masked, "score"))
    top.append((t("fig.weights_after", lang), weights, "weight"))
    map_px = max(220.0, min(520.0, 60.0 + 24 * len(labels)))
    vec_px = max(160.0, min(420.0, 40.0 + 20 * len(labels)))
    gap_px = 110.0
    height = int(70 + map_px + gap_px + vec_px + 60)
    titles = [p[0] for p in top] + [""] * (3 - len(top)) + ["Q", "K", "V"]
    grid = _Grid(2, 3, h_space=0.1, v_space=gap_px / (height - 130), row_weights=[map_px, vec_px], titles=titles)
    bound = _finite_bound(scores)
    for index, (_, matrix, kind) in enumerate(top):
        text = _cell_text(len(labels), len(labels), 3)
        if kind == "score":
            trace = attention_trace(matrix, labels, labels, lang=lang, value_title=t("fig.score", lang),
                                    colorscale=DIVERGING_SCALE, zmin=-bound, zmax=bound, zmid=0.0, cell_text=text)
        else:
            trace = attention_trace(matrix, labels, labels, lang=lang, cell_text=text)
        trace["showscale"] = index in (0, len(top) - 1)
        trace["colorbar"] = _colorbar(t("fig.score", lang) if kind == "score" else t("fig.weight", lang),
                                      x=grid.colorbar_x(index), length=0.35, thickness=10)
        trace["colorbar"]["y"] = sum(grid.y_domains[0]) / 2
        grid.add(index, trace, _x_category(t("fig.key_axis", lang), matches="x" if index else None),
                 _y_category(t("fig.query_axis", lang) if index == 0 else None, labels=index == 0,
                             matches="y" if index else None))
    vectors = [np.asarray(a, dtype=np.float32) for a in (q, k, v)]
    common = max(_finite_bound(a) for a in vectors)
    value = t("fig.value", lang)
    hover = (f"{t('fig.token', lang)}: %{{y}}<br>{t('fig.dim', lang)}: %{{x}}<br>{value}: %{{z:.4f}}"
             "<extra></extra>")
    for offset, a in enumerate(vectors):
        index = 3 + offset
        trace = {"type": "heatmap", "z": a, "x": np.arange(a.shape[1], dtype=np.int32), "y": labels,
                 "colorscale": DIVERGING_SCALE, "zmin": -common, "zmax": common, "zmid": 0.0,
                 "showscale": offset == 2, "hovertemplate": hover,
                 "colorbar": {**_colorbar(value, length=0.3, thickness=10), "y": sum(grid.y_domains[1]) / 2}}
        grid.add(index, trace, _linear(t("fig.dim_axis", lang)),
                 _y_category(t("fig.token_axis", lang) if offset == 0 else None, labels=offset == 0,
                             matches="y4" if offset else None))
    return _figure(grid.data, grid.layout, title, height, bgcolor=MASKED_COLOR)
