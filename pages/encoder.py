"""Encoder (/encoder): pick a layer and a head; the chain X → Q,K,V → heads → QKᵀ/√d_k → mask → softmax →
·V → concat → W_O → Add & Norm → FFN → Add & Norm with live shapes and numbers, and every head's map."""

import streamlit as st

from explorer.figures import figures
from explorer.figures.attention import head_matrix, strongest_key
from explorer.figures.steps import LayerInfo, encoder_chain
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import current_view
from explorer.state import lang, tr
from explorer.widgets import chart, download_matrix, index_picker, page_header
from transformer_core.tracing.names import AttentionKind, Head

ensure_frame()


def token_choice(label: str, tokens: list[str], key: str, with_auto: bool = False) -> int:
    """A selectbox over token positions ('2: 고양이가'); -1 = automatic (the row's argmax)."""
    options = ([-1] if with_auto else []) + list(range(len(tokens)))
    auto = tr("label.auto_key")  # resolved now: format_func must not read session state later
    return st.selectbox(label, options, key=f"{key}_{len(tokens)}",
                        format_func=lambda i: auto if i < 0 else f"{i}: {tokens[i]}")


@st.fragment
def encoder_section(view) -> None:
    """Layer picker and the layer's charts; the head-specific part is a nested fragment (a head
    switch reruns only that part)."""
    code = lang()
    trace, traced = view.trace, view.traced
    tokens = traced.src_tokens
    layer = index_picker("layer", trace.layout.encoder_layers, tr("label.layer"), "enc_layer_picker", prefix="L")
    head_section(view, layer)
    ref = Head(AttentionKind.ENCODER_SELF, layer, 0)
    chart(figures.heads_grid(trace.numpy(ref.name()), tokens, tokens, title=t("enc.heads", code, layer=layer),
                             lang=code), f"encoder_L{layer}_all_heads")
    st.caption(tr("enc.download_layer", layer=layer))
    labels = figures.unique_labels(tokens, escape=False)
    download_matrix(trace.numpy(ref.name()), labels, labels, f"encoder_L{layer}_all_heads_weights",
                    key="enc_layer_download", head_labels=[f"H{h}" for h in range(view.loaded.config.n_heads)])
    chart(figures.activation_heatmap(trace.numpy(trace.layout.name("encoder", layer, "ffn.hidden")), tokens,
                                     title=t("enc.ffn", code, layer=layer), lang=code,
                                     col_title=t("fig.hidden_unit", code), value_title=t("fig.activation", code)),
          f"encoder_L{layer}_ffn")
    st.caption(tr("export.caption"))


@st.fragment
def head_section(view, layer: int) -> None:
    """Head picker, the equation chain, the head's scores / weights and Q, K, V, the downloads."""
    code = lang()
    trace, cfg, traced = view.trace, view.loaded.config, view.traced
    tokens = traced.src_tokens
    head = index_picker("head", cfg.n_heads, tr("label.head"), "enc_head_picker", prefix="H")
    ref = Head(AttentionKind.ENCODER_SELF, layer, head)
    weights = head_matrix(trace, ref)

    st.subheader(tr("enc.chain"))
    pick_i, pick_j = st.columns(2)
    with pick_i:
        i = token_choice(tr("label.query_token"), tokens, "enc_query")
    with pick_j:
        j = token_choice(tr("label.key_token"), tokens, "enc_key", with_auto=True)
    if j < 0:
        j = strongest_key(weights, i)
    st.text(f"i = {i}: {tokens[i]}    j = {j}: {tokens[j]}    h = {head}")
    info = LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation)
    with st.container(border=True, key="encoder_chain"):
        # ONE Markdown element for the 12 steps (titles from i18n, shapes and LaTeX generated from the
        # trace, never user text): far fewer elements to redraw on a head switch than 12 × (columns + latex).
        st.markdown("\n\n".join(f"**{tr(step.key)}** `{step.shape}`\n$$\n{step.latex}\n$$"
                                  for step in encoder_chain(trace, layer, head, i, j, info, code)))

    q, k, v = (head_matrix(trace, ref, name) for name in ("q", "k", "v"))
    chart(figures.head_detail(head_matrix(trace, ref, "scores"), weights, q, k, v, tokens,
                              masked=head_matrix(trace, ref, "masked_scores"),
                              title=t("enc.head_detail", code, layer=layer, head=head), lang=code),
          f"encoder_L{layer}_H{head}")
    st.caption(tr("enc.download", layer=layer, head=head))
    labels = figures.unique_labels(tokens, escape=False)
    download_matrix(weights, labels, labels, f"encoder_L{layer}_H{head}_weights", key="enc_download")


page_header("enc.title", "enc.intro")
current = current_view()
if current is not None:
    encoder_section(current)
