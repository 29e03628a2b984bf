"""The training lab in headless Chromium: start a tiny run, watch it to the end, move the step slider,
and take the screenshots (build/screenshots/, ignored; the README's docs/screenshots change on purpose only)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.browser_helpers import EXCEPTION, launch, page_url, require_chromium, streamlit_server, wait_drawn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
SCREENSHOT = SHOTS / "train.png"


def test_a_tiny_run_trains_in_the_browser_and_replays_with_the_step_slider(tmp_path):
    env = {"TRANSFORMER_EXPLORER_LAB_MODELS": str(tmp_path / "lab_models")}
    with streamlit_server(env=env) as base, sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
        try:
            run_lab(tab, base)
        finally:
            tab.screenshot(path=str(tmp_path / "last.png"))
            print("last screenshot:", tmp_path / "last.png")
            browser.close()


def run_lab(tab, base: str) -> None:
    """Start, watch to the end, move the step slider, take the README screenshot."""
    tab.goto(page_url(base, "train", lang="English", task="copy", preset="tiny", budget=60, max_steps=400))
    tab.get_by_role("button", name="Start").click()
    # live: the progress bar and the curves appear while it trains
    tab.get_by_text("steps/s").first.wait_for(timeout=120_000)
    tab.get_by_text("Training finished").wait_for(timeout=240_000)
    assert tab.get_by_text("Saved as").count() == 1
    wait_drawn(tab, expected_heatmaps=1, timeout=60)
    assert tab.locator(EXCEPTION).count() == 0

    slider = tab.get_by_role("slider").last  # the replay's step slider (the budget slider comes first)
    last_value = slider.get_attribute("aria-valuetext")
    assert tab.get_by_text(f"Output at step {last_value}:").count() == 1
    slider.focus()
    for _ in range(2):
        tab.keyboard.press("ArrowLeft")
        time.sleep(0.3)
    shown = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        shown = tab.get_by_role("slider").last.get_attribute("aria-valuetext")
        if shown != last_value and tab.get_by_text(f"Output at step {shown}:").count() == 1:
            break
        time.sleep(0.2)
    assert shown != last_value and tab.get_by_text(f"Output at step {shown}:").count() == 1
    wait_drawn(tab, expected_heatmaps=1, timeout=60)
    assert tab.locator(EXCEPTION).count() == 0

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    tab.set_viewport_size({"width": 1400, "height": 2300})
    time.sleep(1.0)  # plotly relayouts to the new size
    tab.screenshot(path=str(SCREENSHOT), full_page=False)


CLASSIFIER_SHOTS = {1400: SHOTS / "train_speech_level.png", 390: SHOTS / "train_speech_level-390.png"}


def test_the_speech_level_classifier_trains_and_shows_its_cls_row_per_layer_on_a_desktop_and_a_phone(tmp_path):
    """Korean UI: the run ends, the [CLS] map and the head map are drawn (2 heatmaps), nothing overflows a phone."""
    env = {"TRANSFORMER_EXPLORER_LAB_MODELS": str(tmp_path / "lab_models")}
    with streamlit_server(env=env) as base, sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="ko-KR").new_page()
        try:
            tab.goto(page_url(base, "train", lang="한국어", task="speech-level", preset="class", budget=60,
                              max_steps=300, text="고양이가 공원에서 생선을 먹었어요."))
            tab.get_by_role("button", name="학습 시작").click()
            tab.get_by_text("학습을 마쳤습니다").wait_for(timeout=240_000)
            wait_drawn(tab, expected_heatmaps=2, timeout=60)  # the [CLS] rows + one head's map
            assert tab.locator(EXCEPTION).count() == 0
            assert tab.get_by_text("300스텝의 출력:").count() == 1
            SHOTS.mkdir(parents=True, exist_ok=True)
            for width, path in CLASSIFIER_SHOTS.items():
                tab.set_viewport_size({"width": width, "height": 2600 if width > 400 else 4200})
                time.sleep(1.0)  # plotly relayouts to the new size
                wait_drawn(tab, expected_heatmaps=2, timeout=60)
                overflow = tab.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 1, f"{width} px: the page is {overflow} px wider than the screen"
                tab.screenshot(path=str(path), full_page=False)
        finally:
            browser.close()
