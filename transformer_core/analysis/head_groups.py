"""Heads that behave alike (Jensen-Shannon distances of their corpus profiles, an ordering, named groups) and
one head up close (its query/key map by PCA, its strongest and weakest sentences). Statistics: heads.py."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from transformer_core.analysis.heads import (
    BEHAVIOURS,
    GROUP_THRESHOLD,
    MIXED,
    STATS,
    Corpus,
    HeadStatistics,
    record_pass,
    require_transformer,
)
from transformer_core.inference.batching import pad_batch
from transformer_core.io.loading import LoadedModel
from transformer_core.tracing.names import SRC_MASK, TGT_MASK, Head

# --- heads that behave alike --------------------------------------------------------------------------

def js_distance_matrix(profiles: np.ndarray) -> np.ndarray:
    """Pairwise Jensen–Shannon distances (sqrt of the divergence, log base 2: in [0, 1]) between rows."""
    p = np.asarray(profiles, dtype=np.float64)
    p = p / p.sum(-1, keepdims=True)
    a, b = p[:, None, :], p[None, :, :]
    m = 0.5 * (a + b)

    def kl(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(x > 0, x * np.log2(np.where(x > 0, x, 1.0) / np.where(y > 0, y, 1.0)), 0.0)
        return terms.sum(-1)

    divergence = np.clip(0.5 * kl(a, m) + 0.5 * kl(b, m), 0.0, 1.0)
    distance = np.sqrt(divergence)
    np.fill_diagonal(distance, 0.0)
    return distance


def cluster_order(distance: np.ndarray) -> list[int]:
    """Leaf order of average-linkage agglomerative clustering (UPGMA) on a symmetric distance matrix:
    heads that merge early sit next to each other. Ties merge the lowest indices first (deterministic)."""
    d = np.array(distance, dtype=np.float64)
    n = len(d)
    if n == 0:
        return []
    full = np.full((2 * n, 2 * n), np.inf)
    full[:n, :n] = d
    members: dict[int, list[int]] = {i: [i] for i in range(n)}
    active = list(range(n))
    next_id = n
    while len(active) > 1:
        sub = full[np.ix_(active, active)]
        sub = np.where(np.eye(len(active), dtype=bool), np.inf, sub)
        a, b = np.unravel_index(int(np.argmin(sub)), sub.shape)
        ca, cb = active[min(a, b)], active[max(a, b)]
        na, nb = len(members[ca]), len(members[cb])
        for other in active:
            if other not in (ca, cb):  # average linkage: the size-weighted mean of the two distances
                full[next_id, other] = full[other, next_id] = (na * full[ca, other] + nb * full[cb, other]) / (na + nb)
        members[next_id] = members.pop(ca) + members.pop(cb)
        active = [c for c in active if c not in (ca, cb)] + [next_id]
        next_id += 1
    return members[active[0]]


def head_groups(stats: HeadStatistics) -> dict[str, list[Head]]:
    """Heads named by their largest behaviour share (diagonal, previous, next, first, last, aligned) when it
    is at least GROUP_THRESHOLD; the others are MIXED. Keys: GROUPS' keys (only non-empty ones) and MIXED."""
    groups: dict[str, list[Head]] = {}
    for k, head in enumerate(stats.heads):
        groups.setdefault(head_group(stats, k), []).append(head)
    return groups


def head_group(stats: HeadStatistics, k: int) -> str:
    """The group of head number k (see head_groups)."""
    values = {b: stats.stats[k, STATS.index(b)] for b in BEHAVIOURS}
    values = {b: v for b, v in values.items() if not math.isnan(v)}
    best = max(values, key=lambda b: values[b])
    return best if values[best] >= GROUP_THRESHOLD else MIXED


def dominant_behaviour(stats: HeadStatistics, k: int) -> str:
    """The behaviour share that is largest for head number k (even below the threshold)."""
    values = {b: stats.stats[k, STATS.index(b)] for b in BEHAVIOURS}
    values = {b: v for b, v in values.items() if not math.isnan(v)}
    return max(values, key=lambda b: values[b])


def extreme_sentences(stats: HeadStatistics, head: Head, behaviour: str, n: int = 5) -> tuple[list[int], list[int]]:
    """Indices of the n sentences where `head` shows `behaviour` most and least (sentences without a value,
    e.g. no gold alignment, are left out)."""
    values = stats.per_sentence[:, stats.index(head), STATS.index(behaviour)].astype(np.float64)
    valid = np.flatnonzero(~np.isnan(values))
    ranked = valid[np.argsort(-values[valid], kind="stable")]
    most = ranked[:n].tolist()
    least = ranked[::-1][:n].tolist()
    return most, least


# --- one head up close ---------------------------------------------------------------------------------

def pca_2d(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Rows of x [N, d] -> (coordinates [N, 2] on the two principal axes of the centred rows, axes [2, d]).
    Each axis's sign is fixed so its largest-magnitude component is positive (SVD signs are arbitrary)."""
    x = x.double()
    centred = x - x.mean(0, keepdim=True)
    _, _, vh = torch.linalg.svd(centred, full_matrices=False)
    axes = vh[:2]
    if axes.shape[0] < 2:  # one-dimensional input: pad with a zero axis
        axes = torch.cat([axes, torch.zeros(2 - axes.shape[0], x.shape[1], dtype=x.dtype)])
    signs = torch.sign(axes.gather(1, axes.abs().argmax(1, keepdim=True))).squeeze(1)
    axes = axes * torch.where(signs == 0, torch.ones_like(signs), signs)[:, None]
    return centred @ axes.T, axes


@dataclass
class QueryKeyMap:
    """One head's query and key vectors of the corpus tokens on the same two principal axes."""

    head: Head
    x: np.ndarray
    y: np.ndarray
    role: list[str]  # "query" / "key"
    token: list[str]
    position: list[int]
    sentence: list[int]  # index into the corpus
    explained: tuple[float, float]  # share of the variance on each axis


def query_key_map(loaded: LoadedModel, corpus: Corpus, head: Head, max_sentences: int = 200,
                  batch_size: int = 64) -> QueryKeyMap:
    """Queries (query side tokens) and keys (key side tokens) of `head` for the first `max_sentences`
    sentences, projected together: queries and keys scaled to the same mean norm, then PCA (pca_2d)."""
    model = require_transformer(loaded)
    cfg = loaded.config
    items = corpus.items[:max_sentences]
    q_side, k_side = head.kind.sides
    vectors: dict[str, list[torch.Tensor]] = {"query": [], "key": []}
    meta: dict[str, list[tuple[str, int, int]]] = {"query": [], "key": []}
    tokenizer = loaded.tokenizer
    for start in range(0, len(items), batch_size):
        batch = items[start:start + batch_size]
        src = pad_batch([it.source_ids for it in batch], cfg.pad_token_id).to(loaded.device)
        tgt = (pad_batch([it.decoder_ids or (cfg.bos_token_id,) for it in batch], cfg.pad_token_id).to(loaded.device)
               if cfg.has_decoder else None)
        trace = record_pass(model, src, tgt, [SRC_MASK, TGT_MASK, head.name("q"), head.name("k")])
        ids = {"src": src.cpu(), "tgt": tgt.cpu() if tgt is not None else None}
        masks = {"src": trace[SRC_MASK].cpu().bool()}
        if cfg.has_decoder:
            masks["tgt"] = trace[TGT_MASK].cpu().bool()
        for role, side, tensor in (("query", q_side, "q"), ("key", k_side, "k")):
            values = trace[head.name(tensor)][:, head.head].cpu().float()  # [B,L,d_k]
            mask = masks[side]
            for row in range(len(batch)):
                n = int(mask[row].sum())
                vectors[role].append(values[row, :n])
                tokens = tokenizer.convert_ids_to_tokens(ids[side][row, :n].tolist())
                meta[role] += [(tok, pos, start + row) for pos, tok in enumerate(tokens)]
        del trace
    q, k = torch.cat(vectors["query"]), torch.cat(vectors["key"])
    # q.k is unchanged by (c q, k / c): equal mean norms keep one cloud from setting the axes alone.
    scale = math.sqrt(float(k.norm(dim=-1).mean()) / max(float(q.norm(dim=-1).mean()), 1e-12))
    both = torch.cat([q * scale, k / scale])
    coords, axes = pca_2d(both)
    centred = both.double() - both.double().mean(0)
    total = float((centred ** 2).sum()) or 1.0
    explained = tuple(float(((centred @ axes[i]) ** 2).sum()) / total for i in range(2))
    rows = [("query", *m) for m in meta["query"]] + [("key", *m) for m in meta["key"]]
    return QueryKeyMap(head, coords[:, 0].numpy(), coords[:, 1].numpy(), [r[0] for r in rows],
                       [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows], explained)  # type: ignore


def sentence_maps(loaded: LoadedModel, corpus: Corpus, head: Head, indices: Sequence[int]) -> list[dict]:
    """The attention map of `head` on a few corpus sentences: [{index, text, queries, keys, weights}]."""
    model = require_transformer(loaded)
    cfg = loaded.config
    tokenizer = loaded.tokenizer
    out = []
    for index in indices:
        item = corpus.items[index]
        src = torch.tensor([item.source_ids], device=loaded.device)
        tgt = torch.tensor([item.decoder_ids], device=loaded.device) if cfg.has_decoder and item.decoder_ids else None
        trace = record_pass(model, src, tgt, [head.name("weights")])
        ids = {"src": list(item.source_ids), "tgt": list(item.decoder_ids)}
        q_side, k_side = head.kind.sides
        weights = trace[head.name("weights")][0, head.head].cpu().float().numpy()
        out.append({"index": int(index), "text": item.text,
                    "queries": tokenizer.convert_ids_to_tokens(ids[q_side]),
                    "keys": tokenizer.convert_ids_to_tokens(ids[k_side]), "weights": weights})
    return out
