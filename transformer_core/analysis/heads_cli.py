"""`python -m transformer_core heads --model NAME (--corpus FILE | --n N) [--json]`: corpus head statistics."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import torch

from transformer_core.analysis.head_groups import head_group
from transformer_core.analysis.heads import (
    STATS,
    HeadStatistics,
    clean_lines,
    corpus_problem,
    head_statistics,
    heldout_corpus,
    require_transformer,
    text_corpus,
)

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
