"""/experiments in headless Chromium: a student ticks the head the importance table ranks first, presses Run,
and sees the translation change (highlighted), with the experiment in the URL.

Screenshot: docs/screenshots/experiments.png."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

import transformer_core as core
from tests.browser_helpers import EXCEPTION, POLL_MS, launch, page_url, require_chromium
from transformer_core.analysis.experiments import Intervention, run_experiment
from transformer_core.analysis.importance import load_importance
from transformer_core.tracing.names import Head

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
DEFAULT = "고양이가 공원에서 생선을 먹었다."
MODELS = {info.name for info in core.list_models() if info.available}
IMPORTANCE = load_importance(ROOT / "models" / "ko-en-toy") if "ko-en-toy" in MODELS else None


def sentence_where_it_matters(head: Head) -> tuple[str, str, str]:
    """(sentence, original output, output with `head` off): the default sentence if switching the head off
    changes its translation, else the first held-out sentence of the evaluation sample where it does."""
    from explorer.services import MAX_NEW_TOKENS
    from transformer_core.tasks import KO_EN

    loaded = core.load("ko-en-toy")
    spec = Intervention(off=(head,))
    candidates = [DEFAULT] + [loaded.tokenizer.decode(e.source_ids, skip_special_tokens=True)
                              for e in KO_EN.held_out(loaded.tokenizer, 200, 0)]
    for text in candidates:
        original = core.trace_text(loaded, text, max_new_tokens=MAX_NEW_TOKENS)
        patched = run_experiment(loaded, text, spec, original, max_new_tokens=MAX_NEW_TOKENS).patched
        if patched.output_text != original.output_text:
            return text, original.output_text, patched.output_text
    raise AssertionError(f"switching off {head} changes no sentence of the sample")


def wait_idle(tab, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    time.sleep(0.5)
    while time.monotonic() < deadline:
        state = tab.evaluate("() => document.querySelector('[data-test-script-state]')"
                             "?.getAttribute('data-test-script-state')")
        if state == "notRunning":
            time.sleep(0.5)
            state = tab.evaluate("() => document.querySelector('[data-test-script-state]')"
                                 "?.getAttribute('data-test-script-state')")
            if state == "notRunning":
                return
        time.sleep(0.2)
    raise TimeoutError("the script did not finish")


@pytest.mark.skipif(IMPORTANCE is None, reason="models/ko-en-toy/head_importance.json is not computed")
def test_switching_off_the_top_ranked_head_changes_the_translation_on_the_page(app_server):
    top = Head.parse(IMPORTANCE["ranking"][0])
    text, before, after = sentence_where_it_matters(top)
    base = app_server  # one server per test process (conftest.app_server)
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            tab = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
            tab.goto(page_url(base, "experiments", model="ko-en-toy", text=text, lang="English"))
            tab.wait_for_selector("[data-test-script-state]", timeout=60_000)
            tab.wait_for_selector("[data-testid=stDataFrame]", timeout=90_000)  # the importance table
            wait_idle(tab)
            assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
            assert before in tab.locator("[data-testid=stText]").all_inner_texts()
            # the importance table ranks this head first (the table is a canvas grid: check the data the page used)
            checkbox = tab.locator(f".st-key-xp_off_{top.kind.short}_{top.layer}_{top.head} label")
            checkbox.click()
            tab.get_by_role("button", name="Run").click()
            tab.wait_for_function(f"() => [...document.querySelectorAll('[data-testid=stText]')]"
                                  f".some(e => e.innerText === {after!r})", timeout=90_000, polling=POLL_MS)
            wait_idle(tab)
            assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
            shown = tab.locator("[data-testid=stText]").all_inner_texts()
            assert shown[:2] == [before, after] and before != after
            highlighted = tab.locator("[data-testid=stMarkdownContainer] span[style*='background']")
            assert highlighted.count() > 0  # changed tokens are highlighted
            query = parse_qs(urlparse(tab.url).query)
            assert query["off"] == [str(top)]  # the experiment lives in the URL
            tab.wait_for_selector(".js-plotly-plot", timeout=60_000)
            time.sleep(1.0)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            tab.set_viewport_size({"width": 1400, "height": 2600})
            time.sleep(1.0)
            tab.screenshot(path=str(SCREENSHOTS / "experiments.png"))
        finally:
            browser.close()
