"""What a loaded model is, where model directories live, and how a directory's tokenizer is loaded.

Shared by loading.py, families.py and the weight maps (bert.py, marian.py), so that none of them imports
another to get these: loading -> families -> bert -> files.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch

# Imported here, once, in the importing thread: transformers' lazy module is not thread-safe on
# first use (8 sessions loading at once on a fresh server failed with ImportError in 5-7 of them).
from transformers import AutoTokenizer, PreTrainedConfig
from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

from transformer_core.models.config import TransformerConfig
from transformer_core.models.transformer import Transformer

MODEL_TYPE = "transformer-explorer"  # config.json's model_type of this project's Transformer (families.py)

REPO_ROOT = Path(__file__).resolve().parents[2]  # the checkout: transformer_core/io/loading.py


def models_dir() -> Path:
    """Where bundled model directories live (override with TRANSFORMER_EXPLORER_MODELS)."""
    return Path(os.environ.get("TRANSFORMER_EXPLORER_MODELS", REPO_ROOT / "models"))


def user_data_dir() -> Path:
    """This user's data folder for the app, outside the source tree: $XDG_DATA_HOME (else ~/.local/share) on
    Linux, ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows; + /transformer-explorer."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "transformer-explorer"


def lab_models_dir() -> Path:
    """Where the training lab saves its models: TRANSFORMER_EXPLORER_LAB_MODELS, else the user data folder's
    lab_models (e.g. ~/.local/share/transformer-explorer/lab_models), never inside the source tree."""
    configured = os.environ.get("TRANSFORMER_EXPLORER_LAB_MODELS")
    return Path(configured) if configured else user_data_dir() / "lab_models"


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
    # config.json's "notice_min_lead": below it, the model's confidence in its output (the smallest
    # lead of a chosen word over its runner-up, in logits) says "unsure" (inference/report.py); 0 = no such check.
    # The "notice_min_probability" of configs before 2026-11-28 measured something else and is not read.
    notice_min_lead: float = 0.0

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
        # AutoTokenizer would parse our config.json (a model_type transformers does not know) as a
        # transformers config and warn about it; tokenizer_config.json already names the tokenizer class.
        kwargs["config"] = PreTrainedConfig()
    return AutoTokenizer.from_pretrained(str(directory), local_files_only=True, **kwargs)


def _is_our_config(path: Path) -> bool:
    """True for a config.json whose model_type transformers does not know (this project's own families)."""
    try:
        model_type = json.loads(path.read_text(encoding="utf-8")).get("model_type")
    except (OSError, ValueError, AttributeError):
        return False
    return bool(model_type) and model_type not in CONFIG_MAPPING_NAMES
