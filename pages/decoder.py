"""Decoder (/decoder): the causal mask, scores before and after masking (−∞), softmax weights, cross-attention
(target × source), and step-by-step decoding (chosen token, top-k next-token probabilities, source focus)."""

import streamlit as st

from pages._shared import (
    chart,
    current_view,
    download_matrix,
    encoder_only_notice,
    ensure_frame,
    index_picker,
    lang,
    page_header,
    tr,
)
from viz import figures
from viz.attention import CROSS, DEC_SELF, HeadRef, array, head_matrix, softmax, stack, step_rows, top_k
from viz.i18n import t
from viz.tokenization import ids_to_tokens

ensure_frame()


@st.fragment
def attention_section(view) -> None:
    """Layer picker and the layer's all-head grids; the head part is a nested fragment."""
    code = lang()
    trace, traced = view.trace, view.traced
    src, tgt = traced.src_tokens, traced.tgt_tokens
    layer = index_picker("layer", trace.n_layers("decoder"), tr("label.layer"), "dec_layer_picker", prefix="L")
    head_section(view, layer)
    self_ref, cross_ref = HeadRef(DEC_SELF, layer, 0), HeadRef(CROSS, layer, 0)
    chart(figures.heads_grid(trace.numpy(self_ref.name()), tgt, tgt, title=t("dec.self_heads", code, layer=layer),
                             lang=code), f"decoder_L{layer}_self_heads")
    chart(figures.heads_grid(trace.numpy(cross_ref.name()), tgt, src, title=t("dec.cross_heads", code, layer=layer),
                             lang=code, col_title=t("fig.source_axis", code)), f"decoder_L{layer}_cross_heads")
    st.caption(tr("dec.download_layer", layer=layer))
    heads = [f"H{h}" for h in range(view.loaded.config.n_heads)]
    tgt_labels, src_labels = figures.unique_labels(tgt, escape=False), figures.unique_labels(src, escape=False)
    download_matrix(trace.numpy(cross_ref.name()), tgt_labels, src_labels, f"decoder_L{layer}_all_heads_cross",
                    key="dec_layer_download", head_labels=heads)


@st.fragment
def head_section(view, layer: int) -> None:
    """Head picker, the four masking panels of that head, the downloads."""
    code = lang()
    trace, cfg, traced = view.trace, view.loaded.config, view.traced
    src, tgt = traced.src_tokens, traced.tgt_tokens
    head = index_picker("head", cfg.n_heads, tr("label.head"), "dec_head_picker", prefix="H")
    ref, cross = HeadRef(DEC_SELF, layer, head), HeadRef(CROSS, layer, head)
    chart(figures.masking_steps(array(trace, "tgt.causal_mask"), head_matrix(trace, ref, "scores"),
                                head_matrix(trace, ref, "masked_scores"), head_matrix(trace, ref), tgt, tgt,
                                title=t("dec.masked", code, layer=layer, head=head), lang=code),
          f"decoder_L{layer}_H{head}_masking")
    st.caption(tr("dec.mask_caption"))
    tgt_labels = figures.unique_labels(tgt, escape=False)
    src_labels = figures.unique_labels(src, escape=False)
    left, right = st.columns(2)
    with left:
        st.caption(f"{tr('dec.download_self')} (L{layer} H{head})")
        download_matrix(head_matrix(trace, ref), tgt_labels, tgt_labels, f"decoder_L{layer}_H{head}_self_weights",
                        key="dec_self_download")
    with right:
        st.caption(f"{tr('dec.download_cross')} (L{layer} H{head})")
        download_matrix(head_matrix(trace, cross), tgt_labels, src_labels, f"decoder_L{layer}_H{head}_cross_weights",
                        key="dec_cross_download")


@st.fragment
def decoding_section(view) -> None:
    code = lang()
    trace, traced = view.trace, view.traced
    src, tgt, predicted = traced.src_tokens, traced.tgt_tokens, traced.predicted_tokens
    st.subheader(tr("dec.steps"))
    st.caption(tr("dec.steps_caption"))
    n_steps = len(tgt)
    pick_step, pick_k = st.columns([3, 1])
    with pick_step:
        step = st.slider(tr("dec.step"), 0, max(n_steps - 1, 0), 0, key=f"dec_step_{n_steps}") if n_steps > 1 else 0
    with pick_k:
        k = st.number_input(tr("dec.topk"), min_value=1, max_value=20, value=5, key="dec_topk")
    so_far, chosen = st.columns([3, 1])
    so_far.caption(tr("dec.so_far"))
    so_far.code(" ".join(tgt[: step + 1]), language=None, wrap_lines=True)
    chosen.caption(tr("dec.chosen"))
    chosen.code(predicted[step], language=None)
    probs = softmax(trace.numpy("logits")[step])
    ids, top = top_k(probs, int(k))
    candidates = ids_to_tokens(view.loaded.tokenizer, ids.tolist())
    chart(figures.top_k_bar(candidates, top.tolist(), predicted[step],
                            title=t("dec.topk_title", code, t=step, k=int(k)),
                            lang=code), f"decoder_step{step}_topk")
    rows, row_labels = step_rows(stack(trace, CROSS), step)
    chart(figures.step_sources(rows, row_labels, src,
                               title=t("dec.sources_title", code, t=step), lang=code), f"decoder_step{step}_sources")
    st.caption(tr("export.caption"))


page_header("dec.title", "dec.intro")
current = current_view()
if current is not None and not encoder_only_notice(current):
    attention_section(current)
    decoding_section(current)
