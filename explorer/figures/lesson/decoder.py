"""The decoder steps of the lesson (the causal mask, cross-attention, the next token) and the full picture."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from explorer.figures import figures
from explorer.figures.attention import array, stack
from explorer.figures.lesson.data import LessonData, causal_position, cross_row, cross_weights, next_token_row
from explorer.figures.lesson.questions import cross_answer, next_token_candidates, visible_positions_answer
from explorer.figures.lesson.steps import LessonStep
from explorer.figures.lesson.view import StepView, chain_step, step_body, step_title
from explorer.figures.steps import attention_steps, shape_str
from explorer.i18n import CATALOGS, md_escape, t
from transformer_core.tracing.names import (
    CAUSAL_MASK,
    ENCODER_OUT,
    LOGITS,
    SRC_IDS,
    SRC_INPUT,
    AttentionKind,
    attention_name,
)


def task_note(step_id: str, data: LessonData, lang: str) -> str:
    """The sentence a step adds for the model's task (Korean -> English word order, the reversal's
    anti-diagonal, ...); '' for an untrained model or a task the lesson has nothing to say about."""
    if not data.trained or not data.task:
        return ""
    key = f"lesson.{step_id}.task_{data.task.replace('-', '_')}"
    return "\n\n" + t(key, lang) if key in CATALOGS["en"] else ""


def _causal_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    p = causal_position(data)
    masked = data.trace.numpy(attention_name(AttentionKind.DECODER_SELF, 0, "masked_scores"))[0]
    latex = chain_step(attention_steps(data.trace, "decoder", 0, "self_attn", 0, p, 0, data.info, lang),
                        "step.mask").latex
    fig = figures.attention_heatmap(masked, data.tgt_tokens, data.tgt_tokens, title=t("lesson.causal_mask.fig", lang),
                                    lang=lang, value_title=t("fig.score", lang), diverging=True)
    seen = visible_positions_answer(data, p)
    return StepView(
        step, step_title(step, lang), step_body(step, lang) + task_note("causal_mask", data, lang),
        shape_str(array(data.trace, CAUSAL_MASK).shape), latex, figure=fig,
                    reveal=t("lesson.causal_mask.reveal", lang, p=p,
                             seen=", ".join(f"{j}: {md_escape(data.tgt_tokens[j])}" for j in sorted(seen))))


def _cross_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    weights = cross_weights(data)
    row = cross_row(data)
    src = cross_answer(data, row)
    n_layers = data.trace.n_layers("decoder")
    fig = figures.attention_heatmap(weights.astype(np.float32), data.predicted_tokens[: weights.shape[0]],
                                    data.src_tokens, title=t("lesson.cross_attention.fig", lang, layer=n_layers - 1),
                                    lang=lang, row_title=t("fig.written_axis", lang),
                                    col_title=t("fig.source_axis", lang))
    heads = data.trace.numpy(attention_name(AttentionKind.CROSS, n_layers - 1, "weights"))[:, row, src]
    latex = (rf"\begin{{gathered}}\text{{CrossAttn}} = \text{{softmax}}\!\left(\frac{{Q_{{dec}} K_{{enc}}^\top}}"
             rf"{{\sqrt{{d_k}}}}\right) V_{{enc}} \\ \bar a_{{{row},{src}}} = \frac{{1}}{{{len(heads)}}}"
             rf"\sum_h a^{{(h)}}_{{{row},{src}}} = {float(weights[row, src]):.3f}\end{{gathered}}")
    return StepView(
        step, step_title(step, lang), step_body(step, lang) + task_note("cross_attention", data, lang),
        shape_str(data.trace[attention_name(AttentionKind.CROSS, n_layers - 1, "weights")].shape), latex, figure=fig,
                    reveal=t("lesson.cross_attention.reveal", lang, token=md_escape(data.predicted_tokens[row]),
                             src=md_escape(data.src_tokens[src]), w=f"{weights[row, src]:.2f}"))


def _next_token_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    row = next_token_row(data)
    tokens, probs, chosen = next_token_candidates(data, row, k=5)
    fig = figures.top_k_bar(tokens, probs, chosen, title=t("lesson.next_token.fig", lang, t=row), lang=lang)
    vocab = int(data.trace[LOGITS].shape[-1])
    bias = " + b" if data.facts.output_bias is not None else ""  # the same formula as the shared-weights step
    latex = (rf"P(y_{{{row + 1}}} \mid y_{{\le {row}}}, x) = \text{{softmax}}(h_{{{row}}} W^\top{bias}),\quad "
             rf"W \in \mathbb{{R}}^{{{vocab}\times {data.info.d_model}}},\quad \max P = {probs[0]:.3f}")
    return StepView(
        step, step_title(step, lang), step_body(step, lang, v=vocab) + ("\n\n" + t("lesson.next_token.shared", lang)
                                                             if data.facts.tied else ""),
        shape_str(data.trace[LOGITS].shape),
                    latex, figure=fig,
                    reveal=t("lesson.next_token.reveal", lang, token=md_escape(chosen), p=f"{probs[0]:.1%}"))


def _full_picture_figure(data: LessonData, lang: str, assumed_width: int = 900,
                         side_by_side: bool = False) -> go.Figure:
    """Every layer x head of every attention kind in ONE figure (square tiles); `side_by_side` (the projector):
    the kinds next to each other, every tile's tokens named."""
    from explorer.figures.attention import kinds_in

    names = {kind: t(f"lesson.kind.{kind.short}", lang) for kind in AttentionKind}
    kinds = kinds_in(data.trace)
    stacks = [(names[kind], stack(data.trace, kind)) for kind in kinds]
    if side_by_side:
        return figures.all_heads_side_by_side(stacks, [_kind_tokens(data, kind) for kind in kinds],
                                              title=t("lesson.full_picture.title", lang), lang=lang)
    return figures.all_heads_overview(stacks, title=t("lesson.full_picture.title", lang), lang=lang,
                                      assumed_width=assumed_width)


def _kind_tokens(data: LessonData, kind) -> tuple[list[str], list[str]]:
    """(query tokens, key tokens) of an attention kind's maps: source for the encoder, the decoder's input
    tokens for its self-attention, the written output token x source for cross-attention (as step 17)."""
    if kind == AttentionKind.ENCODER_SELF:
        return list(data.src_tokens), list(data.src_tokens)
    if kind == AttentionKind.DECODER_SELF:
        return list(data.tgt_tokens), list(data.tgt_tokens)
    return list(data.predicted_tokens), list(data.src_tokens)  # a cross row: the output token it writes


def _full_picture_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    from explorer.figures.attention import kinds_in

    stacks = [stack(data.trace, kind) for kind in kinds_in(data.trace)]
    fig = _full_picture_figure(data, lang)
    shapes = data.trace.shapes()
    chain = [("ids", shapes[SRC_IDS]), ("X", shapes[SRC_INPUT]), (r"\text{memory}", shapes[ENCODER_OUT])]
    if data.has_decoder:
        chain.append((r"\text{logits}", shapes[LOGITS]))
    latex = r"\;\to\;".join(rf"{name}\,{shape_str(shape)}" for name, shape in chain)
    n_heads = sum(s.shape[0] * s.shape[1] for s in stacks)
    body = t("lesson.full_picture.body", lang, n=n_heads) if data.has_decoder else \
        t("lesson.full_picture.body_encoder", lang, n=n_heads)
    last = shapes[LOGITS] if data.has_decoder else shapes[ENCODER_OUT]
    return StepView(
        step, step_title(step, lang), body, shape_str(last), latex, figure=fig)
