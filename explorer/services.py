"""The app's services: the models, the traces and the experiments, cached once per server for every
session, and the few facts about a model that the pages need (its task, its examples).

This is the one app module that holds models: pages never touch torch, weights or the tokenizer's
model side; they ask here and get a Trace (read-only) or numpy arrays back.
  models       st.cache_resource: one per (name, device), shared, never mutated
  traces       ONE bounded cache (entries and bytes) for every session, see trace_cache()
  experiments  a second bounded cache for /experiments' patched runs, and the mean-ablation means
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import streamlit as st
import torch

import transformer_core as core
from explorer.cache import BoundedCache
from explorer.state import Settings, settings, tr
from explorer.vocab_service import load_examples
from transformer_core import tasks
from transformer_core.analysis.experiments import ExperimentResult, Intervention, run_experiment
from transformer_core.analysis.head_patches import reference_means
from transformer_core.analysis.importance import load_importance, rank, reference_sources
from transformer_core.inference.devices import available_devices, run_with_cpu_fallback
from transformer_core.inference.generation import DecodingSettings, sampling_distributions
from transformer_core.tasks import Task

TRACE_CACHE_ENTRIES = 32
# Tensor bytes held by the shared trace cache. A ko-en-toy trace is ~1 MB, a 512-token paper-base trace with
# its 50 output tokens 288 MiB (tests/test_long_input.py): one of those stays beside the small ones, and
# models + cache fit a 1.5 GB server.
TRACE_CACHE_BYTES = 512 * 2**20
# Patched decoding recomputes the whole prefix at every step (no KV cache: a patch may depend on the
# whole prefix, see generation.py), so it keeps a cap; unpatched outputs run to the model's max_len.
MAX_NEW_TOKENS = 48
EXPERIMENT_CACHE_ENTRIES = 32
EXPERIMENT_CACHE_BYTES = 256 * 2**20


def limit_torch_threads() -> None:
    """One intra-op thread per forward pass by default: sessions already run in parallel threads, and on a
    busy CPU torch's spinning worker threads made paper-base's greedy decoding 20x slower here (33 s
    instead of 1.6 s). Override with TRANSFORMER_EXPLORER_TORCH_THREADS."""
    torch.set_num_threads(max(1, int(os.environ.get("TRANSFORMER_EXPLORER_TORCH_THREADS", "1"))))


# ------------------------------------------------------------------------------------------------
# Cached model and trace: one model per (name, device) for everybody, one trace per (model, text, device).

@st.cache_resource(max_entries=6, show_spinner=False)
def get_model(name: str, device: str) -> core.LoadedModel:
    """The loaded model (shared, never mutated). Raises ModelUnavailableError."""
    return core.load(name, device=device)


@dataclass(frozen=True)
class DeviceTrace:
    """A cached trace, the device it really ran on, and why that differs from the choice (or '')."""

    traced: core.TextTrace
    device: str
    notice: str


@st.cache_resource(show_spinner=False)
def trace_cache() -> BoundedCache[DeviceTrace]:
    """ONE copy of each trace for every session, bounded in entries and bytes.

    Not st.cache_data: that pickles the value and unpickles a private copy on every read, i.e. on
    every widget click (measured: 0.55 s and +275 MB per rerun for a 512-token paper-base trace).
    Traces are read-only (Trace.numpy gives read-only arrays), so sharing one copy is safe.
    """
    return BoundedCache(TRACE_CACHE_ENTRIES, TRACE_CACHE_BYTES, size_of=lambda item: item.traced.trace.nbytes)


def get_trace(name: str, text: str, device: str) -> DeviceTrace:
    """One recorded forward pass per (model, sentence, device), kept on the CPU for the figures.

    The output is greedy, up to the model's length limit (the KV cache makes long outputs cheap).
    CUDA chosen but absent, or out of memory: runs on the CPU and says so in `notice`.
    """
    return get_decoded_trace(name, text, device, DecodingSettings())


def trace_key(name: str, text: str, device: str, decoding: DecodingSettings) -> tuple:
    """The shared trace cache's key (greedy decoding shares get_trace's entry)."""
    return (name, text, device) if decoding == DecodingSettings() else (name, text, device, decoding)


def get_decoded_trace(name: str, text: str, device: str, decoding: DecodingSettings) -> DeviceTrace:
    """Like get_trace, for any decoding strategy: the core generates with `decoding`, then ONE recorded
    teacher-forced pass runs over that output. Same shared cache, keyed by the strategy's settings
    (greedy shares get_trace's entry)."""

    # Generation can run to input length + 50 steps (a long input): a bar shows how far. Made on the first
    # step of a generation only, not on every run: a cached trace (nearly every run) sends no element for it (two
    # messages per run saved, for each of a live class's phones on each step change).
    bar = None

    def progress(step: int, limit: int) -> None:
        nonlocal bar
        if step == 1 or step % 16 == 0:
            if bar is None:
                bar = st.empty()
            bar.progress(step / max(limit, 1), text=tr("gen.progress", step=step, limit=limit))

    def trace_on(target: str) -> core.TextTrace:
        traced = core.trace_text(get_model(name, target), text, decoding=decoding, progress=progress)
        return replace(traced, trace=traced.trace.to("cpu"))

    def compute() -> DeviceTrace:
        traced, used, notice = run_with_cpu_fallback(trace_on, device)
        return DeviceTrace(traced, used, notice)

    key = trace_key(name, text, device, decoding)
    try:
        return trace_cache().get_or_compute(key, compute)
    finally:
        if bar is not None:
            bar.empty()


@st.cache_resource(max_entries=8, show_spinner=False)
def get_tokenizer(name: str):
    """A model's tokenizer only (models/NAME/tokenizer.json), or the whole model's for a built-in."""
    directory = core.io.loading.models_dir() / name
    if (directory / "tokenizer.json").is_file():
        return core.io.loading.load_tokenizer(directory)
    return get_model(name, "cpu").tokenizer


def device_options() -> list[str]:
    return available_devices()


# ------------------------------------------------------------------------------------------------
# Facts about a model

def model_task(loaded: core.LoadedModel) -> Task | None:
    """The task a model was trained on (config.json's "task", read once at load), None if it names none."""
    return tasks.model_task(loaded)


def translates_ko_en(loaded: core.LoadedModel) -> bool:
    """Was the model trained on the ko-en grammar (whole or its compact core)?"""
    task = model_task(loaded)
    return task is not None and task.grammar


def model_examples(name: str) -> list[dict[str, str]]:
    """The example sentences on a model's card (models/NAME/examples.json; built-ins in explorer/vocab_service.py)."""
    directory = core.io.loading.models_dir() / name
    fallback = core.io.loading.models_dir() / "ko-en-toy" if name == "paper-base" else None
    return load_examples(directory if directory.is_dir() else None, name, fallback)


def parameter_count(loaded: core.LoadedModel) -> int:
    """Number of parameters of the model."""
    return sum(p.numel() for p in loaded.model.parameters())


def additive_attention_v(loaded: core.LoadedModel) -> np.ndarray:
    """The attention RNN's score vector v [A] (e = vᵀ tanh(W_s s + W_h h)): a weight, read, not computed."""
    return loaded.model.rnn.attn.v.weight.detach().cpu().numpy().ravel()


def sampling_distribution(logits: np.ndarray, decoding: DecodingSettings) -> tuple[np.ndarray, np.ndarray,
                                                                                     np.ndarray]:
    """The core's own sampling math on one step's traced logits [V]: (raw, tempered, cut) probabilities."""
    dist = sampling_distributions(torch.from_numpy(np.array(logits, copy=True)), decoding.temperature,
                                  decoding.top_k, decoding.top_p)
    return dist.raw.numpy(), dist.tempered.numpy(), dist.cut.numpy()


# ------------------------------------------------------------------------------------------------
# The current view: model + trace, or a friendly message and None

@dataclass(frozen=True)
class View:
    settings: Settings
    loaded: core.LoadedModel
    traced: core.TextTrace

    @property
    def trace(self) -> core.Trace:
        return self.traced.trace


def current_view(show_notices: bool = True, model: str | None = None,
                 decoding: DecodingSettings | None = None) -> View | None:
    """Load the chosen model (or `model`, e.g. a page's fixed comparison model) and trace the sentence
    (cached), its output made with `decoding` (default greedy). On any problem, say so and return None."""
    current = settings()
    if model is not None:
        current = replace(current, model=model)
    notice = st.session_state.get("_model_notice")
    if notice and show_notices:
        requested, reason = notice
        st.warning(tr("msg.requested_model_unavailable", name=requested, reason=reason or tr("msg.unknown_model")))
    if not current.model:
        st.error(tr("msg.no_models"))
        return None
    if not current.text.strip():
        st.info(tr("msg.empty_text"))
        return None
    try:
        decoding = decoding or DecodingSettings()
        # The spinner only where a forward pass may run: on a cached trace (nearly every run) it still sent a message
        # and started a timer thread, on every run of every page.
        ready = trace_key(current.model, current.text, current.device, decoding) in trace_cache()
        with contextlib.nullcontext() if ready else st.spinner(tr("msg.tracing")):
            cached = get_decoded_trace(current.model, current.text, current.device, decoding)
        loaded = get_model(current.model, cached.device)  # the device the trace really ran on
    except core.ModelUnavailableError as exc:
        st.error(tr("msg.model_unavailable", name=current.model, reason=str(exc)))
        return None
    except ValueError as exc:
        st.error(tr("msg.trace_failed", reason=str(exc)))
        return None
    except Exception as exc:  # no stack trace reaches the user; the server log keeps it
        st.error(tr("msg.trace_failed", reason=f"{type(exc).__name__}: {exc}"))
        return None
    traced = cached.traced
    if show_notices:
        if cached.notice:
            st.warning(tr(f"msg.{cached.notice}"))
        if not loaded.trained:
            st.warning(tr("msg.untrained", name=loaded.name))
        if traced.n_truncated > 0:
            st.warning(tr("msg.truncated", n_cut=traced.n_truncated, n_total=traced.n_input_tokens,
                          max_len=loaded.config.max_len))
        if traced.has_decoder and traced.reached_limit:
            limit = "gen.untrained_limit" if traced.limit_rule == "untrained" else "gen.limit_reached"
            st.info(tr(limit, n=len(traced.tgt_tokens) - 1, max_len=loaded.config.max_len))
        outside_notice(loaded, current.text, traced)
    return View(current, loaded, traced)


def sampled_output(traced) -> bool:
    """Whether the output shown is a draw of sampling (temperature > 0), not the model's likeliest words."""
    settings = getattr(traced.generation, "settings", None) if traced.has_decoder else None
    return settings is not None and settings.strategy == "sample" and settings.temperature > 0


def outside_notice(loaded, text: str, traced) -> None:
    """The honest notice, on every page before the output: words the model cannot see (<unk>), known words
    in a construction its grammar never writes, and known words its translation lost (inference/report.py),
    each named in the sentence."""
    from explorer.figures.vocab import outside_marked_markdown, unknown_words_from_pieces, unsure_notice
    from explorer.i18n import md_escape
    from explorer.tokenizer_service import from_tokens
    from transformer_core.inference.report import NOTICE_QUANTILE, least_lead, outside_report

    unknown = unknown_words_from_pieces(text, from_tokens(loaded.tokenizer, traced.src_tokens),
                                        truncated=traced.n_truncated > 0)
    try:
        lead = least_lead(traced, loaded.tokenizer)
        report = outside_report(loaded, text, list(traced.src_tokens), None if lead is None else lead.gap,
                                traced.output_text if traced.has_decoder else None)
    except Exception:  # the recogniser must never take a page down; the <unk> notice still stands
        report = None
    constructions = set(report.outside_constructions) if report is not None else set()
    lost = set(report.lost_words) if report is not None else set()
    unsure = report is not None and report.low_confidence  # a confidence was measured: `lead` is set
    drawn = sampled_output(traced)
    if not unknown.n_unknown and not constructions and not lost and not unsure:
        return
    with st.container(key="unknown_notice"):
        if unknown.n_unknown:
            key = "vocab.unknown_notice" if traced.has_decoder else "vocab.unknown_notice_encoder"
            st.warning(tr(key, n=unknown.n_unknown, total=unknown.n_words), icon=":material/help:")
        if constructions:
            named = ", ".join(f"«{md_escape(word)}»" for word in report.outside_constructions)
            st.warning(tr("vocab.outside_notice", words=named), icon=":material/help:")
        if lost:  # known words in a known construction, and the output holds no English word written for them
            named = ", ".join(f"«{md_escape(word)}»" for word in report.lost_words)
            st.warning(tr("vocab.lost_notice_drawn" if drawn else "vocab.lost_notice", words=named,
                          n=len(report.lost_words)), icon=":material/help:")
        if unsure:  # every word known, the construction too, and still the model doubts a word of its output
            key, values = unsure_notice(lead, report.min_lead, NOTICE_QUANTILE, drawn)
            st.warning(tr(key, **values), icon=":material/help:")
        if unknown.n_unknown or constructions or lost:
            label = tr("vocab.outside_marked") if constructions or lost else tr("vocab.unknown_marked")
            st.markdown(f"{label} {outside_marked_markdown(unknown, constructions, lost)}")
            st.caption(tr("vocab.outside_hint") if constructions or lost else tr("vocab.unknown_hint"))


# ------------------------------------------------------------------------------------------------
# What if (/experiments): patched runs, one per (model, sentence, device, experiment) for every session,
# in a bytes-bounded cache like the trace cache; reference means for mean ablation once per (model, device).

@st.cache_resource(show_spinner=False)
def experiment_cache() -> BoundedCache[ExperimentResult]:
    """ONE copy of each experiment's traces for every session (read-only), bounded in entries and bytes."""
    return BoundedCache(EXPERIMENT_CACHE_ENTRIES, EXPERIMENT_CACHE_BYTES, size_of=lambda item: item.nbytes)


@st.cache_resource(max_entries=6, show_spinner=False)
def get_means(name: str, device: str) -> dict:
    """Mean context of every head over the model's fixed reference set (one recorded pass)."""
    loaded = get_model(name, device)
    task = model_task(loaded) if loaded.config.has_decoder and loaded.directory is not None else None
    # 20 decoded tokens per reference sentence are plenty for a mean, and keep an untrained paper-base quick
    return reference_means(loaded.model, reference_sources(loaded, task), max_new_tokens=20)


def get_experiment(name: str, text: str, device: str, spec: Intervention) -> tuple[ExperimentResult, DeviceTrace]:
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


def ranked_importance(result: dict, include_layers: bool = True) -> list[dict]:
    """A head-importance result's rows for its table: the heads, most important first, then the whole layers."""
    return rank(result["heads"]) + (rank(result["layers"]) if include_layers else [])

