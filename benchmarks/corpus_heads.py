"""Corpus head statistics (transformer_core/analysis/heads.py): 500 held-out ko-en-toy sentences, every head, ONE
torch thread, batches of 64: the first computation (with a progress bar), then the cached reuse, and the peak memory.

    python benchmarks/corpus_heads.py [--model ko-en-toy] [--n 500] [--batch-size 64]

Targets (issue 21): first computation <= 15 s, cached reuse <= 1 s; memory bounded by statistics, not maps (the
kept result is a few hundred KB; the peak is the model plus one batch's recorded pass).
Prints the sample time (drawing the held-out sentences) apart from the statistics time.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc

import torch
from tqdm import tqdm

from transformer_core import load
from transformer_core.analysis import head_groups
from transformer_core.analysis import heads as H


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="ko-en-toy")
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    torch.set_num_threads(1)
    loaded = load(args.model)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    corpus = H.heldout_corpus(loaded, args.n)
    sample_s = time.perf_counter() - start
    tracemalloc.start()
    start = time.perf_counter()
    with tqdm(total=len(corpus), desc="heads", unit="sentence", file=sys.stderr) as bar:
        stats = H.head_statistics(loaded, corpus, args.batch_size, lambda d, t: bar.update(d - bar.n))
    first_s = time.perf_counter() - start
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    start = time.perf_counter()
    again = H.head_statistics(loaded, corpus)  # the page reuses its cached result the same way
    cached_s = time.perf_counter() - start
    assert again is stats
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tokens = sum(stats.query_tokens.values())
    print(f"model {args.model}: {stats.sentences} held-out sentences, {len(stats.heads)} heads, "
          f"{tokens} query tokens pooled, batch {args.batch_size}, 1 torch thread")
    print(f"drawing the sample:     {sample_s:6.2f} s")
    print(f"statistics (first):     {first_s:6.2f} s   (target <= 15 s: {'ok' if first_s <= 15 else 'MISSED'})")
    print(f"statistics (cached):    {cached_s * 1e3:6.2f} ms  (target <= 1 s: {'ok' if cached_s <= 1 else 'MISSED'})")
    print(f"kept result:            {stats.nbytes / 1e3:6.1f} KB (statistics, profiles, per-sentence numbers)")
    print(f"python allocations:     {traced_peak / 2**20:6.1f} MiB peak during the pass (tracemalloc; tensors "
          "are not all seen by it)")
    print(f"process peak RSS:       {rss_peak:6.0f} MiB (after loading the model: {rss_before:.0f} MiB)")
    groups = head_groups.head_groups(stats)
    for group, heads in groups.items():
        print(f"  {H.GROUPS.get(group, group)}: {', '.join(h.label for h in heads)}")


if __name__ == "__main__":
    main()
