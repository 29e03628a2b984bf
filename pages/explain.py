"""Why this output? (/explain): for one output token, what attention looks at next to what the output depends
on — integrated gradients, gradient × input, attention rollout — on the same recorded pass; the decoder's logit
lens; and two-sentence activation patching. Widgets and layout only: the numbers come from
explorer/explain_service.py (transformer_core.analysis.attribution)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.explain_service import (
    TokenCountMismatch,
    best_head,
    get_explanation,
    get_patched_output,
    get_patching,
    gold_rows,
    heldout_pairs,
    lens_top_tokens,
    method_rows,
    patching_probs,
    patching_row,
    rollout_matrix,
)
from explorer.figures import explain as fig
from explorer.figures.figures import attention_heatmap
from explorer.frame import ensure_frame
from explorer.i18n import md_escape, t
from explorer.services import current_view, parameter_count, translates_ko_en
from explorer.state import UrlState, choice, flag, integer, lang, text, tr
from explorer.widgets import chart, page_header
from transformer_core.tracing.names import RNN_ATTENTION_WEIGHTS

ensure_frame()

STEP_CHOICES = (8, 16, 32, 64, 128)
# Above this many parameters x output tokens, only the picked output token is attributed (one backward pass
# per token: paper-base's 61-token random output took 40 s at 8 steps for all of them).
ALL_ROWS_BUDGET = 300_000_000
DEFAULT_STEPS = 32
RNN_MODEL = "ko-en-rnn-attention"  # the 2015 model is not in the sidebar's list (pages/history.py uses it too)
REVEALED = "_explain_revealed"
# The page's URL: the widgets start from it once per session and are written back on every run
URL = UrlState("explain", integer("tok", 0, low=0, state_key="explain_tok"),
               choice("steps", STEP_CHOICES, DEFAULT_STEPS, parse=int, state_key="explain_steps"),
               text("b", "", max_chars=500, state_key="explain_b"),
               choice("site", ("encoder", "decoder"), "encoder", state_key="explain_site"),
               flag("rnn", state_key="explain_rnn"))


def _pick_heldout() -> None:
    picked = st.session_state.get("explain_heldout")
    if picked:
        st.session_state["text"] = picked
        st.session_state["_example_text"] = (picked, 0)  # the sidebar's example mechanism (explorer/widgets.py)
    st.session_state["explain_heldout"] = None


def row_picker(tokens: list[str], label: str) -> int:
    if st.session_state.get("explain_tok", 0) >= len(tokens):
        st.session_state["explain_tok"] = 0
    return int(st.selectbox(label, list(range(len(tokens))), key="explain_tok",
                            format_func=lambda i: f"{i}: {tokens[i]}"))


def guess_block(row: int, token: str, src_tokens: list[str], answer: int, sig: str) -> bool:
    """Predict-then-reveal: which source token will integrated gradients pick? Returns whether revealed."""
    revealed = st.session_state.setdefault(REVEALED, set())
    marker = f"{sig}:{row}"
    with st.container(border=True, key="explain_question"):
        st.markdown(f"**{tr('lesson.predict')}:** {tr('explain.question', token=token)}")
        choice = st.pills(tr("lesson.your_guess"), list(range(len(src_tokens))), key=f"explain_guess_{marker}",
                          format_func=lambda j: md_escape(src_tokens[j]), label_visibility="collapsed",
                          disabled=marker in revealed)
        if marker not in revealed:
            st.button(tr("lesson.reveal"), key="explain_reveal", type="primary", icon=":material/visibility:",
                      on_click=revealed.add, args=(marker,))
            st.caption(tr("explain.hidden"))
            return False
        name = src_tokens[answer]
        if choice is None:
            st.info(tr("lesson.no_guess", answer=name))
        elif choice == answer:
            st.success(tr("lesson.right"), icon=":material/check_circle:")
        else:
            st.error(tr("lesson.wrong", answer=name), icon=":material/cancel:")
    return True


def completeness_note(explanation, row: int, steps: int) -> None:
    index = row if explanation.attributed_rows is None else explanation.attributed_rows.index(row)
    check = explanation.attribution.completeness()[index]
    gap = abs(check["sum"] - check["delta"]) / max(abs(check["delta"]), 1e-9)
    st.caption(tr("explain.completeness", total=f"{check['sum']:.3f}", delta=f"{check['delta']:.3f}",
                  gap=f"{100 * gap:.1f}", steps=steps) + " " + tr("screen.plain_completeness"))


def methods_for_row(explanation, row: int, head: tuple[int, int] | None, trace) -> dict[str, np.ndarray]:
    """The methods' weights for output `row` (explain_service.method_rows), labelled in the UI's language."""
    code = lang()
    return {t(method.key, code, **method.params): method.weights
            for method in method_rows(explanation, row, head, trace)}


def methods_section(view, explanation, row: int, steps: int, gold) -> None:
    code = lang()
    src = explanation.src_tokens
    has_decoder = explanation.architecture != "encoder-only"
    candidates = len(src) - 1 if has_decoder and src and src[-1] == "</s>" else len(src)
    head = best_head(view.loaded.name, str(view.loaded.device)) if explanation.architecture == "transformer" else None
    methods = methods_for_row(explanation, row, head, view.trace)
    reference = next(iter(methods))
    ig_name = t("explain.m_ig", code)
    answer = fig.top_source(methods[ig_name], candidates)
    sig = f"{view.loaded.name}|{view.settings.text}|{steps}"
    token = explanation.row_tokens[row]
    if not guess_block(row, token, src, answer, sig):
        return
    chart(fig.methods_figure(methods, src, title=tr("explain.methods_title", token=token), lang=code),
          "explain_methods")
    st.caption(tr("explain.methods_caption"))
    completeness_note(explanation, row, steps)
    row_gold = None if gold is None else gold[row]
    st.dataframe(fig.agreement_table(methods, src, reference, candidates, row_gold, lang=code), hide_index=True,
                 width="stretch")
    agree, others, _ = fig.agreement_counts(methods, reference, candidates, row_gold)
    st.markdown(tr("explain.agree_row", agree=agree, total=others, token=token))
    if explanation.attributed_rows is not None:  # a big model: only the picked token was attributed
        st.caption(tr("explain.one_row_only"))
        return
    # the same count over every output token of this sentence
    rows = len(explanation.row_tokens)
    ig_agree = sum(fig.top_source(methods_for_row(explanation, r, head, view.trace)[ig_name], candidates)
                   == fig.top_source(methods_for_row(explanation, r, head, view.trace)[reference], candidates)
                   for r in range(rows))
    st.markdown(tr("explain.agree_sentence", agree=ig_agree, total=rows))
    if gold is not None:
        scored = [r for r in range(rows) if gold[r]]
        on_gold = {name: 0 for name in methods}
        for r in scored:
            for name, values in methods_for_row(explanation, r, head, view.trace).items():
                on_gold[name] += fig.top_source(values, candidates) in gold[r]
        st.markdown(tr("explain.gold_sentence", n=len(scored)) + " " +
                    ", ".join(f"{md_escape(name)} {on_gold[name]}/{len(scored)}" for name in methods))
    if head is None and explanation.architecture == "transformer":
        st.caption(tr("explain.no_best_head"))


def gold_section(view) -> list | None:
    """The gold source word per output row for held-out ko-en sentences, with a picker of such sentences."""
    if not translates_ko_en(view.loaded) or view.traced.generation is None:
        return None
    explanation_tokens = list(view.traced.chosen_tokens or [])
    gold = gold_rows(view.settings.text, view.traced.src_tokens, explanation_tokens)
    if gold is None:
        st.caption(tr("explain.gold_unknown"))
    st.selectbox(tr("explain.heldout_pick"), list(heldout_pairs()), index=None, key="explain_heldout",
                 on_change=_pick_heldout, placeholder=tr("explain.heldout_placeholder"))
    st.caption(tr("msg.grammar_english"))
    return gold


def lens_section(explanation, view) -> None:
    code = lang()
    st.subheader(tr("explain.lens"))
    if explanation.logit_lens is None:
        st.info(tr("explain.lens_unavailable"))
        return
    tokens, probs = lens_top_tokens(explanation, view.loaded.tokenizer)
    inputs = view.traced.tgt_tokens[:len(explanation.row_tokens)]
    st.caption(tr("explain.lens_caption", norm=tr("explain.lens_norm" if view.loaded.config.final_norm
                                                  else "explain.lens_no_norm")))
    st.dataframe(fig.logit_lens_table(tokens, probs, inputs, lang=code), width="stretch")


def patching_section(view, explanation) -> None:
    code = lang()
    st.subheader(tr("explain.patching"))
    if explanation.architecture != "transformer":
        st.info(tr("explain.patching_unavailable"))
        return
    st.caption(tr("explain.patching_caption"))
    text_b = st.text_input(tr("explain.second_sentence"), key="explain_b", max_chars=500,
                           placeholder=tr("explain.second_placeholder"))
    if not text_b.strip():
        st.info(tr("explain.second_hint"))
        return
    st.session_state.setdefault("explain_site", "encoder")
    site = st.segmented_control(tr("explain.site"), ["encoder", "decoder"], key="explain_site", required=True,
                                format_func=lambda s: t(f"explain.site_{s}", code)) or "encoder"
    try:
        with st.spinner(tr("explain.patching_running")):
            result = get_patching(view.loaded.name, view.settings.text, text_b, view.settings.device, site)
    except TokenCountMismatch as exc:
        st.error(tr("screen.patch_count", a=exc.count_a, b=exc.count_b))
        st.caption(tr("screen.patch_count_tokens"))
        st.code(" ".join(exc.tokens_b), language=None, wrap_lines=True)
        return
    except ValueError as exc:
        st.error(tr("explain.patching_error", reason=str(exc)))
        return
    grid = result.grid
    probs_a, probs_b = patching_probs(grid)
    tokens = explanation.row_tokens[:len(probs_a)]
    signature = (view.loaded.name, view.settings.text, text_b, site)
    if st.session_state.get("_explain_patch_for") != signature:  # new sentences: the most changed token
        st.session_state["_explain_patch_for"] = signature
        st.session_state["explain_patch_tok"] = fig.most_changed_row(probs_a, probs_b)
    row = int(st.selectbox(tr("screen.patch_pick"), list(range(len(tokens))), key="explain_patch_tok",
                           help=tr("screen.patch_pick_help"),
                           format_func=lambda i: f"{i}: {tokens[i]} (A {probs_a[i]:.2f} · B {probs_b[i]:.2f})"))
    token = tokens[row]
    patched = patching_row(grid, row)
    recovered = patched.recovered
    positions = explanation.src_tokens if site == "encoder" else view.traced.tgt_tokens
    layers = [f"L{i}" for i in range(recovered.shape[0])]
    p_a, p_b = patched.p_a, patched.p_b
    st.markdown(tr("explain.patching_probs", token=token, p_a=f"{p_a:.3f}", p_b=f"{p_b:.3f}"))
    if np.isnan(recovered).all():  # A and B agree on this token: no share to draw (the grid would be empty)
        st.info(tr("explain.patching_same"))
        return
    if not fig.measurable(p_a, p_b):
        st.warning(tr("screen.patch_too_small", token=token, gap=f"{abs(p_a - p_b):.3f}",
                      minimum=f"{fig.MEASURABLE_GAP:.2f}"), icon=":material/warning:")
        return
    chart(fig.patching_figure(recovered, layers, positions, title=tr("explain.patching_title", token=token),
                              lang=code), "explain_patching")
    finite = recovered[~np.isnan(recovered)]
    if finite.size and (finite.min() < -0.05 or finite.max() > 1.05):
        st.caption(tr("screen.patch_overshoot"))
    left, right = st.columns(2)
    layer = left.selectbox(tr("label.layer"), list(range(len(layers))), key="explain_cell_layer",
                           index=len(layers) - 1, format_func=lambda i: f"L{i}")
    position = right.selectbox(tr("explain.axis_position"), list(range(len(positions))), key="explain_cell_pos",
                               format_func=lambda i: f"{i}: {positions[i]}")
    try:
        plain, patched = get_patched_output(view.loaded.name, view.settings.text, text_b, view.settings.device,
                                            site, int(layer), int(position))
    except ValueError as exc:
        st.error(tr("explain.patching_error", reason=str(exc)))
        return
    st.caption(tr("explain.output_a"))
    st.code(view.traced.output_text or "∅", language=None, wrap_lines=True)
    st.caption(tr("explain.output_b"))
    st.code(plain or "∅", language=None, wrap_lines=True)
    st.caption(tr("explain.output_patched", layer=int(layer), position=int(position)))
    st.code(patched or "∅", language=None, wrap_lines=True)


def rollout_section(explanation) -> None:
    if explanation.rollout is None:
        return
    code = lang()
    with st.expander(tr("explain.rollout_matrix")):
        st.caption(tr("explain.rollout_caption"))
        st.caption(tr("screen.plain_rollout"))
        src = explanation.src_tokens
        chart(attention_heatmap(rollout_matrix(explanation), src, src, title=tr("explain.rollout_title"), lang=code),
              "explain_rollout")


page_header("explain.title", "explain.intro")
URL.seed()
use_rnn = st.toggle(tr("explain.use_rnn"), key="explain_rnn", help=tr("explain.use_rnn_help"))
view = current_view(model=RNN_MODEL if use_rnn else None, show_notices=not use_rnn)
if view is not None:
    st.session_state.setdefault("explain_steps", DEFAULT_STEPS)  # seeded from the URL, else the default
    steps = int(st.segmented_control(tr("explain.steps"), list(STEP_CHOICES), key="explain_steps", required=True,
                                     help=tr("explain.steps_help")) or DEFAULT_STEPS)
    architecture = "rnn" if RNN_ATTENTION_WEIGHTS in view.trace else \
        ("transformer" if view.traced.has_decoder else "encoder-only")
    if architecture == "encoder-only":
        st.info(tr("explain.encoder_only", name=view.loaded.name))
        rows_tokens = view.traced.src_tokens
        row = row_picker(rows_tokens, tr("explain.pick_input"))
        positions: tuple[int, ...] = (row,)
    elif architecture == "rnn":
        st.info(tr("explain.rnn", name=view.loaded.name))
        positions = ()
    else:
        positions = ()
    n_out = len(view.traced.chosen_tokens or [])
    n_params = parameter_count(view.loaded)
    one_row = architecture != "encoder-only" and n_params * n_out > ALL_ROWS_BUDGET
    if one_row and n_out:
        picked = row_picker(list(view.traced.chosen_tokens), tr("explain.pick_output"))
    if architecture != "encoder-only" and not (view.traced.chosen_tokens or []):
        st.info(tr("explain.empty_output"))
    else:
        try:
            with st.spinner(tr("explain.running", steps=steps)):
                explanation = get_explanation(view.loaded.name, view.settings.text, view.settings.device, steps,
                                              positions, (picked,) if one_row else ())
        except ValueError as exc:
            st.error(tr("explain.failed", reason=str(exc)))
            explanation = None
        if explanation is not None:
            if architecture == "encoder-only":
                row = 0  # the explanation holds the one chosen position
                gold = None
            else:
                gold = gold_section(view)
                row = picked if one_row else row_picker(explanation.row_tokens, tr("explain.pick_output"))
            st.caption(tr("explain.baseline"))
            st.caption(tr("screen.plain_explain"))
            methods_section(view, explanation, row, steps, gold)
            rollout_section(explanation)
            if architecture != "encoder-only":
                lens_section(explanation, view)
                patching_section(view, explanation)
            else:
                st.info(tr("explain.encoder_only_missing"))
URL.write()
