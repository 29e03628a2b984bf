"""The lesson's service (/lesson): one sentence through one model as the steps read it (LessonData). The
model's weights (analysis.model_facts), its task and its tokenizer are read here, once, so that the step
builders in explorer/figures/lesson/ only read the values they are given. No Streamlit here."""

from __future__ import annotations

import weakref

from explorer.cache import BoundedCache
from explorer.figures.lesson import LessonData, LessonStep, StepView, build_step, qr_png
from explorer.figures.steps import LayerInfo
from explorer.tokenizer_service import from_tokens, special_tokens, vocabulary
from transformer_core.analysis.model_facts import model_facts
from transformer_core.tasks import model_task


def task_family(loaded) -> str:
    """What a model was trained to do (its task's family, transformer_core/tasks), as the lesson's text needs it:
    'ko-en' (Korean -> English translation), 'reverse', 'copy', 'sort', or '' (unknown, untrained, or no task)."""
    task = model_task(loaded)
    return task.family if task is not None else ""


def lesson_data(traced, loaded, text: str = "") -> LessonData:
    """From a core TextTrace, the LoadedModel that produced it and the sentence as typed."""
    cfg = loaded.config
    tokenizer = loaded.tokenizer
    return LessonData(
        trace=traced.trace, src_tokens=list(traced.src_tokens), tgt_tokens=list(traced.tgt_tokens),
        predicted_tokens=list(traced.predicted_tokens), has_decoder=traced.has_decoder,
        info=LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation),
        scale_embedding=bool(cfg.scale_embedding), positional=str(cfg.positional),
        specials=frozenset(special_tokens(tokenizer)),
        vocabulary=vocabulary(tokenizer) if tokenizer is not None else (),
        source=from_tokens(tokenizer, list(traced.src_tokens)) if tokenizer is not None else None,
        text=text, sinusoidal_layout=str(getattr(cfg, "sinusoidal_layout", "interleaved")),
        task=task_family(loaded), trained=bool(loaded.trained), final_norm=bool(cfg.final_norm),
        facts=model_facts(loaded.model, traced.trace), model_name=loaded.name, max_len=int(cfg.max_len))


# ------------------------------------------------------------------------------------------------
# Shared per server: what depends only on (model, sentence, device, step, language, projector) is built once
# for every session. Thirty phones following one class rerun /lesson on each step change; building the step's
# view (its figure, text, question) and its QR code once instead of thirty times is what keeps them within the
# follow target (benchmarks/lesson_page_cost.py measures the page run with and without these caches).

STEP_VIEW_CACHE_ENTRIES = 128
# A toy model's step view is a few kB to ~100 kB of figure data; a 512-token paper-base heads grid is ~16 MB.
STEP_VIEW_CACHE_BYTES = 64 * 2**20
QR_CACHE_ENTRIES = 64  # PNGs of a few kB each: one per (join URL, scale)
QR_CACHE_BYTES = 4 * 2**20


def _figure_bytes(value: object) -> int:
    """About how many bytes a figure's data holds (numpy arrays by size, lists by element, text by length)."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, dict):
        return sum(_figure_bytes(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(_figure_bytes(v) for v in value) + 8 * len(value)
    return 8


def step_view_bytes(view: StepView) -> int:
    """The bytes a cached StepView holds, about: its figure's data and layout, its table and its text."""
    size = len(view.body) + len(view.more) + len(view.latex) + len(view.chips_html or "") + len(view.reveal)
    if view.figure is not None:
        size += sum(_figure_bytes(trace.to_plotly_json()) for trace in view.figure.data)
        size += _figure_bytes(view.figure.layout.to_plotly_json())
    if view.table is not None:
        size += int(view.table.memory_usage(deep=True).sum())
    return size


STEP_VIEWS: BoundedCache[tuple[weakref.ref, StepView]] = BoundedCache(
    STEP_VIEW_CACHE_ENTRIES, STEP_VIEW_CACHE_BYTES, lambda entry: step_view_bytes(entry[1]))


def shared_step_view(traced, loaded, text: str, step: LessonStep, lang: str, compact: bool = False) -> StepView:
    """The step's view (lesson.build_step) for this trace, language and layout, built once per server and then
    the SAME object for every session: read-only (the page copies a figure before changing it: projector_figure
    and stack_panels return new figures; st.plotly_chart serialises a copy). Keyed by the trace object itself
    (the shared trace cache holds one per model, sentence and device; a weak reference, so this cache never
    keeps an evicted trace alive), the model's name, the sentence, the step, the language and the layout."""
    key = (id(traced), loaded.name, text, step.number, lang, bool(compact))

    def compute() -> tuple[weakref.ref, StepView]:
        return weakref.ref(traced), build_step(step, lesson_data(traced, loaded, text), lang, compact=compact)

    ref, view = STEP_VIEWS.get_or_compute(key, compute)
    if ref() is not traced:  # the id of a freed trace, reused by a new one: build afresh, never a stale view
        return compute()[1]
    return view


# Not functools.lru_cache: it lets every caller that misses compute, and the sessions that open a new step together
# (a class's phones, within one poll period) all missed at once and each made the same PNG (~20 ms of CPU apiece).
QR_PNGS: BoundedCache[bytes] = BoundedCache(QR_CACHE_ENTRIES, QR_CACHE_BYTES, len)


def shared_qr_png(url: str, scale: int = 8) -> bytes:
    """`url`'s QR code as PNG bytes (lesson.qr_png), made once per server, by one session while any others that
    ask for it meanwhile wait: every phone on one step shows the same join link (bytes: immutable, safe to share)."""
    return QR_PNGS.get_or_compute((url, scale), lambda: qr_png(url, scale=scale))
