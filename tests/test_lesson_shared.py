"""The lesson's per-server caches (explorer/lesson_service.py): a shared step view and QR code are what a fresh
build gives, one object is handed to every session only for the same trace, step, language and layout, and a page
run leaves the shared object as it found it (it is read-only: sessions must never see each other's changes)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import transformer_core as core
from explorer import lesson_service
from explorer.figures import lesson

ROOT = Path(__file__).resolve().parent.parent
MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
OTHER_TEXT = "학생이 책을 읽는다."

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def model() -> core.LoadedModel:
    if MODEL not in {info.name for info in core.list_models() if info.available}:
        pytest.skip(f"{MODEL} is not available here")
    return core.load(MODEL)


@pytest.fixture(autouse=True)
def empty_caches():
    lesson_service.STEP_VIEWS.clear()
    lesson_service.QR_PNGS.clear()
    yield
    lesson_service.STEP_VIEWS.clear()
    lesson_service.QR_PNGS.clear()


def snapshot(view: lesson.StepView) -> dict:
    """Everything a step shows, as plain comparable values (the figure as its plotly JSON text)."""
    question = view.question
    return {
        "step": view.step, "title": view.title, "body": view.body, "shape": view.shape, "latex": view.latex,
        "figure": view.figure.to_json() if view.figure is not None else None, "chips": view.chips_html,
        "table": view.table.to_json() if view.table is not None else None, "reveal": view.reveal,
        "page": view.page_title_key, "focus": view.focus,
        "question": None if question is None else (question.id, question.prompt, question.options,
                                                   question.answer, question.multi),
    }


def fresh(traced, loaded, text: str, step: lesson.LessonStep, lang: str, compact: bool) -> lesson.StepView:
    """The step built from scratch, as the page built it before the cache."""
    return lesson.build_step(step, lesson_service.lesson_data(traced, loaded, text), lang, compact=compact)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("compact", [False, True])
def test_every_shared_step_view_equals_a_fresh_build(model, lang: str, compact: bool):
    traced = core.trace_text(model, TEXT)
    steps = [s for s in lesson.lesson_steps() if lesson.available(s, traced.has_decoder)]
    assert len(steps) >= 18
    for step in steps:
        shared = lesson_service.shared_step_view(traced, model, TEXT, step, lang, compact=compact)
        assert snapshot(shared) == snapshot(fresh(traced, model, TEXT, step, lang, compact)), step.id
    assert len(lesson_service.STEP_VIEWS) == len(steps)


def test_sessions_share_one_view_only_for_the_same_trace_step_language_and_layout(model):
    traced, other = core.trace_text(model, TEXT), core.trace_text(model, OTHER_TEXT)
    step, next_step = lesson.lesson_steps()[4], lesson.lesson_steps()[5]
    first = lesson_service.shared_step_view(traced, model, TEXT, step, "ko")
    assert lesson_service.shared_step_view(traced, model, TEXT, step, "ko") is first  # the 2nd..30th phone
    differing = {
        "language": lesson_service.shared_step_view(traced, model, TEXT, step, "en"),
        "layout": lesson_service.shared_step_view(traced, model, TEXT, step, "ko", compact=True),
        "step": lesson_service.shared_step_view(traced, model, TEXT, next_step, "ko"),
        "sentence": lesson_service.shared_step_view(other, model, OTHER_TEXT, step, "ko"),
    }
    for why, view in differing.items():
        assert view is not first, why
    assert snapshot(differing["sentence"]) == snapshot(fresh(other, model, OTHER_TEXT, step, "ko", False))
    assert snapshot(differing["sentence"]) != snapshot(first)
    assert snapshot(differing["language"]) == snapshot(fresh(traced, model, TEXT, step, "en", False))


def test_a_new_trace_object_gets_its_own_view_and_the_cache_keeps_no_trace_alive(model):
    import gc
    import weakref

    step = lesson.lesson_steps()[6]
    traced = core.trace_text(model, TEXT)
    first = lesson_service.shared_step_view(traced, model, TEXT, step, "ko")
    gone = weakref.ref(traced)
    del traced
    gc.collect()
    assert gone() is None, "the step cache must not keep an evicted trace alive"
    again = core.trace_text(model, TEXT)  # the trace cache made a new one (its id may be the old one's)
    view = lesson_service.shared_step_view(again, model, TEXT, step, "ko")
    assert view is not first
    assert snapshot(view) == snapshot(fresh(again, model, TEXT, step, "ko", False))


def test_the_step_cache_is_bounded_in_entries_and_bytes(model):
    cache = lesson_service.STEP_VIEWS
    assert (cache.max_entries, cache.max_bytes) == (lesson_service.STEP_VIEW_CACHE_ENTRIES,
                                                    lesson_service.STEP_VIEW_CACHE_BYTES)
    traced = core.trace_text(model, TEXT)
    step = next(s for s in lesson.lesson_steps() if s.id == "multihead")
    view = lesson_service.shared_step_view(traced, model, TEXT, step, "ko")
    heatmap_bytes = sum(trace.z.size * 8 for trace in view.figure.data if getattr(trace, "z", None) is not None)
    assert heatmap_bytes > 0
    assert lesson_service.step_view_bytes(view) >= heatmap_bytes  # the figure's numbers are counted
    assert cache.nbytes == lesson_service.step_view_bytes(view)


def test_the_shared_qr_code_is_the_fresh_one_and_one_object_per_url():
    url = "http://192.168.0.7:8501/lesson?class=ABC234&lang=%ED%95%9C%EA%B5%AD%EC%96%B4"
    png = lesson_service.shared_qr_png(url)
    assert png == lesson.qr_png(url)
    assert lesson_service.shared_qr_png(url) is png
    assert lesson_service.shared_qr_png(url, scale=4) == lesson.qr_png(url, scale=4) != png
    assert lesson_service.shared_qr_png(url + "0") == lesson.qr_png(url + "0") != png


def test_sessions_asking_together_for_a_new_qr_code_make_it_once(monkeypatch):
    """A class's phones open a new step within one poll period and all ask for the same join link's PNG: the first
    makes it, the others wait for it (functools.lru_cache let each one that missed make it again)."""
    url = "http://192.168.0.7:8501/lesson?text=x&model=ko-en-toy&step=5"
    made, real_qr_png = [], lesson.qr_png

    def slow_counting_qr_png(asked: str, scale: int = 8) -> bytes:
        made.append((asked, scale))
        time.sleep(0.05)  # the sessions' requests overlap the making, as they do on a server
        return real_qr_png(asked, scale=scale)

    monkeypatch.setattr(lesson_service, "qr_png", slow_counting_qr_png)
    sessions = 8
    together = threading.Barrier(sessions)

    def session(_: int) -> bytes:
        together.wait()
        return lesson_service.shared_qr_png(url)

    with ThreadPoolExecutor(sessions) as pool:
        pngs = list(pool.map(session, range(sessions)))
    assert made == [(url, 8)]
    assert all(png is pngs[0] for png in pngs)
    assert pngs[0] == real_qr_png(url)


from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

streamlit_testing = needed("streamlit.testing.v1")


@pytest.mark.parametrize("present", ["", "1"])
def test_a_page_run_leaves_the_shared_view_as_it_found_it(model, present: str):
    """The projector copies the figure to restyle it, a phone's chart restacks a copy: the shared view is never
    changed by a session (another session would show the change)."""
    step = next(s for s in lesson.lesson_steps() if s.id == "multihead")
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"model": MODEL, "text": TEXT, "lang": "한국어", "step": str(step.number),
                            **({"present": present} if present else {})})
    at.run()
    at.switch_page("pages/lesson.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(lesson_service.STEP_VIEWS) == 1
    ((ref, view),) = [value for value, _ in lesson_service.STEP_VIEWS._values.values()]
    before = snapshot(view)
    assert before == snapshot(fresh(ref(), model, TEXT, step, "ko", bool(present)))
    at.run()  # a second run (a poll's rerun) reuses the same view
    assert not at.exception, [e.value for e in at.exception]
    assert len(lesson_service.STEP_VIEWS) == 1
    assert snapshot(view) == before
    shown = at.get("plotly_chart")
    assert shown, "the step's figure is on the page"
