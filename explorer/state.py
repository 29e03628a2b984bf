"""URL + session state shared by app.py and the pages: the language, the sidebar's settings and the
shared layer / head indices. Widgets and layout live in explorer.widgets; no model work here.

State that must survive page switches and live in the URL:
  text, model, device, lang  sidebar widgets (explorer.widgets.render_sidebar), bound with bind="query-params"
  layer, head                session-state values, seeded once from the URL and written back into
                             st.query_params on every run by app.py (the browser drops unbound and
                             page-bound query parameters when the navigation switches pages)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from explorer.i18n import DEFAULT_LANG, LANG_CHOICES, md_escape, t

DEFAULT_TEXT = "고양이가 공원에서 생선을 먹었다."  # ko-en-toy: "A cat ate fish at the park." (word order changes)
MAX_TEXT_CHARS = 2000
SHARED_INDICES = ("layer", "head")


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
# The sidebar's settings

@dataclass(frozen=True)
class Settings:
    text: str
    model: str
    device: str


def settings() -> Settings:
    """The sidebar's current values (pages read these; app.py renders the widgets first)."""
    return Settings(text=st.session_state.get("text") or "", model=st.session_state.get("model") or "",
                    device=st.session_state.get("device") or "cpu")


# ------------------------------------------------------------------------------------------------
# The shared layer / head indices (session state + URL)

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
