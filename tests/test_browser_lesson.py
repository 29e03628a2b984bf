"""The lesson in headless Chromium: projector mode at 1920x1080 walked with the arrow keys (no sidebar or
header, body text >= 24 px, no sideways scrolling, one figure per step), every step opened by URL on a
390x844 phone screen (nothing wider than the screen), a predict-then-reveal click; screenshots for the
README in docs/screenshots/lesson_projector.png and lesson_phone.png."""

from __future__ import annotations

import re
import time
from functools import cache
from pathlib import Path

import pytest

import transformer_core as core
from explorer import lesson_service
from explorer.figures import lesson
from tests.browser_helpers import (
    CHARTS_RENDERED,
    EXCEPTION,
    POLL_MS,
    page_url,
    require_chromium,
    shows_step,
    wait_drawn,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
STEPS = lesson.lesson_steps()
CROSS_STEP = next(s.number for s in STEPS if s.id == "cross_attention")

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)


@cache
def data() -> lesson.LessonData:
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        loaded = core.load(MODEL)
        return lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT)
    finally:
        torch.set_num_threads(threads)


def heatmaps(number: int, revealed: bool) -> int:
    """Heatmap traces the step draws (none while its question waits for a guess)."""
    view = lesson.build_step(STEPS[number - 1], data(), "ko")
    if view.figure is None or (view.question is not None and not revealed):
        return 0
    return sum(1 for trace in view.figure.data if trace.type == "heatmap")


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)



def new_tab(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR",
                                  device_scale_factor=1)
    return context, context.new_page()


def wait_step(tab, number: int, revealed: bool = False) -> None:
    tab.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{number}'", timeout=60_000,
                          polling=POLL_MS)
    tab.wait_for_function(f"() => [...document.querySelectorAll('h3')].some(h => h.innerText.includes('{number}'))",
                          timeout=60_000, polling=POLL_MS)
    wait_drawn(tab, heatmaps(number, revealed))
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()


def overflow(tab) -> int:
    """Pixels the page is wider than the screen (sideways scrolling)."""
    return tab.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def body_font_px(tab) -> float:
    return tab.evaluate("""() => {
      const p = [...document.querySelectorAll('[data-testid=stMain] [data-testid=stMarkdownContainer] p')]
        .find(e => e.innerText.trim().length > 40);
      return p ? parseFloat(getComputedStyle(p).fontSize) : 0; }""")


def reveal_right_answer(tab, number: int) -> None:
    question = lesson.build_step(STEPS[number - 1], data(), "ko").question
    group = tab.locator(f".st-key-lesson_question_{question.id}")
    for index in sorted(question.answer):
        label = re.compile("^" + re.escape(question.options[index]) + "$")
        group.locator("button").filter(has_text=label).click()
        tab.wait_for_timeout(300)  # the click reruns the script
    tab.locator(f".st-key-lesson_reveal_{question.id} button").click()
    wait_drawn(tab, heatmaps(number, True))
    assert tab.locator("[data-testid=stAlertContentSuccess]").count() == 1


def test_projector_mode_walks_with_the_arrow_keys_at_1920x1080(server, browser):
    context, tab = new_tab(browser, 1920, 1080)
    try:
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=1, present=1))
        wait_step(tab, 1)
        # Hidden by the page's projector <style>. One clean-clone run of 6 (2026-11-25, busy machine) saw the
        # sidebar visible right after the step was drawn, never reproduced in 6 runs under load: a rerun may
        # remount the style element for a moment. Wait for the hidden state (a sidebar that stays visible fails).
        sync_api.expect(tab.locator("[data-testid=stSidebar]")).to_be_hidden(timeout=15_000)
        sync_api.expect(tab.locator("[data-testid=stHeader]")).to_be_hidden(timeout=15_000)  # the top navigation
        assert body_font_px(tab) >= 24
        assert tab.locator("[data-testid=stImage] img").count() >= 1  # the QR code
        tab.wait_for_function("() => window.__lessonKeys === true", timeout=30_000, polling=POLL_MS)
        visited = [1]
        while visited[-1] < len(STEPS):
            tab.keyboard.press("ArrowRight")
            wait_step(tab, visited[-1] + 1)
            visited.append(visited[-1] + 1)
            assert overflow(tab) <= 1, f"step {visited[-1]} scrolls sideways"
            assert tab.locator("[data-testid=stPlotlyChart]").count() <= 1  # one figure per screen
            assert body_font_px(tab) >= 24, visited[-1]
        tab.keyboard.press("ArrowLeft")
        wait_step(tab, len(STEPS) - 1)

        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=CROSS_STEP, present=1))
        wait_step(tab, CROSS_STEP)
        reveal_right_answer(tab, CROSS_STEP)
        ticks = tab.evaluate("() => Math.min(...[...document.querySelectorAll('.js-plotly-plot .xtick text')]"
                             ".map(e => parseFloat(getComputedStyle(e).fontSize)))")
        assert ticks >= 20  # tick labels readable from the back of the room
        chart_box = tab.locator("[data-testid=stPlotlyChart]").bounding_box()
        assert chart_box["y"] + chart_box["height"] <= 1080  # the whole figure on the first screen
        time.sleep(0.5)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SCREENSHOTS / "lesson_projector.png"))
    finally:
        context.close()


def test_every_step_fits_a_390px_phone_and_a_step_opens_by_url(server, browser):
    """Every step on a phone, walked with its Next button as a student does (one page load, then a run of the
    step alone per step: issue 49 cut the 23 URL loads, 49 s in the two-worker suite); steps by URL below."""
    context, tab = new_tab(browser, 390, 844)
    try:
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=STEPS[0].number))
        for index, step in enumerate(STEPS):
            if index:
                tab.locator(".st-key-lesson_next button").first.click()
                shows_step(tab, step.number, timeout=60_000)  # its own heading, not the old one
            wait_step(tab, step.number)
            tab.wait_for_function(CHARTS_RENDERED, timeout=60_000, polling=POLL_MS)  # nothing stale is measured
            assert overflow(tab) <= 1, f"step {step.number} scrolls sideways on a phone"
            for chart in tab.locator("[data-testid=stPlotlyChart]").all():
                box = chart.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= 391, step.number
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=CROSS_STEP))
        wait_step(tab, CROSS_STEP)
        reveal_right_answer(tab, CROSS_STEP)
        next_button = tab.locator(".st-key-lesson_next button")
        assert next_button.bounding_box()["width"] >= 44  # a thumb-sized target
        # Streamlit scrolls inside its main block, so the page is shown at full length for the README.
        tab.set_viewport_size({"width": 390, "height": 2000})
        time.sleep(1.0)  # plotly relayouts to the new size
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SCREENSHOTS / "lesson_phone.png"))
        tab.set_viewport_size({"width": 390, "height": 844})
        tab.locator(".st-key-lesson_next button").click()
        wait_step(tab, CROSS_STEP + 1)

        # projector mode on a narrow screen: nothing wider than the screen, text still readable, keys work
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=8, present=1))
        wait_step(tab, 8)
        assert overflow(tab) <= 1 and body_font_px(tab) >= 16
        tab.wait_for_function("() => window.__lessonKeys === true", timeout=30_000, polling=POLL_MS)
        tab.keyboard.press("ArrowRight")
        wait_step(tab, 9)
    finally:
        context.close()
