"""The interactive HTML export opens offline: headless Chromium loads the file with every non-file request
aborted, draws every figure and answers a hover (plotly.js is inside the file, no CDN)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from explorer.figures import figures
from explorer.figures.export import figures_html
from tests.browser_helpers import POLL_MS, require_chromium

require_chromium()
pytestmark = pytest.mark.browser


def page_figures():
    """Three figures the pages draw: a heatmap set, PE curves, and a PE similarity map."""
    rng = np.random.default_rng(0)
    tokens = ["나는", "학교에", "간다", "."]
    pos = rng.normal(size=(4, 16)).astype(np.float32)
    return [
        figures.vectors_heatmap([("E", rng.normal(size=(4, 16))), ("PE", pos)], tokens, title="sum", lang="ko"),
        figures.positional_curves(pos, [0, 1], title="curves", lang="ko", analytic_d_model=16),
        figures.position_similarity(pos, title="similarity", lang="ko"),
    ]


def test_html_file_has_no_remote_script():
    text = figures_html(page_figures(), "임베딩", "ko").decode("utf-8")
    assert not re.search(r"<script[^>]*\bsrc=", text)  # no external script: plotly.js is inline
    assert text.count("Plotly.newPlot(") == 3 and "<title>임베딩</title>" in text


def test_html_export_draws_every_figure_offline_and_stays_interactive(browser, tmp_path):
    path = tmp_path / "figures.html"
    path.write_bytes(figures_html(page_figures(), "embeddings", "en"))
    blocked: list[str] = []
    context = browser.new_context()
    try:
        def refuse(route):
            blocked.append(route.request.url)
            route.abort()

        context.route(lambda url: not url.startswith("file:"), refuse)  # the network is off
        page = context.new_page()
        page.goto(path.as_uri())
        page.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 3", timeout=30000,
                               polling=POLL_MS)
        drawn = page.evaluate("document.querySelectorAll('.js-plotly-plot').length")
        heatmaps = page.evaluate("document.querySelectorAll('.js-plotly-plot g.hm image').length")
        assert drawn == 3
        assert heatmaps >= 3  # E | PE, and the similarity map
        # interactive: plotly answers a hover on the curves figure with a hover label
        page.evaluate("Plotly.Fx.hover('figure-1', [{curveNumber: 0, pointNumber: 10}])")
        page.wait_for_selector("#figure-1 .hoverlayer .hovertext", timeout=10000)
        assert blocked == [], f"the file asked the network for {blocked}"
    finally:
        context.close()
