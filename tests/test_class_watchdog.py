"""The live class's poll watchdog (explorer/class_view.WATCHDOG_JS) in headless Chromium, on a page of its own:
while the poll's beat changes it never presses the resync button; when the beat stops it presses once, then waits
twice as long before the next press; never while a page run is under way; and not at all where the page has no
beat (a phone that does not follow). The test runs the script with a 1 s limit instead of STALLED_POLL_S."""

from __future__ import annotations

import pytest

from explorer.class_view import STALLED_POLL_S, WATCHDOG_JS
from tests.browser_helpers import POLL_MS, require_chromium

pytestmark = [pytest.mark.browser]

require_chromium()
from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

needed("playwright.sync_api")

LIMIT_MS = 1000
PAGE = """<html><body>
<div id="main"><span class="class-poll-beat" data-beat="0" hidden></span></div>
<div class="st-key-class_resync">
  <button onclick="(window.presses = window.presses || []).push(Date.now())">resync</button></div>
</body></html>"""


def install(page) -> None:
    page.set_content(PAGE)
    # as st.html(unsafe_allow_javascript=True) runs it: the script's text evaluated in the page
    script = WATCHDOG_JS.split("<script>", 1)[1].rsplit("</script>", 1)[0]
    assert str(int(STALLED_POLL_S * 1000)) in script
    script = script.replace(str(int(STALLED_POLL_S * 1000)), str(LIMIT_MS))
    page.evaluate(script)
    page.evaluate(script)  # a second page run writes it again: still one watchdog


def beat(page, value: int) -> None:
    page.evaluate(f"document.querySelector('.class-poll-beat').setAttribute('data-beat', '{value}')")


def presses(page) -> list[int]:
    """The page's clock (ms) at each press of the resync button."""
    return page.evaluate("window.presses || []")


def wait_for_presses(page, n: int, timeout_ms: float = 20_000) -> list[int]:
    page.wait_for_function(f"() => (window.presses || []).length >= {n}", timeout=timeout_ms, polling=POLL_MS)
    return presses(page)


@pytest.fixture
def page(browser):
    page = browser.new_page()
    install(page)
    yield page
    page.close()


def test_no_press_while_the_poll_beats(page):
    # the page's own timer beats every 200 ms (no cross-process timing) for 4 limits
    page.evaluate("""() => { let n = 0; window.__beater = setInterval(() =>
        document.querySelector('.class-poll-beat').setAttribute('data-beat', String(++n)), 200); }""")
    page.wait_for_timeout(4 * LIMIT_MS)
    assert presses(page) == []
    page.evaluate("clearInterval(window.__beater)")  # the poll stops: now the watchdog presses
    wait_for_presses(page, 1)


def test_a_stalled_poll_gets_one_press_then_twice_the_wait(page):
    started = page.evaluate("Date.now()")
    first, second, third = wait_for_presses(page, 3)
    assert first - started >= LIMIT_MS
    assert page.evaluate("window.__classResyncs") >= 3
    # each press without a beat after it doubles the wait (0.5 s checks: a little late, never early)
    assert second - first >= 2 * LIMIT_MS and third - second >= 4 * LIMIT_MS
    beat(page, 1)  # the poll runs again: the wait is back to the limit
    beaten = page.evaluate("Date.now()")
    fourth = wait_for_presses(page, 4)[3]
    assert LIMIT_MS <= fourth - beaten < 4 * LIMIT_MS


def test_no_press_while_a_page_run_is_under_way(page):
    page.evaluate("document.getElementById('main').setAttribute('data-stale', 'true')")  # Streamlit's mark
    page.wait_for_timeout(3 * LIMIT_MS)
    assert presses(page) == []
    page.evaluate("document.getElementById('main').removeAttribute('data-stale')")
    wait_for_presses(page, 1)


def test_no_press_without_a_beat(page):
    page.evaluate("document.querySelector('.class-poll-beat').remove()")  # not following: no poll, no beat
    page.wait_for_timeout(3 * LIMIT_MS)
    assert presses(page) == []
