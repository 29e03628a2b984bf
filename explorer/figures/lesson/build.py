"""Every step's builder by id, and `build_step`: a step's text, shape, equation, figure and question."""

from __future__ import annotations

from collections.abc import Callable

from explorer.figures.lesson.data import FOCUS_LAYER, LessonData, focus_head, focus_head_reason, focus_query
from explorer.figures.lesson.decoder import (
    _causal_step,
    _cross_step,
    _full_picture_figure,
    _full_picture_step,
    _next_token_step,
)
from explorer.figures.lesson.encoder import (
    _addnorm_step,
    _embedding_step,
    _encoder_layer_step,
    _ffn_step,
    _ids_step,
    _multihead_step,
    _position_step,
    _qkv_step,
    _scores_step,
    _softmax_step,
    _tokens_step,
    _values_step,
)
from explorer.figures.lesson.paper import BUILDERS as PAPER_BUILDERS
from explorer.figures.lesson.questions import question_for
from explorer.figures.lesson.steps import LessonStep, available
from explorer.figures.lesson.view import PAGE_TITLES, StepView
from explorer.i18n import md_escape, t

_FOLLOWS_ONE_QUERY = {"qkv", "scores", "softmax", "scaling", "values", "addnorm", "ffn"}

BUILDERS: dict[str, Callable[[LessonStep, LessonData, str], StepView]] = {
    "tokens": _tokens_step, "ids": _ids_step, "embedding": _embedding_step, "position": _position_step,
    "qkv": _qkv_step,
    "scores": _scores_step, "softmax": _softmax_step, "values": _values_step, "multihead": _multihead_step,
    "addnorm": _addnorm_step, "ffn": _ffn_step, "encoder_layer": _encoder_layer_step, "causal_mask": _causal_step,
    "cross_attention": _cross_step, "next_token": _next_token_step, "full_picture": _full_picture_step,
    **PAPER_BUILDERS,
}


def build_step(step: LessonStep, data: LessonData, lang: str, compact: bool = False) -> StepView:
    """The step's text, shape, equation, figure and question, all from `data`'s trace. A decoder step
    of an encoder-only model raises ValueError (the page explains the absence instead)."""
    if not available(step, data.has_decoder):
        raise ValueError(f"step {step.number} ({step.id}) needs a decoder; this trace has none")
    builder = BUILDERS[step.id]
    view = builder(step, data, lang)
    if compact and step.id == "full_picture":  # the kinds side by side: one projector screen, tokens named
        view.figure = _full_picture_figure(data, lang, side_by_side=True)
    view.question = question_for(step.id, data, lang)
    if step.id in _FOLLOWS_ONE_QUERY:
        i = focus_query(data)
        why = t(f"lesson.focus_why.{focus_head_reason(data)}", lang)
        view.focus = t("lesson.focus", lang, layer=FOCUS_LAYER, head=focus_head(data), i=i,
                       token=md_escape(data.src_tokens[i])) + " " + why
    if not data.trained:  # paper-base: random weights; every step says so, not only the first
        view.body = t("lesson.untrained", lang, name=data.model_name) + "\n\n" + view.body
    view.page_title_key = PAGE_TITLES[step.page]
    return view
