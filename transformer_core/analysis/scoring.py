"""The ONE held-out scoring loop: the evaluate CLI (evaluate.py), head importance (importance.py) and the
training lab's snapshots (training/snapshots.py) all score held-out examples with `score_examples`: the
same decoding limit, the same padder (batching.pad_batch), the same alignment rule (alignment.py).

Exact match: the greedy output equals the reference, token for token. Alignment: teacher-forced on the
reference, the cross-attention row that predicts each target word (its query is the previous token) must
have its largest weight on a gold source word; counted per decoder layer (head average) and per head.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from transformer_core.analysis.alignment import alignment_hits
from transformer_core.analysis.head_patches import merge_patches, switch_off_rows
from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import generate
from transformer_core.models.transformer import Transformer
from transformer_core.tasks.heldout import Example
from transformer_core.tracing.hooks import Patch
from transformer_core.tracing.names import RNN_ATTENTION_WEIGHTS, AttentionKind, Head, attention_name


def decoding_limit(batch: Sequence[Example]) -> int:
    """New tokens decoded for a batch of held-out examples: the longest reference + 2 (its EOS and one more).

    An output still running after that many tokens is already wrong, so a longer limit could not change
    any exact match, only the time an untrained model spends running on without EOS."""
    return max(len(e.target_ids) for e in batch) + 2


@dataclass
class HeldOutScore:
    """Hit counts of one model (under one set of patches) on held-out examples; `metrics()` is the CLI's dict."""

    n_layers: int
    n_heads: int
    matches: dict[str, list[bool]] = field(default_factory=dict)  # group -> greedy output == reference
    failures: list[dict] = field(default_factory=list)  # up to 20 misses (ids)
    layer_hits: np.ndarray = None  # [L, 2] correct, scored (head average)
    head_hits: np.ndarray = None  # [L, H, 2]
    input_row_hits: np.ndarray = None  # [L, H + 1, 2] diagnostic: the row whose query IS the word

    def __post_init__(self) -> None:
        self.layer_hits = np.zeros((self.n_layers, 2), dtype=np.int64)
        self.head_hits = np.zeros((self.n_layers, self.n_heads, 2), dtype=np.int64)
        self.input_row_hits = np.zeros((self.n_layers, self.n_heads + 1, 2), dtype=np.int64)

    @property
    def exact_match(self) -> float:
        """Share of exact outputs over the generated groups (the hand-written 'real' sentences left out)."""
        generated = [ok for group, oks in self.matches.items() if group != "real" for ok in oks]
        return float(np.mean(generated)) if generated else float("nan")

    @property
    def alignment_per_layer(self) -> list[float]:
        """Head-averaged cross-attention alignment accuracy of each decoder layer (nan when nothing scored)."""
        return [float(c / s) if s else float("nan") for c, s in self.layer_hits]

    @property
    def alignment(self) -> float:
        """The best decoder layer's head-averaged alignment accuracy (0.0 when nothing was scored)."""
        rates = [r for r in self.alignment_per_layer if not np.isnan(r)]
        return max(rates) if rates else 0.0

    def metrics(self) -> dict:
        """The metrics dict (keys documented in the module docstring)."""
        metrics = summarize(self.matches, self.layer_hits, self.head_hits, self.failures)
        hits, n_heads = self.input_row_hits, self.n_heads
        rates = np.where(hits[..., 1] > 0, hits[..., 0] / np.maximum(hits[..., 1], 1), 0.0)
        metrics["input_row_alignment"] = {"per_layer": rates[:, n_heads].tolist(),
                                          "best_layer": float(rates[:, n_heads].max()),
                                          "best_head": float(rates[:, :n_heads].max())}
        return metrics


def cross_attention(model, src: torch.Tensor, tgt: torch.Tensor,
                    patches: Mapping[str, Patch] | None = None) -> list[np.ndarray]:
    """The alignment matrices of a teacher-forced pass under `patches`, one [B,H,T,S] array per decoder
    layer (row t predicts target token t). A Transformer's cross-attention weights are read with
    observer patches (no [B,T,V] logits, nothing else kept); the attention RNN's one alignment per
    step (`rnn.attn.weights` [B,T,S]) is recorded and scored as one layer with one head ([B,1,T,S])."""
    if not isinstance(model, Transformer):
        return cross_attention_maps(model.trace(src, tgt, patches=patches))
    names = [attention_name(AttentionKind.CROSS, i) for i in range(model.config.n_decoder_layers)]
    seen: dict[str, torch.Tensor] = {}

    def keep(name: str) -> Patch:
        def observe(x: torch.Tensor) -> torch.Tensor:
            seen[name] = x
            return x
        return observe

    combined = merge_patches(dict(patches or {}), {name: keep(name) for name in names})
    with model.patched(combined):
        memory, src_mask = model.encode(src)
        model.decode(tgt, memory, src_mask, project=False)  # no [B,T,V] logits needed
    return [seen[name].float().cpu().numpy() for name in names]


def cross_attention_maps(trace) -> list[np.ndarray]:
    """The alignment matrices of a recorded teacher-forced trace, one [B,H,T,S] array per decoder layer:
    cross-attention weights for a Transformer; for the attention RNN, `rnn.attn.weights` [B,T,S] as one
    layer with one head ([B,1,T,S]). Row t predicts target token t."""
    if RNN_ATTENTION_WEIGHTS in trace:
        return [trace[RNN_ATTENTION_WEIGHTS].float().cpu().numpy()[:, None]]  # [B,T,S] -> [B,1,T,S]
    return [trace[attention_name(AttentionKind.CROSS, i)].float().cpu().numpy()
            for i in range(trace.n_layers("decoder"))]


@torch.no_grad()
def score_examples(model, examples: Sequence[Example], batch_size: int = 64,
                   patches: Mapping[str, Patch] | None = None, *,
                   experiments: Sequence[Sequence[Head]] | None = None, method: str = "zero",
                   means: Mapping[str, torch.Tensor] | None = None, max_rows: int = 256,
                   progress: Callable[[int, int], None] | None = None) -> list[HeldOutScore]:
    """Score held-out examples: greedy exact match (`decoding_limit`, one padder: batching.pad_batch) and,
    teacher-forced on the reference, cross-attention alignment per decoder layer and head.

    Without `experiments`: ONE score, of the model under `patches`. With `experiments` (head sets, e.g.
    head importance's ablations): one score per experiment, its heads switched off by `method` (on top
    of `patches`); a batch is repeated once per experiment, as many experiments per pass as fit in
    `max_rows` rows (interventions.switch_off_rows). Examples go in length-sorted batches of
    `batch_size`; `progress(done, total)` counts (experiment, example) pairs. The model runs in eval
    mode and is put back in its previous mode.
    """
    cfg = model.config
    # The attention RNN (rnn.py): one alignment per step, scored as one layer with one head.
    n_layers, n_heads = (cfg.n_decoder_layers, cfg.n_heads) if isinstance(model, Transformer) else (1, 1)
    runs = [()] if experiments is None else list(experiments)
    scores = [HeldOutScore(n_layers, n_heads) for _ in runs]
    device = next(model.parameters()).device
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].source_ids))
    total, done = len(runs) * len(examples), 0
    was_training = model.training
    model.eval()
    try:
        for start in range(0, len(order), batch_size):
            batch = [examples[i] for i in order[start:start + batch_size]]
            src = pad_batch([e.source_ids for e in batch], cfg.pad_token_id).to(device)
            tgt = pad_batch([[cfg.bos_token_id, *e.target_ids] for e in batch], cfg.pad_token_id).to(device)
            limit = decoding_limit(batch)
            per_pass = len(runs) if experiments is None else max(1, max_rows // len(batch))
            for first in range(0, len(runs), per_pass):
                chunk = list(range(first, min(first + per_pass, len(runs))))
                pass_patches = dict(patches or {})
                if experiments is not None:
                    heads_by_row = [runs[j] for j in chunk for _ in batch]
                    pass_patches = merge_patches(pass_patches, switch_off_rows(heads_by_row, n_heads, method, means))
                rows_src, rows_tgt = src.repeat(len(chunk), 1), tgt.repeat(len(chunk), 1)  # [k·B, S], [k·B, T]
                decoded = generate(model, rows_src, max_new_tokens=limit, patches=pass_patches)  # greedy
                maps = cross_attention(model, rows_src, rows_tgt, pass_patches)  # layer -> [k·B, H, T, S]
                for c, j in enumerate(chunk):
                    for b, example in enumerate(batch):
                        _count(scores[j], example, decoded.tokens(c * len(batch) + b),
                               [weights[c * len(batch) + b] for weights in maps])
                done += len(chunk) * len(batch)
                if progress is not None:
                    progress(done, total)
    finally:
        model.train(was_training)
    return scores


def _count(score: HeldOutScore, example: Example, output: list[int], maps: list[np.ndarray]) -> None:
    """Add one example's exact match and alignment hits (maps: one [H,T,S] array per decoder layer)."""
    ok = output == example.target_ids
    score.matches.setdefault(example.group, []).append(ok)
    if not ok and len(score.failures) < 20:
        score.failures.append({"source_ids": example.source_ids, "output_ids": output,
                               "target_ids": example.target_ids})
    n_words = len(example.source_ids) - 1  # the appended EOS is not a word
    rows = len(example.target_ids)
    for layer, weights in enumerate(maps):  # [H,T,S]
        for head in range(score.n_heads):
            score.head_hits[layer, head] += alignment_hits(weights[head, :rows], example.gold, n_words)
            score.input_row_hits[layer, head] += alignment_hits(weights[head, 1:rows + 1], example.gold, n_words)
        average = weights[:, : rows + 1].mean(axis=0)
        score.layer_hits[layer] += alignment_hits(average[:rows], example.gold, n_words)
        score.input_row_hits[layer, score.n_heads] += alignment_hits(average[1:], example.gold, n_words)


def summarize(matches: dict[str, list[bool]], layer_hits: np.ndarray, head_hits: np.ndarray,
              failures: list[dict]) -> dict:
    """Turn hit counts into the metrics dict (keys documented in the module docstring)."""
    per_layer = [float(c / s) if s else float("nan") for c, s in layer_hits]
    per_head = [[float(c / s) if s else float("nan") for c, s in layer] for layer in head_hits]
    best_layer = int(np.nanargmax(per_layer))
    flat = np.array(per_head)
    layer, head = np.unravel_index(int(np.nanargmax(flat)), flat.shape)
    generated = [ok for group, oks in matches.items() if group != "real" for ok in oks]
    metrics = {
        "exact_match": float(np.mean(generated)) if generated else float("nan"),
        "exact_match_by_group": {group: float(np.mean(oks)) for group, oks in sorted(matches.items())},
        "alignment_accuracy": per_layer[best_layer],
        "best_layer": best_layer,
        "best_head": {"layer": int(layer), "head": int(head), "accuracy": float(flat[layer, head])},
        "alignment_accuracy_best_head": float(flat[layer, head]),
        "per_layer": per_layer,
        "per_head": per_head,
        "scored_words": int(layer_hits[0, 1]),
        "failures": failures,
    }
    return metrics


