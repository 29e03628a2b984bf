"""Transformer Explorer's from-scratch core: model, trace, loading and decoding."""

import os

# Never reach for a model hub: nothing can be downloaded where this runs.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from .config import TransformerConfig
from .decoding import TextTrace, trace_text
from .loading import (
    DEFAULT_MODEL,
    LoadedModel,
    ModelInfo,
    ModelUnavailableError,
    list_models,
    load,
)
from .model import Transformer
from .trace import Trace

__all__ = [
    "DEFAULT_MODEL", "LoadedModel", "ModelInfo", "ModelUnavailableError", "TextTrace", "Trace",
    "Transformer", "TransformerConfig", "list_models", "load", "trace_text",
]
