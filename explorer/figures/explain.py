"""/explain ("Why this output?"): pure builders for the methods side by side, the agreement table, the
logit-lens table and the patching grid. numpy + token strings in, plotly / pandas out; no streamlit, no model.

Every method's row is shown divided by its own largest absolute value, so all of them share one
colour scale from −1 to 1 (attention is never negative; gradients can be).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures.base import DIVERGING_SCALE, FONT_FAMILY, WEIGHT_SCALE, unique_labels
from explorer.i18n import t


def normalised(values: np.ndarray) -> np.ndarray:
    """values / max |values| (all zeros stay zeros)."""
    values = np.asarray(values, dtype=np.float64)
    bound = float(np.abs(values).max()) if values.size else 0.0
    return values / bound if bound > 0 else values


def top_source(values: np.ndarray, candidates: int) -> int:
    """The source position with the largest value among the first `candidates` (the rest, e.g. </s>, excluded)."""
    values = np.asarray(values, dtype=np.float64)
    return int(values[:max(1, candidates)].argmax())


def methods_figure(methods: Mapping[str, np.ndarray], src_tokens: Sequence[str], *, title: str,
                   lang: str) -> go.Figure:
    """One bar panel per method, stacked, on the same source-token axis; bars coloured on one shared scale."""
    labels = unique_labels(src_tokens)
    n = len(methods)
    gap = 0.06
    height = (1.0 - gap * (n - 1)) / max(n, 1)
    data, layout = [], {}
    for i, (name, values) in enumerate(methods.items()):
        scaled = normalised(values)
        suffix = "" if i == 0 else str(i + 1)
        top = 1.0 - i * (height + gap)
        data.append({
            "type": "bar", "x": labels, "y": scaled.tolist(), "xaxis": f"x{suffix}", "yaxis": f"y{suffix}",
            "name": name, "showlegend": False, "customdata": np.asarray(values, dtype=np.float64).tolist(),
            "marker": {"color": scaled.tolist(), "coloraxis": "coloraxis"},
            "hovertemplate": f"{name}<br>%{{x}}: %{{customdata:.4f}} (%{{y:.2f}})<extra></extra>",
        })
        layout[f"xaxis{suffix}"] = {"type": "category", "anchor": f"y{suffix}", "showticklabels": i == n - 1,
                                    "tickangle": -45, "automargin": True, "matches": "x" if i else None}
        layout[f"yaxis{suffix}"] = {"domain": [max(0.0, top - height), top], "range": [-1.05, 1.05],
                                    "zeroline": True, "zerolinecolor": "#888", "showgrid": False,
                                    "tickvals": [-1, 0, 1], "ticktext": ["−1", "0", "1"], "automargin": True,
                                    "anchor": f"x{suffix}"}
        layout.setdefault("annotations", []).append({
            "text": f"<b>{name}</b>", "xref": "paper", "yref": "paper", "x": 0.0, "y": top, "xanchor": "left",
            "yanchor": "bottom", "showarrow": False, "font": {"size": 12},
        })
    layout["xaxis" if n == 1 else f"xaxis{n}"]["title"] = {"text": t("explain.axis_source", lang), "standoff": 6}
    for key in [k for k in layout if k.startswith("xaxis") and layout[k].get("matches") is None]:
        layout[key].pop("matches", None)
    layout["coloraxis"] = {"colorscale": DIVERGING_SCALE, "cmin": -1.0, "cmax": 1.0, "cmid": 0.0,
                           "colorbar": {"title": {"text": t("explain.colour_title", lang)}, "thickness": 10,
                                        "len": 0.6}}
    layout.update({
        "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 15}},
        "height": 150 + 120 * n, "margin": {"l": 40, "r": 10, "t": 70, "b": 10},
        "font": {"family": FONT_FAMILY, "size": 12}, "plot_bgcolor": "white", "paper_bgcolor": "white",
        "bargap": 0.25,
    })
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def agreement_table(methods: Mapping[str, np.ndarray], src_tokens: Sequence[str], reference: str,
                    candidates: int, gold: Sequence[int] | None, *, lang: str) -> pd.DataFrame:
    """Per method: its top source token, whether attention's top token (`reference`) is the same, and whether
    it is a gold source token (column left out when `gold` is None)."""
    ref_top = top_source(methods[reference], candidates)
    rows = []
    for name, values in methods.items():
        top = top_source(values, candidates)
        row = {t("explain.col_method", lang): name, t("explain.col_top", lang): f"{top}: {src_tokens[top]}",
               t("explain.col_agrees", lang): "—" if name == reference else ("✓" if top == ref_top else "✗")}
        if gold is not None:
            row[t("explain.col_gold", lang)] = "✓" if top in gold else "✗"
        rows.append(row)
    return pd.DataFrame(rows)


def agreement_counts(methods: Mapping[str, np.ndarray], reference: str, candidates: int,
                     gold: Sequence[int] | None) -> tuple[int, int, int]:
    """(methods agreeing with `reference`'s top token, other methods, methods whose top is gold) for one row."""
    ref_top = top_source(methods[reference], candidates)
    others = [name for name in methods if name != reference]
    agree = sum(top_source(methods[name], candidates) == ref_top for name in others)
    on_gold = 0 if gold is None else sum(top_source(v, candidates) in gold for v in methods.values())
    return agree, len(others), on_gold


def logit_lens_table(top_tokens: Sequence[Sequence[str]], top_probs: np.ndarray, position_labels: Sequence[str],
                     *, lang: str) -> pd.DataFrame:
    """Layers x positions: each cell 'token (p %)' of the most likely next token read at that layer."""
    probs = np.asarray(top_probs, dtype=np.float64)
    columns = unique_labels(position_labels, escape=False)
    index = [t("explain.lens_layer", lang, layer=i) for i in range(len(top_tokens))]
    cells = [[f"{token} ({100 * p:.0f} %)" for token, p in zip(row, prow, strict=True)]
             for row, prow in zip(top_tokens, probs, strict=True)]
    return pd.DataFrame(cells, index=index, columns=columns)


MEASURABLE_GAP = 0.05  # below this |p_A − p_B|, the share (p − p_B)/(p_A − p_B) divides by noise


def most_changed_row(p_a: np.ndarray, p_b: np.ndarray) -> int:
    """The output token whose probability differs most between A and B (where patching has most to show)."""
    gaps = np.abs(np.asarray(p_a, dtype=np.float64) - np.asarray(p_b, dtype=np.float64))
    return int(gaps.argmax()) if gaps.size else 0


def measurable(p_a: float, p_b: float) -> bool:
    """Whether A and B differ enough on a token for the recovered share to mean anything."""
    return abs(float(p_a) - float(p_b)) >= MEASURABLE_GAP


def patching_figure(grid: np.ndarray, layer_labels: Sequence[str], position_labels: Sequence[str], *, title: str,
                    lang: str) -> go.Figure:
    """Layers x positions heatmap of the share of A's probability that comes back (clipped to [0, 1] in colour,
    exact value on hover); nan cells (A and B agree) stay blank."""
    z = np.asarray(grid, dtype=np.float64)
    labels = unique_labels(position_labels)
    # Short cell text (blank near 0) so a 10-position grid still reads on a 390 px phone; hover has 3 decimals.
    text = [["" if np.isnan(v) or abs(v) < 0.05 else f"{v:.1f}" for v in row] for row in z]
    data = [{
        "type": "heatmap", "z": np.clip(z, 0.0, 1.0).tolist(), "x": labels, "y": list(layer_labels), "text": text,
        "customdata": np.where(np.isnan(z), None, np.round(z, 3)).tolist(),
        "texttemplate": "%{text}" if z.size <= 160 else None, "textfont": {"size": 10},
        "colorscale": WEIGHT_SCALE, "zmin": 0.0, "zmax": 1.0,
        "colorbar": {"title": {"text": t("explain.recovered", lang)}, "thickness": 10},
        "hovertemplate": t("explain.patch_hover", lang) + "<extra></extra>",
    }]
    layout = {
        "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 15}},
        "xaxis": {"type": "category", "tickangle": -45, "automargin": True,
                  "title": {"text": t("explain.axis_position", lang), "standoff": 6}},
        "yaxis": {"type": "category", "autorange": "reversed", "automargin": True,
                  "title": {"text": t("explain.axis_layer", lang), "standoff": 6}},
        "height": 200 + 40 * len(layer_labels), "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "font": {"family": FONT_FAMILY, "size": 12}, "plot_bgcolor": "#eeeeee", "paper_bgcolor": "white",
    }
    return go.Figure({"data": data, "layout": layout}, _validate=False)
