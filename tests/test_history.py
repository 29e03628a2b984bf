"""/history (2015 → 2017): the pure figure/number builders of explorer/figures/history.py, and the page under AppTest in
both languages (with the bundled RNN and ko-en-toy)."""

from __future__ import annotations

import base64
import json
import math

import numpy as np
import pytest
import torch

import transformer_core as core
from explorer.figures import history
from transformer_core import Trace, Transformer

from .conftest import tiny_config
from .test_rnn import batch, tiny_rnn

ROOT_MODELS = core.io.loading.models_dir()
HAVE_MODELS = all((ROOT_MODELS / name / "config.json").is_file() for name in ("ko-en-rnn-attention", "ko-en-toy"))

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # as app.py runs: one torch thread


class OneBatch:
    """A trace seen through Trace.numpy(name) for batch element 0 (what the page passes)."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace

    def __contains__(self, name: str) -> bool:
        return name in self.trace

    def numpy(self, name: str) -> np.ndarray:
        return self.trace.numpy(name)


def test_additive_score_rebuilt_from_the_trace_equals_the_recorded_score_at_every_cell():
    model = tiny_rnn()
    src, tgt = batch()
    trace = model.trace(src[:1], tgt[:1])
    v = model.rnn.attn.v.weight.detach().numpy()
    for step in range(tgt.shape[1]):
        for source in range(src.shape[1]):
            score = history.additive_score(trace, v, step, source)
            assert math.isclose(score.score, score.recorded, rel_tol=1e-4, abs_tol=1e-5)
            assert score.query.shape == (5,) and score.key_state.shape == (12,) and score.state.shape == (6,)
            assert math.isclose(score.weight, float(trace["rnn.attn.weights"][0, step, source]), rel_tol=1e-6)
    first, later = history.additive_score(trace, v, 0, 1), history.additive_score(trace, v, 2, 1)
    np.testing.assert_allclose(first.state, trace["rnn.decoder.init"][0].numpy())  # s_init before step 0
    np.testing.assert_allclose(later.state, trace["rnn.decoder.states"][0, 1].numpy())  # s_1 before step 2
    latex = history.additive_latex(later)
    assert r"v^\top \tanh" in latex and "s_{1}" in latex and r"\mathbb{R}^{5}" in latex
    assert f"{later.score:.3f}" in latex and f"{later.recorded:.3f}" in latex
    assert r"s_{\mathrm{init}}" in history.additive_latex(first)
    assert "트레이스:" in history.additive_latex(later, "ko") and "trace:" not in history.additive_latex(later, "ko")


def test_dot_score_rebuilt_from_q_and_k_equals_the_recorded_cross_attention_score():
    torch.manual_seed(0)
    model = Transformer(tiny_config())
    trace = model.trace(torch.tensor([[4, 5, 6, 2]]), torch.tensor([[1, 7, 8]]))
    for head in range(2):
        score = history.dot_score(trace, 1, head, 2, 3)
        assert math.isclose(score.score, score.recorded, rel_tol=1e-4, abs_tol=1e-5)
        assert score.q.shape == (8,)
        assert math.isclose(score.weight, float(trace["decoder.1.cross_attn.weights"][0, head, 2, 3]), rel_tol=1e-6)
    latex = history.dot_latex(score)
    assert r"\sqrt{d_k}" in latex and f"{score.score:.3f}" in latex and "head 1" in latex
    # issue 50 Korean 4: the equation's words in the page's language (were English in the Korean UI)
    korean = history.dot_latex(score, "ko")
    assert "1층, 헤드 1" in korean and "트레이스:" in korean and "layer" not in korean and "trace:" not in korean


def test_alignment_readers_tell_the_two_architectures_apart():
    rnn_trace = tiny_rnn().trace(*batch())
    assert history.is_rnn_trace(rnn_trace)
    assert history.rnn_alignment(rnn_trace).shape == (4, 5)
    transformer_trace = Transformer(tiny_config()).trace(torch.tensor([[4, 5, 2]]), torch.tensor([[1, 6]]))
    assert not history.is_rnn_trace(transformer_trace)
    assert history.cross_attention(transformer_trace, 1).shape == (2, 2, 3)


def test_step_counts_follow_the_recurrence_and_the_layers():
    counts = history.step_counts(n_src_rnn=9, n_tgt_rnn=8, n_tgt_transformer=8, n_encoder_layers=2,
                                 n_decoder_layers=2)
    assert (counts.rnn_forward, counts.rnn_generate) == (17, 17)
    assert (counts.transformer_forward, counts.transformer_generate) == (4, 2 + 8 * 2)
    figure = history.steps_figure(counts, lang="en")
    assert [bar["y"] for bar in figure.to_dict()["data"]] == [(17, 17), (4, 18)] or \
        [list(bar["y"]) for bar in figure.to_dict()["data"]] == [[17, 17], [4, 18]]
    run = history.ModelRun("m", "out", 9, 8, 17, 17, 0.0123, 0.5, 1000)
    table = history.runs_table([run], lang="ko")
    assert table.iloc[0].tolist() == ["m", "out", "S 9 · T 8", 17, 17, 12.3, 500.0, "1,000"]


# ------------------------------------------------------------------------------------------------
# The page

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

streamlit_testing = needed("streamlit.testing.v1")
needs_models = pytest.mark.skipif(not HAVE_MODELS, reason="needs models/ko-en-rnn-attention and models/ko-en-toy")
APP = str(core.io.loading.REPO_ROOT / "app.py")
ISSUE_SENTENCE = "고양이가 공원에서 생선을 먹었다."



def open_history(**params: str):
    at = streamlit_testing.AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/history.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart_specs(at) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def matrix(z) -> np.ndarray:
    """A heatmap's z from the figure JSON: plotly writes numpy arrays as {dtype, bdata (base64), shape}."""
    if isinstance(z, dict):
        shape = tuple(int(n) for n in str(z["shape"]).split(","))
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"])).reshape(shape)
    return np.asarray(z, dtype=np.float32)


@needs_models
@pytest.mark.parametrize("lang", ["한국어", "English"])
def test_history_page_shows_both_alignments_both_formulas_and_the_steps(lang):
    at = open_history(text=ISSUE_SENTENCE, lang=lang)
    assert not at.error, [e.value for e in at.error]
    english = lang == "English"
    assert at.title[0].value.startswith("2015 → 2017")
    assert ("what changed" in at.subheader[-1].value) == english
    specs = chart_specs(at)
    assert len(specs) == 4  # RNN alignment, Transformer average, Transformer heads, sequential steps
    rnn_map, average = specs[0]["data"][0], specs[1]["data"][0]
    rnn = core.trace_text(core.load("ko-en-rnn-attention"), ISSUE_SENTENCE, max_new_tokens=48)
    toy = core.trace_text(core.load("ko-en-toy"), ISSUE_SENTENCE, max_new_tokens=48)
    np.testing.assert_allclose(matrix(rnn_map["z"]), rnn.trace.numpy("rnn.attn.weights"),
                               atol=1e-6)
    last = toy.trace.n_layers("decoder") - 1
    np.testing.assert_allclose(matrix(average["z"]),
                               toy.trace.numpy(f"decoder.{last}.cross_attn.weights").mean(axis=0), atol=1e-6)
    assert len(specs[2]["data"]) == toy.trace["decoder.0.cross_attn.weights"].shape[1]  # one panel per head
    latex = [element.value for element in at.get("latex")]
    assert len(latex) == 2 and r"v^\top \tanh" in latex[0] and r"\sqrt{d_k}" in latex[1]
    outputs = [block.value for block in at.code]
    assert outputs == [rnn.output_text, toy.output_text]
    steps = specs[3]["data"]
    n_src, n_tgt = len(rnn.src_tokens), len(rnn.tgt_tokens)
    assert list(steps[0]["y"]) == [n_src + n_tgt, n_src + n_tgt]
    assert list(steps[1]["y"])[:1] == [2 * last + 2]
    table = at.dataframe[0].value
    assert len(table) == 2


@needs_models
def test_history_page_with_a_non_translator_in_the_sidebar_explains_and_compares_ko_en_toy():
    at = open_history(text="고양이가 생선을 먹었다.", model="reverse", lang="English")
    assert any("not a Korean → English translator" in info.value for info in at.info)
    assert len(chart_specs(at)) == 4
    assert at.code[1].value == core.trace_text(core.load("ko-en-toy"), "고양이가 생선을 먹었다.",
                                               max_new_tokens=48).output_text


@needs_models
def test_history_page_on_empty_and_unknown_input_gives_messages_not_errors():
    at = open_history(text=" ", lang="English")
    assert at.info and not at.get("plotly_chart")
    assert "what changed" in at.subheader[-1].value  # the history text stands without a sentence
    at = open_history(text="qwzx 😀 <b>", lang="English")
    assert not at.error and len(chart_specs(at)) == 4


def test_the_first_step_shown_peaks_on_a_source_word_not_on_the_end_token():
    alignment = np.array([[0.1, 0.1, 0.8],    # peaks on </s> (the last source token)
                          [0.6, 0.3, 0.1],    # a word, 0.6
                          [0.05, 0.9, 0.05],  # a word, 0.9: shown first
                          [0.0, 0.0, 1.0]])
    assert history.telling_step(alignment) == 2
    assert history.telling_step(np.array([[0.2, 0.8], [0.1, 0.9]])) == 0  # every row on </s>: the first step
