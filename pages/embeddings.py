"""Embeddings (/embeddings): token embedding rows, the √d_model scaling, the positional encoding
(heatmap, sin/cos curves, PE·PEᵀ) and embedding + PE = the encoder / decoder input. All from the trace."""

import math

import streamlit as st

from explorer.figures import figures
from explorer.figures.attention import array
from explorer.figures.tables import embedding_norms, scaling_latex
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import current_view
from explorer.state import lang, tr
from explorer.widgets import chart, page_header
from transformer_core.tracing.names import side_name

ensure_frame()


@st.fragment
def embeddings_section(view) -> None:
    lang_code = lang()
    trace, cfg, traced = view.trace, view.loaded.config, view.traced
    sides = {"src": tr("label.source")}
    if traced.has_decoder:
        sides["tgt"] = tr("label.target")
    side = st.segmented_control(tr("label.side"), list(sides), format_func=sides.get, default="src",
                                key="emb_side", required=True) or "src"
    if not traced.has_decoder:
        st.caption(tr("msg.no_target"))
    tokens = traced.src_tokens if side == "src" else traced.tgt_tokens
    embed, pos, inputs = (array(trace, side_name(side, name)) for name in ("embed", "pos", "input"))
    d_model = cfg.d_model
    scale = math.sqrt(d_model) if cfg.scale_embedding else 1.0

    st.subheader(tr("emb.scaling"))
    if cfg.scale_embedding:
        st.latex(scaling_latex(d_model, embed[0], scale))
    else:
        st.info(tr("emb.scaling_off"))
    columns = {name: tr(f"col.{name}") for name in ("pos", "token", "norm_raw", "norm_scaled", "norm_pe", "norm_input")}
    st.caption(tr("emb.norms_caption"))
    st.dataframe(embedding_norms(embed, pos, inputs, tokens, scale, columns), hide_index=True, key=f"norms_{side}")

    st.subheader(tr("emb.sum"))
    panels = [(tr("emb.panel_embed") if cfg.scale_embedding else "E[id]", embed), (tr("emb.panel_pe"), pos)]
    if side_name(side, "token_type") in trace:
        panels.append((tr("emb.panel_type"), trace.numpy(side_name(side, "token_type"))))
        st.caption(tr("msg.bert_input"))
    panels.append((tr("emb.panel_input"), inputs))
    chart(figures.vectors_heatmap(panels, tokens, title=tr("emb.sum"), lang=lang_code), f"embedding_sum_{side}")

    sinusoidal = cfg.positional == "sinusoidal"
    if not sinusoidal:
        st.info(tr("msg.learned_positions"))
    st.subheader(tr("emb.pe_heatmap"))
    positions = [str(i) for i in range(pos.shape[0])]
    chart(figures.vectors_heatmap([("PE", pos)], positions, title=tr("emb.pe_heatmap"), lang=lang_code,
                                  row_title=t("fig.position_axis", lang_code)), f"positional_encoding_{side}")

    halves = sinusoidal and getattr(cfg, "sinusoidal_layout", "interleaved") == "halves"
    curves_title = tr("emb.curves_halves") if halves else tr("emb.curves")
    st.subheader(curves_title)
    if halves:  # Marian: sin(pos·ω_i) at dimension i, cos(pos·ω_i) at dimension d/2 + i
        st.info(tr("msg.marian_positions", half=d_model // 2))
        default_dims = sorted({0, 1, d_model // 2, d_model // 2 + 1})
    else:
        default_dims = sorted({0, 1, min(d_model // 8, d_model - 2), min(d_model // 8 + 1, d_model - 1)})
    dims = st.multiselect(tr("emb.dims"), list(range(d_model)), default=default_dims, max_selections=8,
                          key=f"emb_dims_{side}")
    if dims:
        chart(figures.positional_curves(pos, dims, title=curves_title, lang=lang_code,
                                        analytic_d_model=d_model if sinusoidal else None,
                                        max_position=max(pos.shape[0] - 1, 16),
                                        layout="halves" if halves else "interleaved"), f"pe_curves_{side}")

    st.subheader(tr("emb.similarity"))
    chart(figures.position_similarity(pos, title=tr("emb.similarity"), lang=lang_code), f"pe_similarity_{side}")
    st.caption(tr("export.caption"))


page_header("emb.title", "emb.intro")
current = current_view()
if current is not None:
    embeddings_section(current)
