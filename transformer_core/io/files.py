"""What a loaded model is, and how a model directory's tokenizer and config are recognised.

Shared by loading.py (model directories and built-ins) and bert.py (pretrained BERT weights), so
that neither imports the other: loading -> bert -> model_files, loading -> model_files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch

# Imported here, once, in the importing thread: transformers' lazy module is not thread-safe on
# first use (8 sessions loading at once on a fresh server failed with ImportError in 5-7 of them).
from transformers import AutoTokenizer, PreTrainedConfig

from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import MODEL_TYPE as RNN_MODEL_TYPE
from transformer_core.models.transformer import Transformer

MODEL_TYPE = "transformer-explorer"
MODEL_TYPES = (MODEL_TYPE, RNN_MODEL_TYPE)  # config.json model_types of this project (loading.ARCHITECTURES)


@dataclass
class LoadedModel:
    """A model ready for `trace_text`: the network, its tokenizer and what it is."""

    name: str
    model: Transformer  # or an RNNTranslator (rnn.py) when architecture is "rnn-attention"
    tokenizer: object  # a transformers PreTrainedTokenizerFast
    config: TransformerConfig  # or an RNNConfig
    kind: Literal["encoder-decoder", "encoder"]
    directory: Path | None = None
    trained: bool = True
    description: str = ""
    architecture: str = MODEL_TYPE  # config.json's model_type
    task: str = ""  # config.json's "task" ('ko-en', 'reverse', 'letters-copy', ...), read once at load; '' = none
    grammar: str = ""  # config.json's "grammar" ('core' when trained on the compact core grammar), '' = none

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device


class ModelUnavailableError(RuntimeError):
    """A model that exists by name but cannot be loaded here (plain-language reason)."""


def load_tokenizer(directory: str | Path):
    """AutoTokenizer from a local directory, never the network.

    `split_special_tokens=True`: typed text such as "<pad>", "</s>" or "[SEP]" is text, never a
    control token (the special tokens the tokenizer adds itself, EOS or CLS/SEP, are still added)."""
    directory = Path(directory)
    kwargs: dict = {"split_special_tokens": True}
    if _is_our_config(directory / "config.json"):
        # AutoTokenizer would parse our config.json as a transformers config and warn about the
        # unknown model_type; tokenizer_config.json already names the tokenizer class.
        kwargs["config"] = PreTrainedConfig()
    return AutoTokenizer.from_pretrained(str(directory), local_files_only=True, **kwargs)


def _is_our_config(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("model_type") in MODEL_TYPES
    except (OSError, ValueError, AttributeError):
        return False
