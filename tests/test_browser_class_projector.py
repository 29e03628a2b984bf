"""The teacher's projector (1920x1080, present=1) with a live class started, Korean UI: the class panel (code, live
counts, End class) must leave every step within the 1080 px screen. Without a class test_browser_screens checks
every step; with the panel, steps 10, 12, 18 and 22 measured 1112-1135 px on the old two-row panel (2026-12-02).
Checked here: step 1 after Reveal (the class's answers under the question) and the tallest steps before their
question is revealed (18: the class's question still open), walked with Next as a teacher does (a new URL would
be a new session, without the class)."""

from __future__ import annotations

import pytest

import transformer_core as core
from explorer.figures import lesson
from explorer.i18n import t
from tests.browser_helpers import EXCEPTION, POLL_MS, page_url, require_chromium, settled_main_height

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
STEPS = lesson.lesson_steps()
MEASURED = (10, 12, 18, 22)  # the tallest with the class panel (the class walk, 2026-12-02)

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)


def idle(tab) -> None:
    tab.wait_for_selector("[data-test-script-state=notRunning]", timeout=90_000)
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()


def shows_step(tab, number: int) -> None:
    heading = t("lesson.step_of", "ko", n=number, total=len(STEPS))
    tab.wait_for_function("(h) => [...document.querySelectorAll('[data-testid=stMain] h3')]"
                          ".some(e => e.innerText.startsWith(h + ' ') && !e.closest('[data-stale=true]'))",
                          arg=heading, timeout=90_000, polling=POLL_MS)



def test_the_class_panel_leaves_the_tallest_steps_within_the_1080px_projector(server, browser, tmp_path):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ko-KR", device_scale_factor=1)
    tab = context.new_page()
    heights: dict[str, int] = {}
    try:
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, lang="한국어", step=1, present=1))
        shows_step(tab, 1)
        idle(tab)
        tab.locator(".st-key-class_start button").first.click()
        sync_api.expect(tab.locator(".st-key-class_teacher_panel").first).to_contain_text("수업 코드", timeout=90_000)
        idle(tab)
        tab.locator("[class*=st-key-lesson_reveal_] button").first.click()
        tab.locator(".st-key-class_distribution").first.wait_for(timeout=90_000)
        idle(tab)
        heights["1 (revealed, the class's answers)"] = settled_main_height(tab)
        for number in range(2, max(MEASURED) + 1):
            tab.locator(".st-key-lesson_next button").last.click()
            shows_step(tab, number)
            idle(tab)
            if number in MEASURED:
                sync_api.expect(tab.locator(".st-key-class_teacher_panel").first).to_be_visible()
                heights[str(number)] = settled_main_height(tab)
                if heights[str(number)] > 1080:
                    tab.screenshot(path=str(tmp_path / f"class_step{number}.png"), full_page=True)
        too_tall = {step: h for step, h in heights.items() if h > 1080}
        assert not too_tall, f"steps taller than the 1080 px projector with the class panel: {too_tall} ({heights})"
    finally:
        context.close()
