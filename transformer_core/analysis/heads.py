"""What each head does across many sentences: corpus statistics, head distances, groups, a query/key map.

Statistics (one number per head, pooled over every real query token of the corpus, each query token
weighing the same; padding is neither a query nor a key):

- `diagonal`: weight on the key at the query's own position i (cross-attention: source position i).
- `previous`: weight on key i − 1 (0 for i = 0).   `next`: weight on key i + 1 (0 past the last real key).
- `first`: weight on key 0.   `last`: weight on the last real key of the key sequence (`</s>` on the
  source side; on the decoder side the last target token, which under the causal mask only the last
  query can see, so decoder self-attention scores near 0 there by construction).
- `entropy`: −Σ p ln p of the row over its keys, in nats (uniform over n keys = ln n).
- `aligned` (cross-attention only, and only where the corpus knows the gold word alignment: the
  held-out generators of ko-en, reverse and the lab's letter tasks): the share of the weight of the
  row that PREDICTS target word t (its query is the token before t, see alignment.py) on t's gold
  source tokens, averaged over target words that have a gold alignment; None elsewhere.

Corpus sources: `heldout_corpus` (the model's held-out generator, teacher-forced on the gold target as
evaluate.py does) or `text_corpus` (sentences: greedy generation, then one recorded teacher-forced pass
over the output, as trace_text does — batched here, so padding may move weights by float rounding).
Memory is bounded by statistics: running sums per head and a few numbers per sentence and head,
never the attention maps.

Heads that behave alike: each head's *profile* is its average attention distribution over 19 bins
(key 0, the last real key, else the relative offset j − i clipped to ±8; every key falls in exactly
one bin, so a profile sums to 1). The distance between two heads is the Jensen–Shannon distance of
their profiles (square root of the JS divergence, log base 2, so it lies in [0, 1]). `cluster_order`
orders heads by average-linkage agglomerative clustering (numpy, no scipy). `head_groups` names heads
by their largest statistic when it is at least GROUP_THRESHOLD (half the weight).

Query/key map (AttentionViz): `query_key_map` projects the query and key vectors of every corpus
token for one head onto the same 2 principal axes (SVD of the centred, stacked vectors), after scaling
queries and keys to the same mean norm (q·k is unchanged by q·c, k/c; this keeps one cloud from
dominating the axes).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import generate, output_limit
from transformer_core.io.loading import LoadedModel
from transformer_core.models.transformer import Transformer
from transformer_core.tasks import KO_EN, model_task
from transformer_core.tracing.hooks import Patch, recording
from transformer_core.tracing.names import SRC_MASK, TGT_MASK, AttentionKind, Head, attention_name

STATS = ("diagonal", "previous", "next", "first", "last", "aligned", "entropy")
BEHAVIOURS = ("diagonal", "previous", "next", "first", "last", "aligned")  # shares of weight (entropy is not)
MAX_OFFSET = 8
PROFILE_BINS = ("first", "last", *[f"{d:+d}" for d in range(-MAX_OFFSET, MAX_OFFSET + 1)])
GROUP_THRESHOLD = 0.5
# Group names by the statistic that defines them (the page translates them).
GROUPS = {"previous": "previous-token heads", "last": "</s> / last-token heads", "aligned": "alignment heads",
          "diagonal": "diagonal (same-position) heads", "next": "next-token heads", "first": "first-token heads"}
MIXED = "mixed"
Progress = Callable[[int, int], None]


# --- the corpus --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CorpusItem:
    """One sentence as the recorded pass sees it: source ids (with EOS), decoder input (BOS + target, no
    EOS; empty for an encoder-only model), gold alignment (target word t -> source token indices) or None."""

    text: str
    source_ids: tuple[int, ...]
    decoder_ids: tuple[int, ...] = ()
    gold: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True)
class Corpus:
    """Sentences plus the key that identifies them in caches ("heldout:ko-en:500:0" or "text:<sha1>")."""

    key: str
    items: tuple[CorpusItem, ...]
    source: str  # "heldout" or "text"

    def __len__(self) -> int:
        return len(self.items)


def require_transformer(loaded: LoadedModel) -> Transformer:
    """The model, or ValueError for one without multi-head attention (the 2015 attention RNN)."""
    if not isinstance(loaded.model, Transformer):
        raise ValueError(f"{loaded.name} has no multi-head attention (it is {loaded.kind}); "
                         "corpus head statistics need a Transformer")
    return loaded.model


def heldout_corpus(loaded: LoadedModel, n: int, seed: int = 0) -> Corpus:
    """`n` held-out examples of the model's task (ko-en, reverse, letters-*) with their gold alignment."""
    from transformer_core.analysis.evaluate import examples_for

    if n < 1:
        raise ValueError("the corpus needs at least one sentence (n >= 1)")
    if not loaded.config.has_decoder:
        raise ValueError(f"{loaded.name} is encoder-only: it has no held-out task; give sentences instead")
    task = model_task(loaded)
    if task is None and loaded.name == "paper-base":
        task = KO_EN  # untrained paper-base borrows ko-en-toy's tokenizer: its sentences are that grammar's
    if task is None:
        raise ValueError(f"{loaded.name}: its config.json names no task, so there are no held-out sentences; "
                         "give sentences instead")
    examples = examples_for(loaded, task, n, seed)[:n]  # reverse appends hand-written texts: keep n
    bos = loaded.config.bos_token_id
    items = tuple(CorpusItem(loaded.tokenizer.decode(e.source_ids, skip_special_tokens=True),
                             tuple(e.source_ids), (bos, *e.target_ids), tuple(tuple(g) for g in e.gold))
                  for e in examples)
    return Corpus(f"heldout:{task.name}:{n}:{seed}", items, "heldout")


def clean_lines(text: str) -> list[str]:
    """Non-empty stripped lines of a pasted or uploaded text."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def unknown_share(loaded: LoadedModel, lines: Sequence[str]) -> float:
    """Share of the corpus's tokens (special tokens aside) that the tokenizer maps to its unknown token."""
    tokenizer = loaded.tokenizer
    unk = tokenizer.unk_token_id
    special = set(tokenizer.all_special_ids) - {unk}
    total = unknown = 0
    for line in lines:
        ids = [i for i in tokenizer(line)["input_ids"] if i not in special]
        total += len(ids)
        unknown += sum(i == unk for i in ids) if unk is not None else 0
    return unknown / total if total else 1.0


MAX_LINES = 1000
HANGUL = re.compile("[\uac00-\ud7a3\u3131-\u318e]")


def corpus_problem(loaded: LoadedModel, lines: Sequence[str], max_lines: int = MAX_LINES) -> str | None:
    """Why these sentences cannot be the corpus, as a code, or None: "empty", "too_long" (more than
    `max_lines`), "wrong_language" (a ko-en model given text where fewer than half the lines hold Hangul)
    or "unknown_tokens" (more than half the tokens unknown to the tokenizer)."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        return "empty"
    if len(lines) > max_lines:
        return "too_long"
    # ko-en's joint vocabulary knows the English words too, so unknown tokens alone would not tell.
    task = model_task(loaded)
    if loaded.config.has_decoder and task is not None and task.korean_source and \
            sum(bool(HANGUL.search(line)) for line in lines) < len(lines) / 2:
        return "wrong_language"
    if unknown_share(loaded, lines) > 0.5:
        return "unknown_tokens"
    return None


def text_corpus(loaded: LoadedModel, lines: Sequence[str], batch_size: int = 64,
                progress: Progress | None = None) -> Corpus:
    """Sentences -> items: tokenized (cut to max_len), the output generated greedily in batches."""
    from transformer_core.inference.text import encode_text

    lines = [line.strip() for line in lines if line and line.strip()]
    if not lines:
        raise ValueError("The corpus is empty: give at least one sentence, one a line.")
    model, cfg = loaded.model, loaded.config
    encoded = [tuple(encode_text(loaded, line)[0]) for line in lines]
    decoder: list[tuple[int, ...]] = [()] * len(lines)
    if cfg.has_decoder:
        order = sorted(range(len(lines)), key=lambda i: len(encoded[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            src = pad_batch([encoded[i] for i in rows], cfg.pad_token_id).to(loaded.device)
            limit = output_limit(loaded, max(len(encoded[i]) for i in rows))
            with torch.no_grad():
                result = generate(model, src, max_new_tokens=limit)
            for row, i in enumerate(rows):
                decoder[i] = (cfg.bos_token_id, *result.tokens(row))
            if progress:
                progress(min(start + batch_size, len(order)), len(order))
    digest = hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()[:16]
    items = tuple(CorpusItem(line, ids, dec) for line, ids, dec in zip(lines, encoded, decoder, strict=True))
    return Corpus(f"text:{len(lines)}:{digest}", items, "text")


def record_pass(model: Transformer, src: torch.Tensor, tgt: torch.Tensor | None, names: Sequence[str],
                patches: Mapping[str, Patch] | None = None) -> dict[str, torch.Tensor]:
    """One eval-mode, no-grad forward pass keeping only `names` (like Transformer.trace, without holding every
    intermediate: the logits of a 64-sentence batch alone can be hundreds of MB)."""
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad(), recording(only=names) as store:
            model(src, tgt, patches=patches)
    finally:
        model.train(was_training)
    return dict(store)


# --- statistics -----------------------------------------------------------------------------------------

def model_kinds(loaded_or_config) -> list[tuple[AttentionKind, int]]:
    """(kind, number of layers) of every attention the model has, in the paper's order."""
    cfg = getattr(loaded_or_config, "config", loaded_or_config)
    kinds = [(AttentionKind.ENCODER_SELF, cfg.n_encoder_layers)]
    if cfg.has_decoder:
        kinds += [(AttentionKind.DECODER_SELF, cfg.n_decoder_layers), (AttentionKind.CROSS, cfg.n_decoder_layers)]
    return kinds


def all_heads(loaded_or_config) -> list[Head]:
    """Every head, kind by kind, layer by layer."""
    cfg = getattr(loaded_or_config, "config", loaded_or_config)
    return [Head(kind, layer, h) for kind, layers in model_kinds(cfg) for layer in range(layers)
            for h in range(cfg.n_heads)]


def key_bins(n_query: int, n_key: int, key_len: torch.Tensor) -> torch.Tensor:
    """[B, Tq, Tk] profile bin of every (query, key): 0 = key 0, 1 = the last real key, else 2 + offset + 8."""
    i = torch.arange(n_query)[:, None]
    j = torch.arange(n_key)[None, :]
    bins = (j - i).clamp(-MAX_OFFSET, MAX_OFFSET) + MAX_OFFSET + 2
    bins = bins.unsqueeze(0).expand(len(key_len), -1, -1).clone()
    last = (key_len - 1)[:, None, None]
    bins[(j == last).expand_as(bins)] = 1
    bins[:, :, 0] = 0
    return bins


def row_statistics(weights: torch.Tensor, query_mask: torch.Tensor, key_mask: torch.Tensor) -> dict[str, torch.Tensor]:
    """Per (batch row, head, query) values [B,H,Tq] of diagonal, previous, next, first, last, entropy.

    weights [B,H,Tq,Tk] (rows sum to 1 over real keys); key_mask [B,Tk] True = real key. Values at
    padded queries are meaningless (the caller masks them)."""
    b, h, tq, tk = weights.shape
    w = weights.float().masked_fill(~key_mask[:, None, None, :], 0.0)
    i = torch.arange(tq)
    key_len = key_mask.sum(-1)  # real keys are a prefix

    def at(offset: int) -> torch.Tensor:
        j = i + offset
        ok = (j >= 0) & (j < tk)
        values = torch.zeros(b, h, tq)
        values[..., ok] = w[:, :, i[ok], j[ok]]
        return values

    last_index = (key_len - 1).clamp(min=0)[:, None, None, None].expand(b, h, tq, 1)
    p = w.clamp_min(1e-30)
    return {
        "diagonal": at(0), "previous": at(-1), "next": at(1), "first": w[..., 0],
        "last": w.gather(-1, last_index).squeeze(-1),
        "entropy": -(w * p.log()).sum(-1),
    }


def aligned_rows(weights: torch.Tensor, items: Sequence[CorpusItem]) -> tuple[torch.Tensor, torch.Tensor]:
    """Cross-attention weights [B,H,T,S] -> (sum over scored target words of the weight on their gold source
    tokens [B,H], number of scored words [B])."""
    b, _, t, s = weights.shape
    gold_mask = torch.zeros(b, t, s)
    for row, item in enumerate(items):
        for word, sources in enumerate(item.gold or ()):
            for j in sources:
                if word < t and j < s:
                    gold_mask[row, word, j] = 1.0
    scored = (gold_mask.sum(-1) > 0).float()  # [B,T]
    on_gold = (weights.float() * gold_mask[:, None]).sum(-1)  # [B,H,T]
    return (on_gold * scored[:, None]).sum(-1), scored.sum(-1)


@dataclass
class HeadStatistics:
    """What a corpus pass leaves: pooled statistics, profiles and per-sentence numbers (no maps)."""

    model: str
    corpus_key: str
    heads: list[Head]
    sentences: int
    query_tokens: dict[AttentionKind, int]  # real query tokens pooled, per kind
    stats: np.ndarray  # [n_heads, len(STATS)], aligned NaN where unknown
    profiles: np.ndarray  # [n_heads, len(PROFILE_BINS)], rows sum to 1
    per_sentence: np.ndarray  # [sentences, n_heads, len(STATS)] float32 (means over the sentence's queries)
    texts: list[str]
    seconds: float
    has_gold: bool
    extra: dict = field(default_factory=dict)

    def index(self, head: Head) -> int:
        return self.heads.index(head)

    def value(self, head: Head, stat: str) -> float | None:
        v = float(self.stats[self.index(head), STATS.index(stat)])
        return None if math.isnan(v) else v

    def rows(self) -> list[dict]:
        """The CLI's JSON rows: {kind, layer, head, diagonal, previous, next, first, last, aligned, entropy}."""
        out = []
        for k, head in enumerate(self.heads):
            row = {"kind": head.kind.value, "layer": head.layer, "head": head.head}
            for s, stat in enumerate(STATS):
                v = float(self.stats[k, s])
                row[stat] = None if math.isnan(v) else round(v, 6)
            out.append(row)
        return out

    @property
    def nbytes(self) -> int:
        return int(self.stats.nbytes + self.profiles.nbytes + self.per_sentence.nbytes) + 100 * len(self.texts)


def corpus_statistics(loaded: LoadedModel, corpus: Corpus, batch_size: int = 64,
                      progress: Progress | None = None, patches: Mapping[str, Patch] | None = None) -> HeadStatistics:
    """Run the corpus through the model in batches (one recorded teacher-forced pass each) and keep running
    sums of every head's statistics and profile; `progress(done, total)` after each batch. `patches` act
    on the recorded pass (models/transformer.py), e.g. to plant hand-made attention maps in tests."""
    model = require_transformer(loaded)
    cfg = loaded.config
    if not corpus.items:
        raise ValueError("The corpus is empty: give at least one sentence.")
    start_time = time.perf_counter()
    heads = all_heads(cfg)
    n_heads = cfg.n_heads
    offset = {}
    for kind, layers in model_kinds(cfg):
        for layer in range(layers):
            offset[(kind, layer)] = heads.index(Head(kind, layer, 0))
    n_stats = len(STATS)
    sums = torch.zeros(len(heads), n_stats, dtype=torch.float64)
    aligned_count = torch.zeros(len(heads), dtype=torch.float64)
    profiles = torch.zeros(len(heads), len(PROFILE_BINS), dtype=torch.float64)
    query_tokens = {kind: 0 for kind, _ in model_kinds(cfg)}
    per_sentence = np.full((len(corpus), len(heads), n_stats), np.nan, dtype=np.float32)
    order = sorted(range(len(corpus)), key=lambda i: (len(corpus.items[i].source_ids),
                                                     len(corpus.items[i].decoder_ids)))
    has_gold = cfg.has_decoder and any(item.gold is not None for item in corpus.items)
    a_index = STATS.index("aligned")
    for start in range(0, len(order), batch_size):
        rows = order[start:start + batch_size]
        items = [corpus.items[i] for i in rows]
        src = pad_batch([it.source_ids for it in items], cfg.pad_token_id).to(loaded.device)
        tgt = None
        if cfg.has_decoder:
            tgt = pad_batch([it.decoder_ids or (cfg.bos_token_id,) for it in items], cfg.pad_token_id).to(loaded.device)
        wanted = [SRC_MASK, TGT_MASK] + [attention_name(kind, layer, "weights")
                                         for kind, layers in model_kinds(cfg) for layer in range(layers)]
        trace = record_pass(model, src, tgt, wanted, patches)
        src_mask = trace[SRC_MASK].cpu().bool()
        masks = {"src": src_mask}
        if cfg.has_decoder:
            masks["tgt"] = trace[TGT_MASK].cpu().bool()
        for kind, layers in model_kinds(cfg):
            q_side, k_side = kind.sides
            qmask, kmask = masks[q_side], masks[k_side]
            n_q = qmask.sum(-1).float()  # [B]
            query_tokens[kind] += int(n_q.sum())
            bins = None
            for layer in range(layers):
                weights = trace[attention_name(kind, layer, "weights")].cpu().float()  # [B,H,Tq,Tk]
                weights = weights * qmask[:, None, :, None]
                first = offset[(kind, layer)]
                values = row_statistics(weights, qmask, kmask)
                qm = qmask[:, None, :].float()
                for s, stat in enumerate(STATS):
                    if stat == "aligned":
                        continue
                    summed = (values[stat] * qm).sum(-1)  # [B,H]
                    sums[first:first + n_heads, s] += summed.sum(0).double()
                    per_sentence[rows, first:first + n_heads, s] = (summed / n_q.clamp(min=1)[:, None]).numpy()
                if kind is AttentionKind.CROSS and has_gold:
                    on_gold, scored = aligned_rows(weights, items)
                    sums[first:first + n_heads, a_index] += on_gold.sum(0).double()
                    aligned_count[first:first + n_heads] += float(scored.sum())
                    ok = scored > 0
                    ratio = (on_gold / scored.clamp(min=1)[:, None]).numpy()
                    ratio[~ok.numpy()] = np.nan
                    per_sentence[rows, first:first + n_heads, a_index] = ratio
                if bins is None:
                    bins = key_bins(weights.shape[2], weights.shape[3], kmask.sum(-1))
                flat = weights.permute(1, 0, 2, 3).reshape(n_heads, -1).double()
                index = bins.reshape(1, -1).expand(n_heads, -1)
                profiles[first:first + n_heads] += torch.zeros_like(profiles[:n_heads]).scatter_add_(1, index, flat)
        del trace
        if progress:
            progress(min(start + batch_size, len(order)), len(order))
    counts = torch.tensor([query_tokens[h.kind] for h in heads], dtype=torch.float64).clamp(min=1)
    stats = (sums / counts[:, None]).numpy()
    aligned = np.full(len(heads), np.nan)
    if has_gold:
        cross = np.array([h.kind is AttentionKind.CROSS for h in heads])
        aligned[cross] = (sums[:, a_index] / aligned_count.clamp(min=1)).numpy()[cross]
    stats[:, a_index] = aligned
    profiles = profiles / profiles.sum(-1, keepdim=True).clamp(min=1e-30)
    return HeadStatistics(loaded.name, corpus.key, heads, len(corpus), query_tokens, stats, profiles.numpy(),
                          per_sentence, [it.text for it in corpus.items], time.perf_counter() - start_time,
                          bool(has_gold))


# --- a bounded cache per (model, corpus) -----------------------------------------------------------------

def model_key(loaded: LoadedModel) -> str:
    """Identifies a model's weights: name, directory and the weights file's modification time."""
    stamp = ""
    if loaded.directory is not None:
        for name in ("model.safetensors", "pytorch_model.bin"):
            path = loaded.directory / name
            if path.is_file():
                stamp = str(path.stat().st_mtime_ns)
                break
    return json.dumps([loaded.name, str(loaded.directory), stamp])


_CACHE: OrderedDict[tuple[str, str], HeadStatistics] = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_ENTRIES = 8


def cached_statistics(loaded: LoadedModel, corpus: Corpus) -> HeadStatistics | None:
    """The statistics of (model, corpus) if computed before in this process."""
    with _CACHE_LOCK:
        key = (model_key(loaded), corpus.key)
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    return None


def head_statistics(loaded: LoadedModel, corpus: Corpus, batch_size: int = 64,
                    progress: Progress | None = None) -> HeadStatistics:
    """corpus_statistics, remembered per (model, corpus) in a small LRU (CACHE_ENTRIES entries)."""
    found = cached_statistics(loaded, corpus)
    if found is not None:
        if progress:
            progress(len(corpus), len(corpus))
        return found
    result = corpus_statistics(loaded, corpus, batch_size, progress)
    with _CACHE_LOCK:
        _CACHE[(model_key(loaded), corpus.key)] = result
        while len(_CACHE) > CACHE_ENTRIES:
            _CACHE.popitem(last=False)
    return result
