"""The class's screens in headless Chromium (issues 28 and 30): a phone's navigation in Korean, the sidebar
closing after an example pick on a phone, /decoder's panels stacked without overlap at 390 px, the beam
tree's `<s>` / `</s>`, and every lesson step within one 1920x1080 projector screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import transformer_core as core
from explorer.figures import lesson
from explorer.i18n import LANG_CHOICES, t
from tests.browser_helpers import EXCEPTION, POLL_MS, page_url, require_chromium, settled_main_height

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
STEPS = lesson.lesson_steps()
PHONE_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
               "Version/17.0 Mobile/15E148 Safari/604.1")
# Every plotly chart's panels, panel titles, colour bars and axis titles as screen boxes; the pairs that overlap.
OVERLAPS_JS = (Path(__file__).with_name("data") / "plot_overlaps.js").read_text(encoding="utf-8")

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)


def phone_tab(reused_tabs):
    """The module's phone tab (conftest.reused_tabs): 390 × 844, a phone's user agent, touch."""
    return reused_tabs(390, 844, user_agent=PHONE_AGENT, is_mobile=True, has_touch=True)


def wait_idle(tab, timeout: float = 90_000) -> None:
    tab.wait_for_selector("[data-test-script-state=notRunning]", timeout=timeout)
    assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()


def open_sidebar(tab) -> None:
    tab.locator("[data-testid=stExpandSidebarButton]").first.click()
    sync_api.expect(tab.locator("[data-testid=stSidebarNav]")).to_be_visible(timeout=15_000)


def phone_home_with_the_sidebar_open(reused_tabs, server: str):
    """The overview on the phone in the Korean UI, its sidebar opened as a student opens it."""
    tab = phone_tab(reused_tabs)
    tab.goto(page_url(server, "", model=MODEL, lang="한국어"))
    wait_idle(tab)
    open_sidebar(tab)
    return tab


def test_the_korean_phone_navigation_has_no_english(server, reused_tabs):
    tab = phone_home_with_the_sidebar_open(reused_tabs, server)
    more = tab.locator("[data-testid=stSidebarNavViewButton]")
    sync_api.expect(more).to_have_text(re.compile(r"^\d+개 더 보기$"), timeout=15_000)
    nav = tab.locator("[data-testid=stSidebarNav]")
    assert not re.search(r"\bView\b|\bmore\b|\bless\b", nav.inner_text()), nav.inner_text()
    more.click()
    sync_api.expect(more).to_have_text(t("screen.nav_view_less", "ko"), timeout=15_000)
    for name in ("nav.lesson", "nav.glossary", "nav.corpus"):  # the pages it used to hide behind English
        sync_api.expect(nav.get_by_role("link", name=t(name, "ko"), exact=True)).to_be_visible()
    assert not re.search(r"\bView\b|\bmore\b|\bless\b", nav.inner_text()), nav.inner_text()


def test_picking_an_example_on_a_phone_closes_the_sidebar_and_uses_the_example(server, reused_tabs):
    tab = phone_home_with_the_sidebar_open(reused_tabs, server)
    pills = tab.locator("[data-testid=stSidebar] .st-key-example_pick button[data-variant=pills]")
    sync_api.expect(pills.nth(1)).to_be_visible(timeout=30_000)  # the sidebar has drawn its examples
    index, example = next((i, text) for i, text in enumerate(pills.all_inner_texts()) if text.strip() != TEXT)
    # the page's script
    tab.wait_for_function("() => window.__teNavInstalled === true", timeout=15_000, polling=POLL_MS)
    pills.nth(index).click()
    tab.wait_for_function("() => { const box = document.querySelector('[data-testid=stSidebar]')"
                          ".getBoundingClientRect(); return box.right <= 1; }", timeout=15_000, polling=POLL_MS)
    sync_api.expect(tab.locator("[data-testid=stMain] [data-testid=stCode]").first).to_contain_text(
        example, timeout=60_000)  # the overview shows the picked sentence


def test_decoder_figures_on_a_390px_phone_stack_their_panels_without_overlap(server, reused_tabs):
    tab = phone_tab(reused_tabs)
    tab.goto(page_url(server, "decoder", model=MODEL, text=TEXT, lang="한국어", strategy="beam"))
    wait_idle(tab)
    charts = tab.locator(".js-plotly-plot")
    tab.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .draglayer').length >= 6",
                          timeout=60_000, polling=POLL_MS)
    tab.wait_for_timeout(1000)
    for index in range(charts.count()):
        chart = charts.nth(index)
        overlaps = chart.evaluate(OVERLAPS_JS)
        assert overlaps == [], (index, overlaps)
        columns = chart.evaluate("p => new Set(Object.keys(p._fullLayout).filter(k => /^xaxis\\d*$/.test(k))"
                                 ".map(k => p._fullLayout[k].domain.join(','))).size")
        assert columns == 1, f"chart {index} keeps {columns} panels side by side on a phone"
    svg_texts = "els => els.map(e => e.textContent)"  # SVG text has no innerText
    legend = tab.locator(".js-plotly-plot .legendtext").evaluate_all(svg_texts)
    assert t("gen.status_finished", "ko") in legend, legend  # "끝남 (</s>)", not "끝남 ()"
    beam_labels = tab.locator(".js-plotly-plot .scatterlayer .textpoint").evaluate_all(svg_texts)
    assert "<s>" in beam_labels and "</s>" in beam_labels, beam_labels


def test_decoder_keeps_its_panels_side_by_side_on_a_laptop(server, reused_tabs):
    tab = reused_tabs(1400, 900, "en-US")
    tab.goto(page_url(server, "decoder", model=MODEL, text=TEXT, lang="English"))
    wait_idle(tab)
    tab.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .draglayer').length >= 4",
                          timeout=60_000, polling=POLL_MS)
    first = tab.locator(".js-plotly-plot").first  # the four masking panels
    columns = first.evaluate("p => new Set(Object.keys(p._fullLayout).filter(k => /^xaxis\\d*$/.test(k))"
                             ".map(k => p._fullLayout[k].domain.join(','))).size")
    assert columns == 4
    assert first.evaluate(OVERLAPS_JS) == []


# The element that reaches lowest on the page: what a too-tall step's failure names (one CI run saw step 3 at
# 1127 px, never seen here: 945 px in every run, also with the browser's CPU slowed 6 times).
LOWEST = """() => { let lowest = null, bottom = 0;
    for (const e of document.querySelectorAll('[data-testid=stMainBlockContainer] [data-testid=stElementContainer]')) {
      const box = e.getBoundingClientRect();
      if (box.height > 0 && box.bottom >= bottom) { bottom = box.bottom; lowest = e; }
    }
    if (!lowest) return '';
    return `${Math.round(bottom)} px: ${lowest.getAttribute('class')} ${lowest.innerText.slice(0, 120)}`; }"""



@pytest.mark.parametrize("language", ["한국어", "English"])
def test_no_lesson_step_is_taller_than_the_1080px_projector(server, reused_tabs, language, tmp_path):
    heights = {}
    tab = reused_tabs(1920, 1080, "en-US")
    # One page load, then the projector's own → key from step to step (a page load per step cost twice the
    # time; test_browser_lesson opens every step by its URL)
    tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, lang=language, step=1, present=1))
    for step in STEPS:
        if step.number > 1:
            tab.wait_for_function("() => window.__lessonKeys === true", timeout=30_000, polling=POLL_MS)
            tab.keyboard.press("ArrowRight")
            tab.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step.number}'",
                                  timeout=60_000, polling=POLL_MS)
        heading = t("lesson.step_of", LANG_CHOICES[language], n=step.number, total=len(STEPS))
        tab.wait_for_function("(heading) => [...document.querySelectorAll('h3')]"
                              ".some(h => h.innerText.startsWith(heading + ' '))", arg=heading, timeout=60_000,
                              polling=POLL_MS)
        wait_idle(tab)
        reveal = tab.locator("[class*=st-key-lesson_reveal_] button")
        if reveal.count():  # the tallest state: the question answered, the figure and equation shown
            reveal.first.click()
            tab.wait_for_selector("[class*=st-key-lesson_reveal_]", state="detached", timeout=60_000)
            wait_idle(tab)
        heights[step.number] = settled_main_height(tab)
        if heights[step.number] > 1080:  # name what reaches below the screen, and keep the picture
            shot = tmp_path / f"too_tall_step{step.number}.png"
            tab.screenshot(path=str(shot), full_page=True)
            heights[step.number] = (heights[step.number], tab.evaluate(LOWEST), str(shot))
    too_tall = {n: h for n, h in heights.items() if not isinstance(h, int) or h > 1080}
    assert not too_tall, f"steps taller than 1080 px ({language}): {too_tall}"
    tab.goto(page_url(server, "lesson", model=MODEL, text=TEXT, lang=language, step=len(STEPS), present=1))
    wait_idle(tab)
    tab.wait_for_selector(".js-plotly-plot .ytick text", state="attached", timeout=60_000)
    labels = tab.locator(".js-plotly-plot .ytick text").evaluate_all("els => els.map(e => e.textContent)")
    assert "고양이" in labels, labels  # step 22's grid names the tokens of its rows
