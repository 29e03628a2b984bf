"""The model families: ONE table, keyed by config.json's `model_type`, that says everything the loader,
the picker and the error messages need to know about a kind of model.

A family is either this project's own (`native`: config.json holds the config's fields, the weights are
`model.safetensors` written by `save_model_dir`) or a transformers checkpoint (`checkpoint`: what
`save_pretrained` writes; its `load` reads the weights through the family's one explicit weight map).

Adding a family: its config and model classes (or a weight map in its own module, as bert.py), then one
`ModelFamily(...)` entry below; nothing else in the loader changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import torch

from transformer_core.io.bert import bert_weight_names, load_bert_checkpoint, load_minilm, minilm_available
from transformer_core.io.builtin_models import load_paper_base, paper_base_available
from transformer_core.io.files import MODEL_TYPE, LoadedModel
from transformer_core.io.hf import WEIGHT_FILES
from transformer_core.io.marian import load_marian_dir, marian_weight_names
from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import MODEL_TYPE as RNN_MODEL_TYPE
from transformer_core.models.rnn import RNNConfig, RNNTranslator
from transformer_core.models.transformer import Transformer

# A checkpoint family's loader: (directory, name, device) -> LoadedModel.
DirLoader = Callable[..., LoadedModel]
# A built-in model made in code: (device) -> LoadedModel, and () -> '' when it can load here, else why not.
Builtin = tuple[Callable[..., LoadedModel], Callable[[], str]]


@dataclass(frozen=True)
class ModelFamily:
    """One `model_type`: its classes, files, weight map, label and what the app can do with it."""

    model_type: str  # config.json's "model_type"
    config_class: type  # has from_dict(raw config.json) (TransformerConfig, RNNConfig)
    model_class: type[torch.nn.Module]
    # files the directory must hold besides config.json: any one of each inner tuple
    required_files: tuple[tuple[str, ...], ...]
    checkpoint: bool = False  # a transformers checkpoint the user dropped in (loaded through `load`)
    load: DirLoader | None = None  # a checkpoint's loader; None = native (from_dict + model.safetensors)
    weight_map: Callable[..., Iterator[tuple[str, str]]] | None = None  # (core name, their name) pairs
    label_key: str = ""  # the picker's i18n key for a checkpoint family ("arch.bert")
    in_picker: bool = True  # the stage pages and the sidebar's picker open it (the RNN: /history only)
    builtins: dict[str, Builtin] = field(default_factory=dict)  # built-in models of this family, by name


NATIVE_FILES = (("model.safetensors",), ("tokenizer.json",))

FAMILIES: dict[str, ModelFamily] = {family.model_type: family for family in (
    ModelFamily(MODEL_TYPE, TransformerConfig, Transformer, NATIVE_FILES,
                builtins={"paper-base": (load_paper_base, paper_base_available)}),
    ModelFamily(RNN_MODEL_TYPE, RNNConfig, RNNTranslator, NATIVE_FILES, in_picker=False),
    ModelFamily("bert", TransformerConfig, Transformer, (WEIGHT_FILES, ("tokenizer.json", "vocab.txt")),
                checkpoint=True, load=load_bert_checkpoint, weight_map=bert_weight_names, label_key="arch.bert",
                builtins={"minilm-l6": (load_minilm, minilm_available)}),
    ModelFamily("marian", TransformerConfig, Transformer,
                (WEIGHT_FILES, ("source.spm",), ("target.spm",), ("vocab.json",)),
                checkpoint=True, load=load_marian_dir, weight_map=marian_weight_names, label_key="arch.marian"),
)}

NATIVE_MODEL_TYPES = tuple(t for t, family in FAMILIES.items() if not family.checkpoint)
BUILTINS: dict[str, Builtin] = {name: builtin for family in FAMILIES.values()
                                for name, builtin in family.builtins.items()}


def family_of(model_type: str) -> ModelFamily | None:
    """The family of a config.json `model_type`, or None when no loader knows it."""
    return FAMILIES.get(model_type)


def unsupported_reason(directory: Path, model_type: str) -> str:
    """The message for a config.json whose model_type no loader knows."""
    known = ", ".join(FAMILIES)
    if not model_type:
        return f"{directory.name}: config.json has no model_type (supported: {known})"
    return f"{directory.name}: model_type {model_type!r} is not supported (supported: {known})"


def missing_files(directory: Path, family: ModelFamily) -> list[str]:
    """The required files (alternatives joined with 'or') a directory lacks, in the family's order."""
    return [" or ".join(alternatives) for alternatives in family.required_files
            if not any((directory / name).is_file() for name in alternatives)]
