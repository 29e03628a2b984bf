"""Issue 50 in headless Chromium: /encoder's chain for the pre-LN `reverse` model shows X̂ = LayerNorm(X) and
Q = X̂W^Q with the numbers of LayerNorm(x) that this test recomputes from the trace's layer input and the
model's γ, β; the lesson's Q/K/V step (before the scores) shows what a token looks for / offers / hands
over with the live shapes, for post-LN ko-en-toy and pre-LN reverse. Screenshots at laptop (1366x768) and
phone (390x844) size go to build/screenshots/ (an ignored folder)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

import transformer_core as core
from explorer import lesson_service
from explorer.figures import lesson
from explorer.i18n import t
from tests.browser_helpers import EXCEPTION, POLL_MS, expected_heatmaps, page_url, require_chromium, wait_drawn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
from tests import browser_helpers  # noqa: E402

SCREENSHOTS = browser_helpers.SCREENSHOTS  # build/screenshots (ignored); `make screenshots` for docs/
AVAILABLE = {info.name for info in core.list_models() if info.available}
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
SENTENCES = {"reverse": "abc", "ko-en-toy": "고양이가 공원에서 생선을 먹었다."}
LANG_LABEL = {"ko": "한국어", "en": "English"}
QKV_STEP = next(s.number for s in lesson.lesson_steps() if s.id == "qkv")


def need(model: str) -> None:
    if model not in AVAILABLE:
        pytest.skip(f"{model} is not available")


@cache
def loaded(model: str):
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return core.load(model), core.trace_text(core.load(model), SENTENCES[model])
    finally:
        torch.set_num_threads(threads)


def layer_norm_of_input(model: str, i: int) -> tuple[np.ndarray, float, float]:
    """LayerNorm(x_i) of encoder layer 0, computed here from the traced layer input and the model's γ, β."""
    model_obj, traced = loaded(model)
    state = model_obj.model.state_dict()
    gamma = state["encoder.layers.0.sublayer1.norm.weight"].double().numpy()
    beta = state["encoder.layers.0.sublayer1.norm.bias"].double().numpy()
    x = traced.trace.numpy("encoder.0.in")[i].astype(np.float64)
    normed = (x - x.mean()) / np.sqrt(x.var() + model_obj.config.layer_norm_eps) * gamma + beta
    return normed, float(x.mean()), float(x.std())


@pytest.fixture(scope="module")
def server(app_server):
    return app_server  # one server per test process (conftest.app_server)


def latex_in(tab, selector: str) -> list[str]:
    """The TeX source KaTeX keeps beside each equation it drew (its MathML annotation)."""
    return tab.evaluate(f"""() => [...document.querySelectorAll('{selector} annotation')]
        .map(a => a.textContent)""")


def overflow(tab) -> int:
    return tab.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_encoder_chain_of_a_pre_ln_model_projects_layernorm_of_x(server, reused_tabs, lang: str):
    need("reverse")
    model_obj, _ = loaded("reverse")
    for size in SIZES:
        tab = reused_tabs(*SIZES[size])
        tab.goto(page_url(server, "encoder", model="reverse", text=SENTENCES["reverse"], lang=LANG_LABEL[lang]),
                 timeout=90_000)
        wait_drawn(tab, expected_heatmaps("encoder", model_obj.config.n_heads, True))
        assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
        chain = tab.locator(".st-key-encoder_chain")
        chain.scroll_into_view_if_needed()
        shown = chain.inner_text()
        assert t("step.x_pre", lang) in shown and t("step.qkv", lang) in shown
        equations = latex_in(tab, ".st-key-encoder_chain")
        qkv = next(e for e in equations if "W^Q" in e and r"\hat X" in e)
        assert r"Q = \hat XW^Q" in qkv and r"\hat X = \text{LayerNorm}(X)" in qkv, qkv
        assert not any("Q = XW^Q" in e for e in equations)
        normed, mu, sigma = layer_norm_of_input("reverse", 0)  # the query picker starts at position 0
        norm = next(e for e in equations if r"\mu_{0}" in e)
        for value in normed[:4]:
            assert f"{value:.3f}" in norm, (value, norm)
        assert f"{mu:.3f}" in norm and f"{sigma:.3f}" in norm
        if lang == "ko":  # the equation's words are Korean in the Korean UI
            assert any(r"\text{막힘}" in e for e in equations)
            assert not any(r"\text{blocked}" in e for e in equations)
        assert overflow(tab) <= 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.evaluate("() => document.querySelector('.st-key-encoder_chain').scrollIntoView()")
        tab.screenshot(path=str(SCREENSHOTS / f"encoder_pre_ln_chain_{lang}_{size}.png"))


@pytest.mark.parametrize("model", ["ko-en-toy", "reverse"])
def test_the_lessons_qkv_step_shows_the_projections_with_live_shapes(server, reused_tabs, model: str):
    need(model)
    model_obj, traced = loaded(model)
    data = lesson_service.lesson_data(traced, model_obj, SENTENCES[model])
    view = lesson.build_step(lesson.lesson_steps()[QKV_STEP - 1], data, "ko")
    heatmaps = sum(1 for trace in view.figure.data if trace.type == "heatmap")
    assert heatmaps == 3  # Q, K and V of the followed head
    assert [s.id for s in lesson.lesson_steps()][QKV_STEP] == "scores"  # right before the scores
    d, h = model_obj.config.d_model, model_obj.config.n_heads
    for size in SIZES:
        tab = reused_tabs(*SIZES[size])
        tab.goto(page_url(server, "lesson", model=model, text=SENTENCES[model], step=QKV_STEP), timeout=90_000)
        tab.wait_for_function(f"() => [...document.querySelectorAll('h3')].some(h => h.innerText.includes("
                              f"'{t('lesson.qkv.title', 'ko')}'))", timeout=90_000, polling=POLL_MS)
        wait_drawn(tab, heatmaps)
        assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
        main = tab.locator("[data-testid=stMain]").inner_text()
        for part in ("찾는지", "내보이는지", "넘겨주는지", f"[{data.n_src}, {d // h}]", f"{d}×{d}"):
            assert part in main, part
        note = "lesson.qkv.pre_ln" if model_obj.config.norm_first else "lesson.qkv.post_ln"
        assert t(note, "ko").split("$")[0] in main
        equations = latex_in(tab, "[data-testid=stMain]")
        projection = next(e for e in equations if "W^Q" in e and "W^K" in e and "Q =" in e)
        assert (r"Q = \hat XW^Q" in projection) is model_obj.config.norm_first, projection
        q_row = traced.trace.numpy("encoder.0.self_attn.q")[:, lesson.focus_query(data), :].reshape(-1)
        assert all(f"{v:.3f}" in projection for v in q_row[:3])  # the traced row of Q
        assert overflow(tab) <= 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SCREENSHOTS / f"lesson_qkv_{model}_{size}.png"))
        # the equation and the figure further down (Streamlit scrolls inside its own container)
        tab.locator(".katex-display").filter(has_text="Q").first.scroll_into_view_if_needed()
        tab.screenshot(path=str(SCREENSHOTS / f"lesson_qkv_{model}_{size}_equation.png"))
        tab.locator("[data-testid=stPlotlyChart]").first.scroll_into_view_if_needed()
        tab.screenshot(path=str(SCREENSHOTS / f"lesson_qkv_{model}_{size}_figure.png"))
