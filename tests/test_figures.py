"""Pure figure builders, token helpers and the equation chain: real arrays in, checked figures out."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer import tokenizer_service
from explorer.figures import attention, figures, steps, tables, tokenization
from tests import parity_checks as checks
from tests.conftest import TINY_WORDS, build_word_tokenizer
from transformer_core.tracing.names import ATTENTION_KINDS, AttentionKind, Head

ROOT = Path(__file__).resolve().parent.parent


def heatmaps(fig: go.Figure) -> list[go.Heatmap]:
    return [trace for trace in fig.data if trace.type == "heatmap"]


def softmax_rows(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def random_maps() -> np.ndarray:
    rng = np.random.default_rng(0)
    return softmax_rows(rng.normal(size=(4, 5, 5)))


# ------------------------------------------------------------------------------------------------ structure

def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    return names


def test_viz_never_imports_streamlit():
    for path in sorted((ROOT / "explorer" / "figures").glob("*.py")):
        assert "streamlit" not in imported_modules(path), path.name


def test_tokenization_helper_is_core_free():
    helper = ROOT / "explorer" / "figures" / "tokenization.py"
    assert not imported_modules(helper) & {"transformer_core", "torch", "streamlit"}


# ------------------------------------------------------------------------------------------------ labels

def test_unique_labels_keep_repeated_tokens_apart():
    labels = figures.unique_labels(["the", "cat", "the", " ", "", "the"])
    assert labels == ["the·0", "cat", "the·2", "␣", "∅", "the·5"]
    assert len(set(labels)) == len(labels)


def test_unique_labels_escape_plotly_markup_and_never_collide():
    assert figures.unique_labels(["<s>", "</s>", "a&b"]) == ["&lt;s&gt;", "&lt;/s&gt;", "a&amp;b"]
    assert figures.unique_labels(["<s>"], escape=False) == ["<s>"]
    tricky = figures.unique_labels(["x", "x·1", "x"])  # a token that looks like a generated label
    assert len(set(tricky)) == 3


def test_heatmap_axes_keep_repeated_tokens_apart():
    checks.check_heatmap_axes_keep_repeated_tokens_apart()


# ------------------------------------------------------------------------------------------------ heatmaps

def test_attention_heatmap_is_one_labelled_categorical_heatmap(random_maps):
    tokens = ["고양이가", "the", "cat", "the", "</s>"]
    fig = figures.attention_heatmap(random_maps[0], tokens, tokens, title="t", lang="en")
    (trace,) = heatmaps(fig)
    assert list(trace.x) == figures.unique_labels(tokens)
    assert list(trace.y) == figures.unique_labels(tokens)
    assert np.asarray(trace.z).dtype == np.float32
    np.testing.assert_allclose(np.asarray(trace.z), random_maps[0])
    assert fig.layout.xaxis.type == "category" and fig.layout.yaxis.type == "category"
    assert fig.layout.yaxis.autorange == "reversed"  # first query on top
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    assert "%{z" in trace.hovertemplate and "%{x}" in trace.hovertemplate and "%{y}" in trace.hovertemplate


def test_minus_infinity_becomes_a_gap_whose_hover_says_so():
    scores = np.array([[0.5, -np.inf], [0.1, 0.2]], dtype=np.float32)
    fig = figures.attention_heatmap(scores, ["a", "b"], ["a", "b"], title="t", lang="ko", diverging=True)
    (trace,) = heatmaps(fig)
    z = np.asarray(trace.z)
    assert np.isnan(z[0, 1]) and z[0, 0] == pytest.approx(0.5)
    assert trace.text[0][1] == "−∞"
    assert "%{text}" in trace.hovertemplate
    assert trace.zmid == 0.0


def test_big_maps_get_no_per_cell_text(random_maps):
    big = softmax_rows(np.random.default_rng(1).normal(size=(60, 60)))
    tokens = [f"w{i}" for i in range(60)]
    (trace,) = heatmaps(figures.attention_heatmap(big, tokens, tokens, title="t", lang="en"))
    assert trace.text is None and not trace.texttemplate
    (small,) = heatmaps(figures.attention_heatmap(random_maps[0], list("abcde"), list("abcde"), title="t", lang="en"))
    assert small.texttemplate  # small maps show their values in the cells


def test_heads_grid_is_one_figure_with_one_heatmap_per_head(random_maps):
    tokens = ["a", "b", "c", "d", "e"]
    fig = figures.heads_grid(random_maps, tokens, tokens, title="layer 0", lang="ko")
    traces = heatmaps(fig)
    assert len(traces) == 4
    assert all(t.coloraxis == "coloraxis" for t in traces)
    assert fig.layout.coloraxis.cmin == 0.0 and fig.layout.coloraxis.cmax == 1.0
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:4] == ["헤드 0", "헤드 1", "헤드 2", "헤드 3"]
    for index, trace in enumerate(traces):
        np.testing.assert_allclose(np.asarray(trace.z), random_maps[index])


def test_masking_steps_shows_mask_scores_masked_and_weights():
    t = 4
    causal = np.tril(np.ones((t, t), dtype=bool))
    scores = np.random.default_rng(2).normal(size=(t, t)).astype(np.float32)
    masked = np.where(causal, scores, -np.inf).astype(np.float32)
    weights = softmax_rows(masked)
    tokens = ["<s>", "the", "cat", "the"]
    fig = figures.masking_steps(causal, scores, masked, weights, tokens, tokens, title="t", lang="en")
    mask_trace, score_trace, masked_trace, weight_trace = heatmaps(fig)
    np.testing.assert_array_equal(np.asarray(mask_trace.z), causal.astype(np.float32))
    np.testing.assert_allclose(np.asarray(score_trace.z), scores)
    masked_z = np.asarray(masked_trace.z)
    assert np.isnan(masked_z[~causal]).all() and not np.isnan(masked_z[causal]).any()
    assert all(masked_trace.text[i][j] == "−∞" for i in range(t) for j in range(t) if j > i)
    assert np.allclose(np.asarray(weight_trace.z)[~causal], 0.0)
    assert list(mask_trace.x) == ["&lt;s&gt;", "the·1", "cat", "the·3"]


def test_compare_heads_adds_the_difference_map(random_maps):
    tokens = list("abcde")
    fig = figures.compare_heads([random_maps[0], random_maps[1], random_maps[2]], ["A", "B", "C"], tokens, tokens,
                                title="t", lang="en")
    traces = heatmaps(fig)
    assert len(traces) == 4
    np.testing.assert_allclose(np.asarray(traces[-1].z), random_maps[0] - random_maps[1], atol=1e-6)
    different = figures.compare_heads([random_maps[0], random_maps[0][:3]], ["A", "B"], tokens, tokens,
                                      title="t", lang="en")
    assert len(heatmaps(different)) == 2  # no difference map between different shapes


def test_scores_to_weights_adds_the_masked_panel_only_when_something_is_blocked(random_maps):
    tokens = list("abcde")
    scores = np.log(random_maps[0])
    assert len(heatmaps(figures.scores_to_weights(scores, random_maps[0], tokens, tokens, title="t", lang="en",
                                                  masked=scores))) == 2
    masked = scores.copy()
    masked[0, 1] = -np.inf
    assert len(heatmaps(figures.scores_to_weights(scores, random_maps[0], tokens, tokens, title="t", lang="en",
                                                  masked=masked))) == 3


def test_all_heads_overview_is_one_figure_one_image_per_kind():
    rng = np.random.default_rng(3)
    enc = softmax_rows(rng.normal(size=(6, 8, 7, 7)))
    cross = softmax_rows(rng.normal(size=(6, 8, 5, 7)))
    fig = figures.all_heads_overview([("enc", enc), ("cross", cross)], title="all", lang="en")
    traces = heatmaps(fig)
    assert len(traces) == 2
    z = np.asarray(traces[0].z)
    assert z.shape == (6 * 8 - 1, 8 * 8 - 1)  # 6 layers of 7 rows + gaps, 8 heads of 7 columns + gaps
    np.testing.assert_allclose(z[:7, :7], enc[0, 0])
    np.testing.assert_allclose(z[8:15, 16:23], enc[1, 2])
    assert np.isnan(z[7]).all()  # the gap row between layers
    assert list(fig.layout.xaxis.ticktext) == [f"H{h}" for h in range(8)]
    assert list(fig.layout.yaxis.ticktext) == [f"L{i}" for i in range(6)]


def test_overview_averages_long_sequences_down():
    long = softmax_rows(np.random.default_rng(4).normal(size=(2, 3, 200, 200)))
    image, tq, tk = figures.tile_heads(long)
    assert tq == tk == figures.OVERVIEW_MAX_SIDE
    assert image.shape == (2 * (tq + 1) - 1, 3 * (tk + 1) - 1)
    edges = np.linspace(0, 200, tq + 1).astype(int)
    for row, col in ((0, 0), (5, 17), (tq - 1, tk - 1)):  # each cell is the mean of its block
        block = long[0, 0, edges[row]:edges[row + 1], edges[col]:edges[col + 1]]
        assert image[row, col] == pytest.approx(float(block.mean()), rel=1e-5)
    block = long[1, 2, edges[3]:edges[4], edges[7]:edges[8]]
    assert image[(tq + 1) + 3, 2 * (tk + 1) + 7] == pytest.approx(float(block.mean()), rel=1e-5)


def test_similarity_heatmap_and_top_k_bar():
    sim = np.array([[1.0, 0.2], [0.2, 1.0]], dtype=np.float32)
    (trace,) = heatmaps(figures.similarity_heatmap(sim, ["L0H0", "L0H1"], title="s", lang="ko"))
    assert trace.zmin == 0.0 and trace.zmax == 1.0
    bar = figures.top_k_bar(["cat", "dog", "</s>"], [0.7, 0.2, 0.1], "cat", title="k", lang="en").data[0]
    assert bar.type == "bar" and list(bar.y) == ["cat", "dog", "&lt;/s&gt;"]
    assert bar.marker.color[0] != bar.marker.color[1]  # the chosen token is highlighted


def test_positional_curves_pass_through_the_traced_points():
    from transformer_core.models.transformer import sinusoidal_table

    pe = sinusoidal_table(12, 16).numpy()
    fig = figures.positional_curves(pe, [0, 1, 6], title="pe", lang="en", analytic_d_model=16)
    lines = [t for t in fig.data if t.mode == "lines"]
    points = [t for t in fig.data if t.mode == "markers"]
    assert len(lines) == 3 and len(points) == 3
    for line, point, dim in zip(lines, points, [0, 1, 6], strict=True):
        np.testing.assert_allclose(np.asarray(point.y), pe[:, dim], atol=1e-6)
        np.testing.assert_allclose(np.interp(np.arange(12), np.asarray(line.x, dtype=np.float64),
                                             np.asarray(line.y, dtype=np.float64)), pe[:, dim], atol=0.02)


def test_position_similarity_is_pe_dot_pe_transpose():
    pe = np.random.default_rng(5).normal(size=(6, 8)).astype(np.float32)
    (trace,) = heatmaps(figures.position_similarity(pe, title="p", lang="en"))
    np.testing.assert_allclose(np.asarray(trace.z), pe @ pe.T, rtol=1e-5)


def test_plot_config_saves_png_with_a_safe_name():
    config = figures.plot_config("encoder L0/H1 weights")
    assert config["toImageButtonOptions"]["format"] == "png"
    assert config["toImageButtonOptions"]["filename"] == "encoder_L0_H1_weights"


def test_float32_arrays_travel_as_compact_binary():
    big = np.random.default_rng(6).random((40, 40), dtype=np.float32)
    fig = figures.attention_heatmap(big, [f"t{i}" for i in range(40)], [f"t{i}" for i in range(40)], title="t",
                                    lang="en")
    payload = fig.to_json()
    assert '"dtype":"f4"' in payload
    assert len(payload) < 40 * 40 * 4 * 2 + 20_000


# ------------------------------------------------------------------------------------------------ tokenization

@pytest.fixture(scope="module")
def word_tokenizer():
    return build_word_tokenizer(TINY_WORDS)


def test_tokenize_maps_pieces_to_words_and_flags_unk_and_specials(word_tokenizer):
    tok = tokenizer_service.tokenize(word_tokenizer, "고양이가 강아지를 먹는다.")
    assert tok.pieces == ["고양이가", "<unk>", "먹는다", ".", "</s>"]
    assert tok.is_unk == [False, True, False, False, False]
    assert tok.is_special == [False, False, False, False, True]
    assert tok.word_index == [0, 1, 2, 2, None]  # "." belongs to the word "먹는다."
    assert tok.words == ["고양이가", "강아지를", "먹는다."]
    assert tok.n_unk == 1 and tok.n_truncated == 0
    labels = {k: k for k in ("pos", "piece", "id", "kind", "word_index", "word", "normal", "special", "unk")}
    table = tokenization.tokenization_table(tok, labels)
    assert list(table["piece"]) == tok.pieces
    assert list(table["kind"]) == ["normal", "unk", "normal", "normal", "special"]
    assert list(table["word"]) == ["고양이가", "강아지를", "먹는다.", "먹는다.", ""]


def test_tokenize_truncates_like_the_model(word_tokenizer):
    tok = tokenizer_service.tokenize(word_tokenizer, "the cat eats fish the cat eats fish", max_length=4)
    assert len(tok.pieces) == 4 and tok.n_truncated == 5


def test_compare_tokenizers_and_fingerprints(word_tokenizer):
    other = build_word_tokenizer(["the", "cat"])
    results = tokenizer_service.compare_tokenizers({"a": word_tokenizer, "b": other}, "the cat eats")
    assert results["a"].n_unk == 0 and results["b"].n_unk == 1
    assert tokenizer_service.tokenizer_fingerprint(word_tokenizer) == tokenizer_service.tokenizer_fingerprint(
        build_word_tokenizer(TINY_WORDS))
    assert tokenizer_service.tokenizer_fingerprint(word_tokenizer) != tokenizer_service.tokenizer_fingerprint(other)
    assert tokenizer_service.ids_to_tokens(word_tokenizer, [1, 2]) == ["<s>", "</s>"]
    assert tokenizer_service.from_tokens(word_tokenizer, ["<s>", "the", "zzz"]).is_unk == [False, False, True]


def test_token_chips_escape_user_text():
    tok = tokenization.Tokenization(pieces=["<script>alert(1)</script>", "<b>x</b>", "[UNK]"], ids=[5, 6, 1],
                                    is_special=[False, False, False], is_unk=[False, False, True],
                                    word_index=[0, 1, 2], words=["a", "b", "c"], n_truncated=0)
    html = tokenization.token_chips_html(tok, unk_title='"><img src=x>')
    assert "<script>" not in html and "<b>x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<img" not in html
    assert html.count("<span") == 3


# ------------------------------------------------------------------------------------------------ trace-based

@pytest.fixture(scope="module")
def traced(tiny_model_dir):
    import transformer_core as core

    loaded = core.load(tiny_model_dir)
    return loaded, core.trace_text(loaded, "고양이가 생선을 먹는다 the cat")


def test_encoder_chain_numbers_come_from_the_trace(traced):
    loaded, text_trace = traced
    cfg, trace = loaded.config, text_trace.trace
    info = steps.LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation)
    chain = steps.encoder_chain(trace, layer=1, head=1, query=2, key=0, info=info)
    assert [s.key for s in chain] == ["step.x", "step.qkv", "step.split", "step.scores", "step.mask", "step.softmax",
                                      "step.context", "step.concat", "step.wo", "step.addnorm1", "step.ffn",
                                      "step.addnorm2"]
    s = len(text_trace.src_tokens)
    by_key = {step.key: step for step in chain}
    assert by_key["step.split"].shape == f"[1, {cfg.n_heads}, {s}, {cfg.d_k}]"
    assert by_key["step.scores"].shape == f"[1, {cfg.n_heads}, {s}, {s}]"
    assert by_key["step.ffn"].shape == f"[1, {s}, {cfg.d_ff}]"
    q = trace.numpy("encoder.1.self_attn.q")[1, 2]
    k = trace.numpy("encoder.1.self_attn.k")[1, 0]
    score = float(trace.numpy("encoder.1.self_attn.scores")[1, 2, 0])
    assert float(q @ k) / math.sqrt(cfg.d_k) == pytest.approx(score, abs=1e-5)  # the chain's recomputation holds
    assert f"{score:.3f}" in by_key["step.scores"].latex
    weight = float(trace.numpy("encoder.1.self_attn.weights")[1, 2, 0])
    assert f"{weight:.3f}" in by_key["step.softmax"].latex
    for step in chain:
        for name in step.trace_names:
            assert name in trace


def test_attention_helpers_read_the_trace(traced):
    _, text_trace = traced
    trace = text_trace.trace
    assert attention.kinds_in(trace) == list(ATTENTION_KINDS)
    enc = attention.stack(trace, AttentionKind.ENCODER_SELF)
    assert enc.shape[:2] == (2, 2) and enc.dtype == np.float32
    ref = Head(AttentionKind.CROSS, 1, 0)
    assert ref.name() == "decoder.1.cross_attn.weights"
    cross = attention.head_matrix(trace, ref)
    assert cross.shape == (len(text_trace.tgt_tokens), len(text_trace.src_tokens))
    assert len(attention.all_heads(trace)) == 3 * 2 * 2
    causal = attention.array(trace, "tgt.causal_mask")
    assert causal.shape == (len(text_trace.tgt_tokens),) * 2 and causal.dtype == bool
    assert attention.array(trace, "src.pos").shape == (len(text_trace.src_tokens), 16)
    probs = attention.softmax(trace.numpy("logits"))
    np.testing.assert_allclose(probs.sum(axis=-1), 1.0, rtol=1e-6)
    ids, top = attention.top_k(probs[0], 3)
    assert ids[0] == int(np.argmax(probs[0])) and top[0] >= top[1] >= top[2]


def test_embedding_norms_table(traced):
    loaded, text_trace = traced
    trace = text_trace.trace
    embed, pos, inputs = (attention.array(trace, f"src.{n}") for n in ("embed", "pos", "input"))
    scale = math.sqrt(loaded.config.d_model)
    columns = {k: k for k in ("pos", "token", "norm_raw", "norm_scaled", "norm_pe", "norm_input")}
    table = tables.embedding_norms(embed, pos, inputs, text_trace.src_tokens, scale, columns)
    assert len(table) == len(text_trace.src_tokens)
    np.testing.assert_allclose(table["norm_scaled"] / table["norm_raw"], scale, rtol=1e-3)
    assert "\\sqrt{16} = 4.000" in tables.scaling_latex(16, embed[0], scale)


def test_head_detail_puts_one_head_in_one_figure(random_maps):
    tokens = ["<s>", "cat", "cat"]
    rng = np.random.default_rng(7)
    q, k, v = (rng.normal(size=(3, 8)).astype(np.float32) for _ in range(3))
    scores = rng.normal(size=(3, 3)).astype(np.float32)
    fig = figures.head_detail(scores, softmax_rows(scores), q, k, v, tokens, title="h", lang="en")
    traces = heatmaps(fig)
    assert len(traces) == 5
    np.testing.assert_allclose(np.asarray(traces[2].z), q)
    np.testing.assert_allclose(np.asarray(traces[4].z), v)
    assert list(traces[0].x) == ["&lt;s&gt;", "cat·1", "cat·2"]
    masked = np.where(np.tril(np.ones((3, 3), dtype=bool)), scores, -np.inf).astype(np.float32)
    assert len(heatmaps(figures.head_detail(scores, softmax_rows(masked), q, k, v, tokens, title="h", lang="en",
                                            masked=masked))) == 6


def test_figures_use_explicit_colour_lists():
    """Validation is skipped for speed, so named scales plotly.js does not know must never reach it."""
    fig = figures.attention_heatmap(np.eye(3, dtype=np.float32), list("abc"), list("abc"), title="t", lang="en",
                                    diverging=True)
    scale = heatmaps(fig)[0].colorscale
    assert isinstance(scale, (list, tuple)) and len(scale) > 2
    assert "RdBu_r" not in fig.to_json()


def test_exports_round_trip():
    import io

    import pandas as pd

    from explorer.figures import export

    matrix = np.array([[0.25, 0.75], [1.0, -np.inf]], dtype=np.float32)
    assert np.array_equal(np.load(io.BytesIO(export.npy_bytes(matrix))), matrix)
    frame = pd.read_csv(io.BytesIO(export.matrix_csv(matrix, ["고양이가", "the·1"], ["a", "b"])), index_col=0)
    assert list(frame.index) == ["고양이가", "the·1"] and list(frame.columns) == ["a", "b"]
    assert frame.loc["고양이가", "b"] == pytest.approx(0.75) and np.isneginf(frame.loc["the·1", "b"])
    maps = np.arange(2 * 2 * 3, dtype=np.float32).reshape(2, 2, 3)
    long = pd.read_csv(io.BytesIO(export.stack_csv(maps, ["q0", "q1"], ["k0", "k1", "k2"], ["H0", "H1"])))
    assert list(long.columns) == ["head", "query", "key", "weight"] and len(long) == 12
    row = long[(long["head"] == "H1") & (long["query"] == "q0") & (long["key"] == "k2")]
    assert float(row["weight"].iloc[0]) == maps[1, 0, 2]


def test_step_rows_and_strongest_key():
    maps = np.random.default_rng(8).random((2, 3, 4, 5), dtype=np.float32)
    rows, labels = attention.step_rows(maps, 2)
    assert rows.shape == (6, 5) and labels[4] == "L1 H1"
    np.testing.assert_array_equal(rows[4], maps[1, 1, 2])
    assert attention.strongest_key(np.array([[0.1, 0.7, 0.2]]), 0) == 1
