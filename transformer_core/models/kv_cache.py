"""The decoder's key/value cache for incremental decoding, and the Transformer's decoding state.

At step t the decoder feeds only the newest token. Its self-attention needs the keys and values of
every earlier position: they do not change (causal attention: position j never sees later tokens), so
each layer keeps them and appends one row per step. Cross-attention's keys and values come from the
encoder output (memory), which does not change at all: they are computed once, at the first step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch


@dataclass
class AttentionKV:
    """One attention's cached K and V, [B, H, L, d_k] each. `static`: computed once (cross-attention)."""

    static: bool
    k: torch.Tensor | None = None
    v: torch.Tensor | None = None

    @property
    def filled(self) -> bool:
        return self.k is not None

    def update(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Self-attention: append the new rows, return all of them; cross-attention: store once."""
        if self.static or self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat([self.k, k], dim=2)  # [B,H,L,d_k] + [B,H,n,d_k] -> [B,H,L+n,d_k]
            self.v = torch.cat([self.v, v], dim=2)
        return self.k, self.v

    def reorder(self, index: torch.Tensor) -> None:
        """Keep batch rows `index` (beam search: each surviving hypothesis takes its parent's cache)."""
        if self.k is not None:
            self.k, self.v = self.k.index_select(0, index), self.v.index_select(0, index)


@dataclass
class LayerKV:
    """A decoder layer's two caches."""

    self_attn: AttentionKV = field(default_factory=lambda: AttentionKV(static=False))
    cross_attn: AttentionKV = field(default_factory=lambda: AttentionKV(static=True))


@dataclass
class DecoderCache:
    """Per-layer caches plus the key mask of every cached position ([B, L] bool, True = real token)."""

    layers: list[LayerKV]
    key_mask: torch.Tensor | None = None

    @classmethod
    def empty(cls, n_layers: int) -> DecoderCache:
        return cls([LayerKV() for _ in range(n_layers)])

    @property
    def length(self) -> int:
        """How many target positions are cached (the position index of the next token)."""
        return 0 if self.key_mask is None else self.key_mask.shape[1]

    def extend_mask(self, new_mask: torch.Tensor) -> torch.Tensor:
        """Append the new positions' [B, n] mask; returns the [B, L+n] mask over all keys."""
        self.key_mask = new_mask if self.key_mask is None else torch.cat([self.key_mask, new_mask], dim=1)
        return self.key_mask

    def reorder(self, index: torch.Tensor) -> None:
        """Keep batch rows `index` in every layer (beam search)."""
        for layer in self.layers:
            layer.self_attn.reorder(index)
            layer.cross_attn.reorder(index)
        if self.key_mask is not None:
            self.key_mask = self.key_mask.index_select(0, index)


class CachedDecoding:
    """The Transformer's `DecodingState` (inference/generation.py): next-token logits [B,V] for a growing
    prefix, cached (one new token a step) or recomputed over the whole prefix.

    `model` is a models/transformer.py Transformer (duck-typed: `decode`, `lm_head`, `new_cache`).
    """

    def __init__(self, model, memory: torch.Tensor, src_mask: torch.Tensor, use_cache: bool,
                 project_all: bool) -> None:
        self.model, self.memory, self.src_mask = model, memory, src_mask
        self.cache: DecoderCache | None = model.new_cache() if use_cache else None
        self.project_all = project_all

    @property
    def device(self) -> torch.device:
        return self.memory.device

    def __call__(self, prefix: torch.Tensor) -> torch.Tensor:
        """prefix [B,t] (the whole prefix; the cached path feeds only the positions not yet cached)."""
        model = self.model
        if self.cache is not None:
            new = prefix[:, self.cache.length:]  # [B,t] -> [B,n new] (n = 1 after the first step)
            states = model.decode(new, self.memory, self.src_mask, project=False, cache=self.cache)
            return model.lm_head(states[:, -1])  # [B,D] -> [B,V]
        if self.project_all:  # `logits` is patched: that hook sees every position, as in a full pass
            return model.decode(prefix, self.memory, self.src_mask)[:, -1]  # [B,t,V] -> [B,V]
        states = model.decode(prefix, self.memory, self.src_mask, project=False)  # [B,t,D]
        return model.lm_head(states[:, -1])  # [B,D] -> [B,V]

    def reorder(self, index: torch.Tensor) -> None:
        """Beam search: row r continues row index[r]'s prefix."""
        self.memory = self.memory.index_select(0, index)
        self.src_mask = self.src_mask.index_select(0, index)
        if self.cache is not None:
            self.cache.reorder(index)
