"""What if (/experiments): switch heads off, remove positional encoding or the causal mask, shuffle the source
words; run; compare the original and the patched model's output (changed tokens highlighted), the probability
of each original token before and after, and one head's attention before and after. The experiment lives in
the URL (off, method, pe, causal, shuffle: transformer_core.analysis.experiments.Intervention); the head-importance
table (head_importance.json) ranks the heads and can switch the top one off."""

import streamlit as st

from explorer.figures import experiments as xfig
from explorer.figures import figures
from explorer.figures.attention import head_matrix, tokens_for
from explorer.frame import ensure_frame
from explorer.i18n import t
from explorer.services import current_view, get_experiment, get_importance, ranked_importance
from explorer.state import UrlState, labels_for, lang, settings, text, tr
from explorer.widgets import chart, page_header
from transformer_core.analysis.experiments import PE_SIDES, Intervention
from transformer_core.analysis.head_patches import METHODS, layer_counts
from transformer_core.tracing import names
from transformer_core.tracing.names import ENCODER_OUT, LOGITS, Head

ensure_frame()

# The experiment in the URL: texts that Intervention.from_params reads (and says why it cannot)
URL = UrlState("experiments", text("off", max_chars=20_000),
               *(text(key, max_chars=2000) for key in ("method", "pe", "causal", "shuffle")))
GRID_CELL_PX = 32  # one cell of the heads grid: a checkbox or a short label (H0, L1)


# ------------------------------------------------------------------------------------------------
# The experiment <-> URL <-> widgets

def spec_from_url(n_heads: int) -> tuple[Intervention, str]:
    """The experiment in the URL, and the reason it was ignored ('' when it is fine)."""
    params = {key: value for key, value in URL.read().items() if value}
    try:
        return Intervention.from_params(params, n_heads=n_heads), ""
    except ValueError as exc:
        return Intervention(), str(exc)


def write_url(spec: Intervention) -> None:
    params = spec.to_params()
    URL.write({param.name: params.get(param.name, "") for param in URL.params})


def head_key(kind: str, layer: int, head: int) -> str:
    return f"xp_off_{kind}_{layer}_{head}"


def seed_widgets(spec: Intervention, counts: dict[str, int], n_heads: int) -> None:
    """Put the experiment into the widgets' state (before they are drawn)."""
    off = set(spec.off)
    for kind, layers in counts.items():
        for layer in range(layers):
            for head in range(n_heads):
                st.session_state[head_key(kind, layer, head)] = Head(kind, layer, head) in off
    st.session_state["xp_method"] = spec.method
    st.session_state["xp_pe"] = spec.pe
    st.session_state["xp_nocausal"] = not spec.causal
    st.session_state["xp_shuffle_on"] = spec.shuffle is not None
    st.session_state["xp_shuffle_seed"] = spec.shuffle if spec.shuffle is not None else 1


def spec_from_widgets(counts: dict[str, int], n_heads: int) -> Intervention:
    state = st.session_state
    off = tuple(Head(kind, layer, head) for kind, layers in counts.items() for layer in range(layers)
                for head in range(n_heads) if state.get(head_key(kind, layer, head)))
    shuffle = int(state.get("xp_shuffle_seed") or 0) if state.get("xp_shuffle_on") else None
    return Intervention(off=off, method=state.get("xp_method") or "zero", pe=state.get("xp_pe") or "",
                        causal=not state.get("xp_nocausal"), shuffle=shuffle)


def apply_spec(spec: Intervention, counts: dict[str, int], n_heads: int) -> None:
    """Callback: make `spec` the current experiment (widgets and URL)."""
    seed_widgets(spec, counts, n_heads)
    write_url(spec)
    st.session_state["_xp_seeded_for"] = (settings().model, spec.to_query())


# ------------------------------------------------------------------------------------------------
# Sections

def controls(view, spec: Intervention, counts: dict[str, int]) -> None:
    """The form: a layers x heads grid of checkboxes per attention kind, method, PE, causal mask, shuffle."""
    cfg = view.loaded.config
    n_heads = cfg.n_heads
    marker = (settings().model, spec.to_query())
    if st.session_state.get("_xp_seeded_for") != marker:
        seed_widgets(spec, counts, n_heads)
        st.session_state["_xp_seeded_for"] = marker
    with st.form("xp_form", border=True):
        st.markdown(tr("whatif.heads_off"))
        kinds = [kind for kind, layers in counts.items() if layers]
        columns = st.columns(len(kinds))
        for column, kind in zip(columns, kinds, strict=True):
            with column:
                kind_title = tr("kind." + names.AttentionKind.parse(kind))
                st.markdown(f"**{kind_title}**")
                # One row a layer, fixed-width cells that never wrap: the grid keeps its shape on a phone.
                with st.container(horizontal=True, wrap=False, gap="small"):
                    for label in ["", *(f"H{head}" for head in range(n_heads))]:
                        st.caption(label or " ", width=GRID_CELL_PX)
                for layer in range(counts[kind]):
                    with st.container(horizontal=True, wrap=False, gap="small", vertical_alignment="center"):
                        st.caption(f"L{layer}", width=GRID_CELL_PX)
                        for head in range(n_heads):
                            # the label names the head for screen readers; the grid's header and row say it on screen
                            st.checkbox(tr("whatif.head_help", kind=kind_title, layer=layer, head=head),
                                        key=head_key(kind, layer, head), label_visibility="collapsed",
                                        width=GRID_CELL_PX)
        st.radio(tr("whatif.method"), METHODS, key="xp_method", horizontal=True,
                 format_func=labels_for("whatif.method_{}"), help=tr("whatif.method_help"))
        left, middle, right = st.columns(3)
        pe_options = PE_SIDES if cfg.has_decoder else ("", "src")
        left.radio(tr("whatif.pe"), pe_options, key="xp_pe", horizontal=True,
                   format_func=labels_for("whatif.pe_{}", lambda p: p or "keep"), help=tr("whatif.pe_help"))
        if cfg.has_decoder:
            middle.toggle(tr("whatif.nocausal"), key="xp_nocausal", help=tr("whatif.nocausal_help"))
        right.toggle(tr("whatif.shuffle"), key="xp_shuffle_on", help=tr("whatif.shuffle_help"))
        right.number_input(tr("whatif.shuffle_seed"), min_value=0, max_value=10**6, step=1, key="xp_shuffle_seed")
        run_col, clear_col = st.columns([1, 1])
        # Callbacks, not return values: they run before the script, so the URL already holds the new experiment
        # when the page reads it (and a rerun of the frame cannot lose the click).
        run_col.form_submit_button(tr("whatif.run"), type="primary", icon=":material/science:",
                                   on_click=run_clicked, args=(counts, n_heads))
        clear_col.form_submit_button(tr("whatif.clear"), icon=":material/restart_alt:",
                                     on_click=apply_spec, args=(Intervention(), counts, n_heads))


def run_clicked(counts: dict[str, int], n_heads: int) -> None:
    """Callback of Run: the widgets' experiment becomes the URL's."""
    spec = spec_from_widgets(counts, n_heads)
    write_url(spec)
    st.session_state["_xp_seeded_for"] = (settings().model, spec.to_query())


def describe(spec: Intervention) -> str:
    """Plain words for the experiment (unescaped: the caller passes it through tr(), which escapes once)."""
    code, parts = lang(), []
    if spec.off:
        parts.append(t("whatif.desc_off", code, heads=", ".join(str(h) for h in spec.off),
                       method=t(f"whatif.method_{spec.method}", code)))
    if spec.pe:
        parts.append(t("whatif.desc_pe", code, side=t(f"whatif.pe_{spec.pe}", code)))
    if not spec.causal:
        parts.append(t("whatif.desc_causal", code))
    if spec.shuffle is not None:
        parts.append(t("whatif.desc_shuffle", code, seed=spec.shuffle))
    return " · ".join(parts)


def output_section(view, result) -> None:
    """Original and patched output side by side, changed tokens highlighted."""
    original, patched = view.traced, result.patched
    before_tokens, after_tokens = original.tgt_tokens[1:], patched.tgt_tokens[1:]  # without BOS
    before_flags, after_flags = xfig.changed_flags(before_tokens, after_tokens)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{tr('whatif.original')}**")
        st.markdown(xfig.highlight_markdown(before_tokens, before_flags, "blue"))
        st.text(original.output_text or "∅")
    with right:
        st.markdown(f"**{tr('whatif.patched')}**")
        st.markdown(xfig.highlight_markdown(after_tokens, after_flags))
        st.text(patched.output_text or "∅")
    if before_tokens == after_tokens:
        st.success(tr("whatif.same_output"))
    else:
        st.warning(tr("whatif.changed_output", n=max(sum(after_flags), sum(before_flags))))


def probability_section(view, result) -> None:
    """Per generated step: probability of the ORIGINAL token, original model vs patched model (teacher-forced)."""
    code = lang()
    original = view.traced
    logits_before = original.trace.numpy(LOGITS)  # [T, V]
    ids = logits_before.argmax(-1)  # the original output's tokens (+ EOS), one per step
    before = xfig.token_probabilities(logits_before, ids)
    after = xfig.token_probabilities(result.forced.numpy(LOGITS), ids)
    tokens = original.predicted_tokens
    chart(xfig.probability_figure(tokens, before, after, title=t("whatif.prob_title", code), lang=code),
          "whatif_probabilities")
    st.caption(tr("whatif.prob_caption"))
    columns = {k: tr(f"whatif.col_{k}") for k in ("step", "token", "before", "after", "patched")}
    st.dataframe(xfig.probability_table(tokens, before, after, result.patched.predicted_tokens, columns),
                 hide_index=True, key="xp_prob_table")


@st.fragment
def attention_section(view, result, spec: Intervention, counts: dict[str, int]) -> None:
    """One head's attention before and after (kind, layer, head pickers)."""
    code = lang()
    n_heads = view.loaded.config.n_heads
    kinds = [kind for kind, layers in counts.items() if layers]
    first = spec.off[0] if spec.off else Head(kinds[0], 0, 0)
    first_kind = first.kind.short  # the controls speak the short form: enc | dec | cross
    a, b, c, d = st.columns([3, 1, 1, 2])  # the kind control holds three long labels
    kind = a.segmented_control(tr("whatif.attn_kind"), kinds, default=first_kind, key="xp_attn_kind", required=True,
                               format_func=labels_for("kind.{}", names.AttentionKind.parse)) or first_kind
    layer = b.selectbox(tr("label.layer"), range(counts[kind]), index=min(first.layer, counts[kind] - 1),
                        key=f"xp_attn_layer_{kind}", format_func=lambda i: f"L{i}")
    head = c.selectbox(tr("label.head"), range(n_heads), index=first.head, key="xp_attn_head",
                       format_func=lambda i: f"H{i}")
    after_on = "own"  # encoder-only: the patched run is the only one
    if result.forced is not None:
        after_on = d.radio(tr("whatif.after_on"), ("forced", "own"), key="xp_after_on", horizontal=True,
                           format_func=labels_for("whatif.after_{}")) or "forced"
    ref = names.Head(kind, int(layer), int(head))
    original = view.traced
    rows_b, cols_b = tokens_for(ref.kind, original.src_tokens, original.tgt_tokens)
    before = head_matrix(original.trace, ref)
    patched = result.patched
    if after_on == "forced":
        after_trace, after_tgt = result.forced, original.tgt_tokens
    else:
        after_trace, after_tgt = patched.trace, patched.tgt_tokens
    rows_a, cols_a = tokens_for(ref.kind, patched.src_tokens, after_tgt)
    after = head_matrix(after_trace, ref)
    title = t("whatif.attn_title", code, head=str(Head(kind, int(layer), int(head))))
    if Head(kind, int(layer), int(head)) in set(spec.off):
        st.caption(tr("whatif.attn_is_off", method=tr(f"whatif.method_{spec.method}")))
    if before.shape == after.shape and list(rows_a) == list(rows_b) and list(cols_a) == list(cols_b):
        chart(figures.compare_heads([before, after], [t("whatif.before", code), t("whatif.after", code)], rows_b,
                                    cols_b, title=title, lang=code,
                                    difference_title=t("whatif.difference", code)), "whatif_attention")
    else:
        st.caption(tr("whatif.attn_shapes_differ"))
        left, right = st.columns(2)
        with left:
            chart(figures.attention_heatmap(before, rows_b, cols_b, title=t("whatif.before", code), lang=code),
                  "whatif_attention_before", key="xp_attn_before")
        with right:
            chart(figures.attention_heatmap(after, rows_a, cols_a, title=t("whatif.after", code), lang=code),
                  "whatif_attention_after", key="xp_attn_after")


def encoder_only_section(view, result) -> None:
    """Encoder-only: no output text; how far each token's final state moved."""
    code = lang()
    st.info(tr("whatif.encoder_only", name=view.loaded.name))
    if view.traced.src_tokens != result.patched.src_tokens:
        st.caption(tr("whatif.encoder_shuffled"))
        return
    change = xfig.output_change(view.trace.numpy(ENCODER_OUT), result.patched.trace.numpy(ENCODER_OUT))
    chart(xfig.change_figure(view.traced.src_tokens, change, title=t("whatif.change_title", code), lang=code),
          "whatif_encoder_change")


def importance_section(view, counts: dict[str, int]) -> None:
    """The ranked head-importance table of the model (head_importance.json) and a button for the top head."""
    st.subheader(tr("whatif.importance"))
    result = get_importance(view.loaded.directory)
    if result is None:
        st.caption(tr("whatif.importance_missing", name=view.loaded.name))
        return
    if result.get("stale"):
        st.warning(tr("whatif.importance_stale"))
    base = result["baseline"]
    st.caption(tr("whatif.importance_caption", n=result["n"], method=tr(f"whatif.method_{result['method']}"),
                  exact=f"{100 * base['exact_match']:.1f}", align=f"{100 * base['alignment_accuracy']:.1f}",
                  layer=result["alignment_layer"]))
    columns = {k: tr(f"whatif.col_{k}") for k in ("rank", "id", "exact", "exact_drop", "align", "align_drop")}
    st.dataframe(xfig.importance_table(ranked_importance(result), columns), hide_index=True, key="xp_importance",
                 height=320)
    top = result["ranking"][0] if result["ranking"] else None
    if top:
        top_head = Head.parse(top)
        spec = Intervention(off=(top_head,))
        st.button(tr("whatif.try_top", head=top), key="xp_try_top", icon=":material/power_settings_new:",
                  on_click=apply_spec, args=(spec, counts, view.loaded.config.n_heads))


def explanations() -> None:
    with st.expander(tr("whatif.explain_title")):
        st.markdown(tr("whatif.explain_heads"))
        st.markdown(tr("whatif.explain_pe"))
        st.markdown(tr("whatif.explain_causal"))
        st.markdown(tr("whatif.explain_shuffle"))


# ------------------------------------------------------------------------------------------------

def experiments_page(view) -> None:
    cfg = view.loaded.config
    counts = layer_counts(cfg)  # short kind (enc | dec | cross) -> layers
    spec, problem = spec_from_url(cfg.n_heads)
    if problem:
        st.warning(tr("whatif.bad_url", reason=problem))
    try:
        spec.check(cfg)
    except ValueError as exc:
        st.warning(tr("whatif.bad_url", reason=str(exc)))
        spec = Intervention()
    if not cfg.has_decoder:
        st.info(tr("whatif.encoder_only_controls"))
    controls(view, spec, counts)
    explanations()
    if spec.is_empty:
        st.info(tr("whatif.nothing"))
        if cfg.has_decoder:
            st.markdown(f"**{tr('whatif.original')}**")
            st.text(view.traced.output_text or "∅")
    else:
        st.markdown(tr("whatif.running", what=describe(spec)))
        try:
            with st.spinner(tr("whatif.computing")):
                result, _ = get_experiment(view.settings.model, view.settings.text, view.settings.device, spec)
        except ValueError as exc:
            st.error(tr("whatif.failed", reason=str(exc)))
            result = None
        if result is not None:
            if spec.shuffle is not None:
                st.markdown(tr("whatif.shuffled_input"))
                st.text(result.source_text)
            if cfg.has_decoder:
                output_section(view, result)
                if not spec.causal:
                    st.info(tr("whatif.causal_note"))
                st.subheader(tr("whatif.prob_heading"))
                probability_section(view, result)
            else:
                encoder_only_section(view, result)
            st.subheader(tr("whatif.attn_heading"))
            attention_section(view, result, spec, counts)
    if cfg.has_decoder:
        importance_section(view, counts)


page_header("whatif.title", "whatif.intro")
current = current_view()
if current is not None:
    experiments_page(current)
