"""Cached corpus head statistics for /corpus and the /heads table (glue only; the work is
transformer_core.analysis.heads).

One result per (model, device, corpus) for every session, in a bytes-bounded cache like the shared trace
cache (explorer/cache.py: BoundedCache, as services.trace_cache); the query/key maps and the example
sentences' maps in a second small one.
The latest corpus of each model is remembered so /heads can show "behaviour over N sentences".
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from explorer.cache import BoundedCache
from explorer.services import get_model
from transformer_core.analysis import head_groups
from transformer_core.analysis import heads as corpus_heads

CORPUS_CACHE_ENTRIES = 16
CORPUS_CACHE_BYTES = 64 * 2**20  # statistics, not maps: 500 sentences × 24 heads ≈ 0.4 MB
DETAIL_CACHE_ENTRIES = 24
DETAIL_CACHE_BYTES = 64 * 2**20
QK_SENTENCES = 200  # the query/key map takes the corpus's first 200 sentences


@dataclass(frozen=True)
class CorpusResult:
    corpus: corpus_heads.Corpus
    stats: corpus_heads.HeadStatistics

    @property
    def nbytes(self) -> int:
        tokens = sum(len(i.source_ids) + len(i.decoder_ids) for i in self.corpus.items)
        return self.stats.nbytes + 16 * tokens + sum(len(i.text) for i in self.corpus.items) * 4


@st.cache_resource(show_spinner=False)
def corpus_cache() -> BoundedCache[CorpusResult]:
    """ONE copy of each corpus result for every session (read-only), bounded in entries and bytes."""
    return BoundedCache(CORPUS_CACHE_ENTRIES, CORPUS_CACHE_BYTES, size_of=lambda item: item.nbytes)


@st.cache_resource(show_spinner=False)
def detail_cache() -> BoundedCache[object]:
    """Query/key maps and example maps of single heads (recomputed from the cached corpus when evicted)."""
    return BoundedCache(DETAIL_CACHE_ENTRIES, DETAIL_CACHE_BYTES, size_of=_detail_size)


def _detail_size(value: object) -> int:
    if isinstance(value, head_groups.QueryKeyMap):
        return int(value.x.nbytes * 2) + 64 * len(value.token)
    return sum(int(m["weights"].nbytes) + 200 for m in value)  # sentence maps


@st.cache_resource(show_spinner=False)
def _latest() -> dict:
    """model name -> the cache key of its most recent corpus (for /heads), with a lock."""
    return {"lock": threading.Lock(), "keys": {}}


def corpus_key(name: str, device: str, source: str, n: int = 0, lines: tuple[str, ...] = ()) -> tuple:
    """The cache key of a corpus before it is built (text corpora by a digest of their lines)."""
    if source == "heldout":
        return name, device, "heldout", int(n)
    digest = hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()
    return name, device, source, len(lines), digest


def get_result(name: str, device: str, source: str, n: int, lines: tuple[str, ...],
               progress: Callable[[str, int, int], None]) -> CorpusResult:
    """The statistics of a corpus (held-out: n sentences; otherwise `lines`), cached for everybody.
    `progress(phase, done, total)`: phase 'generate' (text corpora) then 'heads'."""
    loaded = get_model(name, device)
    key = corpus_key(name, device, source, n, lines)

    def compute() -> CorpusResult:
        if source == "heldout":
            corpus = corpus_heads.heldout_corpus(loaded, n)
        else:
            corpus = corpus_heads.text_corpus(loaded, lines, progress=lambda d, t: progress("generate", d, t))
        stats = corpus_heads.corpus_statistics(loaded, corpus, progress=lambda d, t: progress("heads", d, t))
        return CorpusResult(corpus, stats)

    result = corpus_cache().get_or_compute(key, compute)
    latest = _latest()
    with latest["lock"]:
        latest["keys"][name] = key
    return result


def is_cached(name: str, device: str, source: str, n: int, lines: tuple[str, ...]) -> bool:
    return corpus_key(name, device, source, n, lines) in corpus_cache()


def latest_result(name: str) -> CorpusResult | None:
    """The most recent corpus result of a model still in the cache, or None (never computes)."""
    latest = _latest()
    with latest["lock"]:
        key = latest["keys"].get(name)
    if key is None or key not in corpus_cache():
        return None

    def evicted() -> CorpusResult:
        raise LookupError("evicted")

    try:
        return corpus_cache().get_or_compute(key, evicted)
    except LookupError:
        return None


def get_query_key_map(name: str, device: str, result: CorpusResult, head) -> head_groups.QueryKeyMap:
    loaded = get_model(name, device)
    return detail_cache().get_or_compute(
        ("qk", name, device, result.corpus.key, str(head)),
        lambda: head_groups.query_key_map(loaded, result.corpus, head, max_sentences=QK_SENTENCES))


def get_sentence_maps(name: str, device: str, result: CorpusResult, head, indices: tuple[int, ...]) -> list[dict]:
    loaded = get_model(name, device)
    return detail_cache().get_or_compute(
        ("maps", name, device, result.corpus.key, str(head), indices),
        lambda: head_groups.sentence_maps(loaded, result.corpus, head, indices))
