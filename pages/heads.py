"""Heads (/heads): 2–4 heads side by side with a difference map, a sortable statistics table of every head,
a head-similarity map (1 − Jensen-Shannon) and every layer × head in ONE figure; special tokens can be hidden."""

import numpy as np
import streamlit as st

from explorer.corpus_service import latest_result
from explorer.figures import figures
from explorer.figures.attention import all_heads, head_matrix, kinds_in, special_mask, stack, tokens_for
from explorer.figures.corpus import head_column
from explorer.figures.experiments import importance_by_head
from explorer.figures.head_stats import STAT_FIELDS, drop_and_renormalise, similarity_matrix, stats_table
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import current_view, get_importance
from explorer.state import lang, shared_index, tr
from explorer.tokenizer_service import special_tokens
from explorer.widgets import chart, download_matrix, page_header
from transformer_core.tracing.names import AttentionKind, Head

ensure_frame()


@st.fragment
def heads_section(view) -> None:
    code = lang()
    trace, traced = view.trace, view.traced
    specials = special_tokens(view.loaded.tokenizer)
    present = sorted({tok for tok in traced.src_tokens + traced.tgt_tokens if tok in specials})
    hide = st.toggle(tr("heads.hide_special"), key="heads_hide_special")
    if hide:
        if present:
            st.info(tr("msg.special_hidden", tokens=", ".join(present)))
        else:
            st.caption(tr("msg.special_none"))

    def kind_label(kind: str) -> str:
        return t(f"kind.{kind}", code)

    def view_of(ref: Head) -> tuple[np.ndarray, list[str], list[str]]:
        """A head's map and its (row, column) tokens, with special tokens removed when `hide` is on."""
        rows, cols = tokens_for(ref.kind, traced.src_tokens, traced.tgt_tokens)
        matrix = head_matrix(trace, ref)
        if not hide:
            return matrix, rows, cols
        keep_rows, keep_cols = ~special_mask(rows, specials), ~special_mask(cols, specials)
        if not keep_rows.any() or not keep_cols.any():  # nothing but special tokens: keep the map whole
            return matrix, rows, cols
        return (drop_and_renormalise(matrix, keep_rows, keep_cols),
                [r for r, k in zip(rows, keep_rows, strict=True) if k],
                [c for c, k in zip(cols, keep_cols, strict=True) if k])

    heads = all_heads(trace)
    labels = {ref: f"{kind_label(ref.kind)} · L{ref.layer} · H{ref.head}" for ref in heads}
    n_heads = view.loaded.config.n_heads
    n_enc_layers = trace.layout.encoder_layers
    layer, head = shared_index("layer", n_enc_layers), shared_index("head", n_heads)
    default = [Head(AttentionKind.ENCODER_SELF, layer, h) for h in (head, (head + 1) % n_heads)]
    chosen = st.multiselect(tr("heads.pick"), heads, default=[d for d in default if d in labels],
                            format_func=labels.get, max_selections=4, key=f"heads_pick_{view.loaded.name}")

    st.subheader(tr("heads.compare_title"))
    if len(chosen) < 2:
        st.info(tr("msg.pick_two_heads"))
    else:
        maps = [view_of(ref) for ref in chosen]
        first_rows, first_cols = maps[0][1], maps[0][2]
        # panels with different shapes cannot share axes: keep those matching the first head, say which were dropped
        shown = [(ref, m) for ref, m in zip(chosen, maps, strict=True) if m[0].shape == maps[0][0].shape]
        chart(figures.compare_heads([m[0] for _, m in shown], [ref.label for ref, _ in shown], first_rows, first_cols,
                                    title=t("heads.compare_title", code), lang=code,
                                    difference_title=f"A − B: {shown[0][0].label} − {shown[1][0].label}"
                                    if len(shown) > 1 else None), "heads_compare")
        if len(shown) < len(chosen):
            st.caption(tr("msg.diff_shapes"))
        st.caption(tr("heads.download"))
        names = [ref.label for ref, _ in shown]
        download_matrix(np.stack([m[0] for _, m in shown]), figures.unique_labels(first_rows, escape=False),
                        figures.unique_labels(first_cols, escape=False),
                        "heads_" + "__".join(name.replace(" ", "_") for name in names), key="heads_download",
                        head_labels=names)

    st.subheader(tr("heads.stats"))
    st.caption(tr("heads.stats_caption"))
    rows_for_table = []
    for ref in heads:
        matrix, _, cols = view_of(ref)
        rows_for_table.append((kind_label(ref.kind), ref.layer, ref.head, matrix, special_mask(cols, specials)))
    columns = {name: tr(f"stat.{name}") for name in ("kind", "layer", "head", *STAT_FIELDS, "importance")}
    drops = importance_by_head(get_importance(view.loaded.directory))  # head_importance.json, if computed
    importance = [drops.get(str(ref)) for ref in heads] if drops else None
    st.dataframe(stats_table(rows_for_table, columns, importance, corpus_column(view.loaded.name, heads)),
                 hide_index=True, key="heads_stats", height=360)

    kinds = kinds_in(trace)
    kind = st.segmented_control(tr("heads.similarity_kind"), kinds, format_func=kind_label, default=kinds[0],
                                key="heads_similarity_kind", required=True) or kinds[0]
    kind_heads = [ref for ref in heads if ref.kind == kind]
    sim = similarity_matrix(np.stack([view_of(ref)[0] for ref in kind_heads]))
    chart(figures.similarity_heatmap(sim, [f"L{r.layer}H{r.head}" for r in kind_heads],
                                     title=t("heads.similarity", code, kind=kind_label(kind)), lang=code),
          f"head_similarity_{kind}")

    st.subheader(tr("heads.overview"))
    st.caption(tr("heads.overview_caption"))
    stacks = []
    for k in kinds:
        maps = stack(trace, k)
        rows, cols = tokens_for(k, traced.src_tokens, traced.tgt_tokens)
        keep_rows, keep_cols = ~special_mask(rows, specials), ~special_mask(cols, specials)
        if hide and keep_rows.any() and keep_cols.any():
            maps = drop_and_renormalise(maps, keep_rows, keep_cols)
        stacks.append((kind_label(k), maps))
    chart(figures.all_heads_overview(stacks, title=t("heads.overview", code), lang=code), "all_heads_overview")
    st.caption(tr("export.caption"))


def corpus_column(model: str, heads: list[Head]) -> dict[str, list] | None:
    """"Behaviour over N sentences" from the model's latest /corpus result, when one is cached (else None)."""
    result = latest_result(model)
    if result is None:
        return None
    rows = {(r["kind"], r["layer"], r["head"]): r for r in result.stats.rows()}
    names = {b: tr(f"corpus.stat.{b}") for b in ("diagonal", "previous", "next", "first", "last", "aligned")}
    cells = head_column([rows.get((ref.kind.value, ref.layer, ref.head))
                         for ref in heads], names)
    return {tr("heads.corpus_column", n=result.stats.sentences): cells}


page_header("heads.title", "heads.intro")
current = current_view()
if current is not None:
    heads_section(current)
