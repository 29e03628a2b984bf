"""The /experiments page under AppTest: the experiment from the URL, the form's Run, the outputs side by side
(the same as the core computes), bad URLs, an encoder-only model, the importance table and its top-head button,
and the importance column of the heads page."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import transformer_core as core
from tests.requirements_check import needed
from transformer_core.analysis.experiments import Intervention, run_experiment
from transformer_core.analysis.importance import load_importance

streamlit_testing = needed("streamlit.testing.v1")
AppTest = streamlit_testing.AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = "pages/experiments.py"
TEXT = "고양이가 공원에서 생선을 먹었다."
MODELS = {info.name for info in core.list_models() if info.available}
pytestmark = [pytest.mark.skipif("ko-en-toy" not in MODELS, reason="models/ko-en-toy is not bundled"),
              pytest.mark.usefixtures("one_torch_thread")]  # as app.py runs: one torch thread



@cache
def load(name: str) -> core.LoadedModel:
    return core.load(name)


def expected_output(spec: Intervention, model: str = "ko-en-toy", text: str = TEXT) -> str:
    from explorer.services import MAX_NEW_TOKENS

    loaded = load(model)
    original = core.trace_text(loaded, text, max_new_tokens=MAX_NEW_TOKENS)
    return run_experiment(loaded, text, spec, original, max_new_tokens=MAX_NEW_TOKENS).patched.output_text


def open_page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"model": "ko-en-toy", "text": TEXT, **params})
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> list[str]:
    return [element.value for element in at.text]


def test_an_experiment_in_the_url_runs_and_shows_both_outputs_with_the_changes_highlighted():
    spec = Intervention.from_query("off=cross.1.*", n_heads=4)
    at = open_page(off="cross.1.*", lang="English")
    original = load("ko-en-toy")
    from explorer.services import MAX_NEW_TOKENS

    traced = core.trace_text(original, TEXT, max_new_tokens=MAX_NEW_TOKENS)
    plain = traced.output_text
    patched = expected_output(spec)
    assert plain != patched  # the whole last cross-attention layer matters for this sentence
    assert texts(at)[:2] == [plain, patched]
    assert any("orange-background" in m.value for m in at.markdown)  # changed tokens highlighted
    assert any("changed" in w.value for w in at.warning)
    checked = sorted(box.key for box in at.checkbox if box.value)
    assert checked == [f"xp_off_cross_1_{h}" for h in range(4)]  # the URL seeded the grid
    figures = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    bars = [f for f in figures if f["data"] and f["data"][0]["type"] == "bar"]
    assert len(bars) == 1 and len(bars[0]["data"]) == 2  # probability before / after
    probabilities = at.dataframe[0].value
    assert list(probabilities["original token"]) == traced.predicted_tokens  # one row per generated step
    # the original model's probability of each token it wrote (softmax written here) and that token its argmax
    # (not "above 0.5": the learner10 model gives its chosen words about half the probability, 0.47 to 0.53 here)
    logits = np.asarray(traced.trace.numpy("logits"), dtype=np.float64)
    softmax = np.exp(logits - logits.max(-1, keepdims=True))
    softmax /= softmax.sum(-1, keepdims=True)
    written = original.tokenizer.convert_tokens_to_ids(list(traced.predicted_tokens))
    np.testing.assert_allclose(probabilities["p before"], softmax[np.arange(len(written)), written], atol=1e-4)
    assert list(softmax.argmax(-1)) == written


def test_ticking_a_head_and_pressing_run_puts_the_experiment_in_the_url():
    at = open_page()
    assert any("Nothing is changed" in i.value or "아직" in i.value for i in at.info)
    at.checkbox(key="xp_off_dec_0_0").check()
    at.toggle(key="xp_nocausal").set_value(True)
    at.button[0].click().run()  # the form's Run
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["off"] == ["dec.0.0"] or at.query_params["off"] == "dec.0.0"
    spec = Intervention.from_params({k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()})
    assert spec == Intervention(off=(Intervention.from_query("off=dec.0.0").off), causal=False)
    assert texts(at)[1] == expected_output(spec)


def test_a_bad_experiment_in_the_url_is_ignored_with_a_warning():
    at = open_page(off="cross.9.0")
    assert any("cross.9.0" in w.value.replace("\\", "") for w in at.warning)
    at = open_page(off="nonsense", causal="2")
    assert at.warning and not at.exception


def test_shuffle_and_positional_encoding_from_the_url():
    at = open_page(pe="src", shuffle="3")
    shuffled = texts(at)[0]
    assert sorted(shuffled.rstrip(".").split()) == sorted(TEXT.rstrip(".").split()) and shuffled != TEXT
    assert texts(at)[2] == expected_output(Intervention(pe="src", shuffle=3))


@pytest.mark.skipif("minilm-l6" not in MODELS, reason="no encoder-only model here")
def test_an_encoder_only_model_offers_encoder_heads_only_and_explains_why():
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"model": "minilm-l6", "text": "The cat sat on the mat.", "off": "enc.0.0"})
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert {box.key.split("_")[2] for box in at.checkbox} == {"enc"}
    assert len(at.info) >= 2  # the encoder-only explanation and the result notice
    assert not [t for t in at.toggle if t.key == "xp_nocausal"]
    assert at.get("plotly_chart")


def real_importance() -> dict | None:
    return load_importance(ROOT / "models" / "ko-en-toy")


@pytest.mark.skipif(real_importance() is None, reason="models/ko-en-toy/head_importance.json not computed yet")
def test_the_importance_table_ranks_heads_and_its_button_switches_the_top_one_off():
    result = real_importance()
    at = open_page(lang="English")
    table = next(frame.value for frame in at.dataframe if "rank" in frame.value.columns)
    assert table["head"].iloc[0] == result["ranking"][0]
    button = next(b for b in at.button if b.key == "xp_try_top")
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    top = result["ranking"][0]
    assert at.query_params["off"] in (top, [top])
    assert at.checkbox(key="xp_off_" + top.replace(".", "_")).value


@pytest.mark.skipif(real_importance() is None, reason="models/ko-en-toy/head_importance.json not computed yet")
def test_the_heads_page_statistics_table_has_the_importance_column():
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"model": "ko-en-toy", "text": TEXT, "lang": "English"})
    at.switch_page("pages/heads.py").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = next(f.value for f in at.dataframe if "exact-match drop when off (pp)" in f.value.columns)
    drops = {r["id"]: round(100 * r["exact_match_drop"], 1) for r in real_importance()["heads"]}
    assert frame["exact-match drop when off (pp)"].notna().all()
    # Head by head: each row's drop is the one computed for THAT head (a drop shown on the wrong head
    # would pass a comparison of the sorted columns). The kind labels are the English catalog's.
    from explorer.i18n import t
    from transformer_core.tracing.names import AttentionKind

    short = {t(f"kind.{kind}", "en"): kind.short for kind in AttentionKind}
    shown = {f"{short[row['kind']]}.{row['layer']}.{row['head']}": row["exact-match drop when off (pp)"]
             for _, row in frame.iterrows()}
    assert shown.keys() == drops.keys()
    for head, drop in drops.items():
        assert shown[head] == pytest.approx(drop, abs=0.051), head
    assert len(set(drops.values())) > 1  # the heads differ, so a shuffled column would show


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("method", ["mean", "uniform"])
def test_mean_and_uniform_ablation_from_the_url_match_the_core(method):
    from explorer.services import MAX_NEW_TOKENS
    from transformer_core.analysis.head_patches import reference_means
    from transformer_core.analysis.importance import reference_sources
    from transformer_core.tasks import model_task

    loaded = load("ko-en-toy")
    spec = Intervention.from_query(f"off=dec.0.*,cross.1.*&method={method}", n_heads=loaded.config.n_heads)
    means = reference_means(loaded.model, reference_sources(loaded, model_task(loaded)), max_new_tokens=20) \
        if method == "mean" else None
    original = core.trace_text(loaded, TEXT, max_new_tokens=MAX_NEW_TOKENS)
    expected = run_experiment(loaded, TEXT, spec, original, means, max_new_tokens=MAX_NEW_TOKENS).patched
    at = open_page(off="dec.0.*,cross.1.*", method=method)
    assert texts(at)[1] == expected.output_text
    assert at.radio(key="xp_method").value == method
