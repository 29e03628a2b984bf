"""Issue 48 in headless Chromium: /decoder's sampling mode (temperature 1, the mode's default; seed 0) writes the
bundled translator's own draw, and for the sidebar's examples that draw is sensible English: it carries the
sentence's content words (the sampled-softmax model wrote "grooms programmers is a microphones 서두릅 Embarrassed."
for 아버지는 의사입니다.). Screenshots at laptop and phone width in build/screenshots."""

from __future__ import annotations

import time

import pytest

import transformer_core as core
from tests.browser_helpers import EXCEPTION, page_url, require_chromium
from transformer_core.analysis.calibration import sample_texts

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS
# sidebar examples (models/ko-en-toy/examples.json) and the words a translation must carry
EXAMPLES = {"아버지는 의사입니다.": ("father", "doctor"), "저는 학생이에요.": ("student",),
            "고양이가 공원에서 생선을 먹었다.": ("cat", "fish", "park"), "오늘 날씨 어때?": ("weather", "today")}


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)


def settled(page) -> None:
    time.sleep(0.5)
    page.wait_for_selector("[data-test-script-state=notRunning]", timeout=120_000)
    time.sleep(1.0)


def test_sampling_at_temperature_one_writes_the_models_draw_and_it_is_sensible(server, browser):
    loaded = core.load("ko-en-toy")
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for number, (text, words) in enumerate(EXAMPLES.items()):
        draw = sample_texts(loaded, text, draws=1, seed=0)[0]  # what the page's seed 0 draws
        assert all(word in draw.lower() for word in words), (text, draw)
        page.goto(page_url(server.url, "decoder", model="ko-en-toy", lang="English", strategy="sample", text=text))
        settled(page)
        sync_api.expect(page.locator("[data-testid=stMain]")).to_contain_text(draw, timeout=120_000)
        assert page.locator(EXCEPTION).count() == 0
        body = page.locator("[data-testid=stMain]").inner_text()
        assert "0.0 times" not in body and "first choice" not in body
        if number == 0:
            page.screenshot(path=str(SCREENSHOTS / "decoder_sampling.png"), full_page=False)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(page_url(server.url, "decoder", model="ko-en-toy", lang="한국어", strategy="sample",
                        text="아버지는 의사입니다."))
    settled(phone)
    draw = sample_texts(loaded, "아버지는 의사입니다.", draws=1, seed=0)[0]
    sync_api.expect(phone.locator("[data-testid=stMain]")).to_contain_text(draw, timeout=120_000)
    phone.locator("[data-testid=stCode]").first.scroll_into_view_if_needed()
    assert phone.locator(EXCEPTION).count() == 0
    phone.screenshot(path=str(SCREENSHOTS / "decoder_sampling-390.png"))
