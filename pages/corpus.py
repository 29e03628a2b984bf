"""Across sentences (/corpus): what each head does over many sentences. Choose a corpus (held-out sentences
of the model's task, the sidebar's example sentences, or pasted / uploaded text); see every head's behaviour
shares as a heatmap and a sortable table, heads that behave alike (ordered similarity map, named groups),
and one head up close: its query/key map and the sentences where it shows its behaviour most and least.
URL: corpus (heldout | examples | text), sentences (N), chead (e.g. cross.1.2), behaviour."""

import numpy as np
import streamlit as st

from explorer.corpus_service import get_query_key_map, get_result, get_sentence_maps, is_cached
from explorer.figures import corpus as cfig
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import get_model, model_examples, parameter_count, translates_ko_en
from explorer.state import UrlState, lang, settings, tr
from explorer.state import choice as url_choice
from explorer.state import text as url_text
from explorer.widgets import chart, page_header
from transformer_core import ModelUnavailableError
from transformer_core.analysis import head_groups
from transformer_core.analysis import heads as corpus_heads
from transformer_core.tracing.names import AttentionKind, Head

ensure_frame()

SOURCES = ("heldout", "examples", "text")
N_CHOICES = (50, 100, 200, 500, 1000)
DEFAULT_N = 100
AUTO = "auto"
# The page's URL keys (corpus and sentences bind their widgets; chead and behaviour are written by hand, below).
# The sources, head and behaviour a model offers are known only once it is loaded: each reader checks them.
URL = UrlState("corpus", url_choice("corpus", SOURCES, ""), url_choice("sentences", N_CHOICES, DEFAULT_N, parse=int),
               url_text("chead"), url_text("behaviour"))
LARGE_MODEL_PARAMS = 20_000_000  # paper-base (~45 M) and up; ko-en-toy and reverse are a few million
LARGE_MODEL_SENTENCES = 200


def head_label(head: Head, code: str) -> str:
    return f"{t(f'kind.{head.kind.value}', code)} · L{head.layer} · H{head.head}"


def behaviour_name(stat: str, code: str) -> str:
    return t(f"corpus.stat.{stat}", code)


def progress_bar():
    """A st.progress bar and the callback that moves it (phase 'generate' or 'heads')."""
    bar = st.progress(0.0, text=tr("corpus.progress.start"))

    def progress(phase: str, done: int, total: int) -> None:
        bar.progress(min(done / max(total, 1), 1.0), text=tr(f"corpus.progress.{phase}", done=done, total=total))

    return bar, progress


def choose_corpus(loaded) -> tuple[str, int, tuple[str, ...]] | None:
    """The corpus widgets; (source, n, lines) when a corpus is ready to analyse, else None (a message shown)."""
    has_heldout = loaded.config.has_decoder
    options = [s for s in SOURCES if has_heldout or s != "heldout"]
    if st.session_state.get("corpus") not in options:  # first visit: the URL's, when it is one of them
        url = URL.get("corpus")
        st.session_state["corpus"] = url if url in options and "corpus" not in st.session_state else options[0]
    code = lang()  # bound now: AppTest (and a fragment rerun) may call format_func outside this run
    source = st.segmented_control(tr("corpus.source"), options, format_func=lambda s: t(f"corpus.source.{s}", code),
                                  key="corpus", bind="query-params", required=True) or options[0]
    if not has_heldout:
        st.caption(tr("corpus.no_heldout", name=loaded.name))
    if source == "heldout":
        raw = st.session_state.get("sentences")
        if raw is not None and raw not in N_CHOICES:
            st.session_state["sentences"] = DEFAULT_N
        n = st.select_slider(tr("corpus.n"), N_CHOICES, value=DEFAULT_N, key="sentences", bind="query-params",
                             help=tr("corpus.n_help"))
        if translates_ko_en(loaded):
            st.caption(tr("msg.grammar_english"))
        limit = sentence_limit(loaded)
        if n > limit:
            st.info(tr("corpus.large_model_cut", n=n, limit=limit, name=loaded.name))
        return source, int(min(n, limit)), ()
    if source == "examples":
        lines = tuple(e["text"] for e in model_examples(loaded.name))
        if not lines:
            st.info(tr("corpus.no_examples", name=loaded.name))
            return None
        st.caption(tr("corpus.examples_caption", n=len(lines)))
        return check(loaded, source, lines)
    # Nothing runs until Analyse is pressed: its callback keeps the lines in the session from then on.
    st.text_area(tr("corpus.paste"), key="corpus_paste", height=140, help=tr("corpus.paste_help"))
    st.file_uploader(tr("corpus.upload"), type=["txt"], key="corpus_upload")
    st.button(tr("corpus.analyse"), type="primary", icon=":material/play_arrow:", key="corpus_analyse",
              on_click=take_text)
    if st.session_state.get("_corpus_encoding_error"):
        st.error(tr("corpus.err.encoding"))
        return None
    lines = st.session_state.get("_corpus_lines")
    if lines is None:
        st.info(tr("corpus.paste_first"))
        return None
    return check(loaded, source, lines)


def take_text() -> None:
    """Analyse's callback: the uploaded file (UTF-8) if any, else the pasted text, as the corpus lines."""
    text = st.session_state.get("corpus_paste") or ""
    uploaded = st.session_state.get("corpus_upload")
    st.session_state["_corpus_encoding_error"] = False
    if uploaded is not None:
        try:
            text = uploaded.getvalue().decode("utf-8")
        except UnicodeDecodeError:
            st.session_state["_corpus_encoding_error"] = True
            st.session_state.pop("_corpus_lines", None)
            return
    st.session_state["_corpus_lines"] = tuple(cfig.parse_corpus_text(text))


def check(loaded, source: str, lines: tuple[str, ...]) -> tuple[str, int, tuple[str, ...]] | None:
    problem = corpus_heads.corpus_problem(loaded, lines, max_lines=cfig.MAX_LINES)
    if problem:
        st.error(tr(f"corpus.err.{problem}", n=len(lines), limit=cfig.MAX_LINES, name=loaded.name))
        return None
    limit = sentence_limit(loaded)
    if len(lines) > limit:  # a large model: keep the wait bounded (the script thread computes it)
        st.info(tr("corpus.large_model_cut", n=len(lines), limit=limit, name=loaded.name))
        lines = lines[:limit]
    return source, 0, lines


def sentence_limit(loaded) -> int:
    """Sentences one analysis may take: 1,000, or LARGE_MODEL_SENTENCES for a model of LARGE_MODEL_PARAMS or more
    (untrained paper-base decodes to its length limit: 200 pasted lines took 99 s here, 1,000 would take ~8 min)."""
    return LARGE_MODEL_SENTENCES if parameter_count(loaded) >= LARGE_MODEL_PARAMS else cfig.MAX_LINES


def behaviours_section(result, code: str) -> list[str]:
    stats = result.stats
    shown = [b for b in corpus_heads.BEHAVIOURS if b != "aligned" or stats.has_gold]
    labels = [head_label(h, code) for h in stats.heads]
    groups = [head_groups.head_group(stats, k) for k in range(len(stats.heads))]
    group_names = [behaviour_group_name(g, code) for g in groups]
    st.subheader(tr("corpus.behaviours"))
    st.caption(tr("corpus.behaviours_caption"))
    values = np.stack([stats.stats[:, corpus_heads.STATS.index(b)] for b in shown], axis=1)
    left, right = st.columns([3, 2])
    with left:
        chart(cfig.behaviour_heatmap(values, labels, [behaviour_name(b, code) for b in shown],
                                     title=t("corpus.behaviours_fig", code, n=stats.sentences), lang=code),
              "corpus_behaviours")
    rows = [{**row, "label": label} for row, label in zip(stats.rows(), labels, strict=True)]
    columns = {"head": tr("stat.head"), "group": tr("corpus.group"),
               **{s: behaviour_name(s, code) for s in corpus_heads.STATS}}
    frame = cfig.stats_frame(rows, columns, group_names)
    if not stats.has_gold:
        frame = frame.drop(columns=[columns["aligned"]])
    with right:
        st.caption(tr("corpus.table_caption"))
        event = st.dataframe(frame, hide_index=True, key="corpus_table", height=420, on_select="rerun",
                             selection_mode="single-row")
    picked = list(getattr(getattr(event, "selection", None), "rows", []) or [])
    if picked and st.session_state.get("_corpus_table_pick") != picked[0]:
        st.session_state["_corpus_table_pick"] = picked[0]
        st.session_state["chead"] = str(stats.heads[picked[0]])  # the head picker below renders after this
    return labels


def behaviour_group_name(group: str, code: str) -> str:
    return t(f"corpus.group.{group}", code)


def similarity_section(result, labels: list[str], code: str) -> None:
    stats = result.stats
    st.subheader(tr("corpus.alike"))
    st.caption(tr("corpus.alike_caption", threshold=corpus_heads.GROUP_THRESHOLD))
    distance = head_groups.js_distance_matrix(stats.profiles)
    order = head_groups.cluster_order(distance)
    groups = [head_groups.head_group(stats, k) for k in range(len(stats.heads))]
    short = [head_label(h, code) for h in stats.heads]  # one name per head on the whole page
    chart(cfig.similarity_map(distance, order, short, [behaviour_group_name(g, code) for g in groups],
                              title=t("corpus.alike_fig", code), lang=code), "corpus_similarity")
    named: dict[str, list[str]] = {}
    for group, head in sorted(zip(groups, short, strict=True), key=lambda p: (p[0] == corpus_heads.MIXED, p[0])):
        named.setdefault(group, []).append(head)
    # A static table: its cells wrap, so every head of a group is listed (a dataframe cell cuts them off).
    with st.container(key="corpus_groups"):
        st.table(cfig.group_table(named, {g: behaviour_group_name(g, code) for g in named},
                                  {"group": tr("corpus.group"), "heads": tr("corpus.group_heads"),
                                   "count": tr("corpus.group_count")}).set_index(tr("corpus.group")))


def head_section(name: str, device: str, result, code: str) -> None:
    stats = result.stats
    st.subheader(tr("corpus.one_head"))
    options = [str(h) for h in stats.heads]
    if st.session_state.get("chead") not in options:  # first visit: the URL's head if it names one of them
        url = URL.get("chead")
        st.session_state["chead"] = url if url in options else default_head(stats)
    by_id = {str(h): h for h in stats.heads}
    left, right = st.columns(2)
    # Not bound to the URL with bind=: the table's row click and the default set this widget's value, and a
    # bound widget's parameter cannot be written; the URL follows by hand (URL.write).
    picked = left.selectbox(tr("corpus.head"), options, key="chead", format_func=lambda s: head_label(by_id[s], code))
    head = by_id.get(picked or options[0], stats.heads[0])
    URL.write({"chead": str(head)})
    k = stats.index(head)
    shown = [b for b in corpus_heads.BEHAVIOURS if b != "aligned" or (stats.has_gold and head.kind is
                                                                        AttentionKind.CROSS)]
    if st.session_state.get("behaviour") not in (AUTO, *shown):
        url = URL.get("behaviour")
        st.session_state["behaviour"] = url if url in shown and "behaviour" not in st.session_state else AUTO
    dominant = head_groups.dominant_behaviour(stats, k)
    choice = right.selectbox(tr("corpus.behaviour"), [AUTO, *shown], key="behaviour",
                             format_func=lambda b: t("corpus.auto", code, behaviour=behaviour_name(dominant, code))
                             if b == AUTO else behaviour_name(b, code))
    behaviour = dominant if choice in (None, AUTO) else choice
    URL.write({"behaviour": None if choice in (None, AUTO) else choice})
    st.caption(tr("corpus.head_summary", head=head_label(head, code),
                  group=behaviour_group_name(head_groups.head_group(stats, k), code),
                  behaviour=behaviour_name(behaviour, code),
                  value=f"{stats.value(head, behaviour) or 0.0:.2f}"))
    links(head, stats.heads)

    with st.spinner(tr("corpus.qk_computing")):
        qk = get_query_key_map(name, device, result, head)
    texts = [result.corpus.items[i].text for i in qk.sentence]
    chart(cfig.query_key_scatter(qk.x, qk.y, qk.role, qk.token, qk.position, texts,
                                 title=t("corpus.qk_fig", code, head=head_label(head, code),
                                         n=min(len(result.corpus), len(set(qk.sentence)))),
                                 lang=code, explained=qk.explained), f"corpus_qk_{head}")
    st.caption(tr("corpus.qk_note"))

    most, least = head_groups.extreme_sentences(stats, head, behaviour)
    if not most:
        st.info(tr("corpus.no_values"))
        return
    values = stats.per_sentence[:, k, corpus_heads.STATS.index(behaviour)]
    columns = {"rank": "#", "value": behaviour_name(behaviour, code), "sentence": tr("corpus.sentence")}
    tabs = st.tabs([tr("corpus.most", behaviour=behaviour_name(behaviour, code)),
                    tr("corpus.least", behaviour=behaviour_name(behaviour, code))])
    for tab, indices, which in zip(tabs, (most, least), ("most", "least"), strict=True):
        with tab:
            st.dataframe(cfig.sentence_table(indices, values[indices], stats.texts, columns), hide_index=True,
                         key=f"corpus_{which}_table")
            maps = get_sentence_maps(name, device, result, head, tuple(indices))
            row_title, col_title = (t(f"corpus.side.{side}", code) for side in head.kind.sides)
            # ONE chart per tab (a browser draws many separate charts slowly). The sentence itself is in the
            # table above (rank #) and on the axes as tokens.
            chart(cfig.sentence_maps([(item["weights"], item["queries"], item["keys"]) for item in maps],
                                     [f"#{rank} · {behaviour_name(behaviour, code)} {values[item['index']]:.2f}"
                                      for rank, item in enumerate(maps, start=1)],
                                     title=head_label(head, code), lang=code, row_title=row_title,
                                     col_title=col_title),
                  f"corpus_{which}_maps", key=f"corpus_{which}_maps")


def default_head(stats) -> str:
    """The head with the largest behaviour share (an alignment head when there is one)."""
    best = max(range(len(stats.heads)),
               key=lambda k: np.nanmax(stats.stats[k, [corpus_heads.STATS.index(b) for b in corpus_heads.BEHAVIOURS]]))
    return str(stats.heads[best])


def links(head: Head, heads: list[Head]) -> None:
    """The same head on /heads (its layer and head picked) and on /experiments (switched off)."""
    current = settings()
    common = {"model": current.model, "lang": st.session_state.get("lang") or "", "text": current.text}
    common = {k: v for k, v in common.items() if v}
    left, right = st.columns(2)
    with left:
        st.page_link("pages/heads.py", label=tr("corpus.link_heads", head=head_label(head, lang())),
                     icon=":material/grid_view:",
                     query_params={**common, "layer": str(head.layer), "head": str(head.head)})
    with right:
        st.page_link("pages/experiments.py", label=tr("corpus.link_experiments", head=head_label(head, lang())),
                     icon=":material/science:", query_params={**common, "off": str(head)})


def corpus_page() -> None:
    code = lang()
    current = settings()
    if not current.model:
        st.error(tr("msg.no_models"))
        return
    try:
        loaded = get_model(current.model, current.device)
    except ModelUnavailableError as exc:
        st.error(tr("msg.model_unavailable", name=current.model, reason=str(exc)))
        return
    try:
        corpus_heads.require_transformer(loaded)
    except ValueError:
        st.info(tr("corpus.no_heads", name=loaded.name))
        return
    if not loaded.trained:
        st.warning(tr("msg.untrained", name=loaded.name))
    chosen = choose_corpus(loaded)
    if chosen is None:
        return
    source, n, lines = chosen
    cached = is_cached(current.model, current.device, source, n, lines)
    bar, progress = progress_bar() if not cached else (None, lambda *a: None)
    try:
        result = get_result(current.model, current.device, source, n, lines, progress)
    except ValueError as exc:
        st.error(tr("corpus.err.failed", reason=str(exc)))
        return
    finally:
        if bar is not None:
            bar.empty()
    stats = result.stats
    tokens = sum(stats.query_tokens.values())
    st.success(tr("corpus.summary", n=stats.sentences, tokens=tokens, seconds=f"{stats.seconds:.1f}"))
    if not stats.has_gold and loaded.config.has_decoder:
        st.caption(tr("corpus.no_gold"))
    labels = behaviours_section(result, code)
    similarity_section(result, labels, code)
    head_section(current.model, current.device, result, code)


page_header("corpus.title", "corpus.intro")
corpus_page()
