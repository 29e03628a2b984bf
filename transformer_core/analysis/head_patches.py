"""Patches that act on attention heads and on the stream around them, built on the core patching API
(`patches=`, see tracing/hooks.py): each returns a `patches` dict (trace name -> tensor -> tensor) for
`Transformer.forward/trace`, `generate` and `trace_text`; dicts compose with `merge_patches`.

    switch a head off      zero_heads / mean_ablate_heads / uniform_heads   at '<attention>.context'
                           or '<attention>.masked_scores'
    many experiments       switch_off_rows: a different set of heads off in each batch row, one pass
    remove positions       remove_positional_encoding('src' | 'tgt' | 'both')   at 'src.pos' / 'tgt.pos'
    remove the causal mask remove_causal_mask()                               at 'tgt.causal_mask'

Heads are `tracing.names.Head` (URL form `<kind>.<layer>.<head>`, kind `enc`, `dec` or `cross`).
Every trace name here comes from tracing/names.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import torch

from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import generate
from transformer_core.models.config import TransformerConfig
from transformer_core.tracing.hooks import Patch
from transformer_core.tracing.names import (
    ATTENTION_KINDS,
    CAUSAL_MASK,
    SRC_POS,
    TGT_POS,
    AttentionKind,
    Head,
    attention_name,
    side_name,
)

METHODS = ("zero", "mean", "uniform")


# --- heads -------------------------------------------------------------------------------------

def layer_counts(config: TransformerConfig) -> dict[str, int]:
    """Layers per attention kind, keyed by the short (URL) form 'enc' | 'dec' | 'cross' (an encoder-only
    model has 0 'dec'/'cross' layers)."""
    decoder = config.n_decoder_layers if config.has_decoder else 0
    layers = {AttentionKind.ENCODER_SELF: config.n_encoder_layers, AttentionKind.DECODER_SELF: decoder,
              AttentionKind.CROSS: decoder}
    return {kind.short: layers[kind] for kind in ATTENTION_KINDS}


def all_heads(config: TransformerConfig) -> list[Head]:
    """Every head of the model, kind by kind, layer by layer."""
    return [Head(kind, layer, head) for kind, layers in layer_counts(config).items()
            for layer in range(layers) for head in range(config.n_heads)]


def layer_heads(kind: str, layer: int, n_heads: int) -> list[Head]:
    """Every head of one attention layer."""
    return [Head(kind, layer, h) for h in range(n_heads)]


def check_heads(heads: Iterable[Head], config: TransformerConfig) -> None:
    """ValueError naming the first head this model does not have."""
    counts = layer_counts(config)
    for head in heads:
        short = head.kind.short
        if head.layer >= counts[short] or head.head >= config.n_heads:
            if counts[short] == 0:
                raise ValueError(f"head {head}: this model has no {short!r} attention (encoder-only)")
            raise ValueError(f"head {head} does not exist: this model has {counts[short]} {short!r} "
                             f"layers of {config.n_heads} heads")


def _by_attention(heads: Iterable[Head], tensor: str) -> dict[str, list[int]]:
    """Trace name of `tensor` in each attention -> the head indices of `heads` in it."""
    grouped: dict[str, list[int]] = {}
    for head in sorted(set(heads)):
        grouped.setdefault(head.name(tensor), []).append(head.head)
    return grouped


# --- patches -----------------------------------------------------------------------------------

def merge_patches(*dicts: Mapping[str, Patch]) -> dict[str, Patch]:
    """One patches dict from several; two patches at one hook are composed (the earlier one first)."""
    merged: dict[str, Patch] = {}
    for patches in dicts:
        for name, fn in patches.items():
            if name in merged:
                first = merged[name]
                merged[name] = (lambda f, g: lambda x: g(f(x)))(first, fn)
            else:
                merged[name] = fn
    return merged


def _set_heads(heads: list[int], value_of) -> Patch:
    """A patch on a [B,H,T,d] tensor that replaces heads `heads` by value_of(tensor, head)."""
    index = list(heads)

    def patch(x: torch.Tensor) -> torch.Tensor:
        out = x.clone()
        for h in index:
            out[:, h] = value_of(x, h)
        return out

    return patch


def zero_heads(heads: Iterable[Head]) -> dict[str, Patch]:
    """Switch heads off by zeroing their context (their share of W_O's input): head_h(...) = 0."""
    return {name: _set_heads(hs, lambda x, h: 0.0) for name, hs in _by_attention(heads, "context").items()}


def mean_ablate_heads(heads: Iterable[Head], means: Mapping[str, torch.Tensor]) -> dict[str, Patch]:
    """Replace each head's context at every position by its mean over a reference set.

    `means` maps '<attention>.context' to [H, d_k] (see `reference_means`).
    """
    patches = {}
    for name, hs in _by_attention(heads, "context").items():
        if name not in means:
            raise ValueError(f"no reference mean for {name!r}: compute reference_means over this model first")
        mean = means[name]
        patches[name] = _set_heads(hs, lambda x, h, mean=mean: mean[h].to(dtype=x.dtype, device=x.device))
    return patches


def uniform_heads(heads: Iterable[Head]) -> dict[str, Patch]:
    """Make heads attend uniformly over their ALLOWED keys (True in the mask), zero elsewhere.

    Patched at '<attention>.masked_scores': every finite score becomes 0 and blocked ones stay -inf,
    so the softmax gives 1/(number of allowed keys) on each allowed key, and context = mean of V over them.
    """

    def flat(x: torch.Tensor, h: int) -> torch.Tensor:
        return torch.where(torch.isneginf(x[:, h]), x[:, h], torch.zeros_like(x[:, h]))

    return {name: _set_heads(hs, flat) for name, hs in _by_attention(heads, "masked_scores").items()}


def switch_off(heads: Iterable[Head], method: str = "zero",
               means: Mapping[str, torch.Tensor] | None = None) -> dict[str, Patch]:
    """Heads off by `method`: 'zero', 'mean' (needs `means`) or 'uniform'."""
    heads = list(heads)
    if not heads:
        return {}
    if method == "zero":
        return zero_heads(heads)
    if method == "uniform":
        return uniform_heads(heads)
    if method == "mean":
        if means is None:
            raise ValueError("mean ablation needs reference means (reference_means)")
        return mean_ablate_heads(heads, means)
    raise ValueError(f"unknown ablation method {method!r}: expected one of {', '.join(METHODS)}")


def switch_off_rows(heads_by_row: Sequence[Iterable[Head]], n_heads: int, method: str = "zero",
                    means: Mapping[str, torch.Tensor] | None = None) -> dict[str, Patch]:
    """Switch off a DIFFERENT set of heads in each batch row (row r: `heads_by_row[r]`), in one pass.

    Lets many experiments share one batched forward (head importance): row r of the result equals
    `switch_off(heads_by_row[r], method, means)` applied to that row alone. The batch must have
    exactly len(heads_by_row) rows.
    """
    if method not in METHODS:
        raise ValueError(f"unknown ablation method {method!r}: expected one of {', '.join(METHODS)}")
    rows = len(heads_by_row)
    selected: dict[Head, torch.Tensor] = {}  # (kind, layer, 0) -> bool [rows, H], True = this row's head is off
    for r, heads in enumerate(heads_by_row):
        for head in heads:
            if head.head >= n_heads:
                raise ValueError(f"head {head} does not exist: the model has {n_heads} heads")
            layer = Head(head.kind, head.layer, 0)
            selected.setdefault(layer, torch.zeros(rows, n_heads, dtype=torch.bool))[r, head.head] = True

    def rows_of(off: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        if x.shape[0] != rows:
            raise ValueError(f"switch_off_rows was built for {rows} batch rows, the pass has {x.shape[0]}")
        return off.to(x.device)[:, :, None, None]  # [B,H] -> [B,H,1,1]

    patches: dict[str, Patch] = {}
    for layer, off in selected.items():
        name = layer.name("context")
        if method == "zero":
            patches[name] = (lambda o: lambda x: x.masked_fill(rows_of(o, x), 0.0))(off)
        elif method == "mean":
            if means is None or name not in means:
                raise ValueError(f"no reference mean for {name!r}: compute reference_means over this model first")
            mean = means[name]  # [H,d_k]
            patches[name] = (lambda o, m: lambda x: torch.where(
                rows_of(o, x), m.to(dtype=x.dtype, device=x.device)[None, :, None, :], x))(off, mean)
        else:  # uniform: finite scores -> 0, blocked keys stay -inf
            patches[layer.name("masked_scores")] = (lambda o: lambda x: torch.where(
                rows_of(o, x) & ~torch.isneginf(x), torch.zeros_like(x), x))(off)
    return patches


def remove_positional_encoding(side: str = "both") -> dict[str, Patch]:
    """Positional encoding replaced by zeros on the source ('src'), the target ('tgt') or both."""
    if side not in ("src", "tgt", "both"):
        raise ValueError(f"positional encoding side must be src, tgt or both, not {side!r}")
    names = {"src": [SRC_POS], "tgt": [TGT_POS], "both": [SRC_POS, TGT_POS]}[side]
    return {name: torch.zeros_like for name in names}


def remove_causal_mask() -> dict[str, Patch]:
    """Decoder self-attention may look at every target position, the future included (mask all True)."""
    return {CAUSAL_MASK: torch.ones_like}


# --- reference means for mean ablation ---------------------------------------------------------

@torch.no_grad()
def reference_means(model, sources: Sequence[Sequence[int]], max_new_tokens: int = 48) -> dict[str, torch.Tensor]:
    """Mean context [H, d_k] of every attention's heads over a reference set, from ONE recorded pass.

    `sources` are token id lists. An encoder-decoder first greedy-decodes them (unpatched), then the
    recorded pass is teacher-forced over those outputs (BOS + output, without EOS), as trace_text does.
    The mean runs over every real query position (padding left out) of every sentence.
    """
    if not sources:
        raise ValueError("the reference set is empty")
    cfg = model.config
    src = pad_batch(sources, cfg.pad_token_id).to(next(model.parameters()).device)
    tgt = None
    if cfg.has_decoder:
        decoded = generate(model, src, max_new_tokens=max_new_tokens).ids.tolist()
        rows = [row[: row.index(cfg.eos_token_id)] if cfg.eos_token_id in row else row for row in decoded]
        rows = [[t for t in row if t != cfg.pad_token_id] for row in rows]
        tgt = pad_batch(rows, cfg.pad_token_id).to(src.device)
    trace = model.trace(src, tgt)
    means = {}
    for kind in map(AttentionKind, trace.layout.attention_kinds):
        query_mask = trace[side_name(kind.sides[0], "mask")]  # [B,T]
        weights = query_mask[:, None, :, None].float()  # [B,1,T,1]
        for layer in range(trace.n_layers(kind.stack)):
            name = attention_name(kind, layer, "context")
            context = trace[name].float()  # [B,H,T,d_k]
            means[name] = (context * weights).sum(dim=(0, 2)) / weights.sum(dim=(0, 2)).clamp_min(1)  # [H,d_k]
    return means


