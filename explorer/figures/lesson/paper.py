"""The steps that explain the paper's choices, each with this sentence's and this model's numbers: why
self-attention (Table 1), why sinusoids, why the two scalings, the decoder layer's three sublayers, the
shared weights, decoding as the paper did it, and training."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.figures import figures
from explorer.figures.attention import array, softmax
from explorer.figures.lesson.data import FOCUS_LAYER, LessonData, focus_head, focus_query
from explorer.figures.lesson.steps import LessonStep
from explorer.figures.lesson.view import StepView, plain, step_body, step_title
from explorer.figures.steps import eq_phrase, eq_word, shape_str
from explorer.i18n import t
from transformer_core.tracing.names import (
    DECODER_OUT,
    LOGITS,
    SRC_EMBED,
    SRC_IDS,
    SRC_INPUT,
    SRC_POS,
    TGT_IDS,
    AttentionKind,
    Head,
    layer_name,
)

# The paper's training and decoding settings (sections 5.3, 5.4 and 6.1)
WARMUP_STEPS = 4000
TRAIN_STEPS = 100_000  # the base model: 100 000 steps
LABEL_SMOOTHING = 0.1
P_DROP = 0.1
BEAM_WIDTH = 4
ALPHA = 0.6
CONV_KERNEL = 3  # k of Table 1's convolutional row, for the numbers only
RESTRICTED_R = 4  # r of Table 1's restricted self-attention row (the neighbourhood size), for the numbers only

_COLORS = ("#1a73e8", "#d93025", "#188038", "#9334e6")


def _sci(x: float) -> str:
    """A small number for KaTeX: 4.8 x 10^-8, not 4.8e-08."""
    if x == 0 or 1e-3 <= abs(x) < 1e4:
        return f"{x:.3f}"
    mantissa, exponent = f"{x:.1e}".split("e")
    return rf"{mantissa}\times 10^{{{int(exponent)}}}"


def _par(x: float) -> str:
    """A factor in a product: negative numbers in parentheses."""
    return f"({x:.3f})" if x < 0 else f"{x:.3f}"


def _lines(*parts: str) -> str:
    return r"\begin{gathered}" + r" \\ ".join(p for p in parts if p) + r"\end{gathered}"


def _line_figure(series: Sequence[tuple[str, np.ndarray, np.ndarray, str]], *, title: str, x_title: str,
                 y_title: str, log: bool = False) -> go.Figure:
    """Lines (mode 'lines') and points (mode 'markers') on one pair of axes: (name, x, y, mode)."""
    data = []
    for index, (name, x, y, mode) in enumerate(series):
        color = _COLORS[index % len(_COLORS)]
        trace = {"type": "scatter", "name": name, "x": np.asarray(x, dtype=np.float64),
                 "y": np.asarray(y, dtype=np.float64), "mode": mode}
        trace["line" if mode == "lines" else "marker"] = {"color": color} if mode == "lines" else \
            {"color": color, "size": 9, "symbol": "circle-open" if index else "circle"}
        data.append(trace)
    y_axis = figures._linear(y_title, showgrid=True, type="log" if log else "linear")
    layout = {"xaxis": figures._linear(x_title, showgrid=True, type="log" if log else "linear"), "yaxis": y_axis,
              "legend": {"orientation": "h", "y": -0.25}}
    return figures._figure(data, layout, title, 420, bgcolor="white")


# ------------------------------------------------------------------------------------------------
# Why self-attention (section 4, Table 1)

def table1(n: int, d: int, lang: str, k: int = CONV_KERNEL, r: int = RESTRICTED_R) -> pd.DataFrame:
    """Table 1 of the paper (its four rows) with this sentence's n and the model's d filled in."""
    rows = [
        (t("lesson.why_attention.self", lang), "O(n²·d)", n * n * d, "O(1)", "O(1)", 1),
        (t("lesson.why_attention.rnn", lang), "O(n·d²)", n * d * d, "O(n)", "O(n)", n),
        (t("lesson.why_attention.conv", lang), "O(k·n·d²)", k * n * d * d, "O(1)", "O(logₖ n)",
         max(1, math.ceil(math.log(max(n, 2), k)))),
        (t("lesson.why_attention.restricted", lang, r=r), "O(r·n·d)", r * n * d, "O(1)", "O(n/r)",
         max(1, math.ceil(n / r))),
    ]
    columns = [t(f"lesson.why_attention.col_{c}", lang) for c in ("layer", "cost", "ops", "sequential", "path",
                                                                  "path_n")]
    return pd.DataFrame([(a, b, f"{c:,}", e, f, g) for a, b, c, e, f, g in rows], columns=columns)


def _why_attention_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    n, d = data.n_src, data.info.d_model
    latex = _lines(rf"n^2 d = {n}^2\cdot {d} = {n * n * d:,}\quad{eq_word('eq.vs', lang)}\quad "
                   rf"n d^2 = {n}\cdot {d}^2 = {n * d * d:,}",
                   rf"\frac{{n^2 d}}{{n d^2}} = \frac{{n}}{{d}} = \frac{{{n}}}{{{d}}} = {n / d:.3f}")
    cost = "cheaper" if n < d else "equal" if n == d else "dearer"  # n²·d against n·d²: equal at n = d
    body = step_body(step, lang, n=n, d=d) + "\n\n" + t(f"lesson.why_attention.{cost}", lang, n=n, d=d)
    # ONE figure per step: here it is the paper's Table 1 itself, with this n and d filled in
    return StepView(step, step_title(step, lang), body, shape_str(data.trace[SRC_INPUT].shape), latex,
                    table=table1(n, d, lang))


# ------------------------------------------------------------------------------------------------
# Why sinusoids: PE(pos + k) is a rotation of PE(pos), one 2x2 rotation per frequency pair

def rotated(pe_row: np.ndarray, k: int, d: int) -> np.ndarray:
    """R(k·ω_i) applied to each (sin, cos) pair of an interleaved sinusoidal row: the paper's PE(pos + k)."""
    pairs = np.asarray(pe_row, dtype=np.float64)[: d - d % 2].reshape(-1, 2)  # [(sin, cos)] per frequency
    omega = 1.0 / np.power(10000.0, np.arange(0, d - d % 2, 2, dtype=np.float64) / d)
    c, s = np.cos(k * omega), np.sin(k * omega)
    out = np.stack([pairs[:, 0] * c + pairs[:, 1] * s, pairs[:, 1] * c - pairs[:, 0] * s], axis=1)
    return out.reshape(-1)


def interleave_halves(table: np.ndarray) -> np.ndarray:
    """A [S, d] sines-then-cosines table (Marian) reordered as the paper's (sin, cos) pairs."""
    h = table.shape[1] // 2
    out = np.empty_like(table[:, : 2 * h])
    out[:, 0::2], out[:, 1::2] = table[:, :h], table[:, h: 2 * h]
    return out


def rotation_positions(n_positions: int) -> tuple[int, int]:
    """(pos, k) with pos + k inside the sentence's table: pos 1 and the farthest k when there is room."""
    if n_positions >= 3:
        return 1, n_positions - 2
    return 0, max(n_positions - 1, 0)


def _sinusoids_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    pos = array(data.trace, SRC_POS).astype(np.float64)  # [S, d]: this model's own table
    d = data.info.d_model
    if data.sinusoidal_layout == "halves":  # Marian keeps sines then cosines: pair them as the paper interleaves
        pos = interleave_halves(pos)
    p, k = rotation_positions(pos.shape[0])
    predicted = rotated(pos[p], k, d)
    actual = pos[p + k][: predicted.size]
    # relative to the row's largest value: learned position vectors (BERT) are small numbers
    error = float(np.abs(predicted - actual).max() / max(float(np.abs(actual).max()), 1e-12))
    shown = min(d, 48)
    dims = np.arange(shown)
    fig = _line_figure([(f"PE({p + k})", dims, actual[:shown], "lines"),
                        (f"R({k}ω)·PE({p})", dims, predicted[:shown], "markers")],
                       title=t("lesson.sinusoids.fig", lang, p=p, k=k), x_title=t("fig.dim_axis", lang),
                       y_title=t("fig.value", lang))
    omega0 = 1.0
    latex = _lines(
        r"\begin{pmatrix}PE_{(pos+k,2i)}\\PE_{(pos+k,2i+1)}\end{pmatrix} = "
        r"\begin{pmatrix}\cos k\omega_i & \sin k\omega_i\\ -\sin k\omega_i & \cos k\omega_i\end{pmatrix}"
        r"\begin{pmatrix}PE_{(pos,2i)}\\PE_{(pos,2i+1)}\end{pmatrix},\quad \omega_i = 10000^{-2i/" + str(d) + "}",
        rf"i = 0:\ \sin({p + k}) = \sin({p})\cos({k}) + \cos({p})\sin({k}) = "
        rf"{_par(pos[p, 0])}\cdot{_par(math.cos(k * omega0))}"
        rf" + {_par(pos[p, 1])}\cdot{_par(math.sin(k * omega0))} = {predicted[0]:.3f}",
        rf"\frac{{\max_j \left|PE_{{({p + k},j)}} - (R\,PE_{{({p})}})_j\right|}}{{\max_j |PE_{{({p + k},j)}}|}}"
        rf" = {_sci(error)}")
    if data.positional == "sinusoidal":
        body = step_body(step, lang, p=p, k=k, err=_sci(error).replace(r"\times 10^", " × 10^").replace("{", "")
                         .replace("}", ""))
    else:
        body = t("lesson.sinusoids.learned", lang, err=f"{error:.2f}", max_len=data.max_len)
    return StepView(step, step_title(step, lang), body, shape_str(pos.shape), latex, figure=fig)


# ------------------------------------------------------------------------------------------------
# Why divide by √d_k, why multiply by √d_model

def _scaling_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i, head = focus_query(data), focus_head(data)
    prefix = Head(AttentionKind.ENCODER_SELF, FOCUS_LAYER, 0)
    d_k, d = data.d_k, data.info.d_model
    q, k = data.trace.numpy(prefix.name("q"))[head].astype(np.float64), data.trace.numpy(prefix.name("k"))[head]
    dots = q @ k.astype(np.float64).T  # [S, S]: q·k before the division
    scaled = softmax(dots[i] / math.sqrt(d_k))
    unscaled = softmax(dots[i])
    labels = figures.unique_labels(data.src_tokens)
    bars = [{"type": "bar", "name": name, "x": values, "y": labels, "orientation": "h", "marker": {"color": color}}
            for name, values, color in ((t("lesson.scaling.with", lang, d_k=d_k), scaled, _COLORS[0]),
                                        (t("lesson.scaling.without", lang), unscaled, _COLORS[1]))]
    layout = {"barmode": "group", "xaxis": figures._linear(t("fig.weight", lang), range=[0, 1], showgrid=True),
              "yaxis": figures._y_category(t("fig.key_bar_axis", lang)), "legend": {"orientation": "h", "y": -0.2}}
    fig = figures._figure(bars, layout, t("lesson.scaling.fig", lang, token=plain(data.src_tokens[i]), head=head),
                          max(320, 110 + 40 * len(labels)), bgcolor="white")
    embed = data.trace.numpy(SRC_EMBED).astype(np.float64)
    pe = array(data.trace, SRC_POS).astype(np.float64)
    factor = math.sqrt(d) if data.scale_embedding else 1.0
    e_norm = float(np.linalg.norm(embed / factor, axis=-1).mean())
    pe_norm = float(np.linalg.norm(pe, axis=-1).mean())
    std_q, std_k = float(q.std()), float(k.std())
    lines = [rf"\operatorname{{Var}}(q\cdot k) = d_k\ ({eq_word('eq.independent', lang)}):\ d_k = {d_k},\ "
             rf"\sqrt{{d_k}} = {math.sqrt(d_k):.2f}\ \ "
             rf"({eq_word('eq.paper', lang)}\ d_k = 64,\ \operatorname{{std}} = 8)",
             rf"{eq_word('eq.here', lang)}\ \operatorname{{std}}(q) = {std_q:.2f},\ "
             rf"\operatorname{{std}}(k) = {std_k:.2f},\ "
             rf"\operatorname{{std}}(q\cdot k) = {float(dots.std()):.2f} \to "
             rf"\operatorname{{std}}(q\cdot k/\sqrt{{d_k}}) = {float(dots.std()) / math.sqrt(d_k):.2f}"]
    if data.scale_embedding:
        lines.append(rf"\overline{{\lVert E[\mathrm{{id}}]\rVert}} = {e_norm:.2f},\ "
                     rf"\overline{{\lVert E[\mathrm{{id}}]\rVert}}\sqrt{{{d}}} = {e_norm * factor:.2f},\ "
                     rf"\overline{{\lVert PE\rVert}} = {pe_norm:.2f}")
        note = t("lesson.scaling.embed_scaled", lang, e=f"{e_norm:.2f}", es=f"{e_norm * factor:.2f}",
                 pe=f"{pe_norm:.2f}", d=d)
    else:
        lines.append(rf"\overline{{\lVert E[\mathrm{{id}}]\rVert}} = {e_norm:.2f},\ "
                     rf"\overline{{\lVert P[pos]\rVert}} = {pe_norm:.2f}\ \ "
                     + "(" + eq_phrase("eq.no_sqrt", lang, r"\sqrt{d_{model}}") + ")")
        note = t("lesson.scaling.embed_unscaled", lang, e=f"{e_norm:.2f}", pe=f"{pe_norm:.2f}")
    body = step_body(step, lang, d_k=d_k, sqrt=f"{math.sqrt(d_k):.1f}",
                     top=f"{scaled.max():.2f}", top_raw=f"{unscaled.max():.2f}") + "\n\n" + note
    return StepView(step, step_title(step, lang), body, shape_str(data.trace[prefix.name("scores")].shape),
                    _lines(*lines), figure=fig)


# ------------------------------------------------------------------------------------------------
# The decoder layer: three sublayers, K and V of cross-attention from the final encoder output

def _decoder_layer_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    tr = data.trace
    n_layers = tr.n_layers("decoder")

    def first_layer(tensor: str):
        return tr.numpy(layer_name("decoder", 0, tensor))

    memory = eq_word("eq.memory", lang)

    if data.info.norm_first:
        panels = [("y", first_layer("in")), (t("lesson.decoder_layer.plus_self", lang), first_layer("add1")),
                  (t("lesson.decoder_layer.plus_cross", lang), first_layer("add2")),
                  (t("lesson.decoder_layer.plus_ffn", lang), first_layer("out"))]
        formula = [r"y_1 = y + \text{MaskedMHA}(\text{LN}(y))",
                   rf"y_2 = y_1 + \text{{CrossAttn}}(Q{{=}}\text{{LN}}(y_1),\ K{{=}}V{{=}}{memory})",
                   r"\text{Layer}(y) = y_2 + \text{FFN}(\text{LN}(y_2))"]
        body = t("lesson.decoder_layer.body_pre", lang, n=n_layers)
    else:
        panels = [("y", first_layer("in")), ("Add & Norm 1", first_layer("norm1")),
                  ("Add & Norm 2", first_layer("norm2")), ("Add & Norm 3", first_layer("out"))]
        formula = [r"y_1 = \text{LayerNorm}(y + \text{MaskedMHA}(y))",
                   rf"y_2 = \text{{LayerNorm}}(y_1 + \text{{CrossAttn}}(Q{{=}}y_1,\ K{{=}}V{{=}}{memory}))",
                   r"\text{Layer}(y) = \text{LayerNorm}(y_2 + \text{FFN}(y_2))"]
        body = step_body(step, lang, n=n_layers)
    errors = data.facts.cross_kv_error
    worst = max(errors) if errors else float("nan")
    s = int(tr[SRC_IDS].shape[1])
    kv = (rf"K^{{(\ell)}} = {memory}\,W_K^{{(\ell)}},\ V^{{(\ell)}} = {memory}\,W_V^{{(\ell)}}\ "
          rf"(\ell = 0..{n_layers - 1}):\ \max\lvert \Delta\rvert = {_sci(worst)},\quad K^{{(\ell)}} \in "
          rf"\mathbb{{R}}^{{{data.info.n_heads}\times {s}\times {data.d_k}}}")
    fig = figures.vectors_heatmap(panels, data.tgt_tokens, title=t("lesson.decoder_layer.fig", lang), lang=lang,
                                  row_title=t("fig.decoder_input_axis", lang))
    body += "\n\n" + t("lesson.decoder_layer.kv", lang, n=n_layers, s=s)
    return StepView(step, step_title(step, lang), body, shape_str(first_layer("out").shape), _lines(*formula, kv),
                    figure=fig)


# ------------------------------------------------------------------------------------------------
# Shared weights (section 3.4)

def _shared_weights_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    facts = data.facts
    tr = data.trace
    ids = [int(i) for i in tr.numpy(TGT_IDS)][1:] or [int(tr.numpy(TGT_IDS)[0])]
    tokens = data.tgt_tokens[1:] or data.tgt_tokens[:1]
    embedding, weight = facts.embedding, facts.output_weight
    shown = min(data.info.d_model, 48)
    panels = [("E[id]", embedding[ids, :shown]), ("W_out[id]", weight[ids, :shown])]
    fig = figures.vectors_heatmap(panels, tokens, title=t("lesson.shared_weights.fig", lang), lang=lang,
                                  shared_scale=True)
    h = tr.numpy(DECODER_OUT).astype(np.float64)
    bias = facts.output_bias if facts.output_bias is not None else 0.0
    rebuilt = h @ embedding.astype(np.float64).T + bias  # logits recomputed with the EMBEDDING matrix
    logits_error = float(np.abs(rebuilt - tr.numpy(LOGITS)).max())
    difference = float(np.abs(embedding - weight).max())
    vocab, d = embedding.shape
    b = " + b" if facts.output_bias is not None else ""  # the next-token step writes the same formula
    latex = _lines(rf"\text{{logits}} = h\,E^\top{b},\quad E \in \mathbb{{R}}^{{{vocab}\times {d}}}",
                   rf"\max\lvert W_{{out}} - E\rvert = {_sci(difference)},\quad "
                   rf"\max\lvert h E^\top{b} - \text{{logits}}\rvert = {_sci(logits_error)}",
                   eq_word("eq.embedding", lang) + r"\ E[\mathrm{id}]"
                   + (r"\cdot\sqrt{d_{model}}" if data.scale_embedding else ""))
    key = "lesson.shared_weights.body" if facts.tied else "lesson.shared_weights.separate"
    body = t(key, lang, v=vocab, d=d, saved=f"{2 * vocab * d:,}")
    return StepView(step, step_title(step, lang), body, shape_str(tr[LOGITS].shape), latex, figure=fig)


# ------------------------------------------------------------------------------------------------
# Decoding as the paper did it: beam 4, GNMT length penalty alpha 0.6

def gnmt_penalty(length: int | np.ndarray, alpha: float = ALPHA):
    """Wu et al. (2016), eq. 14: ((5 + |Y|) / 6) ** alpha."""
    return ((5.0 + np.asarray(length, dtype=np.float64)) / 6.0) ** alpha


def written_targets(data: LessonData) -> list[int]:
    """The token each decoder row predicts when the model's own output is the reference: row t predicts input
    t + 1, and the last row predicts what the model wrote after its last input (its end token, normally). The
    decoding step (|Y|) and the training step (the loss average) both count these rows."""
    logits = data.trace.numpy(LOGITS)
    tgt = [int(i) for i in data.trace.numpy(TGT_IDS)]
    return [*tgt[1:], int(np.argmax(logits[-1]))]


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits.astype(np.float64) - logits.max(-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))


def output_log_probability(data: LessonData) -> tuple[float, int]:
    """log P(output | source) of what the model wrote, summed over its tokens (EOS included), read from the
    teacher-forced logits; and |Y|, the number of those tokens."""
    log_probs = _log_softmax(data.trace.numpy(LOGITS))
    chosen = written_targets(data)
    total = float(sum(log_probs[t_, token] for t_, token in enumerate(chosen)))
    return total, len(chosen)


def _decoding_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    log_p, length = output_log_probability(data)
    lengths = np.arange(1, max(40, 2 * length) + 1)
    fig = _line_figure([(f"α = {a}", lengths, gnmt_penalty(lengths, a), "lines") for a in (0.0, ALPHA, 1.0)]
                       + [(t("lesson.decoding.here", lang, n=length), np.array([length]),
                           np.array([gnmt_penalty(length)]), "markers")],
                       title=t("lesson.decoding.fig", lang), x_title=t("lesson.decoding.length_axis", lang),
                       y_title="lp(|Y|)")
    lp = float(gnmt_penalty(length))
    latex = _lines(rf"\text{{score}}(Y) = \frac{{\log P(Y\mid X)}}{{lp(Y)}},\quad lp(Y) = "
                   rf"\left(\frac{{5 + |Y|}}{{6}}\right)^{{\alpha}},\quad "
                   rf"\text{{beam}} = {BEAM_WIDTH},\ \alpha = {ALPHA}",
                   rf"|Y| = {length}:\ lp = \left(\frac{{{5 + length}}}{{6}}\right)^{{{ALPHA}}} = {lp:.3f},\quad "
                   rf"\frac{{{log_p:.3f}}}{{{lp:.3f}}} = {log_p / lp:.3f}")
    body = step_body(step, lang, n=length, logp=f"{log_p:.2f}", score=f"{log_p / lp:.2f}")
    return StepView(step, step_title(step, lang), body, shape_str(data.trace[TGT_IDS].shape), latex, figure=fig)


# ------------------------------------------------------------------------------------------------
# Training: cross-entropy on the next token, teacher forcing, label smoothing, dropout, warm-up

def learning_rate(step: np.ndarray, d_model: int, warmup: int = WARMUP_STEPS) -> np.ndarray:
    """Section 5.3: lrate = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)."""
    step = np.maximum(np.asarray(step, dtype=np.float64), 1.0)
    return d_model ** -0.5 * np.minimum(step ** -0.5, step * warmup ** -1.5)


def training_losses(data: LessonData, epsilon: float = LABEL_SMOOTHING) -> tuple[float, float, int]:
    """Mean cross-entropy of the next token, teacher-forced on the model's own output, with and without
    label smoothing (target (1 - ε) on the right token + ε spread evenly over the whole vocabulary, the
    right token included). Every row counts, the last one too (it predicts the end token), as in training."""
    log_probs = _log_softmax(data.trace.numpy(LOGITS))
    targets = written_targets(data)
    rows = np.arange(len(targets))
    nll = -log_probs[rows, targets]
    smooth = (1 - epsilon) * nll + epsilon * -log_probs[rows].mean(-1)
    return float(nll.mean()), float(smooth.mean()), len(targets)


def _training_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    d = data.info.d_model
    steps = np.unique(np.geomspace(1, TRAIN_STEPS, 200).astype(int))
    rates = learning_rate(steps, d)
    peak = float(learning_rate(np.array([WARMUP_STEPS]), d)[0])
    fig = _line_figure([(t("lesson.training.lrate", lang), steps, rates, "lines"),
                        (t("lesson.training.peak", lang, warmup=WARMUP_STEPS), np.array([WARMUP_STEPS]),
                         np.array([peak]), "markers")],
                       title=t("lesson.training.fig", lang, d=d), x_title=t("lesson.training.step_axis", lang),
                       y_title=t("lesson.training.lr_axis", lang))
    ce, smoothed, n = training_losses(data)
    latex = _lines(rf"\text{{lrate}} = d_{{model}}^{{-0.5}}\cdot\min(\text{{step}}^{{-0.5}},\ \text{{step}}\cdot"
                   rf"\text{{warmup}}^{{-1.5}}),\quad d_{{model}} = {d},\ \text{{warmup}} = {WARMUP_STEPS}",
                   rf"\text{{peak}} = {d}^{{-0.5}}\cdot {WARMUP_STEPS}^{{-0.5}} = {_sci(peak)}",
                   rf"\mathcal{{L}} = -\frac{{1}}{{{n}}}\sum_t \log P(y_{{t+1}}\mid y_{{\le t}}, x) = {ce:.3f},\quad "
                   rf"\epsilon_{{ls}} = {LABEL_SMOOTHING}:\ {smoothed:.3f},\quad P_{{drop}} = {P_DROP}")
    body = step_body(step, lang, n=n, ce=f"{ce:.3f}", smooth=f"{smoothed:.3f}")
    return StepView(step, step_title(step, lang), body, shape_str(data.trace[LOGITS].shape), latex, figure=fig,
                    more_title=t("lesson.training.more_title", lang), more=t("lesson.training.more", lang))


BUILDERS = {"why_attention": _why_attention_step, "sinusoids": _sinusoids_step, "scaling": _scaling_step,
            "decoder_layer": _decoder_layer_step, "shared_weights": _shared_weights_step,
            "decoding": _decoding_step, "training": _training_step}
