"""The first student on a freshly started server keeps the sidebar when they change page (Streamlit 1.67).

Seen 2026-12-02 and again 2026-12-07: on a server that had served no session yet, a session opened at the overview
page ("/", the default page, with ?text= and ?model=) lost both on its first switch through the top navigation
bar: /tokens opened with no query at all, the sidebar back at the default sentence and model. A second session on
the same server kept them; a first session opened at /encoder kept them too. The sidebar's widgets are bound to the
URL (bind="query-params"), and with no ?text= a bound widget shows its default. app.py carries the sidebar across
a page switch that dropped it (explorer.state.carry_sidebar). The bug needs a server no session has used, so this
test starts its own, not conftest's shared one."""

from __future__ import annotations

import pytest

import transformer_core as core
from tests.browser_helpers import (
    POLL_MS,
    SIDEBAR_TEXT_BOX,
    click_nav_link,
    launch,
    page_url,
    require_chromium,
    sidebar_text,
    streamlit_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

TEXT = "<b>x</b> 고양이"  # not the default, and characters the URL must escape
MODEL = "reverse"  # not the default model


def query(url: str) -> dict[str, str]:
    from urllib.parse import parse_qsl, urlsplit

    return dict(parse_qsl(urlsplit(url).query))


def test_the_first_session_on_a_fresh_server_keeps_its_sentence_and_model_across_pages():
    if MODEL not in {info.name for info in core.list_models() if info.available}:
        pytest.skip(f"{MODEL} is not available")
    with streamlit_server(timeout=90) as server, sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            tab = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="ko-KR").new_page()
            tab.goto(page_url(server, "", text=TEXT, model=MODEL, lang="English"), timeout=60_000)
            assert sidebar_text(tab) == TEXT
            model_box = tab.locator("[data-testid=stSidebar] [data-testid=stSelectbox] input").first
            for path in ("tokens", "encoder"):
                click_nav_link(tab, path)
                tab.wait_for_url(f"**/{path}*", timeout=60_000)
                # What the student sees: the sidebar kept the sentence and the model (the bug showed the defaults).
                sync_api.expect(tab.locator(SIDEBAR_TEXT_BOX)).to_have_value(TEXT, timeout=30_000)
                sync_api.expect(model_box).to_have_value(MODEL, timeout=30_000)
            # And the URL, which a reload or a shared link reads. After the first switch the browser writes the
            # carried keys back only with the next run the page asks for (seen: Streamlit 1.67 applies the query the
            # server sends in the carrying rerun one step late); after the second switch they are there.
            tab.wait_for_function("m => new URLSearchParams(location.search).get('model') === m", arg=MODEL,
                                  timeout=30_000, polling=POLL_MS)
            assert {key: query(tab.url).get(key) for key in ("text", "model", "lang")} == \
                {"text": TEXT, "model": MODEL, "lang": "English"}, tab.url
        finally:
            browser.close()
