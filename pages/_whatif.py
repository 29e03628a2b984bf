"""Cached experiment runs for the /experiments page (glue only; the work is transformer_core.analysis.interventions).

One patched run per (model, sentence, device, experiment) for every session, in a bytes-bounded cache like
the shared trace cache (pages/_shared.py); reference means for mean ablation once per (model, device).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from explorer.cache import BoundedCache
from pages._shared import get_model, get_trace
from transformer_core.analysis.evaluate import task_of
from transformer_core.analysis.importance import load_importance, reference_sources
from transformer_core.analysis.interventions import ExperimentResult, Intervention, reference_means, run_experiment

# Patched decoding recomputes the whole prefix at every step (no KV cache: a patch may depend on the
# whole prefix, see generation.py), so it keeps a cap; unpatched outputs run to the model's max_len.
MAX_NEW_TOKENS = 48
EXPERIMENT_CACHE_ENTRIES = 32
EXPERIMENT_CACHE_BYTES = 256 * 2**20


@st.cache_resource(show_spinner=False)
def experiment_cache() -> BoundedCache[ExperimentResult]:
    """ONE copy of each experiment's traces for every session (read-only), bounded in entries and bytes."""
    return BoundedCache(EXPERIMENT_CACHE_ENTRIES, EXPERIMENT_CACHE_BYTES, size_of=lambda item: item.nbytes)


@st.cache_resource(max_entries=6, show_spinner=False)
def get_means(name: str, device: str) -> dict:
    """Mean context of every head over the model's fixed reference set (one recorded pass)."""
    loaded = get_model(name, device)
    task = task_of(loaded) if loaded.config.has_decoder and loaded.directory is not None else None
    # 20 decoded tokens per reference sentence are plenty for a mean, and keep an untrained paper-base quick
    return reference_means(loaded.model, reference_sources(loaded, task), max_new_tokens=20)


def get_experiment(name: str, text: str, device: str, spec: Intervention) -> tuple[ExperimentResult, object]:
    """(the experiment, the original DeviceTrace); both cached. Raises ValueError for a spec that does not fit."""
    original = get_trace(name, text, device)
    loaded = get_model(name, original.device)
    means = get_means(name, original.device) if spec.off and spec.method == "mean" else None

    def compute() -> ExperimentResult:
        return run_experiment(loaded, text, spec, original.traced, means, max_new_tokens=MAX_NEW_TOKENS)

    return experiment_cache().get_or_compute((name, text, original.device, spec), compute), original


@st.cache_data(max_entries=16, show_spinner=False)
def _importance(directory: str, stamp: tuple) -> dict | None:
    return load_importance(Path(directory))


def get_importance(directory: Path | None) -> dict | None:
    """The model's head_importance.json (re-read when it or the weights change)."""
    if directory is None:
        return None
    stamp = tuple((p.stat().st_mtime_ns if p.exists() else 0) for p in
                  (directory / "head_importance.json", directory / "model.safetensors"))
    return _importance(str(directory), stamp)
