"""URL + session state shared by app.py and the pages: the language, the sidebar's settings and the
shared layer / head indices. Widgets and layout live in explorer.widgets; no model work here.

State that must survive page switches and live in the URL:
  text, model, device, lang  sidebar widgets (explorer.widgets.render_sidebar), bound with bind="query-params"
                             (declared as SIDEBAR_URL)
  layer, head                session-state values, seeded once from the URL and written back into
                             st.query_params on every run by app.py (the browser drops unbound and
                             page-bound query parameters when the navigation switches pages)

A page's own URL keys are declared once as a `UrlState` of `UrlParam`s (name, type, default, validation, the
widget's session-state key): `seed()` puts the URL's values into the widgets' state once per session, `read()`
gives every key's value (an odd or missing value is its default, never an error) and `write()` puts the
widgets' values back (a default is left out of the URL).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

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
        st.session_state[state_key] = integer(name, 0, low=0).from_text(st.query_params.get(name))
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


# ------------------------------------------------------------------------------------------------
# A page's own URL keys, declared once

def _always(value: object) -> bool:
    return True


@dataclass(frozen=True)
class UrlParam:
    """One query parameter: its name, its default, how its text becomes a value (`parse` may raise ValueError
    or TypeError) and which values are allowed (`valid`); `state_key` is the session-state key of the widget it
    seeds ('' = none: the page only reads it)."""

    name: str
    default: Any
    parse: Callable[[str], Any] = str
    valid: Callable[[Any], bool] = _always
    state_key: str = ""
    show: Callable[[Any], str] = str  # value -> the URL's text
    keep_default: bool = False  # written even at its default (the lesson's ?step=1)

    def allowed(self, raw: str | None) -> tuple[bool, Any]:
        """(True, value) when the URL's text `raw` reads as an allowed value, else (False, the default)."""
        if raw is None:
            return False, self.default
        try:
            value = self.parse(raw)
        except (ValueError, TypeError, OverflowError):
            return False, self.default
        return (True, value) if self.valid(value) else (False, self.default)

    def from_text(self, raw: str | None) -> Any:
        """The value of the URL's text `raw`; the default when it is missing, unreadable or not allowed."""
        return self.allowed(raw)[1]

    def to_text(self, value: Any) -> str | None:
        """The URL's text for `value`; None for the default (left out of the URL, like the bound widgets)."""
        return None if value is None or (value == self.default and not self.keep_default) else self.show(value)


def choice(name: str, options: Iterable, default: Any, *, parse: Callable[[str], Any] = str,
           state_key: str = "") -> UrlParam:
    """A parameter that is one of `options` (parsed with `parse`: int for numbers)."""
    allowed = tuple(options)
    return UrlParam(name, default, parse, lambda value: value in allowed, state_key)


def integer(name: str, default: int, *, low: int | None = None, high: int | None = None,
            state_key: str = "", keep_default: bool = False) -> UrlParam:
    """A whole number, clamped into [low, high]; text that is not a number is the default. `keep_default`: written to
    the URL at its default too."""
    def parse(raw: str) -> int:
        value = int(raw.strip())
        value = value if low is None else max(low, value)
        return value if high is None else min(high, value)
    return UrlParam(name, default, parse, _always, state_key, keep_default=keep_default)


def flag(name: str, *, state_key: str = "") -> UrlParam:
    """On when the URL says 1 or true; written as 1, left out when off."""
    return UrlParam(name, False, lambda raw: raw.strip().lower() in ("1", "true"), _always, state_key,
                    show=lambda value: "1")


def text(name: str, default: str = "", *, max_chars: int = 500, pattern: str = "", state_key: str = "") -> UrlParam:
    """Free text cut to `max_chars`; with `pattern` (a regular expression), text that does not match is the
    default."""
    import re

    matcher = re.compile(pattern) if pattern else None
    return UrlParam(name, default, lambda raw: raw[:max_chars],
                    (lambda value: bool(matcher.fullmatch(value))) if matcher else _always, state_key)


class UrlState:
    """A page's URL keys, declared once. `scope` names the page (the once-per-session seeding flag)."""

    def __init__(self, scope: str, *params: UrlParam) -> None:
        self.scope = scope
        self.params = tuple(params)

    def __getitem__(self, name: str) -> UrlParam:
        return next(param for param in self.params if param.name == name)

    def parse(self, query: Mapping[str, str]) -> dict[str, Any]:
        """Every key's value in `query` (a dict of the URL's texts): odd or missing ones are the defaults."""
        return {param.name: param.from_text(query.get(param.name)) for param in self.params}

    def encode(self, values: Mapping[str, Any]) -> dict[str, str | None]:
        """The URL's text per key of `values` (None: left out, the default)."""
        return {param.name: param.to_text(values[param.name]) for param in self.params if param.name in values}

    def read(self) -> dict[str, Any]:
        """Every key's value in this run's URL."""
        return self.parse(_query_dict(self.params))

    def get(self, name: str) -> Any:
        param = self[name]
        return param.from_text(st.query_params.get(name))

    def seed(self, every_run: bool = False) -> None:
        """Once per session: each widget's state from the URL, where the URL holds an allowed value (else the
        widget keeps its own default). `every_run`: on every run, each widget that has no state yet (a first
        visit, or Streamlit dropped it on a page switch) gets the URL's value or, when that is odd, the default."""
        flag_key = f"_url_seeded_{self.scope}"
        if not every_run:
            if st.session_state.get(flag_key):
                return
            st.session_state[flag_key] = True
        for param in self.params:
            if not param.state_key or (every_run and param.state_key in st.session_state):
                continue
            ok, value = param.allowed(st.query_params.get(param.name))
            if ok or every_run:
                st.session_state[param.state_key] = value

    def write(self, values: Mapping[str, Any] | None = None) -> None:
        """Put `values` (by default: the widgets' session state) into the URL; defaults are left out."""
        if values is None:  # a widget not drawn in this run has no state: its key leaves the URL
            values = {param.name: st.session_state.get(param.state_key, param.default) for param in self.params
                      if param.state_key}
        for name, shown in self.encode(values).items():
            if shown is None:
                if name in st.query_params:
                    del st.query_params[name]
            elif st.query_params.get(name) != shown:
                st.query_params[name] = shown


def whole_query() -> dict[str, str]:
    """This run's whole URL query (links that carry every key on, such as the glossary's)."""
    return st.query_params.to_dict()


def _query_dict(params: Iterable[UrlParam]) -> dict[str, str]:
    return {param.name: st.query_params.get(param.name) for param in params
            if st.query_params.get(param.name) is not None}


# The sidebar's keys: its widgets bind them themselves (bind="query-params"); the sidebar reads ?model= before
# its picker draws, to name a requested model that cannot be shown.
SIDEBAR_URL = UrlState("sidebar", text("lang"), text("text", max_chars=MAX_TEXT_CHARS), text("model"), text("device"))


# ------------------------------------------------------------------------------------------------
# The sidebar across a page switch

_SIDEBAR_CARRIED = "_sidebar_carried"  # {"page": url path of the last run, "values": the sidebar's widget values}
_SIDEBAR_RESTORE = "_sidebar_restore"  # values to put back before the sidebar's widgets draw (next run)


def carry_sidebar(page: str) -> None:
    """Called by app.py once the navigation knows this run's page (`page`: its url path). A page switch that came
    without a sidebar key the session had set (text, model, lang, device: a value other than what the widget shows
    now, and no such key in the URL) puts the session's value back and reruns once: the sidebar keeps what the
    student chose. Streamlit 1.67 drops every bound key on the first switch of the first session a fresh server
    serves when it was opened at "/" (tests/test_browser_first_session.py); a link that names only some keys (the
    lab's "open the model") keeps the sentence too. Within a page nothing is put back: a key leaves the URL there
    only because its widget went back to its default."""
    names = [param.name for param in SIDEBAR_URL.params]
    now = {name: st.session_state.get(name) for name in names}
    carried = st.session_state.get(_SIDEBAR_CARRIED)
    switched = carried is not None and carried["page"] != page
    lost = {name: value for name, value in carried["values"].items()
            if value is not None and value != now[name] and st.query_params.get(name) is None} if switched else {}
    st.session_state[_SIDEBAR_CARRIED] = {"page": page, "values": {**now, **lost}}
    if lost:
        st.session_state[_SIDEBAR_RESTORE] = lost
        st.rerun()


def restore_carried_sidebar() -> None:
    """Before the sidebar's widgets draw: the values carry_sidebar kept for them (a widget's state set before it
    draws is its value; the bound widget then writes it back into the URL)."""
    for name, value in st.session_state.pop(_SIDEBAR_RESTORE, {}).items():
        st.session_state[name] = value
