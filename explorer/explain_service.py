"""Cached explanations for the /explain page (glue only; the math is transformer_core.analysis.attribution).

One explanation per (model, sentence, device, steps, positions) for every session; patching grids per sentence
pair; the best aligning cross-attention head per model; held-out ko-en sentences with their gold alignment.
A page service like the others (explorer/*_service.py); the models and the shared trace cache are in
explorer/services.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import streamlit as st
import torch

from explorer.services import get_model, get_trace, model_task
from transformer_core.analysis.attribution import (
    Explanation,
    PatchingGrid,
    check_same_length,
    explain_trace,
    output_targets,
    patched_output,
    patching_grid,
)
from transformer_core.inference.text import encode_text
from transformer_core.tasks import KO_EN
from transformer_core.tracing.names import SRC_IDS, AttentionKind, attention_name

MAX_PATCHED_TOKENS = 48  # patched decoding recomputes the prefix at every step (no KV cache)
HELDOUT_SENTENCES = 40


@st.cache_resource(max_entries=24, show_spinner=False)
def get_explanation(name: str, text: str, device: str, steps: int, positions: tuple[int, ...] = (),
                    rows: tuple[int, ...] = ()) -> Explanation:
    """Every method on the page's own traced pass (the shared trace cache's); `rows`: only those output tokens."""
    cached = get_trace(name, text, device)
    loaded = get_model(name, cached.device)
    return explain_trace(loaded, cached.traced, steps, positions or None, rows or None)


class TokenCountMismatch(ValueError):
    """Sentences A and B have different token counts (patching swaps position for position)."""

    def __init__(self, count_a: int, count_b: int, tokens_b: list[str]) -> None:
        super().__init__(f"A has {count_a} tokens, B has {count_b}")
        self.count_a, self.count_b, self.tokens_b = count_a, count_b, tokens_b


@dataclass(frozen=True)
class PatchResult:
    grid: PatchingGrid
    b_tokens: list[str]


@st.cache_resource(max_entries=24, show_spinner=False)
def get_patching(name: str, text_a: str, text_b: str, device: str, site: str) -> PatchResult:
    """The layer x position grid of B patched from A (teacher-forced on A's output). TokenCountMismatch for a B
    with a different token count; ValueError for one that cannot be encoded."""
    cached = get_trace(name, text_a, device)
    loaded = get_model(name, cached.device)
    ids_b, _ = encode_text(loaded, text_b)
    src_a = cached.traced.trace[SRC_IDS].to(loaded.device)
    src_b = torch.tensor([ids_b], device=loaded.device)
    if src_a.shape != src_b.shape:
        raise TokenCountMismatch(src_a.shape[-1], src_b.shape[-1], loaded.tokenizer.convert_ids_to_tokens(ids_b))
    check_same_length(src_a, src_b)
    tgt, targets = output_targets(cached.traced, loaded.config.eos_token_id)
    grid = patching_grid(loaded.model, src_a, src_b, tgt.to(loaded.device), targets, site)
    return PatchResult(grid, loaded.tokenizer.convert_ids_to_tokens(ids_b))


@st.cache_resource(max_entries=64, show_spinner=False)
def get_patched_output(name: str, text_a: str, text_b: str, device: str, site: str, layer: int,
                       position: int) -> tuple[str, str]:
    """(B's own greedy output, B's output with A's `{site}.{layer}.out` at `position`) as text."""
    cached = get_trace(name, text_a, device)
    loaded = get_model(name, cached.device)
    plain = get_trace(name, text_b, device).traced.output_text
    src_a = cached.traced.trace[SRC_IDS].to(loaded.device)
    src_b = torch.tensor([encode_text(loaded, text_b)[0]], device=loaded.device)
    tgt, _ = output_targets(cached.traced, loaded.config.eos_token_id)
    ids = patched_output(loaded.model, src_a, src_b, tgt.to(loaded.device), site, layer, [position],
                         max_new_tokens=MAX_PATCHED_TOKENS)
    return plain, loaded.tokenizer.decode(ids, skip_special_tokens=True)


@st.cache_resource(max_entries=8, show_spinner=False)
def best_head(name: str, device: str) -> tuple[int, int] | None:
    """(layer, head) of the cross-attention head that best points at the gold source word on 100 held-out
    sentences of the model's task (seed 1, evaluate.score); None when the task has no gold alignment."""
    from transformer_core.analysis.evaluate import score

    loaded = get_model(name, device)
    task = model_task(loaded)
    if task is None or not task.explain_sample:
        return None
    examples = task.held_out(loaded.tokenizer, task.explain_sample, seed=1)
    with torch.no_grad():
        picked = score(loaded.model, examples, batch_size=32)["best_head"]
    return int(picked["layer"]), int(picked["head"])


@st.cache_resource(show_spinner=False)
def heldout_pairs() -> dict[str, object]:
    """Held-out ko-en grammar sentences (text -> SentencePair with its gold alignment), a fixed sample."""
    return {pair.source_text: pair for pair in KO_EN.held_out_pairs(HELDOUT_SENTENCES, seed=7, max_words=12)}


def gold_rows(text: str, src_tokens: list[str], output_tokens: list[str]) -> list[tuple[int, ...] | None] | None:
    """Per output row, the gold source positions — for a held-out grammar sentence whose tokens are the pair's,
    on the rows where the output still equals the reference; None when the sentence is not one of them."""
    pair = heldout_pairs().get(text.strip())
    if pair is None or list(src_tokens[:-1]) != list(pair.source):
        return None
    rows: list[tuple[int, ...] | None] = []
    for t in range(len(output_tokens)):
        same_prefix = t < len(pair.target) and list(output_tokens[:t + 1]) == list(pair.target[:t + 1])
        rows.append(tuple(pair.alignment[t]) if same_prefix and pair.alignment[t] else None)
    return rows


# ------------------------------------------------------------------------------------------------
# What the page draws, as numpy (the page never indexes a tensor)

@dataclass(frozen=True)
class MethodRow:
    """One explanation method's weights over the source tokens for one output row; `key` and `params` are its
    UI label (the page translates them)."""

    key: str
    weights: np.ndarray
    params: dict = field(default_factory=dict)


def method_rows(explanation: Explanation, row: int, head: tuple[int, int] | None, trace) -> list[MethodRow]:
    """Every method's weights for output `row`: attention (the decoder's last cross-attention, head mean; the best
    aligning head or else the most focused one), integrated gradients, gradient x input and rollout."""
    rows: list[MethodRow] = []
    if explanation.architecture == "transformer":
        last = trace.n_layers("decoder") - 1
        rows.append(MethodRow("explain.m_attention", explanation.cross_attention_mean[row].numpy(), {"layer": last}))
        if head is not None:
            weights = trace.numpy(attention_name(AttentionKind.CROSS, head[0]))[head[1], row]
            rows.append(MethodRow("explain.m_best_head", weights, {"layer": head[0], "head": head[1]}))
        else:
            per_head = explanation.cross_attention[:, row].numpy()
            focused = int(per_head.max(-1).argmax())
            rows.append(MethodRow("explain.m_focused_head", per_head[focused], {"layer": last, "head": focused}))
    elif explanation.architecture == "rnn":
        rows.append(MethodRow("explain.m_rnn_alignment", explanation.cross_attention[0, row].numpy()))
    else:  # encoder-only: its last layer's self-attention row of the explained token
        p = explanation.positions[row]
        last = trace.n_layers("encoder") - 1
        weights = trace.numpy(attention_name(AttentionKind.ENCODER_SELF, last))[:, p].mean(0)
        rows.append(MethodRow("explain.m_self_attention", weights, {"layer": last}))
    ig, gxi = explanation.attribution_row(row)
    rows += [MethodRow("explain.m_ig", ig.numpy()), MethodRow("explain.m_gxi", gxi.numpy())]
    if explanation.architecture == "transformer":
        rows.append(MethodRow("explain.m_rollout_cross", explanation.rollout_cross_attention[row].numpy()))
    elif explanation.architecture == "encoder-only":
        rows.append(MethodRow("explain.m_rollout", explanation.rollout[explanation.positions[row]].numpy()))
    return rows


def lens_top_tokens(explanation: Explanation, tokenizer) -> tuple[list[list[str]], np.ndarray]:
    """The logit lens' top token per decoder layer and output row: (tokens [layer][row], probabilities [L, rows])."""
    probs, ids = explanation.logit_lens.top(1)
    rows = len(explanation.row_tokens)
    tokens = [tokenizer.convert_ids_to_tokens(layer[:rows, 0].tolist()) for layer in ids]
    return tokens, probs[:, :rows, 0].numpy()


@dataclass(frozen=True)
class PatchingRow:
    recovered: np.ndarray  # [layers, positions]: share of the gap to sentence A recovered (NaN: A and B agree)
    p_a: float  # the output token's probability on sentence A
    p_b: float  # and on sentence B


def patching_row(grid: PatchingGrid, row: int) -> PatchingRow:
    """The patching grid for output `row` (clamped to the grid's rows)."""
    row = min(row, grid.log_probs.shape[-1] - 1)
    return PatchingRow(grid.recovered(row).numpy(), float(grid.log_probs_a[row].exp()),
                       float(grid.log_probs_b[row].exp()))


def patching_probs(grid: PatchingGrid) -> tuple[np.ndarray, np.ndarray]:
    """p(output token) per row under sentence A and under sentence B (numpy, for the token picker)."""
    return grid.log_probs_a.exp().numpy(), grid.log_probs_b.exp().numpy()


def rollout_matrix(explanation: Explanation) -> np.ndarray:
    """The encoder's attention rollout [S, S] (encoder-only models)."""
    return explanation.rollout.numpy()
