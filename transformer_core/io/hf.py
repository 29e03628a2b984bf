"""Hugging Face checkpoints (what `save_pretrained` or a download writes) in the from-scratch core.

A transformers checkpoint directory holds config.json (with `model_type`), the weights
(model.safetensors, or the older pytorch_model.bin) and the tokenizer's files. Each supported
`model_type` has ONE explicit weight map in its own module (bert.py, marian.py); this module only
recognises the directory, reads the weights and names what is missing; loading.py dispatches.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from transformer_core.io.files import MODEL_TYPES

WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")

BERT_DESCRIPTION = (
    "Your BERT checkpoint (transformers BertModel / BertFor*): a post-LN encoder with learned positions, "
    "token-type embeddings, a LayerNorm on the input, GELU and no sqrt(d_model) scaling. Encoder only: the "
    "pages show its attention and hidden states; a task head (masked-word, classifier) is not traced."
)

# model_type -> (what the picker calls it, tokenizer files: any one of each inner tuple must exist)
HF_ARCHITECTURES: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {
    "bert": ("BERT encoder", (("tokenizer.json", "vocab.txt"),)),
    "marian": ("Marian encoder-decoder", (("source.spm",), ("target.spm",), ("vocab.json",))),
}


def is_hf_model_type(model_type: str) -> bool:
    """True for a transformers model_type this project can load."""
    return model_type in HF_ARCHITECTURES


def weights_file(directory: Path) -> Path | None:
    """The directory's weights file (safetensors first), or None."""
    for name in WEIGHT_FILES:
        if (directory / name).is_file():
            return directory / name
    return None


def check_hf_dir(directory: Path, model_type: str) -> str:
    """'' if a transformers checkpoint directory has what loading needs, else a reason naming what is missing."""
    if model_type not in HF_ARCHITECTURES:
        return unsupported_reason(directory, model_type)
    missing = []
    if weights_file(directory) is None:
        missing.append(" or ".join(WEIGHT_FILES))
    for alternatives in HF_ARCHITECTURES[model_type][1]:
        if not any((directory / f).is_file() for f in alternatives):
            missing.append(" or ".join(alternatives))
    if missing:
        return f"{directory.name}: a {model_type} checkpoint, but missing {', '.join(missing)}"
    return ""


def unsupported_reason(directory: Path, model_type: str) -> str:
    """The message for a config.json whose model_type no loader knows."""
    known = ", ".join([*MODEL_TYPES, *HF_ARCHITECTURES])
    if not model_type:
        return f"{directory.name}: config.json has no model_type (supported: {known})"
    return f"{directory.name}: model_type {model_type!r} is not supported (supported: {known})"


def read_weights(directory: Path) -> dict[str, torch.Tensor]:
    """Every tensor of the checkpoint, on the CPU, by its transformers name."""
    path = weights_file(directory)
    if path is None:
        raise FileNotFoundError(f"{directory.name}: no {' or '.join(WEIGHT_FILES)}")
    if path.suffix == ".safetensors":
        from safetensors.torch import load_file

        return load_file(str(path))
    return torch.load(path, map_location="cpu", weights_only=True)  # weights_only: a .bin may not run code


def read_config(directory: Path) -> dict:
    return json.loads((directory / "config.json").read_text(encoding="utf-8"))
