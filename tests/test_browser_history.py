"""/history (2015 → 2017) in headless Chromium: the issue's URL draws both alignments (every heatmap
image), both formulas (KaTeX) and no exception box; screenshot docs/screenshots/history.png."""

from __future__ import annotations

import time

import pytest

import transformer_core as core
from tests.browser_helpers import EXCEPTION, page_url, require_chromium, wait_drawn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
SENTENCE = "고양이가 공원에서 생선을 먹었다."
NEEDED = ("ko-en-rnn-attention", "ko-en-toy")


@pytest.fixture(scope="module")
def server(app_server):
    if not all((core.io.loading.models_dir() / name / "config.json").is_file() for name in NEEDED):
        pytest.skip("needs models/ko-en-rnn-attention and models/ko-en-toy")
    return app_server  # one server per test process (conftest.app_server)



def test_history_page_draws_both_alignments_and_formulas_and_takes_the_screenshot(server, browser):
    n_heads = core.load("ko-en-toy").config.n_heads
    heatmaps = 2 + n_heads  # RNN alignment, Transformer head average, one panel per head
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="ko-KR")
    tab = context.new_page()
    try:
        for lang, heading in (("English", "2015 → 2017"), ("한국어", "2015 → 2017")):
            start = time.perf_counter()
            tab.goto(page_url(server, "history", text=SENTENCE, lang=lang))
            tab.wait_for_selector("[data-test-script-state]", timeout=60_000)
            wait_drawn(tab, heatmaps, since=start)
            assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
            assert heading in tab.locator("h1").first.inner_text()
            assert tab.locator(".katex").count() >= 2  # the two score functions
            assert tab.locator("[data-testid=stPlotlyChart]").count() == 4
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.set_viewport_size({"width": 1400, "height": 2900})
        time.sleep(1.0)  # plotly relayouts to the new size
        wait_drawn(tab, heatmaps)
        tab.screenshot(path=str(SCREENSHOTS / "history.png"))
    finally:
        context.close()
