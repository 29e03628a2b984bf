"""/corpus in headless Chromium at 1400 px and 390 px: the page computes 50 held-out sentences with its progress
bar, draws the behaviour heatmap, the similarity map, the query/key map and the example maps, keeps the head in the
URL, and fits a phone's width. Screenshots: docs/screenshots/corpus.png (1400 px), corpus-390.png (390 px)."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

import transformer_core as core
from tests.browser_helpers import EXCEPTION, launch, page_url, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
MODELS = {info.name for info in core.list_models() if info.available}


def wait_charts(tab, at_least: int, timeout: float = 180.0) -> None:
    """Idle script and at least `at_least` drawn plotly plots, stable for a second."""
    deadline = time.monotonic() + timeout
    stable = None
    while time.monotonic() < deadline:
        state = tab.evaluate("() => document.querySelector('[data-test-script-state]')"
                             "?.getAttribute('data-test-script-state')")
        plots = tab.evaluate("() => document.querySelectorAll('.js-plotly-plot .main-svg').length")
        if state == "notRunning" and plots >= at_least:
            stable = stable or time.monotonic()
            if time.monotonic() - stable > 1.0:
                return
        else:
            stable = None
        time.sleep(0.2)
    raise TimeoutError(f"the page did not draw {at_least} charts")


@pytest.mark.skipif("ko-en-toy" not in MODELS, reason="models/ko-en-toy is not bundled")
def test_the_corpus_page_draws_its_maps_keeps_the_head_in_the_url_and_fits_a_phone(app_server):
    base = app_server  # one server per test process (conftest.app_server)
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for width, name, lang in ((1400, "corpus.png", "English"), (390, "corpus-390.png", "한국어")):
                tab = browser.new_context(viewport={"width": width, "height": 1000}).new_page()
                tab.goto(page_url(base, "corpus", model="ko-en-toy", lang=lang, sentences=50, chead="cross.1.0"))
                tab.wait_for_selector("[data-test-script-state]", timeout=60_000)
                wait_charts(tab, 4)  # behaviours, similarity, query/key map, the first example map
                assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
                heatmaps = tab.evaluate("() => document.querySelectorAll('.js-plotly-plot g.hm image').length")
                assert heatmaps >= 3  # behaviours, similarity and at least one sentence map
                assert parse_qs(urlparse(tab.url).query)["chead"] == ["cross.1.0"]
                overflow = tab.evaluate("() => document.documentElement.scrollWidth")
                assert overflow <= width + 1, f"{overflow} px wide at {width} px"
                tab.set_viewport_size({"width": width, "height": 3000 if width > 500 else 4200})
                time.sleep(1.5)
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(SCREENSHOTS / name))
                tab.context.close()
        finally:
            browser.close()
