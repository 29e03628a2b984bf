"""2015 → 2017 (/history): the attention RNN next to the Transformer, on one sentence (pure: traces and
numpy in; plotly figures, LaTeX strings and pandas tables out; no streamlit).

Every number shown is read from a trace or is a one-line recomputation from other traced tensors
of the same pass (vᵀ tanh(W_s s + W_h h) from the traced W_s s_{t-1} and W_h h_j and the weight v;
q·k/√d_k from the traced q and k), printed next to the recorded value so they can be compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures.figures import FONT_FAMILY, attention_heatmap, heads_grid
from explorer.figures.steps import _num, _vec
from explorer.i18n import t
from transformer_core.tracing.names import (
    RNN_ATTENTION_KEYS,
    RNN_ATTENTION_QUERIES,
    RNN_ATTENTION_SCORES,
    RNN_ATTENTION_WEIGHTS,
    RNN_DECODER_INIT,
    RNN_DECODER_STATES,
    RNN_ENCODER_STATES,
    AttentionKind,
    Head,
    attention_name,
)


def is_rnn_trace(trace) -> bool:
    """True for a trace of the attention RNN (rnn.py), False for a Transformer's."""
    return RNN_ATTENTION_WEIGHTS in trace


def rnn_alignment(trace) -> np.ndarray:
    """The RNN's one alignment matrix α [T, S] (row t predicts output token t)."""
    return np.asarray(trace.numpy(RNN_ATTENTION_WEIGHTS), dtype=np.float32)


def telling_step(alignment: np.ndarray) -> int:
    """The output step to show first: the one whose attention peaks highest on a source word other than the
    last token (</s>, where the RNN parks articles and punctuation); step 0 when every row peaks there."""
    n_src = alignment.shape[1]
    peaks = np.where(alignment.argmax(axis=1) < n_src - 1, alignment.max(axis=1), -1.0)  # [T]
    return int(peaks.argmax()) if (peaks >= 0).any() else 0


def cross_attention(trace, layer: int) -> np.ndarray:
    """The Transformer's cross-attention weights of one decoder layer, every head: [H, T, S]."""
    return np.asarray(trace.numpy(attention_name(AttentionKind.CROSS, layer)), dtype=np.float32)


def alignment_figure(matrix: np.ndarray, row_tokens: list[str], col_tokens: list[str], *, title: str,
                     lang: str) -> go.Figure:
    """One [T, S] alignment map: rows = the output word each step writes, columns = source tokens."""
    return attention_heatmap(matrix, row_tokens, col_tokens, title=title, lang=lang,
                             row_title=t("fig.written_axis", lang), col_title=t("fig.source_axis", lang))


def heads_figure(weights: np.ndarray, row_tokens: list[str], col_tokens: list[str], *, title: str,
                 lang: str) -> go.Figure:
    """Every head's [T, S] cross-attention of one layer, in one figure."""
    return heads_grid(weights, row_tokens, col_tokens, title=title, lang=lang,
                      row_title=t("fig.written_axis", lang), col_title=t("fig.source_axis", lang))


# ------------------------------------------------------------------------------------------------
# The two score functions with live numbers

@dataclass(frozen=True)
class AdditiveScore:
    """e_tj = vᵀ tanh(W_s s_{t-1} + W_h h_j) for one (t, j), each piece from the trace."""

    t: int
    j: int
    state: np.ndarray  # s_{t-1} [H]
    key_state: np.ndarray  # h_j [2H]
    query: np.ndarray  # W_s s_{t-1} [A]
    key: np.ndarray  # W_h h_j (+ bias) [A]
    hidden: np.ndarray  # tanh(query + key) [A]
    v: np.ndarray  # [A]
    score: float  # vᵀ hidden, recomputed here
    recorded: float  # rnn.attn.scores[t, j]
    weight: float  # rnn.attn.weights[t, j]


def additive_score(trace, v: np.ndarray, t: int, j: int) -> AdditiveScore:
    """The additive score of decoder step t and source token j, rebuilt from the RNN trace and v [A]."""
    states = trace.numpy(RNN_DECODER_STATES)  # [T, H]; s_{t-1} is row t-1, s_0 the recorded init
    state = trace.numpy(RNN_DECODER_INIT) if t == 0 else states[t - 1]
    query = np.asarray(trace.numpy(RNN_ATTENTION_QUERIES)[t], dtype=np.float64)
    key = np.asarray(trace.numpy(RNN_ATTENTION_KEYS)[j], dtype=np.float64)
    hidden = np.tanh(query + key)
    v = np.asarray(v, dtype=np.float64).ravel()
    return AdditiveScore(t, j, np.asarray(state), np.asarray(trace.numpy(RNN_ENCODER_STATES)[j]), query, key,
                         hidden, v, float(v @ hidden), float(trace.numpy(RNN_ATTENTION_SCORES)[t, j]),
                         float(trace.numpy(RNN_ATTENTION_WEIGHTS)[t, j]))


@dataclass(frozen=True)
class DotScore:
    """q·k / √d_k for one (layer, head, t, j) of the Transformer's cross-attention."""

    layer: int
    head: int
    t: int
    j: int
    q: np.ndarray  # [d_k]
    k: np.ndarray  # [d_k]
    dot: float
    score: float  # dot / sqrt(d_k), recomputed here
    recorded: float  # cross_attn.scores[head, t, j]
    weight: float  # cross_attn.weights[head, t, j]


def dot_score(trace, layer: int, head: int, t: int, j: int) -> DotScore:
    """The scaled dot-product score of one cross-attention cell, rebuilt from the traced q and k."""
    name = Head(AttentionKind.CROSS, layer, head).name
    q = np.asarray(trace.numpy(name("q"))[head, t], dtype=np.float64)
    k = np.asarray(trace.numpy(name("k"))[head, j], dtype=np.float64)
    dot = float(q @ k)
    recorded = float(trace.numpy(name("scores"))[head, t, j])
    weight = float(trace.numpy(name("weights"))[head, t, j])
    return DotScore(layer, head, t, j, q, k, dot, dot / math.sqrt(q.size), recorded, weight)


def additive_latex(s: AdditiveScore, lang: str = "en") -> str:
    """The additive score's equation, then its pieces with sizes and first values (a row each: the page's
    columns are narrow), then the result."""
    a, h = s.query.size, s.state.size
    prev = r"s_{\mathrm{init}}" if s.t == 0 else f"s_{{{s.t - 1}}}"  # the state before step t (s_init at t = 0)
    return (
        r"\begin{gathered}"
        rf"e_{{{s.t},{s.j}}} = v^\top \tanh\!\left(W_s\, {prev} + W_h\, h_{{{s.j}}}\right)\\"
        rf"{prev} \in \mathbb{{R}}^{{{h}}} = {_vec(s.state)}\\"
        rf"h_{{{s.j}}} \in \mathbb{{R}}^{{{s.key_state.size}}} = {_vec(s.key_state)}\\"
        rf"W_s {prev} \in \mathbb{{R}}^{{{a}}} = {_vec(s.query)}\\"
        rf"W_h h_{{{s.j}}} \in \mathbb{{R}}^{{{a}}} = {_vec(s.key)}\\"
        rf"\tanh(\cdot) = {_vec(s.hidden)}\\"
        rf"v = {_vec(s.v)}\\"
        rf"e_{{{s.t},{s.j}}} = \textstyle\sum_{{i=1}}^{{{a}}} v_i \tanh(\cdot)_i = {_num(s.score)}"
        rf"\;\;(\text{{{t('eq.trace', lang)} }} {_num(s.recorded)})\\ \alpha_{{{s.t},{s.j}}} = {_num(s.weight)}"
        r"\end{gathered}"
    )


def dot_latex(s: DotScore, lang: str = "en") -> str:
    """The scaled dot-product score's equation with the head's q and k and the result."""
    d_k = s.q.size
    return (
        r"\begin{gathered}"
        rf"\mathrm{{score}}_{{{s.t},{s.j}}} = \frac{{q_{{{s.t}}} \cdot k_{{{s.j}}}}}{{\sqrt{{d_k}}}}"
        rf"\quad(\text{{{t('eq.layer_head', lang, layer=s.layer, head=s.head)}}})\\"
        rf"q_{{{s.t}}} \in \mathbb{{R}}^{{{d_k}}} = {_vec(s.q)}\\"
        rf"k_{{{s.j}}} \in \mathbb{{R}}^{{{d_k}}} = {_vec(s.k)}\\"
        rf"q \cdot k = {_num(s.dot)},\quad \sqrt{{{d_k}}} = {_num(math.sqrt(d_k))}\\"
        rf"\mathrm{{score}} = {_num(s.dot)} / {_num(math.sqrt(d_k))} = {_num(s.score)}"
        rf"\;\;(\text{{{t('eq.trace', lang)} }} {_num(s.recorded)})\\ \mathrm{{weight}} = {_num(s.weight)}"
        r"\end{gathered}"
    )


# ------------------------------------------------------------------------------------------------
# Sequential steps and times

@dataclass(frozen=True)
class StepCounts:
    """How many steps must run one after another for this sentence (S source, T decoder positions)."""

    rnn_forward: int  # S encoder steps (both directions side by side) + T decoder steps
    rnn_generate: int  # the same: the RNN always runs token by token
    transformer_forward: int  # N_enc + N_dec layers: each layer handles every position at once
    transformer_generate: int  # N_enc + T x N_dec: one decoder pass per generated token


def step_counts(n_src_rnn: int, n_tgt_rnn: int, n_tgt_transformer: int, n_encoder_layers: int,
                n_decoder_layers: int) -> StepCounts:
    """Sequential steps of a teacher-forced pass (training) and of generation, for each model."""
    return StepCounts(n_src_rnn + n_tgt_rnn, n_src_rnn + n_tgt_rnn, n_encoder_layers + n_decoder_layers,
                      n_encoder_layers + n_tgt_transformer * n_decoder_layers)


def steps_figure(counts: StepCounts, *, lang: str) -> go.Figure:
    """Grouped bars: sequential steps per model, for the teacher-forced pass and for generation."""
    groups = [t("hist.steps_forward", lang), t("hist.steps_generate", lang)]
    data = [
        {"type": "bar", "name": t("hist.rnn_short", lang), "x": groups,
         "y": [counts.rnn_forward, counts.rnn_generate], "text": [counts.rnn_forward, counts.rnn_generate],
         "textposition": "outside", "marker": {"color": "#e6550d"}},
        {"type": "bar", "name": t("hist.transformer_short", lang), "x": groups,
         "y": [counts.transformer_forward, counts.transformer_generate],
         "text": [counts.transformer_forward, counts.transformer_generate], "textposition": "outside",
         "marker": {"color": "#3182bd"}},
    ]
    top = max(counts.rnn_forward, counts.rnn_generate, counts.transformer_forward, counts.transformer_generate)
    layout = {
        "barmode": "group", "height": 340, "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "title": {"text": t("hist.steps_title", lang), "x": 0.0, "xanchor": "left", "font": {"size": 15}},
        "yaxis": {"title": {"text": t("hist.steps_axis", lang)}, "range": [0, top * 1.2 + 1], "automargin": True},
        "xaxis": {"automargin": True}, "font": {"family": FONT_FAMILY, "size": 12},
        "legend": {"orientation": "h", "y": -0.15}, "plot_bgcolor": "white", "paper_bgcolor": "white",
    }
    return go.Figure({"data": data, "layout": layout}, _validate=False)


@dataclass(frozen=True)
class ModelRun:
    """What one model did with the sentence (from its TextTrace and config)."""

    label: str
    output: str
    n_src: int
    n_tgt: int
    sequential_forward: int
    sequential_generate: int
    forward_seconds: float
    decode_seconds: float
    n_parameters: int


def runs_table(runs: list[ModelRun], *, lang: str) -> pd.DataFrame:
    """One row per model: output, sizes, sequential steps and measured times."""
    rows = [{
        t("hist.col_model", lang): run.label,
        t("hist.col_output", lang): run.output,
        t("hist.col_sizes", lang): f"S {run.n_src} · T {run.n_tgt}",
        t("hist.col_seq_forward", lang): run.sequential_forward,
        t("hist.col_seq_generate", lang): run.sequential_generate,
        t("hist.col_forward_ms", lang): round(run.forward_seconds * 1000, 1),
        t("hist.col_decode_ms", lang): round(run.decode_seconds * 1000, 1),
        t("hist.col_params", lang): f"{run.n_parameters:,}",
    } for run in runs]
    return pd.DataFrame(rows)
