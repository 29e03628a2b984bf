"""/glossary in headless Chromium, Korean UI (issue 30, item 6): the formulas render with KaTeX, and a link
opens its page in the SAME tab with the language and the sentence kept."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser_helpers import EXCEPTION, page_url, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

SENTENCE = "나는 어제 학교에 갔다."  # not the default sentence, so keeping it is visible


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)


def wait_idle(tab, timeout: float = 90.0) -> None:
    """Wait until the script has run and is idle (not running) for a moment."""
    deadline = time.monotonic() + timeout
    idle_since = None
    while time.monotonic() < deadline:
        state = tab.evaluate("() => document.querySelector('[data-test-script-state]')"
                             "?.getAttribute('data-test-script-state')")
        if state == "notRunning":
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since > 1.0:
                return
        else:
            idle_since = None
        time.sleep(0.2)
    raise AssertionError(f"script still running after {timeout} s")


def test_a_glossary_link_opens_its_page_in_the_same_tab_keeping_language_and_sentence(server, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="ko-KR")
    tab = context.new_page()
    try:
        tab.goto(page_url(server, "glossary", text=SENTENCE, lang="한국어"))
        wait_idle(tab)
        assert tab.locator(EXCEPTION).count() == 0
        assert "용어" in tab.locator("h1").first.inner_text()
        glossary = tab.locator("[data-testid=stMarkdownContainer]").filter(has_text="멀티헤드 어텐션").last
        assert glossary.locator(".katex").count() == 7  # xW^Q, xW^K, xW^V; W_i^Q, W_i^K, W_i^V; W^O
        assert "$" not in glossary.inner_text()  # every $...$ became KaTeX

        link = glossary.locator("a[href^='/encoder']").first
        assert link.get_attribute("target") == "_self"
        href = parse_qs(urlparse(link.get_attribute("href")).query)
        assert href["text"] == [SENTENCE] and href["lang"] == ["한국어"], href
        link.click()
        tab.wait_for_url("**/encoder?**", timeout=60_000)
        wait_idle(tab)
        assert len(context.pages) == 1  # no new tab
        query = parse_qs(urlparse(tab.url).query)
        # the app leaves a widget at its default out of the URL: 한국어 (the default) may be dropped there
        assert query["text"] == [SENTENCE] and query.get("lang", ["한국어"]) == ["한국어"], tab.url
        assert tab.locator(EXCEPTION).count() == 0
        # the sidebar kept the sentence (its box is drawn after the page: a retrying check)
        sync_api.expect(tab.locator("input[aria-label='문장']")).to_have_value(SENTENCE, timeout=30_000)
        assert "인코더" in tab.locator("h1").first.inner_text()  # still Korean

        # English is not the default, so the URL must keep it after the click
        tab.goto(page_url(server, "glossary", text=SENTENCE, lang="English"))
        wait_idle(tab)
        tab.locator("[data-testid=stMarkdownContainer] a[href^='/heads']").first.click()
        tab.wait_for_url("**/heads?**", timeout=60_000)
        wait_idle(tab)
        assert len(context.pages) == 1
        query = parse_qs(urlparse(tab.url).query)
        assert query["text"] == [SENTENCE] and query["lang"] == ["English"], tab.url
        sync_api.expect(tab.locator("input[aria-label='Sentence']")).to_have_value(SENTENCE, timeout=30_000)
    finally:
        context.close()
