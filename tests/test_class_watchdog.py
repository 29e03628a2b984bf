"""The live class's poll watchdog (explorer/class_view.WATCHDOG_JS) in headless Chromium, on a page of its own:
while the poll's beat changes it never presses the resync button; when the beat stops for STALLED_POLL_S it
presses it once per stall, and not at all where the page has no beat (a phone that does not follow)."""

from __future__ import annotations

import pytest

from explorer.class_view import STALLED_POLL_S, WATCHDOG_JS
from tests.browser_helpers import require_chromium

pytestmark = [pytest.mark.browser]

require_chromium()
pytest.importorskip("playwright.sync_api")

PAGE = """<html><body>
<span class="class-poll-beat" data-beat="0" hidden></span>
<div class="st-key-class_resync"><button onclick="window.pressed = (window.pressed || 0) + 1">resync</button></div>
</body></html>"""


def install(page) -> None:
    page.set_content(PAGE)
    # as st.html(unsafe_allow_javascript=True) runs it: the script's text evaluated in the page
    script = WATCHDOG_JS.split("<script>", 1)[1].rsplit("</script>", 1)[0]
    page.evaluate(script)
    page.evaluate(script)  # a second page run writes it again: still one watchdog


def test_the_watchdog_presses_resync_once_per_stalled_poll_and_never_while_it_beats(browser):
    page = browser.new_page()
    try:
        install(page)
        # the poll beats every second for longer than the stall limit: no press
        for beat in range(1, int(STALLED_POLL_S) + 3):
            page.evaluate(f"document.querySelector('.class-poll-beat').setAttribute('data-beat', '{beat}')")
            page.wait_for_timeout(1000)
        assert page.evaluate("window.pressed || 0") == 0
        # the beat stops: one press after STALLED_POLL_S, counted, and not a second one at once
        page.wait_for_timeout(STALLED_POLL_S * 1000 + 1500)
        assert page.evaluate("[window.pressed, window.__classResyncs]") == [1, 1]
    finally:
        page.close()


def test_the_watchdog_does_nothing_without_a_beat(browser):
    page = browser.new_page()
    try:
        install(page)
        page.evaluate("document.querySelector('.class-poll-beat').remove()")  # not following: no poll, no beat
        page.wait_for_timeout(STALLED_POLL_S * 1000 + 1500)
        assert page.evaluate("window.pressed || 0") == 0
    finally:
        page.close()
