"""Weights in from PyTorch's own reference, `torch.nn.Transformer(batch_first=True)`.

Someone who built an nn.Transformer in class can load its layers here and look inside.
nn.Transformer has no embeddings or output projection: those stay as they are in `model`.
"""

from __future__ import annotations

import warnings

import torch
from torch import nn

from transformer_core.models.config import TransformerConfig
from transformer_core.models.transformer import MultiHeadAttention, Transformer


def config_from_nn_transformer(module: nn.Transformer, src_vocab_size: int, tgt_vocab_size: int,
                               **overrides) -> TransformerConfig:
    """A TransformerConfig with the module's dimensions, norm placement and activation."""
    first = module.encoder.layers[0]
    activation = {1: "relu", 2: "gelu"}.get(getattr(first, "activation_relu_or_gelu", 0))
    if activation is None:
        raise ValueError("only ReLU or GELU nn.Transformer layers can be loaded")
    values = dict(
        src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size, d_model=first.self_attn.embed_dim,
        n_heads=first.self_attn.num_heads, n_encoder_layers=len(module.encoder.layers),
        n_decoder_layers=len(module.decoder.layers), d_ff=first.linear1.out_features,
        dropout=first.dropout.p, norm_first=first.norm_first,
        final_norm=module.encoder.norm is not None, activation=activation, layer_norm_eps=first.norm1.eps,
        share_embeddings=False,  # nn.Transformer has no embeddings: ours are loaded separately
    )
    values.update(overrides)
    return TransformerConfig(**values)


def load_nn_transformer_weights(model: Transformer, module: nn.Transformer) -> Transformer:
    """Copy every layer's weights (and the final norms when `final_norm`) from `module` into `model`.

    nn.MultiheadAttention keeps W_Q, W_K, W_V stacked in one `in_proj_weight` [3D, D]; it is split
    here into the separate projections. Raises ValueError when the architectures differ.
    """
    cfg = model.config
    enc_layers, dec_layers = module.encoder.layers, module.decoder.layers
    if len(enc_layers) != cfg.n_encoder_layers or len(dec_layers) != cfg.n_decoder_layers:
        raise ValueError(
            f"layer counts differ: module has {len(enc_layers)}+{len(dec_layers)}, "
            f"model has {cfg.n_encoder_layers}+{cfg.n_decoder_layers}")
    if enc_layers[0].norm_first != cfg.norm_first:
        raise ValueError(f"norm_first differs: module {enc_layers[0].norm_first}, model {cfg.norm_first}")
    if not getattr(module, "batch_first", enc_layers[0].self_attn.batch_first):
        warnings.warn("module is not batch_first; weights are the same but its inputs are [S, B, D]", stacklevel=2)
    with torch.no_grad():
        for ours, theirs in zip(model.encoder.layers, enc_layers, strict=True):
            _copy_attention(ours.self_attn, theirs.self_attn)
            _copy_ffn(ours, theirs)
            _copy_norms(ours, theirs, 2)
        for ours, theirs in zip(model.decoder.layers, dec_layers, strict=True):
            _copy_attention(ours.self_attn, theirs.self_attn)
            _copy_attention(ours.cross_attn, theirs.multihead_attn)
            _copy_ffn(ours, theirs)
            _copy_norms(ours, theirs, 3)
        if cfg.final_norm:
            for ours, theirs in ((model.encoder.norm, module.encoder.norm), (model.decoder.norm, module.decoder.norm)):
                if theirs is None:
                    raise ValueError("model has final_norm=True but the module has no final norm")
                _copy(ours, theirs, "weight", "bias")
        elif module.encoder.norm is not None or module.decoder.norm is not None:
            warnings.warn("the module has final LayerNorms that this model (final_norm=False) will not apply; "
                          "set final_norm=True to match nn.Transformer's output", stacklevel=2)
    return model


def _copy(ours: nn.Module, theirs: nn.Module, *names: str) -> None:
    for name in names:
        target, source = getattr(ours, name), getattr(theirs, name)
        if target.shape != source.shape:
            raise ValueError(f"{name}: shape {tuple(source.shape)} does not fit {tuple(target.shape)}")
        target.copy_(source)


def _copy_attention(ours: MultiHeadAttention, theirs: nn.MultiheadAttention) -> None:
    if theirs.in_proj_weight is None:
        raise ValueError("nn.MultiheadAttention with separate kdim/vdim is not supported")
    w_q, w_k, w_v = theirs.in_proj_weight.chunk(3, dim=0)  # [3D, D] -> 3 x [D, D], in Q, K, V order
    b_q, b_k, b_v = theirs.in_proj_bias.chunk(3, dim=0)
    for linear, weight, bias in ((ours.w_q, w_q, b_q), (ours.w_k, w_k, b_k), (ours.w_v, w_v, b_v)):
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    _copy(ours.w_o, theirs.out_proj, "weight", "bias")


def _copy_ffn(ours: nn.Module, theirs: nn.Module) -> None:
    _copy(ours.ffn.linear1, theirs.linear1, "weight", "bias")
    _copy(ours.ffn.linear2, theirs.linear2, "weight", "bias")


def _copy_norms(ours: nn.Module, theirs: nn.Module, count: int) -> None:
    for j in range(1, count + 1):
        _copy(getattr(ours, f"sublayer{j}").norm, getattr(theirs, f"norm{j}"), "weight", "bias")
