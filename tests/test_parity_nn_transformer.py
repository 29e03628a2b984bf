"""The from-scratch core equals PyTorch's reference, nn.Transformer / nn.MultiheadAttention, at 1e-5."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from transformer_core import Transformer, TransformerConfig
from transformer_core.interop import config_from_nn_transformer, load_nn_transformer_weights
from transformer_core.masks import causal_mask, to_torch_attn_mask, to_torch_key_padding_mask

TOL = dict(atol=1e-5, rtol=1e-5)
VOCAB = 40
pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True:UserWarning")
PAD = 0


def make_pair(norm_first: bool, final_norm: bool, activation: str = "relu") -> tuple[Transformer, nn.Transformer]:
    """A reference nn.Transformer with random weights and our model loaded from it."""
    torch.manual_seed(1234)
    reference = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=3, num_decoder_layers=2, dim_feedforward=48,
                               dropout=0.1, activation=activation, batch_first=True, norm_first=norm_first)
    if not final_norm:  # the paper's post-LN stacks have no final norm; remove nn.Transformer's
        reference.encoder.norm = None
        reference.decoder.norm = None
    config = config_from_nn_transformer(reference, VOCAB, VOCAB, final_norm=final_norm)
    model = load_nn_transformer_weights(Transformer(config), reference)
    # Random LayerNorm affine weights, so a swapped or skipped norm cannot hide behind weight=1, bias=0.
    with torch.no_grad():
        for name, param in reference.named_parameters():
            if "norm" in name:
                param.uniform_(0.5, 1.5) if name.endswith("weight") else param.uniform_(-0.5, 0.5)
    load_nn_transformer_weights(model, reference)
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


def reference_logits(model: Transformer, reference: nn.Transformer, src, tgt) -> torch.Tensor:
    """Our embeddings and output projection around nn.Transformer's stacks (its masks: True = blocked)."""
    src_mask, tgt_mask = src != PAD, tgt != PAD
    x = model.src(src, src_mask)
    y = model.tgt(tgt, tgt_mask)
    out = reference(
        x, y, tgt_mask=to_torch_attn_mask(causal_mask(tgt.shape[1])),
        src_key_padding_mask=to_torch_key_padding_mask(src_mask),
        tgt_key_padding_mask=to_torch_key_padding_mask(tgt_mask),
        memory_key_padding_mask=to_torch_key_padding_mask(src_mask),
    )
    return model.lm_head(out)


CASES = [(norm_first, final_norm) for norm_first in (False, True) for final_norm in (False, True)]


@pytest.mark.parametrize("fused", [False, True], ids=["manual", "fused"])
@pytest.mark.parametrize("norm_first,final_norm", CASES, ids=[f"norm_first={a}-final_norm={b}" for a, b in CASES])
def test_encoder_and_decoder_stacks_equal_nn_transformer(norm_first, final_norm, fused):
    model, reference = make_pair(norm_first, final_norm)
    model.fused_attention = fused
    src, tgt = padded_batch()
    src_mask = src != PAD
    x = model.src(src, src_mask)
    # Gradients stay enabled for the reference: nn.TransformerEncoder's no-grad fast path would
    # return zeros at padded positions (nested tensors) and hide the comparison there.
    memory_ref = reference.encoder(x, src_key_padding_mask=to_torch_key_padding_mask(src_mask))
    memory, _ = model.encode(src, src_mask)
    torch.testing.assert_close(memory, memory_ref, **TOL)
    torch.testing.assert_close(model(src, tgt), reference_logits(model, reference, src, tgt), **TOL)


def test_gelu_layers_equal_nn_transformer():
    model, reference = make_pair(norm_first=False, final_norm=True, activation="gelu")
    assert model.config.activation == "gelu"
    src, tgt = padded_batch()
    torch.testing.assert_close(model(src, tgt), reference_logits(model, reference, src, tgt), **TOL)


@pytest.mark.parametrize("norm_first", [False, True], ids=["post-LN", "pre-LN"])
def test_every_head_of_every_layer_equals_nn_multihead_attention(norm_first):
    model, reference = make_pair(norm_first, final_norm=False)
    src, tgt = padded_batch()
    trace = model.trace(src, tgt)
    src_pad = to_torch_key_padding_mask(trace["src.mask"])
    tgt_pad = to_torch_key_padding_mask(trace["tgt.mask"])
    blocked_future = to_torch_attn_mask(trace["tgt.causal_mask"])

    def check(prefix: str, mha: nn.MultiheadAttention, query, key_value, key_padding_mask, attn_mask=None):
        out, weights = mha(query, key_value, key_value, key_padding_mask=key_padding_mask, attn_mask=attn_mask,
                           need_weights=True, average_attn_weights=False)  # weights [B, H, T, S]
        torch.testing.assert_close(trace[f"{prefix}.weights"], weights, **TOL)
        torch.testing.assert_close(trace[f"{prefix}.out"], out, **TOL)

    for i, layer in enumerate(reference.encoder.layers):
        # The attention's input: the layer input (post-LN) or its LayerNorm (pre-LN).
        attn_in = trace[f"encoder.{i}.norm1"] if norm_first else trace[f"encoder.{i}.in"]
        check(f"encoder.{i}.self_attn", layer.self_attn, attn_in, attn_in, src_pad)
    memory = trace["encoder.out"]
    for i, layer in enumerate(reference.decoder.layers):
        self_in = trace[f"decoder.{i}.norm1"] if norm_first else trace[f"decoder.{i}.in"]
        check(f"decoder.{i}.self_attn", layer.self_attn, self_in, self_in, tgt_pad, blocked_future)
        cross_in = trace[f"decoder.{i}.norm2"] if norm_first else trace[f"decoder.{i}.norm1"]
        check(f"decoder.{i}.cross_attn", layer.multihead_attn, cross_in, memory, src_pad)


def test_cross_attention_projects_values_with_w_v_not_w_k():
    """The classic tutorial bug (V = x W_K) changes the output; ours uses each projection once."""
    model, reference = make_pair(norm_first=False, final_norm=False)
    src, tgt = padded_batch()
    expected = reference_logits(model, reference, src, tgt)
    with torch.no_grad():
        attention = model.decoder.layers[0].cross_attn
        attention.w_v.weight.copy_(attention.w_k.weight)
        attention.w_v.bias.copy_(attention.w_k.bias)
    assert not torch.allclose(model(src, tgt), expected, atol=1e-3)


def test_loading_rejects_a_module_of_another_shape():
    reference = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                               dim_feedforward=48, batch_first=True)
    wrong_layers = Transformer(TransformerConfig(src_vocab_size=VOCAB, tgt_vocab_size=VOCAB, d_model=32, n_heads=4,
                                                 n_encoder_layers=3, n_decoder_layers=2, d_ff=48))
    with pytest.raises(ValueError, match="layer counts"):
        load_nn_transformer_weights(wrong_layers, reference)
    wrong_width = Transformer(TransformerConfig(src_vocab_size=VOCAB, tgt_vocab_size=VOCAB, d_model=32, n_heads=4,
                                                n_encoder_layers=2, n_decoder_layers=2, d_ff=64, final_norm=True))
    with pytest.raises(ValueError, match="shape"):
        load_nn_transformer_weights(wrong_width, reference)


def test_loading_warns_when_final_norms_would_be_dropped():
    reference = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                               dim_feedforward=48, batch_first=True)
    model = Transformer(config_from_nn_transformer(reference, VOCAB, VOCAB, final_norm=False))
    with pytest.warns(UserWarning, match="final LayerNorms"):
        load_nn_transformer_weights(model, reference)
