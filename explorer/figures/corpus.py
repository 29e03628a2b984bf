"""Figures for /corpus (what each head does across many sentences): pure plotly/pandas, no streamlit, no model.

Inputs are the numbers transformer_core.analysis.heads computed (statistics, distances, the query/key map);
labels arrive already translated, so these builders only lay things out.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures.base import (
    FONT_FAMILY,
    SEQUENTIAL_SCALE,
    WEIGHT_SCALE,
    _colorbar,
    _figure,
    _Grid,
    _x_category,
    _y_category,
    attention_trace,
    unique_labels,
)
from explorer.i18n import t

MAX_LINES = 1000  # pasted / uploaded corpora (the page says so beyond it)


def parse_corpus_text(text: str) -> list[str]:
    """Non-empty stripped lines of pasted or uploaded text (a BOM and Windows line ends are fine)."""
    return [line.strip() for line in text.lstrip("\ufeff").splitlines() if line.strip()]


def behaviour_heatmap(values: np.ndarray, head_labels: Sequence[str], behaviour_labels: Sequence[str], *,
                      title: str, lang: str) -> go.Figure:
    """Heads (rows) × behaviours (columns): shares of attention weight in [0, 1]; NaN (not measured) blank."""
    z = np.asarray(values, dtype=np.float64)
    text = [["" if math.isnan(v) else f"{v:.2f}" for v in row] for row in z]
    share = t("corpus.share", lang)
    # plotly reads labels as HTML: "</s>" would vanish unescaped.
    trace = {"type": "heatmap", "z": np.where(np.isnan(z), None, z).tolist(),
             "x": [html.escape(b) for b in behaviour_labels], "y": [html.escape(h) for h in head_labels],
             "colorscale": WEIGHT_SCALE, "zmin": 0.0, "zmax": 1.0, "text": text,
             "texttemplate": "%{text}", "textfont": {"size": 10}, "colorbar": _colorbar(share),
             "hovertemplate": "%{y} · %{x}<br>" + share + ": %{z:.3f}<extra></extra>", "xgap": 1, "ygap": 1}
    layout = {"xaxis": {**_x_category(t("corpus.behaviour_axis", lang)), "side": "top", "tickangle": -35},
              "yaxis": _y_category(t("fig.head_axis", lang))}
    layout["yaxis"]["tickfont"] = {"size": 10}
    fig = _figure([trace], layout, title, max(360, min(1400, 150 + 20 * len(head_labels))), bgcolor="white")
    fig.update_layout(margin={"t": 120})  # the title above the column labels (they sit on top)
    return fig


def stats_frame(rows: Sequence[dict], columns: dict[str, str], groups: Sequence[str]) -> pd.DataFrame:
    """The sortable table: one row per head (rows from HeadStatistics.rows(), with a 'label'), the group name
    beside; `columns` maps 'head', 'group' and every statistic to its column title."""
    records = []
    for row, group in zip(rows, groups, strict=True):
        record = {columns["head"]: row["label"], columns["group"]: group}
        for stat in ("diagonal", "previous", "next", "first", "last", "aligned", "entropy"):
            value = row[stat]
            if value is not None and stat == "entropy":  # the core counts nats; the app shows bits on every page
                value = float(value) / math.log(2)
            record[columns[stat]] = None if value is None else round(float(value), 3)
        records.append(record)
    return pd.DataFrame.from_records(records)


def similarity_map(distance: np.ndarray, order: Sequence[int], head_labels: Sequence[str],
                   group_labels: Sequence[str], *, title: str, lang: str) -> go.Figure:
    """1 − JS distance between heads, rows and columns in the clustering order, each label with its group."""
    order = list(order)
    sim = 1.0 - np.asarray(distance, dtype=np.float64)[np.ix_(order, order)]
    labels = [html.escape(f"{head_labels[i]} · {group_labels[i]}") for i in order]
    name = t("corpus.similarity_value", lang)
    trace = {"type": "heatmap", "z": sim.astype(np.float32), "x": labels, "y": labels,
             "colorscale": SEQUENTIAL_SCALE, "zmin": 0.0, "zmax": 1.0, "colorbar": _colorbar(name),
             "hovertemplate": "%{y}<br>↔ %{x}<br>" + name + ": %{z:.3f}<extra></extra>"}
    x_axis, y_axis = _x_category(t("fig.head_axis", lang)), _y_category(t("fig.head_axis", lang))
    x_axis["tickfont"] = y_axis["tickfont"] = {"size": 9}
    return _figure([trace], {"xaxis": x_axis, "yaxis": y_axis}, title,
                   max(420, min(1100, 200 + 16 * len(labels))))


def group_table(groups: dict[str, list[str]], group_names: dict[str, str], columns: dict[str, str]) -> pd.DataFrame:
    """One row per named group: its name and its heads (labels)."""
    return pd.DataFrame.from_records([{columns["group"]: group_names[g], columns["heads"]: ", ".join(heads),
                                       columns["count"]: len(heads)} for g, heads in groups.items()])


def query_key_scatter(x: Sequence[float], y: Sequence[float], role: Sequence[str], token: Sequence[str],
                      position: Sequence[int], sentence_text: Sequence[str], *, title: str, lang: str,
                      explained: tuple[float, float]) -> go.Figure:
    """Queries (circles) and keys (crosses) of one head on the same two principal axes, coloured by position."""
    x, y = np.asarray(x, dtype=np.float32), np.asarray(y, dtype=np.float32)
    role, position = np.asarray(role), np.asarray(position)
    top = int(position.max()) if len(position) else 1
    data = []
    for kind, symbol in (("query", "circle"), ("key", "x")):
        keep = role == kind
        label = t(f"corpus.{kind}", lang)
        data.append({
            # SVG, not WebGL: ~2000 points draw at once in SVG, while scattergl's WebGL start-up was most of a
            # cached /corpus reload in a browser without a GPU (software rendering: school laptops, Chromium here)
            "type": "scatter", "mode": "markers", "name": label, "x": x[keep].tolist(), "y": y[keep].tolist(),
            "marker": {"symbol": symbol, "size": 7 if kind == "query" else 8, "color": position[keep].tolist(),
                       "colorscale": SEQUENTIAL_SCALE, "cmin": 0, "cmax": max(top, 1), "opacity": 0.75,
                       "showscale": kind == "query", "colorbar": _colorbar(t("corpus.position", lang))},
            "customdata": [[tok, int(p), s] for tok, p, s, k in zip(token, position, sentence_text, keep,
                                                                     strict=True) if k],
            "hovertemplate": label + ": <b>%{customdata[0]}</b> (" + t("corpus.position", lang)
                             + " %{customdata[1]})<br>%{customdata[2]}<extra></extra>",
        })
    layout = {
        "xaxis": {"title": {"text": t("corpus.pc", lang, n=1, share=f"{explained[0]:.0%}")}, "zeroline": False,
                  "automargin": True},
        "yaxis": {"title": {"text": t("corpus.pc", lang, n=2, share=f"{explained[1]:.0%}"), "standoff": 6},
                  "zeroline": False, "automargin": True},
        "legend": {"orientation": "h", "y": -0.18, "x": 0},
    }
    fig = _figure(data, layout, title, 520, bgcolor="white")
    fig.update_layout(font={"family": FONT_FAMILY})
    return fig


def sentence_table(indices: Sequence[int], values: Sequence[float], texts: Sequence[str],
                   columns: dict[str, str]) -> pd.DataFrame:
    """The sentences where a head shows a behaviour most (or least): rank, value, sentence."""
    return pd.DataFrame.from_records([{columns["rank"]: r + 1, columns["value"]: round(float(v), 3),
                                       columns["sentence"]: texts[i]}
                                      for r, (i, v) in enumerate(zip(indices, values, strict=True))])


def head_column(stat_rows: Sequence[dict], behaviour_names: dict[str, str]) -> list[str | None]:
    """The /heads table's "behaviour over N sentences" cell of each head: its largest share, e.g.
    'previous 0.82' (None when the head has no corpus row)."""
    cells: list[str | None] = []
    for row in stat_rows:
        if row is None:
            cells.append(None)
            continue
        shares = {b: row[b] for b in behaviour_names if row.get(b) is not None}
        best = max(shares, key=lambda b: shares[b])
        cells.append(f"{behaviour_names[best]} {shares[best]:.2f}")
    return cells


def sentence_maps(maps: Sequence[tuple[np.ndarray, Sequence[str], Sequence[str]]], panel_titles: Sequence[str], *,
                  title: str, lang: str, row_title: str, col_title: str) -> go.Figure:
    """Several sentences' attention maps of one head as panels of ONE figure, one under the other (each its
    own tokens; one colour scale 0..1). One chart instead of one per sentence: a browser draws many separate
    plotly charts slowly (the cached /corpus reload spent most of its time drawing 13 of them)."""
    heights = [max(4, len(rows)) for _, rows, _ in maps]
    gap_px, top_px, bottom_px, row_px = 130.0, 70.0, 90.0, 24.0
    plot_px = row_px * sum(heights) + gap_px * (len(maps) - 1)
    grid = _Grid(len(maps), 1, v_space=gap_px / plot_px if len(maps) > 1 else 0.0, row_weights=heights,
                 titles=list(panel_titles))
    for index, (weights, rows, cols) in enumerate(maps):
        trace = attention_trace(weights, unique_labels(rows), unique_labels(cols), lang=lang, coloraxis="coloraxis",
                                row_title=row_title, col_title=col_title)
        grid.add(index, trace, _x_category(col_title), _y_category(row_title))
    grid.layout["coloraxis"] = {"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": 1.0,
                                "colorbar": _colorbar(t("fig.weight", lang), length=min(1.0, 400 / plot_px))}
    return _figure(grid.data, grid.layout, title, int(top_px + bottom_px + plot_px))

