"""Marian checkpoints (transformers' MarianMTModel, e.g. Helsinki-NLP/opus-mt-ko-en) in the from-scratch core.

Marian is the paper's post-LN encoder-decoder with a few choices of its own, each switched on through
the config, never by special code in the model:
    - sinusoidal positions in halves: sines in the first half of the vector, cosines in the second
      (`sinusoidal_layout="halves"`; the paper interleaves them);
    - token embeddings x sqrt(d_model) (`scale_embedding`, as the paper) and no LayerNorm on the input;
    - SiLU ("swish") in the feed-forward network (`activation="silu"`);
    - one shared embedding matrix for source, target and the output projection (`share_embeddings`),
      plus `final_logits_bias`, a bias on the logits (the core's lm_head.bias);
    - decoding starts with the pad token (`bos_token_id = decoder_start_token_id = pad_token_id`).
The weights are renamed onto the core's `state_dict` by ONE explicit table, `marian_weight_names`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import torch

from transformer_core.io.files import LoadedModel, load_tokenizer
from transformer_core.models.config import TransformerConfig
from transformer_core.models.transformer import Transformer, sinusoidal_table

# transformers' activation names -> the core's
MARIAN_ACTIVATIONS = {"swish": "silu", "silu": "silu", "gelu": "gelu", "relu": "relu"}

# Checkpoint entries the core has no place for, on purpose:
#   *.embed_positions.weight   the sinusoidal table (the core computes it; checked equal when present)
IGNORED_MARIAN_WEIGHTS = ("model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight")
# With shared embeddings these are the same matrix as model.shared.weight (older checkpoints store copies).
SHARED_ALIASES = ("model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight", "lm_head.weight")


def marian_weight_names(config: TransformerConfig) -> Iterator[tuple[str, str]]:
    """(core name, MarianMTModel name) for every weight: the one mapping between them.

    final_logits_bias is [1, V] in Marian and [V] in the core (reshaped by marian_state_dict).
    """
    if config.share_embeddings:  # src.token, tgt.token and lm_head are one Parameter in the core
        for core in ("src.token.weight", "tgt.token.weight", "lm_head.weight"):
            yield core, "model.shared.weight"
    else:
        yield "src.token.weight", "model.encoder.embed_tokens.weight"
        yield "tgt.token.weight", "model.decoder.embed_tokens.weight"
        yield "lm_head.weight", "lm_head.weight"
    yield "lm_head.bias", "final_logits_bias"
    # weight names written out (not built): this map is the contract with transformers' MarianMTModel
    encoder = {
        "self_attn.w_q": "self_attn.q_proj", "self_attn.w_k": "self_attn.k_proj",
        "self_attn.w_v": "self_attn.v_proj", "self_attn.w_o": "self_attn.out_proj",
        "sublayer1.norm": "self_attn_layer_norm",  # post-LN after self-attention + residual
        "ffn.linear1": "fc1",
        "ffn.linear2": "fc2",
        "sublayer2.norm": "final_layer_norm",  # post-LN after the feed-forward + residual
    }
    decoder = {
        "self_attn.w_q": "self_attn.q_proj", "self_attn.w_k": "self_attn.k_proj",
        "self_attn.w_v": "self_attn.v_proj", "self_attn.w_o": "self_attn.out_proj",
        "sublayer1.norm": "self_attn_layer_norm",
        "cross_attn.w_q": "encoder_attn.q_proj", "cross_attn.w_k": "encoder_attn.k_proj",
        "cross_attn.w_v": "encoder_attn.v_proj", "cross_attn.w_o": "encoder_attn.out_proj",
        "sublayer2.norm": "encoder_attn_layer_norm",  # after cross-attention + residual
        "ffn.linear1": "fc1",
        "ffn.linear2": "fc2",
        "sublayer3.norm": "final_layer_norm",
    }
    stacks = (("encoder", encoder, config.n_encoder_layers), ("decoder", decoder, config.n_decoder_layers))
    for stack, table, n in stacks:
        for i in range(n):
            for core, hf in table.items():
                for param in ("weight", "bias"):
                    yield f"{stack}.layers.{i}.{core}.{param}", f"model.{stack}.layers.{i}.{hf}.{param}"


def marian_config(raw: dict) -> TransformerConfig:
    """TransformerConfig from a transformers Marian config.json dict; raises on variants the core lacks."""
    if raw.get("model_type") != "marian":
        raise ValueError(f"not a Marian config (model_type={raw.get('model_type')!r})")
    activation = MARIAN_ACTIVATIONS.get(raw.get("activation_function", "swish"))
    if activation is None:
        raise ValueError(f"activation_function {raw.get('activation_function')!r} is not supported "
                         f"(only {', '.join(MARIAN_ACTIVATIONS)})")
    # The core has one head count and one d_ff for both stacks.
    for enc, dec in (("encoder_attention_heads", "decoder_attention_heads"), ("encoder_ffn_dim", "decoder_ffn_dim")):
        if raw[enc] != raw[dec]:
            raise ValueError(f"{enc}={raw[enc]} differs from {dec}={raw[dec]}; the core needs them equal")
    if raw.get("normalize_before") or raw.get("add_final_layer_norm") or raw.get("normalize_embedding"):
        raise ValueError("pre-LN / extra-LayerNorm Marian variants are not supported; only the post-LN original")
    vocab = raw["vocab_size"]
    shared = bool(raw.get("share_encoder_decoder_embeddings", True))
    tgt_vocab = vocab if shared else raw.get("decoder_vocab_size") or vocab
    pad = raw["pad_token_id"]
    return TransformerConfig(
        src_vocab_size=vocab,
        tgt_vocab_size=tgt_vocab,
        d_model=raw["d_model"],
        n_heads=raw["encoder_attention_heads"],
        n_encoder_layers=raw["encoder_layers"],
        n_decoder_layers=raw["decoder_layers"],
        d_ff=raw["encoder_ffn_dim"],
        dropout=raw.get("dropout", 0.1),
        norm_first=False,  # post-LN, as the paper
        final_norm=False,  # no LayerNorm after either stack
        max_len=raw["max_position_embeddings"],
        activation=activation,
        positional="sinusoidal",
        sinusoidal_layout="halves",
        layer_norm_eps=1e-5,  # nn.LayerNorm's default, which Marian's layers use
        scale_embedding=bool(raw.get("scale_embedding", False)),
        embed_norm=False,
        type_vocab_size=0,
        # Tied all three ways only when transformers ties them too; otherwise three separate matrices.
        share_embeddings=shared and bool(raw.get("tie_word_embeddings", True)),
        pad_token_id=pad,
        bos_token_id=raw.get("decoder_start_token_id", pad) if raw.get("decoder_start_token_id") is not None else pad,
        eos_token_id=raw["eos_token_id"],
    )


def marian_state_dict(weights: dict[str, torch.Tensor], config: TransformerConfig) -> dict[str, torch.Tensor]:
    """The core's state_dict filled from MarianMTModel's weights; raises if any weight is missing, left over,
    or a stored copy disagrees (a tied alias that differs from model.shared, a positional table in another layout)."""
    mapping = list(marian_weight_names(config))
    used = {hf for _, hf in mapping}
    weights = dict(weights)
    if config.share_embeddings and "model.shared.weight" not in weights:
        # safetensors keeps one name of a tied group; a checkpoint may keep another one
        alias = next((a for a in SHARED_ALIASES if a in weights), None)
        if alias is not None:
            weights["model.shared.weight"] = weights[alias]
    missing = [hf for hf in used if hf not in weights]
    if "final_logits_bias" in missing:  # transformers itself treats it as optional (zeros)
        weights["final_logits_bias"] = torch.zeros(1, config.tgt_vocab_size)
        missing.remove("final_logits_bias")
    ignored = set(IGNORED_MARIAN_WEIGHTS) | (set(SHARED_ALIASES) if config.share_embeddings else set())
    unused = sorted(set(weights) - used - ignored)
    if missing or unused:
        raise ValueError(f"Marian weights do not match the core's mapping: missing {sorted(missing)}, unused {unused}")
    if config.share_embeddings:
        for alias in SHARED_ALIASES:
            if alias in weights and not torch.equal(weights[alias], weights["model.shared.weight"]):
                raise ValueError(f"{alias} differs from model.shared.weight, but the config says they are tied")
    table = sinusoidal_table(config.max_len, config.d_model, config.sinusoidal_layout)
    for name in IGNORED_MARIAN_WEIGHTS:
        if name in weights and not torch.allclose(weights[name].float()[: config.max_len], table, atol=1e-5):
            raise ValueError(f"{name} is not the sinusoidal table in Marian's layout")
    state = {core: weights[hf] for core, hf in mapping}
    state["lm_head.bias"] = state["lm_head.bias"].reshape(-1)  # [1, V] -> [V]
    return state


MARIAN_DESCRIPTION = (
    "Your Marian checkpoint (transformers MarianMTModel): the paper's post-LN encoder-decoder, with sinusoidal "
    "positions in halves (sines, then cosines), embeddings x sqrt(d_model), SiLU, a logits bias, one shared "
    "embedding matrix; decoding starts with the pad token."
)


def load_marian_dir(directory: str | Path, name: str | None = None,
                    device: torch.device | str = "cpu") -> LoadedModel:
    """A transformers MarianMTModel directory (config.json, weights, source.spm, target.spm, vocab.json)
    as a core model."""
    from transformer_core.io.hf import read_config, read_weights

    directory = Path(directory)
    config = marian_config(read_config(directory))
    tokenizer = load_tokenizer(directory)
    model = Transformer(config)
    state = marian_state_dict(read_weights(directory), config)
    core_names = set(model.state_dict())
    if set(state) != core_names:  # the mapping must fill every core parameter, and nothing else
        raise ValueError(f"mapping vs core: unfilled {sorted(core_names - set(state))}, "
                         f"unknown {sorted(set(state) - core_names)}")
    model.load_state_dict(state, strict=True)  # also checks every shape
    model.to(device).eval()
    return LoadedModel(
        name=name or directory.name, model=model, tokenizer=tokenizer, config=config, kind="encoder-decoder",
        directory=directory, trained=True, description=MARIAN_DESCRIPTION, architecture="marian",
    )
