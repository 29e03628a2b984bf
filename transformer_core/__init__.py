"""Transformer Explorer's from-scratch core: model, trace, loading and decoding."""

import os

# Never reach for a model hub: nothing can be downloaded where this runs.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from transformer_core.inference.generation import DecodingSettings, GenerationResult, generate
from transformer_core.inference.text import TextTrace, trace_text
from transformer_core.io.loading import (
    DEFAULT_MODEL,
    LoadedModel,
    ModelInfo,
    ModelUnavailableError,
    list_models,
    load,
)
from transformer_core.models.config import PAPER_PARAMETERS, TransformerConfig, model_parameters, parameter_count
from transformer_core.models.transformer import Transformer
from transformer_core.tracing.trace import Trace

__all__ = [
    "DEFAULT_MODEL", "PAPER_PARAMETERS", "DecodingSettings", "GenerationResult", "LoadedModel", "ModelInfo",
    "ModelUnavailableError", "TextTrace", "Trace", "Transformer", "TransformerConfig", "generate", "list_models",
    "load", "model_parameters", "parameter_count", "trace_text",
]
