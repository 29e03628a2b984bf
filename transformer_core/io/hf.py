"""Hugging Face checkpoints (what `save_pretrained` or a download writes) in the from-scratch core.

A transformers checkpoint directory holds config.json (with `model_type`), the weights
(model.safetensors, or the older pytorch_model.bin) and the tokenizer's files. Each supported
`model_type` has ONE explicit weight map in its own module (bert.py, marian.py) and one entry in
families.py (its files, loader, label); this module only finds and reads the weights and the config.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")

def weights_file(directory: Path) -> Path | None:
    """The directory's weights file (safetensors first), or None."""
    for name in WEIGHT_FILES:
        if (directory / name).is_file():
            return directory / name
    return None


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
