"""The app in headless Chromium (Playwright, Debian's /usr/bin/chromium): every page by URL for every bundled
model, drawn completely (script idle + every heatmap image), no exception box; layer/head clicks and page
switches keep the state in the URL; screenshots for the README in docs/screenshots/."""

from __future__ import annotations

import csv as csv_module
import time
from functools import cache
from pathlib import Path

import pytest

import transformer_core as core
from explorer.figures.figures import unique_labels
from tests.browser_helpers import (
    EXCEPTION,
    POLL_MS,
    click_nav_link,
    expected_heatmaps,
    page_url,
    require_chromium,
    sidebar_text,
    wait_drawn,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
PAGES = {"overview": "", "tokens": "tokens", "embeddings": "embeddings", "encoder": "encoder",
         "decoder": "decoder", "heads": "heads"}
SCREEN_HEIGHT = {"overview": 1500, "tokens": 1500, "embeddings": 2700, "encoder": 3700, "decoder": 2800,
                 "heads": 3100}
KOREAN = "고양이가 공원에서 생선을 먹었다."  # the app's default sentence (word order changes in English)
ENGLISH = "The cat ate the fish."
MODELS = [info.name for info in core.list_models() if info.available]
DEFAULT_MODEL = core.DEFAULT_MODEL if core.DEFAULT_MODEL in MODELS else (MODELS[0] if MODELS else None)


@cache
def shape_of(model: str) -> tuple[int, bool, bool]:
    """(heads, has a decoder, has token-type embeddings) of a model."""
    cfg = core.load(model).config
    return cfg.n_heads, cfg.has_decoder, cfg.type_vocab_size > 0


def expected(page: str, model: str) -> int:
    n_heads, has_decoder, has_type = shape_of(model)
    return expected_heatmaps(page, n_heads, has_decoder, has_type)


@pytest.fixture(scope="module")
def server(app_server):
    if not MODELS:
        pytest.skip("no bundled model is available")
    return app_server  # one server per test process (conftest.app_server)



@pytest.fixture
def page(reused_tabs):
    return reused_tabs(1400, 1000)  # the module's one tab (conftest.reused_tabs); each test opens its own URL


def open_and_wait(tab, url: str, heatmaps: int) -> float:
    start = time.perf_counter()
    tab.goto(url)
    tab.wait_for_selector("[data-test-script-state]", timeout=60_000)
    seconds = wait_drawn(tab, heatmaps, since=start)
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
    return seconds


def screenshot(tab, name: str, height: int) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.set_viewport_size({"width": 1400, "height": height})
    time.sleep(0.8)  # plotly relayouts to the new size
    path = SCREENSHOTS / f"{name}.png"
    tab.screenshot(path=str(path))
    return path


@pytest.mark.parametrize("model", MODELS)
def test_every_page_draws_completely(server, page, model):
    """Each page of each model. The default model's pages open by URL (and are photographed); another model's
    first page opens by URL and the rest through the top navigation bar, as a student moves on: a page opened
    by URL loads the whole front end again (1.4 s more of the browser's CPU per page, measured 2026-12-02); the
    URL names the model the page kept."""
    for index, (name, path) in enumerate(PAGES.items()):
        heatmaps = expected(name, model)
        if model == DEFAULT_MODEL or index == 0:
            open_and_wait(page, page_url(server, path, model=model, text=KOREAN), heatmaps)
        else:
            click_nav_link(page, path)
            page.wait_for_function("([path, model]) => location.pathname.endsWith('/' + path) && "
                                   "new URLSearchParams(location.search).get('model') === model",
                                   arg=[path, model], timeout=30_000, polling=POLL_MS)  # the page keeps the model
            wait_drawn(page, heatmaps)
            assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()
            assert sidebar_text(page) == KOREAN
        assert page.locator("h1").first.inner_text().strip(), name
        if name == "decoder" and not shape_of(model)[1]:
            # an alert says so (after the unknown-word notice, which every page shows first when there is one)
            assert "디코더가 없습니다" in "\n".join(page.locator("[data-testid=stAlert]").all_inner_texts())
        if model == DEFAULT_MODEL:
            wait_drawn(page, heatmaps)
            screenshot(page, name, SCREEN_HEIGHT[name])


def test_english_ui_and_encoder_only_decoder_screenshots(server, page):
    open_and_wait(page, page_url(server, "encoder", model=DEFAULT_MODEL, text=ENGLISH, lang="English"),
                  expected("encoder", DEFAULT_MODEL))
    assert "The encoder" in page.locator("h1").first.inner_text()
    screenshot(page, "encoder_en", SCREEN_HEIGHT["encoder"])
    encoders = [m for m in MODELS if not shape_of(m)[1]]
    if encoders:
        open_and_wait(page, page_url(server, "decoder", model=encoders[0], text=ENGLISH, lang="English"), 0)
        assert "no decoder" in "\n".join(page.locator("[data-testid=stAlert]").all_inner_texts())
        screenshot(page, "decoder_encoder_only", 900)


def test_head_click_and_page_switch_keep_the_state_in_the_url(server, page):
    model = DEFAULT_MODEL
    _, has_decoder, _ = shape_of(model)
    open_and_wait(page, page_url(server, "encoder", model=model, text=ENGLISH), expected("encoder", model))
    head_picker = page.locator(".st-key-enc_head_picker")
    head_picker.get_by_role("radio", name="H1", exact=True).click()
    page.wait_for_function("() => location.search.includes('head=1')", timeout=30_000, polling=POLL_MS)
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .gtitle')]"
                           ".some(t => /(헤드|head) 1:/.test(t.textContent))", timeout=30_000, polling=POLL_MS)
    wait_drawn(page, expected("encoder", model))
    assert page.locator(EXCEPTION).count() == 0
    # the shown head's matrix downloads as CSV (files are built on click)
    with page.expect_download(timeout=30_000) as download_info:
        page.locator(".st-key-enc_download_csv button").click()
    rows = list(csv_module.reader(Path(download_info.value.path()).read_text(encoding="utf-8").splitlines()))
    assert download_info.value.suggested_filename == "encoder_L0_H1_weights.csv"
    labels = unique_labels(core.trace_text(core.load(model), ENGLISH).src_tokens, escape=False)
    assert rows[0] == ["", *labels] and [r[0] for r in rows[1:]] == labels
    assert all(abs(sum(float(v) for v in r[1:]) - 1.0) < 1e-4 for r in rows[1:])  # softmax rows
    # a layer switch reruns the outer fragment; a head switch after it must use the new layer
    last_layer = core.load(model).config.n_encoder_layers - 1
    page.locator(".st-key-enc_layer_picker").get_by_role("radio", name=f"L{last_layer}", exact=True).click()
    page.wait_for_function(f"() => location.search.includes('layer={last_layer}')", timeout=30_000, polling=POLL_MS)
    page.locator(".st-key-enc_head_picker").get_by_role("radio", name="H2", exact=True).click()
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .gtitle')]"
                           f".some(t => t.textContent.startsWith('층 {last_layer} · 헤드 2'))", timeout=30_000,
                           polling=POLL_MS)
    wait_drawn(page, expected("encoder", model))
    page.locator(".st-key-enc_head_picker").get_by_role("radio", name="H1", exact=True).click()
    page.wait_for_function("() => location.search.includes('head=1')", timeout=30_000, polling=POLL_MS)
    wait_drawn(page, expected("encoder", model))
    # switch page with the navigation bar, like a student would
    target = "decoder" if has_decoder else "heads"
    click_nav_link(page, target)
    page.wait_for_function(f"() => location.pathname.endsWith('/{target}')", timeout=30_000, polling=POLL_MS)
    wait_drawn(page, expected(target, model))
    query = page.evaluate("() => location.search")
    assert "head=1" in query and "text=" in query
    assert model == core.DEFAULT_MODEL or f"model={model}" in query  # a default value is left out of the URL
    if has_decoder:
        selected = page.locator(".st-key-dec_head_picker [role=radio][aria-checked=true]")
        assert selected.inner_text().strip() == "H1"
    assert page.locator(EXCEPTION).count() == 0
