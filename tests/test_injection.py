"""User text is text, never markup (issue 6): HTML, script and Markdown typed into the sidebar (fill + Enter,
as a person would) and given in the URL, on the overview, tokens and encoder pages. Nothing runs
(`window.__pwned` stays undefined), no element is made from the text (img, script, strong/b, heading,
javascript: link, onerror attribute, in any frame), and the text is shown literally: in the overview's input
box, as the tokenizers' pieces in the token chips, as the encoder's axis labels. Also a 10 000-character
paste, control characters, zero-width characters, right-to-left text and emoji through the URL."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import cache

import pytest

import transformer_core as core
from explorer.tokenizer_service import tokenizer_fingerprint
from tests.browser_helpers import (
    EXCEPTION,
    POLL_MS,
    SIDEBAR_TEXT_BOX,
    expected_heatmaps,
    page_url,
    probe,
    require_chromium,
    sidebar_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

require_chromium()

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

sync_api = needed("playwright.sync_api")

INJECTIONS = {
    "img": '<img src=x onerror="window.__pwned=1">',
    "script": "<script>window.__pwned=2</script>",
    "markdown": "**bold** [link](javascript:window.__pwned=3) # heading",
}
ODD_INPUTS = {
    "paste_10k": ("The cat ate the fish. 고양이가 생선을 먹었다. <b>x</b> " * 300)[:10_000],
    "control": "abc\x00def\x01\x07\x1b[31mred\x1b[0m\ttab\r\nnew\x7fline\x0b\x0c",
    "zero_width": "고양이가\u200b생선을\u200c먹었다\u200d.\ufeff the\u2060cat\u00ad",
    "rtl": "שלום עולם مرحبا بالعالم \u202egnp.exe\u202c cat \u200f",
    "emoji": "👩‍👩‍👧‍👦🏳️‍🌈🇰🇷 the cat 🐈‍⬛ ate 🐟",
}
PAGES = {"overview": "", "tokens": "tokens", "encoder": "encoder"}
BENIGN = "고양이가 공원에서 생선을 먹었다."
MODELS = [info.name for info in core.list_models() if info.available]
DEFAULT_MODEL = core.DEFAULT_MODEL if core.DEFAULT_MODEL in MODELS else (MODELS[0] if MODELS else None)
URL_MODEL = "minilm-l6" if "minilm-l6" in MODELS else DEFAULT_MODEL  # WordPiece keeps <, >, *, [ as pieces

# JS, run in every frame: what user text could have turned into
_INJECTED = r"""() => ({
  pwned: typeof window.__pwned,
  img: document.querySelectorAll('img[src="x"]').length,
  onerror: document.querySelectorAll('[onerror]').length,
  script: [...document.querySelectorAll('script')].filter(s => s.textContent.includes('__pwned')).length,
  // Markdown taken as markup turns **bold** into <strong>bold</strong>; the overview's own emphasis of an
  // unknown word shows the typed text, asterisks included (<strong>**bold**</strong>), which is fine.
  strong: [...document.querySelectorAll('strong, b')].filter(e => e.textContent.trim() === 'bold').length,
  heading: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .filter(e => /heading|pwned/.test(e.textContent)).length,
  jsLink: [...document.querySelectorAll('a')].filter(a => /^\s*javascript:/i.test(
      a.getAttribute('href') || a.getAttribute('xlink:href') || '')).length,
})"""
# JS: token chips (explorer.figures.tokenization.token_chips_html: a span holding the piece, then a <sub> with the id)
_CHIPS = """() => [...document.querySelectorAll('[data-testid=stHtml] span')]
  .filter(s => s.querySelector(':scope > sub')).map(s => s.childNodes[0].textContent)"""
_Y_TICKS = """() => { const p = document.querySelector('.js-plotly-plot');
  return p ? [...p.querySelectorAll('.ytick text')].map(t => t.textContent) : []; }"""


@cache
def tokenizer(model: str):
    return core.load(model).tokenizer


def pieces(model: str, text: str) -> list[str]:
    """The pieces as the chips and the axis labels show them (spaces as ␣, empty as ∅)."""
    tok = tokenizer(model)
    ids = tok(text, truncation=True, max_length=core.load(model).config.max_len)["input_ids"]
    return [(p.replace(" ", "␣") or "∅") for p in tok.convert_ids_to_tokens(ids)]


@pytest.fixture(scope="module")
def server(app_server):
    if not MODELS:
        pytest.skip("no bundled model is available")
    return app_server  # one server per test process (conftest.app_server)



@pytest.fixture
def tab(reused_tabs):
    return reused_tabs(1400, 1000)  # the module's one tab (conftest.reused_tabs); each test opens its own URL


def wait_until(tab, ready: Callable[[], bool], what: str, timeout: float = 120.0, settle: float = 0.4) -> float:
    """Poll until the script is idle, every chart is drawn and `ready()` holds, stable for `settle` s."""
    start = time.perf_counter()
    deadline = start + timeout
    since = None
    while time.perf_counter() < deadline:
        if tab.locator(EXCEPTION).count():
            pytest.fail(f"{what}: exception box: {tab.locator(EXCEPTION).first.inner_text()}")
        state, images, traces, plots, slots = probe(tab)
        if state == "notRunning" and plots == slots and images == traces and ready():
            since = since or time.perf_counter()
            if time.perf_counter() - since >= settle:
                return since - start
        else:
            since = None
        time.sleep(0.1)
    raise TimeoutError(f"{what}: not ready within {timeout:.0f} s (last probe {probe(tab)})")


def contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def shown_literally(tab, page_name: str, model: str, text: str) -> Callable[[], bool]:
    """A check that the page shows `text` (or its pieces) as text."""
    expected = pieces(model, text)
    if page_name == "overview":  # the input box of the overview (st.code)
        return lambda: (tab.locator("[data-testid=stCode] code").count() > 0
                        and tab.locator("[data-testid=stCode] code").first.inner_text().strip() == text.strip())
    if page_name == "tokens":  # the chosen model's chips, and (comparison) the other tokenizers' chips
        seen = {tokenizer_fingerprint(tokenizer(model))}
        wanted = [expected]
        for other in MODELS:  # the comparison shows each distinct tokenizer once
            fingerprint = tokenizer_fingerprint(tokenizer(other))
            if fingerprint not in seen:
                seen.add(fingerprint)
                wanted.append(pieces(other, text))
        return lambda: all(contains_run(tab.evaluate(_CHIPS), w) for w in wanted)
    heatmaps = expected_heatmaps("encoder", core.load(model).config.n_heads, core.load(model).config.has_decoder,
                                 core.load(model).config.type_vocab_size > 0)

    def ticks_are_pieces() -> bool:  # axis labels are the pieces ("piece·i" when repeated), none swallowed
        if probe(tab)[1] != heatmaps:
            return False
        ticks = [re.sub(r"(·\d+)+$", "", label) for label in tab.evaluate(_Y_TICKS)]
        return bool(ticks) and set(ticks) <= set(expected) and len(set(ticks)) >= len(set(expected)) // 2
    return ticks_are_pieces


def assert_not_injected(tab, where: str) -> None:
    for frame in tab.frames:
        found = frame.evaluate(_INJECTED)
        assert found == {"pwned": "undefined", "img": 0, "onerror": 0, "script": 0, "strong": 0, "heading": 0,
                         "jsLink": 0}, (where, frame.url, found)


@pytest.mark.parametrize("page_name", list(PAGES))
def test_injection_through_the_url_stays_text(server, tab, page_name):
    for name, text in INJECTIONS.items():
        where = f"URL {page_name} {name}"
        tab.goto(page_url(server, PAGES[page_name], text=text, model=URL_MODEL), timeout=60_000)
        wait_until(tab, shown_literally(tab, page_name, URL_MODEL, text), where)
        sync_api.expect(tab.locator(SIDEBAR_TEXT_BOX)).to_have_value(text, timeout=30_000)  # drawn after the page
        assert_not_injected(tab, where)


@pytest.mark.parametrize("page_name", list(PAGES))
def test_injection_typed_into_the_sidebar_stays_text(server, tab, page_name):
    model = DEFAULT_MODEL
    tab.goto(page_url(server, PAGES[page_name], text=BENIGN, model=model), timeout=60_000)
    wait_until(tab, shown_literally(tab, page_name, model, BENIGN), f"typed {page_name} start")
    for name, text in INJECTIONS.items():
        where = f"typed {page_name} {name}"
        box = tab.locator(SIDEBAR_TEXT_BOX)
        box.fill(text)
        box.press("Enter")
        tab.wait_for_function("t => new URLSearchParams(location.search).get('text') === t", arg=text,
                              timeout=60_000, polling=POLL_MS)  # the text went through Streamlit and back into the URL
        wait_until(tab, shown_literally(tab, page_name, model, text), where)
        assert_not_injected(tab, where)


@pytest.mark.parametrize("name", list(ODD_INPUTS))
def test_odd_input_through_the_url_draws(server, tab, name):
    text = ODD_INPUTS[name]
    cfg = core.load(DEFAULT_MODEL).config
    ready = {
        "overview": lambda: tab.locator("[data-testid=stCode] code").count() > 0,
        "tokens": lambda: len(tab.evaluate(_CHIPS)) > 0,
        "encoder": lambda: probe(tab)[1] == expected_heatmaps("encoder", cfg.n_heads, cfg.has_decoder,
                                                              cfg.type_vocab_size > 0),
    }
    for page_name, path in PAGES.items():
        where = f"{name} on {page_name}"
        start = time.perf_counter()
        tab.goto(page_url(server, path, text=text, model=DEFAULT_MODEL), timeout=60_000)
        wait_until(tab, ready[page_name], where)
        assert tab.locator(EXCEPTION).count() == 0, where
        assert tab.locator("h1").first.inner_text().strip(), where
        value = sidebar_text(tab)
        assert value and text.startswith(value[:20]), (where, value[:40])  # the sidebar holds (the start of) it
        assert_not_injected(tab, where)
        print(f"[odd input] {where}: {len(text)} chars, drawn in {time.perf_counter() - start:.1f} s")
