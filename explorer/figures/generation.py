"""Figure builders for generation (pure: numpy and lists in, plotly Figure out; never streamlit).

- `sampling_bars`: one step's next-token probabilities as the model gives them, after the
  temperature, and after the top-k / top-p cut (renormalised: what the draw uses).
- `beam_tree`: the hypotheses of beam search step by step, with their log-probabilities; pruned
  candidates greyed, finished ones (EOS) marked, the returned hypothesis highlighted.
- `kv_cache_view`: at step t, one decoder layer/head's cached K and V (rows 0..t; later rows do not
  exist yet), the row appended at this step, and the attention weights with which the new query
  reads every cached row.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from explorer.figures.attention import softmax, top_k
from explorer.figures.base import (
    DIVERGING_SCALE,
    _colorbar,
    _figure,
    _finite_bound,
    _Grid,
    _linear,
    _y_category,
    unique_labels,
)
from explorer.i18n import t

CHOSEN_COLOR = "#d93025"
KEPT_COLOR = "#8ab4f8"
CUT_COLOR = "#dadce0"
STATUS_COLORS = {"alive": "#1a73e8", "finished": "#188038", "pruned": "#bdc1c6"}
BEAM_TREE_MAX_STEPS = 64  # an untrained model's beam runs to max_len: draw the start of the tree
SAMPLING_CANDIDATES = 12  # tokens shown in the sampling bars


def empty_output_key(n_output_tokens: int) -> str:
    """What an empty output text means (the text leaves special tokens out): the model said end-of-sentence at once
    (no token before it), or it wrote only special tokens, such as untrained paper-base's <s> up to its limit."""
    return "gen.output_empty" if n_output_tokens == 0 else "gen.output_only_special"


def next_token_candidates(logits: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, probabilities) of the k most likely next tokens at one step, from that step's traced logits [V]
    (softmax in float64, best first)."""
    return top_k(softmax(logits), k)


def sampling_candidates(raw: np.ndarray, k: int = SAMPLING_CANDIDATES) -> np.ndarray:
    """Ids of the k tokens the sampling bars show: the most likely ones before temperature and cut."""
    return top_k(np.asarray(raw), k)[0]


def sampling_bars(tokens: Sequence[str], raw: Sequence[float], tempered: Sequence[float], cut: Sequence[float],
                  chosen: str | None, *, title: str, lang: str, temperature: float,
                  top_k: int | None, top_p: float | None) -> go.Figure:
    """Three panels of horizontal bars over the same candidate tokens (most probable first).

    `raw`, `tempered`, `cut`: probabilities of `tokens` before temperature, after it, and after the
    top-k / top-p cut (0 for a token the cut removed, drawn grey). `chosen` is highlighted.
    """
    labels = unique_labels(tokens)
    raw, tempered, cut = (np.asarray(a, dtype=np.float64) for a in (raw, tempered, cut))
    cut_label = t("gen.panel_cut", lang, k=top_k if top_k else "—", p=f"{top_p:g}" if top_p else "—")
    tempered_label = t("gen.panel_tempered", lang, temperature=f"{temperature:g}")
    panels = [(t("gen.panel_raw", lang), raw), (tempered_label, tempered), (cut_label, cut)]
    grid = _Grid(1, 3, h_space=0.06, titles=[p[0] for p in panels])
    top = max(float(raw.max(initial=0)), float(tempered.max(initial=0)), float(cut.max(initial=0)), 1e-9)
    for index, (_, values) in enumerate(panels):
        colors = [CHOSEN_COLOR if tok == chosen else KEPT_COLOR for tok in tokens]
        if index == 2:
            colors = [CUT_COLOR if v <= 0 else c for v, c in zip(values, colors, strict=True)]
        trace = {
            "type": "bar", "x": values.astype(np.float32), "y": labels, "orientation": "h",
            "marker": {"color": colors},
            "text": [f"{v:.1%}" if v > 0 or index < 2 else t("gen.cut_away", lang) for v in values],
            "textposition": "outside", "cliponaxis": False,
            "hovertemplate": f"{t('fig.token', lang)}: %{{y}}<br>{t('fig.probability', lang)}: %{{x:.4f}}"
                             "<extra></extra>",
        }
        grid.add(index, trace, _linear(t("fig.probability", lang), range=[0, min(1.0, top * 1.15)], showgrid=True),
                 _y_category(t("fig.candidate_axis", lang) if index == 0 else None, labels=index == 0,
                             matches="y" if index else None))
    grid.layout["showlegend"] = False
    return _figure(grid.data, grid.layout, title, max(300, 90 + 26 * len(labels)), bgcolor="white")


@dataclass(frozen=True)
class BeamNode:
    """One candidate at one beam step, as the figure needs it."""

    parent: int  # alive slot of the previous step (the root BOS for step 0)
    label: str
    log_prob: float
    score: float
    status: str  # 'alive' | 'finished' | 'pruned'
    slot: int  # alive slot at this step, -1 otherwise


def beam_paths(steps: Sequence[Sequence[BeamNode]]) -> list[list[tuple[str, ...]]]:
    """For each step, the token path (labels from the first step on) of every node."""
    paths: list[list[tuple[str, ...]]] = []
    alive_before: dict[int, tuple[str, ...]] = {0: ()}
    for nodes in steps:
        here = [(*alive_before.get(node.parent, ()), node.label) for node in nodes]
        paths.append(here)
        alive_before = {node.slot: path for node, path in zip(nodes, here, strict=True) if node.status == "alive"}
    return paths


def _plain(text: str) -> str:
    """`text` as plotly shows it literally: <, > and & as entities (plotly reads `</s>` as a tag and drops it)."""
    return html.escape(text, quote=False)


def beam_tree(steps: Sequence[Sequence[BeamNode]], chosen: Sequence[str], *, title: str, lang: str,
              root_label: str = "<s>") -> go.Figure:
    """The hypothesis tree: x = step, one row per candidate (alive first, in slot order).

    `chosen`: the returned output's tokens (EOS included when it ended with one); its path is
    drawn thick and red. Hover shows each candidate's summed log-probability and its score.
    """
    paths = beam_paths(steps)
    chosen = tuple(chosen)
    positions: list[dict[int, float]] = []  # step -> {alive slot: y}
    xs: dict[str, list] = {s: [] for s in STATUS_COLORS}
    ys: dict[str, list] = {s: [] for s in STATUS_COLORS}
    texts: dict[str, list] = {s: [] for s in STATUS_COLORS}
    hovers: dict[str, list] = {s: [] for s in STATUS_COLORS}
    edge_x: dict[str, list] = {s: [] for s in (*STATUS_COLORS, "chosen")}
    edge_y: dict[str, list] = {s: [] for s in (*STATUS_COLORS, "chosen")}
    best_x, best_y, best_text = [], [], []
    log_p, score_name = t("gen.log_prob", lang), t("gen.score", lang)
    for step, nodes in enumerate(steps):
        order = sorted(range(len(nodes)), key=lambda i: (nodes[i].status != "alive", i))
        y_of = {i: float(rank) for rank, i in enumerate(order)}
        slots = {nodes[i].slot: y_of[i] for i in range(len(nodes)) if nodes[i].status == "alive"}
        positions.append(slots)
        parent_y = positions[step - 1] if step else {0: 0.0}
        for i, node in enumerate(nodes):
            y = y_of[i]
            on_path = paths[step][i] == chosen[: step + 1] and (node.status != "pruned")
            kind = "chosen" if on_path else node.status
            if node.parent in parent_y:
                edge_x[kind] += [step - 1, step, None]
                edge_y[kind] += [parent_y[node.parent], y, None]
            xs[node.status].append(step)
            ys[node.status].append(y)
            shown = _plain(node.label)
            texts[node.status].append(shown)
            hovers[node.status].append(
                f"{shown}<br>{log_p}: {node.log_prob:.3f}<br>{score_name}: {node.score:.3f}")
            if on_path:
                best_x.append(step)
                best_y.append(y)
                best_text.append(_plain(node.label))
    data: list[dict] = []
    for kind in ("pruned", "finished", "alive", "chosen"):
        if edge_x[kind]:
            color = CHOSEN_COLOR if kind == "chosen" else STATUS_COLORS[kind]
            data.append({"type": "scatter", "mode": "lines", "x": edge_x[kind], "y": edge_y[kind],
                         "line": {"color": color, "width": 3 if kind == "chosen" else 1}, "hoverinfo": "skip",
                         "showlegend": False})
    for status in ("pruned", "finished", "alive"):
        if xs[status]:
            data.append({"type": "scatter", "mode": "markers+text", "x": xs[status], "y": ys[status],
                         "text": texts[status], "textposition": "top center", "hovertext": hovers[status],
                         "hoverinfo": "text", "name": _plain(t(f"gen.status_{status}", lang)),
                         "textfont": {"color": "#5f6368" if status == "pruned" else "#202124", "size": 11},
                         "marker": {"color": STATUS_COLORS[status], "size": 9,
                                    "symbol": "star" if status == "finished" else "circle"}})
    if best_x:
        data.append({"type": "scatter", "mode": "markers", "x": best_x, "y": best_y, "hoverinfo": "skip",
                     "name": _plain(t("gen.status_chosen", lang)),
                     "marker": {"color": CHOSEN_COLOR, "size": 13, "symbol": "circle-open", "line": {"width": 2}}})
    data.append({"type": "scatter", "mode": "markers+text", "x": [-1], "y": [0.0], "text": [_plain(root_label)],
                 "textposition": "top center", "marker": {"color": "#202124", "size": 9}, "hoverinfo": "skip",
                 "showlegend": False})
    rows = max((len(nodes) for nodes in steps), default=1)
    layout = {
        "xaxis": _linear(t("gen.beam_step_axis", lang), dtick=1, range=[-1.5, len(steps) - 0.5], showgrid=True),
        "yaxis": _linear(t("gen.beam_rank_axis", lang), autorange="reversed", showticklabels=False),
        "legend": {"orientation": "h", "y": -0.12},
        "hovermode": "closest",
    }
    return _figure(data, layout, title, max(320, min(900, 120 + 34 * rows)), bgcolor="white")


def kv_cache_view(k: np.ndarray, v: np.ndarray, weights: np.ndarray, step: int, tokens: Sequence[str], *,
                  title: str, lang: str) -> go.Figure:
    """One head's K and V [T, d_k] and the query-at-`step` attention row [T], as the cache holds them at `step`.

    Rows 0..step are cached (row `step` was appended at this step); later rows do not exist yet and stay
    blank. The bars show how much the new query reads each cached row (they sum to 1).
    """
    n = k.shape[0]
    labels = unique_labels(tokens)[:n]
    visible = np.arange(n) <= step
    k_shown = np.where(visible[:, None], np.asarray(k, dtype=np.float32), np.nan)
    v_shown = np.where(visible[:, None], np.asarray(v, dtype=np.float32), np.nan)
    reads = np.where(visible, np.asarray(weights, dtype=np.float32), 0.0)
    grid = _Grid(1, 3, h_space=0.05, titles=[t("gen.kv_reads", lang, t=step), t("gen.kv_k", lang),
                                             t("gen.kv_v", lang)])
    grid.x_domains = [(0.0, 0.2), (0.25, 0.6), (0.65, 0.96)]
    colors = [CHOSEN_COLOR if i == step else KEPT_COLOR for i in range(n)]
    grid.add(0, {"type": "bar", "x": reads, "y": labels, "orientation": "h", "marker": {"color": colors},
                 "hovertemplate": f"{t('fig.key_axis', lang)}: %{{y}}<br>{t('fig.weight', lang)}: %{{x:.4f}}"
                                  "<extra></extra>"},
             _linear(t("fig.weight", lang), range=[0, 1], showgrid=True),
             _y_category(t("gen.kv_position_axis", lang)))
    bound = max(_finite_bound(k_shown), _finite_bound(v_shown), 1e-6)
    dims = list(range(k.shape[1]))
    for index, (matrix, name) in enumerate(((k_shown, "K"), (v_shown, "V")), start=1):
        grid.add(index, {"type": "heatmap", "z": matrix, "x": dims, "y": labels, "colorscale": DIVERGING_SCALE,
                         "zmin": -bound, "zmax": bound, "showscale": index == 2,
                         "colorbar": _colorbar(t("fig.value", lang), x=grid.colorbar_x(2)),
                         "hovertemplate": f"{name}<br>{t('gen.kv_position_axis', lang)}: %{{y}}<br>"
                                          f"{t('gen.kv_dim_axis', lang)}: %{{x}}<br>{t('fig.value', lang)}: %{{z:.3f}}"
                                          "<extra></extra>"},
                 _linear(t("gen.kv_dim_axis", lang)), _y_category(None, labels=False, matches="y"))
    shapes = []
    for index in (1, 2):  # a frame around the row appended at this step
        x_key = "x" if index == 0 else f"x{index + 1}"
        y_key = "y" if index == 0 else f"y{index + 1}"
        shapes.append({"type": "rect", "xref": f"{x_key} domain", "yref": y_key, "x0": 0, "x1": 1,
                       "y0": step - 0.5, "y1": step + 0.5, "line": {"color": CHOSEN_COLOR, "width": 2}})
    grid.layout["shapes"] = shapes
    grid.layout["showlegend"] = False
    return _figure(grid.data, grid.layout, title, max(300, min(900, 110 + 22 * n)))
