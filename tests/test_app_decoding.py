"""The decoder page's strategy control: its output is the core's for those settings, and the pictures follow."""

from __future__ import annotations

import html
import json
from functools import cache

import pytest

import transformer_core as core
from tests.requirements_check import needed
from transformer_core.inference.generation import DecodingSettings

streamlit_testing = needed("streamlit.testing.v1")
AppTest = streamlit_testing.AppTest

MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
PAGE = "pages/decoder.py"

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # as app.py runs: one torch thread



@cache
def loaded() -> core.LoadedModel:
    return core.load(MODEL)


def open_decoder(**params: str) -> AppTest:
    at = AppTest.from_file("../app.py", default_timeout=180)  # Korean UI: the strategy labels are Korean
    at.query_params.update({"model": MODEL, "text": TEXT, **params})
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def titles(at: AppTest) -> list[str]:
    return [json.loads(chart.proto.spec)["layout"]["title"]["text"] for chart in at.get("plotly_chart")]


def chart_with_title(at: AppTest, words: str) -> dict:
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    return next(spec for spec in specs if words in spec["layout"]["title"]["text"])


def shown_output(at: AppTest) -> str:
    return at.code[0].value


def test_greedy_is_the_default_and_draws_the_kv_cache():
    at = open_decoder()
    assert at.segmented_control(key="strategy").value == "greedy"
    assert shown_output(at) == core.trace_text(loaded(), TEXT).output_text
    assert any("KV 캐시" in title for title in titles(at))
    assert "strategy" not in at.query_params


def test_sampling_settings_from_the_url_give_the_cores_sample_and_its_distribution():
    at = open_decoder(strategy="sample", temperature="1.5", top_k="4", top_p="0.9", seed="7")
    assert at.segmented_control(key="strategy").value == "sample"
    settings = DecodingSettings("sample", temperature=1.5, top_k=4, top_p=0.9, seed=7)
    expected = core.trace_text(loaded(), TEXT, decoding=settings)
    assert shown_output(at) == (expected.output_text or "(빈 출력: 모델이 바로 끝 토큰을 냈습니다)")
    sampling = [title for title in titles(at) if "샘플링 분포" in title]
    assert sampling == ["단계 0의 샘플링 분포: 원래 → 온도 → 자르기"]
    spec = chart_with_title(at, "샘플링 분포")
    assert spec["layout"]["annotations"][2]["text"] == "top-k 4, top-p 0.9 후"


def test_beam_search_from_the_widget_shows_the_tree_and_lands_in_the_url():
    at = open_decoder()
    at.segmented_control(key="strategy").set_value("beam").run()
    assert not at.exception, [e.value for e in at.exception]
    at.slider(key="beams").set_value(3).run()
    assert at.query_params["strategy"] == "beam"
    expected = core.trace_text(loaded(), TEXT, decoding=DecodingSettings("beam", beam_width=3))
    assert shown_output(at) == expected.output_text
    assert "빔 서치의 가설 나무" in titles(at)
    tree = chart_with_title(at, "가설 나무")
    assert any(trace.get("name") == "최종 출력" for trace in tree["data"])
    at.segmented_control(key="strategy").set_value("greedy").run()
    assert "strategy" not in at.query_params and "빔 서치의 가설 나무" not in titles(at)


def test_sampling_and_beam_search_draw_for_the_other_bundled_model():
    model = "reverse"
    if model not in {info.name for info in core.list_models() if info.available}:
        pytest.skip(f"{model} is not available")
    for params, title in (({"strategy": "sample", "seed": "3"}, "샘플링 분포"), ({"strategy": "beam"}, "가설 나무")):
        at = AppTest.from_file("../app.py", default_timeout=180)
        at.query_params.update({"model": model, "text": "안녕, Seoul!", **params})
        at.switch_page(PAGE).run()
        assert not at.exception, [e.value for e in at.exception]
        shown = titles(at)
        assert any(title in t for t in shown) and any("KV 캐시" in t for t in shown), shown


def test_the_kv_cache_view_follows_its_layer_and_head_pickers():
    at = open_decoder()
    at.segmented_control(key="kv_layer").set_value(1).run()
    at.segmented_control(key="kv_head").set_value(2).run()
    assert not at.exception
    assert "단계 0의 KV 캐시 (층 1, 헤드 2)" in titles(at)


def test_beam_search_opens_with_the_papers_width_and_alpha_and_says_which_penalty():
    at = open_decoder(strategy="beam")
    assert at.slider(key="beams").value == 4 and at.slider(key="length_penalty").value == pytest.approx(0.6)
    assert any("((5 + |Y|) / 6)^α" in caption.value for caption in at.caption)
    expected = core.trace_text(loaded(), TEXT, decoding=DecodingSettings("beam", beam_width=4, length_penalty=0.6,
                                                                        length_rule="gnmt"))
    assert shown_output(at) == expected.output_text


def test_cross_attention_rows_are_the_output_tokens_being_written():
    traced = core.trace_text(loaded(), TEXT)
    at = open_decoder()
    grid = chart_with_title(at, "크로스 어텐션 (출력 × 원문)")
    rows = [html.unescape(label).split("·")[0] for label in grid["data"][0]["y"]]  # plotly labels are escaped
    assert rows == list(traced.chosen_tokens)  # row t writes output token t; the decoder input starts with <s>
    assert rows[0] != traced.tgt_tokens[0]
