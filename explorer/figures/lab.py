"""Figures and small tables of the training lab (pure: numbers in, plotly figures / DataFrames out).

The curves: training loss (top) and held-out exact match + alignment accuracy in % (bottom), one
figure with a shared step axis; a vertical line marks the snapshot shown. The attention map of a
snapshot is the ordinary labelled heatmap of explorer.figures.figures, for one kind / layer / head.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures.figures import FONT_FAMILY, attention_heatmap
from explorer.i18n import t
from transformer_core.tracing.names import AttentionKind

LOSS_COLOR, EXACT_COLOR, ALIGN_COLOR, MARK_COLOR = "#1f77b4", "#2ca02c", "#ff7f0e", "#d62728"


def format_duration(seconds: float) -> str:
    """'1:05' for 65 s (minutes:seconds), never negative."""
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def progress_fraction(step: int, seconds: float, budget_s: float, max_steps: int = 0) -> float:
    """How far a run is, 0..1: the larger of time used / budget and steps / step limit."""
    by_time = seconds / budget_s if budget_s else 0.0
    by_steps = step / max_steps if max_steps else 0.0
    return float(min(1.0, max(by_time, by_steps, 0.0)))


def remaining_seconds(step: int, seconds: float, budget_s: float, max_steps: int = 0) -> float:
    """Time left: the budget's rest, or the step limit's at the current speed if that comes first."""
    left = max(0.0, budget_s - seconds) if budget_s else float("inf")
    if max_steps and step > 0 and seconds > 0:
        left = min(left, (max_steps - step) * seconds / step)
    return 0.0 if left == float("inf") else left


def curves_figure(history: Sequence[tuple[int, float]], points: Sequence[dict], *, lang: str,
                  marker_step: int | None = None, reverse_task: bool = False, classifier: bool = False,
                  height: int = 420) -> go.Figure:
    """Loss over steps (top) and held-out exact match / alignment in % (bottom), shared x axis.

    history: (step, smoothed training loss) pairs; points: dicts with step, exact_match, alignment
    (0..1) taken at snapshots; marker_step: a vertical line on both panels (the snapshot shown).
    classifier: the speech-level classifier's names for the two (held-out accuracy, [CLS] on the ending).
    """
    steps = [s for s, _ in history]
    losses = [v for _, v in history]
    snap_steps = [p["step"] for p in points]
    align_name = t("fig.lab.cls_ending" if classifier else
                   "fig.lab.alignment_reverse" if reverse_task else "fig.lab.alignment", lang)
    exact_name = t("fig.lab.accuracy" if classifier else "fig.lab.exact", lang)
    step_title = t("fig.lab.step", lang)
    data = [
        {"type": "scatter", "mode": "lines", "x": steps, "y": losses, "name": t("fig.lab.loss", lang),
         "line": {"color": LOSS_COLOR, "width": 2}, "xaxis": "x", "yaxis": "y",
         "hovertemplate": f"{step_title} %{{x}}<br>%{{y:.3f}}<extra></extra>"},
        {"type": "scatter", "mode": "lines+markers", "x": snap_steps, "y": [100 * p["exact_match"] for p in points],
         "name": exact_name, "line": {"color": EXACT_COLOR}, "marker": {"size": 5},
         "xaxis": "x2", "yaxis": "y2", "hovertemplate": f"{step_title} %{{x}}<br>%{{y:.1f}} %<extra></extra>"},
        {"type": "scatter", "mode": "lines+markers", "x": snap_steps, "y": [100 * p["alignment"] for p in points],
         "name": align_name, "line": {"color": ALIGN_COLOR, "dash": "dot"}, "marker": {"size": 5},
         "xaxis": "x2", "yaxis": "y2", "hovertemplate": f"{step_title} %{{x}}<br>%{{y:.1f}} %<extra></extra>"},
    ]
    right = max([*steps, *snap_steps, 1])
    layout: dict = {
        "height": height, "margin": {"l": 60, "r": 20, "t": 40, "b": 50},
        "title": {"text": t("fig.lab.curves", lang), "font": {"size": 15}},
        "font": {"family": FONT_FAMILY}, "plot_bgcolor": "white", "hovermode": "x",
        "legend": {"orientation": "h", "y": -0.18, "x": 0},
        "xaxis": {"domain": [0, 1], "anchor": "y", "range": [0, right * 1.02], "showticklabels": False,
                  "gridcolor": "#eee"},
        "yaxis": {"domain": [0.56, 1], "title": {"text": t("fig.lab.loss", lang)}, "gridcolor": "#eee",
                  "rangemode": "tozero"},
        "xaxis2": {"domain": [0, 1], "anchor": "y2", "matches": "x", "title": {"text": step_title},
                   "gridcolor": "#eee"},
        "yaxis2": {"domain": [0, 0.44], "title": {"text": t("fig.lab.percent", lang)}, "range": [-3, 103],
                   "gridcolor": "#eee"},
        "shapes": [],
    }
    if marker_step is not None:
        for yref in ("y domain", "y2 domain"):
            layout["shapes"].append({"type": "line", "x0": marker_step, "x1": marker_step, "y0": 0, "y1": 1,
                                     "xref": "x" if yref.startswith("y ") else "x2", "yref": yref,
                                     "line": {"color": MARK_COLOR, "width": 2, "dash": "dash"}})
        layout["annotations"] = [{"x": marker_step, "y": 1, "xref": "x", "yref": "y domain", "yanchor": "bottom",
                                  "text": t("fig.lab.shown", lang), "showarrow": False,
                                  "font": {"color": MARK_COLOR, "size": 11}}]
    return go.Figure(data=data, layout=layout)


def tokens_of_kind(kind: str, src_tokens: list[str], tgt_tokens: list[str]) -> tuple[list[str], list[str]]:
    """(row tokens, column tokens) of an attention kind (rows = queries)."""
    if kind == AttentionKind.ENCODER_SELF:
        return src_tokens, src_tokens
    if kind == AttentionKind.DECODER_SELF:
        return tgt_tokens, tgt_tokens
    return tgt_tokens, src_tokens


def snapshot_attention_figure(attention: np.ndarray, src_tokens: list[str], tgt_tokens: list[str], *, kind: str,
                              layer: int, head: int, step: int, lang: str) -> go.Figure:
    """One head's map of a snapshot: attention is [L, H, Q, K] for `kind`."""
    rows, cols = tokens_of_kind(kind, src_tokens, tgt_tokens)
    matrix = np.asarray(attention[layer, head], dtype=np.float32)
    title = t("fig.lab.attention", lang, kind=t(f"kind.{kind}", lang), layer=layer, head=head, step=step)
    return attention_heatmap(matrix, rows, cols, title=title, lang=lang)


def cls_rows_figure(attention: np.ndarray, tokens: list[str], *, ending: int, step: int, lang: str) -> go.Figure:
    """The classifier's [CLS] row per layer: attention is a snapshot's encoder self-attention [L, H, S, S];
    the map is [layers, keys] of row 0 averaged over heads, the verb ending (key `ending`, training/classify.py's
    ending_index) boxed."""
    rows = np.asarray(attention, dtype=np.float32)[:, :, 0, :].mean(axis=1)
    layers = [f"L{i}" for i in range(rows.shape[0])]  # as /explain's layer axis; the axis title names it
    fig = attention_heatmap(rows, layers, tokens, title=t("lab.cls_rows", lang, step=step), lang=lang,
                            row_title=t("lab.layer", lang), col_title=t("fig.key_bar_axis", lang))
    fig.add_shape(type="rect", x0=ending - 0.5, x1=ending + 0.5, y0=-0.5, y1=rows.shape[0] - 0.5,
                  line={"color": MARK_COLOR, "width": 3})
    return fig


def preset_table(rows: Sequence[dict], *, lang: str) -> pd.DataFrame:
    """Presets with their numbers: rows of {preset, d_model, heads, layers, d_ff, params}."""
    return pd.DataFrame({
        t("lab.col.preset", lang): [t(f"lab.preset.{r['preset']}", lang) for r in rows],
        t("lab.col.d_model", lang): [r["d_model"] for r in rows],
        t("lab.col.heads", lang): [r["heads"] for r in rows],
        t("lab.col.layers", lang): [f"{r['layers']}+{r.get('decoder_layers', r['layers'])}" for r in rows],
        t("lab.col.d_ff", lang): [r["d_ff"] for r in rows],
        t("lab.col.params", lang): [f"{r['params']:,}" for r in rows],
    })
