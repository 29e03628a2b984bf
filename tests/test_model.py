"""Behaviour of the from-scratch model: embeddings, PE, masks, decoding, devices, recording."""

from __future__ import annotations

import math
import threading

import pytest
import torch

from transformer_core import Transformer, TransformerConfig, generate
from transformer_core.models.masks import attention_mask, causal_mask, padding_mask
from transformer_core.models.transformer import sinusoidal_table
from transformer_core.tracing.hooks import HookPoint, is_recording, recording

from . import parity_checks as checks
from .conftest import tiny_config
from .parity_checks import ids, small_model

TOL = dict(atol=1e-5, rtol=1e-5)


def test_config_defaults_are_the_papers_base_model():
    cfg = TransformerConfig()
    assert (cfg.d_model, cfg.n_heads, cfg.n_encoder_layers, cfg.n_decoder_layers, cfg.d_ff, cfg.dropout) == (
        512, 8, 6, 6, 2048, 0.1)
    assert cfg.d_k == 64 and cfg.norm_first is False and cfg.final_norm is False
    assert cfg.activation == "relu" and cfg.positional == "sinusoidal"
    assert cfg.share_embeddings is True  # section 3.4: one matrix for both embeddings and the output layer


def _paper_parameter_count(d: int, d_ff: int, n: int, vocab: int, shared: bool) -> int:
    """The base model's parameters written out by hand from the paper's figure 1 (biases included)."""
    attention = 4 * (d * d + d)  # W^Q, W^K, W^V, W^O with biases
    ffn = d * d_ff + d_ff + d_ff * d + d
    norm = 2 * d  # gamma and beta
    encoder = n * (attention + ffn + 2 * norm)
    decoder = n * (2 * attention + ffn + 3 * norm)
    embeddings = vocab * d if shared else 3 * vocab * d  # src, tgt, pre-softmax
    return embeddings + encoder + decoder + vocab  # + the output layer's bias


def test_the_default_model_has_the_papers_parameter_count_with_shared_embeddings():
    import transformer_core as tc

    cfg = TransformerConfig(n_encoder_layers=1, n_decoder_layers=1)  # one layer each: fast to build
    per_layer = _paper_parameter_count(512, 2048, 1, 37000, True) - _paper_parameter_count(512, 2048, 0, 37000, True)
    assert tc.model_parameters(Transformer(cfg)) == _paper_parameter_count(512, 2048, 1, 37000, True)
    base = _paper_parameter_count(512, 2048, 0, 37000, True) + 6 * per_layer
    assert base == _paper_parameter_count(512, 2048, 6, 37000, True)
    assert abs(base - tc.PAPER_PARAMETERS["base"]) / tc.PAPER_PARAMETERS["base"] < 0.04  # 63.1 M vs Table 3's 65 M
    unshared = Transformer(TransformerConfig(n_encoder_layers=1, n_decoder_layers=1, share_embeddings=False))
    assert tc.model_parameters(unshared) == _paper_parameter_count(512, 2048, 1, 37000, False)


def test_config_rejects_heads_that_do_not_divide_d_model():
    with pytest.raises(ValueError, match="divisible"):
        TransformerConfig(d_model=30, n_heads=4)


def test_positional_encoding_matches_the_papers_formula():
    d_model = 16
    table = sinusoidal_table(50, d_model)
    for pos in (0, 1, 7, 49):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            assert table[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-6)
            assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-6)


def test_the_models_positional_input_is_the_papers_formula():
    checks.check_positional_encoding_is_the_papers_formula()


def test_positional_encoding_is_a_non_persistent_buffer():
    model = small_model()
    assert "src.position.pe" not in model.state_dict()
    assert any(name == "src.position.pe" for name, _ in model.named_buffers())


def test_token_embedding_is_scaled_by_sqrt_d_model_and_added_to_pe():
    model = small_model()
    src = ids([5, 6, 7, 2])
    trace = model.trace(src)
    expected = model.src.token.weight[src] * math.sqrt(24)
    torch.testing.assert_close(trace["src.embed"], expected)
    torch.testing.assert_close(trace["src.pos"], sinusoidal_table(20, 24)[:4])
    torch.testing.assert_close(trace["src.input"], expected + trace["src.pos"])  # dropout is off in a trace


def test_causal_and_padding_masks_use_true_for_may_attend():
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    assert padding_mask(ids([4, 5, 0]), pad_id=0).tolist() == [[True, True, False]]
    combined = attention_mask(ids([4, 0, 0]) != 0, causal_mask(3))
    assert combined.shape == (1, 1, 3, 3)
    assert combined[0, 0].tolist() == [[True, False, False], [True, False, False], [True, False, False]]


def test_decoder_self_attention_never_looks_ahead():
    checks.check_decoder_never_looks_ahead()  # the future: a literal upper triangle, not causal_mask()


def test_changing_a_future_target_token_leaves_earlier_logits_unchanged():
    checks.check_future_target_token_leaves_earlier_logits()


def test_padding_does_not_change_the_real_positions():
    model = small_model()
    alone = model(ids([5, 6, 7, 2]), ids([1, 8, 9]))
    padded = model(ids([5, 6, 7, 2, 0, 0]), ids([1, 8, 9, 0]))
    torch.testing.assert_close(padded[:, :3], alone, **TOL)


@pytest.mark.parametrize("fused", [False, True], ids=["manual", "fused"])
def test_a_fully_masked_row_gives_zeros_not_nan(fused):
    checks.check_fully_masked_rows_are_zero_not_nan(fused)


def test_fused_attention_path_equals_the_manual_path():
    model = small_model(n_encoder_layers=3)
    src, tgt = ids([5, 6, 7, 2, 0], [9, 3, 4, 5, 2]), ids([1, 8, 9, 0], [1, 4, 4, 5])
    model.fused_attention = True
    fused = model(src, tgt)
    model.fused_attention = False
    manual = model(src, tgt)
    torch.testing.assert_close(fused, manual, **TOL)


def test_packed_qkv_inference_path_equals_the_manual_path_and_follows_weight_updates():
    model = small_model()
    src, tgt = ids([5, 6, 7, 2, 0], [9, 3, 4, 5, 2]), ids([1, 8, 9, 0], [1, 4, 4, 5])
    with torch.no_grad():  # the packed [D, 3D] projection is used only without autograd
        packed = model(src, tgt)
        assert model.encoder.layers[0].self_attn._packed_cache is not None
        model.fused_attention = False
        torch.testing.assert_close(packed, model(src, tgt), **TOL)
        model.encoder.layers[0].self_attn.w_v.weight.mul_(2.0)  # an in-place update, like an optimizer step
        manual = model(src, tgt)
        model.fused_attention = True
        torch.testing.assert_close(model(src, tgt), manual, **TOL)
        assert not torch.allclose(manual, packed, atol=1e-3)
    checks.check_packed_projection_follows_weight_updates()


def test_trace_equals_the_unrecorded_forward():
    model = small_model()
    src, tgt = ids([5, 6, 7, 2, 0], [9, 3, 4, 5, 2]), ids([1, 8, 9, 0], [1, 4, 4, 5])
    trace = model.trace(src, tgt)
    for fused in (False, True):
        model.fused_attention = fused
        torch.testing.assert_close(trace["logits"], model(src, tgt), **TOL)
    memory, _ = model.encode(src)
    torch.testing.assert_close(trace["encoder.out"], memory, **TOL)


def test_trace_restores_training_mode_and_records_without_dropout():
    checks.check_trace_records_without_dropout()


def test_hooks_record_nothing_when_not_recording():
    hook = HookPoint()
    x = torch.ones(2)
    assert not is_recording()
    assert hook(x) is x
    with recording() as store:
        assert is_recording()
        hook.name = "probe"
        hook(x)
    assert list(store) == ["probe"] and not is_recording()


def test_two_threads_tracing_one_model_get_their_own_tensors():
    model = small_model()
    inputs = [ids([5, 6, 7, 2]), ids([9, 9, 3, 4, 5, 2])]
    expected = [model.trace(src, ids([1, 8]))["logits"] for src in inputs]
    results: dict[int, list] = {0: [], 1: []}

    def work(k: int) -> None:
        for _ in range(20):
            results[k].append(model.trace(inputs[k], ids([1, 8]))["logits"])

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k in (0, 1):
        assert len(results[k]) == 20
        for logits in results[k]:
            torch.testing.assert_close(logits, expected[k])


def test_greedy_decoding_stops_at_eos():
    model = small_model()
    with torch.no_grad():
        model.lm_head.bias.fill_(0.0)
        model.lm_head.bias[model.config.eos_token_id] = 1e4  # EOS always wins
    out = generate(model, ids([5, 6, 7, 2]), max_new_tokens=10).ids
    assert out.tolist() == [[model.config.bos_token_id, model.config.eos_token_id]]


def test_greedy_decoding_stops_at_max_length():
    model = small_model()
    with torch.no_grad():
        model.lm_head.bias.fill_(0.0)
        model.lm_head.bias[7] = 1e4  # never EOS
    out = generate(model, ids([5, 6, 7, 2]), max_new_tokens=6).ids
    assert out.shape == (1, 7) and out[0, 1:].tolist() == [7] * 6
    capped = generate(model, ids([5, 6, 7, 2]), max_new_tokens=1000).ids
    assert capped.shape[1] == model.config.max_len  # BOS + (max_len - 1) tokens fit the PE table


def test_greedy_decoding_pads_sequences_that_finished_early():
    checks.check_greedy_decoding_pads_after_eos()  # row 0 certainly says EOS at step 1, row 1 never


def test_greedy_output_equals_argmax_of_the_teacher_forced_logits():
    model = small_model()
    src = ids([5, 6, 7, 2])
    out = generate(model, src, max_new_tokens=6).ids
    logits = model(src, out[:, :-1])
    assert logits.argmax(-1).tolist() == out[:, 1:].tolist()


def test_model_moves_with_to_including_the_positional_buffer():
    model = small_model().to(torch.float64)
    assert model.src.position.pe.dtype == torch.float64
    assert model(ids([5, 6, 2]), ids([1, 4])).dtype == torch.float64
    meta = small_model().to("meta")
    assert model.src.position.pe.device.type == "cpu" and meta.src.position.pe.device.type == "meta"
    checks.check_moves_with_to()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_model_runs_on_cuda_and_matches_cpu():
    model = small_model()
    src, tgt = ids([5, 6, 7, 2]), ids([1, 8, 9])
    expected = model(src, tgt)
    gpu = model.to("cuda")
    assert gpu.src.position.pe.is_cuda
    torch.testing.assert_close(gpu(src.cuda(), tgt.cuda()).cpu(), expected, atol=1e-4, rtol=1e-4)


def test_shared_embeddings_tie_both_embeddings_and_the_output_projection():
    model = Transformer(tiny_config(share_embeddings=True))
    assert model.src.token.weight is model.tgt.token.weight is model.lm_head.weight
    with pytest.raises(ValueError, match="share_embeddings"):
        TransformerConfig(src_vocab_size=10, tgt_vocab_size=11, share_embeddings=True)


def test_encoder_only_model_returns_the_encoder_output():
    model = Transformer(tiny_config(n_decoder_layers=0, positional="learned", type_vocab_size=2, embed_norm=True,
                                    scale_embedding=False, activation="gelu"))
    src = ids([4, 5, 6, 2])
    trace = model.trace(src)
    assert not trace.has_decoder and "src.token_type" in trace
    torch.testing.assert_close(model(src), trace["encoder.out"], **TOL)
    with pytest.raises(ValueError, match="encoder-only"):
        generate(model, src)


def test_input_longer_than_max_len_is_refused_plainly():
    model = small_model()
    with pytest.raises(ValueError, match="longer than max_len"):
        model(torch.ones(1, 25, dtype=torch.long))
