"""The guided lesson (/lesson): an ordered path through "Attention Is All You Need" on the sidebar's
sentence. Pure: a trace and its tokens in; step definitions, one figure per step, equations with the
live numbers, predict-then-reveal questions with answers read from the trace, the join URL and its
QR code out. No streamlit here (pages/lesson.py only lays these out).

The package, by job: `steps` (the path), `data` (LessonData, filled by explorer/lesson_service.py, and the
positions, head and rows the steps follow), `questions` (predict-then-reveal answers), `view` (StepView and
helpers), `encoder` / `decoder` / `paper` (the step builders), `build` (build_step), `projector` (projector
styling), `join` (join URL, QR).
"""

from explorer.figures.lesson.build import build_step
from explorer.figures.lesson.data import (
                                          FOCUS_LAYER,
                                          LessonData,
                                          causal_position,
                                          cross_row,
                                          cross_weights,
                                          focus_head,
                                          focus_query,
                                          next_token_row,
)
from explorer.figures.lesson.join import LOCAL_HOSTS, join_url, qr_code, qr_png
from explorer.figures.lesson.projector import (
                                          BASE_CSS,
                                          KEYS_JS,
                                          PROJECTOR_BODY_PX,
                                          PROJECTOR_FONT_PX,
                                          PROJECTOR_MAX_HEIGHT,
                                          PROJECTOR_MIN_HEIGHT,
                                          PROJECTOR_SCALE,
                                          page_css,
                                          projector_css,
                                          projector_figure,
                                          projector_height_budget,
                                          scroll_to_step_script,
)
from explorer.figures.lesson.questions import (
                                          Question,
                                          cross_answer,
                                          next_token_candidates,
                                          q_shape_answer,
                                          question_for,
                                          strongest_key_answer,
                                          token_count_answer,
                                          visible_positions_answer,
)
from explorer.figures.lesson.steps import LessonStep, available, lesson_steps, neighbour, parse_step, skipped_steps
from explorer.figures.lesson.view import StepView

__all__ = [
                                          "BASE_CSS",
                                          "FOCUS_LAYER",
                                          "KEYS_JS",
                                          "LOCAL_HOSTS",
                                          "PROJECTOR_BODY_PX",
                                          "PROJECTOR_FONT_PX",
                                          "PROJECTOR_MAX_HEIGHT",
                                          "PROJECTOR_MIN_HEIGHT",
                                          "PROJECTOR_SCALE",
                                          "LessonData",
                                          "LessonStep",
                                          "Question",
                                          "StepView",
                                          "available",
                                          "build_step",
                                          "causal_position",
                                          "cross_answer",
                                          "cross_row",
                                          "cross_weights",
                                          "focus_head",
                                          "focus_query",
                                          "join_url",
                                          "lesson_steps",
                                          "neighbour",
                                          "next_token_candidates",
                                          "next_token_row",
                                          "page_css",
                                          "parse_step",
                                          "projector_css",
                                          "projector_figure",
                                          "projector_height_budget",
                                          "q_shape_answer",
                                          "qr_code",
                                          "qr_png",
                                          "question_for",
                                          "scroll_to_step_script",
                                          "skipped_steps",
                                          "strongest_key_answer",
                                          "token_count_answer",
                                          "visible_positions_answer",
]
