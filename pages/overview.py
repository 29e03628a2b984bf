"""Overview (/): input and output, timings, and the architecture with live shapes linking to each stage."""

import streamlit as st

import transformer_core as core
from explorer.figures.steps import shape_str
from explorer.frame import ensure_frame
from explorer.i18n import CATALOGS
from explorer.services import current_view
from explorer.state import tr
from explorer.widgets import page_header
from transformer_core.tracing.names import (
    CAUSAL_MASK,
    ENCODER_OUT,
    LOGITS,
    SRC_EMBED,
    SRC_IDS,
    SRC_INPUT,
    SRC_POS,
    TGT_EMBED,
    TGT_IDS,
    TGT_INPUT,
    AttentionKind,
)

ensure_frame()

page_header("overview.title", "overview.intro")
view = current_view()
if view is not None:
    traced, trace, cfg = view.traced, view.trace, view.loaded.config
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{tr('overview.input')}**")
        st.code(view.settings.text, language=None, wrap_lines=True)
    with right:
        st.markdown(f"**{tr('overview.output')}**")
        if traced.has_decoder:
            st.code(traced.output_text or tr("overview.output_empty"), language=None, wrap_lines=True)
        else:
            st.info(tr("msg.no_output_encoder", shape=shape_str(trace[ENCODER_OUT].shape)))
        # The honest notice (unknown words, known words in an unknown construction) is shown above, before the
        # output, by current_view on every page (services.outside_notice).

    m1, m2, m3, m4, m5 = st.columns(5)
    m1.metric(tr("overview.model"), view.loaded.name)
    m2.metric(tr("overview.forward"), f"{traced.forward_seconds * 1000:.1f} ms")
    m3.metric(tr("overview.decode"), f"{traced.decode_seconds * 1000:.1f} ms" if traced.has_decoder else "—")
    m4.metric(tr("overview.device"), traced.device)
    n_out = max(len(traced.tgt_tokens) - 1, 0)
    m5.metric(tr("overview.tokens"), f"{len(traced.src_tokens)} → {n_out}" if traced.has_decoder
              else str(len(traced.src_tokens)))
    # Table 3 of the paper beside this model's own count (a tied matrix counted once)
    st.caption(tr("overview.params", n=f"{core.model_parameters(view.loaded.model):,}",
                  base=f"{core.PAPER_PARAMETERS['base'] // 1_000_000}",
                  big=f"{core.PAPER_PARAMETERS['big'] // 1_000_000}"))
    if getattr(cfg, "positional", "") == "sinusoidal" and not cfg.type_vocab_size:  # the paper's kind: base beside it
        paper = core.parameter_count(core.TransformerConfig())  # the formula, not a 63 M-parameter model
        gap = core.PAPER_PARAMETERS["base"] - paper
        per_token = core.TransformerConfig().d_model + 1  # one more vocabulary token: an embedding row and a bias
        st.caption(tr("overview.params_paper", d=cfg.d_model, h=cfg.n_heads, dff=cfg.d_ff,
                      layers=f"{cfg.n_encoder_layers}+{cfg.n_decoder_layers}", vocab=f"{cfg.src_vocab_size:,}",
                      paper=f"{paper:,}", gap=f"{gap:,}", rows=f"{gap // per_token:,}"))
    # the bundled and built-in models' descriptions in the UI's language; any other model's as its config says
    desc_key = "model_desc." + view.loaded.name.replace("-", "_")
    description = tr(desc_key) if desc_key in CATALOGS["en"] else view.loaded.description
    if description:
        with st.expander(tr("overview.description")):
            st.text(description)

    st.subheader(tr("overview.diagram"))
    shapes = trace.shapes()
    layout = trace.layout  # layer names from the trace itself (layer 0 stands for every layer)
    n_src = shapes[SRC_IDS][1]
    n_tgt = shapes[TGT_IDS][1] if traced.has_decoder else 0
    vocab = shapes[LOGITS][2] if traced.has_decoder else cfg.src_vocab_size
    st.caption(tr("overview.diagram_caption", S=n_src, T=n_tgt or "—", D=cfg.d_model, H=cfg.n_heads,
                  dk=cfg.d_k, dff=cfg.d_ff, V=vocab))

    def box(title: str, lines: list[tuple[str, tuple]], page: str, page_title_key: str, key: str) -> None:
        """One stage of the diagram: its name, its live shapes, a link to its page."""
        with st.container(border=True, key=key):
            st.markdown(f"**{title}**")
            st.markdown("  \n".join(f"{label} `{shape_str(shape)}`" for label, shape in lines))
            st.page_link(page, label=tr("overview.open", page=tr(page_title_key)), icon=":material/arrow_forward:")

    def arrow() -> None:
        st.markdown("<div style='text-align:center;font-size:1.3rem;line-height:1'>↓</div>", unsafe_allow_html=True)

    enc_col, dec_col = st.columns(2) if traced.has_decoder else (st.container(), None)
    # what this model adds to a token's embedding: BERT learns positions and does not scale by √d_model
    embed_key = "overview.box_embed_learned" if cfg.positional == "learned" else \
        "overview.box_embed" if cfg.scale_embedding else "overview.box_embed_unscaled"
    # the layer boxes say the model's own order: post-LN (the paper) or pre-LN with a final LayerNorm
    layers_suffix = "_pre" if getattr(cfg, "norm_first", False) else ""
    final_norm = " " + tr("overview.final_norm") if getattr(cfg, "final_norm", False) else ""
    with enc_col:
        st.markdown(f"#### {tr('overview.encoder')}")
        box(tr("overview.box_tokens"), [(SRC_IDS, shapes[SRC_IDS])], "pages/tokens.py", "nav.tokens",
            "box_src_tokens")
        arrow()
        box(tr(embed_key), [(SRC_EMBED, shapes[SRC_EMBED]), (SRC_POS, shapes[SRC_POS]),
                                       (SRC_INPUT, shapes[SRC_INPUT])],
            "pages/embeddings.py", "nav.embeddings", "box_src_embed")
        arrow()
        box(tr(f"overview.box_encoder_layers{layers_suffix}", n=layout.encoder_layers) + final_norm,
            [(tr("overview.qkv"), shapes[layout.attention_name(AttentionKind.ENCODER_SELF, 0, "q")]),
             (tr("overview.attn"), shapes[layout.attention_name(AttentionKind.ENCODER_SELF, 0)]),
             (tr("overview.ffn"), shapes[layout.name("encoder", 0, "ffn.hidden")])],
            "pages/encoder.py", "nav.encoder", "box_encoder")
        arrow()
        box(tr("overview.box_memory"), [(ENCODER_OUT, shapes[ENCODER_OUT])], "pages/encoder.py", "nav.encoder",
            "box_memory")
    if dec_col is not None:
        with dec_col:
            st.markdown(f"#### {tr('overview.decoder')}")
            box(tr("overview.box_tgt_tokens"), [(TGT_IDS, shapes[TGT_IDS])], "pages/tokens.py", "nav.tokens",
                "box_tgt_tokens")
            arrow()
            box(tr(embed_key), [(TGT_EMBED, shapes[TGT_EMBED]), (TGT_INPUT, shapes[TGT_INPUT])],
                "pages/embeddings.py", "nav.embeddings", "box_tgt_embed")
            arrow()
            box(tr(f"overview.box_decoder_layers{layers_suffix}", n=layout.decoder_layers) + final_norm,
                [(tr("overview.attn"), shapes[layout.attention_name(AttentionKind.DECODER_SELF, 0)]),
                 (tr("overview.causal"), shapes[CAUSAL_MASK]),
                 (tr("overview.cross"), shapes[layout.attention_name(AttentionKind.CROSS, 0)]),
                 (tr("overview.ffn"), shapes[layout.name("decoder", 0, "ffn.hidden")])],
                "pages/decoder.py", "nav.decoder", "box_decoder")
            arrow()
            box(tr("overview.box_logits"), [(LOGITS, shapes[LOGITS])], "pages/decoder.py", "nav.decoder",
                "box_logits")
    with st.container(border=True, key="box_heads"):
        st.markdown(f"**{tr('overview.box_heads')}**")
        st.page_link("pages/heads.py", label=tr("overview.open", page=tr("nav.heads")), icon=":material/grid_view:")
