"""Glossary (/glossary): every term the app uses, the one Korean word chosen for it, the English word, a
one-line definition, the paper's section and links to where it appears. The data is explorer/glossary.py
(the terminology test reads the same list)."""

import streamlit as st

from explorer.frame import ensure_frame
from explorer.glossary import TERMS, glossary_markdown
from explorer.state import lang, tr
from explorer.widgets import page_header

ensure_frame()

page_header("glossary.title", "glossary.intro")
query = st.text_input(tr("glossary.search"), key="glossary_q", bind="query-params")
text = glossary_markdown(lang(), query or "", st.query_params.to_dict())
if text:
    st.caption(tr("glossary.count", n=text.count("\n") + 1, total=len(TERMS)))
    st.markdown(text, unsafe_allow_html=True)  # the links are <a target="_self">: same tab, same URL state
else:
    st.info(tr("glossary.none"))
