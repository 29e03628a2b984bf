"""The encoder layer as a chain of steps, each with its live shape and its equation filled in with
numbers read from the trace (pure: a trace mapping in, a list of `Step` out; no streamlit).

Every number shown is either read from the trace or a one-line recomputation of it from other
traced tensors (q·k from the traced q and k, the softmax denominator from the traced scores), so a
student can check one step against the next.

The chain follows the model's layer order. Post-LN (the paper): the projections read the layer input X.
Pre-LN (`reverse`): they read LayerNorm(X), the traced `norm1` (`norm2` for cross-attention's queries),
so the chain shows that step and writes Q = LayerNorm(X)W^Q. Words inside the equations (allowed, blocked,
hidden units, memory) come from the catalogs (`eq.*`), in the page's language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from explorer.i18n import t
from transformer_core.tracing.names import AttentionKind, Head, layer_name


@dataclass(frozen=True)
class Step:
    """One step of the chain: an i18n title key, the tensor's shape, an equation (LaTeX)."""

    key: str
    shape: str
    latex: str
    trace_names: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class LayerInfo:
    """What the equations need from the config."""

    d_model: int
    n_heads: int
    d_ff: int
    norm_first: bool
    activation: str


def shape_str(shape) -> str:
    """(1, 9, 512) -> '[1, 9, 512]'."""
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def _num(x: float) -> str:
    if not math.isfinite(x):
        return r"-\infty" if x < 0 else r"\infty"
    if x != 0 and (abs(x) >= 1e4 or abs(x) < 1e-3):
        mantissa, exponent = f"{x:.3e}".split("e")
        return rf"{mantissa}\times 10^{{{int(exponent)}}}"
    return f"{x:.3f}"


def _vec(v: np.ndarray, n: int = 4) -> str:
    items = [_num(float(x)) for x in np.asarray(v).ravel()[:n]]
    tail = r",\,\dots" if np.asarray(v).size > n else ""
    return r"\left(" + r",\,".join(items) + tail + r"\right)"


def _lines(*parts: str) -> str:
    """Several equation lines, centred one under the other (KaTeX `gathered`)."""
    parts = tuple(p for p in parts if p)
    if len(parts) == 1:
        return parts[0]
    return r"\begin{gathered}" + r" \\ ".join(parts) + r"\end{gathered}"


def eq_word(key: str, lang: str) -> str:
    r"""A catalog word inside an equation: \text{...} (KaTeX shows Hangul in \text with the page's font)."""
    return rf"\text{{{t(key, lang)}}}"


def eq_phrase(key: str, lang: str, math: str) -> str:
    r"""A catalog phrase around a piece of math ('no {math}', '{math} 곱하지 않음'): the words in \text, the math
    outside it (KaTeX's text mode takes no _ or ^)."""
    before, _, after = t(key, lang).partition("{math}")
    return (rf"\text{{{before}}}" if before.strip() else "") + math + (rf"\text{{{after}}}" if after.strip() else "")


def attention_steps(trace, stack: str, layer: int, attn: str, head: int, query: int, key: int,
                    info: LayerInfo, lang: str = "en") -> list[Step]:
    """X -> (pre-LN: LayerNorm(X)) -> Q,K,V -> split heads -> QKᵀ/√d_k -> mask -> softmax -> ·V -> concat -> W_O,
    for one head."""
    kind = next(k for k in AttentionKind if (k.stack, k.attention) == (stack, attn))
    p = Head(kind, layer, head).name  # tensor -> this attention's trace name
    h, i, j = head, query, key
    d_k = info.d_model // info.n_heads
    q, k = trace[p("q")], trace[p("k")]
    b, n_heads, tq, _ = q.shape
    tk = k.shape[2]
    qh, kh = trace.numpy(p("q"))[h], trace.numpy(p("k"))[h]
    scores = trace.numpy(p("scores"))[h]
    masked = trace.numpy(p("masked_scores"))[h]
    weights = trace.numpy(p("weights"))[h]
    context = trace.numpy(p("context"))[h]
    out = trace.numpy(p("out"))
    x_name = layer_name(stack, layer, "in")
    x_in = trace.numpy(x_name) if attn == "self_attn" else None
    dot = float(np.dot(qh[i].astype(np.float64), kh[j].astype(np.float64)))
    row = masked[i].astype(np.float64)
    finite = np.isfinite(row)
    denominator = float(np.exp(row[finite]).sum()) if finite.any() else 0.0
    n_blocked = int(np.isneginf(masked).sum())
    memory = eq_word("eq.memory", lang)
    # what the projections read: the layer input (post-LN), or its LayerNorm (pre-LN: the traced norm1, or
    # norm2 for cross-attention's queries, whose keys and values read the encoder output)
    norm_name = layer_name(stack, layer, "norm1" if attn == "self_attn" else "norm2") if info.norm_first else None
    q_source = r"\hat X" if norm_name else "X"
    kv_source = q_source if attn == "self_attn" else memory
    steps = []
    x_lines = ()
    if x_in is not None:
        x_lines = (rf"X \in \mathbb{{R}}^{{{tq}\times {info.d_model}}}",
                   rf"x_{{{i}}} = {_vec(x_in[i])},\quad \lVert x_{{{i}}}\rVert = "
                   rf"{_num(float(np.linalg.norm(x_in[i])))}")
    if norm_name and x_in is not None:  # pre-LN: the input and the LayerNorm the projections read, one step
        norm = _norm_in_step(trace, norm_name, x_name, i)
        steps.append(Step("step.x_pre", norm.shape, _lines(*x_lines, norm.latex.removeprefix(r"\begin{gathered}")
                                                              .removesuffix(r"\end{gathered}")), norm.trace_names))
    elif x_in is not None:
        steps.append(Step("step.x", shape_str((b, tq, info.d_model)), _lines(*x_lines), (x_name,)))
    if norm_name and x_in is None:  # cross-attention's queries: LayerNorm of the decoder stream
        steps.append(_norm_in_step(trace, norm_name, None, i))
    merged = trace.numpy(p("q"))[:, i, :].reshape(-1)  # q_i of every head side by side: the row of Q
    steps += [
        Step("step.qkv", shape_str((b, tq, info.d_model)),
             _lines(rf"Q = {q_source}W^Q,\; K = {kv_source}\,W^K,\; V = {kv_source}\,W^V",
                    r"\hat X = \text{LayerNorm}(X)" if norm_name else "",
                    rf"W^{{Q}}, W^{{K}}, W^{{V}} \in \mathbb{{R}}^{{{info.d_model}\times {info.d_model}}}",
                    rf"q_{{{i}}} = {_vec(merged)}"),
             (p("q"), p("k"), p("v")) + ((norm_name,) if norm_name else ())),
        Step("step.split", shape_str(q.shape),
             _lines(rf"{shape_str((b, tq, info.d_model))} \to {shape_str((b, tq, n_heads, d_k))} \to "
                    rf"{shape_str(q.shape)},\quad d_{{model}} = h \cdot d_k:\ {info.d_model} = {n_heads}\times {d_k}",
                    rf"q^{{({h})}}_{{{i}}} = {_vec(qh[i])},\quad k^{{({h})}}_{{{j}}} = {_vec(kh[j])}"),
             (p("q"), p("k"))),
        Step("step.scores", shape_str(trace[p("scores")].shape),
             rf"s_{{{i}{j}}} = \frac{{q_{{{i}}}\cdot k_{{{j}}}}}{{\sqrt{{d_k}}}}"
             rf" = \frac{{{_num(dot)}}}{{\sqrt{{{d_k}}}}}"
             rf" = \frac{{{_num(dot)}}}{{{_num(math.sqrt(d_k))}}} = {_num(float(scores[i, j]))}",
             (p("scores"),)),
        Step("step.mask", shape_str(trace[p("masked_scores")].shape),
             rf"\tilde s_{{ij}} = \begin{{cases}} s_{{ij}} & {eq_word('eq.allowed', lang)} \\ -\infty & "
             rf"{eq_word('eq.blocked', lang)}\end{{cases}}\qquad "
             rf"\tilde s_{{{i}{j}}} = {_num(float(masked[i, j]))},\quad "
             rf"{n_blocked}\ /\ {tq * tk}\ {eq_word('eq.blocked', lang)}",
             (p("masked_scores"),)),
        Step("step.softmax", shape_str(trace[p("weights")].shape),
             rf"a_{{{i}{j}}} = \frac{{e^{{\tilde s_{{{i}{j}}}}}}}{{\sum_{{m}} e^{{\tilde s_{{{i}m}}}}}}"
             rf" = \frac{{e^{{{_num(float(masked[i, j]))}}}}}{{{_num(denominator)}}} = {_num(float(weights[i, j]))},"
             rf"\quad \sum_m a_{{{i}m}} = {_num(float(weights[i].sum()))}",
             (p("weights"),)),
        Step("step.context", shape_str(trace[p("context")].shape),
             rf"c^{{({h})}}_{{{i}}} = \sum_{{m}} a_{{{i}m}}\, v_m = {_vec(context[i])}",
             (p("context"),)),
        Step("step.concat", shape_str((b, tq, info.d_model)),
             rf"\text{{Concat}}(c^{{(0)}}_{{{i}}},\dots,c^{{({n_heads - 1})}}_{{{i}}}):\ {n_heads}\times {d_k} = "
             rf"{info.d_model}\quad {shape_str(q.shape)} \to {shape_str((b, tq, info.d_model))}",
             (p("context"),)),
        Step("step.wo", shape_str(trace[p("out")].shape),
             _lines(rf"o_{{{i}}} = \text{{Concat}}(\dots)_{{{i}}}\,W^O = {_vec(out[i])}",
                    rf"W^O \in \mathbb{{R}}^{{{info.d_model}\times {info.d_model}}}"),
             (p("out"),)),
    ]
    return steps


def _norm_in_step(trace, norm_name: str, x_name: str | None, i: int) -> Step:
    """Pre-LN: the LayerNorm the projections read, X̂ = LayerNorm(X) (the traced norm), with the mean and the
    standard deviation of x_i recomputed from the traced layer input."""
    normed = trace.numpy(norm_name)[i]
    # one short line each: a phone shows ~30 characters of an equation before it scrolls sideways
    lines = [r"\hat X = \text{LayerNorm}(X)",
             rf"\hat x_{{{i}}} = \frac{{x_{{{i}}} - \mu_{{{i}}}}}{{\sigma_{{{i}}}}}\,\gamma + \beta"]
    if x_name is not None:
        x = trace.numpy(x_name)[i].astype(np.float64)
        lines.append(rf"\mu_{{{i}}} = {_num(float(x.mean()))},\ \sigma_{{{i}}} = {_num(float(x.std()))}")
    lines.append(rf"\hat x_{{{i}}} = {_vec(normed)}")
    return Step("step.norm_in", shape_str(trace[norm_name].shape), _lines(*lines),
                ((x_name,) if x_name else ()) + (norm_name,))


def _in_layer(prefix: str) -> tuple[str, int]:
    """'encoder.1' -> ('encoder', 1): the layer a step reads (callers pass the layer's trace prefix)."""
    stack, layer = prefix.split(".")
    return stack, int(layer)


def _norm_step(trace, stack: str, layer: int, sub: int, inner: str, i: int, info: LayerInfo, key: str) -> Step:
    add_name, norm_name = layer_name(stack, layer, f"add{sub}"), layer_name(stack, layer, f"norm{sub}")
    add = trace.numpy(add_name)[i].astype(np.float64)
    norm = trace.numpy(norm_name)[i]
    mu, sigma = float(add.mean()), float(add.std())
    if info.norm_first:
        latex = _lines(rf"\text{{pre-LN}}:\ x' = x + {inner}(\text{{LayerNorm}}(x))", rf"x'_{{{i}}} = {_vec(add)}")
    else:
        latex = _lines(rf"\text{{LayerNorm}}(x + {inner}(x)):\quad \mu_{{{i}}} = {_num(mu)},\ "
                       rf"\sigma_{{{i}}} = {_num(sigma)}",
                       rf"\frac{{(x+{inner}(x))_{{{i}}} - \mu_{{{i}}}}}{{\sigma_{{{i}}}}}\,\gamma + \beta = "
                       rf"{_vec(norm)}")
    # the title names what a pre-LN layer really does (x + Sublayer(LN(x))), not the paper's Add & Norm
    return Step(key + "_pre" if info.norm_first else key, shape_str(trace[add_name].shape), latex,
                (add_name, norm_name))


def encoder_chain(trace, layer: int, head: int, query: int, key: int, info: LayerInfo,
                  lang: str = "en") -> list[Step]:
    """The whole encoder layer for query position `query`, head `head` and key position `key`."""
    steps = attention_steps(trace, "encoder", layer, "self_attn", head, query, key, info, lang)
    steps.append(_norm_step(trace, "encoder", layer, 1, r"\text{MHA}", query, info, "step.addnorm1"))
    steps.append(_ffn_step(trace, "encoder", layer, query, info, lang))
    steps.append(_norm_step(trace, "encoder", layer, 2, r"\text{FFN}", query, info, "step.addnorm2"))
    return steps


def ffn_step(trace, prefix: str, i: int, info: LayerInfo, lang: str = "en") -> Step:
    """The FFN step of the layer whose trace prefix is `prefix` ('encoder.1')."""
    return _ffn_step(trace, *_in_layer(prefix), i, info, lang)


def _ffn_step(trace, stack: str, layer: int, i: int, info: LayerInfo, lang: str = "en") -> Step:
    hidden_name, out_name = layer_name(stack, layer, "ffn.hidden"), layer_name(stack, layer, "ffn.out")
    hidden = trace.numpy(hidden_name)[i]
    out = trace.numpy(out_name)[i]
    n_zero = int((hidden == 0).sum())
    act = {"relu": r"\max(0,\ \cdot\ )", "silu": r"\text{SiLU}"}.get(info.activation, r"\text{GELU}")
    zero_note = (rf"{n_zero}\ /\ {hidden.size}\ {eq_word('eq.hidden_units', lang)} = 0"
                 if info.activation == "relu" else "")
    return Step("step.ffn", shape_str(trace[hidden_name].shape),
                _lines(rf"\text{{FFN}}(x) = {act}(xW_1 + b_1)\,W_2 + b_2,\quad "
                       rf"W_1 \in \mathbb{{R}}^{{{info.d_model}\times {info.d_ff}}}",
                       zero_note, rf"\text{{FFN}}(x)_{{{i}}} = {_vec(out)}"),
                (hidden_name, out_name))
