"""Streamlit glue shared by app.py and the pages: cached model/trace, sidebar settings, pickers,
chart and download helpers. Widgets and layout only: no model math happens here.

State that must survive page switches and live in the URL:
  text, model, device, lang  sidebar widgets in app.py, bound with bind="query-params"
  layer, head                session-state values, seeded once from the URL and written back into
                             st.query_params on every run by app.py (the browser drops unbound and
                             page-bound query parameters when the navigation switches pages)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import streamlit as st

import transformer_core as core
from explorer.cache import BoundedCache
from explorer.figures.export import figures_html, matrix_csv, npy_bytes, stack_csv
from explorer.figures.figures import plot_config
from explorer.figures.vocab import load_examples
from explorer.i18n import DEFAULT_LANG, LANG_CHOICES, md_escape, t
from transformer_core.inference.devices import available_devices, run_with_cpu_fallback
from transformer_core.inference.generation import DecodingSettings

DEFAULT_TEXT = "고양이가 공원에서 생선을 먹었다."  # ko-en-toy: "A cat ate fish at the park." (word order changes)
TRACE_CACHE_ENTRIES = 32
# Tensor bytes held by the shared trace cache. A ko-en-toy trace is ~1 MB, a 512-token paper-base
# trace ~275 MB: at most two of those stay, and models + cache fit a 1.5 GB server.
TRACE_CACHE_BYTES = 512 * 2**20
MAX_TEXT_CHARS = 2000
# Set by app.py while st.navigation runs the page, in the script's own thread. The process-wide
# pages/ flag alone is not enough: 16 sessions opening at once on a fresh server saw it flipped by
# another session and ran their page without the frame ("no models").
FRAME = threading.local()


# ------------------------------------------------------------------------------------------------
# The frame

def ensure_frame() -> None:
    """Make sure a page runs inside app.py's frame (sidebar, st.navigation), never on its own.

    Streamlit still has its legacy multipage mode for a folder named pages/: until some run of the
    process has called st.navigation, a first visit straight to /encoder runs pages/encoder.py
    WITHOUT app.py (and AppTest starts every run in that mode). Each page calls this first: in
    that mode it switches the process to st.navigation and reruns, so app.py runs and then the
    same page (legacy and st.Page hash the same url path).
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory or not getattr(FRAME, "active", False):
        PagesManager.uses_pages_directory = False
        st.rerun()


# ------------------------------------------------------------------------------------------------
# Language

def lang() -> str:
    """The UI language code ('ko' or 'en') chosen in the sidebar."""
    return LANG_CHOICES.get(st.session_state.get("lang") or "", DEFAULT_LANG)


def labels_for(template: str, name: Callable[[object], object] = str) -> Callable[[object], str]:
    """A widget's format_func: option -> the UI string `template.format(name(option))`, in this run's
    language. The language is bound now: AppTest (and a fragment rerun) may call format_func outside this run."""
    code = lang()
    return lambda option: t(template.format(name(option)), code)


def tr(key: str, **kwargs) -> str:
    """The UI string `key` in the current language; interpolated strings are Markdown-escaped."""
    return t(key, lang(), **{k: md_escape(v) if isinstance(v, str) else v for k, v in kwargs.items()})


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


def get_decoded_trace(name: str, text: str, device: str, decoding: DecodingSettings) -> DeviceTrace:
    """Like get_trace, for any decoding strategy: the core generates with `decoding`, then ONE recorded
    teacher-forced pass runs over that output. Same shared cache, keyed by the strategy's settings
    (greedy shares get_trace's entry)."""

    bar = st.empty()  # generation can run to input length + 50 steps (untrained paper-base): show how far

    def progress(step: int, limit: int) -> None:
        if step == 1 or step % 16 == 0:
            bar.progress(step / max(limit, 1), text=tr("gen.progress", step=step, limit=limit))

    def trace_on(target: str) -> core.TextTrace:
        traced = core.trace_text(get_model(name, target), text, decoding=decoding, progress=progress)
        return replace(traced, trace=traced.trace.to("cpu"))

    def compute() -> DeviceTrace:
        traced, used, notice = run_with_cpu_fallback(trace_on, device)
        return DeviceTrace(traced, used, notice)

    key = (name, text, device) if decoding == DecodingSettings() else (name, text, device, decoding)
    try:
        return trace_cache().get_or_compute(key, compute)
    finally:
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
# Sidebar (rendered by app.py on every page)

@dataclass(frozen=True)
class Settings:
    text: str
    model: str
    device: str


def model_examples(name: str) -> list[dict[str, str]]:
    """The example sentences on a model's card (models/NAME/examples.json; built-ins in explorer.figures.vocab)."""
    directory = core.io.loading.models_dir() / name
    fallback = core.io.loading.models_dir() / "ko-en-toy" if name == "paper-base" else None
    return load_examples(directory if directory.is_dir() else None, name, fallback)


def _use_example() -> None:
    """Pills callback: the picked example becomes the sentence; the pill is released for the next click."""
    choice = st.session_state.get("example_pick")
    if choice:
        st.session_state["text"] = choice
        st.session_state["_example_text"] = (choice, 0)  # checked once `text` has rendered
    st.session_state["example_pick"] = None


def _apply_example(rendered: str) -> None:
    """After the text widget: if a link's ?text= won over the picked example (the first rerun after
    opening a URL with text seeds the widget from the URL), set it again and rerun once."""
    pending = st.session_state.pop("_example_text", None)
    if pending is None or rendered == pending[0] or pending[1] >= 1:
        return
    st.session_state["_example_text"] = (pending[0], pending[1] + 1)
    st.rerun()


def checkpoint_label(models: list[core.ModelInfo], name: str | None) -> str:
    """For a user's transformers checkpoint: its name, architecture and "your checkpoint"; else ''."""
    info = next((m for m in models if m.name == name and m.checkpoint), None)
    if info is None:
        return ""
    return tr("sidebar.checkpoint", name=name, architecture=tr(f"arch.{info.architecture}"))


def render_sidebar() -> Settings:
    """Language, sentence, model and device widgets, all bound to the URL query."""
    models = core.list_models()
    available = [m.name for m in models if m.available]
    default_model = core.DEFAULT_MODEL if core.DEFAULT_MODEL in available else (available[0] if available else None)
    if "_first_run_done" not in st.session_state:
        st.session_state["_first_run_done"] = True
        requested = st.query_params.get("model")
        if requested and requested not in available:
            reason = next((m.reason for m in models if m.name == requested), None)
            st.session_state["_model_notice"] = (requested, reason)
    with st.sidebar:
        st.segmented_control(
            "언어 · Language", list(LANG_CHOICES), default=next(iter(LANG_CHOICES)), key="lang",
            bind="query-params", required=True,
        )
        pending = st.session_state.get("_example_text")
        if pending is not None and pending[1] >= 1:
            st.session_state["text"] = pending[0]  # second try, before the widget renders
        text = st.text_input(tr("sidebar.text"), value=DEFAULT_TEXT, key="text", bind="query-params",
                             max_chars=MAX_TEXT_CHARS, help=tr("sidebar.text_help"))
        _apply_example(text)
        model = None
        if available:
            model = st.selectbox(tr("sidebar.model"), available, index=available.index(default_model), key="model",
                                 bind="query-params", help=tr("sidebar.model_help"))
            # Not a format_func: a bound selectbox writes its formatted label into the URL (?model=).
            label = checkpoint_label(models, model)
            if label:
                st.caption(label)
        examples = model_examples(model) if model else []
        if examples:  # one click makes an example the input (issue 13); the callback runs before `text` renders
            st.pills(tr("vocab.examples"), [e["text"] for e in examples], key="example_pick",
                     on_change=_use_example, help=tr("vocab.examples_help"))
        unavailable = [m for m in models if not m.available]
        if unavailable:
            with st.expander(tr("sidebar.unavailable", n=len(unavailable))):
                for info in unavailable:
                    st.text(f"⛔ {info.name}: {info.reason}")
        devices = device_options()
        device = st.selectbox(tr("sidebar.device"), devices, index=0, key="device", bind="query-params",
                              help=tr("sidebar.device_help"))
    return Settings(text=text or "", model=model or "", device=device or "cpu")


def settings() -> Settings:
    """The sidebar's current values (pages read these; app.py renders the widgets first)."""
    return Settings(text=st.session_state.get("text") or "", model=st.session_state.get("model") or "",
                    device=st.session_state.get("device") or "cpu")


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
        with st.spinner(tr("msg.tracing")):
            cached = get_decoded_trace(current.model, current.text, current.device, decoding or DecodingSettings())
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
            st.info(tr("gen.limit_reached", n=len(traced.tgt_tokens) - 1, max_len=loaded.config.max_len))
    return View(current, loaded, traced)


# ------------------------------------------------------------------------------------------------
# Layer / head pickers shared by every page (session state + URL)

def shared_index(name: str, n: int) -> int:
    """The shared `layer` or `head` index, seeded once from the URL, clamped to [0, n)."""
    state_key = f"_shared_{name}"
    if state_key not in st.session_state:
        raw = st.query_params.get(name)
        try:
            st.session_state[state_key] = max(0, int(raw)) if raw is not None else 0
        except ValueError:
            st.session_state[state_key] = 0
    return min(int(st.session_state[state_key]), max(n - 1, 0))


def set_shared_index(name: str, value: int) -> None:
    st.session_state[f"_shared_{name}"] = int(value)
    write_shared_to_url(name)


SHARED_INDICES = ("layer", "head")


def write_shared_to_url(name: str) -> None:
    """Put the shared index into the URL (left out at its default 0, like the bound widgets)."""
    value = st.session_state.get(f"_shared_{name}")
    if value is None:
        return
    if value and st.query_params.get(name) != str(value):
        st.query_params[name] = str(int(value))
    elif not value and name in st.query_params:
        del st.query_params[name]


def sync_shared_indices() -> None:
    """Called by app.py on every run: seed layer/head from the URL once, then keep the URL in step."""
    for name in SHARED_INDICES:
        shared_index(name, 1 << 30)
        write_shared_to_url(name)


def _on_pick(name: str, widget_key: str) -> None:
    value = st.session_state.get(widget_key)
    if value is not None:
        set_shared_index(name, int(value))


def index_picker(name: str, n: int, label: str, widget_key: str, prefix: str = "") -> int:
    """A compact picker for the shared layer/head index (0..n-1); survives page switches and the URL."""
    current = shared_index(name, n)
    if widget_key in st.session_state and st.session_state[widget_key] is not None \
            and st.session_state[widget_key] >= n:
        del st.session_state[widget_key]  # a model with fewer layers/heads than before
    value = st.segmented_control(
        label, list(range(n)), default=current, key=widget_key, required=True,
        format_func=lambda i: f"{prefix}{i}", on_change=_on_pick, args=(name, widget_key),
    )
    return current if value is None else int(value)


# ------------------------------------------------------------------------------------------------
# Output helpers

def chart(fig, filename: str, key: str | None = None) -> None:
    """A plotly chart, full width, with the camera button saving `filename`.png, and a button saving it as one
    interactive HTML file that opens offline (built only when clicked: plotly.js is ~4.8 MB)."""
    st.plotly_chart(fig, width="stretch", config=plot_config(filename), key=key, theme=None)
    title = (fig.layout.title.text if fig.layout.title and fig.layout.title.text else "") or filename
    st.download_button(tr("btn.html"), partial(figures_html, [fig], title, lang()), file_name=f"{filename}.html",
                       mime="text/html", key=f"{key}_html" if key else None, on_click="ignore",
                       icon=":material/download:", help=tr("btn.html_help"))


def download_matrix(matrix: np.ndarray, row_labels: list[str], col_labels: list[str], stem: str,
                    key: str, head_labels: list[str] | None = None) -> None:
    """CSV and NPY download buttons for the matrix on screen: [rows, cols], or [heads, rows, cols]
    (long-format CSV: head, query, key, value)."""
    matrix = np.asarray(matrix)
    # Callables: the files are only built when a button is clicked (a CSV of every head of a
    # 512-token layer is millions of rows), never on each rerun.
    csv = partial(matrix_csv, matrix, row_labels, col_labels) if matrix.ndim == 2 else \
        partial(stack_csv, matrix, row_labels, col_labels, head_labels)
    left, right = st.columns(2)
    left.download_button(tr("btn.csv"), csv, file_name=f"{stem}.csv", mime="text/csv", key=f"{key}_csv",
                         on_click="ignore", icon=":material/download:")
    right.download_button(tr("btn.npy"), partial(npy_bytes, matrix), file_name=f"{stem}.npy",
                          mime="application/octet-stream", key=f"{key}_npy", on_click="ignore",
                          icon=":material/download:")


def page_header(title_key: str, intro_key: str) -> None:
    st.title(tr(title_key))
    st.caption(tr(intro_key))


def model_task(loaded: core.LoadedModel) -> str:
    """The data task a model directory was trained on (config.json's "task", e.g. 'ko-en'), '' if none."""
    import json

    if loaded.directory is None:
        return ""
    try:
        return str(json.loads((loaded.directory / "config.json").read_text(encoding="utf-8")).get("task", ""))
    except (OSError, ValueError, AttributeError):
        return ""


def encoder_only_notice(view: View) -> bool:
    """For an encoder-only model: explain there is no decoder (not an error) and return True."""
    if view.traced.has_decoder:
        return False
    st.info(tr("msg.encoder_only", name=view.loaded.name))
    return True
