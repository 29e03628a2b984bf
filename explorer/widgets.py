"""Shared widgets: the sidebar (rendered by app.py on every page), the layer / head pickers, the chart and
download helpers, the page header. Widgets and layout only: no model math happens here."""

from __future__ import annotations

from functools import partial

import numpy as np
import streamlit as st

import transformer_core as core
from explorer import services
from explorer.figures.export import figures_html, matrix_csv, npy_bytes, stack_csv
from explorer.figures.figures import plot_config
from explorer.figures.phone import stack_panels
from explorer.i18n import LANG_CHOICES, t
from explorer.state import (
    DEFAULT_TEXT,
    MAX_TEXT_CHARS,
    SIDEBAR_URL,
    Settings,
    lang,
    restore_carried_sidebar,
    set_shared_index,
    shared_index,
    tr,
)
from transformer_core.io.families import family_of

# ------------------------------------------------------------------------------------------------
# Sidebar


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
    return tr("sidebar.checkpoint", name=name, architecture=tr(family_of(info.architecture).label_key))


def render_sidebar() -> Settings:
    """Language, sentence, model and device widgets, all bound to the URL query."""
    models = core.list_models()
    available = [m.name for m in models if m.available]
    default_model = core.DEFAULT_MODEL if core.DEFAULT_MODEL in available else (available[0] if available else None)
    if "_first_run_done" not in st.session_state:
        st.session_state["_first_run_done"] = True
        requested = SIDEBAR_URL.get("model")
        if requested and requested not in available:
            reason = next((m.reason for m in models if m.name == requested), None)
            st.session_state["_model_notice"] = (requested, reason)
    restore_carried_sidebar()  # a page switch that dropped the sidebar's keys (state.carry_sidebar)
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
        examples = services.model_examples(model) if model else []
        if examples:  # one click makes an example the input (issue 13); the callback runs before `text` renders
            st.pills(tr("vocab.examples"), [e["text"] for e in examples], key="example_pick",
                     on_change=_use_example, help=tr("vocab.examples_help"))
        unavailable = [m for m in models if not m.available]
        if unavailable:
            with st.expander(tr("sidebar.unavailable", n=len(unavailable))):
                for info in unavailable:
                    st.text(f"⛔ {info.name}: {info.reason}")
        devices = services.device_options()
        device = st.selectbox(tr("sidebar.device"), devices, index=0, key="device", bind="query-params",
                              help=tr("sidebar.device_help"))
        phone_navigation_script()
    return Settings(text=text or "", model=model or "", device=device or "cpu")


# ------------------------------------------------------------------------------------------------
# Phones

PHONE_MARKERS = ("Mobi", "Android", "iPhone", "iPod")  # user-agent words of phone browsers (MDN's advice: "Mobi")


def is_phone_agent(user_agent: str | None) -> bool:
    """Whether a User-Agent header is a phone's (tablets that say "Mobile" count: they are as narrow)."""
    return bool(user_agent) and any(marker in user_agent for marker in PHONE_MARKERS)


def is_phone() -> bool:
    """Whether this session's browser is a phone (from the User-Agent of its connection)."""
    try:
        return is_phone_agent(st.context.headers.get("User-Agent"))
    except Exception:  # no browser connection (AppTest, a bare script run)
        return False


# Streamlit's sidebar navigation (the phone's menu) writes "View N more" / "View less" in English and has no
# setting for it; this script rewrites those two texts in place (the text node React owns, so React's own
# later updates still land), and closes the sidebar after an example is picked on a narrow screen, where the
# sidebar covers the page. Installed once per browser tab; each run refreshes the words of the language.
_PHONE_SCRIPT = r"""<script>
(() => {
  window.__teNavWords = {more: %(more)s, less: %(less)s};
  if (window.__teNavInstalled) { window.__teNavTranslate && window.__teNavTranslate(); return; }
  window.__teNavInstalled = true;
  const translate = () => {
    const words = window.__teNavWords;
    document.querySelectorAll('[data-testid=stSidebarNavViewButton]').forEach(button => {
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const english = node.nodeValue === node.__teShown ? node.__teEnglish : node.nodeValue;
        const more = /^View (\d+) more$/.exec(english);
        const shown = more ? words.more.replace('{n}', more[1]) : english === 'View less' ? words.less : english;
        node.__teEnglish = english; node.__teShown = shown;
        if (node.nodeValue !== shown) node.nodeValue = shown;
      }
    });
  };
  window.__teNavTranslate = translate;
  new MutationObserver(translate).observe(document.body, {subtree: true, childList: true, characterData: true});
  translate();
  document.addEventListener('click', event => {
    const picked = '[data-testid=stSidebar] .st-key-example_pick button[data-variant=pills]';
    const pill = event.target.closest && event.target.closest(picked);
    if (!pill || !window.matchMedia('(max-width: 767.98px)').matches) return;
    setTimeout(() => {
      const close = document.querySelector('[data-testid=stSidebarCollapseButton] button');
      if (close) close.click();
    }, 150);
  }, true);
})();
</script>"""


def phone_navigation_script() -> None:
    """The navigation's "View N more" in the UI's language, and the sidebar closing after an example pick on a
    phone (see _PHONE_SCRIPT); renders nothing visible."""
    import json

    code = lang()
    words = {"more": json.dumps(t("screen.nav_view_more", code, n="{n}")),
             "less": json.dumps(t("screen.nav_view_less", code))}
    st.html(_PHONE_SCRIPT % words, unsafe_allow_javascript=True)


# ------------------------------------------------------------------------------------------------
# Layer / head pickers shared by every page (session state + URL, see explorer.state)

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
    interactive HTML file that opens offline (built only when clicked: plotly.js is ~4.8 MB). On a phone, a
    figure's side-by-side panels are stacked in one column."""
    if is_phone():
        fig = stack_panels(fig)
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


def encoder_only_notice(view: services.View) -> bool:
    """For an encoder-only model: explain there is no decoder (not an error) and return True."""
    if view.traced.has_decoder:
        return False
    st.info(tr("msg.encoder_only", name=view.loaded.name))
    return True
