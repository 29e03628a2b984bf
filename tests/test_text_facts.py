"""What the text says is true for the model shown and for the paper: the layer order a page names is the model's
(post-LN ko-en-toy, pre-LN reverse with a final LayerNorm), the glossary's definitions match the lesson's, and
the numbers the text quotes are computed here from the formula, not copied."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import transformer_core as core
from explorer import lesson_service
from explorer.figures.steps import LayerInfo, encoder_chain
from explorer.glossary import TERMS
from explorer.i18n import t
from tests.requirements_check import needed

ROOT = Path(__file__).resolve().parent.parent
AVAILABLE = {info.name for info in core.list_models() if info.available}
# (model, its config file says pre-LN with a final LayerNorm)
LAYER_ORDERS = [("ko-en-toy", False), ("reverse", True)]

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def model_config(name: str) -> dict:
    return json.loads((ROOT / "models" / name / "config.json").read_text(encoding="utf-8"))


@cache
def loaded(name: str) -> core.LoadedModel:
    if name not in AVAILABLE:
        pytest.skip(f"{name} is not available here")
    return core.load(name)


def term(en: str):
    return next(x for x in TERMS if x.en == en)


@pytest.mark.parametrize(("model", "pre_ln"), LAYER_ORDERS)
def test_the_models_config_says_which_layer_order_the_text_must_name(model: str, pre_ln: bool):
    cfg = model_config(model)
    assert cfg["norm_first"] is pre_ln and cfg["final_norm"] is pre_ln


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("model", "pre_ln"), LAYER_ORDERS)
def test_the_encoder_pages_step_titles_name_the_models_layer_order(model: str, pre_ln: bool, lang: str):
    loaded_model = loaded(model)
    cfg = loaded_model.config
    traced = core.trace_text(loaded_model, "abc" if model == "reverse" else "고양이가 생선을 먹었다.")
    info = LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation)
    titles = [t(step.key, lang) for step in encoder_chain(traced.trace, 0, 0, 1, 0, info)]
    norm_titles = [title for title in titles if "Add & Norm" in title or "LayerNorm" in title]
    assert len(norm_titles) == 2, titles
    for title in norm_titles:
        if pre_ln:  # x + Sublayer(LayerNorm(x)): there is no "Add & Norm" after the sublayer
            assert "pre-LN" in title and "Add & Norm" not in title, title
        else:
            assert "Add & Norm" in title and "pre-LN" not in title, title


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("model", "pre_ln"), LAYER_ORDERS)
def test_the_overviews_layer_boxes_name_the_models_layer_order(model: str, pre_ln: bool, lang: str):
    from streamlit.testing.v1 import AppTest

    loaded(model)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["model"] = model
    at.query_params["text"] = "abc" if model == "reverse" else "고양이가 생선을 먹었다."
    at.query_params["lang"] = "English" if lang == "en" else "한국어"
    at.run()
    at.switch_page("pages/overview.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = "\n".join(m.value for m in at.markdown)
    boxes = [line for line in shown.splitlines() if line.startswith("**") and ("× 2" in line)]
    assert len(boxes) == 2, shown  # the encoder's and the decoder's layer boxes (2 layers each)
    for box in boxes:
        assert ("pre-LN" in box) is pre_ln and ("post-LN" in box) is not pre_ln, box
        assert ("LayerNorm" in box) if pre_ln else ("Add & Norm" in box), box
    final = t("overview.final_norm", lang)
    assert all((final in box) is pre_ln for box in boxes), boxes


def test_the_glossary_defines_alignment_as_the_gold_correspondence_not_the_attention_peak():
    alignment = term("alignment")
    assert "gold alignment" in alignment.en_def and "alignment accuracy" in alignment.en_def
    assert "peak" not in alignment.en_def and "최댓값" not in alignment.ko_def
    assert "정답 정렬" in alignment.ko_def and "정렬 정확도" in alignment.ko_def


def test_the_glossary_gives_no_paper_section_to_words_the_paper_does_not_use():
    for name in ("teacher forcing", "cross-entropy"):
        assert term(name).section == "", name


def test_label_smoothing_is_defined_alike_in_the_glossary_and_the_lesson():
    """(1 − ε) on the right token plus ε/V on every token of the vocabulary: the right token's target is 1 − ε + ε/V
    (issue 50: '0.9 on the right token, the other 0.1 spread ... the right token included' contradicted itself)."""
    smoothing = term("label smoothing")
    assert "1 − ε_ls + ε_ls/V" in smoothing.en_def and "1 − ε_ls + ε_ls/V" in smoothing.ko_def
    for lang in ("en", "ko"):
        text = t("lesson.training.body", lang, n=9, ce="1", smooth="2")
        assert "0.9 + 0.1/V" in text and "0.1/V" in text.replace("0.9 + 0.1/V", ""), text
        assert "the right token included" not in text and "정답을 포함한" not in text


def test_the_scaling_step_states_the_independence_var_qk_needs():
    assert "independent" in t("lesson.scaling.body", "en", d_k=64, sqrt="8.0", top="0.5", top_raw="0.9")
    assert "독립" in t("lesson.scaling.body", "ko", d_k=64, sqrt="8.0", top="0.5", top_raw="0.9")


def test_step_7_writes_one_querys_scores_as_q_times_k_transposed():
    for lang in ("ko", "en"):
        assert "q·Kᵀ" in t("lesson.scores.title", lang) and "Q·K" not in t("lesson.scores.title", lang)


def test_both_pages_show_entropy_in_bits_and_name_the_unit_alike():
    """/heads computes bits; /corpus gets nats from the core and shows bits: a uniform row over 4 keys is 2 bits."""
    import math

    import numpy as np

    from explorer.figures import head_stats
    from explorer.figures.corpus import stats_frame

    uniform = np.full((3, 4), 0.25)
    assert head_stats.entropy(uniform) == pytest.approx(2.0)
    row = {"label": "enc L0 H0", **{s: 0.0 for s in ("diagonal", "previous", "next", "first", "last", "aligned")},
           "entropy": math.log(4)}  # what the core reports for the same row, in nats
    columns = {"head": "head", "group": "group", **{s: s for s in ("diagonal", "previous", "next", "first", "last",
                                                                    "aligned", "entropy")}}
    assert stats_frame([row], columns, ["mixed"]).loc[0, "entropy"] == pytest.approx(2.0)
    for lang in ("ko", "en"):
        assert t("corpus.stat.entropy", lang) == t("stat.entropy", lang)


def test_both_pages_name_head_similarity_one_minus_the_jensen_shannon_distance():
    import numpy as np

    from explorer.figures import head_stats

    p, q = np.array([[1.0, 0.0]]), np.array([[0.5, 0.5]])
    m = (p + q) / 2
    kl = lambda a, b: float(sum(x * np.log2(x / y) for x, y in zip(a[0], b[0], strict=True) if x > 0))  # noqa: E731
    distance = np.sqrt(0.5 * kl(p, m) + 0.5 * kl(q, m))
    assert head_stats.similarity_matrix(np.stack([p, q]))[0, 1] == pytest.approx(1 - distance, abs=1e-6)
    assert "Jensen–Shannon distance" in t("heads.similarity", "en", kind="x")
    assert "JS distance" in t("corpus.alike_fig", "en")
    assert "Jensen–Shannon 거리" in t("heads.similarity", "ko", kind="x") and "JS 거리" in t("corpus.alike_fig", "ko")


def test_the_english_nav_name_of_heads_is_its_title():
    assert t("nav.heads", "en") == t("heads.title", "en")
    assert t("nav.heads", "ko") == t("heads.title", "ko")


def test_the_guide_writes_unknown_tokens_as_the_app_does():
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    assert "[UNK]" not in guide and "<unk>" in guide


def test_step_7_does_not_give_its_quizs_answer_away():
    """The question asks for one head's Q shape [s, d_k]; the body must not state d_k's value."""
    for lang in ("ko", "en"):
        body = t("lesson.scores.body", lang, token="x", d_k=64)
        assert "64" not in body, body


def test_paper_bases_count_is_the_formula_and_the_text_quotes_it():
    """The paper's base model (Table 3: d_model 512, h 8, N 6, d_ff 2048; a shared vocabulary of 37,000),
    counted by hand: per encoder layer two sublayers, per decoder layer three, a LayerNorm each."""
    from transformer_core.models.config import parameter_count

    d, d_ff, n_layers, vocab = 512, 2048, 6, 37_000
    attention = 4 * (d * d + d)  # W_Q, W_K, W_V, W_O with biases
    ffn = d * d_ff + d_ff + d_ff * d + d
    layer_norm = 2 * d  # γ and β
    encoder = n_layers * (attention + ffn + 2 * layer_norm)
    decoder = n_layers * (2 * attention + ffn + 3 * layer_norm)
    embedding = vocab * d  # shared by both embeddings and the output layer (section 3.4)
    output_bias = vocab
    by_hand = embedding + encoder + decoder + output_bias
    assert by_hand == 63_119_496
    assert parameter_count(core.TransformerConfig()) == by_hand
    assert core.model_parameters(core.Transformer(core.TransformerConfig())) == by_hand
    assert core.PAPER_PARAMETERS["base"] == 65_000_000  # Table 3 as printed
    for name in ("ko-en-toy", "reverse"):  # the formula holds for the bundled models (pre-LN's final norms too)
        assert parameter_count(loaded(name).config) == core.model_parameters(loaded(name).model), name
    shown = t("overview.params_paper", "en", d=256, h=4, dff=768, layers="2+2", vocab="5,692",
              paper=f"{by_hand:,}", gap=f"{65_000_000 - by_hand:,}", rows=f"{(65_000_000 - by_hand) // (d + 1):,}")
    assert "63,119,496" in shown and "1,880,504 fewer than Table 3's 65 M" in shown and "3,665" in shown
    assert "63.1 M" in term("parameter").en_def and "6310만" in term("parameter").ko_def


def test_table_1_has_its_four_rows_with_restricted_self_attention():
    from explorer.figures.lesson.paper import table1

    n, d, r = 12, 256, 4
    table = table1(n, d, "en", r=r)
    assert len(table) == 4
    restricted = table.iloc[3]
    assert "restricted" in restricted.iloc[0] and restricted.iloc[1] == "O(r·n·d)"
    assert restricted.iloc[2] == f"{r * n * d:,}" and restricted.iloc[4] == "O(n/r)" and restricted.iloc[5] == 3


def test_the_lesson_quotes_the_papers_results_and_optimizer():
    body = t("lesson.full_picture.body", "en", n=48)
    for fact in ("27.3", "28.4", "38.1", "41.8", "100,000 steps", "12 hours", "8 P100"):
        assert fact in body, fact
    training = t("lesson.training.body", "en", n=9, ce="1", smooth="2")
    for fact in ("β₁ 0.9", "β₂ 0.98", "ε 10⁻⁹", "hurts perplexity", "big English→German model used 0.3"):
        assert fact in training, fact
    ko_training = t("lesson.training.body", "ko", n=9, ce="1", smooth="2")
    for fact in ("β₁ 0.9", "β₂ 0.98", "ε 10⁻⁹", "퍼플렉시티", "0.3"):
        assert fact in ko_training, fact
    # the bundled models' training, folded under the text: the same Adam, and the full-softmax stage (issue 48)
    assert "the same Adam and label smoothing, no dropout" in t("lesson.training.more", "en")
    assert "full softmax and no label smoothing" in t("lesson.training.more", "en")
    ko_more = t("lesson.training.more", "ko")
    assert "드롭아웃 없이" in ko_more and "레이블 스무딩 없이" in ko_more


def test_the_english_text_keeps_one_spelling_british():
    import re

    from explorer.i18n import CATALOGS, forms

    american = re.compile(r"tokeniz|normaliz|\bcolor|behavior|neighbor|\bfavor|analyz|summariz|\bcenter\b|"
                          r"initializ|recogniz|\bgray\b", re.IGNORECASE)
    texts = [text for entry in CATALOGS["en"].values() for text in forms(entry)]
    texts += [x.en for x in TERMS] + [x.en_def for x in TERMS]
    found = sorted({m.group(0) for text in texts for m in american.finditer(text)})
    assert not found, found
    assert any("colour" in text for text in texts) and any("behaviour" in text for text in texts)


def test_student_text_tells_no_history_of_the_project():
    from explorer.i18n import CATALOGS, forms

    for lang, words in (("en", ("the old ", "used to know", "previous version")), ("ko", ("예전 어휘", "이전 버전"))):
        for key, entry in CATALOGS[lang].items():
            for text in forms(entry):
                assert not any(word in text for word in words), (lang, key)


def test_english_counts_that_can_be_one_have_a_singular_form():
    assert t("vocab.unknown_notice", "en", n=1, total=5).startswith("1 of 5 words is unknown")
    assert t("vocab.unknown_notice", "en", n=2, total=5).startswith("2 of 5 words are unknown")
    assert "|Y| = 1 token," in t("lesson.decoding.body", "en", n=1, logp="-1", score="-1")
    assert "over 1 position (" in t("lesson.training.body", "en", n=1, ce="1", smooth="2")


@pytest.mark.parametrize(("model", "text"), [("ko-en-toy", "고양이가 생선을 먹었다."), ("reverse", "hello")])
def test_steps_18_and_19_write_the_logits_formula_alike(model: str, text: str):
    """Both steps say '+ b' exactly when the model has an output bias (both bundled models do)."""
    from explorer.figures import lesson

    loaded_model = loaded(model)
    data = lesson_service.lesson_data(core.trace_text(loaded_model, text), loaded_model, text)
    steps = {s.id: s for s in lesson.lesson_steps()}
    next_token = lesson.build_step(steps["next_token"], data, "en").latex
    shared = lesson.build_step(steps["shared_weights"], data, "en").latex
    has_bias = getattr(loaded_model.model.lm_head, "bias", None) is not None
    assert has_bias  # the bundled models keep lm_head's bias
    assert ("W^\\top + b" in next_token) is has_bias and ("E^\\top + b" in shared) is has_bias, (next_token, shared)


def test_the_english_glossary_holds_no_korean_beyond_each_terms_korean_word():
    import re

    for term_ in TERMS:
        assert not re.search(r"[\uac00-\ud7a3]", term_.en + term_.en_def), term_.en


def test_the_glossarys_own_definitions_use_the_glossarys_words():
    from explorer.glossary import VARIANTS

    found = []
    for term_ in TERMS:
        if term_.en == "unknown token":  # its definition names BERT's own spelling, [UNK], on purpose
            continue
        for lang, wrong, right in VARIANTS:
            text = term_.ko + " " + term_.ko_def if lang == "ko" else term_.en + " " + term_.en_def
            if wrong in text:
                found.append(f"{term_.en}: '{wrong}' -> '{right}'")
    assert not found, found


def test_the_ffn_step_names_every_activation_a_model_can_have():
    """Marian's checkpoints use SiLU (swish): the lesson's FFN step looks up lesson.ffn.<activation>."""
    import typing

    from transformer_core.models.config import TransformerConfig

    activations = typing.get_args(typing.get_type_hints(TransformerConfig)["activation"])
    assert set(activations) == {"relu", "gelu", "silu"}
    for activation in activations:
        for lang in ("ko", "en"):
            text = t(f"lesson.ffn.{activation}", lang)
            name = {"relu": "ReLU", "gelu": "GELU", "silu": "SiLU"}[activation]
            assert name in text, (activation, lang, text)


def test_the_english_agreement_line_reads_as_english():
    """Issue 30 item 5: "rank the same source token first as attention does" is not English."""
    text = t("explain.agree_row", "en", agree=2, total=3)
    assert "first as attention does" not in text
    assert "attention's top source token" in text


def test_the_lab_has_one_korean_name():
    """The nav calls it 실험실; 실습실 is a second name for the same page."""
    from explorer.i18n import CATALOGS

    assert not [k for k, v in CATALOGS["ko"].items() if "실습실" in json.dumps(v, ensure_ascii=False)]


def test_the_speech_level_ratio_has_one_name_in_each_language():
    """The figure's axis, the final scores and the stopped scores name the same measure alike."""
    assert "가장 크게 보는" in t("fig.lab.cls_ending", "ko")
    assert "가장 크게 보는" in t("lab.stopped_scores_classifier", "ko", n=1, exact=0.5, align=0.5)
    assert "peaks on the verb ending" in t("lab.stopped_scores_classifier", "en", n=1, exact=0.5, align=0.5)


def test_the_behaviour_caption_names_masked_self_attention_as_the_glossary_does():
    assert "masked self-attention" in t("corpus.behaviours_caption", "en")
    assert "decoder self-attention" not in t("corpus.behaviours_caption", "en")


def test_the_docs_name_the_speech_levels_as_school_grammar_and_the_ui_do():
    """문체 is style, not speech level; 합쇼체 is not the school-grammar name (하십시오체), as in the glossary."""
    for doc in ("guide.md", "speech_level_classifier.md"):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        assert "문체" not in text and "합쇼체" not in text, doc
        assert "높임 등급 분류" in text and "하십시오체" in text, doc


def test_the_guide_says_the_beam_tree_is_not_drawn_from_the_recorded_pass():
    text = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    assert "every picture comes from ONE recorded" not in text
    assert "except the beam search tree" in text


def test_the_docs_name_the_lessons_ffn_activation_for_every_model_family():
    text = (ROOT / "docs" / "lesson.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| ") and "| ffn |" in line)
    assert all(name in row for name in ("ReLU", "GELU", "SiLU")), row


def test_the_explain_page_says_the_gradient_times_the_input_is_summed_not_the_gradient():
    """attribution.py sums gradient · embedding over D (ig and gxi); the raw gradient summed over D is no method."""
    import inspect

    from transformer_core.analysis import attribution

    source = inspect.getsource(attribution)
    assert "(g_all[:, steps] * real).sum(-1)" in source  # gradient × input, summed over the embedding dimension
    assert "미분한 뒤 임베딩 차원에 걸쳐 더한" not in t("explain.baseline", "ko")
    assert "곱하고" in t("explain.baseline", "ko")
    assert "by the embeddings themselves" in t("explain.baseline", "en")
    for lang, word in (("ko", "기여도"), ("en", "attribution")):
        assert word in t("explain.methods_caption", lang), lang


def test_the_training_step_says_which_number_is_the_smoothed_loss():
    assert "스무딩한 손실은 1.234입니다" in t("lesson.training.body", "ko", n=5, ce="1.000", smooth="1.234")
    assert "the smoothed loss here is 1.234" in t("lesson.training.body", "en", n=5, ce="1.000", smooth="1.234")


def test_the_glossary_puts_a_pre_ln_layernorm_before_the_sublayer_not_an_add_and_norm():
    sublayer = term("sublayer")
    assert "뒤(또는 앞)에 Add & Norm" not in sublayer.ko_def
    for text in (sublayer.ko_def, sublayer.en_def):
        assert "pre-LN" in text and "post-LN" in text, text


def test_the_glossary_does_not_say_every_figure_comes_from_the_trace():
    """The beam search tree is drawn from the beam search's records (dec.steps_caption), not from the trace."""
    trace = term("trace")
    assert "앱의 그림은 모두" not in trace.ko_def and "every figure" not in trace.en_def
    assert "빔 서치" in trace.ko_def and "beam search" in trace.en_def


def test_the_glossary_keeps_step_for_steps_not_for_layers():
    assert "단계" not in term("layer").ko_def


def test_the_history_maps_come_from_the_teacher_forced_pass_over_the_translations():
    """trace_text generates, then records one teacher-forced pass over the output (inference/text.py)."""
    assert "teacher-forced pass over the translations" in t("hist.alignments_caption", "en")
    assert "teacher forcing" in t("hist.alignments_caption", "ko")


def test_every_lesson_step_builds_for_a_marian_checkpoint_and_names_its_silu(tmp_path):
    """A Marian checkpoint (activation swish = SiLU) walks every step; the FFN step names SiLU, not ReLU."""
    needed("sentencepiece")
    from explorer.figures import lesson
    from tests.hf_checkpoints import save_marian

    save_marian(tmp_path / "marian")
    model = core.load(str(tmp_path / "marian"))
    assert model.config.activation == "silu"
    data = lesson_service.lesson_data(core.trace_text(model, "hello world"), model, "hello world")
    views = {s.id: lesson.build_step(s, data, "en") for s in lesson.lesson_steps()}
    assert len(views) == len(lesson.lesson_steps()) == 23
    assert t("lesson.ffn.silu", "en") in views["ffn"].body


# ------------------------------------------------------------------------------------------------
# Issue 50: the /encoder chain and the lesson's projections follow the model's layer order


def _layer0(model: str, text: str):
    import numpy as np

    loaded_model = loaded(model)
    cfg = loaded_model.config
    traced = core.trace_text(loaded_model, text)
    info = LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation)
    state = {k: v.detach().cpu().double().numpy() for k, v in loaded_model.model.state_dict().items()
             if k.startswith("encoder.layers.0.")}
    return loaded_model, traced, info, state, np


@pytest.mark.parametrize(("model", "pre_ln"), LAYER_ORDERS)
def test_the_chains_projection_reads_what_the_model_projects(model: str, pre_ln: bool):
    """q recomputed here from the weights: from LayerNorm(x) (pre-LN, computed here from x, γ, β) or from x
    (post-LN) it equals the traced q; the chain's equation names that input and shows LN(x)'s numbers."""
    loaded_model, traced, info, w, np = _layer0(model, "abc" if model == "reverse" else "고양이가 생선을 먹었다.")
    trace = traced.trace
    x = trace.numpy("encoder.0.in").astype(np.float64)
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    ln = (x - mu) / np.sqrt(var + loaded_model.config.layer_norm_eps) * w["encoder.layers.0.sublayer1.norm.weight"] \
        + w["encoder.layers.0.sublayer1.norm.bias"]
    projected_input = ln if pre_ln else x
    q = projected_input @ w["encoder.layers.0.self_attn.w_q.weight"].T + w["encoder.layers.0.self_attn.w_q.bias"]
    s, h, d_k = x.shape[0], info.n_heads, info.d_model // info.n_heads
    traced_q = trace.numpy("encoder.0.self_attn.q").astype(np.float64).transpose(1, 0, 2).reshape(s, h * d_k)
    assert np.abs(q - traced_q).max() < 1e-3
    if pre_ln:  # the error the issue found: the layer input itself does not give q
        wrong = x @ w["encoder.layers.0.self_attn.w_q.weight"].T + w["encoder.layers.0.self_attn.w_q.bias"]
        assert np.abs(wrong - traced_q).max() > 0.5
    i = 1
    chain = {step.key: step for step in encoder_chain(trace, 0, 0, i, 0, info)}
    qkv = chain["step.qkv"].latex
    if pre_ln:
        assert r"Q = \hat XW^Q" in qkv and r"\hat X = \text{LayerNorm}(X)" in qkv, qkv
        norm = chain["step.x_pre"].latex  # the input step also shows the LayerNorm the projections read
        assert "encoder.0.norm1" in chain["step.x_pre"].trace_names and len(chain) == 12
        for value in ln[i, :4]:
            assert f"{value:.3f}" in norm, (value, norm)
        assert f"{float(x[i].mean()):.3f}" in norm and f"{float(x[i].std()):.3f}" in norm
    else:
        assert "Q = XW^Q" in qkv and "LayerNorm" not in qkv and "step.x_pre" not in chain
    for value in q[i, :4]:  # the row of Q the equation shows is the traced one
        assert f"{value:.3f}" in qkv


@pytest.mark.parametrize(("model", "pre_ln"), LAYER_ORDERS)
def test_the_lessons_multihead_and_qkv_steps_name_the_projected_input(model: str, pre_ln: bool):
    from explorer.figures import lesson

    loaded_model = loaded(model)
    text = "abc" if model == "reverse" else "고양이가 생선을 먹었다."
    data = lesson_service.lesson_data(core.trace_text(loaded_model, text), loaded_model, text)
    steps = {s.id: s for s in lesson.lesson_steps()}
    ids = [s.id for s in lesson.lesson_steps()]
    assert ids.index("qkv") == ids.index("scores") - 1  # the projections come right before the scores
    multihead = lesson.build_step(steps["multihead"], data, "en").latex
    assert (r"\hat XW_i^Q" in multihead) is pre_ln and ("(XW_i^Q" in multihead) is not pre_ln
    for lang in ("ko", "en"):
        view = lesson.build_step(steps["qkv"], data, lang)
        assert (t("lesson.qkv.pre_ln", lang) in view.body) is pre_ln
        assert (t("lesson.qkv.post_ln", lang) in view.body) is not pre_ln
        d, h = data.info.d_model, data.info.n_heads
        assert f"[{data.n_src}, {d // h}]" in view.body and f"{d}×{d}" in view.body
