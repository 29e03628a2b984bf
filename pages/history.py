"""2015 → 2017 (/history): the same sentence through the 2015 attention RNN (ko-en-rnn-attention) and a
Transformer trained on the same data: both alignments, both score functions with live numbers, the
sequential steps and measured times, and what changed."""

import streamlit as st

from explorer.figures import history
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import View, additive_attention_v, current_view, parameter_count, translates_ko_en
from explorer.state import lang, tr
from explorer.widgets import chart, page_header

ensure_frame()

RNN_MODEL = "ko-en-rnn-attention"
FALLBACK_TRANSFORMER = "ko-en-toy"


def is_ko_en_translator(view: View) -> bool:
    """A trained Transformer encoder-decoder made for the ko-en data (what the RNN can be compared with)."""
    loaded = view.loaded
    return (loaded.trained and loaded.kind == "encoder-decoder" and not history.is_rnn_trace(view.trace)
            and translates_ko_en(loaded))


def the_two_views() -> tuple[View, View] | None:
    """(RNN view, Transformer view) for the sidebar sentence, or None after saying why not."""
    transformer = current_view()
    if transformer is None:
        return None
    if not is_ko_en_translator(transformer):
        st.info(tr("hist.not_ko_en", name=transformer.loaded.name, fallback=FALLBACK_TRANSFORMER))
        transformer = current_view(show_notices=False, model=FALLBACK_TRANSFORMER)
        if transformer is None:
            return None
    rnn = current_view(show_notices=False, model=RNN_MODEL)
    if rnn is None:
        return None
    return rnn, transformer


def outputs_section(rnn: View, transformer: View) -> None:
    st.subheader(tr("hist.outputs"))
    left, right = st.columns(2)
    for column, view, label in ((left, rnn, "hist.rnn_label"), (right, transformer, "hist.transformer_label")):
        column.caption(tr(label, name=view.loaded.name))
        column.code(view.traced.output_text or tr("hist.empty_output"), language=None, wrap_lines=True)
    st.caption(tr("msg.grammar_english"))  # both are ko-en translators that learned the toy grammar's English


@st.fragment
def alignment_section(rnn: View, transformer: View) -> None:
    """The RNN's one alignment next to the Transformer's cross-attention (head average, then each head)."""
    code = lang()
    st.subheader(tr("hist.alignments"))
    st.caption(tr("hist.alignments_caption"))
    n_layers = transformer.trace.n_layers("decoder")
    layer = st.segmented_control(tr("label.layer"), list(range(n_layers)), default=n_layers - 1, key="hist_layer",
                                 required=True, format_func=lambda i: f"L{i}")
    layer = n_layers - 1 if layer is None else int(layer)
    cross = history.cross_attention(transformer.trace, layer)  # [H, T, S]
    src_rnn, rows_rnn = rnn.traced.src_tokens, rnn.traced.predicted_tokens
    src_tf, rows_tf = transformer.traced.src_tokens, transformer.traced.predicted_tokens
    left, right = st.columns(2)
    with left:
        chart(history.alignment_figure(history.rnn_alignment(rnn.trace), rows_rnn, src_rnn,
                                       title=t("hist.rnn_map_title", code), lang=code), "history_rnn_alignment")
    with right:
        chart(history.alignment_figure(cross.mean(axis=0), rows_tf, src_tf,
                                       title=t("hist.tf_map_title", code, layer=layer), lang=code),
              f"history_transformer_L{layer}_average")
    chart(history.heads_figure(cross, rows_tf, src_tf, title=t("hist.tf_heads_title", code, layer=layer), lang=code),
          f"history_transformer_L{layer}_heads")


@st.fragment
def scores_section(rnn: View, transformer: View) -> None:
    """One (t, j) pair scored by both functions, every number from the two traces."""
    st.subheader(tr("hist.scores"))
    st.caption(tr("hist.scores_caption"))
    rows, src = rnn.traced.predicted_tokens, rnn.traced.src_tokens
    alignment = history.rnn_alignment(rnn.trace)
    pick_t, pick_j, pick_h = st.columns([2, 2, 1])
    with pick_t:
        step = st.selectbox(tr("hist.pick_step"), list(range(len(rows))), key=f"hist_t_{len(rows)}",
                            index=history.telling_step(alignment), format_func=lambda i: f"{i}: {rows[i]}")
    step = int(step or 0)
    with pick_j:
        source = st.selectbox(tr("hist.pick_source"), list(range(len(src))), key=f"hist_j_{len(src)}_{step}",
                              index=int(alignment[step].argmax()), format_func=lambda j: f"{j}: {src[j]}")
    source = int(source or 0)
    n_layers = transformer.trace.n_layers("decoder")
    n_heads = transformer.trace.layout.n_heads
    pairs = [(layer, head) for layer in range(n_layers) for head in range(n_heads)]
    with pick_h:
        picked = st.selectbox(tr("hist.pick_head"), pairs, index=(n_layers - 1) * n_heads, key="hist_head",
                              format_func=lambda pair: f"L{pair[0]} H{pair[1]}")
    layer, head = picked or pairs[-n_heads]
    additive = history.additive_score(rnn.trace, additive_attention_v(rnn.loaded), step, source)
    tf_rows, tf_src = transformer.traced.predicted_tokens, transformer.traced.src_tokens
    tf_t, tf_j = min(step, len(tf_rows) - 1), min(source, len(tf_src) - 1)
    dot = history.dot_score(transformer.trace, layer, head, tf_t, tf_j)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{tr('hist.additive_title')}**")
        st.caption(tr("hist.additive_text", t=step, word=rows[step], j=source, src=src[source]))
        st.latex(history.additive_latex(additive, lang()))
    with right:
        st.markdown(f"**{tr('hist.dot_title')}**")
        st.caption(tr("hist.dot_text", t=tf_t, word=tf_rows[tf_t], j=tf_j, src=tf_src[tf_j]))
        st.latex(history.dot_latex(dot, lang()))


def steps_section(rnn: View, transformer: View) -> None:
    code = lang()
    st.subheader(tr("hist.steps"))
    st.caption(tr("hist.steps_caption"))
    cfg = transformer.loaded.config
    n_src, n_tgt = len(rnn.traced.src_tokens), len(rnn.traced.tgt_tokens)
    counts = history.step_counts(n_src, n_tgt, len(transformer.traced.tgt_tokens), cfg.n_encoder_layers,
                                 cfg.n_decoder_layers)
    chart(history.steps_figure(counts, lang=code), "history_sequential_steps")
    runs = [
        history.ModelRun(t("hist.rnn_label", code, name=rnn.loaded.name), rnn.traced.output_text, n_src, n_tgt,
                         counts.rnn_forward, counts.rnn_generate, rnn.traced.forward_seconds,
                         rnn.traced.decode_seconds, parameter_count(rnn.loaded)),
        history.ModelRun(t("hist.transformer_label", code, name=transformer.loaded.name),
                         transformer.traced.output_text,
                         len(transformer.traced.src_tokens), len(transformer.traced.tgt_tokens),
                         counts.transformer_forward, counts.transformer_generate, transformer.traced.forward_seconds,
                         transformer.traced.decode_seconds,
                         parameter_count(transformer.loaded)),
    ]
    # plain t(): a table cell shows text as it is (tr() escapes for Markdown)
    st.dataframe(history.runs_table(runs, lang=code), hide_index=True, width="stretch")
    st.caption(tr("hist.times_note"))


page_header("hist.title", "hist.intro")
views = the_two_views()
if views is not None:
    rnn_view, transformer_view = views
    outputs_section(rnn_view, transformer_view)
    alignment_section(rnn_view, transformer_view)
    scores_section(rnn_view, transformer_view)
    steps_section(rnn_view, transformer_view)
st.subheader(tr("hist.differences"))  # which differences are history and which are this project's
st.markdown(tr("hist.differences_text"))
st.subheader(tr("hist.changed"))
st.markdown(tr("hist.changed_text"))
