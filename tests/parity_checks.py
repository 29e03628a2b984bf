"""The parity and behaviour checks of the core, as plain functions that raise AssertionError.

The ordinary tests (test_parity_nn_transformer.py, test_model.py, test_trace.py, test_figures.py)
call these on the real code; tests/test_known_bugs.py calls the SAME functions with a classic
Transformer bug put into the code and expects AssertionError. So "the suite catches bug X" means
literally: this check, which runs in the normal suite, rejects X.

Each check builds its models when called, so a bug patched into a class or function applies.
Every reference value here comes from PyTorch's own modules or is written out literally, never
from the code under test (no `causal_mask(...)`, no `trace["tgt.causal_mask"]`, no
`to_torch_*` mask helpers).
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from transformer_core import Transformer, TransformerConfig, generate
from transformer_core.io.interop import config_from_nn_transformer, load_nn_transformer_weights

TOL = dict(atol=1e-5, rtol=1e-5)
VOCAB = 40
PAD = 0


# ------------------------------------------------------------------------------------------------ references

def reference_blocked_future(size: int) -> torch.Tensor:
    """[T, T] bool, True = blocked: nn.Transformer's own causal mask (-inf above the diagonal)."""
    return torch.isinf(nn.Transformer.generate_square_subsequent_mask(size))


def literal_causal_mask(size: int) -> torch.Tensor:
    """[T, T] bool, True = may attend: query t sees keys 0..t, written out without the code under test."""
    return torch.tensor([[key <= query for key in range(size)] for query in range(size)])


def small_model(**overrides) -> Transformer:
    """A seeded random 2+2-layer model in eval mode (vocabulary 30, d_model 24, 3 heads, max_len 20)."""
    torch.manual_seed(0)
    values = dict(src_vocab_size=30, tgt_vocab_size=30, d_model=24, n_heads=3, n_encoder_layers=2,
                  n_decoder_layers=2, d_ff=40, dropout=0.1, max_len=20, share_embeddings=False)
    values.update(overrides)
    return Transformer(TransformerConfig(**values)).eval()


def ids(*rows: list[int]) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.long)


def make_pair(norm_first: bool, final_norm: bool, activation: str = "relu") -> tuple[Transformer, nn.Transformer]:
    """A reference nn.Transformer with random weights and our model loaded from it (both in eval mode)."""
    torch.manual_seed(1234)
    reference = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=3, num_decoder_layers=2, dim_feedforward=48,
                               dropout=0.1, activation=activation, batch_first=True, norm_first=norm_first)
    if not final_norm:  # the paper's post-LN stacks have no final norm; remove nn.Transformer's
        reference.encoder.norm = None
        reference.decoder.norm = None
    config = config_from_nn_transformer(reference, VOCAB, VOCAB)  # final_norm read from the module
    assert config.final_norm == final_norm, f"config_from_nn_transformer read final_norm={config.final_norm}"
    # Random LayerNorm affine weights, so a swapped or skipped norm cannot hide behind weight=1, bias=0.
    with torch.no_grad():
        for name, param in reference.named_parameters():
            if "norm" in name:
                param.uniform_(0.5, 1.5) if name.endswith("weight") else param.uniform_(-0.5, 0.5)
    model = load_nn_transformer_weights(Transformer(config), reference)
    return model.eval(), reference.eval()


def padded_batch() -> tuple[torch.Tensor, torch.Tensor]:
    """Source [3, 7] and target [3, 6] ids with right padding of different lengths."""
    generator = torch.Generator().manual_seed(7)
    src = torch.randint(3, VOCAB, (3, 7), generator=generator)
    tgt = torch.randint(3, VOCAB, (3, 6), generator=generator)
    src[1, 5:] = PAD
    src[2, 3:] = PAD
    tgt[0, 4:] = PAD
    tgt[2, 2:] = PAD
    return src, tgt


def reference_logits(model: Transformer, reference: nn.Transformer, src: torch.Tensor,
                     tgt: torch.Tensor) -> torch.Tensor:
    """Our embeddings and output projection around nn.Transformer's stacks. Its masks are built here in
    PyTorch's convention (True = blocked / ignored), from the ids and nn.Transformer's causal mask."""
    x = model.src(src, src != PAD)
    y = model.tgt(tgt, tgt != PAD)
    out = reference(x, y, tgt_mask=reference_blocked_future(tgt.shape[1]), src_key_padding_mask=src == PAD,
                    tgt_key_padding_mask=tgt == PAD, memory_key_padding_mask=src == PAD)
    return model.lm_head(out)


# ------------------------------------------------------------------------------------------------ parity

def check_stacks_equal_nn_transformer(norm_first: bool = False, final_norm: bool = False, fused: bool = False,
                                      activation: str = "relu") -> None:
    """Encoder output and logits equal nn.Transformer's with the same weights, on a padded batch."""
    model, reference = make_pair(norm_first, final_norm, activation)
    model.fused_attention = fused
    src, tgt = padded_batch()
    x = model.src(src, src != PAD)
    # Gradients stay enabled for the reference: nn.TransformerEncoder's no-grad fast path would
    # return zeros at padded positions (nested tensors) and hide the comparison there.
    memory_ref = reference.encoder(x, src_key_padding_mask=src == PAD)
    memory, _ = model.encode(src)
    torch.testing.assert_close(memory, memory_ref, **TOL)
    torch.testing.assert_close(model(src, tgt), reference_logits(model, reference, src, tgt), **TOL)


def check_packed_inference_equals_nn_transformer(norm_first: bool = False) -> None:
    """Under torch.no_grad() (the app's inference: fused attention, one packed [3D, D] Q/K/V projection
    for self-attention) the logits equal nn.Transformer's (run with autograd on, its exact path)."""
    model, reference = make_pair(norm_first, final_norm=False)
    src, tgt = padded_batch()
    expected = reference_logits(model, reference, src, tgt)
    model.fused_attention = True
    with torch.no_grad():
        packed = model(src, tgt)
    assert model.encoder.layers[0].self_attn._packed_cache is not None, "the packed path did not run"
    torch.testing.assert_close(packed, expected, **TOL)


def check_heads_equal_nn_multihead_attention(norm_first: bool = False) -> None:
    """Every layer's per-head weights and output equal nn.MultiheadAttention's (need_weights, per head),
    self- and cross-attention, each fed the recorded input of that attention."""
    model, reference = make_pair(norm_first, final_norm=False)
    src, tgt = padded_batch()
    trace = model.trace(src, tgt)
    blocked_future = reference_blocked_future(tgt.shape[1])

    def check(prefix: str, mha: nn.MultiheadAttention, query, key_value, key_padding_mask, attn_mask=None):
        out, weights = mha(query, key_value, key_value, key_padding_mask=key_padding_mask, attn_mask=attn_mask,
                           need_weights=True, average_attn_weights=False)  # weights [B, H, T, S]
        torch.testing.assert_close(trace[f"{prefix}.weights"], weights, **TOL)
        torch.testing.assert_close(trace[f"{prefix}.out"], out, **TOL)

    for i, layer in enumerate(reference.encoder.layers):
        # The attention's input: the layer input (post-LN) or its LayerNorm (pre-LN).
        attn_in = trace[f"encoder.{i}.norm1"] if norm_first else trace[f"encoder.{i}.in"]
        check(f"encoder.{i}.self_attn", layer.self_attn, attn_in, attn_in, src == PAD)
    memory = trace["encoder.out"]
    for i, layer in enumerate(reference.decoder.layers):
        self_in = trace[f"decoder.{i}.norm1"] if norm_first else trace[f"decoder.{i}.in"]
        check(f"decoder.{i}.self_attn", layer.self_attn, self_in, self_in, tgt == PAD, blocked_future)
        cross_in = trace[f"decoder.{i}.norm2"] if norm_first else trace[f"decoder.{i}.norm1"]
        check(f"decoder.{i}.cross_attn", layer.multihead_attn, cross_in, memory, src == PAD)


def check_masks_convert_to_pytorch_convention() -> None:
    """The helpers for nn.MultiheadAttention turn ours (True = may attend) into PyTorch's (True = blocked)."""
    from transformer_core.models.masks import to_torch_attn_mask, to_torch_key_padding_mask

    ours = torch.tensor([[True, True, False]])
    assert to_torch_key_padding_mask(ours).tolist() == [[False, False, True]]
    assert torch.equal(to_torch_attn_mask(literal_causal_mask(4)), reference_blocked_future(4))


# ------------------------------------------------------------------------------------------------ behaviour

def check_decoder_never_looks_ahead() -> None:
    """Decoder self-attention puts zero weight on future keys (literal upper triangle) and each row sums to 1."""
    model = small_model()
    trace = model.trace(ids([5, 6, 7, 2]), ids([1, 8, 9, 10, 11]))
    future = ~literal_causal_mask(5)
    for i in range(model.config.n_decoder_layers):
        weights = trace[f"decoder.{i}.self_attn.weights"][0]  # [H, T, T]
        assert torch.all(weights[:, future] == 0), f"decoder.{i} attends to a future position"
        torch.testing.assert_close(weights.sum(-1), torch.ones(model.config.n_heads, 5))


def check_future_target_token_leaves_earlier_logits() -> None:
    """Changing target token t changes logits at t and at no earlier position."""
    model = small_model()
    src = ids([5, 6, 7, 2])
    first = model(src, ids([1, 8, 9, 10]))
    second = model(src, ids([1, 8, 9, 25]))
    torch.testing.assert_close(first[:, :3], second[:, :3], **TOL)
    assert not torch.allclose(first[:, 3], second[:, 3])


def check_fully_masked_rows_are_zero_not_nan(fused: bool = False) -> None:
    """A source of nothing but padding: every traced tensor finite, its attention rows all zero."""
    model = small_model()
    model.fused_attention = fused
    src = ids([5, 6, 7, 2], [0, 0, 0, 0])  # the second source is all padding: no key to attend to
    tgt = ids([1, 8, 9], [1, 8, 9])
    assert torch.isfinite(model(src, tgt)).all(), "NaN/inf in the logits"
    trace = model.trace(src, tgt)
    for name, tensor in trace.items():
        if tensor.is_floating_point() and not name.endswith("masked_scores"):
            assert torch.isfinite(tensor).all(), name
    assert torch.all(trace["encoder.0.self_attn.weights"][1] == 0)
    assert torch.all(trace["decoder.0.cross_attn.weights"][1] == 0)
    torch.testing.assert_close(trace["decoder.0.cross_attn.weights"][0].sum(-1), torch.ones(3, 3))


def check_weights_are_scaled_masked_softmax(trace) -> None:
    """scores = Q Kᵀ / √d_k from the recorded Q and K; weights = softmax of the scores with the literal
    causal mask applied (decoder self-attention)."""
    q, k = trace["encoder.0.self_attn.q"], trace["encoder.0.self_attn.k"]
    d_k = q.shape[-1]
    torch.testing.assert_close(trace["encoder.0.self_attn.scores"], q @ k.transpose(-2, -1) / math.sqrt(d_k))
    scores = trace["decoder.0.self_attn.scores"]
    blocked = ~literal_causal_mask(scores.shape[-1])
    torch.testing.assert_close(trace["decoder.0.self_attn.masked_scores"], scores.masked_fill(blocked, float("-inf")))
    torch.testing.assert_close(trace["decoder.0.self_attn.weights"],
                               torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1))


def check_positional_encoding_is_the_papers_formula() -> None:
    """The model's `src.pos` is PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...)."""
    d_model, length = 24, 12
    pos = small_model().trace(ids(list(range(3, 3 + length))))["src.pos"]
    expected = torch.zeros(length, d_model)
    for p in range(length):
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            expected[p, 2 * i], expected[p, 2 * i + 1] = math.sin(angle), math.cos(angle)
    torch.testing.assert_close(pos, expected, atol=1e-6, rtol=0)


def check_moves_with_to() -> None:
    """`.to(float64)` reaches the positional table and every traced tensor; `.to("meta")` moves it too."""
    model = small_model().to(torch.float64)
    trace = model.trace(ids([5, 6, 2]), ids([1, 4]))
    for name, tensor in trace.items():
        if tensor.is_floating_point():
            assert tensor.dtype == torch.float64, f"{name} stayed {tensor.dtype} after .to(float64)"
    assert small_model().to("meta").src.position(3).device.type == "meta", "the PE table did not move"


def check_trace_records_without_dropout() -> None:
    """A model in training mode (dropout 0.5) traces the same numbers twice and stays in training mode."""
    model = small_model(dropout=0.5).train()
    src, tgt = ids([5, 6, 7, 2]), ids([1, 8, 9])
    first, second = model.trace(src, tgt), model.trace(src, tgt)
    assert model.training, "trace left the model in eval mode"
    for name in first:
        torch.testing.assert_close(first[name], second[name], msg=f"{name} differs between two traces")
    assert first["logits"].grad_fn is None


def check_packed_projection_follows_weight_updates() -> None:
    """After an in-place weight update (an optimizer step) the packed path uses the new weights."""
    model = small_model()
    src, tgt = ids([5, 6, 7, 2, 0], [9, 3, 4, 5, 2]), ids([1, 8, 9, 0], [1, 4, 4, 5])
    with torch.no_grad():
        before = model(src, tgt)
        model.encoder.layers[0].self_attn.w_v.weight.mul_(2.0)
        packed = model(src, tgt)
        model.fused_attention = False
        manual = model(src, tgt)
    torch.testing.assert_close(packed, manual, **TOL)
    assert not torch.allclose(packed, before, atol=1e-3)


def check_greedy_decoding_pads_after_eos() -> None:
    """Two sources decoded together; a patch on the logits makes row 0 say EOS at once and row 1 never:
    row 0 is BOS, EOS, then only padding, row 1 runs to the limit."""
    model = small_model()
    cfg = model.config
    filler = 7

    def eos_for_row_0(logits: torch.Tensor) -> torch.Tensor:  # [B, t, V]: bias the last position
        logits = logits.clone()
        logits[0, -1, cfg.eos_token_id] += 1e4
        logits[1, -1, filler] += 1e4
        return logits

    out = generate(model, ids([5, 6, 7, 2], [9, 9, 9, 2]), max_new_tokens=6,
                   patches={"logits": eos_for_row_0}).ids
    assert out.tolist() == [[cfg.bos_token_id, cfg.eos_token_id] + [cfg.pad_token_id] * 5,
                            [cfg.bos_token_id] + [filler] * 6], out.tolist()


def check_text_trace_is_the_models_own_output(loaded, text: str) -> None:
    """trace_text on a loaded encoder-decoder: the source tokens are the tokenizer's, the recorded target
    is BOS + the model's greedy output (each token the argmax of the logits one step before), and
    output_text decodes exactly that output."""
    import transformer_core

    result = transformer_core.trace_text(loaded, text)
    tokenizer = loaded.tokenizer
    assert result.src_tokens == tokenizer.convert_ids_to_tokens(tokenizer(text)["input_ids"])
    out_ids = tokenizer.convert_tokens_to_ids(result.tgt_tokens)
    assert out_ids[0] == loaded.config.bos_token_id, result.tgt_tokens
    assert result.predicted_tokens[:-1] == result.tgt_tokens[1:], (result.predicted_tokens, result.tgt_tokens)
    assert result.output_text == tokenizer.decode(out_ids[1:], skip_special_tokens=True)
    assert result.trace["logits"].shape == (1, len(out_ids), loaded.config.tgt_vocab_size)


def check_heatmap_axes_keep_repeated_tokens_apart() -> None:
    """An attention map over "the cat the" has three distinct categories per axis (plotly would merge equal ones)."""
    from explorer.figures import figures

    tokens = ["the", "cat", "the"]
    fig = figures.attention_heatmap(np.eye(3, dtype=np.float32), tokens, tokens, title="t", lang="en")
    heatmap = fig.data[0]
    assert len(set(heatmap.x)) == 3 and len(set(heatmap.y)) == 3, (heatmap.x, heatmap.y)
