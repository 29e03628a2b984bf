"""Transformer Explorer: type a sentence, watch it go through a from-scratch Transformer.

The frame: page config, the sidebar (language, sentence, model, device; all in the URL query) and
st.navigation over the stage pages in pages/. Run with `streamlit run app.py`.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported anywhere

import streamlit as st

from explorer.frame import FRAME
from explorer.run_timing import timed
from explorer.services import limit_torch_threads
from explorer.state import carry_sidebar, sync_shared_indices, tr
from explorer.widget_guard import install as guard_widget_values
from explorer.widgets import render_sidebar

guard_widget_values()  # a forged widget value is dropped, never a traceback on every run (explorer/widget_guard.py)
limit_torch_threads()  # one torch thread per forward pass (override: TRANSFORMER_EXPLORER_TORCH_THREADS)

st.set_page_config(page_title="Transformer Explorer", page_icon=":material/account_tree:", layout="wide")

# Sections of the top bar (st.navigation shows each as a menu): section title key -> pages
# (file, title key, icon, url path; None = the default page). Features add their page to a section.
SECTIONS: dict[str, list[tuple[str, str, str, str | None]]] = {
    "nav.section_stages": [
        ("pages/overview.py", "nav.overview", ":material/home:", None),
        ("pages/tokens.py", "nav.tokens", ":material/text_fields:", "tokens"),
        ("pages/embeddings.py", "nav.embeddings", ":material/waves:", "embeddings"),
        ("pages/encoder.py", "nav.encoder", ":material/stacks:", "encoder"),
        ("pages/decoder.py", "nav.decoder", ":material/output:", "decoder"),
        ("pages/heads.py", "nav.heads", ":material/grid_view:", "heads"),
    ],
    "nav.section_lab": [
        ("pages/train.py", "nav.train", ":material/model_training:", "train"),
        ("pages/experiments.py", "nav.experiments", ":material/science:", "experiments"),
        ("pages/history.py", "nav.history", ":material/history:", "history"),
        ("pages/explain.py", "nav.explain", ":material/psychology_alt:", "explain"),
        ("pages/corpus.py", "nav.corpus", ":material/format_list_bulleted:", "corpus"),
    ],
    "nav.section_lesson": [
        ("pages/lesson.py", "nav.lesson", ":material/school:", "lesson"),
        ("pages/glossary.py", "nav.glossary", ":material/menu_book:", "glossary"),
    ],
}
PAGES = [page for pages in SECTIONS.values() for page in pages]

with timed("app.sidebar"):
    render_sidebar()
sync_shared_indices()
sections = {
    tr(section): [st.Page(path, title=tr(title), icon=icon, url_path=url, default=url is None)
                  for path, title, icon, url in pages]
    for section, pages in SECTIONS.items() if pages
}
navigation = st.navigation(sections, position="top")
carry_sidebar(navigation.url_path)  # the sentence and model stay when a page switch dropped them
FRAME.active = True  # tells ensure_frame() this page runs inside the frame
try:
    with timed("app.page"):
        navigation.run()
finally:
    FRAME.active = False
