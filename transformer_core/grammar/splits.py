"""Held-out split by hashing the source text: a text is either always training or always evaluation."""

from __future__ import annotations

import hashlib

HELD_OUT_BUCKETS = 20  # 1 of 20 (5 %) of all possible sources is reserved for evaluation


def is_held_out(text: str) -> bool:
    """True if `text` belongs to the evaluation side of the split (stable across runs and machines)."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % HELD_OUT_BUCKETS == 0
