"""The encoder steps of the lesson: tokens, ids, embedding, positions, one head's scores, softmax and
values, the heads, Add & Norm, the FFN and the whole encoder layer."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pandas as pd

from explorer.figures import figures
from explorer.figures.attention import array
from explorer.figures.lesson.data import ENCODER_LAYER_PREFIX, FOCUS_LAYER, LessonData, focus_head, focus_query
from explorer.figures.lesson.questions import q_shape_answer, strongest_key_answer, token_count_answer
from explorer.figures.lesson.steps import LessonStep
from explorer.figures.lesson.view import StepView, chain_step, plain, row_bars, step_body, step_title
from explorer.figures.steps import _vec, encoder_chain, eq_phrase, eq_word, ffn_step, shape_str
from explorer.figures.tokenization import token_chips_html
from explorer.i18n import md_escape, t
from transformer_core.tracing.names import (
    ENCODER_OUT,
    SRC_EMBED,
    SRC_IDS,
    SRC_INPUT,
    SRC_POS,
    AttentionKind,
    Head,
    attention_name,
    layer_name,
)


def _tokens_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    n = token_count_answer(data)
    chips = None
    if data.source is not None:
        chips = token_chips_html(data.source, t("lesson.unk", lang),
                                 t("lesson.special", lang))
    latex = rf"{eq_word('eq.text', lang)} \;\to\; (t_0, t_1, \dots, t_{{{n - 1}}}),\qquad S = {n}"
    return StepView(
        step, step_title(step, lang), step_body(step, lang, n=n), shape_str((1, n)), latex, chips_html=chips,
                    reveal=t("lesson.tokens.reveal", lang, n=n))


def _ids_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    ids = [int(i) for i in data.trace.numpy(SRC_IDS)]
    vocab = len(data.vocabulary) or max(ids) + 1
    table = pd.DataFrame({t("lesson.col.pos", lang): range(len(ids)), t("lesson.col.token", lang): data.src_tokens,
                          t("lesson.col.id", lang): ids})
    shown = r",\ ".join(str(i) for i in ids[:8]) + (r",\ \dots" if len(ids) > 8 else "")
    latex = rf"\text{{ids}} = ({shown}),\qquad 0 \le \text{{id}} < V = {vocab}"
    return StepView(
        step, step_title(step, lang), step_body(step, lang, vocab=vocab), shape_str(data.trace[SRC_IDS].shape),
                    latex, table=table)


def _embedding_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    from explorer.figures.tables import scaling_latex

    embed = data.trace.numpy(SRC_EMBED)
    d = data.info.d_model
    i = focus_query(data)
    # the sentence about √d_model follows the model: BERT-style models (MiniLM) do not scale
    if data.scale_embedding:
        latex = scaling_latex(d, embed[i], math.sqrt(d))
        body = step_body(step, lang, d=d) + "\n\n" + t("lesson.embedding.scaled", lang, d=d, sqrt=f"{math.sqrt(d):.2f}")
    else:
        no_sqrt = eq_phrase("eq.no_sqrt", lang, r"\sqrt{d_{model}}")
        latex = rf"x = E[\mathrm{{id}}],\quad E \in \mathbb{{R}}^{{V\times {d}}}\ ({no_sqrt})"
        body = step_body(step, lang, d=d) + "\n\n" + t("lesson.embedding.no_scale", lang)
    fig = figures.vectors_heatmap([("E[id]·√d" if data.scale_embedding else "E[id]", embed)], data.src_tokens,
                                  title=step_title(step, lang), lang=lang)
    return StepView(
        step, step_title(step, lang), body, shape_str(data.trace[SRC_EMBED].shape), latex, figure=fig)


def _position_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    pos = array(data.trace, SRC_POS)
    inputs = data.trace.numpy(SRC_INPUT)
    d = data.info.d_model
    p = min(1, pos.shape[0] - 1)
    scale = r"\sqrt{d}" if data.scale_embedding else ""
    if data.positional == "sinusoidal" and data.sinusoidal_layout == "halves":
        h = (d + 1) // 2  # Marian: the sines fill the first half, the cosines the second
        latex = (rf"\begin{{gathered}}PE_{{(pos,i)}} = \sin\!\left(pos / 10000^{{2i/{d}}}\right),\ "
                 rf"PE_{{(pos,{h}+i)}} = \cos\!\left(pos / 10000^{{2i/{d}}}\right) \\ "
                 rf"PE_{{({p},0)}} = \sin({p}) = {pos[p, 0]:.3f},\quad "
                 rf"PE_{{({p},{h})}} = \cos({p}) = {pos[p, h]:.3f} \\ "
                 rf"x_{{{p}}} = E[\mathrm{{id}}_{{{p}}}]{scale} + PE_{{{p}}} = "
                 rf"({inputs[p, 0]:.3f},\ {inputs[p, 1]:.3f},\ \dots)\end{{gathered}}")
        body = step_body(step, lang) + "\n\n" + t("msg.marian_positions", lang, half=h)
    elif data.positional == "sinusoidal":
        latex = (rf"\begin{{gathered}}PE_{{(pos,2i)}} = \sin\!\left(pos / 10000^{{2i/{d}}}\right),\ "
                 rf"PE_{{(pos,2i+1)}} = \cos\!\left(pos / 10000^{{2i/{d}}}\right) \\ "
                 rf"PE_{{({p},0)}} = \sin({p}) = {pos[p, 0]:.3f},\quad PE_{{({p},1)}} = \cos({p}) = {pos[p, 1]:.3f} \\ "
                 rf"x_{{{p}}} = E[\mathrm{{id}}_{{{p}}}]{scale} + PE_{{{p}}} = "
                 rf"({inputs[p, 0]:.3f},\ {inputs[p, 1]:.3f},\ \dots)\end{{gathered}}")
        body = step_body(step, lang) + "\n\n" + t("lesson.position.sinusoidal", lang)
    else:
        latex = (rf"\begin{{gathered}}x = \text{{LayerNorm}}(E[\mathrm{{id}}] + P[pos] + T[\text{{type}}]) \\ "
                 rf"P[{p}] = ({pos[p, 0]:.3f},\ {pos[p, 1]:.3f},\ \dots)\ "
                 rf"({eq_word('eq.learned', lang)})\end{{gathered}}")
        body = step_body(step, lang) + "\n\n" + t("lesson.position.learned", lang)
    positions = [str(i) for i in range(pos.shape[0])]
    fig = figures.vectors_heatmap([("PE", pos)], positions, title=step_title(step, lang), lang=lang,
                                  row_title=t("fig.position_axis", lang))
    return StepView(
        step, step_title(step, lang), body, shape_str(pos.shape), latex, figure=fig)


def _chain(data: LessonData, query: int, key: int, lang: str = "en"):
    return encoder_chain(data.trace, FOCUS_LAYER, focus_head(data), query, key, data.info, lang)


def _qkv_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    """Before the scores: every token's vector is projected three times (W^Q, W^K, W^V), what it looks for,
    what it offers, what it hands over; then each is split into h heads of d_k. Pre-LN models project
    LayerNorm(X) (the traced norm1), post-LN models the layer input X."""
    i, head = focus_query(data), focus_head(data)
    d, h, d_k, n = data.info.d_model, data.info.n_heads, data.d_k, data.n_src
    p = Head(AttentionKind.ENCODER_SELF, FOCUS_LAYER, head)
    # short lines (a phone shows ~30 characters of an equation): the projections, what they read, the traced
    # row q_i of Q (every head side by side), and the split into heads with this model's shapes
    x = r"\hat X" if data.info.norm_first else "X"
    q = data.trace.numpy(p.name("q"))  # [H, S, d_k]
    lines = [rf"Q = {x}W^Q,\; K = {x}W^K,\; V = {x}W^V"]
    if data.info.norm_first:
        lines.append(r"\hat X = \text{LayerNorm}(X)")
    lines += [rf"q_{{{i}}} = {_vec(q[:, i, :].reshape(-1), 3)}",
              rf"{shape_str((1, n, d))} \to {shape_str(data.trace[p.name('q')].shape)}",
              rf"d_k = d_{{model}}/h = {d}/{h} = {d_k}"]
    latex = r"\begin{gathered}" + r" \\ ".join(lines) + r"\end{gathered}"
    # one-letter panel titles: the roles are in the text above, and longer titles collide on a phone
    panels = [(name.upper(), data.trace.numpy(p.name(name))[head]) for name in ("q", "k", "v")]
    fig = figures.vectors_heatmap(panels, data.src_tokens, title=t("lesson.qkv.fig", lang, head=head),
                                  lang=lang, shared_scale=True)
    body = step_body(step, lang, d=d, h=h, d_k=d_k, n=n)
    body += "\n\n" + t("lesson.qkv.pre_ln" if data.info.norm_first else "lesson.qkv.post_ln", lang)
    return StepView(step, step_title(step, lang), body, shape_str(data.trace[p.name("q")].shape), latex,
                    figure=fig)


def _scores_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    head = focus_head(data)
    scores = data.trace.numpy(attention_name(AttentionKind.ENCODER_SELF, FOCUS_LAYER, "scores"))[head][i]
    j = int(np.argmax(scores))
    latex = chain_step(_chain(data, i, j, lang), "step.scores").latex
    title = t("lesson.scores.fig", lang, token=plain(data.src_tokens[i]), head=head)
    fig = row_bars(scores, data.src_tokens, j, title=title, lang=lang, value_title=t("fig.score", lang), bounded=False)
    s, d_k = q_shape_answer(data)
    return StepView(
        step, step_title(step, lang), step_body(step, lang, token=md_escape(data.src_tokens[i]), d_k=d_k),
                    focus_shape(data, "scores"), latex, figure=fig,
                    reveal=t("lesson.scores.reveal", lang, s=s, d_k=d_k, h=data.info.n_heads, d=data.info.d_model))


def _softmax_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    head = focus_head(data)
    weights = data.trace.numpy(attention_name(AttentionKind.ENCODER_SELF, FOCUS_LAYER, "weights"))[head][i]
    j = strongest_key_answer(data, i)
    latex = chain_step(_chain(data, i, j, lang), "step.softmax").latex
    title = t("lesson.softmax.fig", lang, token=plain(data.src_tokens[i]), head=head)
    fig = row_bars(weights, data.src_tokens, j, title=title, lang=lang, value_title=t("fig.weight", lang),
                    bounded=True)
    return StepView(
        step, step_title(step, lang), step_body(step, lang, token=md_escape(data.src_tokens[i])),
                    focus_shape(data, "weights"), latex, figure=fig,
                    reveal=t("lesson.softmax.reveal", lang, token=md_escape(data.src_tokens[i]),
                             target=md_escape(data.src_tokens[j]), w=f"{weights[j]:.2f}"))


def _values_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    p = Head(AttentionKind.ENCODER_SELF, FOCUS_LAYER, 0)
    head = focus_head(data)
    v = data.trace.numpy(p.name("v"))[head]
    context = data.trace.numpy(p.name("context"))[head]
    latex = chain_step(_chain(data, i, strongest_key_answer(data, i), lang), "step.context").latex
    fig = figures.vectors_heatmap([("V", v), (t("lesson.values.panel", lang), context)], data.src_tokens,
                                  title=step_title(step, lang), lang=lang, shared_scale=True)
    return StepView(
        step, step_title(step, lang), step_body(step, lang, d_k=data.d_k),
                    shape_str(data.trace[p.name("context")].shape), latex, figure=fig)


def _multihead_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    chain = _chain(data, i, strongest_key_answer(data, i), lang)
    d, h, d_k = data.info.d_model, data.info.n_heads, data.d_k
    # each head has its own W_i^Q (d x d_k); the code stores the h of them side by side as one d x d matrix
    x = r"\hat X" if data.info.norm_first else "X"  # pre-LN: the heads project LayerNorm(X)
    per_head = (rf"\text{{head}}_i = \text{{Attention}}({x}W_i^Q, {x}W_i^K, {x}W_i^V),\ "
                rf"W_i^Q \in \mathbb{{R}}^{{{d}\times {d_k}}}"
                rf",\ W^Q = [W_0^Q \cdots W_{{{h - 1}}}^Q] \in \mathbb{{R}}^{{{d}\times {d}}}")
    latex = r"\begin{gathered}" + per_head + r" \\ " + chain_step(chain, "step.concat").latex + r" \\ " + \
        chain_step(chain, "step.wo").latex.replace(r"\begin{gathered}", "").replace(r"\end{gathered}", "") + \
        r"\end{gathered}"
    weights = data.trace.numpy(attention_name(AttentionKind.ENCODER_SELF, FOCUS_LAYER, "weights"))
    fig = figures.heads_grid(weights, data.src_tokens, data.src_tokens, title=t("lesson.multihead.fig", lang),
                             lang=lang, n_cols=2 if data.info.n_heads <= 4 else 4)
    for trace in fig.data:  # no numbers in the cells: they overlap on a phone (hover shows them)
        trace.texttemplate = None
    return StepView(step, step_title(step, lang),
                    step_body(step, lang, h=data.info.n_heads, d_k=data.d_k, d=data.info.d_model),
                    focus_shape(data, "out"), latex, figure=fig)


def _addnorm_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    prefix = partial(layer_name, "encoder", FOCUS_LAYER)
    latex = chain_step(_chain(data, i, 0, lang),
                       "step.addnorm1_pre" if data.info.norm_first else "step.addnorm1").latex
    trace = data.trace
    if data.info.norm_first:  # pre-LN: the norm comes first, the sum is the sublayer's output
        panels = [("x", trace.numpy(prefix("in"))), ("LayerNorm(x)", trace.numpy(prefix("norm1"))),
                  ("MHA(LN(x))", trace.numpy(prefix("self_attn.out"))),
                  ("x + MHA(LN(x))", trace.numpy(prefix("add1")))]
        body = t("lesson.addnorm.body_pre", lang)
    else:
        panels = [("x", trace.numpy(prefix("in"))), ("MHA(x)", trace.numpy(prefix("self_attn.out"))),
                  ("x + MHA(x)", trace.numpy(prefix("add1"))), ("LayerNorm", trace.numpy(prefix("norm1")))]
        body = step_body(step, lang)
    fig = figures.vectors_heatmap(panels, data.src_tokens, title=step_title(step, lang), lang=lang)
    return StepView(
        step, step_title(step, lang), body, shape_str(data.trace[prefix("add1")].shape), latex, figure=fig)


def _ffn_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    prefix = partial(layer_name, "encoder", FOCUS_LAYER)
    latex = ffn_step(data.trace, ENCODER_LAYER_PREFIX, i, data.info, lang).latex
    fig = figures.activation_heatmap(data.trace.numpy(prefix("ffn.hidden")), data.src_tokens,
                                     title=step_title(step, lang), lang=lang, col_title=t("fig.hidden_unit", lang),
                                     value_title=t("fig.activation", lang))
    return StepView(
        step, step_title(step, lang), step_body(step, lang, d=data.info.d_model, d_ff=data.info.d_ff) + " "
        + t(f"lesson.ffn.{data.info.activation}", lang),
                    shape_str(data.trace[prefix("ffn.hidden")].shape), latex, figure=fig)


def _encoder_layer_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    n = data.trace.n_layers("encoder")
    i = focus_query(data)
    x_in = data.trace.numpy(layer_name("encoder", 0, "in"))
    out = data.trace.numpy(ENCODER_OUT)
    # layers are numbered from 0 everywhere in the app: encoder.0.out is "layer 0's output"
    panels = [(t("lesson.encoder_layer.in", lang), x_in),
              (t("lesson.encoder_layer.after", lang, n=0), data.trace.numpy(layer_name("encoder", 0, "out")))]
    if n > 1 or data.final_norm:
        panels.append((t("lesson.encoder_layer.memory", lang), out))
    fig = figures.vectors_heatmap(panels, data.src_tokens, title=step_title(step, lang), lang=lang)
    a, b = x_in[i].astype(np.float64), out[i].astype(np.float64)
    cosine = float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-12))
    memory = eq_word("eq.memory", lang)
    if data.info.norm_first:
        layer = (r"x' = x + \text{MHA}(\text{LN}(x)),\quad \text{Layer}(x) = x' + \text{FFN}(\text{LN}(x'))"
                 + (rf",\quad {memory} = \text{{LN}}(\text{{Layer}}_{{{n - 1}}})" if data.final_norm else ""))
        body = t("lesson.encoder_layer.body_pre", lang, n=n)
    else:
        layer = (r"x' = \text{LayerNorm}(x + \text{MHA}(x)),\quad "
                 r"\text{Layer}(x) = \text{LayerNorm}(x' + \text{FFN}(x'))")
        body = step_body(step, lang, n=n)
    latex = (rf"\begin{{gathered}}{layer} \\ "
             rf"N = {n}:\quad \cos(x_{{{i}}}, {memory}_{{{i}}}) = {cosine:.3f}\end{{gathered}}")
    body += "\n\n" + t("lesson.encoder_layer.cosine", lang, i=i, token=md_escape(data.src_tokens[i]),
                       cos=f"{cosine:.2f}")
    return StepView(step, step_title(step, lang), body, shape_str(data.trace[ENCODER_OUT].shape), latex, figure=fig)


def focus_shape(data: LessonData, tensor: str) -> str:
    """The shape of one encoder self-attention tensor of the focus layer, as the step's header shows it."""
    return shape_str(data.trace[attention_name(AttentionKind.ENCODER_SELF, FOCUS_LAYER, tensor)].shape)
