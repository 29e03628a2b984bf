"""Glossary (/glossary): every term the app uses, the one Korean word chosen for it, the English word, a
one-line definition, the paper's section and links to where it appears. The data is explorer/glossary.py
(the terminology test reads the same list)."""

import streamlit as st

from explorer.frame import ensure_frame
from explorer.glossary import SHARED_URL_KEYS, TERMS, glossary_markdown
from explorer.state import lang, tr, whole_query
from explorer.widgets import page_header

ensure_frame()

page_header("glossary.title", "glossary.intro")
query = st.text_input(tr("glossary.search"), key="glossary_q", bind="query-params")
# the links carry the shared URL state; a sidebar value at its default is not in the URL, so take it from the
# widget's state: the page opened shows ?lang=한국어 and the sentence even when they are the defaults
shared = {key: str(st.session_state[key]) for key in SHARED_URL_KEYS if st.session_state.get(key) is not None}
shared.update(whole_query())
text = glossary_markdown(lang(), query or "", shared)
if text:
    st.caption(tr("glossary.count", n=text.count("\n") + 1, total=len(TERMS)))
    st.markdown(text, unsafe_allow_html=True)  # the links are <a target="_self">: same tab, same URL state
else:
    st.info(tr("glossary.none"))
