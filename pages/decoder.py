"""Decoder (/decoder): the decoding strategy (greedy / sampling / beam search), the causal mask, scores before
and after masking (−∞), softmax weights, cross-attention (target × source), step-by-step decoding (chosen token,
top-k next-token probabilities, source focus), the sampling distribution or the beam tree, and the KV cache.

The output comes from the core (transformer_core.inference.generation) with the chosen strategy; every picture comes
from ONE recorded teacher-forced pass over that output (explorer.services.get_decoded_trace)."""

import streamlit as st

from explorer.figures import figures
from explorer.figures.attention import array, head_matrix, stack, step_rows
from explorer.figures.generation import (
    BEAM_TREE_MAX_STEPS,
    BeamNode,
    beam_tree,
    empty_output_key,
    kv_cache_view,
    next_token_candidates,
    sampling_bars,
    sampling_candidates,
)
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import current_view, get_model, sampling_distribution
from explorer.state import UrlState, choice, labels_for, lang, settings, tr
from explorer.tokenizer_service import ids_to_tokens
from explorer.widgets import chart, download_matrix, encoder_only_notice, index_picker, page_header
from transformer_core.inference.generation import (
    MAX_BEAM_WIDTH,
    PAPER_BEAM_WIDTH,
    PAPER_LENGTH_PENALTY,
    STRATEGIES,
    DecodingSettings,
)
from transformer_core.tracing.names import CAUSAL_MASK, LOGITS, AttentionKind, Head

ensure_frame()

DEFAULTS = DecodingSettings()  # the core's defaults seed the widgets
# The strategy's own URL key (temperature, top_k, ... are widgets bound to the URL: bind="query-params")
URL = UrlState("decoder", choice("strategy", STRATEGIES, "greedy", state_key="strategy"))


def strategy_controls() -> DecodingSettings:
    """The strategy widgets (bound to the URL); their values as hashable settings for the trace cache."""
    st.subheader(tr("gen.section"))
    st.caption(tr("gen.section_caption"))
    URL.seed(every_run=True)  # seeded from the URL; labels are translated, so not bound to it
    strategy = st.segmented_control(tr("gen.strategy"), STRATEGIES, key="strategy", required=True,
                                    help=tr("gen.strategy_help"), format_func=labels_for("gen.strategy_{}"))
    strategy = strategy if strategy in STRATEGIES else "greedy"
    URL.write({"strategy": strategy})
    if strategy == "sample":
        c1, c2, c3, c4 = st.columns(4)
        temperature = c1.slider(tr("gen.temperature"), 0.0, 2.0, DEFAULTS.temperature, 0.05, key="temperature",
                                bind="query-params", help=tr("gen.temperature_help"))
        top_k_value = c2.number_input(tr("gen.top_k"), 0, 1000, 0, key="top_k", bind="query-params",
                                      help=tr("gen.top_k_help"))
        top_p = c3.slider(tr("gen.top_p"), 0.05, 1.0, 1.0, 0.05, key="top_p", bind="query-params",
                          help=tr("gen.top_p_help"))
        seed = c4.number_input(tr("gen.seed"), 0, 2**31 - 1, DEFAULTS.seed, key="seed", bind="query-params",
                               help=tr("gen.seed_help"))
        return DecodingSettings("sample", temperature=float(temperature), top_k=int(top_k_value) or None,
                                top_p=float(top_p) if top_p < 1.0 else None, seed=int(seed))
    if strategy == "beam":
        c1, c2 = st.columns(2)
        width = c1.slider(tr("gen.beam_width"), 1, MAX_BEAM_WIDTH, PAPER_BEAM_WIDTH, key="beams",
                          bind="query-params", help=tr("gen.beam_width_help"))
        # the paper's defaults (section 6.1): width 4, alpha 0.6 with GNMT's length penalty
        penalty = c2.slider(tr("gen.length_penalty"), 0.0, 2.0, PAPER_LENGTH_PENALTY, 0.1, key="length_penalty",
                            bind="query-params", help=tr("gen.length_penalty_help"))
        st.caption(tr("gen.beam_rule"))
        return DecodingSettings("beam", beam_width=int(width), length_penalty=float(penalty), length_rule="gnmt")
    return DecodingSettings()


def output_block(view, decoding: DecodingSettings) -> None:
    traced = view.traced
    st.markdown(f"**{tr('gen.output', strategy=tr(f'gen.strategy_{decoding.strategy}'))}**")
    empty = empty_output_key(len(traced.tgt_tokens) - 1)  # output tokens after BOS
    st.code(traced.output_text or tr(empty), language=None, wrap_lines=True)
    st.caption(tr("gen.timing", decode_ms=traced.decode_seconds * 1000, forward_ms=traced.forward_seconds * 1000))
    cfg = view.loaded.config
    if cfg.bos_token_id == cfg.pad_token_id:  # Marian: no separate [BOS]; the start token is the pad token
        st.info(tr("msg.start_is_pad", token=traced.tgt_tokens[0] if traced.tgt_tokens else "<pad>"))


def written_tokens(traced) -> list[str]:
    """Row t of cross-attention is the query at decoder position t, which writes output token t: the token the
    strategy chose there ("—" for a last row the output never used)."""
    return [tok or "—" for tok in (traced.chosen_tokens or traced.predicted_tokens)]


@st.fragment
def attention_section(view) -> None:
    """Layer picker and the layer's all-head grids; the head part is a nested fragment."""
    code = lang()
    trace, traced = view.trace, view.traced
    src, tgt = traced.src_tokens, traced.tgt_tokens
    layer = index_picker("layer", trace.layout.decoder_layers, tr("label.layer"), "dec_layer_picker", prefix="L")
    head_section(view, layer)
    self_ref, cross_ref = Head(AttentionKind.DECODER_SELF, layer, 0), Head(AttentionKind.CROSS, layer, 0)
    chart(figures.heads_grid(trace.numpy(self_ref.name()), tgt, tgt, title=t("dec.self_heads", code, layer=layer),
                             lang=code), f"decoder_L{layer}_self_heads")
    written = written_tokens(traced)  # cross-attention rows: the output token being written (as on every page)
    chart(figures.heads_grid(trace.numpy(cross_ref.name()), written, src,
                             title=t("dec.cross_heads", code, layer=layer), lang=code,
                             row_title=t("fig.written_axis", code), col_title=t("fig.source_axis", code)),
          f"decoder_L{layer}_cross_heads")
    st.caption(tr("dec.download_layer", layer=layer))
    heads = [f"H{h}" for h in range(trace.layout.n_heads)]
    written_labels = figures.unique_labels(written, escape=False)
    src_labels = figures.unique_labels(src, escape=False)
    download_matrix(trace.numpy(cross_ref.name()), written_labels, src_labels, f"decoder_L{layer}_all_heads_cross",
                    key="dec_layer_download", head_labels=heads)


@st.fragment
def head_section(view, layer: int) -> None:
    """Head picker, the four masking panels of that head, the downloads."""
    code = lang()
    trace, traced = view.trace, view.traced
    src, tgt = traced.src_tokens, traced.tgt_tokens
    head = index_picker("head", trace.layout.n_heads, tr("label.head"), "dec_head_picker", prefix="H")
    ref, cross = Head(AttentionKind.DECODER_SELF, layer, head), Head(AttentionKind.CROSS, layer, head)
    chart(figures.masking_steps(array(trace, CAUSAL_MASK), head_matrix(trace, ref, "scores"),
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
        download_matrix(head_matrix(trace, cross), figures.unique_labels(written_tokens(traced), escape=False),
                        src_labels, f"decoder_L{layer}_H{head}_cross_weights",
                        key="dec_cross_download")


@st.fragment
def decoding_section(view, decoding: DecodingSettings) -> None:
    code = lang()
    trace, traced = view.trace, view.traced
    src, tgt, predicted = traced.src_tokens, traced.tgt_tokens, traced.predicted_tokens
    chosen_tokens = traced.chosen_tokens or predicted
    st.subheader(tr("dec.steps"))
    st.caption(tr("dec.steps_caption"))
    n_steps = len(tgt)
    pick_step, pick_k = st.columns([3, 1])
    with pick_step:
        step = st.slider(tr("dec.step"), 0, max(n_steps - 1, 0), 0, key=f"dec_step_{n_steps}") if n_steps > 1 else 0
    with pick_k:
        k = st.number_input(tr("dec.topk"), min_value=1, max_value=20, value=5, key="dec_topk")
    greedy = decoding.strategy == "greedy"
    so_far, argmax, *rest = st.columns([3, 1] if greedy else [3, 1, 1])
    so_far.caption(tr("dec.so_far"))
    so_far.code(" ".join(tgt[: step + 1]), language=None, wrap_lines=True)
    argmax.caption(tr("dec.chosen"))
    argmax.code(predicted[step], language=None)
    chosen = chosen_tokens[step]
    if rest:  # sampling and beam search may choose another token than the argmax
        rest[0].caption(tr("gen.chosen"))
        rest[0].code(chosen or tr("gen.not_generated"), language=None)
    logits = trace.numpy(LOGITS)[step]
    ids, top = next_token_candidates(logits, int(k))
    candidates = ids_to_tokens(view.loaded.tokenizer, ids.tolist())
    chart(figures.top_k_bar(candidates, top.tolist(), chosen or predicted[step],
                            title=t("dec.topk_title", code, t=step, k=int(k)),
                            lang=code), f"decoder_step{step}_topk")
    rows, row_labels = step_rows(stack(trace, AttentionKind.CROSS), step)
    chart(figures.step_sources(rows, row_labels, src,
                               title=t("dec.sources_title", code, t=step), lang=code), f"decoder_step{step}_sources")
    if decoding.strategy == "sample":
        sampling_view(view, decoding, logits, step, chosen)
    elif decoding.strategy == "beam":
        beam_view(view)
    kv_section(view, step)
    st.caption(tr("export.caption"))


def sampling_view(view, decoding: DecodingSettings, logits, step: int, chosen: str) -> None:
    """Probabilities at `step` before and after the temperature and the top-k / top-p cut (core math)."""
    code = lang()
    raw, tempered, cut = sampling_distribution(logits, decoding)  # the core's own sampling math
    ids = sampling_candidates(raw)
    tokens = ids_to_tokens(view.loaded.tokenizer, ids.tolist())
    chart(sampling_bars(tokens, raw[ids], tempered[ids], cut[ids], chosen,
                        title=t("gen.sampling_title", code, t=step), lang=code, temperature=decoding.temperature,
                        top_k=decoding.top_k, top_p=decoding.top_p), f"decoder_step{step}_sampling")
    st.caption(tr("gen.sampling_caption"))


def beam_view(view) -> None:
    """The hypothesis tree recorded by beam search (not by the traced pass: beams are not in the output)."""
    code = lang()
    traced = view.traced
    records = traced.generation.beam_steps[0] if traced.generation and traced.generation.beam_steps else []
    shown = records[:BEAM_TREE_MAX_STEPS]
    tokenizer = view.loaded.tokenizer
    all_ids = sorted({c.token for step in shown for c in step})
    label_of = dict(zip(all_ids, ids_to_tokens(tokenizer, all_ids), strict=True))
    nodes = [[BeamNode(c.parent, label_of[c.token], c.log_prob, c.score, c.status, c.slot) for c in step]
             for step in shown]
    chosen = list(traced.chosen_tokens or [])
    if chosen and not chosen[-1]:
        chosen = chosen[:-1]
    chart(beam_tree(nodes, chosen, title=t("gen.beam_title", code), lang=code,
                    root_label=traced.tgt_tokens[0] if traced.tgt_tokens else "<s>"), "decoder_beam_tree")
    st.caption(tr("gen.beam_caption"))
    if len(records) > len(shown):
        st.caption(tr("gen.beam_capped", n=len(shown), total=len(records)))


@st.fragment
def kv_section(view, step: int) -> None:
    """The KV cache at `step` for a chosen decoder layer and head, read from the recorded pass."""
    code = lang()
    trace, traced = view.trace, view.traced
    layout = trace.layout
    st.subheader(tr("gen.kv_section"))
    left, right = st.columns(2)
    layer = left.segmented_control(tr("gen.kv_layer"), list(range(layout.decoder_layers)), default=0,
                                   key="kv_layer", required=True, format_func=lambda i: f"L{i}") or 0
    head = right.segmented_control(tr("gen.kv_head"), list(range(layout.n_heads)), default=0, key="kv_head",
                                   required=True, format_func=lambda i: f"H{i}") or 0
    layer, head = min(int(layer), layout.decoder_layers - 1), min(int(head), layout.n_heads - 1)
    ref = Head(AttentionKind.DECODER_SELF, layer, head)
    k = head_matrix(trace, ref, "k")  # [T, d_k]: row j = position j's key, cached since step j
    v = head_matrix(trace, ref, "v")
    weights = head_matrix(trace, ref)[step]  # [T]: query `step` over every key (0 after `step`: causal)
    chart(kv_cache_view(k, v, weights, step, traced.tgt_tokens, lang=code,
                        title=t("gen.kv_title", code, t=step, layer=layer, head=head)),
          f"decoder_step{step}_L{layer}_H{head}_kv_cache")
    st.caption(tr("gen.kv_caption"))


def chosen_model_has_decoder() -> bool:
    """Whether the sidebar's model has a decoder (the strategy control is pointless without one)."""
    chosen = settings()
    try:
        return get_model(chosen.model, chosen.device).config.has_decoder
    except Exception:  # current_view explains any problem with the model
        return True


page_header("dec.title", "dec.intro")
decoding = strategy_controls() if chosen_model_has_decoder() else DecodingSettings()
current = current_view(decoding=decoding)
if current is not None and not encoder_only_notice(current):
    output_block(current, decoding)
    attention_section(current)
    decoding_section(current, decoding)
