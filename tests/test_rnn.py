"""The 2015 attention RNN (transformer_core/models/rnn.py): trace-name contract, the additive-attention
formula recomputed by hand, teacher forcing vs greedy decoding, padding, patches, model dirs."""

from __future__ import annotations

import json
import re

import pytest
import torch

import transformer_core
from transformer_core import generate, list_models, trace_text
from transformer_core.io.loading import save_model_dir
from transformer_core.models.rnn import RNNConfig, RNNTranslator

from .conftest import TINY_WORDS, build_word_tokenizer

# B=2, S=5, T=4, E=8, H=6 (h_j: 12), A=5, O=8, V=13.
GOLDEN = """
src.ids 2x5
src.mask 2x5
src.embed 2x5x8
rnn.encoder.states 2x5x12
rnn.decoder.init 2x6
rnn.attn.keys 2x5x5
tgt.ids 2x4
tgt.mask 2x4
tgt.embed 2x4x8
rnn.attn.queries 2x4x5
rnn.attn.scores 2x4x5
rnn.attn.weights 2x4x5
rnn.attn.context 2x4x12
rnn.decoder.states 2x4x6
rnn.output.hidden 2x4x8
logits 2x4x13
"""


def tiny_rnn_config(**overrides) -> RNNConfig:
    values = dict(src_vocab_size=len(TINY_WORDS) + 4, tgt_vocab_size=len(TINY_WORDS) + 4, embed_dim=8,
                  hidden_size=6, attn_size=5, maxout_size=8, max_len=32)
    values.update(overrides)
    return RNNConfig(**values)


def tiny_rnn(seed: int = 0, **overrides) -> RNNTranslator:
    torch.manual_seed(seed)
    model = RNNTranslator(tiny_rnn_config(**overrides)).eval()
    with torch.no_grad():  # larger weights than the init, so attention is far from uniform
        for parameter in model.rnn.attn.parameters():
            parameter.mul_(4.0)
    return model


def batch() -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(1)
    src = torch.randint(4, 13, (2, 5), generator=generator)
    src[1, 3:] = 0  # the second sentence has 3 real tokens, then padding
    tgt = torch.randint(4, 13, (2, 4), generator=generator)
    tgt[:, 0] = 1  # BOS
    return src, tgt


def test_trace_names_and_shapes_in_recording_order_match_the_golden_list():
    src, tgt = batch()
    shapes = list(tiny_rnn().trace(src, tgt).shapes().items())
    expected = [(name, tuple(int(n) for n in shape.split("x")))
                for name, shape in (line.split() for line in GOLDEN.strip().splitlines())]
    assert shapes == expected


def test_attention_equals_the_additive_formula_recomputed_from_the_recorded_states():
    """e_tj = v^T tanh(W_s s_{t-1} + W_h h_j + b), alpha_t = softmax over real keys, c_t = sum_j alpha_tj h_j."""
    model = tiny_rnn()
    src, tgt = batch()
    trace = model.trace(src, tgt)
    w_s = model.rnn.attn.w_s.weight  # [A, H]
    w_h, b_h = model.rnn.attn.w_h.weight, model.rnn.attn.w_h.bias  # [A, 2H], [A]
    v = model.rnn.attn.v.weight[0]  # [A]
    h = trace["rnn.encoder.states"]  # [B, S, 2H]
    s_prev = torch.cat([trace["rnn.decoder.init"][:, None], trace["rnn.decoder.states"][:, :-1]], dim=1)  # [B,T,H]
    real = trace["src.mask"]  # [B, S]
    B, T, S = trace["rnn.attn.scores"].shape
    for b in range(B):
        for t in range(T):
            e = torch.stack([v @ torch.tanh(w_s @ s_prev[b, t] + w_h @ h[b, j] + b_h) for j in range(S)])
            torch.testing.assert_close(trace["rnn.attn.scores"][b, t], e, atol=1e-5, rtol=1e-5)
            n_real = int(real[b].sum())
            alpha = torch.zeros(S)
            alpha[:n_real] = torch.exp(e[:n_real]) / torch.exp(e[:n_real]).sum()
            torch.testing.assert_close(trace["rnn.attn.weights"][b, t], alpha, atol=1e-6, rtol=1e-5)
            context = sum(alpha[j] * h[b, j] for j in range(S))
            torch.testing.assert_close(trace["rnn.attn.context"][b, t], context, atol=1e-6, rtol=1e-5)
    assert trace["rnn.attn.weights"][1, :, 3:].abs().max() == 0  # padded keys get exactly nothing
    assert trace["rnn.attn.weights"][0].std() > 0.01  # not a uniform map the formula would match trivially


def test_encoder_states_are_a_forward_and_a_backward_gru_concatenated():
    model = tiny_rnn()
    src, tgt = batch()
    trace = model.trace(src[:1], tgt[:1])
    gru = model.rnn.encoder.gru
    x = trace["src.embed"][0]  # [S, E]
    hidden = model.config.hidden_size

    def run(weight_ih, weight_hh, bias_ih, bias_hh, inputs):
        state, out = torch.zeros(hidden), []
        for x_t in inputs:  # GRU equations written out: r, z, n gates
            gi, gh = weight_ih @ x_t + bias_ih, weight_hh @ state + bias_hh
            r = torch.sigmoid(gi[:hidden] + gh[:hidden])
            z = torch.sigmoid(gi[hidden:2 * hidden] + gh[hidden:2 * hidden])
            n = torch.tanh(gi[2 * hidden:] + r * gh[2 * hidden:])
            state = (1 - z) * n + z * state
            out.append(state)
        return torch.stack(out)

    forward = run(gru.weight_ih_l0, gru.weight_hh_l0, gru.bias_ih_l0, gru.bias_hh_l0, x)
    backward = run(gru.weight_ih_l0_reverse, gru.weight_hh_l0_reverse, gru.bias_ih_l0_reverse,
                   gru.bias_hh_l0_reverse, x.flip(0)).flip(0)
    torch.testing.assert_close(trace["rnn.encoder.states"][0], torch.cat([forward, backward], -1), atol=1e-5, rtol=0)
    w_init = model.rnn.encoder.w_init
    torch.testing.assert_close(trace["rnn.decoder.init"][0], torch.tanh(w_init(backward[0])), atol=1e-5, rtol=0)


def test_trace_equals_the_unrecorded_forward_and_rows_sum_to_one():
    model = tiny_rnn()
    src, tgt = batch()
    trace = model.trace(src, tgt)
    with torch.no_grad():
        torch.testing.assert_close(trace["logits"], model(src, tgt))
    sums = trace["rnn.attn.weights"].sum(-1)
    torch.testing.assert_close(sums, torch.ones_like(sums))


def test_a_padded_batch_gives_each_sentence_what_it_gets_alone():
    model = tiny_rnn()
    src, tgt = batch()
    together = model.trace(src, tgt)
    alone = model.trace(src[1:, :3], tgt[1:])
    for name in ("rnn.attn.weights", "rnn.decoder.states", "logits"):
        width = alone[name].shape[-1] if name == "rnn.attn.weights" else None
        torch.testing.assert_close(together[name][1:, ..., :width], alone[name], atol=1e-5, rtol=0)
    torch.testing.assert_close(together["rnn.encoder.states"][1, :3], alone["rnn.encoder.states"][0], atol=1e-5,
                               rtol=0)


def test_greedy_decode_starts_with_bos_and_the_trace_over_its_output_predicts_the_same_tokens():
    model = tiny_rnn()
    src, _ = batch()
    out = generate(model, src, max_new_tokens=6).ids
    assert out.shape[0] == 2 and 2 <= out.shape[1] <= 7
    assert (out[:, 0] == model.config.bos_token_id).all()
    first = out[:1]
    eos = (first[0] == model.config.eos_token_id).nonzero()
    end = int(eos[0]) if len(eos) else first.shape[1]
    decoder_input = first[:, :end]  # BOS + output, EOS left out (as trace_text does)
    logits = model.trace(src[:1], decoder_input)["logits"]
    assert logits[0].argmax(-1).tolist() == first[0, 1:end + 1].tolist()


def test_greedy_decode_stops_at_eos_and_at_max_len():
    model = tiny_rnn()
    with torch.no_grad():
        model.lm_head.bias.fill_(-100.0)
        model.lm_head.bias[model.config.eos_token_id] = 100.0  # EOS always wins
    out = generate(model, torch.tensor([[5, 6, 2]])).ids
    assert out.tolist() == [[1, 2]]
    with torch.no_grad():
        model.lm_head.bias.fill_(0.0)
        model.lm_head.bias[7] = 100.0  # never EOS
    assert generate(model, torch.tensor([[5, 6, 2]])).ids.shape == (1, model.config.max_len)


def test_a_row_with_no_real_key_gives_zero_weights_not_nan():
    model = tiny_rnn()
    src = torch.tensor([[5, 6, 2], [0, 0, 0]])
    trace = model.trace(src, torch.tensor([[1, 7], [1, 7]]))
    assert torch.isfinite(trace["logits"]).all()
    assert trace["rnn.attn.weights"][1].abs().max() == 0


def test_identity_patches_change_nothing_and_a_column_patch_acts_in_decoding_and_trace_alike():
    model = tiny_rnn()
    src, tgt = batch()
    plain = model.trace(src, tgt)
    identity = {name: (lambda x: x) for name in model.hook_names - model.RECORD_ONLY_HOOKS}
    patched_identity = model.trace(src, tgt, patches=identity)
    for name in plain:
        assert torch.equal(plain[name], patched_identity[name]), name

    def only_first_key(weights: torch.Tensor) -> torch.Tensor:  # [B,1,S] per step: all attention on source 0
        out = torch.zeros_like(weights)
        out[..., 0] = 1.0
        return out

    patches = {"rnn.attn.weights": only_first_key}
    patched = model.trace(src, tgt, patches=patches)
    torch.testing.assert_close(patched["rnn.attn.context"], patched["rnn.encoder.states"][:, :1].expand(-1, 4, -1))
    assert not torch.allclose(patched["logits"], plain["logits"])
    decoded = generate(model, src[:1], max_new_tokens=5, patches=patches).ids
    eos = (decoded[0] == 2).nonzero()
    end = int(eos[0]) if len(eos) else decoded.shape[1]
    again = model.trace(src[:1], decoded[:, :end], patches=patches)
    assert again["logits"][0].argmax(-1).tolist() == decoded[0, 1:end + 1].tolist()


def test_patches_with_unknown_or_record_only_names_are_refused():
    model = tiny_rnn()
    src, tgt = batch()
    with pytest.raises(ValueError, match=re.escape("did you mean rnn.attn.weights")):
        model.trace(src, tgt, patches={"rnn.attn.weight": lambda x: x})
    with pytest.raises(ValueError, match="record-only"):
        model.trace(src, tgt, patches={"src.ids": lambda x: x})
    with pytest.raises(ValueError, match="shape"):
        model.trace(src, tgt, patches={"rnn.attn.scores": lambda x: x[..., :2]})


def test_model_dir_round_trip_and_model_listing(tmp_path, monkeypatch):
    directory = tmp_path / "rnn-tiny"
    model = tiny_rnn()
    save_model_dir(directory, model, build_word_tokenizer(TINY_WORDS), description="test rnn")
    assert json.loads((directory / "config.json").read_text())["model_type"] == "rnn-attention"
    loaded = transformer_core.load(directory)
    assert isinstance(loaded.model, RNNTranslator) and loaded.architecture == "rnn-attention"
    assert loaded.kind == "encoder-decoder"
    for name, tensor in model.state_dict().items():
        assert torch.equal(loaded.model.state_dict()[name], tensor), name
    result = trace_text(loaded, "고양이가 생선을 먹는다", max_new_tokens=4)
    assert result.src_tokens == ["고양이가", "생선을", "먹는다", "</s>"]
    assert result.tgt_tokens[0] == "<s>" and result.trace["rnn.attn.weights"].shape[1] == len(result.tgt_tokens)
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tmp_path))
    assert [info.name for info in list_models() if not info.builtin] == []  # the picker lists Transformers only
    infos = [info for info in list_models(all_architectures=True) if not info.builtin]
    assert [(info.name, info.available, info.architecture) for info in infos] == [
        ("rnn-tiny", True, "rnn-attention")]
    assert transformer_core.load("rnn-tiny").name == "rnn-tiny"


def test_training_recipe_trains_a_tiny_rnn_and_writes_a_loadable_model_dir(tmp_path):
    from transformer_core.training import cli as train

    out = tmp_path / "rnn"
    assert train.main(["--task", "ko-en-rnn", "--tiny", "--steps", "3", "--out", str(out), "--eval-n", "4",
                       "--quiet"]) == 0
    loaded = transformer_core.load(out)
    assert isinstance(loaded.model, RNNTranslator)
    assert json.loads((out / "config.json").read_text())["task"] == "ko-en"
    card = (out / "README.md").read_text()
    assert "bidirectional GRU encoder" in card and "exact match" in card


# ------------------------------------------------------------------------------------------------
# The bundled model (models/ko-en-rnn-attention)

BUNDLED = transformer_core.io.loading.models_dir() / "ko-en-rnn-attention"
needs_bundled = pytest.mark.skipif(not (BUNDLED / "model.safetensors").is_file(),
                                   reason="models/ko-en-rnn-attention is not there")


def card_figures(card: str) -> tuple[float, float]:
    """(exact match, alignment accuracy) as fractions, from the model card's metrics lines."""
    exact = re.search(r"^- exact match: ([\d.]+)%", card, re.MULTILINE)
    alignment = re.search(r"^- alignment accuracy \(rnn\.attn\.weights[^:]*: ([\d.]+)%", card, re.MULTILINE)
    assert exact and alignment, "the model card lost its metrics lines"
    return float(exact.group(1)) / 100, float(alignment.group(1)) / 100


@needs_bundled
def test_bundled_rnn_loads_traces_and_greedy_decodes_the_issue_sentence():
    torch.set_num_threads(1)
    loaded = transformer_core.load("ko-en-rnn-attention")
    assert isinstance(loaded.model, RNNTranslator) and loaded.architecture == "rnn-attention"
    assert (BUNDLED / "model.safetensors").stat().st_size <= 50e6  # the teaching translators' budget (issue 27)
    result = trace_text(loaded, "고양이가 공원에서 생선을 먹었다.")
    assert result.output_text.strip()
    weights = result.trace["rnn.attn.weights"][0]  # [T, S]
    assert weights.shape == (len(result.tgt_tokens), len(result.src_tokens))
    torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[0]))
    decoded = generate(loaded.model, result.trace["src.ids"], max_new_tokens=48).ids[0].tolist()
    assert decoded[: len(result.tgt_tokens)] == result.trace["tgt.ids"][0].tolist()
    assert result.predicted_tokens[-1] == "</s>"


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@needs_bundled
def test_bundled_rnn_evaluation_is_within_the_model_cards_figures():
    from transformer_core.analysis.evaluate import evaluate_model

    torch.set_num_threads(1)
    exact, alignment = card_figures((BUNDLED / "README.md").read_text(encoding="utf-8"))
    metrics = evaluate_model(transformer_core.load("ko-en-rnn-attention"), n=80, seed=3)
    assert metrics["best_head"] == {"layer": 0, "head": 0, "accuracy": metrics["alignment_accuracy"]}
    assert abs(metrics["exact_match"] - exact) <= 0.12, (metrics["exact_match"], exact)
    assert abs(metrics["alignment_accuracy"] - alignment) <= 0.08, (metrics["alignment_accuracy"], alignment)


def test_hostile_input_through_the_rnn_stays_finite_with_rows_summing_to_one(tmp_path):
    from .test_fuzz import NASTY, random_strings

    directory = tmp_path / "rnn-tiny"
    save_model_dir(directory, tiny_rnn(), build_word_tokenizer(TINY_WORDS))
    loaded = transformer_core.load(directory)
    for text in random_strings(40, seed=3) + NASTY + ["가나다 " * 500]:
        if not text.strip():
            continue
        result = trace_text(loaded, text, max_new_tokens=3)
        for name, tensor in result.trace.items():
            if tensor.is_floating_point():
                assert torch.isfinite(tensor).all(), (text, name)
        weights = result.trace["rnn.attn.weights"][0]
        torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[0]), atol=1e-4, rtol=0)


def test_generation_strategies_run_on_the_rnn_and_beam_width_one_is_greedy():
    from transformer_core.inference.generation import generate

    model = tiny_rnn()
    src, _ = batch()
    greedy = generate(model, src, max_new_tokens=6)
    beam = generate(model, src, strategy="beam", beam_width=1, max_new_tokens=6)
    assert [beam.tokens(r) for r in range(2)] == [greedy.tokens(r) for r in range(2)]
    wide = generate(model, src, strategy="beam", beam_width=3, max_new_tokens=6)
    sampled = generate(model, src, strategy="sample", temperature=1.0, seed=1, max_new_tokens=6)
    again = generate(model, src, strategy="sample", temperature=1.0, seed=1, max_new_tokens=6)
    assert wide.ids.shape[0] == 2 and torch.equal(sampled.ids, again.ids)
    assert (wide.ids[:, 0] == 1).all() and (sampled.ids[:, 0] == 1).all()


def gru_cell_by_hand(x: torch.Tensor, h: torch.Tensor, cell: torch.nn.GRUCell) -> torch.Tensor:
    """One GRU step written out (Cho et al. 2014; torch's gate order r, z, n in weight_ih / weight_hh):
    r = σ(W_ir x + b_ir + W_hr h + b_hr), z = σ(W_iz x + b_iz + W_hz h + b_hz),
    n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)), h' = (1 − z) ⊙ n + z ⊙ h."""
    w_ir, w_iz, w_in = cell.weight_ih.chunk(3)
    w_hr, w_hz, w_hn = cell.weight_hh.chunk(3)
    b_ir, b_iz, b_in = cell.bias_ih.chunk(3)
    b_hr, b_hz, b_hn = cell.bias_hh.chunk(3)
    r = torch.sigmoid(w_ir @ x + b_ir + w_hr @ h + b_hr)
    z = torch.sigmoid(w_iz @ x + b_iz + w_hz @ h + b_hz)
    n = torch.tanh(w_in @ x + b_in + r * (w_hn @ h + b_hn))
    return (1 - z) * n + z * h


def test_the_decoder_loop_and_maxout_output_equal_the_paper_written_out_step_by_step():
    """s_0 = tanh(W_init ←h_1); per step: attention from s_{t-1}, s_t = GRU([E y_{t-1} ; c_t], s_{t-1}),
    t_t = maxout(U [s_t ; c_t ; E y_{t-1}]) (the larger of units 2o and 2o+1), logits = W_out t_t + b.
    Only the encoder states h_j come from the trace (the encoder has its own test)."""
    model = tiny_rnn()
    src, tgt = batch()
    trace = model.trace(src, tgt)
    hidden = model.config.hidden_size
    attn, cell, out = model.rnn.attn, model.rnn.decoder.cell, model.rnn.output.linear
    w_init, embedding = model.rnn.encoder.w_init, model.tgt.token.weight
    h = trace["rnn.encoder.states"]  # [B,S,2H]
    with torch.no_grad():
        for b in range(src.shape[0]):
            n_real = int((src[b] != 0).sum())
            state = torch.tanh(w_init.weight @ h[b, 0, hidden:] + w_init.bias)  # ←h_1: backward half at j = 1
            torch.testing.assert_close(trace["rnn.decoder.init"][b], state, atol=1e-6, rtol=1e-5)
            for t in range(tgt.shape[1]):
                e = torch.stack([attn.v.weight[0] @ torch.tanh(attn.w_s.weight @ state + attn.w_h.weight @ h[b, j]
                                                               + attn.w_h.bias) for j in range(n_real)])
                alpha = torch.softmax(e, dim=0)
                context = sum(alpha[j] * h[b, j] for j in range(n_real))  # [2H]
                y_prev = embedding[tgt[b, t]]  # E y_{t-1}: step t reads input token t (BOS at t = 0)
                state = gru_cell_by_hand(torch.cat([y_prev, context]), state, cell)
                torch.testing.assert_close(trace["rnn.decoder.states"][b, t], state, atol=1e-5, rtol=1e-5)
                pre = out.weight @ torch.cat([state, context, y_prev]) + out.bias  # [2O]
                maxout = torch.stack([torch.maximum(pre[2 * o], pre[2 * o + 1]) for o in range(pre.shape[0] // 2)])
                torch.testing.assert_close(trace["rnn.output.hidden"][b, t], maxout, atol=1e-5, rtol=1e-5)
                logits = model.lm_head.weight @ maxout + model.lm_head.bias
                torch.testing.assert_close(trace["logits"][b, t], logits, atol=1e-5, rtol=1e-5)


def test_the_rnn_trace_name_constants_are_the_names_the_model_records():
    from transformer_core.tracing.names import RNN_TRACE_NAMES
    recorded = [line.split()[0] for line in GOLDEN.strip().splitlines()]
    assert sorted(RNN_TRACE_NAMES) == sorted(name for name in recorded if name.startswith("rnn."))
