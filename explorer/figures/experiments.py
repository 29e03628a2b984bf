"""Pure figure and table builders for the /experiments page (what-if interventions); no streamlit here.

Inputs are token lists, numpy arrays from traces and the head-importance dict (importance.py).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures.figures import unique_labels
from explorer.i18n import md_escape, t

BEFORE_COLOR, AFTER_COLOR = "#4C78A8", "#E45756"


def changed_flags(original: Sequence[str], patched: Sequence[str]) -> tuple[list[bool], list[bool]]:
    """Which tokens differ between two outputs (difflib alignment): flags for the original and the patched."""
    before, after = [False] * len(original), [False] * len(patched)
    matcher = difflib.SequenceMatcher(a=list(original), b=list(patched), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            before[i1:i2] = [True] * (i2 - i1)
            after[j1:j2] = [True] * (j2 - j1)
    return before, after


def highlight_markdown(tokens: Sequence[str], flags: Sequence[bool], color: str = "orange") -> str:
    """Tokens as Markdown, changed ones on a coloured background (every token escaped: user text)."""
    if not tokens:
        return "∅"
    parts = [f":{color}-background[{md_escape(tok)}]" if flag else md_escape(tok)
             for tok, flag in zip(tokens, flags, strict=True)]
    return " ".join(parts)


def token_probabilities(logits: np.ndarray, ids: Sequence[int]) -> np.ndarray:
    """[T, V] logits and T token ids -> [T] softmax probability of each id at its row (float64)."""
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    ids = np.asarray(ids, dtype=np.int64)
    return np.exp(log_p[np.arange(len(ids)), ids])


def probability_table(tokens: Sequence[str], before: np.ndarray, after: np.ndarray,
                      patched_tokens: Sequence[str], columns: dict[str, str]) -> pd.DataFrame:
    """One row per generated step: the original token, its probability before and after, the patched model's
    own token at that step ('' past its end). `columns`: keys step, token, before, after, patched."""
    own = list(patched_tokens) + [""] * max(0, len(tokens) - len(patched_tokens))
    return pd.DataFrame({
        columns["step"]: range(len(tokens)),
        columns["token"]: list(tokens),
        columns["before"]: np.round(np.asarray(before, dtype=np.float64), 4),
        columns["after"]: np.round(np.asarray(after, dtype=np.float64), 4),
        columns["patched"]: own[: len(tokens)],
    })


def probability_figure(tokens: Sequence[str], before: np.ndarray, after: np.ndarray, *, title: str,
                       lang: str) -> go.Figure:
    """Grouped bars per generated step: probability of the ORIGINAL token, original model vs patched model."""
    labels = unique_labels(tokens)
    fig = go.Figure([
        go.Bar(name=t("whatif.before", lang), x=labels, y=np.asarray(before, dtype=np.float64),
               marker_color=BEFORE_COLOR, hovertemplate="%{x}: %{y:.3f}<extra></extra>"),
        go.Bar(name=t("whatif.after", lang), x=labels, y=np.asarray(after, dtype=np.float64),
               marker_color=AFTER_COLOR, hovertemplate="%{x}: %{y:.3f}<extra></extra>"),
    ])
    fig.update_layout(title=title, barmode="group", height=340, margin={"l": 60, "r": 20, "t": 60, "b": 60},
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
                      xaxis={"title": t("whatif.axis_step", lang), "type": "category"},
                      yaxis={"title": t("whatif.axis_prob", lang), "range": [0, 1.02]})
    return fig


def importance_table(rows: list[dict], columns: dict[str, str]) -> pd.DataFrame:
    """The head-importance table of `rows` as ranked (explorer/services.py ranked_importance: heads, most important
    first, then whole layers), percentages rounded to 0.1; heads are numbered, layers not.

    `columns`: keys rank, id, exact, exact_drop, align, align_drop.
    """
    pct = lambda v: round(100.0 * float(v), 1)  # noqa: E731
    return pd.DataFrame({
        columns["rank"]: [i + 1 if "head" in r else None for i, r in enumerate(rows)],
        columns["id"]: [r["id"] for r in rows],
        columns["exact"]: [pct(r["exact_match"]) for r in rows],
        columns["exact_drop"]: [pct(r["exact_match_drop"]) for r in rows],
        columns["align"]: [pct(r["alignment_accuracy"]) for r in rows],
        columns["align_drop"]: [pct(r["alignment_drop"]) for r in rows],
    })


def importance_by_head(result: dict | None) -> dict[str, float]:
    """Head id ('cross.1.2') -> exact-match drop in percentage points (empty without a result)."""
    if not result:
        return {}
    return {r["id"]: round(100.0 * float(r["exact_match_drop"]), 1) for r in result["heads"]}


def output_change(original: np.ndarray, patched: np.ndarray) -> np.ndarray:
    """Encoder-only models: per token, 1 − cosine similarity of the final states ([S, D] each)."""
    a, b = np.asarray(original, dtype=np.float64), np.asarray(patched, dtype=np.float64)
    norms = np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)
    cos = np.divide((a * b).sum(-1), norms, out=np.ones(len(a)), where=norms > 0)
    return 1.0 - cos


def change_figure(tokens: Sequence[str], change: np.ndarray, *, title: str, lang: str) -> go.Figure:
    """Bars: how much each token's final encoder state moved (1 − cosine)."""
    fig = go.Figure(go.Bar(x=unique_labels(tokens), y=np.asarray(change, dtype=np.float64), marker_color=AFTER_COLOR,
                           hovertemplate="%{x}: %{y:.4f}<extra></extra>"))
    fig.update_layout(title=title, height=320, margin={"l": 60, "r": 20, "t": 60, "b": 60},
                      xaxis={"title": t("whatif.axis_token", lang), "type": "category"},
                      yaxis={"title": t("whatif.axis_change", lang)})
    return fig
