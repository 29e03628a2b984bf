"""The Streamlit app under AppTest: every page, a Korean and an English sentence, every bundled model,
layer/head switching, URL state and the hardening cases (empty, too long, unknown model, markup in text)."""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest

import transformer_core as core
from explorer.i18n import md_escape, t
from tests.requirements_check import needed

streamlit_testing = needed("streamlit.testing.v1")
AppTest = streamlit_testing.AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = ["pages/overview.py", "pages/tokens.py", "pages/embeddings.py", "pages/encoder.py", "pages/decoder.py",
         "pages/heads.py"]
SENTENCES = {"ko": "고양이가 생선을 먹었다.", "en": "The cat ate the fish."}
MAX_CHARTS_PER_PAGE = 16


def available_models() -> list[str]:
    return [info.name for info in core.list_models() if info.available]


MODELS = available_models()
pytestmark = [pytest.mark.skipif(not MODELS, reason="no bundled model is available"),
              pytest.mark.usefixtures("one_torch_thread")]  # as app.py runs: one torch thread



@cache
def load(model: str) -> core.LoadedModel:
    return core.load(model)


@cache
def reference(model: str, text: str) -> core.TextTrace:
    """The same sentence traced directly through the core (same decoding: greedy, the model's limit)."""
    return core.trace_text(load(model), text)


def new_app(model: str | None = None, text: str | None = None, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    if model is not None:
        at.query_params["model"] = model
    if text is not None:
        at.query_params["text"] = text
    for key, value in params.items():
        at.query_params[key] = value
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> list[dict]:
    """Every plotly chart's figure JSON on the page."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def heatmap_count(figure: dict) -> int:
    return sum(1 for trace in figure["data"] if trace.get("type") == "heatmap")


def all_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.code] + [c.value for c in at.caption]
    parts += [e.value for e in at.info] + [e.value for e in at.warning] + [e.value for e in at.error]
    parts += [t.value for t in at.text]
    return "\n".join(str(p) for p in parts)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("model", MODELS)
def test_every_page_renders_real_content(model: str, lang: str):
    text = SENTENCES[lang]
    expected = reference(model, text)
    loaded = load(model)
    n_heads, n_src = loaded.config.n_heads, len(expected.src_tokens)
    at = new_app(model, text, lang="English" if lang == "en" else "한국어")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.sidebar.selectbox[0].value == model
    assert at.sidebar.text_input[0].value == text

    # overview: the sentence, the model's real output, timings, links to every stage
    open_page(at, "pages/overview.py")
    codes = [c.value for c in at.code]
    assert text in codes
    if expected.has_decoder:  # the model's own output for this sentence, or the "empty output" note
        assert (expected.output_text or t("overview.output_empty", lang)) in codes, (expected.output_text, codes)
    else:
        assert any(f"1, {n_src}, {loaded.config.d_model}" in i.value for i in at.info)
    assert len(at.metric) == 5 and at.metric[0].value == model
    assert len(at.get("page_link")) >= 5
    if not loaded.trained:
        assert at.warning, "an untrained model must say so"

    # tokens: one chip per source token, the piece <-> word table, comparison with the other tokenizers
    open_page(at, "pages/tokens.py")
    chips_html = at.get("html")[0].proto.body
    assert chips_html.count("<span") == n_src
    table = at.dataframe[0].value
    assert len(table) == n_src
    assert list(table.iloc[:, 1]) == expected.src_tokens

    # embeddings: four charts for the source side
    open_page(at, "pages/embeddings.py")
    figures = charts(at)
    assert len(figures) == 4
    assert heatmap_count(figures[0]) >= 3  # E·√d | PE | input (| token type)
    assert len(figures[0]["data"][0]["y"]) == n_src

    # encoder: the chain (12 steps, each with its equation), one head in detail, every head of the layer
    open_page(at, "pages/encoder.py")
    chain = next(m.value for m in at.markdown if m.value.count("$$") >= 24)
    assert chain.count("$$") == 24
    assert f"[1, {n_src}, {loaded.config.d_model}]" in chain
    figures = charts(at)
    assert len(figures) == 3 <= MAX_CHARTS_PER_PAGE
    assert heatmap_count(figures[0]) == 5  # scores | weights | Q | K | V (nothing is masked in one sentence)
    assert heatmap_count(figures[1]) == n_heads
    # CSV + NPY for the head and for every head of the layer, and one interactive HTML per chart
    assert len(at.get("download_button")) == 4 + len(figures)

    # decoder: masked self-attention, cross-attention, decoding; or a plain explanation for an encoder
    open_page(at, "pages/decoder.py")
    figures = charts(at)
    if expected.has_decoder:
        assert len(figures) == 6  # greedy: masking, self grid, cross grid, top-k, step sources, KV cache
        assert heatmap_count(figures[0]) == 4  # mask, scores, masked scores, weights
        assert heatmap_count(figures[5]) == 2  # cached K | V
        assert heatmap_count(figures[2]) == n_heads  # cross-attention, target x source
        assert len(figures[2]["data"][0]["x"]) == n_src
        assert expected.predicted_tokens[0] in [c.value for c in at.code]
    else:
        assert not figures and not at.error
        assert any(model in i.value.replace("\\", "") for i in at.info)  # names are Markdown-escaped

    # heads: comparison, statistics of every head, similarity, all-heads overview
    open_page(at, "pages/heads.py")
    figures = charts(at)
    assert len(figures) == 3
    n_kinds = 3 if expected.has_decoder else 1
    n_layers = loaded.config.n_encoder_layers
    total_heads = n_heads * (loaded.config.n_encoder_layers + 2 * loaded.config.n_decoder_layers)
    assert len(at.dataframe[0].value) == total_heads
    assert heatmap_count(figures[2]) == n_kinds  # ONE figure for every layer x head
    assert len(figures[1]["data"][0]["x"]) == n_heads * n_layers  # similarity over encoder heads


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
def test_switching_layer_and_head_survives_page_switches_and_lands_in_the_url(model: str):
    loaded = load(model)
    n_layers, n_heads = loaded.config.n_encoder_layers, loaded.config.n_heads
    layer, head = n_layers - 1, n_heads - 1
    at = new_app(model, SENTENCES["ko"])
    at.run()
    open_page(at, "pages/encoder.py")
    at.segmented_control(key="enc_layer_picker").set_value(layer).run()
    at.segmented_control(key="enc_head_picker").set_value(head).run()
    assert not at.exception
    assert at.query_params.get("layer") == str(layer) and at.query_params.get("head") == str(head)
    title = charts(at)[0]["layout"]["title"]["text"]
    assert str(layer) in title
    assert any(f"h = {head}" in t.value for t in at.text)

    open_page(at, "pages/heads.py")
    chosen = at.multiselect[0].value
    assert chosen[0].layer == layer and chosen[0].head == head

    if loaded.config.n_decoder_layers:
        open_page(at, "pages/decoder.py")
        shown_layer = min(layer, loaded.config.n_decoder_layers - 1)
        assert at.segmented_control(key="dec_layer_picker").value == shown_layer
        assert at.segmented_control(key="dec_head_picker").value == head
        at.segmented_control(key="dec_head_picker").set_value(0).run()
        assert not at.exception
        assert "head" not in at.query_params  # back to the default head


@pytest.mark.slow
def test_url_reproduces_a_view():
    model = MODELS[-1]
    at = new_app(model, "hello world", layer="1", head="2")
    at.run()
    open_page(at, "pages/encoder.py")
    assert at.segmented_control(key="enc_layer_picker").value == min(1, load(model).config.n_encoder_layers - 1)
    assert at.segmented_control(key="enc_head_picker").value == 2


def test_empty_input_shows_a_message_and_computes_nothing():
    at = new_app(MODELS[0], "   ")
    at.run()
    for page in PAGES:
        open_page(at, page)
        assert not charts(at)
        assert at.info, page
        assert not at.error


def test_unknown_model_in_the_url_is_explained_not_raised():
    at = new_app("no-such-model", SENTENCES["en"])
    at.run()
    open_page(at, "pages/overview.py")
    assert any("no-such-model" in w.value.replace("\\", "") for w in at.warning)
    assert at.sidebar.selectbox[0].value in MODELS


def test_too_long_input_is_truncated_with_a_visible_notice():
    model = min(MODELS, key=lambda name: load(name).config.max_len)
    max_len = load(model).config.max_len
    text = " ".join(["a"] * (max_len + 20))  # one token per word in every bundled tokenizer
    at = new_app(model, text)
    at.run()
    open_page(at, "pages/overview.py")
    notices = [w.value for w in at.warning]
    assert any(str(max_len) in n and ("잘라" in n or "cut" in n) for n in notices), notices


def test_user_text_is_never_rendered_as_markdown():
    hostile = "**bold** <img src=x onerror=alert(1)> [link](http://example.com) :red[x] $x$"
    at = new_app(MODELS[0], hostile)
    at.run()
    for page in ("pages/overview.py", "pages/tokens.py"):
        open_page(at, page)
        for element in list(at.markdown) + list(at.caption) + list(at.info) + list(at.warning):
            assert hostile not in element.value
            assert "<img src=x" not in element.value
        for html in at.get("html"):
            assert "<img" not in html.proto.body
    open_page(at, "pages/overview.py")
    assert hostile in [c.value for c in at.code]


def test_app_config_keeps_stack_traces_off_the_page():
    """.streamlit/config.toml: client.showErrorDetails shows at most the exception type (no traceback,
    no file paths); Streamlit accepts the value."""
    import tomllib

    from streamlit import config as st_config

    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    value = settings["client"]["showErrorDetails"]
    # "full" and "stacktrace" show tracebacks, and so do the deprecated true ("full") and false ("stacktrace").
    assert value in ("type", "none"), f"showErrorDetails = {value!r} would show stack traces"
    st_config.get_option("server.port")  # makes Streamlit build its option table
    description = st_config._config_options["client.showErrorDetails"].description
    assert f'"{value}"' in description and "traceback" in description  # a value this Streamlit knows


def test_english_ui_and_korean_ui_differ():
    at = new_app(MODELS[0], SENTENCES["ko"], lang="English")
    at.run()
    open_page(at, "pages/encoder.py")
    english = at.title[0].value
    at2 = new_app(MODELS[0], SENTENCES["ko"])
    at2.run()
    open_page(at2, "pages/encoder.py")
    korean = at2.title[0].value
    assert english != korean
    assert any("\uac00" <= ch <= "\ud7a3" for ch in korean)
    assert not any("\uac00" <= ch <= "\ud7a3" for ch in english)


HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]")
# Elements that show user text or tokens as they are (the Korean sentence, its tokens): not UI chrome.
# Html is the token chips: only its title="..." tooltips are UI text.
USER_CONTENT_ELEMENTS = ("Code", "Text", "Dataframe", "Table", "Json", "Html")
LANGUAGE_PICKER_KEY = "lang"  # its label "언어 · Language" and option "한국어" are bilingual on purpose


def app_pages() -> list[str]:
    """Every page file app.py's SECTIONS lists (read from the source, so new pages are checked too)."""
    tree = ast.parse(Path(APP).read_text(encoding="utf-8"))
    found = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and re.fullmatch(r"pages/\w+\.py", node.value)]
    assert set(PAGES) <= set(found), found
    return list(dict.fromkeys(found))


def ui_strings(at: AppTest) -> list[tuple[str, str]]:
    """(element kind, string) for every piece of UI text on the page: titles, Markdown, captions, alerts,
    metrics, widget labels/help/options, expander and tab labels, page links, plotly titles and hovers."""
    found: list[tuple[str, str]] = []

    def visit(node) -> None:
        kind = type(node).__name__
        if kind == "Html":
            found.extend(("Html.title", title) for title in re.findall(r'title="([^"]*)"', node.proto.body))
        elif kind not in USER_CONTENT_ELEMENTS and getattr(node, "key", None) != LANGUAGE_PICKER_KEY:
            for attr in ("value", "label", "body", "help", "placeholder"):
                try:
                    value = getattr(node, attr)
                except Exception:  # an attribute this element does not have
                    continue
                if isinstance(value, str):
                    found.append((f"{kind}.{attr}", value))
            if kind in ("Selectbox", "Radio", "Multiselect", "ButtonGroup", "SelectSlider"):
                found.extend((f"{kind}.option", str(option)) for option in getattr(node, "options", []))
            proto = getattr(node, "proto", None)
            if getattr(proto, "spec", None):  # a plotly chart: titles and hover templates, not tick labels
                figure = json.loads(proto.spec)
                layout = json.dumps(figure["layout"], ensure_ascii=False)
                found.extend(("plotly.layout", text) for text in re.findall(r'"text": "((?:[^"\\]|\\.)*)"', layout))
                found.extend(("plotly.hover", trace.get("hovertemplate", "")) for trace in figure["data"])
        for child in (getattr(node, "children", None) or {}).values():
            visit(child)

    visit(at._tree)
    return found


def without(text: str, pieces: list[str]) -> str:
    for piece in sorted({p for p in pieces if p}, key=len, reverse=True):
        text = text.replace(piece, "").replace(md_escape(piece), "")
    return text


def test_english_strings_hold_no_hangul():
    from explorer.i18n import STRINGS

    leaks = {key: english for key, (_, english) in STRINGS.items() if HANGUL.search(english)}
    assert not leaks, leaks


@pytest.mark.slow  # 8-30 s a model (paper-base decodes its random output; issue 49: the edit loop keeps seconds)
@pytest.mark.parametrize("model", MODELS)
def test_english_ui_shows_no_korean_outside_user_text_tokens_and_model_names(model: str):
    """A Korean sentence in the English UI: on every page, every piece of UI text is free of Hangul once the
    sentence, its tokens (source, target, predicted) and the model names are taken out."""
    text = SENTENCES["ko"]
    traced = reference(model, text)
    tokens = traced.src_tokens + traced.tgt_tokens + traced.predicted_tokens
    if model != "ko-en-toy" and "ko-en-toy" in MODELS:  # /history falls back to ko-en-toy (and its RNN twin)
        fallback = reference("ko-en-toy", text)
        tokens += fallback.src_tokens + fallback.tgt_tokens + fallback.predicted_tokens
    tokens += [tok.removeprefix("##").removeprefix("▁").removeprefix("Ġ") for tok in tokens]
    # The example pills are sentences offered as input (user text, in the model's own language), not chrome.
    # So are the Korean specimens the tokens page explains Korean tokenization with.
    from explorer.explain_service import heldout_pairs
    from explorer.figures.vocab import TOKENIZATION_SPECIMENS, WORDLIST_SPECIMENS
    from explorer.services import model_examples

    # /explain offers held-out grammar sentences (with their gold alignment) as input, like the example pills.
    examples = [example["text"] for example in model_examples(model)] + list(heldout_pairs())
    specimens = [*TOKENIZATION_SPECIMENS.values(), *WORDLIST_SPECIMENS.values()]
    # The glossary is bilingual on purpose: each entry shows the Korean word chosen for the term.
    from explorer.glossary import TERMS

    allowed = [text, *text.split(), *tokens, *MODELS, *examples, *specimens, *(term.ko for term in TERMS)]
    leaks: dict[str, list[tuple[str, str]]] = {}
    checked = 0
    for page in app_pages():  # a fresh session per page: one page's widgets cannot break the next page's run
        at = new_app(model, text, lang="English")
        at.run()
        open_page(at, page)
        strings = ui_strings(at)
        checked += len(strings)
        found = [(kind, value) for kind, value in strings if HANGUL.search(without(value, allowed))]
        if found:
            leaks[page] = found
    assert checked > 100, f"only {checked} UI strings found: the element walk is broken"
    assert not leaks, leaks


def test_hiding_special_tokens_is_stated_on_screen():
    model = MODELS[0]
    at = new_app(model, SENTENCES["ko"])
    at.run()
    open_page(at, "pages/heads.py")
    before = charts(at)[0]
    at.toggle(key="heads_hide_special").set_value(True).run()
    assert not at.exception
    specials = set(load(model).tokenizer.all_special_tokens)
    traced = reference(model, SENTENCES["ko"])
    n_special = sum(tok in specials for tok in traced.src_tokens)
    assert n_special, f"{model} adds no special token to {SENTENCES['ko']!r}: pick a case that has one"
    present = sorted({tok for tok in traced.src_tokens + traced.tgt_tokens if tok in specials})
    notice = t("msg.special_hidden", "ko", tokens=md_escape(", ".join(present)))
    assert notice in [i.value for i in at.info], [i.value for i in at.info]
    after = charts(at)[0]
    assert len(after["data"][0]["x"]) == len(before["data"][0]["x"]) - n_special


def test_a_model_that_fails_to_load_gets_a_friendly_message(tmp_path, monkeypatch):
    """A model directory that looks fine but holds broken weights: an error box with the reason, no traceback."""
    import shutil

    broken = tmp_path / "broken-model"
    broken.mkdir()
    source = next((core.io.loading.models_dir() / m for m in MODELS
                   if (core.io.loading.models_dir() / m / "config.json").is_file()), None)
    if source is None:
        pytest.skip("needs a bundled model directory to copy the config and tokenizer from")
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json"):
        if (source / name).is_file():
            shutil.copy(source / name, broken / name)
    (broken / "model.safetensors").write_bytes(b"this is not a safetensors file")
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tmp_path))
    at = new_app("broken-model", SENTENCES["ko"])
    at.run()
    for page in ("pages/overview.py", "pages/encoder.py"):
        open_page(at, page)
        assert at.error, page
        assert "broken" in at.error[0].value.replace("\\", "")
        assert "Traceback" not in at.error[0].value
        assert not charts(at)


def test_the_decoder_says_the_papers_limit_stopped_a_trained_model_that_never_ends(tmp_path, monkeypatch):
    """A trained model that never says EOS runs to input length + 50: /decoder names that rule, not the untrained
    model's 50 tokens (the notice follows the trace's limit_rule)."""
    import torch

    from tests.conftest import TINY_WORDS, build_word_tokenizer, tiny_config
    from transformer_core.io.loading import save_model_dir

    torch.manual_seed(1)
    model = core.Transformer(tiny_config(max_len=128)).eval()
    with torch.no_grad():
        model.lm_head.bias[model.config.eos_token_id] = -1e4  # never EOS
    save_model_dir(tmp_path / "never-ending", model, build_word_tokenizer(TINY_WORDS), description="never says EOS")
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tmp_path))
    text = "고양이가 생선을 먹는다"
    traced = core.trace_text(core.load("never-ending"), text)
    n_new = len(traced.tgt_tokens) - 1
    assert traced.limit_rule == "paper" and n_new == len(traced.src_tokens) + 50
    at = new_app("never-ending", text, lang="English")
    at.run()
    open_page(at, "pages/decoder.py")
    notices = [info.value for info in at.info]
    assert t("gen.limit_reached", "en", n=n_new, max_len=128) in notices, notices
    assert t("gen.untrained_limit", "en", n=n_new, max_len=128) not in notices
