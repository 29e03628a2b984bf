"""Browser timing of the app in ONE headless Chromium session (Debian's /usr/bin/chromium).

Measures, after a warm-up (model load, plotly bundle):
  * page load by URL until fully drawn (script idle + every heatmap image): a trivial page (overview,
    no charts) vs the encoder page (goal: encoder <= trivial + 1.5 s);
  * a head switch on the encoder page (click in the fragment's head picker until the new head's
    charts are drawn; goal <= 0.5 s), and a layer switch;
  * with --decoder: the decoder page for a 128-token input by URL until fully drawn, on a warm server
    (the first visit generates and traces; later visits find the trace in the shared cache; goal
    <= 3 s), and the first visit's time (generation with the KV cache + the recorded pass + drawing).

Usage: .venv/bin/python benchmarks/browser_timing.py [--model ko-en-toy] [--repeats 5] [--decoder]
       .venv/bin/python benchmarks/browser_timing.py --model paper-base --decoder-only --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

import transformer_core as core  # noqa: E402
from tests.browser_helpers import (  # noqa: E402
    TIMING_INIT_SCRIPT,
    chromium_available,
    drawn_at,
    expected_heatmaps,
    launch,
    page_url,
    streamlit_server,
)

SENTENCE = "고양이가 공원에서 생선을 먹었다."


def load_time(tab, url: str, heatmaps: int) -> float:
    """Seconds from the start of navigation (performance.timeOrigin) until the page is fully drawn."""
    tab.goto(url)
    if heatmaps == 0:  # a page without charts: wait for its content, then for the script to go idle
        tab.wait_for_selector("[data-testid=stMetric]", timeout=90_000)
    return drawn_at(tab, heatmaps) / 1000


def switch_time(tab, picker: str, label: str, title_pattern: str, heatmaps: int) -> float:
    """Seconds from the pointer going down on the picker button until the new charts are drawn."""
    tab.locator(f".st-key-{picker}").get_by_role("radio", name=label, exact=True).click()
    end = drawn_at(tab, heatmaps, title_pattern)
    return (end - tab.evaluate("() => window.__clickAt")) / 1000


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):.2f} s  (min {min(values):.2f}, max {max(values):.2f}, "
            f"n={len(values)})")


def text_of_tokens(tokenizer, n_tokens: int) -> str:
    """A sentence the model's tokenizer turns into exactly `n_tokens` ids (EOS included) when it can."""
    words = ["고양이가", "공원에서", "생선을", "먹었다", ".", "민수는", "어제", "학교에", "갔다", ".",
             "그", "작은", "개가", "공을", "찾았다", "."]
    out: list[str] = []
    while len(tokenizer(" ".join(out))["input_ids"]) < n_tokens:
        out.append(words[len(out) % len(words)])
    while len(tokenizer(" ".join(out))["input_ids"]) > n_tokens and len(out) > 1:
        out.pop()
    return " ".join(out)


def decoder_timing(tab, base: str, model: str, cfg, repeats: int, n_tokens: int) -> None:
    """The decoder page with an `n_tokens` input: first visit, then warm visits (trace cached)."""
    tokenizer = core.load(model).tokenizer
    text = text_of_tokens(tokenizer, n_tokens)
    n_src = len(tokenizer(text)["input_ids"])
    heatmaps = expected_heatmaps("decoder", cfg.n_heads, cfg.has_decoder)
    url = page_url(base, "decoder", model=model, text=text)
    first = load_time(tab, url, heatmaps)
    notices = [n for n in tab.locator("[data-testid=stAlert]").all_inner_texts() if "max_len" in n]
    warm = [load_time(tab, url, heatmaps) for _ in range(repeats)]
    print(f"decoder page, {n_src}-token input, {heatmaps} heatmaps" + (f"; {notices[0]}" if notices else ""))
    print(f"  first visit (generate with the KV cache + one recorded pass + draw): {first:.2f} s")
    verdict = "OK" if statistics.median(warm) <= 3.0 else "MISSED"
    print(f"  warm server, by URL          : {summary(warm)}   (goal <= 3.00 s: {verdict})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="model name (default: the app's default model)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--decoder", action="store_true", help="also time the decoder page, 128-token input")
    parser.add_argument("--decoder-only", action="store_true", help="time only the decoder page")
    parser.add_argument("--source-tokens", type=int, default=128)
    args = parser.parse_args()
    if not chromium_available():
        print("!!! /usr/bin/chromium is missing: nothing measured (apt-get install -y chromium fonts-noto-cjk)")
        return 1
    from playwright.sync_api import sync_playwright

    available = [m.name for m in core.list_models() if m.available]
    model = args.model or (core.DEFAULT_MODEL if core.DEFAULT_MODEL in available else available[0])
    cfg = core.load(model).config
    n_heads = cfg.n_heads
    encoder_heatmaps = expected_heatmaps("encoder", n_heads, cfg.has_decoder, cfg.type_vocab_size > 0)
    print(f"model {model}: {cfg.n_encoder_layers} encoder layers x {n_heads} heads, d_model {cfg.d_model}; "
          f"encoder page draws {encoder_heatmaps} heatmaps")
    with streamlit_server() as base, sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        tab.add_init_script(TIMING_INIT_SCRIPT)
        if args.decoder or args.decoder_only:
            decoder_timing(tab, base, model, cfg, args.repeats, args.source_tokens)
            if args.decoder_only:
                browser.close()
                return 0
        trivial_url = page_url(base, "", model=model, text=SENTENCE)
        encoder_url = page_url(base, "encoder", model=model, text=SENTENCE)
        cold_trivial = load_time(tab, trivial_url, 0)
        cold_encoder = load_time(tab, encoder_url, encoder_heatmaps)
        print(f"cold (first visit after server start, model load included): overview {cold_trivial:.2f} s, "
              f"encoder {cold_encoder:.2f} s")
        trivial, encoder = [], []
        for _ in range(args.repeats):
            trivial.append(load_time(tab, trivial_url, 0))
            encoder.append(load_time(tab, encoder_url, encoder_heatmaps))
        extra = statistics.median(encoder) - statistics.median(trivial)
        print(f"trivial page (overview) by URL : {summary(trivial)}")
        print(f"encoder page by URL            : {summary(encoder)}")
        verdict = "OK" if extra <= 1.5 else "MISSED"
        print(f"encoder - trivial              : {extra:+.2f} s   (goal <= +1.50 s: {verdict})")

        heads, layers = [], []
        for step in range(2 * args.repeats):
            head = (step + 1) % n_heads
            heads.append(switch_time(tab, "enc_head_picker", f"H{head}", rf"(헤드|Head) {head}[:의 ]",
                                     encoder_heatmaps))
        for step in range(args.repeats):
            layer = (step + 1) % cfg.n_encoder_layers
            layers.append(switch_time(tab, "enc_layer_picker", f"L{layer}", rf"(층|layer) {layer}",
                                      encoder_heatmaps))
        print(f"head switch (fragment rerun)   : {summary(heads)}   "
              f"(goal <= 0.50 s: {'OK' if statistics.median(heads) <= 0.5 else 'MISSED'})")
        print(f"layer switch (fragment rerun)  : {summary(layers)}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
