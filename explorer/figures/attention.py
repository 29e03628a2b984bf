"""Read attention tensors out of a trace (a transformer_core Trace: name -> tensor, `.numpy(name)`, `.layout`).

What a trace holds (layers, heads, attention kinds, unbatched names) comes from `trace.layout`; kinds, heads
and every trace name come from transformer_core.tracing.names (AttentionKind, Head, attention_name), the one
module that spells them (a pure module: no torch is imported by reading names).

Kinds of attention and which token sequence labels their rows (queries) and columns (keys):
    encoder self-attention   rows = source, columns = source
    decoder self-attention   rows = target, columns = target (causal)
    decoder cross-attention  rows = target, columns = source
"""

from __future__ import annotations

import numpy as np

from transformer_core.tracing.names import AttentionKind, Head


def n_layers(trace, stack: str) -> int:
    """Layers of 'encoder' or 'decoder' in the trace (0 if the stack is absent)."""
    return trace.layout.layers(stack)


def kinds_in(trace) -> list[AttentionKind]:
    """The attention kinds this trace holds (an encoder-only trace has just encoder self-attention)."""
    return list(trace.layout.attention_kinds)


def n_heads(trace) -> int:
    """Heads per attention layer."""
    return trace.layout.n_heads


def stack(trace, kind: str, tensor: str = "weights") -> np.ndarray:
    """[L, H, Tq, Tk] float32 for every layer of one kind."""
    layout = trace.layout
    names = [layout.attention_name(kind, i, tensor) for i in range(layout.layers(kind))]
    return np.stack([trace.numpy(name) for name in names]).astype(np.float32)


def all_heads(trace) -> list[Head]:
    """Every head of every kind, in a stable order."""
    heads = n_heads(trace)
    return [Head(k, layer, h) for k in kinds_in(trace) for layer in range(trace.layout.layers(k))
            for h in range(heads)]


def head_matrix(trace, ref: Head, tensor: str = "weights") -> np.ndarray:
    """One head's [Tq, Tk] matrix (float32)."""
    return trace.numpy(ref.name(tensor))[ref.head].astype(np.float32)


def tokens_for(kind: str, src_tokens: list[str], tgt_tokens: list[str]) -> tuple[list[str], list[str]]:
    """(row tokens, column tokens) of a kind."""
    sides = {"src": src_tokens, "tgt": tgt_tokens}
    rows, cols = AttentionKind.parse(kind).sides
    return sides[rows], sides[cols]


def special_mask(tokens: list[str], specials: set[str]) -> np.ndarray:
    """Bool [n]: True where the token is a special token."""
    return np.array([t in specials for t in tokens], dtype=bool)


def strongest_key(weights: np.ndarray, query: int) -> int:
    """The key a query gives the most weight to."""
    return int(np.argmax(np.asarray(weights)[query]))


def step_rows(maps: np.ndarray, step: int) -> tuple[np.ndarray, list[str]]:
    """[L, H, T, S] cross-attention -> the rows of decoding step `step` for every layer and head:
    ([L·H, S] float32, labels 'L0 H1')."""
    n_layers, n_heads = maps.shape[:2]
    rows = np.asarray(maps[:, :, step, :], dtype=np.float32).reshape(n_layers * n_heads, maps.shape[-1])
    return rows, [f"L{layer} H{head}" for layer in range(n_layers) for head in range(n_heads)]


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax in float64 (for next-token probabilities from the traced logits)."""
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def top_k(probs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, probabilities) of the k most likely entries, best first."""
    k = min(k, probs.shape[-1])
    ids = np.argsort(-probs, kind="stable")[:k]
    return ids, probs[ids]


def array(trace, name: str) -> np.ndarray:
    """A trace tensor as numpy: batch element 0, except for the names that have no batch dimension."""
    if name in trace.layout.unbatched:
        tensor = trace[name].detach().cpu()
        return (tensor.float() if tensor.is_floating_point() else tensor).numpy()
    return trace.numpy(name)
