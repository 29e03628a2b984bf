"""Tokens (/tokens): pieces as chips, ids, special tokens and [UNK], the piece ↔ word table, and the same
sentence through the other bundled tokenizers. Widgets and layout only: the tokenizing is explorer.tokens_service's."""

import streamlit as st

import transformer_core as core
from explorer import tokens_service
from explorer.figures.tokenization import token_chips_html, tokenization_table
from explorer.figures.vocab import (
    TOKENIZATION_SPECIMENS,
    WORDLIST_SPECIMENS,
    search_words,
)
from explorer.frame import ensure_frame
from explorer.i18n import md_escape
from explorer.services import current_view, get_tokenizer, translates_ko_en
from explorer.state import labels_for, tr
from explorer.vocab_service import known_words
from explorer.widgets import page_header

ensure_frame()

COLUMNS = ("pos", "piece", "id", "kind", "word_index", "word")


@st.cache_data(show_spinner=False)
def word_table():
    return known_words()


@st.fragment
def word_list() -> None:
    """The translator's lexicon, searchable by Korean or English, filtered by category."""
    table = word_table()
    categories = list(dict.fromkeys(table["category"]))
    with st.expander(tr("vocab.wordlist_title", n=len(table))):
        st.caption(tr("vocab.wordlist_caption", **WORDLIST_SPECIMENS))
        left, right = st.columns([2, 1])
        query = left.text_input(tr("vocab.wordlist_search"), key="wordlist_query")
        category = right.selectbox(tr("vocab.wordlist_category"), categories, index=None, key="wordlist_category",
                                   format_func=labels_for("vocab.cat.{}"))
        rows = search_words(table, query, category)
        st.caption(tr("vocab.wordlist_matches", n=len(rows)))
        shown = rows.assign(category=[tr(f"vocab.cat.{c}") for c in rows["category"]])
        shown.columns = [tr("vocab.col.category"), tr("vocab.col.korean"), tr("vocab.col.english")]
        st.dataframe(shown, hide_index=True, key="wordlist_table", height=320)


def chips(tok) -> None:
    st.html(token_chips_html(tok, unk_title=tr("tokens.unk_title"), special_title=tr("tokens.special_title")))


def counts(tok) -> None:
    st.caption(tr("tokens.counts", n=len(tok.pieces), unk=tok.n_unk, special=sum(tok.is_special),
                  words=len(tok.words)))


page_header("tokens.title", "tokens.intro")
view = current_view()
if view is not None:
    text, tokenizer = view.settings.text, view.loaded.tokenizer
    ko_en = translates_ko_en(view.loaded)
    source = tokens_service.source_tokens(tokenizer, text, view.loaded.config.max_len)
    st.subheader(tr("tokens.source"))
    chips(source)
    counts(source)
    labels = {name: tr(f"col.{name}") for name in COLUMNS}
    labels.update(normal=tr("kind.normal"), special=tr("kind.special"), unk=tr("kind.unk"))
    if view.traced.has_decoder:
        st.subheader(tr("tokens.target"))
        chips(tokens_service.target_tokens(tokenizer, view.traced.tgt_tokens))
    if ko_en or view.loaded.name == "paper-base":
        with st.expander(tr("vocab.why_title")):
            st.markdown(tr("vocab.why_body", **TOKENIZATION_SPECIMENS))
    st.subheader(tr("tokens.table"))
    st.dataframe(tokenization_table(source, labels), hide_index=True, key="token_table")
    if ko_en:
        word_list()

    st.subheader(tr("tokens.compare"))
    st.caption(tr("tokens.compare_caption"))
    available = [info.name for info in core.list_models() if info.available]
    comparison = tokens_service.compare_with_others(view.loaded.name, tokenizer, text, available, get_tokenizer)
    results = comparison.results
    if results:
        columns = st.columns(len(results))
        for column, (name, tok) in zip(columns, results.items(), strict=True):
            with column, st.container(border=True):
                st.markdown(f"**{md_escape(name)}**")
                counts(tok)
                chips(tok)
    else:
        st.info(tr("tokens.compare_none"))
    for note in comparison.notes:
        if note.kind == "failed":
            st.caption(tr("msg.tokenizer_failed", name=note.name, reason=note.reason))
        else:
            st.caption(tr("msg.same_tokenizer", name=note.name, other=note.other))
