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
    from transformer_core.analysis.evaluate import examples_for, task_of

    if n < 1:
        raise ValueError("the corpus needs at least one sentence (n >= 1)")
    if not loaded.config.has_decoder:
        raise ValueError(f"{loaded.name} is encoder-only: it has no held-out task; give sentences instead")
    task = task_of(loaded)
    if not task and loaded.name == "paper-base":
        task = "ko-en"  # untrained paper-base borrows ko-en-toy's tokenizer: its sentences are that grammar's
    if not task:
        raise ValueError(f"{loaded.name}: its config.json names no task, so there are no held-out sentences; "
                         "give sentences instead")
    if task.startswith("letters-"):
        from transformer_core.training.recipes import held_out_examples

        examples = held_out_examples(task.removeprefix("letters-"), loaded.tokenizer, n, seed)
    else:
        examples = examples_for(loaded, task, n, seed)[:n]  # reverse appends hand-written texts: keep n
    bos = loaded.config.bos_token_id
    items = tuple(CorpusItem(loaded.tokenizer.decode(e.source_ids, skip_special_tokens=True),
                             tuple(e.source_ids), (bos, *e.target_ids), tuple(tuple(g) for g in e.gold))
                  for e in examples)
    return Corpus(f"heldout:{task}:{n}:{seed}", items, "heldout")


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
    from transformer_core.analysis.evaluate import task_of

    # ko-en's joint vocabulary knows the English words too, so unknown tokens alone would not tell.
    if loaded.config.has_decoder and task_of(loaded) == "ko-en" and \
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
            limit = output_limit(cfg, max(len(encoded[i]) for i in rows))
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
    on the recorded pass (model.py), e.g. to plant hand-made attention maps in tests."""
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


# --- command line --------------------------------------------------------------------------------------

def format_table(stats: HeadStatistics) -> str:
    """Plain-text table: one line per head, its statistics and its group."""
    lines = [f"{stats.model}: {stats.sentences} sentences ({stats.corpus_key}), {stats.seconds:.1f} s",
             f"{'head':<14}" + "".join(f"{s:>10}" for s in STATS) + "  group"]
    for k, head in enumerate(stats.heads):
        cells = "".join(f"{'-':>10}" if math.isnan(v) else f"{v:>10.3f}" for v in stats.stats[k])
        lines.append(f"{head.label:<14}{cells}  {head_group(stats, k)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """python -m transformer_core heads --model NAME (--corpus FILE | --n N) [--json]"""
    import argparse
    import sys
    from pathlib import Path

    from tqdm import tqdm

    from transformer_core.io.loading import ModelUnavailableError, load

    parser = argparse.ArgumentParser(prog="python -m transformer_core heads",
                                     description="What each attention head does over many sentences.")
    parser.add_argument("--model", default="ko-en-toy", help="a model name or directory")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--corpus", type=Path, help="a text file, one sentence a line (generation, then one "
                                                    "recorded pass; `aligned` is null: no gold alignment)")
    source.add_argument("--n", type=int, help="N held-out sentences of the model's task, teacher-forced on the "
                                              "gold target as the evaluation does")
    parser.add_argument("--seed", type=int, default=0, help="held-out sample seed (with --n)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--json", action="store_true", help="print one JSON object: sentences, seconds, heads")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads (default 1: on the busy 2-core machine this was measured on, the default "
                             "thread count took 29.8 s for 500 ko-en-toy sentences, one thread 3.2 s)")
    args = parser.parse_args(argv)
    torch.set_num_threads(max(1, args.threads))
    try:
        loaded = load(Path(args.model) if Path(args.model).is_dir() else args.model)
        require_transformer(loaded)
        start = time.perf_counter()
        if args.corpus is not None:
            lines = clean_lines(args.corpus.read_text(encoding="utf-8"))
            problem = corpus_problem(loaded, lines, max_lines=10**9)  # no line limit on the command line
            if problem:
                raise ValueError({"empty": f"{args.corpus} holds no sentence",
                                  "wrong_language": f"{args.corpus}: most lines hold no Korean; {loaded.name} "
                                                    "translates Korean",
                                  "unknown_tokens": f"{args.corpus}: most tokens are unknown to {loaded.name}"}
                                 .get(problem, problem))
            with tqdm(total=len(lines), desc="generating", unit="sentence", file=sys.stderr) as bar:
                corpus = text_corpus(loaded, lines, args.batch_size, lambda d, t: bar.update(d - bar.n))
        else:
            corpus = heldout_corpus(loaded, args.n, args.seed)
        with tqdm(total=len(corpus), desc="heads", unit="sentence", file=sys.stderr) as bar:
            stats = head_statistics(loaded, corpus, args.batch_size, lambda d, t: bar.update(d - bar.n))
    except (ValueError, OSError, ModelUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"model": loaded.name, "corpus": corpus.key, "sentences": stats.sentences,
                          "seconds": round(seconds, 3), "heads": stats.rows()}, ensure_ascii=False))
    else:
        print(format_table(stats))
    return 0
