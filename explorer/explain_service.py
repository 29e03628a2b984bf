"""Cached explanations for the /explain page (glue only; the math is transformer_core.analysis.attribution).

One explanation per (model, sentence, device, steps, positions) for every session; patching grids per sentence
pair; the best aligning cross-attention head per model; held-out ko-en sentences with their gold alignment.
(To move into explorer/services.py with the rest of the app's services.)
"""

from __future__ import annotations

from dataclasses import dataclass

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
    src_a = cached.traced.trace["src.ids"].to(loaded.device)
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
    src_a = cached.traced.trace["src.ids"].to(loaded.device)
    src_b = torch.tensor([encode_text(loaded, text_b)[0]], device=loaded.device)
    tgt, _ = output_targets(cached.traced, loaded.config.eos_token_id)
    ids = patched_output(loaded.model, src_a, src_b, tgt.to(loaded.device), site, layer, [position],
                         max_new_tokens=MAX_PATCHED_TOKENS)
    return plain, loaded.tokenizer.decode(ids, skip_special_tokens=True)


@st.cache_resource(max_entries=8, show_spinner=False)
def best_head(name: str, device: str) -> tuple[int, int] | None:
    """(layer, head) of the cross-attention head that best points at the gold source word on 100 held-out
    sentences of the model's task (seed 1, evaluate.score); None when the task has no gold alignment."""
    from transformer_core.analysis.evaluate import ko_en_examples, reverse_examples_for_eval, score

    loaded = get_model(name, device)
    task = model_task(loaded)
    if task == "ko-en":
        examples = ko_en_examples(loaded.tokenizer, 100, seed=1)
    elif task == "reverse":
        examples = reverse_examples_for_eval(loaded.tokenizer, 60, seed=1)
    else:
        return None
    with torch.no_grad():
        picked = score(loaded.model, examples, batch_size=32)["best_head"]
    return int(picked["layer"]), int(picked["head"])


@st.cache_resource(show_spinner=False)
def heldout_pairs() -> dict[str, object]:
    """Held-out ko-en grammar sentences (text -> SentencePair with its gold alignment), a fixed sample."""
    from transformer_core.data import KoEnGrammar, is_held_out

    grammar = KoEnGrammar(7)
    pairs: dict[str, object] = {}
    while len(pairs) < HELDOUT_SENTENCES:
        pair = grammar.sample()
        if is_held_out(pair.source_text) and len(pair.source) <= 12:
            pairs.setdefault(pair.source_text, pair)
    return pairs


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
