"""Batches of id lists: the one padding function the core uses (training, evaluation, generation)."""

from __future__ import annotations

from collections.abc import Sequence

import torch


def pad_batch(seqs: Sequence[Sequence[int]], pad_id: int) -> torch.Tensor:
    """Right-pad id lists with `pad_id` into one [B, L] LongTensor (L = the longest list)."""
    if not seqs:
        raise ValueError("pad_batch needs at least one sequence")
    width = max(len(s) for s in seqs)
    out = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    for row, seq in enumerate(seqs):
        if seq:
            out[row, : len(seq)] = torch.as_tensor(list(seq), dtype=torch.long)
    return out
