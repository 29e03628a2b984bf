"""One step, ready to lay out (StepView), and the small helpers every step builder uses."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures import figures
from explorer.figures.lesson.questions import Question
from explorer.figures.lesson.steps import LessonStep
from explorer.i18n import t


@dataclass
class StepView:
    """Everything a step shows: its text (Markdown), shape, equation (LaTeX), ONE figure (a plotly
    figure, or token chips HTML, or a small table), the optional question and what the reveal says."""

    step: LessonStep
    title: str
    body: str
    shape: str
    latex: str
    figure: go.Figure | None = None
    chips_html: str | None = None
    table: pd.DataFrame | None = None
    question: Question | None = None
    reveal: str = ""  # Markdown said once the answer is shown
    page_title_key: str = ""
    focus: str = ""  # which layer / head / query position the step follows (Markdown)
    more_title: str = ""  # a folded part of the text (its title; "" = none): what would not fit one projector screen
    more: str = ""  # its Markdown


PAGE_TITLES = {"pages/tokens.py": "nav.tokens", "pages/embeddings.py": "nav.embeddings",
                "pages/encoder.py": "nav.encoder", "pages/decoder.py": "nav.decoder", "pages/heads.py": "nav.heads",
               "pages/history.py": "nav.history", "pages/train.py": "nav.train"}


def plain(token: str) -> str:
    """A token inside a plotly title: HTML-escaped (plotly reads titles as pseudo-HTML)."""
    return html.escape(token, quote=False)


def chain_step(steps, key: str):
    return next(s for s in steps if s.key == key)


def row_bars(values: np.ndarray, tokens: Sequence[str], highlight: int, *, title: str, lang: str,
              value_title: str, bounded: bool) -> go.Figure:
    """One query's row (scores or weights over the keys) as horizontal bars, one per key token."""
    labels = figures.unique_labels(tokens)
    values = np.asarray(values, dtype=np.float32)
    colors = ["#d93025" if i == highlight else "#8ab4f8" for i in range(len(labels))]
    trace = {"type": "bar", "x": values, "y": labels, "orientation": "h", "marker": {"color": colors},
             "text": [f"{v:.2f}" for v in values], "textposition": "auto",
             "hovertemplate": f"{t('fig.key', lang)}: %{{y}}<br>{value_title}: %{{x:.4f}}<extra></extra>"}
    x_axis = figures._linear(value_title, showgrid=True, zeroline=True)
    if bounded:
        x_axis["range"] = [0, 1]
    layout = {"xaxis": x_axis, "yaxis": figures._y_category(t("fig.key_bar_axis", lang))}
    return figures._figure([trace], layout, title, max(300, 90 + 34 * len(labels)), bgcolor="white")


def step_title(step: LessonStep, lang: str) -> str:
    return t(f"lesson.{step.id}.title", lang)


def step_body(step: LessonStep, lang: str, **values) -> str:
    return t(f"lesson.{step.id}.body", lang, **values)
