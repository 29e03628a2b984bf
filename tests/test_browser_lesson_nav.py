"""Moving between lesson steps in headless Chromium: on a 390x844 phone, Next opens the new step at its title
(Korean and English; Streamlit's main block kept the old scroll position, ~550 px below the title); on the
1920x1080 projector, the arrow key never shows the new step's title over the old step's figure (a frame log
taken on every animation frame)."""

from __future__ import annotations

import pytest

import transformer_core as core
from tests.browser_helpers import EXCEPTION, POLL_MS, page_url, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
HEADING = {"ko": "{n}단계", "en": "Step {n} of"}

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)

# On every animation frame: the step headings on screen, and whether a chart left over from the previous run
# (data-stale) is still visible. A frame that shows a new heading next to a stale chart is the flash.
FRAME_LOG = """(() => {
  window.__frames = []; let last = '';
  const tick = () => {
    const shown = el => !el.closest('[data-retained=true]');
    const heads = [...document.querySelectorAll('[data-testid=stMain] h3')].filter(shown)
      .map(h => (/^(\\d+)/.exec(h.innerText.trim()) || [])[1]).filter(Boolean).join(',');
    const stale = [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(shown)
      .some(p => p.closest('[data-stale=true]') && p.getBoundingClientRect().height > 0);
    const key = heads + '|' + stale;
    if (key !== last) { window.__frames.push([heads, stale]); last = key; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)


def heading_top(tab, text: str) -> float | None:
    return tab.evaluate("""(text) => { const h = [...document.querySelectorAll('[data-testid=stMain] h3')]
        .find(e => e.innerText.trim().startsWith(text)); return h ? h.getBoundingClientRect().top : null; }""", text)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_next_on_a_phone_opens_the_new_step_at_its_title(server, browser, lang):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ko-KR", device_scale_factor=1)
    tab = context.new_page()
    language = {"ko": "한국어", "en": "English"}[lang]
    try:
        for number in (4, 9):  # a step with its figure shown, and one whose question hides the figure
            tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=number, lang=language), timeout=90_000)
            next_button = tab.locator(".st-key-lesson_next button").first
            next_button.wait_for(timeout=90_000)
            tab.wait_for_selector("[data-test-script-state=notRunning]", timeout=90_000)
            next_button.scroll_into_view_if_needed()  # a student reads down to the button
            assert heading_top(tab, HEADING[lang].format(n=number)) < 0  # the title is above the screen now
            next_button.click()
            tab.wait_for_function(f"() => window.__lessonScrolledTo === {number + 1}", timeout=90_000, polling=POLL_MS)
            top = heading_top(tab, HEADING[lang].format(n=number + 1))
            assert top is not None and 0 <= top <= 200, (number, top)  # the new title at the top of the screen
            assert tab.locator(EXCEPTION).count() == 0
    finally:
        context.close()


def test_the_projector_never_shows_the_new_title_over_the_old_figure(server, browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ko-KR", device_scale_factor=1)
    tab = context.new_page()
    tab.add_init_script(FRAME_LOG)
    try:
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=3, present=1), timeout=90_000)
        tab.wait_for_function("() => window.__lessonKeys === true", timeout=90_000, polling=POLL_MS)
        for number in range(4, 10):  # figure -> figure, figure -> hidden (question), hidden -> figure
            tab.evaluate("() => { window.__frames = []; }")
            tab.keyboard.press("ArrowRight")
            tab.wait_for_function(f"""() => new URLSearchParams(location.search).get('step') === '{number}'
                && document.querySelector('[data-test-script-state]').getAttribute('data-test-script-state')
                   === 'notRunning'""", timeout=90_000, polling=POLL_MS)
            tab.wait_for_timeout(300)
            frames = tab.evaluate("() => window.__frames")
            flashes = [f for f in frames if f[0] == str(number) and f[1]]
            assert not flashes, (number, frames)  # the new title never stood beside the old (stale) figure
            assert any(f[0] == str(number) for f in frames), frames
    finally:
        context.close()


def test_the_arrow_keys_move_the_projector_only_and_a_press_on_a_disabled_button_waits(server, browser):
    """Each → on the projector is one step, also when Next is disabled at the moment of the press; after
    projector mode is switched off, → moves nothing. (Two presses 50 ms apart moved one step in a full-suite
    run: Streamlit merges a second click of the same button into the rerun the first one asked for.)"""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ko-KR", device_scale_factor=1)
    tab = context.new_page()
    step_is = """(n) => new URLSearchParams(location.search).get('step') === String(n)
        && document.querySelector('[data-test-script-state]').getAttribute('data-test-script-state') === 'notRunning'"""
    try:
        tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, step=3, present=1), timeout=90_000)
        tab.wait_for_function("() => window.__lessonKeys === true", timeout=90_000, polling=POLL_MS)
        tab.wait_for_function(step_is, arg=3, timeout=90_000, polling=POLL_MS)
        tab.keyboard.press("ArrowRight")
        tab.wait_for_function(step_is, arg=4, timeout=90_000, polling=POLL_MS)
        tab.keyboard.press("ArrowRight")
        tab.wait_for_function(step_is, arg=5, timeout=90_000, polling=POLL_MS)
        # Streamlit disables every widget while its connection is being re-established (a busy server): a press
        # then is pressed once the button is enabled again, not lost
        tab.evaluate("() => document.querySelectorAll('.st-key-lesson_next button').forEach(b => b.disabled = true)")
        tab.keyboard.press("ArrowRight")
        tab.wait_for_timeout(1_000)
        tab.evaluate("() => document.querySelectorAll('.st-key-lesson_next button').forEach(b => b.disabled = false)")
        tab.wait_for_function(step_is, arg=6, timeout=90_000, polling=POLL_MS)
        tab.keyboard.press("ArrowLeft")
        tab.wait_for_function(step_is, arg=5, timeout=90_000, polling=POLL_MS)

        tab.locator(".st-key-lesson_present_toggle label").first.click()  # projector mode off
        tab.wait_for_function("() => !new URLSearchParams(location.search).has('present')", timeout=90_000,
                              polling=POLL_MS)
        tab.wait_for_selector("[data-test-script-state=notRunning]", timeout=90_000)
        assert tab.locator(".lesson-keys").count() == 0
        tab.keyboard.press("ArrowRight")
        tab.wait_for_timeout(2_000)
        tab.wait_for_selector("[data-test-script-state=notRunning]", timeout=90_000)
        assert tab.evaluate("new URLSearchParams(location.search).get('step')") == "5"
        assert tab.locator(EXCEPTION).count() == 0
    finally:
        context.close()
