"""Boolean attention masks. Convention, everywhere in this project: True = may attend.

PyTorch's nn.MultiheadAttention / nn.Transformer use the opposite (True = blocked);
convert only at that boundary with the helpers below.
"""

from __future__ import annotations

import torch


def padding_mask(ids: torch.Tensor, pad_id: int) -> torch.Tensor:
    """[B, S] ids -> [B, S] bool, True where the token is real (not padding)."""
    return ids != pad_id


def causal_mask(size: int, device: torch.device | str | None = None, past: int = 0) -> torch.Tensor:
    """[T, past + T] bool, lower triangle: query t (at position past + t) may attend to keys 0..past + t.

    `past` = 0 gives the square [T, T] mask of a full pass; incremental decoding passes the number of
    cached positions.
    """
    return torch.ones(size, past + size, dtype=torch.bool, device=device).tril(diagonal=past)


def attention_mask(key_mask: torch.Tensor, causal: torch.Tensor | None = None) -> torch.Tensor:
    """Combine a [B, S_k] key mask (and an optional [T, T] causal mask) into [B, 1, T|1, S_k]."""
    mask = key_mask[:, None, None, :]  # [B, S_k] -> [B, 1, 1, S_k], broadcast over heads and queries
    if causal is not None:
        mask = mask & causal[None, None, :, :]  # -> [B, 1, T, T]
    return mask


def to_torch_key_padding_mask(mask: torch.Tensor) -> torch.Tensor:
    """Ours (True = real token) -> nn.MultiheadAttention's key_padding_mask (True = ignore)."""
    return ~mask


def to_torch_attn_mask(mask: torch.Tensor) -> torch.Tensor:
    """Ours (True = may attend) -> nn.MultiheadAttention's bool attn_mask (True = blocked)."""
    return ~mask
